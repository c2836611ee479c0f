import GIFDecoder
import GIFTestSupport
import Testing

/// DESIGN §2: before image n, image n−1's disposal is applied: 2 clears its clipped
/// rectangle to transparent; 3 and 4 restore the canvas as it was before image n−1;
/// 0, 1, 5–7 keep it. Pictures: see `Picture` (R G B W opaque, `.` transparent).
@Suite("Disposal")
struct DisposalTests {
  /// Indices 0 R, 1 G, 2 B, 3 W.
  static let palette = Picture.palette("RGBW")

  /// A red 3×2 canvas, then a green pixel at (1, 0) with `disposal`, then a blue pixel at (2, 1).
  static func greenThenBlue(disposal: Int) -> GIFBuilder {
    var gif = GIFBuilder(width: 3, height: 2, globalPalette: palette)
    gif.image(width: 3, height: 2, indices: fill(0, 6))
    gif.control(disposal: disposal)
    gif.image(x: 1, y: 0, width: 1, height: 1, indices: [1])
    gif.image(x: 2, y: 1, width: 1, height: 1, indices: [2])
    gif.trailer()
    return gif
  }

  @Test(arguments: [0, 1, 5, 6, 7])
  func disposalsOtherThanTwoToFourKeepTheCanvas(disposal: Int) throws {
    let rendered = try render(Self.greenThenBlue(disposal: disposal))
    #expect(rendered.frames.map(\.disposal) == [0, disposal, 0])
    expectPictures(rendered, ["RRR RRR", "RGR RRR", "RGR RRB"])
    expectWarnings(rendered, [])
  }

  @Test func disposal2ClearsThePreviousImageRectangleToTransparent() throws {
    expectPictures(try render(Self.greenThenBlue(disposal: 2)), ["RRR RRR", "RGR RRR", "R.R RRB"])
  }

  @Test(arguments: [3, 4])
  func disposal3And4RestoreTheCanvasFromBeforeThePreviousImage(disposal: Int) throws {
    let rendered = try render(Self.greenThenBlue(disposal: disposal))
    #expect(rendered.frames[1].disposal == disposal, "the stored value is reported as is")
    expectPictures(rendered, ["RRR RRR", "RGR RRR", "RRR RRB"])
  }

  @Test(arguments: [3, 4])
  func disposal3OnTheFirstImageRestoresTheTransparentCanvas(disposal: Int) throws {
    var gif = GIFBuilder(width: 3, height: 2, globalPalette: Self.palette)
    gif.control(disposal: disposal)
    gif.image(width: 2, height: 1, indices: [1, 1])
    gif.image(x: 2, y: 1, width: 1, height: 1, indices: [2])
    gif.trailer()
    expectPictures(try render(gif), ["GG. ...", "... ..B"])
  }

  @Test func disposal2ClearsOnlyTheClippedRectangle() throws {
    var gif = GIFBuilder(width: 3, height: 2, globalPalette: Self.palette)
    gif.image(width: 3, height: 2, indices: fill(0, 6))
    gif.control(disposal: 2)
    gif.image(x: 1, y: 1, width: 4, height: 4, indices: fill(3, 16))  // reaches past the screen
    gif.image(width: 1, height: 1, indices: [2])
    gif.trailer()
    expectPictures(try render(gif), ["RRR RRR", "RRR RWW", "BRR R.."])
  }

  @Test func disposal3RestoresOnlyTheClippedRectangle() throws {
    var gif = GIFBuilder(width: 3, height: 2, globalPalette: Self.palette)
    gif.image(width: 3, height: 2, indices: fill(0, 6))
    gif.control(disposal: 3)
    gif.image(x: 1, y: 1, width: 4, height: 4, indices: fill(1, 16))
    gif.image(width: 1, height: 1, indices: [2])
    gif.trailer()
    expectPictures(try render(gif), ["RRR RRR", "RRR RGG", "BRR RRR"])
  }

  @Test func disposal2ClearsTheWholeRectangleIncludingTransparentPixels() throws {
    var gif = GIFBuilder(width: 3, height: 2, globalPalette: Self.palette)
    gif.image(width: 3, height: 2, indices: fill(0, 6))
    gif.control(disposal: 2, transparent: 3)
    gif.image(width: 3, height: 1, indices: [1, 3, 1])
    gif.image(x: 2, y: 1, width: 1, height: 1, indices: [2])
    gif.trailer()
    expectPictures(try render(gif), ["RRR RRR", "GRG RRR", "... RRB"])
  }

  @Test func consecutiveRestoringImagesEachRestoreTheCanvasFromBeforeThemselves() throws {
    var gif = GIFBuilder(width: 3, height: 2, globalPalette: Self.palette)
    gif.image(width: 3, height: 2, indices: fill(0, 6))
    gif.control(disposal: 3)
    gif.image(x: 0, y: 0, width: 1, height: 1, indices: [1])
    gif.control(disposal: 3)
    gif.image(x: 1, y: 0, width: 1, height: 1, indices: [2])
    gif.image(x: 2, y: 0, width: 1, height: 1, indices: [3])
    gif.trailer()
    expectPictures(try render(gif), ["RRR RRR", "GRR RRR", "RBR RRR", "RRW RRR"])
  }

  @Test func restoreAfterAClearRestoresTheClearedCanvas() throws {
    var gif = GIFBuilder(width: 3, height: 2, globalPalette: Self.palette)
    gif.image(width: 3, height: 2, indices: fill(0, 6))
    gif.control(disposal: 2)
    gif.image(x: 0, y: 0, width: 1, height: 1, indices: [1])
    gif.control(disposal: 3)
    gif.image(x: 0, y: 0, width: 2, height: 1, indices: [2, 2])
    gif.image(x: 2, y: 1, width: 1, height: 1, indices: [3])
    gif.trailer()
    expectPictures(try render(gif), ["RRR RRR", "GRR RRR", "BBR RRR", ".RR RRW"])
  }

  @Test func disposalOfAnImageEntirelyOffTheScreenChangesNothing() throws {
    var gif = GIFBuilder(width: 3, height: 2, globalPalette: Self.palette)
    gif.image(width: 3, height: 2, indices: fill(0, 6))
    gif.control(disposal: 2)
    gif.image(x: 3, y: 0, width: 2, height: 2, indices: fill(1, 4))
    gif.image(x: 2, y: 1, width: 1, height: 1, indices: [2])
    gif.trailer()
    expectPictures(try render(gif), ["RRR RRR", "RRR RRR", "RRR RRB"])
  }

  @Test func theLastImagesDisposalDoesNotChangeItsOwnCanvas() throws {
    var gif = GIFBuilder(width: 2, height: 1, globalPalette: Self.palette)
    gif.control(disposal: 2)
    gif.image(width: 2, height: 1, indices: [0, 1])
    gif.trailer()
    expectPictures(try render(gif), ["RG"])
  }
}

/// DESIGN §2: the canvas is the logical screen, transparent at the start (the background
/// colour index is ignored); images are clipped to the screen.
@Suite("Canvas and clipping")
struct CanvasTests {
  @Test func canvasStartsTransparentAndIgnoresTheBackgroundColour() throws {
    var gif = GIFBuilder(width: 3, height: 2, globalPalette: Picture.palette("RGBW"), background: 1)
    gif.image(x: 1, y: 1, width: 1, height: 1, indices: [2])
    gif.trailer()
    expectPictures(try render(gif), ["... .B."])
  }

  @Test func imagesAreClippedToTheScreenWithTheirIndicesInPlace() throws {
    var gif = GIFBuilder(width: 3, height: 2, globalPalette: Picture.palette("RGBW"))
    // 3×3 at (1, 0): frame columns 0–1 and rows 0–1 are on the screen.
    gif.image(x: 1, y: 0, width: 3, height: 3, indices: [0, 1, 2, 3, 0, 1, 2, 3, 0])
    gif.trailer()
    let rendered = try render(gif)
    let frame = try #require(rendered.frames.first)
    #expect([frame.x, frame.y, frame.width, frame.height] == [1, 0, 3, 3], "the stored rectangle is reported")
    expectPictures(rendered, [".RG .WR"])
  }

  @Test func imagesEntirelyOffTheScreenDrawNothing() throws {
    var gif = GIFBuilder(width: 2, height: 2, globalPalette: Picture.palette("RG"))
    gif.image(width: 1, height: 1, indices: [0])
    gif.image(x: 0, y: 2, width: 2, height: 2, indices: fill(1, 4))
    gif.image(x: 65535, y: 65535, width: 2, height: 2, indices: fill(1, 4))
    gif.trailer()
    expectPictures(try render(gif), ["R. ..", "R. ..", "R. .."])
  }

  @Test func bgraCanvasesHoldTheSamePixelsWithRedAndBlueSwapped() throws {
    var gif = GIFBuilder(width: 3, height: 1, globalPalette: [10, 20, 30, 40, 50, 60])
    gif.control(transparent: 1)
    gif.image(width: 3, height: 1, indices: [0, 1, 2])
    gif.trailer()
    let doc = try GIFDocument.decode(gif.bytes)
    var have: [String: [UInt32]] = [:]
    for (name, format) in [("rgba", PixelFormat.rgba), ("bgra", .bgra)] {
      doc.renderAll(format: format) { _, canvas in have[name] = Array(canvas) }
    }
    #expect(have["rgba"] == [0xFF1E_140A, 0, 0xFF00_0000], "have \(have["rgba"] ?? [])")
    #expect(have["bgra"] == [0xFF0A_141E, 0, 0xFF00_0000], "have \(have["bgra"] ?? [])")
  }
}
