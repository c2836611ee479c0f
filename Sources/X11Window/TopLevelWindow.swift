import CX11
import Glibc

/// How to open a top-level window.
public struct WindowOptions: Sendable {
  /// Window title (UTF-8).
  public var title: String
  /// WM_CLASS instance and class names.
  public var className: (instance: String, class: String)
  /// Client size.
  public var width: Int
  /// Client size.
  public var height: Int
  /// Position asked of the window manager (both or neither).
  public var x: Int?
  /// Position asked of the window manager (both or neither).
  public var y: Int?
  /// Start fullscreen.
  public var fullscreen: Bool
  /// What the server paints where no child draws (0x00RRGGBB), nil: nothing.
  public var backgroundRGB: UInt32?
  /// The application icon in several sizes (`_NET_WM_ICON`, `WM_HINTS`); empty: none.
  public var icons: [WindowIcon] = []

  /// Options for a window titled `title`.
  public init(
    title: String, className: (instance: String, class: String) = ("gifview", "Gifview"), width: Int, height: Int,
    x: Int? = nil, y: Int? = nil, fullscreen: Bool = false, backgroundRGB: UInt32? = nil
  ) {
    self.title = title
    self.className = className
    self.width = width
    self.height = height
    self.x = x
    self.y = y
    self.fullscreen = fullscreen
    self.backgroundRGB = backgroundRGB
  }
}

/// An application's top-level window and its window-manager properties (DESIGN §5):
/// WM_CLASS, _NET_WM_PID, the four title properties, WM_DELETE_WINDOW, size hints,
/// fullscreen, the icon, WM_HINTS and WM_CLIENT_MACHINE (WindowIdentity.swift). It draws nothing itself: children (`ChildWindow`) do.
public final class TopLevelWindow {
  let connection: X11Connection
  /// The window's XID (the parent for children).
  public let id: XWindowID
  /// Client size, as the last ConfigureNotify said.
  public private(set) var width: Int
  /// Client size, as the last ConfigureNotify said.
  public private(set) var height: Int
  /// Fullscreen as last asked.
  public private(set) var isFullscreen = false
  private var wantsFullscreen = false
  private var savedGeometry: (Int, Int)?
  private var closed = false
  /// The WM_HINTS icon pixmap and mask, freed with the window.
  var iconPixmapIDs: [Pixmap] = []
  /// The icon was set: by `WindowOptions.icons`, or by `setIcons` (even to none).
  public internal(set) var hasIcons = false

  /// Creates the window (unmapped) on `connection`.
  public init(connection: X11Connection, options: WindowOptions) {
    self.connection = connection
    let d = connection.display
    width = max(options.width, 1)
    height = max(options.height, 1)
    var attributes = XSetWindowAttributes()
    var mask = CWEventMask
    if let rgb = options.backgroundRGB {
      attributes.background_pixel = connection.pixel(rgb)
      mask |= CWBackPixel
    } else {
      attributes.background_pixmap = 0  // None: the server never clears what children draw
      mask |= CWBackPixmap
    }
    attributes.event_mask =
      ExposureMask | KeyPressMask | ButtonPressMask | ButtonReleaseMask | Button1MotionMask | StructureNotifyMask
      | PropertyChangeMask
    id = XWindowID(
      rawValue: XCreateWindow(
        d, connection.root, Int32(options.x ?? 0), Int32(options.y ?? 0), UInt32(width), UInt32(height), 0,
        connection.depth, UInt32(InputOutput), connection.visual, UInt(mask), &attributes))
    setClassAndProtocols(options.className)
    setSizeHints(x: options.x, y: options.y, width: width, height: height)
    setTitle(options.title)
    setIdentity(icons: options.icons, connection: connection)
    if options.fullscreen {
      var state = connection.atom(.netWMStateFullscreen)
      XChangeProperty(d, id.rawValue, connection.atom(.netWMState), XA_ATOM, 32, PropModeReplace, &state, 1)
    }
    wantsFullscreen = options.fullscreen
    isFullscreen = options.fullscreen
  }

  deinit { close() }

  /// Shows the window (separate from init so the size can be set from the screen's first).
  public func map() {
    XMapWindow(connection.display, id.rawValue)
    XFlush(connection.display)
    if wantsFullscreen && !connection.hasWindowManager { setFullscreen(true) }
  }

  private func setClassAndProtocols(_ names: (instance: String, class: String)) {
    let d = connection.display
    guard let hint = XAllocClassHint() else { return }
    let name = strdup(names.instance)
    let cls = strdup(names.class)
    hint.pointee.res_name = name
    hint.pointee.res_class = cls
    XSetClassHint(d, id.rawValue, hint)
    XFree(hint)
    free(name)
    free(cls)
    var pid = UInt(getpid())
    XChangeProperty(d, id.rawValue, connection.atom(.netWMPID), XA_CARDINAL, 32, PropModeReplace, &pid, 1)
    var delete = connection.atom(.wmDeleteWindow)
    XSetWMProtocols(d, id.rawValue, &delete, 1)
  }

  private func setSizeHints(x: Int?, y: Int?, width: Int, height: Int, gravity: Int32? = nil) {
    guard let hints = XAllocSizeHints() else { return }
    hints.pointee.flags = PMinSize | PSize
    if let gravity {
      hints.pointee.flags |= PWinGravity
      hints.pointee.win_gravity = gravity
    }
    hints.pointee.min_width = 32
    hints.pointee.min_height = 32
    hints.pointee.width = Int32(width)
    hints.pointee.height = Int32(height)
    if let x, let y {
      hints.pointee.flags |= USPosition | PPosition
      hints.pointee.x = Int32(x)
      hints.pointee.y = Int32(y)
    }
    XSetWMNormalHints(connection.display, id.rawValue, hints)
    XFree(hints)
  }

  /// Writes WM_NAME, WM_ICON_NAME, _NET_WM_NAME and _NET_WM_ICON_NAME (UTF-8) together.
  public func setTitle(_ title: String) {
    let d = connection.display
    let utf8 = connection.atom(.utf8String)
    var bytes = Array(title.utf8)
    for name in [AtomName.wmName, .wmIconName, .netWMName, .netWMIconName] {
      XChangeProperty(d, id.rawValue, connection.atom(name), utf8, 8, PropModeReplace, &bytes, Int32(bytes.count))
    }
    XFlush(d)
  }

  /// Asks for a new client size (the window manager may refuse; `.resized` tells).
  public func resize(width w: Int, height h: Int) {
    requestedSize = (max(w, 1), max(h, 1))
    setSizeHints(x: nil, y: nil, width: w, height: h)
    XResizeWindow(connection.display, id.rawValue, UInt32(max(w, 1)), UInt32(max(h, 1)))
    XFlush(connection.display)
  }

  /// Asks for a new client size with the window's centre where it is (switching between
  /// GIFs of different sizes): the window moves as it resizes, kept on the screen. With a
  /// window manager the request says StaticGravity, so the position is the client area's
  /// own and not its frame's.
  public func resize(width w: Int, height h: Int, keepingCentre: Bool) {
    guard keepingCentre, !isFullscreen else { return resize(width: w, height: h) }
    let d = connection.display
    var x: Int32 = 0
    var y: Int32 = 0
    var child: Window = 0
    XTranslateCoordinates(d, id.rawValue, connection.root, 0, 0, &x, &y, &child)
    let (w, h) = (max(w, 1), max(h, 1))
    requestedSize = (w, h)
    let screen = connection.screenSize
    func centred(_ origin: Int32, _ old: Int, _ new: Int, _ room: Int) -> Int {
      let p = Int(origin) + (old - new) / 2
      return new <= room ? min(max(p, 0), room - new) : p
    }
    let nx = centred(x, width, w, screen.width)
    let ny = centred(y, height, h, screen.height)
    setSizeHints(x: nil, y: nil, width: w, height: h, gravity: StaticGravity)
    XMoveResizeWindow(d, id.rawValue, Int32(nx), Int32(ny), UInt32(w), UInt32(h))
    XFlush(d)
  }

  /// Enters or leaves fullscreen: through the window manager (EWMH), or without one by
  /// covering the screen.
  public func setFullscreen(_ on: Bool) {
    let d = connection.display
    isFullscreen = on
    requestedSize = nil
    if connection.hasWindowManager {
      var event = XEvent()
      event.xclient.type = ClientMessage
      event.xclient.window = id.rawValue
      event.xclient.message_type = connection.atom(.netWMState)
      event.xclient.format = 32
      event.xclient.data.l.0 = on ? 1 : 0  // _NET_WM_STATE_ADD / _REMOVE
      event.xclient.data.l.1 = Int(connection.atom(.netWMStateFullscreen))
      event.xclient.data.l.3 = 1
      XSendEvent(d, connection.root, 0, SubstructureRedirectMask | SubstructureNotifyMask, &event)
    } else if on {
      savedGeometry = (width, height)
      let s = connection.screenSize
      XMoveResizeWindow(d, id.rawValue, 0, 0, UInt32(s.width), UInt32(s.height))
    } else if let (w, h) = savedGeometry {
      XResizeWindow(d, id.rawValue, UInt32(w), UInt32(h))
    }
    XFlush(d)
  }

  /// The size last asked for by `resize`, which the server may not have reported yet.
  public private(set) var requestedSize: (width: Int, height: Int)?

  /// Records the size a `.configured` event for this window reported; answers true
  /// when it changed.
  public func noteConfigured(width w: Int, height h: Int) -> Bool {
    guard w != width || h != height else { return false }
    (width, height) = (w, h)
    return true
  }

  /// Destroys the window; idempotent.
  public func close() {
    guard !closed else { return }
    closed = true
    guard connection.isUsable else { return }
    for p in iconPixmapIDs { XFreePixmap(connection.display, p) }
    XDestroyWindow(connection.display, id.rawValue)
  }
}
