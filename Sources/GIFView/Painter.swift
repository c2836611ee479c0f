// The scaler fuzz target compiles this file into one module with the decoder.
#if canImport(GIFDecoder)
  import GIFDecoder
#endif

// Pure pixel work for the view: backgrounds, scaling with transparency, cross-fades.
// Pixels out are 0x00RRGGBB; frames in are `.bgra` canvases (alpha 0 or 255).

/// What shows through a GIF's transparent pixels, and around it.
public enum Background: Sendable, Equatable {
  /// Light and dark grey squares of 8 pixels, as image editors show transparency.
  case checker
  /// One colour.
  case solid(r: UInt8, g: UInt8, b: UInt8)

  static let checkerLight: UInt32 = 0xE6E6E6
  static let checkerDark: UInt32 = 0xBFBFBF
  static let checkerSize = 8

  @inline(__always)
  func pixel(x: Int, y: Int) -> UInt32 {
    switch self {
    case .solid(let r, let g, let b): return UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
    case .checker:
      return ((x / Self.checkerSize) ^ (y / Self.checkerSize)) & 1 == 0 ? Self.checkerLight : Self.checkerDark
    }
  }
}

/// A half-open rectangle of the window: x0..<x1, y0..<y1.
public struct Tile: Equatable, Sendable {
  /// Left, top (inclusive), right, bottom (exclusive) edges.
  public var x0: Int, y0: Int, x1: Int, y1: Int
  /// x1 − x0.
  public var width: Int { x1 - x0 }
  /// y1 − y0.
  public var height: Int { y1 - y0 }
  /// The rectangle x0..<x1 × y0..<y1.
  public init(x0: Int, y0: Int, x1: Int, y1: Int) { (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1) }

  /// `count` tiles filling a W×H window in rows, with `gap` pixels between them.
  public static func grid(count: Int, width bufferWidth: Int, height bufferHeight: Int, gap: Int = 2) -> [Tile] {
    guard count > 0 else { return [] }
    var cols = 1
    // A near-square grid: ⌈√count⌉ columns.
    while cols * cols < count { cols += 1 }
    let rows = (count + cols - 1) / cols
    return (0..<count).map { i in
      let c = i % cols
      let r = i / cols
      let x0 = c * bufferWidth / cols + (c > 0 ? gap / 2 : 0)
      let y0 = r * bufferHeight / rows + (r > 0 ? gap / 2 : 0)
      // Many sources in a small window leave tiles empty, never inverted.
      return Tile(
        x0: x0, y0: y0, x1: max(x0, (c + 1) * bufferWidth / cols - (c < cols - 1 ? gap - gap / 2 : 0)),
        y1: max(y0, (r + 1) * bufferHeight / rows - (r < rows - 1 ? gap - gap / 2 : 0)))
    }
  }
}

/// Where an image lands in the window: scale and top-left offset (may be negative).
struct Placement: Equatable, Sendable {
  var scale: Double
  var x: Int
  var y: Int
  var width: Int  // scaled size
  var height: Int

  /// Centred in `tile`.
  init(imageWidth w: Int, imageHeight h: Int, scale: Double, in tile: Tile) {
    self.scale = scale
    width = max(1, Int((Double(w) * scale).rounded()))
    height = max(1, Int((Double(h) * scale).rounded()))
    x = tile.x0 + (tile.width - width) / 2
    y = tile.y0 + (tile.height - height) / 2
  }
}

/// How a GIF fills its view (the seed component's `contentMode`).
public enum ContentMode: String, Sendable {
  /// The whole image, as large as fits, keeping its aspect.
  case fit
  /// The view covered, keeping the aspect; the image is cropped.
  case fill
  /// 1:1, centred.
  case actual

  /// The scale that shows a w×h image in a W×H window.
  public func scale(imageWidth w: Int, imageHeight h: Int, windowWidth bufferWidth: Int, windowHeight bufferHeight: Int)
    -> Double
  {
    let sx = Double(bufferWidth) / Double(max(w, 1))
    let sy = Double(bufferHeight) / Double(max(h, 1))
    switch self {
    case .fit: return min(sx, sy)
    case .fill: return max(sx, sy)
    case .actual: return 1
    }
  }
}

enum Painter {
  /// Around an image on the checker background.
  static let letterbox: UInt32 = 0x2A2B2E

  static func fill(_ out: UnsafeMutableBufferPointer<UInt32>, width bufferWidth: Int, tile t: Tile, with bg: Background)
  {
    if case .solid = bg { return fill(out, width: bufferWidth, tile: t, with: bg.pixel(x: 0, y: 0)) }
    for y in t.y0..<t.y1 {
      for x in t.x0..<t.x1 { out[y * bufferWidth + x] = bg.pixel(x: x - t.x0, y: y - t.y0) }
    }
  }

  static func fill(_ out: UnsafeMutableBufferPointer<UInt32>, width bufferWidth: Int, tile t: Tile, with colour: UInt32)
  {
    for y in t.y0..<t.y1 {
      out[(y * bufferWidth + t.x0)..<(y * bufferWidth + t.x1)].update(repeating: colour)
    }
  }

  /// Draws `frame` at `place` over `bg` into `tile` of the W-wide window buffer.
  /// 1:1 is exact; enlarging samples the nearest pixel (sharp); shrinking averages the
  /// source area of each window pixel. Screen pixels outside the frame's area are
  /// transparent, so only the area is read.
  static func draw(
    frame: RenderedFrame, at place: Placement, over bg: Background, into out: UnsafeMutableBufferPointer<UInt32>,
    width bufferWidth: Int, tile: Tile, shortcuts: Bool = true
  ) {
    let w = frame.screenWidth
    let h = frame.screenHeight
    let area = frame.area
    let x0 = max(place.x, tile.x0)
    let y0 = max(place.y, tile.y0)
    let x1 = min(place.x + place.width, tile.x1)
    let y1 = min(place.y + place.height, tile.y1)
    // Around the image: a quiet backdrop behind the checker, else the chosen colour.
    let around: UInt32
    if case .checker = bg { around = letterbox } else { around = bg.pixel(x: 0, y: 0) }
    guard x1 > x0, y1 > y0 else { return fill(out, width: bufferWidth, tile: tile, with: around) }
    fill(out, width: bufferWidth, tile: Tile(x0: tile.x0, y0: tile.y0, x1: tile.x1, y1: y0), with: around)
    fill(out, width: bufferWidth, tile: Tile(x0: tile.x0, y0: y1, x1: tile.x1, y1: tile.y1), with: around)
    fill(out, width: bufferWidth, tile: Tile(x0: tile.x0, y0: y0, x1: x0, y1: y1), with: around)
    fill(out, width: bufferWidth, tile: Tile(x0: x1, y0: y0, x1: tile.x1, y1: y1), with: around)
    frame.pixels.withUnsafeBufferPointer { px in
      if place.width == w && place.height == h {
        // 1:1, one pass: each pixel is the frame's, or the background where transparent.
        for y in y0..<y1 {
          let sy = y - place.y
          let inRows = sy >= area.y0 && sy < area.y1
          let src = (sy - area.y0) * area.width - area.x0
          let dst = y * bufferWidth
          for x in x0..<x1 {
            let sx = x - place.x
            let p = inRows && sx >= area.x0 && sx < area.x1 ? px[src + sx] : 0
            out[dst + x] = p >> 24 != 0 ? p & 0xFF_FFFF : bg.pixel(x: sx, y: sy)
          }
        }
        return
      }
      for y in y0..<y1 {
        for x in x0..<x1 { out[y * bufferWidth + x] = bg.pixel(x: x - place.x, y: y - place.y) }
      }
      if shortcuts && place.width * 2 == w && place.height * 2 == h && frame.coversScreen {
        return halve(px, width: w, at: place, into: out, width: bufferWidth, x0: x0, y0: y0, x1: x1, y1: y1)
      }
      // Each window pixel covers a box of the source; every source pixel counts by how
      // much of the box it covers (sum 4096 per axis). Whole-factor enlarging gives one
      // source pixel per window pixel (sharp); shrinking averages the area. Source
      // pixels outside the area are transparent and count for nothing.
      let wx = Taps(weights(count: x1 - x0, from: x0 - place.x, scaled: place.width, source: w), area.x0, area.x1)
      let wy = Taps(weights(count: y1 - y0, from: y0 - place.y, scaled: place.height, source: h), area.y0, area.y1)
      let stride = area.width
      guard let src = px.baseAddress else { return }  // no image drawn yet: background only
      wx.withPointers { xs, xIndex, xWeight in
        wy.withPointers { ys, yIndex, yWeight in
          for j in 0..<(y1 - y0) {
            let (r0, r1) = (ys[j], ys[j &+ 1])
            guard r1 > r0 else { continue }
            let dst = out.baseAddress! + (y0 + j) * bufferWidth + x0
            let oneRow = r1 &- r0 == 1 && yWeight[r0] == 4096
            for i in 0..<(x1 - x0) {
              let (c0, c1) = (xs[i], xs[i &+ 1])
              guard c1 > c0 else { continue }
              if oneRow && c1 &- c0 == 1 && xWeight[c0] == 4096 {
                let p = src[yIndex[r0] &* stride &+ xIndex[c0]]
                if p >> 24 != 0 { dst[i] = p & 0xFF_FFFF }
                continue
              }
              // Premultiplied sums (alpha is 0 or 1 per GIF pixel), then over the background.
              var r = 0
              var g = 0
              var b = 0
              var a = 0
              for ry in r0..<r1 {
                let row = src + yIndex[ry] &* stride
                let wyk = yWeight[ry]
                for cx in c0..<c1 {
                  let p = row[xIndex[cx]]
                  guard p >> 24 != 0 else { continue }
                  let k = wyk &* xWeight[cx]
                  r &+= Int(p >> 16 & 0xff) &* k
                  g &+= Int(p >> 8 & 0xff) &* k
                  b &+= Int(p & 0xff) &* k
                  a &+= k
                }
              }
              guard a > 0 else { continue }
              let n = 4096 * 4096
              let under = dst[i]
              let rest = n - a
              let rr = (r + Int(under >> 16 & 0xff) * rest + n / 2) / n
              let gg = (g + Int(under >> 8 & 0xff) * rest + n / 2) / n
              let bb = (b + Int(under & 0xff) * rest + n / 2) / n
              dst[i] = UInt32(rr) << 16 | UInt32(gg) << 8 | UInt32(bb)
            }
          }
        }
      }
    }
  }

  /// The 2:1 shrink (a 1920x1080 GIF in a 960x540 view), the same sums as the general
  /// path with every tap weighing a quarter: each window pixel is its 2x2 box's opaque
  /// pixels over what is under them, `out` holding the background already.
  private static func halve(
    _ px: UnsafeBufferPointer<UInt32>, width w: Int, at place: Placement, into out: UnsafeMutableBufferPointer<UInt32>,
    width bufferWidth: Int, x0: Int, y0: Int, x1: Int, y1: Int
  ) {
    guard let src = px.baseAddress, let dstBase = out.baseAddress else { return }
    for y in y0..<y1 {
      let top = src + 2 * (y - place.y) * w
      let bottom = top + w
      let dst = dstBase + y * bufferWidth
      var x = x0
      while x < x1 {
        let sx = 2 * (x - place.x)
        let p = (top[sx], top[sx &+ 1], bottom[sx], bottom[sx &+ 1])
        let opaque = p.0 & p.1 & p.2 & p.3
        if opaque >> 24 != 0 {
          // All four opaque (the common case): the rounded mean of each channel.
          let rb = (p.0 & 0xFF00FF) &+ (p.1 & 0xFF00FF) &+ (p.2 & 0xFF00FF) &+ (p.3 & 0xFF00FF) &+ 0x20002
          let g = (p.0 & 0xFF00) &+ (p.1 & 0xFF00) &+ (p.2 & 0xFF00) &+ (p.3 & 0xFF00) &+ 0x200
          dst[x] = (rb >> 2) & 0xFF00FF | (g >> 2) & 0xFF00
        } else {
          var r: UInt32 = 0
          var gg: UInt32 = 0
          var b: UInt32 = 0
          var count: UInt32 = 0
          @inline(__always) func add(_ q: UInt32) {
            guard q >> 24 != 0 else { return }
            r &+= q >> 16 & 0xFF
            gg &+= q >> 8 & 0xFF
            b &+= q & 0xFF
            count &+= 1
          }
          add(p.0)
          add(p.1)
          add(p.2)
          add(p.3)
          if count > 0 {
            let under = dst[x]
            let rest = 4 &- count
            r = (r &+ (under >> 16 & 0xFF) &* rest &+ 2) >> 2
            gg = (gg &+ (under >> 8 & 0xFF) &* rest &+ 2) >> 2
            b = (b &+ (under & 0xFF) &* rest &+ 2) >> 2
            dst[x] = r << 16 | gg << 8 | b
          }
        }
        x &+= 1
      }
    }
  }

  /// Per window pixel along one axis, the source pixels it covers and their weights, in
  /// flat arrays: pixel i's taps are `start[i]..<start[i + 1]` of `index` and `weight`.
  struct Taps {
    var start: [Int] = [0]
    var index: [Int] = []
    var weight: [Int] = []

    /// `weights` restricted to source pixels lo..<hi, indices made relative to lo.
    init(_ weights: [[(index: Int, weight: Int)]], _ lo: Int, _ hi: Int) {
      start.reserveCapacity(weights.count + 1)
      for parts in weights {
        for part in parts where part.index >= lo && part.index < hi {
          index.append(part.index - lo)
          weight.append(part.weight)
        }
        start.append(index.count)
      }
    }

    func withPointers<R>(
      _ body: (UnsafePointer<Int>, UnsafePointer<Int>, UnsafePointer<Int>) -> R
    ) -> R {
      // Never empty buffers: `start` has at least one entry; the others get a spare one.
      let i = index + [0]
      let w = weight + [0]
      return start.withUnsafeBufferPointer { s in
        i.withUnsafeBufferPointer { ib in
          w.withUnsafeBufferPointer { wb in body(s.baseAddress!, ib.baseAddress!, wb.baseAddress!) }
        }
      }
    }
  }

  /// For `count` window pixels starting `from` pixels into a `scaled`-wide image of a
  /// `source`-wide one: the source pixels each covers and their weights (sum 4096).
  static func weights(count: Int, from: Int, scaled: Int, source: Int) -> [[(index: Int, weight: Int)]] {
    let k = Double(source) / Double(scaled)
    return (0..<count).map { i in
      let d = Double(from + i)
      let a = d * k
      let b = (d + 1) * k
      var parts: [(Int, Double)] = []
      var s = Int(a.rounded(.down))
      while Double(s) < b && s < source {
        let overlap = min(b, Double(s + 1)) - max(a, Double(s))
        if overlap > 1e-9 { parts.append((s, overlap)) }
        s += 1
      }
      if parts.isEmpty { return [(min(max(Int(a), 0), source - 1), 4096)] }
      let total = parts.reduce(0) { $0 + $1.1 }
      var out = parts.map { (index: $0.0, weight: Int(($0.1 / total * 4096).rounded())) }
      // Rounding must not change the total: the largest part takes the difference.
      let diff = 4096 - out.reduce(0) { $0 + $1.weight }
      if let m = out.indices.max(by: { out[$0].weight < out[$1].weight }) { out[m].weight += diff }
      return out.filter { $0.weight > 0 }
    }
  }

  /// out = a·(1−t) + b·t, per channel.
  static func crossFade(
    _ a: UnsafeBufferPointer<UInt32>, _ b: UnsafeBufferPointer<UInt32>, t: Double,
    into out: UnsafeMutableBufferPointer<UInt32>
  ) {
    let wb = UInt32(max(0, min(256, Int(t * 256))))
    let wa = 256 - wb
    for i in 0..<out.count {
      let p = a[i]
      let q = b[i]
      let rb = ((p & 0xFF00FF) * wa + (q & 0xFF00FF) * wb) >> 8 & 0xFF00FF
      let g = ((p & 0x00FF00) * wa + (q & 0x00FF00) * wb) >> 8 & 0x00FF00
      out[i] = rb | g
    }
  }
}
