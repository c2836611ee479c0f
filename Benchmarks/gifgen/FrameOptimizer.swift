/// Turns full frames (palette indices, `transparent` where nothing is shown) into the
/// sub-rectangles a frame-optimising encoder (gifsicle -O2 style) writes: each image covers
/// only what changed, unchanged pixels inside it are the transparent index, and an image
/// whose pixels must vanish in the next frame is disposed with 2 (clear to transparent),
/// every other one with 1 (keep).
struct FrameOptimizer {
  struct Image {
    var x: Int, y: Int, width: Int, height: Int
    var indices: [UInt8]
    var disposal: Int
  }

  let width: Int
  let height: Int
  let transparent: UInt8

  func optimize(_ frames: [[UInt8]]) -> [Image] {
    var canvas = [UInt8](repeating: transparent, count: width * height)
    var images: [Image] = []
    for (k, frame) in frames.enumerated() {
      precondition(frame.count == width * height)
      let next = k + 1 < frames.count ? frames[k + 1] : nil
      var x0 = width
      var y0 = height
      var x1 = 0
      var y1 = 0
      var vanishes = false
      for y in 0..<height {
        for x in 0..<width {
          let p = y * width + x
          let changed = canvas[p] != frame[p]
          // A shown pixel that the next frame hides can only go by disposal 2.
          let vanishing = frame[p] != transparent && next.map { $0[p] == transparent } == true
          precondition(!changed || frame[p] != transparent, "frame \(k) hides a pixel it cannot")
          if changed || vanishing {
            x0 = min(x0, x)
            y0 = min(y0, y)
            x1 = max(x1, x + 1)
            y1 = max(y1, y + 1)
          }
          if vanishing { vanishes = true }
        }
      }
      if x1 <= x0 {
        // Nothing changed: one transparent pixel keeps the frame (and its delay).
        images.append(Image(x: 0, y: 0, width: 1, height: 1, indices: [transparent], disposal: 1))
        continue
      }
      var indices: [UInt8] = []
      indices.reserveCapacity((x1 - x0) * (y1 - y0))
      for y in y0..<y1 {
        for x in x0..<x1 {
          let p = y * width + x
          if canvas[p] == frame[p] {
            indices.append(transparent)
          } else {
            indices.append(frame[p])
            canvas[p] = frame[p]
          }
        }
      }
      let disposal = vanishes ? 2 : 1
      if disposal == 2 {
        for y in y0..<y1 {
          for x in x0..<x1 { canvas[y * width + x] = transparent }
        }
      }
      images.append(
        Image(x: x0, y: y0, width: x1 - x0, height: y1 - y0, indices: indices, disposal: disposal))
    }
    return images
  }
}
