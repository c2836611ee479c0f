import CX11
import Glibc

/// One size of an application icon: 0xAARRGGBB pixels, straight alpha, row by row.
public struct WindowIcon: Sendable, Equatable {
  /// Pixels across.
  public var width: Int
  /// Pixels down.
  public var height: Int
  /// `width * height` pixels, 0xAARRGGBB.
  public var argb: [UInt32]

  /// An icon of `argb` pixels (`width * height` of them).
  public init(width: Int, height: Int, argb: [UInt32]) {
    precondition(width > 0 && height > 0 && argb.count == width * height, "icon pixels do not match the size")
    self.width = width
    self.height = height
    self.argb = argb
  }
}

extension TopLevelWindow {
  /// Sets (or replaces) the application icon, as `WindowOptions.icons` does at creation:
  /// `_NET_WM_ICON` and the `WM_HINTS` icon. Window managers follow the change. An empty
  /// list removes the icon.
  public func setIcons(_ icons: [WindowIcon]) {
    guard connection.isUsable else { return }
    let d = connection.display
    for p in iconPixmapIDs { XFreePixmap(d, p) }
    iconPixmapIDs = []
    if icons.isEmpty { XDeleteProperty(d, id.rawValue, connection.atom(.netWMIcon)) }
    setIdentity(icons: icons, connection: connection)
    hasIcons = true
    XFlush(d)
  }

  /// What a desktop needs to tell the window apart (DESIGN §5): `_NET_WM_ICON` with every
  /// size in `icons` (width, height, then the pixels, one CARDINAL each), `WM_HINTS`
  /// (input: true; the icon nearest 48 px as pixmap and mask, when there are icons) and
  /// `WM_CLIENT_MACHINE` (this host's name).
  func setIdentity(icons: [WindowIcon], connection: X11Connection) {
    let d = connection.display
    if !icons.isEmpty { hasIcons = true }
    if !icons.isEmpty {
      var data: [Int] = []
      data.reserveCapacity(icons.reduce(0) { $0 + 2 + $1.argb.count })
      for icon in icons {
        data.append(icon.width)
        data.append(icon.height)
        for p in icon.argb { data.append(Int(p)) }
      }
      // In pieces that each fit Xlib's 16 KiB output buffer after a flush: a format-32
      // property larger than the buffer is copied by a loop that spins forever when the
      // server goes away in the middle of it (the flush after an I/O error drains
      // nothing). A lost server shows between pieces, and the rest is not sent.
      let piece = 2048
      var start = 0
      while start < data.count {
        XFlush(d)
        guard connection.isUsable else { return }
        let end = min(start + piece, data.count)
        data[start..<end].withUnsafeBytes { bytes in
          _ = XChangeProperty(
            d, id.rawValue, connection.atom(.netWMIcon), XA_CARDINAL, 32, start == 0 ? PropModeReplace : PropModeAppend,
            bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(end - start))
        }
        start = end
      }
    }

    XFlush(d)
    guard connection.isUsable else { return }
    if let hints = XAllocWMHints() {
      hints.pointee.flags = InputHint
      hints.pointee.input = 1
      if let icon = icons.min(by: { abs($0.width - 48) < abs($1.width - 48) }),
        let (pixmap, mask) = iconPixmaps(icon, connection: connection)
      {
        hints.pointee.flags |= IconPixmapHint | IconMaskHint
        hints.pointee.icon_pixmap = pixmap
        hints.pointee.icon_mask = mask
        iconPixmapIDs = [pixmap, mask]
      }
      XSetWMHints(d, id.rawValue, hints)
      XFree(hints)
    }

    var host = [CChar](repeating: 0, count: 256)
    if gethostname(&host, host.count - 1) == 0 {
      let name = host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
      XChangeProperty(
        d, id.rawValue, Atom(XA_WM_CLIENT_MACHINE), XA_STRING, 8, PropModeReplace, name, Int32(name.count))
    }
  }

  /// The icon as a pixmap of the window's depth and a 1-bit mask (alpha ≥ 128 is shown).
  private func iconPixmaps(_ icon: WindowIcon, connection: X11Connection) -> (Pixmap, Pixmap)? {
    let d = connection.display
    let (w, h) = (icon.width, icon.height)
    let layout = PixelLayout(masks: connection.masks)
    guard let data = malloc(w * h * 4) else { return nil }
    let pixels = data.bindMemory(to: UInt32.self, capacity: w * h)
    for i in 0..<(w * h) { pixels[i] = layout.convert(icon.argb[i] & 0xFF_FFFF) }
    guard
      let image = XCreateImage(
        d, connection.visual, UInt32(connection.depth), ZPixmap, 0, data.assumingMemoryBound(to: CChar.self),
        UInt32(w), UInt32(h), 32, Int32(w * 4))
    else {
      free(data)
      return nil
    }
    defer { gv_destroy_image(image) }  // frees `data`
    let pixmap = XCreatePixmap(d, id.rawValue, UInt32(w), UInt32(h), UInt32(connection.depth))
    let gc = XCreateGC(d, pixmap, 0, nil)
    XPutImage(d, pixmap, gc, image, 0, 0, 0, 0, UInt32(w), UInt32(h))
    XFreeGC(d, gc)
    // XBM layout: rows padded to bytes, least significant bit first.
    let rowBytes = (w + 7) / 8
    var bits = [CChar](repeating: 0, count: rowBytes * h)
    for y in 0..<h {
      for x in 0..<w where icon.argb[y * w + x] >> 24 >= 128 {
        bits[y * rowBytes + x / 8] |= CChar(bitPattern: UInt8(1) << UInt8(x % 8))
      }
    }
    let mask = XCreateBitmapFromData(d, id.rawValue, bits, UInt32(w), UInt32(h))
    return (pixmap, mask)
  }
}
