import CX11
import CXft

/// Text drawn over the picture by the server (info overlay, failure card, progress).
/// A tab in a line starts a column; columns line up across the lines of one item.
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

/// The font text is drawn with: anti-aliased Xft (fontconfig picks the system's fonts,
/// with per-character fallback, so ∞, file names in any script and the em dash draw), or
/// the core ISO 10646 "fixed" font when libXft is missing. Loaded when text is first
/// drawn: fonts cost milliseconds of start-up that the first frame must not wait for.
final class TextFont {
  private let connection: X11Connection
  private var tried = false
  private var xft: UnsafeMutablePointer<GVXftFont>?
  /// Fonts opened for characters the main one lacks, by family.
  private var fallbacks: [UnsafeMutablePointer<GVXftFont>] = []
  private var fallbacksOpened = false
  private var xftDraw: (drawable: Drawable, draw: OpaquePointer)?
  private var core: UnsafeMutablePointer<XFontStruct>?

  static let xftName = "sans-serif:pixelsize=13"
  static let fallbackFamilies = [
    "Noto Sans CJK SC", "Noto Sans", "Droid Sans Fallback", "WenQuanYi Zen Hei", "Symbola",
  ]

  init(connection: X11Connection) {
    self.connection = connection
  }

  deinit { close() }

  /// Frees the fonts while the connection is still open; idempotent.
  func close() {
    if connection.isUsable {
      let d = connection.display
      if let xftDraw { gv_xft_draw_destroy(xftDraw.draw) }
      for f in fallbacks { gv_xft_font_close(d, f) }
      if let xft { gv_xft_font_close(d, xft) }
      if let core { XFreeFont(d, core) }
    }
    (xftDraw, xft, core, fallbacks) = (nil, nil, nil, [])
    tried = true
  }

  private func load() {
    guard !tried else { return }
    tried = true
    let d = connection.display
    if gv_xft_load() == nil, let f = gv_xft_font_open_name(d, connection.screen, Self.xftName) {
      xft = f
      return
    }
    core = XLoadQueryFont(d, "-misc-fixed-medium-r-normal--13-*-*-*-*-*-iso10646-1") ?? XLoadQueryFont(d, "fixed")
  }

  /// The font that draws `c`: the main one, else the first fallback that has it.
  private func font(for c: Unicode.Scalar, main: UnsafeMutablePointer<GVXftFont>) -> UnsafeMutablePointer<GVXftFont> {
    let d = connection.display
    if gv_xft_char_exists(d, main, c.value) != 0 { return main }
    if !fallbacksOpened {
      fallbacksOpened = true
      for family in Self.fallbackFamilies {
        if let f = gv_xft_font_open_name(d, connection.screen, family + ":pixelsize=13") { fallbacks.append(f) }
      }
    }
    return fallbacks.first { gv_xft_char_exists(d, $0, c.value) != 0 } ?? main
  }

  /// `s` split into runs of one font each.
  private func runs(_ s: String, main: UnsafeMutablePointer<GVXftFont>) -> [(UnsafeMutablePointer<GVXftFont>, [UInt8])]
  {
    var out: [(UnsafeMutablePointer<GVXftFont>, [UInt8])] = []
    for c in s.unicodeScalars {
      let f = font(for: c, main: main)
      let bytes = Array(String(c).utf8)
      if let last = out.last, last.0 == f {
        out[out.count - 1].1 += bytes
      } else {
        out.append((f, bytes))
      }
    }
    return out
  }

  private func advance(_ font: UnsafeMutablePointer<GVXftFont>, _ utf8: [UInt8]) -> Int {
    var info = GVGlyphInfo()
    utf8.withUnsafeBufferPointer {
      gv_xft_text_extents(connection.display, font, $0.baseAddress, Int32($0.count), &info)
    }
    return Int(info.xOff)
  }

  /// Text as 16-bit characters for the core font (BMP only; the Latin-1 fallback font
  /// ignores the high byte).
  private func chars(_ s: String) -> [XChar2b] {
    s.utf16.map { XChar2b(byte1: UInt8($0 >> 8), byte2: UInt8($0 & 0xff)) }
  }

  func width(_ s: String) -> Int {
    load()
    if let xft { return runs(s, main: xft).reduce(0) { $0 + advance($1.0, $1.1) } }
    guard let core else { return s.utf16.count * 6 }
    var c = chars(s)
    return Int(XTextWidth16(core, &c, Int32(c.count)))
  }

  var lineHeight: Int {
    load()
    if let xft { return Int(xft.pointee.ascent + xft.pointee.descent) + 2 }
    guard let core else { return 13 }
    return Int(core.pointee.ascent + core.pointee.descent) + 2
  }

  private var ascent: Int {
    if let xft { return Int(xft.pointee.ascent) }
    return Int(core?.pointee.ascent ?? 10)
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

  /// Where each column of `lines` starts (tab-separated), relative to the line's start,
  /// and each line's whole width.
  private func layout(_ lines: [String]) -> (starts: [Int], widths: [Int]) {
    let cells = lines.map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    var columnWidths: [Int] = []
    for row in cells where row.count > 1 {
      for (i, cell) in row.enumerated() {
        if i >= columnWidths.count { columnWidths.append(0) }
        columnWidths[i] = max(columnWidths[i], width(cell))
      }
    }
    var starts = [0]
    for w in columnWidths.dropLast() { starts.append(starts.last! + w + 18) }
    let widths = cells.map { row in
      row.count == 1 ? width(row[0]) : starts[row.count - 1] + width(row[row.count - 1])
    }
    return (starts, widths)
  }

  /// Draws `item` on `drawable` with `gc`.
  func draw(_ item: TextItem, on drawable: Drawable, gc: GC) {
    load()
    let d = connection.display
    let (starts, widths) = layout(item.lines)
    let tabbed = item.lines.contains { $0.contains("\t") }
    let w = (widths.max() ?? 0) + 12
    let h = item.lines.count * lineHeight + 8
    var x = item.x
    var y = item.y
    if item.anchor == .center {
      x -= w / 2
      y -= h / 2
    }
    if item.boxed {
      XSetForeground(d, gc, connection.pixel(0x18181C))
      XFillRectangle(d, drawable, gc, Int32(x), Int32(y), UInt32(w), UInt32(h))
    }
    let c = item.color
    let baseline = { (i: Int) in y + 4 + self.ascent + i * self.lineHeight }
    // Tabbed text (a table) is left-aligned; other centred text is centred line by line.
    let left = { (i: Int) in item.anchor == .center && !tabbed ? x + (w - widths[i]) / 2 : x + 6 }
    let cells = { (line: String) in
      line.split(separator: "\t", omittingEmptySubsequences: false).enumerated().map {
        (starts[$0.offset], String($0.element))
      }
    }
    if let xft, let draw = xftDraw(for: drawable) {
      let visual = connection.visual
      let colormap = XDefaultColormap(d, connection.screen)
      var render = GVRenderColor(
        red: UInt16(c.r) * 257, green: UInt16(c.g) * 257, blue: UInt16(c.b) * 257, alpha: 0xFFFF)
      var colour = GVXftColor()
      guard gv_xft_color_alloc(d, visual, colormap, &render, &colour) != 0 else { return }
      defer { gv_xft_color_free(d, visual, colormap, &colour) }
      for (i, line) in item.lines.enumerated() {
        for (start, cell) in cells(line) {
          var pen = left(i) + start
          for (font, utf8) in runs(cell, main: xft) {
            utf8.withUnsafeBufferPointer {
              gv_xft_draw_string(draw, &colour, font, Int32(pen), Int32(baseline(i)), $0.baseAddress, Int32($0.count))
            }
            pen += advance(font, utf8)
          }
        }
      }
      return
    }
    if let core { XSetFont(d, gc, core.pointee.fid) }
    XSetForeground(d, gc, connection.pixel(UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b)))
    for (i, line) in item.lines.enumerated() {
      for (start, cell) in cells(line) {
        var ch = chars(cell)
        XDrawString16(d, drawable, gc, Int32(left(i) + start), Int32(baseline(i)), &ch, Int32(ch.count))
      }
    }
  }

  /// One XftDraw, pointed at the drawable in use.
  private func xftDraw(for drawable: Drawable) -> OpaquePointer? {
    if let xftDraw {
      if xftDraw.drawable != drawable {
        gv_xft_draw_change(xftDraw.draw, drawable)
        self.xftDraw = (drawable, xftDraw.draw)
      }
      return xftDraw.draw
    }
    let d = connection.display
    guard let draw = gv_xft_draw_create(d, drawable, connection.visual, XDefaultColormap(d, connection.screen))
    else { return nil }
    xftDraw = (drawable, draw)
    return draw
  }
}
