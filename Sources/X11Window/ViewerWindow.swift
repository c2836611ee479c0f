import CX11
import Glibc

/// How to open the window.
public struct WindowOptions: Sendable {
  public var display: String?
  public var title: String
  public var width: Int
  public var height: Int
  public var x: Int?
  public var y: Int?
  public var useSHM: Bool
  public var fullscreen: Bool

  public init(
    display: String? = nil, title: String, width: Int, height: Int, x: Int? = nil, y: Int? = nil,
    useSHM: Bool = true, fullscreen: Bool = false
  ) {
    self.display = display
    self.title = title
    self.width = width
    self.height = height
    self.x = x
    self.y = y
    self.useSHM = useSHM
    self.fullscreen = fullscreen
  }
}

/// Text drawn over the image by the server (info overlay, failure card, progress).
public struct TextItem: Sendable {
  public enum Anchor: Sendable { case topLeft, center, bottomRight }
  public var lines: [String]
  public var x: Int
  public var y: Int
  public var anchor: Anchor
  /// A dark translucent-looking box behind the text.
  public var boxed: Bool
  public var color: (r: UInt8, g: UInt8, b: UInt8)

  public init(
    _ lines: [String], x: Int, y: Int, anchor: Anchor = .topLeft, boxed: Bool = true,
    color: (r: UInt8, g: UInt8, b: UInt8) = (235, 235, 235)
  ) {
    self.lines = lines
    self.x = x
    self.y = y
    self.anchor = anchor
    self.boxed = boxed
    self.color = color
  }
}

/// gifview's one top-level window (DESIGN §5). All calls on the UI thread.
public final class ViewerWindow {
  private let connection: DisplayConnection
  public let window: UInt
  private let gc: GC
  private var loadedFont: UnsafeMutablePointer<XFontStruct>?
  private var fontLoaded = false
  /// Loaded when text is first drawn: the ISO 10646 font costs milliseconds of start-up
  /// that the first frame should not wait for.
  private var font: UnsafeMutablePointer<XFontStruct>? {
    if !fontLoaded {
      fontLoaded = true
      let d = connection.display
      loadedFont =
        XLoadQueryFont(d, "-misc-fixed-medium-r-normal--13-*-*-*-*-*-iso10646-1") ?? XLoadQueryFont(d, "fixed")
      if let loadedFont { XSetFont(d, gc, loadedFont.pointee.fid) }
    }
    return loadedFont
  }
  private var surface: Surface?
  private let trySHM: Bool
  public private(set) var width: Int
  public private(set) var height: Int
  public private(set) var isFullscreen = false
  private var closed = false
  private var savedGeometry: (Int, Int)?

  public init(_ options: WindowOptions) throws(X11Error) {
    connection = try DisplayConnection(name: options.display)
    // Xlib cannot go on after this; the program ends with DESIGN's one-line error.
    XSetIOErrorHandler { _ in
      let msg = "gifview: error: lost connection to the X server\n"
      _ = msg.withCString { write(2, $0, strlen($0)) }
      _exit(1)
    }
    let d = connection.display
    trySHM = options.useSHM
    width = max(options.width, 1)
    height = max(options.height, 1)

    var attributes = XSetWindowAttributes()
    attributes.background_pixmap = 0  // None: the server never clears what we draw
    attributes.event_mask = ExposureMask | KeyPressMask | ButtonPressMask | StructureNotifyMask
    window = XCreateWindow(
      d, connection.root, Int32(options.x ?? 0), Int32(options.y ?? 0), UInt32(width), UInt32(height), 0,
      connection.depth, UInt32(InputOutput), connection.visual, UInt(CWBackPixmap | CWEventMask), &attributes)
    gc = XCreateGC(d, window, 0, nil)

    setClassAndProtocols()
    setSizeHints(x: options.x, y: options.y, width: width, height: height)
    setTitle(options.title)
    if options.fullscreen {
      var state = connection.atom("_NET_WM_STATE_FULLSCREEN")
      XChangeProperty(d, window, connection.atom("_NET_WM_STATE"), XA_ATOM, 32, PropModeReplace, &state, 1)
    }
    wantsFullscreen = options.fullscreen
    isFullscreen = options.fullscreen
  }

  private var wantsFullscreen = false

  /// Shows the window (separate from init so the size can be set from the screen's first).
  public func map() {
    XMapWindow(connection.display, window)
    XFlush(connection.display)
    if wantsFullscreen && !connection.hasWindowManager { setFullscreen(true) }
  }

  /// Events Xlib has already read from the socket (poll would not see them).
  public var hasQueuedEvents: Bool { XEventsQueued(connection.display, QueuedAlready) > 0 }

  deinit { close() }

  public var fileDescriptor: Int32 { connection.fileDescriptor }
  public var screenSize: (width: Int, height: Int) { connection.screenSize }
  public var usesSHM: Bool { surface?.usesSHM ?? (trySHM && connection.hasSHM) }

  private func setClassAndProtocols() {
    let d = connection.display
    let hint = XAllocClassHint()!
    let name = strdup("gifview")
    let cls = strdup("Gifview")
    hint.pointee.res_name = name
    hint.pointee.res_class = cls
    XSetClassHint(d, window, hint)
    XFree(hint)
    free(name)
    free(cls)
    var pid = UInt(getpid())
    XChangeProperty(d, window, connection.atom("_NET_WM_PID"), XA_CARDINAL, 32, PropModeReplace, &pid, 1)
    var delete = connection.atom("WM_DELETE_WINDOW")
    XSetWMProtocols(d, window, &delete, 1)
  }

  private func setSizeHints(x: Int?, y: Int?, width: Int, height: Int) {
    let hints = XAllocSizeHints()!
    hints.pointee.flags = PMinSize | PSize
    hints.pointee.min_width = 32
    hints.pointee.min_height = 32
    hints.pointee.width = Int32(width)
    hints.pointee.height = Int32(height)
    if let x, let y {
      hints.pointee.flags |= USPosition | PPosition
      hints.pointee.x = Int32(x)
      hints.pointee.y = Int32(y)
    }
    XSetWMNormalHints(connection.display, window, hints)
    XFree(hints)
  }

  /// Writes WM_NAME, WM_ICON_NAME, _NET_WM_NAME and _NET_WM_ICON_NAME (UTF-8) together.
  public func setTitle(_ title: String) {
    let d = connection.display
    let utf8 = connection.atom("UTF8_STRING")
    var bytes = Array(title.utf8)
    for name in ["WM_NAME", "WM_ICON_NAME", "_NET_WM_NAME", "_NET_WM_ICON_NAME"] {
      XChangeProperty(d, window, connection.atom(name), utf8, 8, PropModeReplace, &bytes, Int32(bytes.count))
    }
    XFlush(d)
  }

  /// Asks for a new client size (the window manager may refuse; `.resized` tells).
  public func resize(width w: Int, height h: Int) {
    setSizeHints(x: nil, y: nil, width: w, height: h)
    XResizeWindow(connection.display, window, UInt32(max(w, 1)), UInt32(max(h, 1)))
    XFlush(connection.display)
  }

  public func setFullscreen(_ on: Bool) {
    let d = connection.display
    isFullscreen = on
    if connection.hasWindowManager {
      var event = XEvent()
      event.xclient.type = ClientMessage
      event.xclient.window = window
      event.xclient.message_type = connection.atom("_NET_WM_STATE")
      event.xclient.format = 32
      event.xclient.data.l.0 = on ? 1 : 0  // _NET_WM_STATE_ADD / _REMOVE
      event.xclient.data.l.1 = Int(connection.atom("_NET_WM_STATE_FULLSCREEN"))
      event.xclient.data.l.3 = 1
      XSendEvent(d, connection.root, 0, SubstructureRedirectMask | SubstructureNotifyMask, &event)
    } else if on {
      // No window manager: cover the screen ourselves.
      savedGeometry = (width, height)
      let s = screenSize
      XMoveResizeWindow(d, window, 0, 0, UInt32(s.width), UInt32(s.height))
    } else if let (w, h) = savedGeometry {
      XResizeWindow(d, window, UInt32(w), UInt32(h))
    }
    XFlush(d)
  }

  /// Every event queued now, without blocking; consecutive resizes are coalesced.
  public func pendingEvents() -> [WindowEvent] {
    let d = connection.display
    var events: [WindowEvent] = []
    while XPending(d) > 0 {
      var e = XEvent()
      XNextEvent(d, &e)
      switch e.type {
      case Expose:
        if e.xexpose.count == 0 { events.append(.expose) }
      case ConfigureNotify:
        let w = Int(e.xconfigure.width)
        let h = Int(e.xconfigure.height)
        if w != width || h != height {
          width = w
          height = h
          dropKeptFrames()
          if case .resized = events.last { events.removeLast() }
          events.append(.resized(width: w, height: h))
        }
      case KeyPress:
        events.append(.key(Key(event: &e.xkey)))
      case ButtonPress:
        events.append(.button(Int(e.xbutton.button), x: Int(e.xbutton.x), y: Int(e.xbutton.y)))
      case ClientMessage:
        if e.xclient.message_type == connection.atom("WM_PROTOCOLS"),
          Atom(e.xclient.data.l.0) == connection.atom("WM_DELETE_WINDOW")
        {
          events.append(.closeRequested)
        }
      case MapNotify:
        events.append(.mapped)
      default:
        break
      }
    }
    return events
  }

  /// Lets `body` draw the whole client area as 0x00RRGGBB pixels (row stride = width),
  /// then converts them if the visual's channel masks differ.
  public func draw(_ body: (UnsafeMutableBufferPointer<UInt32>, _ width: Int, _ height: Int) -> Void) {
    if surface == nil || surface!.width != width || surface!.height != height {
      surface?.destroy()
      surface = Surface(display: connection, width: width, height: height, trySHM: trySHM)
    }
    guard let surface else { return }
    body(surface.pixels, width, height)
    if !connection.isBGRX { convertToVisual(surface.pixels) }
  }

  private func convertToVisual(_ pixels: UnsafeMutableBufferPointer<UInt32>) {
    let m = connection.masks
    func place(_ v: UInt32, _ mask: UInt) -> UInt32 {
      // Scale the 8-bit channel to the mask's width and shift it into place.
      let shift = UInt32(mask.trailingZeroBitCount)
      let bits = UInt32((mask >> UInt(shift)).nonzeroBitCount)
      // Wider channels repeat the top bits (255 → 1023 at 10 bits: full scale stays full).
      let scaled = bits >= 8 ? v << (bits - 8) | v >> (16 - min(bits, 16)) : v >> (8 - bits)
      return scaled << shift
    }
    for i in 0..<pixels.count {
      let p = pixels[i]
      pixels[i] = place(p >> 16 & 0xff, m.red) | place(p >> 8 & 0xff, m.green) | place(p & 0xff, m.blue)
    }
  }

  /// Sends the drawn pixels to the window, draws `text` over them, and waits for the
  /// server (the buffer may be reused at once).
  public func present(text: [TextItem] = []) {
    let d = connection.display
    surface?.present(to: window, gc: gc)
    for item in text { drawText(item) }
    XSync(d, 0)
  }

  // MARK: - Frames kept on the server (gifsicle's idea): after the first loop a frame
  // change is one XCopyArea, with no client-side pixel work and no image transfer.

  /// Server memory the kept frames may take.
  public var keptFramesBudgetBytes = 64 << 20
  private var keptFrames: [Int: Pixmap] = [:]

  /// Sends the drawn pixels to the server once, keeps them there as frame `key`, and
  /// shows them. When the budget is full the frame is shown but not kept (for a loop
  /// that does not fit, keeping the first frames beats evicting each one before reuse).
  public func present(keepingAs key: Int, text: [TextItem] = []) {
    let d = connection.display
    let bytes = width * height * 4
    guard let surface, (keptFrames.count + 1) * bytes <= keptFramesBudgetBytes else { return present(text: text) }
    // The server may refuse the memory (BadAlloc): then the frame is simply not kept.
    var pixmap: Pixmap = 0
    guard
      connection.catchingErrors({
        pixmap = XCreatePixmap(d, window, UInt32(width), UInt32(height), UInt32(connection.depth))
        return pixmap != 0
      })
    else {
      if pixmap != 0 { XFreePixmap(d, pixmap) }
      keptFramesBudgetBytes = keptFrames.count * bytes  // stop asking
      return present(text: text)
    }
    surface.present(to: pixmap, gc: gc)
    keptFrames[key] = pixmap
    showKept(pixmap, text: text)
    XSync(d, 0)  // the SHM buffer is reused at once
  }

  /// Shows kept frame `key` if the server has it; false otherwise.
  public func presentKept(_ key: Int, text: [TextItem] = []) -> Bool {
    guard let pixmap = keptFrames[key] else { return false }
    showKept(pixmap, text: text)
    XFlush(connection.display)
    return true
  }

  private func showKept(_ pixmap: Pixmap, text: [TextItem]) {
    XCopyArea(connection.display, pixmap, window, gc, 0, 0, UInt32(width), UInt32(height), 0, 0)
    for item in text { drawText(item) }
  }

  /// Frees every kept frame (the view changed: size, scale, background).
  public func dropKeptFrames() {
    for (_, p) in keptFrames { XFreePixmap(connection.display, p) }
    keptFrames.removeAll()
  }

  private func pixel(_ c: (r: UInt8, g: UInt8, b: UInt8)) -> UInt {
    UInt(c.r) << 16 | UInt(c.g) << 8 | UInt(c.b)  // converted like the image when needed
  }

  private func visualPixel(_ c: (r: UInt8, g: UInt8, b: UInt8)) -> UInt {
    var p = [UInt32(pixel(c))]
    if !connection.isBGRX { p.withUnsafeMutableBufferPointer { convertToVisual($0) } }
    return UInt(p[0])
  }

  /// Text as 16-bit characters: with the ISO 10646 font any BMP character draws
  /// (file names, the em dash); with a Latin-1 fallback font the high byte is 0.
  private func chars(_ s: String) -> [XChar2b] {
    s.utf16.map { XChar2b(byte1: UInt8($0 >> 8), byte2: UInt8($0 & 0xff)) }
  }

  public func textWidth(_ s: String) -> Int {
    guard let font else { return s.utf16.count * 6 }
    var c = chars(s)
    return Int(XTextWidth16(font, &c, Int32(c.count)))
  }

  public var lineHeight: Int {
    guard let font else { return 13 }
    return Int(font.pointee.ascent + font.pointee.descent) + 2
  }

  private func drawText(_ item: TextItem) {
    let d = connection.display
    let widths = item.lines.map(textWidth)
    let w = (widths.max() ?? 0) + 12
    let h = item.lines.count * lineHeight + 8
    var x = item.x
    var y = item.y
    switch item.anchor {
    case .topLeft: break
    case .center:
      x -= w / 2
      y -= h / 2
    case .bottomRight:
      x -= w
      y -= h
    }
    if item.boxed {
      XSetForeground(d, gc, visualPixel((24, 24, 28)))
      XFillRectangle(d, window, gc, Int32(x), Int32(y), UInt32(w), UInt32(h))
    }
    XSetForeground(d, gc, visualPixel(item.color))
    let ascent = Int(font?.pointee.ascent ?? 10)
    for (i, line) in item.lines.enumerated() {
      let lx = item.anchor == .center ? x + (w - widths[i]) / 2 : x + 6
      var c = chars(line)
      XDrawString16(d, window, gc, Int32(lx), Int32(y + 4 + ascent + i * lineHeight), &c, Int32(c.count))
    }
  }

  /// Tears down in reverse order of creation; idempotent.
  public func close() {
    guard !closed else { return }
    closed = true
    let d = connection.display
    dropKeptFrames()
    surface?.destroy()
    surface = nil
    if let loadedFont { XFreeFont(d, loadedFont) }
    XFreeGC(d, gc)
    XDestroyWindow(d, window)
    connection.close()
  }
}
