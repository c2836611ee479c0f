import CX11
import Glibc

public struct X11Error: Error, CustomStringConvertible, Sendable {
  public var message: String
  public var description: String { message }
}

/// Set by the error handler while `catchingErrors` runs; only the UI thread makes X calls.
nonisolated(unsafe) private var caughtXError = false

/// The connection to the X server, its TrueColor visual, and the atoms we use.
final class DisplayConnection {
  let display: OpaquePointer
  let screen: Int32
  let root: Window
  let visual: UnsafeMutablePointer<Visual>
  let depth: Int32
  let hasSHM: Bool
  /// Channel layout of the visual's pixels; `.bgrx` is the common ff0000/00ff00/0000ff.
  let masks: (red: UInt, green: UInt, blue: UInt)
  let atoms: [String: Atom]

  static let atomNames = [
    "WM_PROTOCOLS", "WM_DELETE_WINDOW", "UTF8_STRING", "_NET_WM_NAME", "_NET_WM_ICON_NAME", "_NET_WM_PID",
    "_NET_WM_STATE", "_NET_WM_STATE_FULLSCREEN", "_NET_SUPPORTING_WM_CHECK", "WM_NAME", "WM_ICON_NAME",
  ]

  init(name: String?) throws(X11Error) {
    guard let d = XOpenDisplay(name) else {
      let shown = name ?? (getenv("DISPLAY").map { String(cString: $0) } ?? "")
      throw X11Error(
        message: shown.isEmpty ? "cannot open display (DISPLAY is not set)" : "cannot open display '\(shown)'")
    }
    display = d
    screen = XDefaultScreen(d)
    root = XRootWindow(d, screen)
    visual = XDefaultVisual(d, screen)
    depth = XDefaultDepth(d, screen)
    let v = visual.pointee
    // 32-bit pixels of any channel layout (depth 24, 30 or 32); masks are honoured.
    guard gv_visual_class(visual) == TrueColor, [24, 30, 32].contains(depth) else {
      XCloseDisplay(d)
      throw X11Error(
        message:
          "unsupported visual (depth \(depth), class \(gv_visual_class(visual))); gifview needs TrueColor of depth 24, 30 or 32"
      )
    }
    masks = (v.red_mask, v.green_mask, v.blue_mask)
    var major: Int32 = 0
    var minor: Int32 = 0
    var pixmaps: Int32 = 0
    hasSHM = XShmQueryExtension(d) != 0 && XShmQueryVersion(d, &major, &minor, &pixmaps) != 0
    var names = Self.atomNames.map { strdup($0) }
    var values = [Atom](repeating: 0, count: names.count)
    XInternAtoms(d, &names, Int32(names.count), 0, &values)
    for n in names { free(n) }
    atoms = Dictionary(uniqueKeysWithValues: zip(Self.atomNames, values))
  }

  /// True when pixels are 0x00RRGGBB (the layout the compositor writes as `.bgra`).
  var isBGRX: Bool { masks == (0xff0000, 0x00ff00, 0x0000ff) }

  var screenSize: (width: Int, height: Int) {
    (Int(XDisplayWidth(display, screen)), Int(XDisplayHeight(display, screen)))
  }

  var fileDescriptor: Int32 { XConnectionNumber(display) }

  /// Runs `body`, then syncs: answers false if `body` failed or the server sent an error.
  func catchingErrors(_ body: () -> Bool) -> Bool {
    XSync(display, 0)
    caughtXError = false
    let old = XSetErrorHandler { _, _ in
      caughtXError = true
      return 0
    }
    let ok = body()
    XSync(display, 0)
    XSetErrorHandler(old)
    return ok && !caughtXError
  }

  func atom(_ name: String) -> Atom { atoms[name]! }

  /// Is a window manager running (EWMH)? Without one, fullscreen is done by hand.
  var hasWindowManager: Bool {
    var type: Atom = 0
    var format: Int32 = 0
    var count: UInt = 0
    var after: UInt = 0
    var data: UnsafeMutablePointer<UInt8>?
    let r = XGetWindowProperty(
      display, root, atom("_NET_SUPPORTING_WM_CHECK"), 0, 1, 0, XA_WINDOW, &type, &format, &count, &after, &data)
    defer { if let data { XFree(data) } }
    return r == Success && count == 1
  }

  func close() {
    XCloseDisplay(display)
  }
}
