import GIFTestSupport

/// Many small frames: what the frame cache's bookkeeping is measured on (per-frame work
/// must not grow with the frame count). Frame k is a diagonal band that moves by k.
enum ManyFrames {
  static func make(count: Int, width: Int, height: Int) -> [UInt8] {
    var b = GIFBuilder(
      width: width, height: height, globalPalette: [0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 0, 255])
    b.loop(0)
    for k in 0..<count {
      b.control(delayCS: 2)
      var indices = [UInt8](repeating: 0, count: width * height)
      for y in 0..<height {
        for x in 0..<width { indices[y * width + x] = UInt8((x + y + k) / 4 % 4) }
      }
      b.image(width: width, height: height, indices: indices, minimumCodeSize: 2)
    }
    b.trailer()
    return b.bytes
  }
}
