import GIFDecoder
import GIFTestSupport
import Testing

/// `renderTouched` composites only the area images draw on: the same pixels as
/// `renderAll` there, transparent everywhere else, with memory for that area only.
@Suite("Touched area")
struct TouchedAreaTests {
  /// Every frame of `renderTouched`, put back into a full screen, equals `renderAll`'s.
  static func expectSameAsFullCanvas(_ bytes: [UInt8], _ label: String) throws {
    let doc = try GIFDocument.decode(bytes)
    var full: [[UInt32]] = []
    let fullWarnings = doc.renderAll(format: .rgba) { _, canvas in full.append(Array(canvas)) }
    var frame = 0
    let warnings = doc.renderTouched(format: .rgba) { _, canvas, area in
      var expanded = [UInt32](repeating: 0, count: doc.screen.width * doc.screen.height)
      for y in area.y0..<area.y1 {
        for x in area.x0..<area.x1 {
          expanded[y * doc.screen.width + x] = canvas[(y - area.y0) * area.width + (x - area.x0)]
        }
      }
      #expect(canvas.count == area.width * area.height, "\(label): canvas of \(canvas.count) pixels")
      #expect(expanded == full[frame], "\(label): frame \(frame) differs")
      frame += 1
    }
    #expect(frame == full.count && warnings == fullWarnings, "\(label)")
  }

  @Test func disposalsOffsetsAndClippingMatchTheFullCanvas() throws {
    var b = GIFBuilder(width: 40, height: 30, globalPalette: Picture.palette("RGBWYCMK"))
    b.control(disposal: 1)
    b.image(x: 5, y: 4, width: 6, height: 3, indices: fill(1, 18), minimumCodeSize: 3)
    b.control(disposal: 3, transparent: 0)
    b.image(x: 8, y: 5, width: 10, height: 6, indices: (0..<60).map { UInt8($0 % 5) }, minimumCodeSize: 3)
    b.control(disposal: 2)
    b.image(x: 36, y: 20, width: 10, height: 15, indices: fill(4, 150), minimumCodeSize: 3)  // clipped
    b.image(x: 12, y: 9, width: 4, height: 8, indices: fill(6, 32), interlaced: true, minimumCodeSize: 3)
    b.trailer()
    try Self.expectSameAsFullCanvas(b.bytes, "built")
    let doc = try GIFDocument.decode(b.bytes)
    #expect(doc.touchedArea == Rect(x0: 5, y0: 4, x1: 40, y1: 30))
  }

  @Test func aHugeScreenWithOneSmallImageNeedsACanvasOfThatImage() throws {
    var b = GIFBuilder(width: 16384, height: 16384)
    b.image(x: 100, y: 200, width: 1, height: 1, indices: [1], minimumCodeSize: 2)
    b.trailer()
    let doc = try GIFDocument.decode(b.bytes)
    var sizes: [Int] = []
    doc.renderTouched(format: .rgba) { _, canvas, area in
      sizes.append(canvas.count)
      #expect(area == Rect(x0: 100, y0: 200, x1: 101, y1: 201))
      #expect(canvas[0] == 0xFF00_0000, "index 1 without a colour table is opaque black")
    }
    #expect(sizes == [1])
  }

  @Test func anImageOutsideTheScreenTouchesNothing() throws {
    var b = GIFBuilder(width: 10, height: 10, globalPalette: Picture.palette("RG"))
    b.image(x: 20, y: 0, width: 2, height: 2, indices: fill(1, 4), minimumCodeSize: 2)
    b.trailer()
    try Self.expectSameAsFullCanvas(b.bytes, "outside")
    #expect(try GIFDocument.decode(b.bytes).touchedArea.isEmpty)
  }

  @Test(.enabled(if: Corpus.root != nil, "../shared/corpus not found"))
  func everyCorpusFileMatchesTheFullCanvas() throws {
    for file in Corpus.allGIFs() {
      guard let bytes = Corpus.bytes(file), let doc = try? GIFDocument.decode(bytes) else { continue }
      // Big screens are covered above; keep the comparison quick.
      guard doc.screen.width * doc.screen.height <= 1 << 16 else { continue }
      try Self.expectSameAsFullCanvas(bytes, file)
    }
  }
}
