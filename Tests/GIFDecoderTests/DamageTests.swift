import GIFDecoder
import GIFTestSupport
import Testing

/// DESIGN §2: missing pixel data leaves pixels untouched and extra data is ignored;
/// a damaged file keeps every frame decoded before the damage, a frame cut short is
/// shown as far as it was decoded, and the damage is a warning. Inputs that cannot be
/// shown at all throw.
@Suite("Damaged and invalid input")
struct DamageTests {
  /// 0 R, 1 G, 2 B, 3 W, 4 Y, 5 C, 6 M, 7 K.
  static let palette = Picture.palette("RGBWYCMK")

  /// Eight indices with no pair repeated, at code size 8: every code is a 9-bit literal,
  /// so the first n bytes of the stream hold exactly ⌊8n / 9⌋ − 1 pixels (after the clear
  /// code). White (3) is left out: it is the canvas they are drawn on.
  static let eightLiterals = GIFBuilder.lzw([0, 1, 2, 4, 5, 6, 7, 0], minimumCodeSize: 8)
  static let eightColours = Array("RGBYCMKR")

  /// A white 4×2 image, then (at `second`) a 4×2 image whose LZW data (code size 8) is
  /// `data`, framed in sub-blocks of `blockSizes` (the rest in one more block).
  static func whiteThenColours(data: [UInt8], blockSizes: [Int] = []) -> (gif: GIFBuilder, second: Int) {
    var gif = GIFBuilder(width: 4, height: 2, globalPalette: palette)
    gif.image(width: 4, height: 2, indices: fill(3, 8))
    let second = gif.count
    gif.imageDescriptor(width: 4, height: 2)
    gif.raw([8])
    var rest = data[...]
    for size in blockSizes + [rest.count] where !rest.isEmpty {
      gif.raw([UInt8(min(size, rest.count))] + rest.prefix(size))
      rest = rest.dropFirst(size)
    }
    gif.raw([0])
    return (gif, second)
  }

  // MARK: Pixel data

  @Test func endCodeBeforeTheLastPixelLeavesTheRestUntouchedWithAWarning() throws {
    let data = GIFBuilder.lzw([0, 1, 2], minimumCodeSize: 8)
    var (gif, second) = Self.whiteThenColours(data: data)
    gif.trailer()
    let rendered = try render(gif)
    expectPictures(rendered, ["WWWW WWWW", "RGBW WWWW"])
    expectWarnings(rendered, [GIFWarning(.notEnoughPixelData, frame: 1, offset: second)])
  }

  @Test func dataEndingWithoutAnEndCodeLeavesTheRestUntouchedWithAWarning() throws {
    let data = GIFBuilder.lzw([0, 1, 2, 4, 5], minimumCodeSize: 8, endCode: false)
    var (gif, second) = Self.whiteThenColours(data: data)
    gif.trailer()
    let rendered = try render(gif)
    expectPictures(rendered, ["WWWW WWWW", "RGBY CWWW"])
    expectWarnings(rendered, [GIFWarning(.notEnoughPixelData, frame: 1, offset: second)])
  }

  @Test func imageWithNoPixelDataAtAllDrawsNothingWithAWarning() throws {
    var (gif, second) = Self.whiteThenColours(data: GIFBuilder.lzw([], minimumCodeSize: 8))
    gif.trailer()
    let rendered = try render(gif)
    expectPictures(rendered, ["WWWW WWWW", "WWWW WWWW"])
    expectWarnings(rendered, [GIFWarning(.notEnoughPixelData, frame: 1, offset: second)])
  }

  @Test func extraPixelsAndDataAfterTheEndCodeAreIgnored() throws {
    let tooMany = GIFBuilder.lzw([0, 1, 2, 4, 5, 6, 7, 0, 1, 2, 4], minimumCodeSize: 8)
    var (gif, _) = Self.whiteThenColours(data: tooMany)
    // A third image: 8 pixels and the end code, junk in the same sub-block, a junk sub-block.
    gif.imageDescriptor(width: 4, height: 2)
    let third = GIFBuilder.lzw([7, 6, 5, 4, 2, 1, 0, 7], minimumCodeSize: 8) + [0xDE, 0xAD]
    gif.raw([8] + GIFBuilder.subBlocks(third) + [3, 0xBE, 0xEF, 0xFF] + [0])
    gif.trailer()
    let rendered = try render(gif)
    expectPictures(rendered, ["WWWW WWWW", "RGBY CMKR", "KMCY BGRK"])
    expectWarnings(rendered, [])
  }

  @Test func badCodeKeepsThePixelsBeforeItWithAWarning() throws {
    // Clear and 3 literals (36 bits), then code 300 (bits 36…44) where the next free slot is 260.
    var codes = GIFBuilder.lzw([0, 1, 2], minimumCodeSize: 8, endCode: false)
    #expect(codes.count == 5)
    codes[4] |= UInt8(300 & 0xF) << 4
    codes += [UInt8(300 >> 4), 0]
    var (gif, second) = Self.whiteThenColours(data: codes)
    gif.trailer()
    let rendered = try render(gif)
    expectPictures(rendered, ["WWWW WWWW", "RGBW WWWW"])
    expectWarnings(rendered, [GIFWarning(.badLZWCode, frame: 1, offset: second)])
  }

  @Test func codeSizeAboveElevenEndsTheFileWithAWarning() throws {
    var gif = GIFBuilder(width: 1, height: 1, globalPalette: Self.palette)
    gif.image(width: 1, height: 1, indices: [1])
    let second = gif.count
    gif.image(width: 1, height: 1, indices: [], lzwData: [0])
    var bytes = gif.bytes
    bytes[second + 10] = 12  // the code-size byte
    bytes.append(0x3B)
    let rendered = try Rendered.decode(bytes)
    expectPictures(rendered, ["G"])
    expectWarnings(rendered, [GIFWarning(.badLZWCodeSize(12), frame: 1, offset: second)])
  }

  // MARK: Truncation

  @Test(arguments: [0, 1, 5, 10, 11])
  func fileEndingInsideTheImageDataKeepsThePixelsThatArrived(dataBytes: Int) throws {
    #expect(Self.eightLiterals.count == 12)
    let (gif, second) = Self.whiteThenColours(data: Self.eightLiterals)
    // Cut after the code-size byte, or inside the single sub-block (length byte at second + 11).
    let cut = Array(gif.bytes.prefix(second + 11 + (dataBytes > 0 ? 1 + dataBytes : 0)))
    let rendered = try Rendered.decode(cut)
    let drawn = min(max(8 * dataBytes / 9 - 1, 0), 8)
    let want = Array(Self.eightColours.prefix(drawn)) + Array(repeating: "W", count: 8 - drawn)
    expectPictures(rendered, ["WWWW WWWW", String(want[0..<4]) + " " + String(want[4...])])
    #expect(rendered.frames[1].dataComplete == false)
    expectWarnings(rendered, [GIFWarning(.truncated, frame: 1, offset: second + 11)])
  }

  @Test func fileEndingInALaterSubBlockKeepsTheEarlierBlocksAndWhatArrivedOfIt() throws {
    let (gif, second) = Self.whiteThenColours(data: Self.eightLiterals, blockSizes: [4, 4])
    // Blocks: [4: d0…d3] [4: d4…d7] [4: d8…d11]; the file ends after d5.
    let cut = Array(gif.bytes.prefix(second + 11 + 5 + 3))
    let rendered = try Rendered.decode(cut)
    expectPictures(rendered, ["WWWW WWWW", "RGBY WWWW"])  // 48 bits: clear + 4 literals
    expectWarnings(rendered, [GIFWarning(.truncated, frame: 1, offset: second + 11 + 5)])
  }

  @Test func fileEndingInsideTheHeaderIsAnError() throws {
    var gif = GIFBuilder(width: 1, height: 1, globalPalette: Self.palette)
    gif.image(width: 1, height: 1, indices: [0])
    gif.trailer()
    for length in [4, 6, 12] {
      #expect(throws: GIFError(.truncatedHeader, offset: 0), "cut after \(length) bytes") {
        try GIFDocument.decode(Array(gif.bytes.prefix(length)))
      }
    }
  }

  @Test func fileEndingInsideTheGlobalColourTableHasNoImage() throws {
    // The screen claims a 256-entry table; what follows is a whole 1×1 image and a
    // trailer, but those bytes are the start of the colour table, not blocks.
    var gif = GIFBuilder(width: 1, height: 1)
    gif.image(width: 1, height: 1, indices: [0], minimumCodeSize: 2)
    gif.trailer()
    var bytes = gif.bytes
    bytes[10] = 0x80 | 0x70 | 7
    #expect(throws: GIFError(.noImages, offset: 13)) { try GIFDocument.decode(bytes) }
  }

  @Test func fileEndingRightAfterTheScreenHasNoImage() throws {
    let gif = GIFBuilder(width: 2, height: 2, globalPalette: Self.palette)
    #expect(throws: GIFError(.noImages, offset: gif.count)) { try GIFDocument.decode(gif.bytes) }
  }

  @Test func fileEndingInsideAnExtensionKeepsTheEarlierFrames() throws {
    var gif = GIFBuilder(width: 1, height: 1, globalPalette: Self.palette)
    gif.image(width: 1, height: 1, indices: [1])
    let comment = gif.count
    gif.comment(String(repeating: "x", count: 300))  // sub-blocks of 255 and 45
    let cut = Array(gif.bytes.prefix(comment + 2 + 256 + 10))
    let rendered = try Rendered.decode(cut)
    expectPictures(rendered, ["G"])
    expectWarnings(rendered, [GIFWarning(.truncated, frame: nil, offset: comment + 2 + 256)])
    #expect(rendered.document.comments == [], "a cut-short comment is not collected")
  }

  @Test func fileEndingInsideAnImageDescriptorKeepsTheEarlierFrames() throws {
    var gif = GIFBuilder(width: 1, height: 1, globalPalette: Self.palette)
    gif.image(width: 1, height: 1, indices: [1])
    let second = gif.count
    gif.image(width: 1, height: 1, indices: [2])
    let rendered = try Rendered.decode(Array(gif.bytes.prefix(second + 7)))
    expectPictures(rendered, ["G"])
    expectWarnings(rendered, [GIFWarning(.truncated, frame: 1, offset: second)])
  }

  @Test func fileEndingBetweenFramesKeepsTheEarlierFrames() throws {
    var gif = GIFBuilder(width: 2, height: 1, globalPalette: Self.palette)
    gif.image(width: 2, height: 1, indices: [0, 1])
    gif.control(delayCS: 5)
    gif.image(width: 1, height: 1, indices: [2])
    let end = gif.count
    gif.control(delayCS: 7)  // a Graphic Control for an image that never comes
    let rendered = try Rendered.decode(gif.bytes)
    expectPictures(rendered, ["RG", "BG"])
    #expect(rendered.frames.map(\.delayCS) == [0, 5])
    expectWarnings(rendered, [GIFWarning(.truncated, frame: nil, offset: gif.count)])
    let shorter = try Rendered.decode(Array(gif.bytes.prefix(end)))
    expectPictures(shorter, ["RG", "BG"])
    expectWarnings(shorter, [GIFWarning(.truncated, frame: nil, offset: end)])
  }

  @Test func unexpectedByteBetweenBlocksEndsTheFileWithAWarning() throws {
    var gif = GIFBuilder(width: 1, height: 1, globalPalette: Self.palette)
    gif.image(width: 1, height: 1, indices: [1])
    let stray = gif.count
    gif.raw([0x00])
    gif.image(width: 1, height: 1, indices: [2])
    gif.trailer()
    let rendered = try render(gif)
    expectPictures(rendered, ["G"])
    expectWarnings(rendered, [GIFWarning(.unexpectedByte(0x00), frame: nil, offset: stray)])
  }

  @Test func bytesAfterTheTrailerAreIgnored() throws {
    var gif = GIFBuilder(width: 1, height: 1, globalPalette: Self.palette)
    gif.image(width: 1, height: 1, indices: [1])
    gif.trailer()
    gif.image(width: 1, height: 1, indices: [2])
    gif.raw([0xFF, 0x00, 0x3B])
    let rendered = try render(gif)
    expectPictures(rendered, ["G"])
    expectWarnings(rendered, [])
  }

  // MARK: Not a GIF

  @Test func emptyInputIsAnError() {
    #expect(throws: GIFError(.emptyInput, offset: 0)) { try GIFDocument.decode([]) }
  }

  static let notGIFs: [(bytes: [UInt8], offset: Int)] = [
    (Array("hello, world".utf8), 0),
    ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52], 0),  // PNG
    (Array("GIF9".utf8), 3),
    (Array("GIF7a".utf8), 3),
    (Array("gif89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B], 0),
  ]

  @Test(arguments: notGIFs)
  func inputThatDoesNotStartWithGIF8IsNotAGIF(bytes: [UInt8], offset: Int) {
    #expect(throws: GIFError(.notAGIF, offset: offset)) { try GIFDocument.decode(bytes) }
  }

  @Test func logicalScreenOfZeroWidthOrHeightIsAnError() {
    for (w, h) in [(0, 1), (1, 0), (0, 0)] {
      var gif = GIFBuilder(width: w, height: h)
      gif.trailer()
      #expect(throws: GIFError(.badScreenSize(width: w, height: h), offset: 6)) {
        try GIFDocument.decode(gif.bytes)
      }
    }
  }

  /// Nothing to show is damage (issue 12): an error, not "ok, 0 frames".
  @Test func fileWithNoImageButATrailerIsTheErrorNoImageInFile() throws {
    var gif = GIFBuilder(width: 2, height: 2, globalPalette: Self.palette)
    gif.comment("only a comment")
    gif.trailer()
    #expect(throws: GIFError(.noImage, offset: gif.count)) { try GIFDocument.decode(gif.bytes) }
    #expect(GIFError(.noImage, offset: 0).description == "no image in file")
    // The same from the incremental decoder, fed a byte at a time: the end is the error.
    var decoder = GIFDecoder()
    var rest = gif.bytes[...]
    var thrown: GIFError?
    loop: while true {
      do {
        switch try decoder.next() {
        case .needMoreData:
          if rest.isEmpty { decoder.finish() } else { decoder.feed(rest.prefix(1)) }
          rest = rest.dropFirst()
        case .end: break loop
        default: break
        }
      } catch {
        thrown = error
        break loop
      }
    }
    #expect(thrown == GIFError(.noImage, offset: gif.count))
  }

  @Test func errorsDescribeThemselvesForTheCommandLine() {
    #expect(GIFError(.emptyInput, offset: 0).description == "empty input")
    #expect(GIFError(.notAGIF, offset: 0).description == "not a GIF file")
    #expect(
      GIFWarning(.truncated, frame: 2, offset: 99).description == "truncated input in frame 2 (offset 99)")
    #expect(
      GIFWarning(.unexpectedByte(0xAB), frame: nil, offset: 7).description
        == "unexpected byte 0xAB between blocks at offset 7")
  }
}
