/// Pure pixel work for the window: backgrounds, scaling with transparency, cross-fades.
/// Pixels out are 0x00RRGGBB; frames in are `.bgra` canvases (alpha 0 or 255).
public enum Background: Sendable, Equatable {
  case checker
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

/// Where an image lands in the window: scale and top-left offset (may be negative).
public struct Placement: Equatable, Sendable {
  public var scale: Double
  public var x: Int
  public var y: Int
  public var width: Int  // scaled size
  public var height: Int

  public init(imageWidth w: Int, imageHeight h: Int, scale: Double, windowWidth W: Int, windowHeight H: Int) {
    self.scale = scale
    width = max(1, Int((Double(w) * scale).rounded()))
    height = max(1, Int((Double(h) * scale).rounded()))
    x = (W - width) / 2
    y = (H - height) / 2
  }
}

public enum ContentMode: String, Sendable {
  case fit, fill, actual

  /// The scale that shows a w×h image in a W×H window.
  public func scale(imageWidth w: Int, imageHeight h: Int, windowWidth W: Int, windowHeight H: Int) -> Double {
    let sx = Double(W) / Double(max(w, 1)), sy = Double(H) / Double(max(h, 1))
    switch self {
    case .fit: return min(sx, sy)
    case .fill: return max(sx, sy)
    case .actual: return 1
    }
  }
}

enum Painter {
  static func fill(_ out: UnsafeMutableBufferPointer<UInt32>, width: Int, height: Int, with bg: Background) {
    if case .solid = bg {
      out.update(repeating: bg.pixel(x: 0, y: 0))
      return
    }
    for y in 0..<height {
      for x in 0..<width { out[y * width + x] = bg.pixel(x: x, y: y) }
    }
  }

  /// Draws `frame` (w×h `.bgra`) at `place` over `bg` into the W×H window buffer.
  /// 1:1 is exact; enlarging samples the nearest pixel (sharp); shrinking averages the
  /// source area of each window pixel.
  static func draw(
    frame: UnsafeBufferPointer<UInt32>, width w: Int, height h: Int, at place: Placement,
    over bg: Background, into out: UnsafeMutableBufferPointer<UInt32>, width W: Int, height H: Int
  ) {
    fill(out, width: W, height: H, with: bg)
    let x0 = max(place.x, 0), y0 = max(place.y, 0)
    let x1 = min(place.x + place.width, W), y1 = min(place.y + place.height, H)
    guard x1 > x0, y1 > y0 else { return }
    if place.width == w && place.height == h {
      for y in y0..<y1 {
        let src = (y - place.y) * w - place.x
        let dst = y * W
        for x in x0..<x1 {
          let p = frame[src + x]
          if p >> 24 != 0 { out[dst + x] = p & 0xFF_FFFF }
        }
      }
      return
    }
    // Source span of each window column/row: [lo, hi).
    let sx = spans(count: x1 - x0, from: x0 - place.x, scaled: place.width, source: w)
    let sy = spans(count: y1 - y0, from: y0 - place.y, scaled: place.height, source: h)
    let enlarging = place.width >= w && place.height >= h
    for j in 0..<(y1 - y0) {
      let y = y0 + j
      let dst = y * W
      let (ry0, ry1) = sy[j]
      for i in 0..<(x1 - x0) {
        let x = x0 + i
        let (rx0, rx1) = sx[i]
        if enlarging {
          let p = frame[ry0 * w + rx0]
          if p >> 24 != 0 { out[dst + x] = p & 0xFF_FFFF }
          continue
        }
        // Average premultiplied colour over the area, then blend over the background.
        var r = 0, g = 0, b = 0, a = 0
        for yy in ry0..<ry1 {
          let row = yy * w
          for xx in rx0..<rx1 {
            let p = frame[row + xx]
            if p >> 24 != 0 {
              r += Int(p >> 16 & 0xff)
              g += Int(p >> 8 & 0xff)
              b += Int(p & 0xff)
              a += 1
            }
          }
        }
        let n = (ry1 - ry0) * (rx1 - rx0)
        guard a > 0 else { continue }
        let under = out[dst + x]
        let ur = Int(under >> 16 & 0xff), ug = Int(under >> 8 & 0xff), ub = Int(under & 0xff)
        let rr = (r + ur * (n - a) + n / 2) / n
        let gg = (g + ug * (n - a) + n / 2) / n
        let bb = (b + ub * (n - a) + n / 2) / n
        out[dst + x] = UInt32(rr) << 16 | UInt32(gg) << 8 | UInt32(bb)
      }
    }
  }

  /// For `count` window pixels starting `from` pixels into a `scaled`-wide image of a
  /// `source`-wide one: the source range each covers (never empty).
  static func spans(count: Int, from: Int, scaled: Int, source: Int) -> [(Int, Int)] {
    (0..<count).map { i in
      let d = from + i
      let lo = min(d * source / scaled, source - 1)
      let hi = min(max((d + 1) * source / scaled, lo + 1), source)
      return (lo, hi)
    }
  }

  /// out = a·(1−t) + b·t, per channel.
  static func crossFade(
    _ a: UnsafeBufferPointer<UInt32>, _ b: UnsafeBufferPointer<UInt32>, t: Double,
    into out: UnsafeMutableBufferPointer<UInt32>
  ) {
    let wb = UInt32(max(0, min(256, Int(t * 256)))), wa = 256 - wb
    for i in 0..<out.count {
      let p = a[i], q = b[i]
      let rb = ((p & 0xFF00FF) * wa + (q & 0xFF00FF) * wb) >> 8 & 0xFF00FF
      let g = ((p & 0x00FF00) * wa + (q & 0x00FF00) * wb) >> 8 & 0x00FF00
      out[i] = rb | g
    }
  }
}
