import GIFDecoder
import GIFTestSupport
import Testing

/// DESIGN §2: a transparent-index pixel leaves the canvas unchanged; an index beyond the
/// colour table, or any index when no colour table exists, is opaque black; a local
/// table applies to its image only.
@Suite("Transparency and colour tables")
struct PaletteTests {
  @Test func transparentIndexLeavesTheCanvasUnchanged() throws {
    var gif = GIFBuilder(width: 3, height: 2, globalPalette: Picture.palette("RGBW"))
    gif.control(transparent: 3)
    gif.image(width: 3, height: 2, indices: [0, 3, 0, 3, 3, 3])  // on the empty canvas: stays transparent
    gif.control(transparent: 0)
    gif.image(width: 3, height: 2, indices: [1, 0, 0, 2, 0, 3])  // index 3 is opaque again
    gif.trailer()
    let rendered = try render(gif)
    #expect(rendered.frames.map(\.transparentIndex) == [3, 0])
    expectPictures(rendered, ["R.R ...", "G.R B.W"])
  }

  @Test func transparentIndexBeyondTheTableLeavesEveryColourOpaque() throws {
    // pygif invalid-transparent: 4 colours, transparent index 255.
    var gif = GIFBuilder(width: 2, height: 2, globalPalette: Picture.palette("RGBW"))
    gif.control(transparent: 255)
    gif.image(width: 2, height: 2, indices: [0, 1, 2, 3])
    gif.trailer()
    let rendered = try render(gif)
    #expect(rendered.frames[0].transparentIndex == 255)
    expectPictures(rendered, ["RG BW"])
    expectWarnings(rendered, [])
  }

  @Test func transparentIndexWithItsFlagClearIsNotTransparent() throws {
    var gif = GIFBuilder(width: 2, height: 1, globalPalette: Picture.palette("RG"))
    gif.raw([0x21, 0xF9, 4, 0b0000_1000, 0, 0, 1, 0])  // disposal 2, transparent index 1, flag clear
    gif.image(width: 2, height: 1, indices: [0, 1])
    gif.trailer()
    let rendered = try render(gif)
    #expect(rendered.frames[0].transparentIndex == nil)
    #expect(rendered.frames[0].disposal == 2)
    expectPictures(rendered, ["RG"])
  }

  @Test func indexBeyondTheColourTableIsOpaqueBlack() throws {
    var gif = GIFBuilder(width: 5, height: 1, globalPalette: Picture.palette("RG"))
    gif.image(width: 5, height: 1, indices: [0, 1, 2, 3, 255])
    gif.trailer()
    let rendered = try render(gif)
    expectPictures(rendered, ["RGKKK"])
    expectWarnings(rendered, [])
  }

  @Test func anyIndexIsOpaqueBlackWhenThereIsNoColourTable() throws {
    var gif = GIFBuilder(width: 4, height: 1)
    gif.image(width: 4, height: 1, indices: [0, 1, 7, 255])
    gif.trailer()
    let rendered = try render(gif)
    #expect(rendered.document.screen.globalPalette == nil)
    #expect(rendered.frames[0].palette == nil && !rendered.frames[0].hasLocalPalette)
    expectPictures(rendered, ["KKKK"])
  }

  @Test func localTableAppliesToItsImageOnlyAndTheGlobalOneToTheOthers() throws {
    var gif = GIFBuilder(width: 4, height: 1, globalPalette: Picture.palette("RGBW"))
    gif.image(width: 4, height: 1, indices: [0, 1, 2, 3])
    gif.image(width: 3, height: 1, indices: [0, 1, 2], localPalette: Picture.palette("YC"))  // 2 is beyond it
    gif.image(x: 3, y: 0, width: 1, height: 1, indices: [0])
    gif.image(x: 1, y: 0, width: 1, height: 1, indices: [1], localPalette: Picture.palette("MRBW"))
    gif.trailer()
    let rendered = try render(gif)
    #expect(rendered.frames.map(\.hasLocalPalette) == [false, true, false, true])
    #expect(rendered.frames[1].palette == Palette(rgb: Picture.palette("YC")))
    #expect(rendered.frames[2].palette == Palette(rgb: Picture.palette("RGBW")))
    expectPictures(rendered, ["RGBW", "YCKW", "YCKR", "YRKR"])
  }

  @Test func localTableWithoutAGlobalOne() throws {
    var gif = GIFBuilder(width: 2, height: 1)
    gif.image(width: 1, height: 1, indices: [1], localPalette: Picture.palette("RG"))
    gif.image(x: 1, y: 0, width: 1, height: 1, indices: [1])
    gif.trailer()
    expectPictures(try render(gif), ["G.", "GK"])
  }

  @Test func globalTableIsPaddedToAPowerOfTwoWithBlack() throws {
    // Three colours are stored as a 4-entry table; entry 3 is the black padding.
    var gif = GIFBuilder(width: 4, height: 1, globalPalette: Picture.palette("RGB"))
    gif.image(width: 4, height: 1, indices: [2, 1, 0, 3])
    gif.trailer()
    let rendered = try render(gif)
    #expect(rendered.document.screen.globalPalette?.count == 4)
    expectPictures(rendered, ["BGRK"])
  }
}
