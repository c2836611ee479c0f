import GIFDecoder
import GIFTestSupport
import Testing

/// DESIGN §2: GIF87a and GIF89a; comments are collected; unknown extensions and the
/// Plain Text extension are skipped.
@Suite("Versions and extensions")
struct ExtensionTests {
  static let palette = Picture.palette("RGBW")

  @Test func commentsAreCollectedInFileOrderWhereverTheyAre() throws {
    let long = String(repeating: "0123456789", count: 30)  // 300 bytes: two sub-blocks
    var gif = GIFBuilder(width: 1, height: 1, globalPalette: Self.palette)
    gif.comment("made by hand")
    gif.image(width: 1, height: 1, indices: [0])
    gif.comment(long)
    gif.comment("")
    gif.image(width: 1, height: 1, indices: [1])
    gif.comment("après ✓")
    gif.trailer()
    let rendered = try render(gif)
    #expect(rendered.document.comments == ["made by hand", long, "", "après ✓"])
    expectPictures(rendered, ["R", "G"])
    expectWarnings(rendered, [])
  }

  @Test func plainTextUnknownAndUnknownApplicationExtensionsAreSkipped() throws {
    var gif = GIFBuilder(width: 2, height: 1, globalPalette: Self.palette)
    // Plain Text: a 12-byte header block, then the text.
    gif.raw([0x21, 0x01, 12, 0, 0, 0, 0, 2, 0, 1, 0, 8, 8, 1, 0] + GIFBuilder.subBlocks(Array("hi".utf8)) + [0])
    gif.image(width: 2, height: 1, indices: [0, 1])
    gif.raw([0x21, 0x99] + GIFBuilder.subBlocks([0x2C, 0x3B, 0x21]) + [0])  // an unknown label
    gif.raw([0x21, 0x42, 0])  // an unknown label with no data at all
    gif.raw([0x21, 0xFF, 11] + Array("XMP DataXMP".utf8) + GIFBuilder.subBlocks([1, 9, 0]) + [0])
    gif.raw([0x21, 0xFF] + GIFBuilder.subBlocks([UInt8](repeating: 0x3B, count: 70_000)) + [0])
    gif.image(x: 1, y: 0, width: 1, height: 1, indices: [2])
    gif.trailer()
    let rendered = try render(gif)
    expectPictures(rendered, ["RG", "RB"])
    expectWarnings(rendered, [])
    #expect(rendered.document.comments.isEmpty)
    #expect(rendered.document.loopCount == nil, "an application extension not NETSCAPE2.0/ANIMEXTS1.0")
  }

  @Test(arguments: ["87a", "89a"])
  func bothVersionsDecode(version: String) throws {
    var gif = GIFBuilder(width: 2, height: 1, globalPalette: Self.palette, version: version)
    gif.image(width: 2, height: 1, indices: [3, 2])
    gif.trailer()
    let rendered = try render(gif)
    #expect(rendered.document.screen.version == version)
    #expect(rendered.document.screen.width == 2 && rendered.document.screen.height == 1)
    expectPictures(rendered, ["WB"])
  }

  @Test func frameInfoReportsTheDescriptorAsStored() throws {
    var gif = GIFBuilder(width: 8, height: 8, globalPalette: Self.palette)
    gif.image(width: 1, height: 1, indices: [0])
    let second = gif.count
    gif.control(delayCS: 3, disposal: 7, transparent: 2)
    let descriptor = gif.count
    gif.image(
      x: 300, y: 2, width: 2, height: 3, indices: fill(1, 6), localPalette: Picture.palette("RGBWYCMK"),
      interlaced: true, minimumCodeSize: 5)
    gif.trailer()
    let doc = try GIFDocument.decode(gif.bytes)
    let f = doc.frames[1]
    #expect(f.index == 1 && f.offset == descriptor, "have index \(f.index) offset \(f.offset), want 1 \(descriptor)")
    #expect([f.x, f.y, f.width, f.height] == [300, 2, 2, 3])
    #expect(f.delayCS == 3 && f.disposal == 7 && f.transparentIndex == 2)
    #expect(f.interlaced && f.hasLocalPalette && f.palette?.count == 8 && f.lzwMinimumCodeSize == 5)
    #expect(f.dataComplete)
    #expect(second < descriptor)
    #expect(f.compressed == GIFBuilder.lzw(GIFBuilder.interlace(fill(1, 6), width: 2, height: 3), minimumCodeSize: 5))
  }
}
