import CX11
import Glibc

/// A failure to open or keep an X connection, as one line.
public struct X11Error: Error, CustomStringConvertible, Sendable, Equatable {
  /// What went wrong, e.g. "cannot open display ':9'".
  public var message: String
  /// The message.
  public var description: String { message }
  /// The X server went away (closed, killed, network down).
  public static let connectionLost = X11Error(message: "lost connection to the X server")
}

/// Set by the error handler while `catchingErrors` runs; only the UI thread makes X calls.
nonisolated(unsafe) private var caughtXError = false

/// Where a connection's loss is recorded: the Xlib exit handler's user data.
private final class LossFlag {
  var lost = false
}

/// A connection to an X server with its TrueColor visual: opened here, or borrowed from
/// a host that made it with plain Xlib. All calls on the thread that owns it.
public final class X11Connection {
  /// The Xlib `Display*`.
  public let display: OpaquePointer
  let screen: Int32
  let root: Window
  let visual: UnsafeMutablePointer<Visual>
  let depth: Int32
  let hasSHM: Bool
  /// Channel layout of the visual's pixels; `.bgrx` is the common ff0000/00ff00/0000ff.
  let masks: (red: UInt, green: UInt, blue: UInt)
  let atoms: Atoms
  private let owned: Bool
  private let loss = LossFlag()
  private var closed = false
  /// Atoms interned by name on demand (selection targets such as "image/png").
  private var namedAtoms: [String: Atom] = [:]
  /// Objects that take protocol events (selections, drag and drop) before translation.
  var rawEventHandlers: [WeakRawEventHandler] = []
  /// The server time of the last key press or button event (0: none yet, or a synthetic
  /// event that carried none): the ICCCM timestamp for selection requests.
  public internal(set) var lastInputTime: UInt = 0

  /// Opens display `name` (nil: `$DISPLAY`). Losing the server later does not end the
  /// process: `isLost` turns true and the caller reports it.
  public convenience init(name: String?) throws(X11Error) {
    guard let d = XOpenDisplay(name) else {
      let shown = name ?? (getenv("DISPLAY").map { String(cString: $0) } ?? "")
      throw X11Error(
        message: shown.isEmpty ? "cannot open display (DISPLAY is not set)" : "cannot open display '\(shown)'")
    }
    try self.init(display: d, owned: true)
  }

  /// Uses a host's open display; the host keeps owning (and closing) it.
  public convenience init(borrowing display: OpaquePointer) throws(X11Error) {
    try self.init(display: display, owned: false)
  }

  private init(display d: OpaquePointer, owned: Bool) throws(X11Error) {
    display = d
    self.owned = owned
    screen = XDefaultScreen(d)
    root = XRootWindow(d, screen)
    visual = XDefaultVisual(d, screen)
    depth = XDefaultDepth(d, screen)
    let v = visual.pointee
    // 32-bit pixels of any channel layout (depth 24, 30 or 32); masks are honoured.
    guard gv_visual_class(visual) == TrueColor, [24, 30, 32].contains(depth) else {
      if owned { XCloseDisplay(d) }
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
    atoms = Atoms(display: d)
    if owned {
      // Per display, not process-wide (libX11 1.7+): when the server goes away Xlib calls
      // this instead of exit(), and the event loop reports the loss.
      XSetIOErrorExitHandler(
        d, { _, data in data.map { Unmanaged<LossFlag>.fromOpaque($0).takeUnretainedValue().lost = true } },
        Unmanaged.passUnretained(loss).toOpaque())
    }
  }

  deinit { close() }

  /// The server went away; no request reaches it any more.
  public var isLost: Bool { loss.lost }

  /// Requests can still be made: neither closed nor lost. Resources freed after the
  /// connection ended are simply forgotten (the server freed them with it).
  var isUsable: Bool { !closed && !loss.lost }

  /// XCloseDisplay has run: the Display is freed and must not be touched at all.
  var isClosed: Bool { closed }

  /// The connection's socket, to poll for input.
  public var fileDescriptor: Int32 { XConnectionNumber(display) }

  /// Events Xlib has already read from the socket (poll would not see them).
  public var hasQueuedEvents: Bool { !isLost && XEventsQueued(display, QueuedAlready) > 0 }

  /// Sends buffered requests.
  public func flush() {
    if !isLost { XFlush(display) }
  }

  /// The default screen's size in pixels.
  public var screenSize: (width: Int, height: Int) {
    (Int(XDisplayWidth(display, screen)), Int(XDisplayHeight(display, screen)))
  }

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

  func atom(_ name: AtomName) -> Atom { atoms[name] }

  /// The atom named `name`, interned once.
  func atom(named name: String) -> Atom {
    if let a = namedAtoms[name] { return a }
    let a = XInternAtom(display, name, 0)
    namedAtoms[name] = a
    return a
  }

  /// The name of `atom`, nil for None or an unknown atom.
  func name(of atom: Atom) -> String? {
    guard atom != 0, let p = XGetAtomName(display, atom) else { return nil }
    defer { XFree(p) }
    return String(cString: p)
  }

  /// Registers `handler` for protocol events until it goes away.
  func addRawEventHandler(_ handler: any RawEventHandler) {
    rawEventHandlers.removeAll { $0.handler == nil }
    rawEventHandlers.append(WeakRawEventHandler(handler: handler))
  }

  /// Offers `e` to the protocol handlers; true when one of them took it.
  func dispatchRaw(_ e: inout XEvent) -> Bool {
    for h in rawEventHandlers {
      if let handler = h.handler, handler.handleRaw(&e) { return true }
    }
    return false
  }

  /// A timestamp for a selection request made in answer to user input: the last input
  /// event's time, or, when it carried none (a synthetic event), the server's time now,
  /// learnt by a zero-length append to a property of `window` (ICCCM §2.1: never
  /// CurrentTime). The wait is bounded: the PropertyNotify is queued by the XSync.
  func userTime(window: Window) -> Time {
    if lastInputTime != 0 { return lastInputTime }
    return serverTime(window: window)
  }

  /// The server's time now (see `userTime`); CurrentTime if the server did not say.
  func serverTime(window: Window) -> Time {
    guard isUsable else { return Time(CurrentTime) }
    var none: UInt8 = 0
    XChangeProperty(display, window, atom(.gifviewTime), Atom(XA_STRING), 8, PropModeAppend, &none, 0)
    XSync(display, 0)
    var key = (window, atom(.gifviewTime))
    var e = XEvent()
    let found = withUnsafeMutablePointer(to: &key) { k in
      XCheckIfEvent(
        display, &e,
        { _, ev, arg in
          guard let ev, let arg else { return 0 }
          let want = UnsafeRawPointer(arg).assumingMemoryBound(to: (Window, Atom).self).pointee
          let p = ev.pointee.xproperty
          return ev.pointee.type == PropertyNotify && p.window == want.0 && p.atom == want.1 ? 1 : 0
        }, UnsafeMutableRawPointer(k).assumingMemoryBound(to: CChar.self))
    }
    return found != 0 ? e.xproperty.time : Time(CurrentTime)
  }

  /// Is a window manager running (EWMH)? Without one, fullscreen is done by hand.
  var hasWindowManager: Bool {
    var type: Atom = 0
    var format: Int32 = 0
    var count: UInt = 0
    var after: UInt = 0
    var data: UnsafeMutablePointer<UInt8>?
    let r = XGetWindowProperty(
      display, root, atom(.netSupportingWMCheck), 0, 1, 0, XA_WINDOW, &type, &format, &count, &after, &data)
    defer { if let data { XFree(data) } }
    return r == Success && count == 1
  }

  /// 0x00RRGGBB converted to the visual's pixel layout.
  func pixel(_ rgb: UInt32) -> UInt {
    UInt(PixelLayout(masks: masks).convert(rgb))
  }

  /// Closes an owned display (a borrowed one stays the host's); idempotent.
  public func close() {
    guard !closed else { return }
    closed = true
    if owned { XCloseDisplay(display) }
  }
}

/// Something that handles X protocol events itself (ICCCM selections, XDND), ahead of
/// `WindowEvent` translation. Called on the UI thread, from the event loop.
protocol RawEventHandler: AnyObject {
  /// Handles `e` and answers true, or answers false: not this handler's.
  func handleRaw(_ e: inout XEvent) -> Bool
}

/// A handler the connection does not keep alive.
struct WeakRawEventHandler {
  weak var handler: (any RawEventHandler)?
}

/// Replaces Xlib's process-wide I/O error handler, which prints its own lines on stderr,
/// by a silent one; a lost server is then reported once, as `X11Error.connectionLost`.
/// Process-wide, so for applications: a library leaves this to its host.
public func quietXlibIOErrors() {
  _ = XSetIOErrorHandler { _ in 0 }
}
