import CX11
import Glibc

/// A second X client that looks at and pokes other clients' windows: for tests,
/// `make screenshots` and measurements (the way a user or a window manager would).
public final class WindowProbe {
  let connection: X11Connection
  /// An unmapped window of the probe's own, for selection and drag-and-drop traffic.
  lazy var helperWindow: Window = {
    var a = XSetWindowAttributes()
    a.event_mask = PropertyChangeMask
    return XCreateWindow(
      connection.display, connection.root, -10, -10, 1, 1, 0, 0, UInt32(InputOnly), nil, UInt(CWEventMask), &a)
  }()

  /// Connects to `display` as a separate client.
  public init(display: String) throws(X11Error) {
    connection = try X11Connection(name: display)
    // A probed window may resize or vanish between two requests: an X error must fail
    // the one read (XGetImage answers nil), never end the testing process.
    XSetErrorHandler { _, _ in 0 }
  }

  deinit { connection.close() }

  /// Top-level windows (children of the root) whose WM_CLASS class is `cls`.
  public func windows(withClass cls: String) -> [UInt] {
    let d = connection.display
    var rootRet: Window = 0
    var parent: Window = 0
    var children: UnsafeMutablePointer<Window>?
    var count: UInt32 = 0
    guard XQueryTree(d, connection.root, &rootRet, &parent, &children, &count) != 0, let children else { return [] }
    defer { XFree(children) }
    var found: [UInt] = []
    for i in 0..<Int(count) {
      var hint = XClassHint()
      if XGetClassHint(d, children[i], &hint) != 0 {
        let c = hint.res_class.map { String(cString: $0) }
        if let n = hint.res_name { XFree(n) }
        if let r = hint.res_class { XFree(r) }
        if c == cls { found.append(children[i]) }
      }
    }
    return found
  }

  /// Waits up to `timeoutMS` for a mapped window of class `cls`.
  public func waitForWindow(withClass cls: String = "Gifview", timeoutMS: Int = 5000) -> UInt? {
    for _ in 0..<(timeoutMS / 10) {
      if let w = windows(withClass: cls).first(where: isViewable) { return w }
      usleep(10_000)
    }
    return nil
  }

  /// Waits up to `timeoutMS` for a mapped gifview window of process `pid`.
  public func waitForWindow(pid: Int32, timeoutMS: Int = 5000) -> UInt? {
    for _ in 0..<(timeoutMS / 10) {
      let mine = windows(withClass: "Gifview").first { w in
        isViewable(w) && property(w, "_NET_WM_PID")?.longs.first == Int(pid)
      }
      if let mine { return mine }
      usleep(10_000)
    }
    return nil
  }

  /// The window is mapped and all its ancestors are.
  public func isViewable(_ w: UInt) -> Bool {
    var a = XWindowAttributes()
    return XGetWindowAttributes(connection.display, w, &a) != 0 && a.map_state == IsViewable
  }

  /// The window's size.
  public func size(_ w: UInt) -> (width: Int, height: Int) {
    var a = XWindowAttributes()
    XGetWindowAttributes(connection.display, w, &a)
    return (Int(a.width), Int(a.height))
  }

  /// WM_CLASS as (instance, class).
  public func wmClass(_ w: UInt) -> (String, String)? {
    var hint = XClassHint()
    guard XGetClassHint(connection.display, w, &hint) != 0 else { return nil }
    defer {
      if let n = hint.res_name { XFree(n) }
      if let r = hint.res_class { XFree(r) }
    }
    return (hint.res_name.map { String(cString: $0) } ?? "", hint.res_class.map { String(cString: $0) } ?? "")
  }

  /// A property's raw items (8-bit as bytes, 32-bit as longs) and its type's name.
  public func property(_ w: UInt, _ name: String) -> (type: String, bytes: [UInt8], longs: [Int])? {
    let d = connection.display
    let atom = XInternAtom(d, name, 1)
    guard atom != 0 else { return nil }
    var type: Atom = 0
    var format: Int32 = 0
    var count: UInt = 0
    var after: UInt = 0
    var data: UnsafeMutablePointer<UInt8>?
    guard XGetWindowProperty(d, w, atom, 0, 1 << 20, 0, 0, &type, &format, &count, &after, &data) == Success,
      type != 0, let data
    else { return nil }
    defer { XFree(data) }
    let typeName =
      XGetAtomName(d, type).map { p in
        defer { XFree(p) }
        return String(cString: p)
      } ?? ""
    switch format {
    case 8: return (typeName, Array(UnsafeBufferPointer(start: data, count: Int(count))), [])
    case 32:
      let longs = UnsafeRawPointer(data).assumingMemoryBound(to: Int.self)
      return (typeName, [], Array(UnsafeBufferPointer(start: longs, count: Int(count))))
    default: return (typeName, [], [])
    }
  }

  /// A property's bytes as UTF-8 text.
  public func string(_ w: UInt, _ name: String) -> String? {
    property(w, name).map { String(decoding: $0.bytes, as: UTF8.self) }
  }

  /// The window's pixels as 0x00RRGGBB (XGetImage).
  public func pixels(_ w: UInt) -> (width: Int, height: Int, pixels: [UInt32])? {
    rawPixels(w).map { ($0.width, $0.height, $0.pixels.map { $0 & 0xFF_FFFF }) }
  }

  /// The window's pixel values exactly as the visual stores them.
  public func rawPixels(_ w: UInt) -> (width: Int, height: Int, pixels: [UInt32])? {
    let (width, height) = size(w)
    guard width > 0, height > 0,
      let img = XGetImage(connection.display, w, 0, 0, UInt32(width), UInt32(height), ~0, ZPixmap)
    else { return nil }
    defer { gv_destroy_image(img) }
    var out = [UInt32](repeating: 0, count: width * height)
    for y in 0..<height {
      for x in 0..<width { out[y * width + x] = UInt32(truncatingIfNeeded: gv_get_pixel(img, Int32(x), Int32(y))) }
    }
    return (width, height, out)
  }

  /// Every top-level window (children of the root), bottom to top in stacking order.
  public func topLevelWindows() -> [UInt] {
    var rootRet: Window = 0
    var parent: Window = 0
    var children: UnsafeMutablePointer<Window>?
    var count: UInt32 = 0
    guard XQueryTree(connection.display, connection.root, &rootRet, &parent, &children, &count) != 0, let children
    else { return [] }
    defer { XFree(children) }
    return (0..<Int(count)).map { UInt(children[$0]) }
  }

  /// The children of `w`, bottom to top in stacking order (a grid's tiles and names).
  public func children(_ w: UInt) -> [UInt] {
    var rootRet: Window = 0
    var parent: Window = 0
    var children: UnsafeMutablePointer<Window>?
    var count: UInt32 = 0
    guard XQueryTree(connection.display, Window(w), &rootRet, &parent, &children, &count) != 0, let children
    else { return [] }
    defer { XFree(children) }
    return (0..<Int(count)).map { UInt(children[$0]) }
  }

  /// One pixel of `w` as 0x00RRGGBB with a single 1×1 XGetImage (one round trip), for
  /// polling; nil while it cannot be read (not mapped yet, gone, outside): X errors
  /// from this call are ignored instead of ending the process.
  public func pixel(_ w: UInt, x: Int, y: Int) -> UInt32? {
    guard let img = XGetImage(connection.display, w, Int32(x), Int32(y), 1, 1, ~0, ZPixmap) else { return nil }
    defer { gv_destroy_image(img) }
    return UInt32(truncatingIfNeeded: gv_get_pixel(img, 0, 0)) & 0xFF_FFFF
  }

  /// Sends a key press (as XSendEvent; gifview accepts synthetic events), with Shift
  /// held when the keysym is on the key's shifted level, plus `state` (e.g. `lockMask`,
  /// `controlMask`, `group2` for the second XKB layout).
  public func sendKey(_ w: UInt, keysym: UInt, state: UInt32 = 0) {
    let d = connection.display
    var e = XEvent()
    e.xkey.type = KeyPress
    e.xkey.display = d
    e.xkey.window = w
    e.xkey.root = connection.root
    e.xkey.same_screen = 1
    let code = XKeysymToKeycode(d, KeySym(keysym))
    e.xkey.keycode = UInt32(code)
    e.xkey.state = state
    if XkbKeycodeToKeysym(d, code, 0, 0) != keysym && XkbKeycodeToKeysym(d, code, 0, 1) == keysym {
      e.xkey.state |= UInt32(ShiftMask)
    }
    XSendEvent(d, w, 1, KeyPressMask, &e)
    XFlush(d)
  }

  /// Caps Lock held (LockMask).
  public static let lockMask = UInt32(LockMask)
  /// Control held.
  public static let controlMask = UInt32(ControlMask)
  /// Shift held.
  public static let shiftMask = UInt32(ShiftMask)
  /// The second XKB group (layout) active.
  public static let group2: UInt32 = 1 << 13

  /// Common keysyms, so tests need not import Xlib.
  public static let keyQ: UInt = 0x71, keySpace: UInt = 0x20, keyPeriod: UInt = 0x2e, keyR: UInt = 0x72
  /// More keysyms.
  public static let keyEscape: UInt = 0xff1b, keyB: UInt = 0x62, keyI: UInt = 0x69
  /// More keysyms.
  public static let keyN: UInt = 0x6e, keyP: UInt = 0x70, keyF: UInt = 0x66, keyW: UInt = 0x77, key0: UInt = 0x30
  /// More keysyms.
  public static let keyS: UInt = 0x73

  /// Sends a click: a press and a release of `button` at (x, y) (1 left, 4/5 wheel).
  public func sendButton(_ w: UInt, button: UInt32, x: Int = 1, y: Int = 1) {
    sendButtonPress(w, button: button, x: x, y: y)
    sendButtonRelease(w, button: button, x: x, y: y)
  }

  /// Sends a button press alone (the start of a drag).
  public func sendButtonPress(_ w: UInt, button: UInt32, x: Int, y: Int) {
    sendButtonEvent(w, type: ButtonPress, button: button, x: x, y: y)
  }

  /// Sends a button release (the end of a click or a drag).
  public func sendButtonRelease(_ w: UInt, button: UInt32, x: Int, y: Int) {
    sendButtonEvent(w, type: ButtonRelease, button: button, x: x, y: y)
  }

  /// Drags with the left button from one point to another (press, motion, release).
  public func sendDrag(_ w: UInt, from: (x: Int, y: Int), to: (x: Int, y: Int)) {
    sendButtonPress(w, button: 1, x: from.x, y: from.y)
    sendDrag(w, x: to.x, y: to.y)
    sendButtonRelease(w, button: 1, x: to.x, y: to.y)
  }

  /// Sends pointer motion with button 1 held (a drag) to (x, y).
  public func sendDrag(_ w: UInt, x: Int, y: Int) {
    let d = connection.display
    var e = XEvent()
    e.xmotion.type = MotionNotify
    e.xmotion.display = d
    e.xmotion.window = w
    e.xmotion.root = connection.root
    e.xmotion.same_screen = 1
    e.xmotion.state = UInt32(Button1Mask)
    e.xmotion.x = Int32(x)
    e.xmotion.y = Int32(y)
    XSendEvent(d, w, 1, Button1MotionMask, &e)
    XFlush(d)
  }

  private func sendButtonEvent(_ w: UInt, type: Int32, button: UInt32, x: Int, y: Int) {
    let d = connection.display
    var e = XEvent()
    e.xbutton.type = type
    e.xbutton.display = d
    e.xbutton.window = w
    e.xbutton.root = connection.root
    e.xbutton.same_screen = 1
    e.xbutton.button = button
    e.xbutton.x = Int32(x)
    e.xbutton.y = Int32(y)
    XSendEvent(d, w, 1, type == ButtonPress ? ButtonPressMask : ButtonReleaseMask, &e)
    XFlush(d)
  }

  /// What a window manager's close button does: WM_DELETE_WINDOW.
  public func sendDelete(_ w: UInt) {
    let d = connection.display
    var e = XEvent()
    e.xclient.type = ClientMessage
    e.xclient.window = w
    e.xclient.message_type = connection.atom(.wmProtocols)
    e.xclient.format = 32
    e.xclient.data.l.0 = Int(connection.atom(.wmDeleteWindow))
    XSendEvent(d, w, 0, 0, &e)
    XFlush(d)
  }

  /// The window's top-left corner on the screen (root coordinates).
  public func position(_ w: UInt) -> (x: Int, y: Int) {
    var x: Int32 = 0
    var y: Int32 = 0
    var child: Window = 0
    XTranslateCoordinates(connection.display, w, connection.root, 0, 0, &x, &y, &child)
    return (Int(x), Int(y))
  }

  /// Moves another client's window, as a user dragging it would (without a window manager).
  public func move(_ w: UInt, x: Int, y: Int) {
    XMoveWindow(connection.display, w, Int32(x), Int32(y))
    XSync(connection.display, 0)
  }

  /// Resizes another client's window, as a window manager would.
  public func resize(_ w: UInt, width: Int, height: Int) {
    XResizeWindow(connection.display, w, UInt32(width), UInt32(height))
    XSync(connection.display, 0)
  }
}
