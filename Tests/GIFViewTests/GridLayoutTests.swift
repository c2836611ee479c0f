import GIFView
import Testing

/// The grid's geometry and load queue as plain numbers: no X server.
@Suite("Grid layout and load queue")
struct GridLayoutTests {
  /// 320×240 tiles with 18-pixel names and 8-pixel gaps in a 1000×600 viewport: three
  /// columns (3·320 + 4·8 = 992 ≤ 1000), rows 266 pixels apart.
  let layout = GridLayout(
    tileWidth: 320, tileHeight: 240, labelHeight: 18, gap: 8, viewportWidth: 1000, viewportHeight: 600, count: 100)

  @Test func tilesKeepTheirSizeInRowsThatFillTheWidth() {
    #expect(layout.columns == 3)
    #expect(layout.rows == 34)
    #expect(layout.rowPitch == 266)
    // The spare 40 pixels go to the four gaps: 10 each.
    #expect(layout.pictureRect(0, offset: 0) == Tile(x0: 10, y0: 8, x1: 330, y1: 248))
    #expect(layout.pictureRect(1, offset: 0) == Tile(x0: 340, y0: 8, x1: 660, y1: 248))
    #expect(layout.pictureRect(2, offset: 0) == Tile(x0: 670, y0: 8, x1: 990, y1: 248))
    #expect(layout.pictureRect(3, offset: 100) == Tile(x0: 10, y0: 174, x1: 330, y1: 414))
    #expect(layout.labelRect(3, offset: 100) == Tile(x0: 10, y0: 414, x1: 330, y1: 432))
    // Many tiles never shrink them: the grid grows instead.
    let many = GridLayout(tileWidth: 320, tileHeight: 240, viewportWidth: 1000, viewportHeight: 600, count: 10_000)
    #expect(many.pictureRect(9_999, offset: 0).width == 320 && many.pictureRect(9_999, offset: 0).height == 240)
    #expect(many.contentHeight == 8 + 3334 * 266)
    // A viewport narrower than one tile still has one column, at full size.
    let narrow = GridLayout(tileWidth: 320, tileHeight: 240, viewportWidth: 100, viewportHeight: 100, count: 3)
    #expect(narrow.columns == 1 && narrow.pictureRect(2, offset: 0).width == 320)
  }

  @Test func visibleTilesAndOneRowAhead() {
    // Rows 0–2 reach into 0..<600 (row 2 starts at 540); row 3 is the one ahead.
    #expect(layout.visibleRows(offset: 0) == 0..<3)
    #expect(layout.visibleRange(offset: 0) == 0..<9)
    #expect(layout.liveRange(offset: 0) == 0..<12)
    // Scrolled so that row 0's name (ends at 266) is just out of view.
    #expect(layout.visibleRows(offset: 266) == 1..<4)
    #expect(layout.visibleRows(offset: 265) == 0..<4)
    // The last row has one tile (index 99); nothing past the end.
    let end = layout.maxOffset
    #expect(layout.liveRange(offset: end).upperBound == 100)
    #expect(layout.visibleRange(offset: end).contains(99))
    #expect(
      GridLayout(tileWidth: 10, tileHeight: 10, viewportWidth: 50, viewportHeight: 50, count: 0).liveRange(
        offset: 0) == 0..<0)
  }

  @Test func scrollingIsClampedAndPagesAreWholeRows() {
    #expect(layout.maxOffset == 8 + 34 * 266 - 600)
    #expect(layout.clamp(-5) == 0)
    #expect(layout.clamp(1_000_000) == layout.maxOffset)
    #expect(layout.pageStep == 2 * 266)
    // Everything fits: no scrolling at all.
    let few = GridLayout(tileWidth: 320, tileHeight: 240, viewportWidth: 1000, viewportHeight: 600, count: 3)
    #expect(few.maxOffset == 0 && few.clamp(50) == 0)
  }

  @Test func revealingATileScrollsAsLittleAsPossible() {
    // Tile 9 is in row 3 (top 806, bottom with its name and a gap 1072).
    #expect(layout.offset(revealing: 9, from: 0) == 1072 - 600)
    #expect(layout.offset(revealing: 0, from: 500) == 0)
    // Already in view: no move.
    #expect(layout.offset(revealing: 4, from: 100) == 100)
  }

  @Test func theSelectionMovesByColumnRowAndPage() {
    #expect(layout.moved(0, .left) == 0)
    #expect(layout.moved(0, .right) == 1)
    #expect(layout.moved(1, .down) == 4)
    #expect(layout.moved(4, .up) == 1)
    #expect(layout.moved(1, .up) == 1)
    // From row 32 down to the short last row: the last tile.
    #expect(layout.moved(98, .down) == 99)
    #expect(layout.moved(99, .down) == 99)
    #expect(layout.moved(4, .pageDown) == 10)
    #expect(layout.moved(10, .pageUp) == 4)
    #expect(layout.moved(1, .pageUp) == 1)
    #expect(layout.moved(50, .first) == 0)
    #expect(layout.moved(5, .last) == 99)
  }

  @Test func hitTestingAndTheScrollBar() {
    #expect(layout.index(atX: 15, y: 10, offset: 0) == 0)
    #expect(layout.index(atX: 345, y: 260, offset: 0) == 1)  // on its name
    #expect(layout.index(atX: 5, y: 10, offset: 0) == nil)  // the gap
    #expect(layout.index(atX: 15, y: 270, offset: 0) == nil)  // between rows
    #expect(layout.index(atX: 15, y: 10, offset: 266) == 3)
    let top = layout.thumb(offset: 0, trackHeight: 600)
    let bottom = layout.thumb(offset: layout.maxOffset, trackHeight: 600)
    #expect(top.y == 0 && top.height == max(24, 600 * 600 / layout.contentHeight))
    #expect(bottom.y + bottom.height == 600)
    #expect(layout.offset(thumbY: 0, trackHeight: 600) == 0)
    #expect(layout.offset(thumbY: 600 - top.height, trackHeight: 600) == layout.maxOffset)
    #expect(layout.offset(thumbY: 10_000, trackHeight: 600) == layout.maxOffset)
  }

  @Test func atMostSixLoadsRunAndTheRestWaitInOrder() {
    var q = LoadQueue(limit: 6)
    for i in [5, 3, 9, 0, 1, 2, 4, 8, 7, 6] { q.request(i) }
    #expect(q.startable() == [0, 1, 2, 3, 4, 5])
    #expect(q.startable().isEmpty)
    q.finished(2)
    #expect(q.startable() == [6])
    // Scrolled away from 0...4 and 7: those running stop, those waiting are forgotten.
    #expect(q.keep(only: 5..<7) == [0, 1, 3, 4])
    #expect(q.running == [5, 6] && q.waiting.isEmpty)
    q.request(5)
    #expect(q.running == [5, 6] && q.waiting.isEmpty, "a running tile is not queued twice")
  }
}
