import GIFDecoder
import GIFTestSupport
import Testing

/// DESIGN §2 limits: canvas ≤ 2^28 pixels and input ≤ 1 GiB by default, each checked
/// before anything is allocated from sizes read in the file.
@Suite("Limits")
struct LimitsTests {
  static let small = Limits(maxCanvasPixels: 100, maxInputBytes: 1 << 20)

  static func screen(_ width: Int, _ height: Int) -> [UInt8] {
    var gif = GIFBuilder(width: width, height: height, globalPalette: Picture.palette("RG"))
    gif.image(width: 1, height: 1, indices: [1])
    gif.trailer()
    return gif.bytes
  }

  @Test func defaultsAreTwoToThe28PixelsAndOneGiB() {
    #expect(Limits.default.maxCanvasPixels == 1 << 28)
    #expect(Limits.default.maxInputBytes == 1 << 30)
  }

  @Test func canvasAtTheLimitDecodes() throws {
    let rendered = try Rendered.decode(Self.screen(10, 10), limits: Self.small)
    #expect(rendered.canvases.count == 1 && rendered.canvases[0].count == 100)
  }

  @Test(arguments: [(11, 10), (10, 11), (101, 1), (65535, 65535)])
  func canvasOverTheLimitIsAnError(width: Int, height: Int) {
    #expect(throws: GIFError(.canvasTooLarge(width: width, height: height, limit: 100), offset: 6)) {
      try GIFDocument.decode(Self.screen(width, height), limits: Self.small)
    }
  }

  @Test func defaultLimitAllowsSixteenThousandSquaredButNotOneRowMore() throws {
    // Decoding (not rendering) allocates nothing canvas-sized, so the first passes cheaply.
    var gif = GIFBuilder(width: 16_384, height: 16_384)
    gif.trailer()
    // The screen passes the limit check: what stops it is that it holds no image.
    #expect(throws: GIFError(.noImage, offset: gif.count)) { try GIFDocument.decode(gif.bytes) }
    var over = GIFBuilder(width: 16_384, height: 16_385)
    over.trailer()
    #expect(throws: GIFError(.canvasTooLarge(width: 16_384, height: 16_385, limit: 1 << 28), offset: 6)) {
      try GIFDocument.decode(over.bytes)
    }
  }

  @Test func hugeCanvasIsRefusedAsSoonAsTheScreenDescriptorArrives() throws {
    // 13 bytes fed, no finish(): the refusal cannot have come after any allocation.
    var decoder = GIFDecoder()
    decoder.feed(Array(Self.screen(65535, 65535).prefix(13)))
    #expect(throws: GIFError(.canvasTooLarge(width: 65535, height: 65535, limit: 1 << 28), offset: 6)) {
      try decoder.next()
    }
  }

  @Test func imageOverTheLimitIsAnError() throws {
    var gif = GIFBuilder(width: 10, height: 10, globalPalette: Picture.palette("RG"))
    let image = gif.count
    gif.image(width: 11, height: 10, indices: fill(1, 110))
    gif.trailer()
    #expect(throws: GIFError(.frameTooLarge(width: 11, height: 10, limit: 100), offset: image)) {
      try GIFDocument.decode(gif.bytes, limits: Self.small)
    }
  }

  @Test func imageLargerThanTheScreenButWithinTheLimitIsClipped() throws {
    var gif = GIFBuilder(width: 5, height: 2, globalPalette: Picture.palette("RG"))
    gif.image(width: 10, height: 10, indices: fill(1, 100))
    gif.trailer()
    expectPictures(try Rendered.decode(gif.bytes, limits: Self.small), ["GGGGG GGGGG"])
  }

  @Test func inputAtTheByteLimitDecodesAndOneByteMoreIsAnError() throws {
    let bytes = Self.screen(2, 2)
    let exact = Limits(maxCanvasPixels: 100, maxInputBytes: bytes.count)
    #expect(try GIFDocument.decode(bytes, limits: exact).frames.count == 1)
    let under = Limits(maxCanvasPixels: 100, maxInputBytes: bytes.count - 1)
    #expect(throws: GIFError(.inputTooLarge(limit: bytes.count - 1), offset: bytes.count - 1)) {
      try GIFDocument.decode(bytes, limits: under)
    }
  }

  @Test func feedingPastTheByteLimitIsAnErrorAtTheNextCall() throws {
    let bytes = Self.screen(2, 2)
    var decoder = GIFDecoder(limits: Limits(maxCanvasPixels: 100, maxInputBytes: 20))
    decoder.feed(bytes.prefix(20))
    while true {
      if case .needMoreData = try decoder.next() { break }
    }
    decoder.feed(bytes[20...])
    #expect(throws: GIFError(.inputTooLarge(limit: 20), offset: 20)) { try decoder.next() }
  }
}
