import GIFTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The benchmark corpus: files shaped like the GIFs people decode (a dithered photo, a
/// frame-optimised web animation, many small full frames, HD frames with local palettes,
/// a scanned two-colour page). Every byte follows from fixed seeds.
enum BenchCorpus {
  /// Bump when any generator changes, so `run.sh` regenerates its cached corpus.
  static let version = "1"

  static let files: [(name: String, make: @Sendable () -> [UInt8])] = [
    ("photo-1200x900.gif", photo),
    ("web-480x270x80.gif", web),
    ("anim-200x200x500.gif", anim),
    ("hd-1920x1080x30.gif", hd),
    ("page-2000x2000.gif", page),
  ]

  // MARK: - Palettes

  /// Levels per channel of the colour cube: 6 × 7 × 6 = 252 colours (the eye is most
  /// sensitive to green), plus four greys to fill 256.
  static let cube = (r: 6, g: 7, b: 6)

  /// The cube spread over [lo, hi] per channel (0…1), as RGB triplets; 256 entries.
  static func cubePalette(lo: [Double] = [0, 0, 0], hi: [Double] = [1, 1, 1]) -> [UInt8] {
    var rgb: [UInt8] = []
    func level(_ i: Int, _ n: Int, _ c: Int) -> UInt8 {
      UInt8((255 * (lo[c] + (hi[c] - lo[c]) * Double(i) / Double(n - 1))).rounded())
    }
    for r in 0..<cube.r {
      for g in 0..<cube.g {
        for b in 0..<cube.b {
          rgb += [level(r, cube.r, 0), level(g, cube.g, 1), level(b, cube.b, 2)]
        }
      }
    }
    for v in [64, 128, 192, 224] as [UInt8] { rgb += [v, v, v] }
    return rgb
  }

  @inline(__always)
  static func cubeIndex(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
    UInt8((r * cube.g + g) * cube.b + b)
  }

  // MARK: - A photo-like field

  /// A smooth "landscape": sky gradient, soft coloured light blobs and several octaves of
  /// value noise for texture, in linear-ish RGB 0…1.
  struct Scene {
    var noises: [ValueNoise] = []
    var blobs: [(x: Double, y: Double, r: Double, color: (Double, Double, Double))] = []
    let width: Double
    let height: Double

    init(width: Int, height: Int, seed: UInt64) {
      var rng = SplitMix64(seed: seed)
      self.width = Double(width)
      self.height = Double(height)
      let scale = Double(max(width, height))
      for cell in [0.25, 0.1, 0.035, 0.012, 0.004] {
        noises.append(ValueNoise(width: width, height: height, cell: cell * scale, rng: &rng))
      }
      for _ in 0..<9 {
        blobs.append(
          (
            x: rng.uniform(0, self.width), y: rng.uniform(0, self.height),
            r: rng.uniform(0.08, 0.3) * scale,
            color: (rng.uniform(-0.3, 0.6), rng.uniform(-0.3, 0.5), rng.uniform(-0.3, 0.6))
          ))
      }
    }

    func color(_ x: Double, _ y: Double) -> (Double, Double, Double) {
      let v = y / height
      // Sky to ground.
      var r = 0.35 + 0.35 * v
      var g = 0.55 + 0.1 * v
      var b = 0.9 - 0.55 * v
      let n0 = noises[0].at(x, y)
      let n1 = noises[1].at(x, y)
      let n2 = noises[2].at(x, y)
      let n3 = noises[3].at(x, y)
      let n4 = noises[4].at(x, y)
      let texture = 0.22 * n0 + 0.12 * n1 + 0.07 * n2 + 0.05 * n3 + 0.04 * n4
      r += texture + 0.08 * n1
      g += texture
      b += texture - 0.06 * n0
      for blob in blobs {
        let dx = x - blob.x
        let dy = y - blob.y
        let w = exp(-(dx * dx + dy * dy) / (blob.r * blob.r))
        r += blob.color.0 * w
        g += blob.color.1 * w
        b += blob.color.2 * w
      }
      return (clamp01(r), clamp01(g), clamp01(b))
    }
  }

  // MARK: - photo-1200x900: one frame, Floyd–Steinberg onto the colour cube

  static func photo() -> [UInt8] {
    let width = 1200
    let height = 900
    let scene = Scene(width: width, height: height, seed: 0x5EED_0001)
    var rng = SplitMix64(seed: 0x5EED_0002)
    // Error-diffusion rows (current and next), three channels, one pixel of slack each side.
    var errCur = [Double](repeating: 0, count: 3 * (width + 2))
    var errNext = errCur
    var indices = [UInt8](repeating: 0, count: width * height)
    let levels = [cube.r, cube.g, cube.b]
    for y in 0..<height {
      for i in errNext.indices { errNext[i] = 0 }
      // Serpentine scan, as good dithering encoders do.
      let leftToRight = y % 2 == 0
      for step in 0..<width {
        let x = leftToRight ? step : width - 1 - step
        let c = scene.color(Double(x), Double(y))
        // Sensor noise.
        var q = (0, 0, 0)
        for ch in 0..<3 {
          let n = Double(levels[ch] - 1)
          let want = (ch == 0 ? c.0 : ch == 1 ? c.1 : c.2) + 0.035 * rng.normal()
          let v = want + errCur[3 * (x + 1) + ch]
          let l = min(max(Int((v * n).rounded()), 0), levels[ch] - 1)
          switch ch {
          case 0: q.0 = l
          case 1: q.1 = l
          default: q.2 = l
          }
          let e = v - Double(l) / n
          let ahead = leftToRight ? 1 : -1
          errCur[3 * (x + 1 + ahead) + ch] += e * 7 / 16
          errNext[3 * (x + 1 - ahead) + ch] += e * 3 / 16
          errNext[3 * (x + 1) + ch] += e * 5 / 16
          errNext[3 * (x + 1 + ahead) + ch] += e * 1 / 16
        }
        indices[y * width + x] = cubeIndex(q.0, q.1, q.2)
      }
      swap(&errCur, &errNext)
    }
    var gif = GIFBuilder(width: width, height: height, globalPalette: cubePalette())
    gif.comment("gifview benchmark: dithered photo")
    gif.image(width: width, height: height, indices: indices)
    gif.trailer()
    return gif.bytes
  }

  // MARK: - hd-1920x1080x30: a slow pan, each frame with its own cube palette

  static func hd() -> [UInt8] {
    let width = 1920
    let height = 1080
    let frames = 30
    let panX = 12
    let panY = 4
    // The scene once, wide enough for the whole pan.
    let sceneWidth = width + panX * frames
    let sceneHeight = height + panY * frames
    let scene = Scene(width: sceneWidth, height: sceneHeight, seed: 0x5EED_0003)
    var field = [Float](repeating: 0, count: 3 * sceneWidth * sceneHeight)
    for y in 0..<sceneHeight {
      for x in 0..<sceneWidth {
        let c = scene.color(Double(x), Double(y))
        let p = 3 * (y * sceneWidth + x)
        (field[p], field[p + 1], field[p + 2]) = (Float(c.0), Float(c.1), Float(c.2))
      }
    }
    var rng = SplitMix64(seed: 0x5EED_0004)
    var gif = GIFBuilder(width: width, height: height)
    gif.loop(0)
    gif.comment("gifview benchmark: HD frames with local palettes")
    var indices = [UInt8](repeating: 0, count: width * height)
    var colors = [Float](repeating: 0, count: 3 * width * height)
    let levels = [cube.r, cube.g, cube.b].map(Float.init)
    for k in 0..<frames {
      // A light that sweeps across the picture, and an exposure that drifts.
      let lightX = Float(width) * (0.1 + 0.8 * Float(k) / Float(frames - 1))
      let lightY = Float(height) * 0.35
      let exposure = Float(0.9 + 0.2 * sin(Double(k) * 0.4))
      var lo: [Float] = [1, 1, 1]
      var hi: [Float] = [0, 0, 0]
      for y in 0..<height {
        let dy = (Float(y) - lightY) / 400
        for x in 0..<width {
          let dx = (Float(x) - lightX) / 500
          let light = exposure + 0.25 * expf(-(dx * dx + dy * dy))
          let s = 3 * ((y + panY * k) * sceneWidth + x + panX * k)
          let noise = rng.next()
          for ch in 0..<3 {
            let n = Float((noise >> (20 * UInt64(ch))) & 0xFFFF) / 65536 - 0.5
            let v = min(max(field[s + ch] * light * (ch == 2 ? 0.95 : 1) + 0.06 * n, 0), 1)
            colors[3 * (y * width + x) + ch] = v
            lo[ch] = min(lo[ch], v)
            hi[ch] = max(hi[ch], v)
          }
        }
      }
      // This frame's palette: the cube fitted to its own colour range.
      for ch in 0..<3 where hi[ch] - lo[ch] < 0.05 { hi[ch] = min(lo[ch] + 0.05, 1) }
      let scaleR = (levels[0] - 1) / (hi[0] - lo[0])
      let scaleG = (levels[1] - 1) / (hi[1] - lo[1])
      let scaleB = (levels[2] - 1) / (hi[2] - lo[2])
      for y in 0..<height {
        for x in 0..<width {
          let t = Float(Bayer.threshold(x, y))
          let p = 3 * (y * width + x)
          let r = min(max(Int((colors[p] - lo[0]) * scaleR + t), 0), cube.r - 1)
          let g = min(max(Int((colors[p + 1] - lo[1]) * scaleG + t), 0), cube.g - 1)
          let b = min(max(Int((colors[p + 2] - lo[2]) * scaleB + t), 0), cube.b - 1)
          indices[y * width + x] = cubeIndex(r, g, b)
        }
      }
      let palette = cubePalette(lo: lo.map(Double.init), hi: hi.map(Double.init))
      gif.control(delayCS: 8, disposal: 1)
      gif.image(width: width, height: height, indices: indices, localPalette: palette)
    }
    gif.trailer()
    return gif.bytes
  }

  // MARK: - anim-200x200x500: full-size plasma frames on a global palette

  static func anim() -> [UInt8] {
    let size = 200
    let frames = 500
    var palette: [UInt8] = []
    for i in 0..<256 {
      let t = Double(i) / 256 * 2 * Double.pi
      palette += [
        UInt8(127.5 + 127.5 * sin(t)), UInt8(127.5 + 127.5 * sin(t + 2.1)),
        UInt8(127.5 + 127.5 * sin(t + 4.2)),
      ]
    }
    var gif = GIFBuilder(width: size, height: size, globalPalette: palette)
    gif.loop(0)
    var indices = [UInt8](repeating: 0, count: size * size)
    for k in 0..<frames {
      let t = Double(k) * 2 * Double.pi / Double(frames)
      let cx = 100 + 60 * sin(3 * t)
      let cy = 100 + 60 * cos(2 * t)
      for y in 0..<size {
        for x in 0..<size {
          let fx = Double(x)
          let fy = Double(y)
          let d = ((fx - cx) * (fx - cx) + (fy - cy) * (fy - cy)).squareRoot()
          var v = sin(fx / 23 + 5 * t) + sin(fy / 17 - 3 * t)
          v += sin((fx + fy) / 31 + 2 * t) + sin(d / 13 - 7 * t)
          // 0…255 with a little ordered dither so the bands are not flat.
          let level = (v + 4) / 8 * 255 + 3 * (Bayer.threshold(x, y) - 0.5)
          indices[y * size + x] = UInt8(min(max(Int(level), 0), 255))
        }
      }
      gif.control(delayCS: 4, disposal: 1)
      gif.image(width: size, height: size, indices: indices)
    }
    gif.trailer()
    return gif.bytes
  }

  // MARK: - web-480x270x80: a frame-optimised banner (sub-rectangles, transparency)

  static func web() -> [UInt8] {
    let width = 480
    let height = 270
    let frames = 80
    // 0: transparent. 1–32: banner blues, 33–64: ball reds, 65–80: spinner greys,
    // 81–96: progress greens, 97–100: text, 101–104: badge.
    var palette: [UInt8] = [255, 255, 255]
    for i in 0..<32 {
      let t = Double(i) / 31
      palette += [UInt8(20 + 40 * t), UInt8(40 + 90 * t), UInt8(90 + 140 * t)]
    }
    for i in 0..<32 {
      let t = Double(i) / 31
      palette += [UInt8(60 + 195 * t), UInt8(10 + 200 * t * t), UInt8(20 + 190 * t * t)]
    }
    for i in 0..<16 {
      let v = UInt8(90 + 165 * i / 15)
      palette += [v, v, v]
    }
    for i in 0..<16 {
      let t = Double(i) / 15
      palette += [UInt8(30 + 60 * t), UInt8(120 + 120 * t), UInt8(40 + 60 * t)]
    }
    palette += [255, 255, 255, 230, 235, 245, 200, 210, 230, 160, 175, 200]
    palette += [255, 200, 0, 255, 120, 0, 200, 40, 0, 255, 255, 255]

    // Static parts: the banner gradient and its "text".
    var banner = [UInt8](repeating: 0, count: width * height)
    var rng = SplitMix64(seed: 0x5EED_0005)
    let bx0 = 16
    let by0 = 16
    let bx1 = 464
    let by1 = 224
    let corner = 18
    for y in by0..<by1 {
      for x in bx0..<bx1 {
        let cxr = x < bx0 + corner ? bx0 + corner : x >= bx1 - corner ? bx1 - corner - 1 : x
        let cyr = y < by0 + corner ? by0 + corner : y >= by1 - corner ? by1 - corner - 1 : y
        let dx = x - cxr
        let dy = y - cyr
        guard dx * dx + dy * dy <= corner * corner else { continue }
        let t =
          Double(y - by0) / Double(by1 - by0) * 0.7 + Double(x - bx0) / Double(bx1 - bx0) * 0.3
        banner[y * width + x] = UInt8(1 + min(Int((1 - t) * 31 + Bayer.threshold(x, y) - 0.5), 31))
      }
    }
    // Title and subtitle: blocky glyph-like marks.
    for (line, (y0, h, color)) in [(40, 22, 97), (76, 10, 98), (92, 10, 99)].enumerated() {
      var x = 40
      while x < (line == 0 ? 300 : 340) {
        let w = rng.int(line == 0 ? 14 : 8) + 4
        for yy in y0..<(y0 + h) {
          for xx in x..<(x + w) where rng.int(9) > 0 { banner[yy * width + xx] = UInt8(color) }
        }
        x += w + (rng.int(6) == 0 ? 12 : 3)
      }
    }

    var truths: [[UInt8]] = []
    for k in 0..<frames {
      var f = banner
      // Spinner: eight dots, the bright one going round a step every fourth frame.
      let sx = 396.0
      let sy = 84.0
      let tick = k / 4
      for dot in 0..<8 {
        let a = Double(dot) * Double.pi / 4
        let px = sx + 30 * cos(a)
        let py = sy + 30 * sin(a)
        let age = (dot - tick % 8 + 8) % 8
        let shade = UInt8(65 + max(15 - age * 3, 0))
        fillCircle(&f, width, height, px, py, 6.5) { _, _ in shade }
      }
      // Progress bar growing, between the spinner's steps.
      let filled = 40 + 360 * ((k + 2) / 4 * 4 + 1) / frames
      for y in 140..<154 {
        for x in 40..<400 {
          if x < filled {
            let t = Double(y - 140) / 13
            f[y * width + x] = UInt8(81 + Int((1 - t) * 15))
          } else {
            f[y * width + x] = 2
          }
        }
      }
      // A ball bouncing to and fro along the bottom of the banner.
      let phase = Double(k) / Double(frames)
      let ballX = 44 + 392 * (phase < 0.5 ? 2 * phase : 2 - 2 * phase)
      let bounce = abs(sin(Double(k) * Double.pi / 10))
      let ballY = 204 - 40 * bounce
      fillCircle(&f, width, height, ballX, ballY, 15) { dx, dy in
        let light = clamp01(0.75 - 0.5 * (dx + dy) / 15 * 0.7)
        return UInt8(33 + Int(light * 31))
      }
      // A "NEW!" badge that blinks below the banner, on the transparent background.
      if (k / 8) % 2 == 0 {
        for y in 234..<258 {
          for x in 392..<456 {
            let edge = x < 394 || x >= 454 || y < 236 || y >= 256
            f[y * width + x] = edge ? 103 : ((x / 6 + y / 8) % 3 == 0 ? 104 : 101)
          }
        }
      }
      truths.append(f)
    }

    var gif = GIFBuilder(width: width, height: height, globalPalette: palette)
    gif.loop(0)
    let images = FrameOptimizer(width: width, height: height, transparent: 0).optimize(truths)
    for image in images {
      gif.control(delayCS: 6, disposal: image.disposal, transparent: 0)
      gif.image(
        x: image.x, y: image.y, width: image.width, height: image.height, indices: image.indices,
        minimumCodeSize: 7)
    }
    gif.trailer()
    return gif.bytes
  }

  static func fillCircle(
    _ f: inout [UInt8], _ width: Int, _ height: Int, _ cx: Double, _ cy: Double, _ r: Double,
    _ color: (Double, Double) -> UInt8
  ) {
    let y0 = max(Int(cy - r), 0)
    let y1 = min(Int(cy + r) + 1, height)
    let x0 = max(Int(cx - r), 0)
    let x1 = min(Int(cx + r) + 1, width)
    for y in y0..<y1 {
      for x in x0..<x1 {
        let dx = Double(x) + 0.5 - cx
        let dy = Double(y) + 0.5 - cy
        if dx * dx + dy * dy <= r * r { f[y * width + x] = color(dx, dy) }
      }
    }
  }

  // MARK: - page-2000x2000: a two-colour text page, code size 2

  static func page() -> [UInt8] {
    let width = 2000
    let height = 2000
    var rng = SplitMix64(seed: 0x5EED_0006)
    // 70 glyphs on a 7×11 grid (x-height rows 4…9, ascenders from 0, descenders to 10),
    // drawn with strokes two pixels wide at scale 2.
    let gw = 7
    let gh = 11
    let scale = 2
    var glyphs: [[Bool]] = []
    for g in 0..<70 {
      var bits = [Bool](repeating: false, count: gw * gh)
      let top = g % 5 == 0 ? 0 : 4
      let bottom = g % 9 == 0 ? 10 : 8
      func stroke(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
        let n = max(abs(x1 - x0), abs(y1 - y0), 1)
        for i in 0...n {
          let x = x0 + (x1 - x0) * i / n
          let y = y0 + (y1 - y0) * i / n
          bits[y * gw + x] = true
        }
      }
      stroke(g % 3 == 0 ? 0 : 1, top, g % 3 == 0 ? 0 : 1, bottom)  // a stem
      for _ in 0..<(2 + rng.int(3)) {
        let x0 = rng.int(gw - 1)
        let x1 = rng.int(gw - 1)
        let y0 = 4 + rng.int(5)
        let y1 = 4 + rng.int(5)
        stroke(x0, y0, x1, y1)
      }
      glyphs.append(bits)
    }
    // White page (index 0), black ink (1).
    var indices = [UInt8](repeating: 0, count: width * height)
    let margin = 140
    let lineHeight = 34
    var y = margin
    var x = margin + 60  // indent
    var wordsLeftInParagraph = 40 + rng.int(80)
    func blit(_ glyph: Int, _ x: Int, _ y: Int) {
      for gy in 0..<gh {
        for gx in 0..<gw where glyphs[glyph][gy * gw + gx] {
          for sy in 0..<scale {
            for sx in 0..<scale { indices[(y + gy * scale + sy) * width + x + gx * scale + sx] = 1 }
          }
        }
      }
    }
    let advance = (gw + 1) * scale
    while y + gh * scale < height - margin {
      let letters = 1 + rng.int(9)
      if x + letters * advance > width - margin {
        x = margin
        y += lineHeight
        continue
      }
      for _ in 0..<letters {
        blit(rng.int(glyphs.count), x, y)
        x += advance
      }
      x += advance
      wordsLeftInParagraph -= 1
      if wordsLeftInParagraph == 0 {
        wordsLeftInParagraph = 40 + rng.int(80)
        x = margin + 60
        y += lineHeight * 2
      }
    }
    // Page number.
    blit(7, width / 2 - advance, height - margin / 2)
    var gif = GIFBuilder(width: width, height: height, globalPalette: [255, 255, 255, 0, 0, 0])
    gif.image(width: width, height: height, indices: indices, minimumCodeSize: 2)
    gif.trailer()
    return gif.bytes
  }
}
