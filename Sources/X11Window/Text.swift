import CX11

/// Text drawn over the picture by the server (info overlay, failure card, progress).
public struct TextItem: Sendable {
  /// Which point of the text's box `x`, `y` name.
  public enum Anchor: Sendable {
    /// The box's top-left corner.
    case topLeft
    /// The box's centre; lines are centred too.
    case center
  }
  /// Lines, top to bottom.
  public var lines: [String]
  /// The anchor point, in the window's pixels.
  public var x: Int
  /// The anchor point, in the window's pixels.
  public var y: Int
  /// Which point of the box is at (x, y).
  public var anchor: Anchor
  /// A dark box behind the text.
  public var boxed: Bool
  /// The text's colour.
  public var color: (r: UInt8, g: UInt8, b: UInt8)

  /// Text at (x, y).
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

/// The core X font text is drawn with, loaded when text is first drawn: the ISO 10646
/// font costs milliseconds of start-up that the first frame should not wait for.
final class TextFont {
  private let connection: X11Connection
  private var loaded: UnsafeMutablePointer<XFontStruct>?
  private var tried = false

  init(connection: X11Connection) {
    self.connection = connection
  }

  deinit {
    if let loaded, !connection.isLost { XFreeFont(connection.display, loaded) }
  }

  var font: UnsafeMutablePointer<XFontStruct>? {
    if !tried {
      tried = true
      let d = connection.display
      loaded = XLoadQueryFont(d, "-misc-fixed-medium-r-normal--13-*-*-*-*-*-iso10646-1") ?? XLoadQueryFont(d, "fixed")
    }
    return loaded
  }

  /// Text as 16-bit characters: with the ISO 10646 font any BMP character draws (file
  /// names, the em dash); with a Latin-1 fallback font the high byte is 0.
  private func chars(_ s: String) -> [XChar2b] {
    s.utf16.map { XChar2b(byte1: UInt8($0 >> 8), byte2: UInt8($0 & 0xff)) }
  }

  func width(_ s: String) -> Int {
    guard let font else { return s.utf16.count * 6 }
    var c = chars(s)
    return Int(XTextWidth16(font, &c, Int32(c.count)))
  }

  var lineHeight: Int {
    guard let font else { return 13 }
    return Int(font.pointee.ascent + font.pointee.descent) + 2
  }

  /// The longest prefix of each line that fits `maxWidth` pixels, with an ellipsis
  /// where it was cut; words wrap onto at most `maxLines` lines.
  func fit(_ lines: [String], maxWidth: Int, maxLines: Int) -> [String] {
    var out: [String] = []
    for line in lines {
      var rest = Substring(line)
      while !rest.isEmpty {
        if out.count == maxLines - 1 || width(String(rest)) <= maxWidth {
          out.append(ellipsized(String(rest), maxWidth: maxWidth))
          break
        }
        // Break at the last space that fits, else inside the word.
        var cut = rest.endIndex
        while cut > rest.startIndex, width(String(rest[..<cut])) > maxWidth { cut = rest.index(before: cut) }
        if let space = rest[..<cut].lastIndex(of: " "), space > rest.startIndex { cut = space }
        if cut == rest.startIndex { cut = rest.index(after: cut) }
        out.append(String(rest[..<cut]))
        rest = rest[cut...].drop { $0 == " " }
      }
      if out.count >= maxLines { break }
    }
    return out
  }

  private func ellipsized(_ s: String, maxWidth: Int) -> String {
    guard width(s) > maxWidth else { return s }
    var t = Substring(s)
    while !t.isEmpty, width(t + "…") > maxWidth { t = t.dropLast() }
    return t + "…"
  }

  /// Draws `item` on `drawable` with `gc`.
  func draw(_ item: TextItem, on drawable: Drawable, gc: GC) {
    let d = connection.display
    let widths = item.lines.map(width)
    let w = (widths.max() ?? 0) + 12
    let h = item.lines.count * lineHeight + 8
    var x = item.x
    var y = item.y
    if item.anchor == .center {
      x -= w / 2
      y -= h / 2
    }
    if let font { XSetFont(d, gc, font.pointee.fid) }
    if item.boxed {
      XSetForeground(d, gc, connection.pixel(0x18181C))
      XFillRectangle(d, drawable, gc, Int32(x), Int32(y), UInt32(w), UInt32(h))
    }
    let c = item.color
    XSetForeground(d, gc, connection.pixel(UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b)))
    let ascent = Int(font?.pointee.ascent ?? 10)
    for (i, line) in item.lines.enumerated() {
      let lx = item.anchor == .center ? x + (w - widths[i]) / 2 : x + 6
      var ch = chars(line)
      XDrawString16(d, drawable, gc, Int32(lx), Int32(y + 4 + ascent + i * lineHeight), &ch, Int32(ch.count))
    }
  }
}
