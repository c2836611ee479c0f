import Glibc

/// Anti-aliased drawing of the loading spinner and the failure icon, in software, so
/// they look the same on every X server (coverage from distance to each shape).
enum Spinner {
  static let spokes = 12
  /// One step of the spinner every 1/12 s: a full turn a second, 12 frames a second.
  static let stepNS: UInt64 = 83_333_333
  static let backdrop: UInt32 = 0x2A2B2E

  /// Draws a UIActivityIndicator-like ring of fading spokes centred at (cx, cy).
  static func draw(
    into out: UnsafeMutableBufferPointer<UInt32>, width bufferWidth: Int, height bufferHeight: Int, cx: Double,
    cy: Double,
    radius: Double, step: Int, color: UInt32 = 0xF2F2F2
  ) {
    let inner = radius * 0.45
    let thickness = max(1.5, radius * 0.16)
    for k in 0..<spokes {
      let angle = Double(k) * 2 * Double.pi / Double(spokes) - Double.pi / 2
      // The spoke at `step` is brightest; the ones behind it fade out.
      let age = (step - k + spokes) % spokes
      let alpha = 1.0 - Double(age) / Double(spokes) * 0.85
      let (c, s) = (cos(angle), sin(angle))
      capsule(
        into: out, width: bufferWidth, height: bufferHeight, ax: cx + c * inner, ay: cy + s * inner,
        bx: cx + c * radius,
        by: cy + s * radius, halfWidth: thickness / 2, color: color, alpha: alpha)
    }
  }

  /// A line segment with round caps, blended with coverage-based anti-aliasing.
  static func capsule(
    into out: UnsafeMutableBufferPointer<UInt32>, width bufferWidth: Int, height bufferHeight: Int, ax: Double,
    ay: Double, bx: Double,
    by: Double, halfWidth r: Double, color: UInt32, alpha: Double
  ) {
    let minX = max(0, Int((min(ax, bx) - r - 1).rounded(.down)))
    let maxX = min(bufferWidth - 1, Int((max(ax, bx) + r + 1).rounded(.up)))
    let minY = max(0, Int((min(ay, by) - r - 1).rounded(.down)))
    let maxY = min(bufferHeight - 1, Int((max(ay, by) + r + 1).rounded(.up)))
    guard minX <= maxX, minY <= maxY else { return }
    let dx = bx - ax
    let dy = by - ay
    let len2 = max(dx * dx + dy * dy, 1e-9)
    for y in minY...maxY {
      for x in minX...maxX {
        let px = Double(x) + 0.5 - ax
        let py = Double(y) + 0.5 - ay
        let t = max(0, min(1, (px * dx + py * dy) / len2))
        let ex = px - t * dx
        let ey = py - t * dy
        let d = (ex * ex + ey * ey).squareRoot()
        let coverage = max(0, min(1, r + 0.5 - d))
        if coverage > 0 { blend(&out[y * bufferWidth + x], color, coverage * alpha) }
      }
    }
  }

  /// A filled disc with an anti-aliased edge.
  static func disc(
    into out: UnsafeMutableBufferPointer<UInt32>, width bufferWidth: Int, height bufferHeight: Int, cx: Double,
    cy: Double, radius: Double,
    color: UInt32
  ) {
    capsule(
      into: out, width: bufferWidth, height: bufferHeight, ax: cx, ay: cy, bx: cx, by: cy, halfWidth: radius,
      color: color, alpha: 1)
  }

  @inline(__always)
  static func blend(_ p: inout UInt32, _ c: UInt32, _ a: Double) {
    let w = UInt32(max(0, min(256, Int(a * 256))))
    let v = 256 - w
    let rb = ((p & 0xFF00FF) * v + (c & 0xFF00FF) * w) >> 8 & 0xFF00FF
    let g = ((p & 0x00FF00) * v + (c & 0x00FF00) * w) >> 8 & 0x00FF00
    p = rb | g
  }

  /// The failure card's icon: a red disc with a white exclamation mark.
  static func drawFailureIcon(
    into out: UnsafeMutableBufferPointer<UInt32>, width bufferWidth: Int, height bufferHeight: Int, cx: Double,
    cy: Double,
    radius: Double
  ) {
    disc(into: out, width: bufferWidth, height: bufferHeight, cx: cx, cy: cy, radius: radius, color: 0xD64541)
    let bar = radius * 0.13
    capsule(
      into: out, width: bufferWidth, height: bufferHeight, ax: cx, ay: cy - radius * 0.5, bx: cx,
      by: cy + radius * 0.12,
      halfWidth: bar, color: 0xFFFFFF, alpha: 1)
    disc(
      into: out, width: bufferWidth, height: bufferHeight, cx: cx, cy: cy + radius * 0.45, radius: bar * 1.15,
      color: 0xFFFFFF)
  }
}
