import GIFDecoder
import GIFTestSupport
import Testing

/// DESIGN §2: loop count (none → 1 play, 0 → forever, N → N+1, the last loop extension
/// before the last image counts) and delays (0 or 1 cs play as 100 ms unless exact,
/// where 0 plays as 10 ms). A Graphic Control applies to the next image only.
@Suite("Loop count, delays and Graphic Control")
struct TimingTests {
  static let palette = Picture.palette("RG")

  /// Two 1×1 images, with what `before` writes before the first, `between` before the
  /// second and `after` after it; checks both APIs report the same loop count.
  static func twoImages(
    before: (inout GIFBuilder) -> Void = { _ in }, between: (inout GIFBuilder) -> Void = { _ in },
    after: (inout GIFBuilder) -> Void = { _ in }
  ) throws -> GIFDocument {
    var gif = GIFBuilder(width: 1, height: 1, globalPalette: palette)
    before(&gif)
    gif.image(width: 1, height: 1, indices: [0])
    between(&gif)
    gif.image(width: 1, height: 1, indices: [1])
    after(&gif)
    gif.trailer()
    var decoder = GIFDecoder(bytes: gif.bytes)
    while !isEnd(try decoder.next()) {}
    let document = try GIFDocument.decode(gif.bytes)
    #expect(decoder.loopCount == document.loopCount, "GIFDecoder and GIFDocument agree")
    #expect(document.warnings.isEmpty, "have warnings \(document.warnings)")
    return document
  }

  static func isEnd(_ event: DecoderEvent) -> Bool {
    if case .end = event { return true }
    return false
  }

  @Test func withoutALoopExtensionTheAnimationPlaysOnce() throws {
    let doc = try Self.twoImages()
    #expect(
      doc.loopCount == nil && doc.plays == 1,
      "have \(String(describing: doc.loopCount)) \(String(describing: doc.plays))")
  }

  @Test func storedLoopCountZeroPlaysForever() throws {
    let doc = try Self.twoImages(before: { $0.loop(0) })
    #expect(doc.loopCount == 0, "have loop count \(String(describing: doc.loopCount)), want 0")
    #expect(doc.plays == nil, "have plays \(String(describing: doc.plays)), want nil (forever)")
  }

  @Test(arguments: [1, 3, 65535])
  func storedLoopCountNPlaysNPlusOneTimes(stored: Int) throws {
    let doc = try Self.twoImages(before: { $0.loop(stored) })
    #expect(doc.loopCount == stored, "have loop count \(String(describing: doc.loopCount)), want \(stored)")
    #expect(doc.plays == stored + 1, "have plays \(String(describing: doc.plays)), want \(stored + 1)")
  }

  @Test func animExtsLoopExtensionCountsLikeNetscape() throws {
    let doc = try Self.twoImages(before: { $0.loop(2, id: "ANIMEXTS1.0") })
    #expect(
      doc.loopCount == 2 && doc.plays == 3, "have \(String(describing: doc.loopCount)) \(String(describing: doc.plays))"
    )
  }

  @Test func theLastLoopExtensionBeforeTheLastImageCounts() throws {
    let doc = try Self.twoImages(before: { $0.loop(1) }, between: { $0.loop(2) }, after: { $0.loop(3) })
    #expect(doc.loopCount == 2, "have loop count \(String(describing: doc.loopCount)), want 2")
    #expect(doc.plays == 3)
    let twoBefore = try Self.twoImages(before: {
      $0.loop(4)
      $0.loop(0, id: "ANIMEXTS1.0")
    })
    #expect(twoBefore.loopCount == 0, "have \(String(describing: twoBefore.loopCount)), want 0")
  }

  @Test func aLoopExtensionAfterTheLastImageDoesNotCount() throws {
    let doc = try Self.twoImages(after: { $0.loop(5) })
    #expect(doc.loopCount == nil && doc.plays == 1, "have \(String(describing: doc.loopCount))")
  }

  @Test func netscapeBufferingSubBlockIsNotALoopCount() throws {
    let doc = try Self.twoImages(before: { gif in
      gif.raw([0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [5, 2, 0x10, 0, 0, 0, 0])  // sub-block id 2
    })
    #expect(doc.loopCount == nil, "have \(String(describing: doc.loopCount)), want nil")
  }

  @Test func playsFromAStoredLoopCount() {
    #expect(GIFDocument.plays(loopCount: nil) == 1)
    #expect(GIFDocument.plays(loopCount: 0) == nil)
    #expect(GIFDocument.plays(loopCount: 1) == 2)
    #expect(GIFDocument.plays(loopCount: 9) == 10)
  }

  @Test(arguments: [
    (stored: 0, browser: 100, exact: 10),
    (stored: 1, browser: 100, exact: 10),
    (stored: 2, browser: 20, exact: 20),
    (stored: 10, browser: 100, exact: 100),
    (stored: 65535, browser: 655_350, exact: 655_350),
  ])
  func storedDelayPlaysLikeBrowsersUnlessExact(stored: Int, browser: Int, exact: Int) throws {
    let doc = try Self.twoImages(before: { $0.control(delayCS: stored) })
    let frame = doc.frames[0]
    #expect(frame.delayCS == stored, "have delay \(frame.delayCS) cs, want \(stored)")
    #expect(frame.delayMS() == browser, "have \(frame.delayMS()) ms, want \(browser)")
    #expect(frame.delayMS(exact: true) == exact, "have exact \(frame.delayMS(exact: true)) ms, want \(exact)")
  }

  @Test func graphicControlAppliesToTheNextImageOnly() throws {
    var gif = GIFBuilder(width: 2, height: 1, globalPalette: Self.palette)
    gif.control(delayCS: 50, disposal: 2, transparent: 1)
    gif.image(width: 2, height: 1, indices: [0, 1])
    gif.image(x: 1, y: 0, width: 1, height: 1, indices: [1])  // no GCE: opaque, kept
    gif.image(x: 0, y: 0, width: 1, height: 1, indices: [0])
    gif.trailer()
    let rendered = try render(gif)
    #expect(rendered.frames.map(\.delayCS) == [50, 0, 0])
    #expect(rendered.frames.map(\.disposal) == [2, 0, 0])
    #expect(rendered.frames.map(\.transparentIndex) == [1, nil, nil])
    expectPictures(rendered, ["R.", ".G", "RG"])
  }

  @Test func withSeveralGraphicControlsBeforeAnImageTheLastOneCounts() throws {
    let doc = try Self.twoImages(before: { gif in
      gif.control(delayCS: 5, disposal: 2, transparent: 0)
      gif.control(delayCS: 7, disposal: 1)
    })
    #expect(doc.frames[0].delayCS == 7 && doc.frames[0].disposal == 1 && doc.frames[0].transparentIndex == nil)
  }

  @Test func graphicControlOfTheWrongSizeIsIgnoredWithAWarning() throws {
    var gif = GIFBuilder(width: 1, height: 1, globalPalette: Self.palette)
    let gce = gif.count
    gif.raw([0x21, 0xF9, 3, 0b0000_1001, 5, 0, 0])  // 3 bytes where 4 belong
    gif.image(width: 1, height: 1, indices: [1])
    gif.trailer()
    let rendered = try render(gif)
    #expect(rendered.frames[0].delayCS == 0 && rendered.frames[0].transparentIndex == nil)
    expectPictures(rendered, ["G"])
    expectWarnings(rendered, [GIFWarning(.badGraphicControl, frame: 0, offset: gce + 7)])
  }
}
