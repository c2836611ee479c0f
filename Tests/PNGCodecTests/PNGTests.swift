import Foundation
import GIFTestSupport
import PNGCodec
import Testing

/// An RGBA image with every kind of pixel: opaque, half and fully transparent, all
/// channel values.
private func sampleImage(_ w: Int, _ h: Int) -> PNG.Image {
  var bytes: [UInt8] = []
  for i in 0..<(w * h) {
    let a: UInt8 = [255, 128, 1, 0][i % 4]
    bytes += [UInt8(i * 7 & 0xff), UInt8(i * 13 & 0xff), UInt8(i * 29 & 0xff), a]
  }
  return PNG.Image(width: w, height: h, rgba: bytes)
}

@Suite("PNG through libpng")
struct PNGTests {
  @Test func encodedPixelsDecodeBackExactlyWithLibpngAndWithoutIt() throws {
    let image = sampleImage(37, 23)
    let png = try PNG.encode(image)
    #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    #expect(try PNG.decode(png) == image)
    let independent = try #require(decodePNGWithPython(png), "python3 could not decode the PNG")
    #expect(independent.width == image.width && independent.height == image.height)
    #expect(independent.rgba == image.rgba)
  }

  @Test func argbCanvasesBecomeStraightRGBAWithTransparentPixelsZeroed() throws {
    // A GIF canvas: 0xAARRGGBB, alpha 0 or 255; a transparent pixel may carry colour bits.
    let canvas: [UInt32] = [0xFF12_3456, 0x00AB_CDEF, 0xFFFF_FFFF, 0xFF00_0000]
    let image = PNG.Image(width: 2, height: 2, argb: canvas)
    #expect(image.rgba == [0x12, 0x34, 0x56, 255, 0, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 255])
    let back = try PNG.decode(try PNG.encode(image))
    #expect(back.argb == [0xFF12_3456, 0, 0xFFFF_FFFF, 0xFF00_0000])
  }

  @Test func theAppIconsDecodeAtTheirSizes() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    for size in [16, 32, 256] {
      let data = try Data(contentsOf: root.appendingPathComponent("Resources/icons/gifview-\(size).png"))
      let image = try PNG.decode([UInt8](data))
      #expect(image.width == size && image.height == size)
      #expect(image.rgba.contains { $0 != 0 }, "the \(size) px icon decoded to nothing")
    }
  }

  @Test func aPNGLargerThanItsPixelsIsStillWrittenWhole() throws {
    // One pixel wide: a filter byte per 4 bytes of noise makes the file a quarter larger
    // than the pixels, more than the first buffer holds.
    var state: UInt32 = 7
    let rgba = (0..<(4 * 20_000)).map { _ -> UInt8 in
      state = state &* 1_664_525 &+ 1_013_904_223
      return UInt8(state >> 24)
    }
    let image = PNG.Image(width: 1, height: 20_000, rgba: rgba)
    let bytes = try PNG.encode(image)
    #expect(bytes.count > rgba.count + rgba.count / 64 + 4096, "only \(bytes.count) bytes")
    #expect(try PNG.decode(bytes) == image)
  }

  @Test func garbageAndEmptyImagesAreErrorsNotCrashes() {
    #expect(throws: PNG.Failure.self) { try PNG.decode(Array("not a png at all".utf8)) }
    #expect(throws: PNG.Failure.self) { try PNG.decode([]) }
    var cut = (try? PNG.encode(sampleImage(8, 8))) ?? []
    cut.removeLast(cut.count / 2)
    #expect(throws: PNG.Failure.self) { try PNG.decode(cut) }
    #expect(throws: PNG.Failure.self) { try PNG.encode(PNG.Image(width: 0, height: 0, rgba: [])) }
  }
}
