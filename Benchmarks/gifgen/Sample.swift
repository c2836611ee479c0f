import GIFTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `Resources/sample.gif`, what `make run` shows: a shaded beach ball spinning as it
/// bounces, squashing on landing, over a dithered soft shadow, on a transparent
/// background; 30 frames of 5 cs, looping forever.
enum Sample {
  static let width = 160
  static let height = 120
  static let frames = 30
  static let delayCS = 5

  // Palette layout: 0 transparent, 1 and 2 the shadow's rim and core, then `shades`
  // levels for each panel colour.
  static let shades = 34
  static let panels: [(Double, Double, Double)] = [
    (0.90, 0.16, 0.20),  // red
    (0.98, 0.97, 0.93),  // white
    (0.13, 0.42, 0.86),  // blue
    (0.99, 0.78, 0.12),  // yellow
    (0.98, 0.97, 0.93),  // white
    (0.16, 0.68, 0.36),  // green
  ]
  static let cap = (0.98, 0.55, 0.10)  // orange pole caps
  static var colors: [(Double, Double, Double)] { panels + [cap] }

  static func palette() -> [UInt8] {
    var rgb: [UInt8] = [255, 255, 255, 112, 110, 132, 72, 70, 92]
    // Panels 1 and 4 share one white ramp in the palette too (it is the same colour);
    // keeping them separate is simpler and still fits in 256 entries.
    for c in colors {
      for level in 0..<shades {
        let (r, g, b) = shade(c, Double(level) / Double(shades - 1))
        rgb += [r, g, b]
      }
    }
    return rgb
  }

  /// `s` in 0…1: dark ambient at 0, the full colour at 0.78, then towards white (specular).
  static func shade(_ c: (Double, Double, Double), _ s: Double) -> (UInt8, UInt8, UInt8) {
    let knee = 0.78
    func ch(_ v: Double) -> UInt8 {
      let out: Double
      if s <= knee {
        out = v * (0.18 + 0.82 * s / knee)
      } else {
        let t = (s - knee) / (1 - knee)
        out = v + (1 - v) * t * 0.9
      }
      // A touch of gamma so the dark side is not muddy.
      return UInt8((255 * pow(clamp01(out), 1 / 1.15)).rounded())
    }
    return (ch(c.0), ch(c.1), ch(c.2))
  }

  static func render(frame k: Int) -> [UInt8] {
    var f = [UInt8](repeating: 0, count: width * height)
    let t = Double(k) / Double(frames)
    let radius = 25.0
    let floorY = 108.0
    let jump = 54.0
    // A parabola: on the floor at t = 0, at the top at t = 0.5.
    let lift = jump * 4 * t * (1 - t)
    // Squash on landing, a little stretch while fast.
    let squash: Double
    switch k {
    case 0: squash = 0.20
    case 1, frames - 1: squash = 0.07
    case 2, 3, frames - 3, frames - 2: squash = -0.05
    default: squash = 0
    }
    let sy = 1 - squash
    let sx = 1 + squash * 0.85
    let cx = 80.0
    let cy = floorY - radius * sy - lift

    // Shadow: an ellipse that shrinks as the ball rises, its core fading into its rim.
    let high = lift / jump
    let shadowRX = 27 * (1 - 0.35 * high) * (1 + squash * 0.6)
    let shadowRY = 5.5 * (1 - 0.25 * high)
    let core = 0.9 - 0.4 * high
    for y in Int(floorY - 8)..<Int(floorY + 8) {
      for x in Int(cx - 40)..<Int(cx + 40) {
        let dx = (Double(x) + 0.5 - cx) / shadowRX
        let dy = (Double(y) + 0.5 - floorY) / shadowRY
        let d2 = dx * dx + dy * dy
        guard d2 < 1 else { continue }
        let darkness = core * (1 - d2)
        f[y * width + x] = darkness > 0.25 + 0.3 * Bayer.threshold(x, y) ? 2 : 1
      }
    }

    // The ball: per pixel 4×4 samples of a lit, spinning sphere.
    let spin = 2 * Double.pi * t
    let tilt = 0.42  // the top pole leans towards the viewer
    let (light, half) = lighting()
    let (cosT, sinT) = (cos(tilt), sin(tilt))
    let (cosS, sinS) = (cos(spin), sin(spin))
    let x0 = Int(cx - radius * sx) - 1
    let x1 = Int(cx + radius * sx) + 2
    let y0 = Int(cy - radius * sy) - 1
    let y1 = Int(cy + radius * sy) + 2
    for y in max(y0, 0)..<min(y1, height) {
      for x in max(x0, 0)..<min(x1, width) {
        var inside = 0
        var votes = [Int](repeating: 0, count: colors.count)
        var brightness = 0.0
        for sub in 0..<16 {
          let px = Double(x) + (Double(sub & 3) + 0.5) / 4
          let py = Double(y) + (Double(sub >> 2) + 0.5) / 4
          let nx = (px - cx) / (radius * sx)
          let ny = (py - cy) / (radius * sy)
          let d2 = nx * nx + ny * ny
          guard d2 <= 1 else { continue }
          inside += 1
          let nz = (1 - d2).squareRoot()
          // View space (y down) → ball space: undo the tilt about x, then the spin about y.
          let ty = ny * cosT - nz * sinT
          let tz = ny * sinT + nz * cosT
          let bx = nx * cosS + tz * sinS
          let bz = -nx * sinS + tz * cosS
          let panel: Int
          if abs(ty) > 0.9 {
            panel = panels.count
          } else {
            let longitude = atan2(bz, bx) + Double.pi
            panel = min(Int(longitude / (2 * Double.pi) * Double(panels.count)), panels.count - 1)
          }
          votes[panel] += 1
          let diffuse = max(0, nx * light.0 + ny * light.1 + nz * light.2)
          let specular = pow(max(0, nx * half.0 + ny * half.1 + nz * half.2), 60)
          // A faint rim light from below-right, off the floor.
          let rim = 0.12 * max(0, nx * 0.5 + ny * 0.8) * (1 - nz)
          brightness += 0.1 + 0.68 * diffuse + rim + 0.32 * specular
        }
        // A crisp silhouette: a pixel at least half covered is the ball's.
        guard inside >= 8 else { continue }
        let panel = votes.indices.max { votes[$0] < votes[$1] }!
        let s = clamp01(brightness / Double(inside))
        let level = min(Int(s * Double(shades - 1) + Bayer.threshold(x + 3, y + 5)), shades - 1)
        f[y * width + x] = UInt8(3 + panel * shades + level)
      }
    }
    return f
  }

  static func lighting() -> (light: (Double, Double, Double), half: (Double, Double, Double)) {
    func normalize(_ v: (Double, Double, Double)) -> (Double, Double, Double) {
      let n = (v.0 * v.0 + v.1 * v.1 + v.2 * v.2).squareRoot()
      return (v.0 / n, v.1 / n, v.2 / n)
    }
    let light = normalize((-0.55, -0.75, 0.65))
    let half = normalize((light.0, light.1, light.2 + 1))
    return (light, half)
  }

  static func make() -> [UInt8] {
    let truths = (0..<frames).map { render(frame: $0) }
    var gif = GIFBuilder(width: width, height: height, globalPalette: palette())
    gif.loop(0)
    gif.comment("gifview sample: a bouncing beach ball (generated by Benchmarks/gifgen)")
    let images = FrameOptimizer(width: width, height: height, transparent: 0).optimize(truths)
    for image in images {
      gif.control(delayCS: delayCS, disposal: image.disposal, transparent: 0)
      gif.image(
        x: image.x, y: image.y, width: image.width, height: image.height, indices: image.indices)
    }
    gif.trailer()
    return gif.bytes
  }
}
