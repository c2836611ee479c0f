import GIFDecoder
import GIFTestSupport
import Testing

/// Interlaced images store their rows in four passes: every 8th row from 0, every 8th
/// from 4, every 4th from 2, every 2nd from 1. The stream orders below are written out
/// by hand, not taken from GIFBuilder.
@Suite("Interlace")
struct InterlaceTests {
  /// Row r is drawn in colour r: R G B W Y C M K.
  static let palette = Picture.palette("RGBWYCMK")
  static let colours = Array("RGBWYCMK")

  /// An interlaced `width`×`rows.count` image whose stream holds `rows` in that order,
  /// each row filled with its own row number.
  static func interlaced(
    width: Int, height: Int, streamRows: [Int], screenHeight: Int? = nil, y: Int = 0
  ) -> GIFBuilder {
    var gif = GIFBuilder(width: width, height: screenHeight ?? height, globalPalette: palette)
    let stream = streamRows.flatMap { fill(UInt8($0), width) }
    gif.image(
      y: y, width: width, height: height, indices: [], interlaced: true, minimumCodeSize: 3,
      lzwData: GIFBuilder.lzw(stream, minimumCodeSize: 3))
    gif.trailer()
    return gif
  }

  static func rows(_ rows: [Int], width: Int) -> String {
    rows.map { String(repeating: colours[$0], count: width) }.joined(separator: " ")
  }

  @Test(arguments: [
    (height: 1, stream: [0]),
    (height: 2, stream: [0, 1]),
    (height: 5, stream: [0, 4, 2, 1, 3]),
    (height: 8, stream: [0, 4, 2, 6, 1, 3, 5, 7]),
  ])
  func rowsOfEachPassLandInTheirRows(height: Int, stream: [Int]) throws {
    let rendered = try render(Self.interlaced(width: 2, height: height, streamRows: stream))
    #expect(rendered.frames[0].interlaced)
    expectPictures(rendered, [Self.rows(Array(0..<height), width: 2)])
    expectWarnings(rendered, [])
  }

  @Test func seventeenRowsUseEveryPass() throws {
    let stream = [0, 8, 16, 4, 12, 2, 6, 10, 14, 1, 3, 5, 7, 9, 11, 13, 15]
    var gif = GIFBuilder(width: 1, height: 17, globalPalette: Self.palette)
    // Row r gets colour r mod 8.
    gif.image(
      width: 1, height: 17, indices: [], interlaced: true, minimumCodeSize: 3,
      lzwData: GIFBuilder.lzw(stream.map { UInt8($0 % 8) }, minimumCodeSize: 3))
    gif.trailer()
    expectPictures(try render(gif), [Self.rows((0..<17).map { $0 % 8 }, width: 1)])
  }

  @Test func builderWritesRowsInTheSameFourPassOrder() {
    let rowMajor = (0..<17).map { UInt8($0) }
    #expect(
      GIFBuilder.interlace(rowMajor, width: 1, height: 17)
        == [0, 8, 16, 4, 12, 2, 6, 10, 14, 1, 3, 5, 7, 9, 11, 13, 15])
    #expect(GIFBuilder.interlace([0, 1, 2, 3, 4], width: 1, height: 5) == [0, 4, 2, 1, 3])
    #expect(GIFBuilder.interlace([9, 9], width: 2, height: 1) == [9, 9])
  }

  @Test func interlacedImageAtAnOffsetIsPlacedRelativeToItsTop() throws {
    // Height 3: passes give rows 0, then 2, then 1.
    let rendered = try render(Self.interlaced(width: 1, height: 3, streamRows: [0, 2, 1], screenHeight: 6, y: 2))
    expectPictures(rendered, [". . R G B ."])
  }

  @Test func interlacedRowsBelowTheScreenAreClipped() throws {
    let rendered = try render(
      Self.interlaced(width: 1, height: 8, streamRows: [0, 4, 2, 6, 1, 3, 5, 7], screenHeight: 4))
    expectPictures(rendered, ["R G B W"])
  }

  @Test func cutShortInterlacedImageDrawsOnlyTheRowsThatArrived() throws {
    var gif = GIFBuilder(width: 1, height: 8, globalPalette: Self.palette)
    gif.image(width: 1, height: 8, indices: fill(3, 8), minimumCodeSize: 3)  // white
    let second = gif.count
    // Only the first three stream rows (0, 4, 2), then the end code.
    gif.image(
      width: 1, height: 8, indices: [], interlaced: true, minimumCodeSize: 3,
      lzwData: GIFBuilder.lzw([0, 4, 2], minimumCodeSize: 3))
    gif.trailer()
    let rendered = try render(gif)
    expectPictures(rendered, ["W W W W W W W W", "R W B W Y W W W"])
    expectWarnings(rendered, [GIFWarning(.notEnoughPixelData, frame: 1, offset: second)])
  }
}
