import GIFTestSupport

/// A file as large as a long full-HD screen recording (a 1920x1080x300 one is 257 MB):
/// what memory independent of the file size is measured on. Ten distinct full frames, a
/// gradient that moves, one pixel in five a level up at random (about 3.3 bits a pixel
/// after LZW), repeated in order; 4 cs each, looping.
enum Large {
  static let distinct = 10

  static func make(count: Int, width: Int, height: Int) -> [UInt8] {
    var palette: [UInt8] = []
    for i in 0..<256 { palette += [UInt8(i), UInt8((i * 3) & 255), UInt8(255 - i)] }
    var rng = SplitMix64(seed: 0x5EED_0010)
    var images: [[UInt8]] = []
    var indices = [UInt8](repeating: 0, count: width * height)
    for k in 0..<min(distinct, count) {
      for y in 0..<height {
        for x in 0..<width {
          let base = (x + 2 * y + 37 * k) / 16 % 250
          indices[y * width + x] = UInt8(base + (rng.next() % 5 == 0 ? 1 : 0))
        }
      }
      var one = GIFBuilder(width: width, height: height)
      one.control(delayCS: 4)
      one.image(width: width, height: height, indices: indices)
      images.append(Array(one.bytes.dropFirst(13)))  // the frame's blocks, without the header
    }
    var gif = GIFBuilder(width: width, height: height, globalPalette: palette)
    gif.loop(0)
    for k in 0..<count { gif.raw(images[k % images.count]) }
    gif.trailer()
    return gif.bytes
  }
}
