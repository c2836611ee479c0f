import CX11

/// A rectangle of a host's window that draws pixels: an X child window with its own
/// client-side surface (MIT-SHM or XPutImage), frames kept on the server, and text.
/// It selects only Expose, so keys and clicks go on to the host's window.
public final class ChildWindow {
  /// The child window's XID.
  public let id: XWindowID
  private let connection: X11Connection
  private let gc: GC
  private let font: TextFont
  private var surface: Surface?
  private let trySHM: Bool
  /// Position in the parent.
  public private(set) var x: Int
  /// Position in the parent.
  public private(set) var y: Int
  /// Size in pixels.
  public private(set) var width: Int
  /// Size in pixels.
  public private(set) var height: Int
  private var closed = false

  /// Creates (unmapped) a child of `parent` at (x, y), `width`×`height`.
  public init(
    connection: X11Connection, parent: XWindowID, x: Int, y: Int, width: Int, height: Int, useSHM: Bool = true
  ) {
    self.connection = connection
    self.trySHM = useSHM
    (self.x, self.y, self.width, self.height) = (x, y, max(width, 1), max(height, 1))
    var attributes = XSetWindowAttributes()
    attributes.background_pixmap = 0  // None: the server never clears what we draw
    attributes.event_mask = ExposureMask
    let d = connection.display
    id = XWindowID(
      rawValue: XCreateWindow(
        d, parent.rawValue, Int32(x), Int32(y), UInt32(self.width), UInt32(self.height), 0, connection.depth,
        UInt32(InputOutput), connection.visual, UInt(CWBackPixmap | CWEventMask), &attributes))
    gc = XCreateGC(d, id.rawValue, 0, nil)
    font = TextFont(connection: connection)
  }

  deinit { close() }

  /// Shows the window.
  public func map() { if connection.isUsable { XMapWindow(connection.display, id.rawValue) } }

  /// Hides the window.
  public func unmap() { if connection.isUsable { XUnmapWindow(connection.display, id.rawValue) } }

  /// Moves and resizes; a new size drops the kept frames.
  public func setFrame(x: Int, y: Int, width w: Int, height h: Int) {
    let (w, h) = (max(w, 1), max(h, 1))
    guard (x, y, w, h) != (self.x, self.y, width, height) else { return }
    if (w, h) != (width, height) { dropKeptFrames() }
    (self.x, self.y, width, height) = (x, y, w, h)
    XMoveResizeWindow(connection.display, id.rawValue, Int32(x), Int32(y), UInt32(w), UInt32(h))
  }

  /// True when the surface uses MIT-SHM.
  public var usesSHM: Bool { surface?.usesSHM ?? (trySHM && connection.hasSHM) }

  /// Lets `body` draw the whole window as 0x00RRGGBB pixels (row stride = width), then
  /// converts them if the visual's channel masks differ.
  public func draw(_ body: (UnsafeMutableBufferPointer<UInt32>, _ width: Int, _ height: Int) -> Void) {
    if surface == nil || surface!.width != width || surface!.height != height {
      surface?.destroy()
      surface = Surface(display: connection, width: width, height: height, trySHM: trySHM)
    }
    guard let surface else { return }
    body(surface.pixels, width, height)
    PixelLayout(masks: connection.masks).convert(surface.pixels)
  }

  /// Sends the drawn pixels to the window, draws `text` over them, and waits for the
  /// server (the buffer may be reused at once).
  public func present(text: [TextItem] = []) {
    guard !connection.isLost else { return }
    surface?.present(to: id.rawValue, gc: gc)
    for item in text { font.draw(item, on: id.rawValue, gc: gc) }
    XSync(connection.display, 0)
  }

  // MARK: - Frames kept on the server (gifsicle's idea): after the first loop a frame
  // change is one XCopyArea, with no client-side pixel work and no image transfer.

  /// Server memory the kept frames may take.
  public var keptFramesBudgetBytes = 64 << 20
  private var keptFrames: [Int: XPixmapID] = [:]

  /// Sends the drawn pixels to the server once, keeps them there as frame `key`, and
  /// shows them. When the budget is full the frame is shown but not kept (for a loop
  /// that does not fit, keeping the first frames beats evicting each one before reuse).
  /// Answers true when the frame is kept.
  @discardableResult
  public func present(keepingAs key: Int, text: [TextItem] = []) -> Bool {
    guard !connection.isLost else { return false }
    let d = connection.display
    let bytes = width * height * 4
    guard let surface, (keptFrames.count + 1) * bytes <= keptFramesBudgetBytes else {
      present(text: text)
      return false
    }
    // The server may refuse the memory (BadAlloc): then the frame is simply not kept.
    var pixmap: Pixmap = 0
    guard
      connection.catchingErrors({
        pixmap = XCreatePixmap(d, id.rawValue, UInt32(width), UInt32(height), UInt32(connection.depth))
        return pixmap != 0
      })
    else {
      if pixmap != 0 { XFreePixmap(d, pixmap) }
      keptFramesBudgetBytes = keptFrames.count * bytes  // stop asking
      present(text: text)
      return false
    }
    surface.present(to: pixmap, gc: gc)
    keptFrames[key] = XPixmapID(rawValue: pixmap)
    showKept(pixmap, text: text)
    XSync(d, 0)  // the SHM buffer is reused at once
    return true
  }

  /// How many frames the server keeps for this window now.
  public var keptFrameCount: Int { keptFrames.count }

  /// Shows kept frame `key` if the server has it; false otherwise.
  public func presentKept(_ key: Int, text: [TextItem] = []) -> Bool {
    guard !connection.isLost, let pixmap = keptFrames[key] else { return false }
    showKept(pixmap.rawValue, text: text)
    XFlush(connection.display)
    return true
  }

  private func showKept(_ pixmap: Pixmap, text: [TextItem]) {
    XCopyArea(connection.display, pixmap, id.rawValue, gc, 0, 0, UInt32(width), UInt32(height), 0, 0)
    for item in text { font.draw(item, on: id.rawValue, gc: gc) }
  }

  /// Frees every kept frame (the view changed: size, scale, background).
  public func dropKeptFrames() {
    if connection.isUsable {
      for (_, p) in keptFrames { XFreePixmap(connection.display, p.rawValue) }
    }
    keptFrames.removeAll()
  }

  /// The width of `s` in the text font, in pixels.
  public func textWidth(_ s: String) -> Int { font.width(s) }

  /// The height of one line of text, in pixels.
  public var lineHeight: Int { font.lineHeight }

  /// `lines` wrapped at spaces to `maxWidth` pixels, on at most `maxLines` lines, the
  /// last cut with an ellipsis: text that always stays inside its box.
  public func fitText(_ lines: [String], maxWidth: Int, maxLines: Int) -> [String] {
    font.fit(lines, maxWidth: max(maxWidth, 1), maxLines: max(maxLines, 1))
  }

  /// Frees the server's resources in reverse order of creation; idempotent.
  public func close() {
    guard !closed else { return }
    closed = true
    dropKeptFrames()
    font.close()
    if connection.isUsable { XDestroyWindow(connection.display, id.rawValue) }
    // After a lost connection Xlib only frees the client-side memory (the image, the
    // shared segment, the GC; requests to a dead server are dropped); after XCloseDisplay
    // there is nothing left to touch.
    if !connection.isClosed {
      surface?.destroy()
      XFreeGC(connection.display, gc)
    }
    surface = nil
  }
}
