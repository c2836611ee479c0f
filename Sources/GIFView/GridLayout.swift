/// The geometry of a scrolling grid of tiles (gifview's `--grid`), as plain numbers:
/// where each tile is for a scroll offset, which tiles are in view, how far the grid
/// scrolls, and how a selection moves. No X: a host lays out its views with it, and its
/// tests need no server.
///
/// Tiles are `tileWidth`×`tileHeight` pictures with a `labelHeight` name row below each,
/// in rows that fill the viewport's width (the spare width is spread between the
/// columns); tiles never shrink, so many sources make the grid taller, not the tiles
/// smaller. Offsets are the viewport's top in content coordinates (0 = top).
public struct GridLayout: Equatable, Sendable {
  /// The picture's size in each tile.
  public var tileWidth: Int
  /// The picture's size in each tile.
  public var tileHeight: Int
  /// The name row under each picture.
  public var labelHeight: Int
  /// The least space between tiles and around them.
  public var gap: Int
  /// The area tiles are shown in (the window less its scroll bar).
  public var viewportWidth: Int
  /// The area tiles are shown in.
  public var viewportHeight: Int
  /// How many tiles there are.
  public var count: Int

  /// A layout of `count` tiles of `tileWidth`×`tileHeight` in a viewport.
  public init(
    tileWidth: Int, tileHeight: Int, labelHeight: Int = 18, gap: Int = 8, viewportWidth: Int, viewportHeight: Int,
    count: Int
  ) {
    self.tileWidth = max(1, tileWidth)
    self.tileHeight = max(1, tileHeight)
    self.labelHeight = max(0, labelHeight)
    self.gap = max(0, gap)
    self.viewportWidth = max(1, viewportWidth)
    self.viewportHeight = max(1, viewportHeight)
    self.count = max(0, count)
  }

  /// Tiles per row: as many as fit with a gap around each, at least one.
  public var columns: Int { max(1, (viewportWidth - gap) / (tileWidth + gap)) }
  /// Rows needed for every tile.
  public var rows: Int { (count + columns - 1) / columns }
  /// The vertical distance from one row to the next.
  public var rowPitch: Int { tileHeight + labelHeight + gap }
  /// The height of all rows with the gaps above the first and below the last.
  public var contentHeight: Int { gap + rows * rowPitch }
  /// The largest scroll offset (0 when everything fits).
  public var maxOffset: Int { max(0, contentHeight - viewportHeight) }

  /// `offset` kept within 0...maxOffset.
  public func clamp(_ offset: Int) -> Int { min(max(offset, 0), maxOffset) }

  /// The left edge of column `c`: the spare width is shared equally by the gaps.
  func columnX(_ c: Int) -> Int {
    let n = columns
    let spare = max(0, viewportWidth - n * tileWidth)
    // n + 1 gaps (before, between and after the columns) share the spare width.
    return spare * (c + 1) / (n + 1) + c * tileWidth
  }

  /// Tile `index`'s picture in viewport coordinates at scroll `offset`.
  public func pictureRect(_ index: Int, offset: Int) -> Tile {
    let r = index / columns
    let c = index % columns
    let x = columnX(c)
    let y = gap + r * rowPitch - offset
    return Tile(x0: x, y0: y, x1: x + tileWidth, y1: y + tileHeight)
  }

  /// Tile `index`'s name row, under its picture, in viewport coordinates.
  public func labelRect(_ index: Int, offset: Int) -> Tile {
    let p = pictureRect(index, offset: offset)
    return Tile(x0: p.x0, y0: p.y1, x1: p.x1, y1: p.y1 + labelHeight)
  }

  /// The rows any part of which is in view at `offset`.
  public func visibleRows(offset: Int) -> Range<Int> {
    guard count > 0 else { return 0..<0 }
    // Row r spans gap + r·pitch ..< gap + r·pitch + tile + label.
    let top = offset - gap - tileHeight - labelHeight
    let first = max(0, top < 0 ? 0 : top / rowPitch + 1)
    let bottom = offset + viewportHeight - gap  // rows starting before this are in view
    let last = bottom <= 0 ? 0 : min(rows, (bottom - 1) / rowPitch + 1)
    return first..<max(first, last)
  }

  /// The tiles any part of which is in view at `offset`.
  public func visibleRange(offset: Int) -> Range<Int> { indices(of: visibleRows(offset: offset)) }

  /// The tiles that load and play at `offset`: those in view and one row ahead (below).
  public func liveRange(offset: Int) -> Range<Int> {
    let v = visibleRows(offset: offset)
    return indices(of: v.lowerBound..<min(rows, v.upperBound + 1))
  }

  private func indices(of rows: Range<Int>) -> Range<Int> {
    let lo = min(count, rows.lowerBound * columns)
    return lo..<max(lo, min(count, rows.upperBound * columns))
  }

  /// One page: the whole rows that fit in the viewport (at least one row).
  public var pageStep: Int { max(1, viewportHeight / rowPitch) * rowPitch }

  /// The offset nearest `offset` that shows tile `index` whole (its picture and name).
  public func offset(revealing index: Int, from offset: Int) -> Int {
    guard count > 0 else { return 0 }
    let top = gap + (min(max(index, 0), count - 1) / columns) * rowPitch
    let bottom = top + tileHeight + labelHeight + gap
    var o = offset
    if bottom - o > viewportHeight { o = bottom - viewportHeight }
    if top - gap < o { o = top - gap }
    return clamp(o)
  }

  /// The tile under viewport point (x, y) at `offset`, nil between tiles.
  public func index(atX x: Int, y: Int, offset: Int) -> Int? {
    let cy = y + offset - gap
    guard cy >= 0, x >= 0 else { return nil }
    let r = cy / rowPitch
    guard cy - r * rowPitch < tileHeight + labelHeight else { return nil }
    for c in 0..<columns where x >= columnX(c) && x < columnX(c) + tileWidth {
      let i = r * columns + c
      return i < count ? i : nil
    }
    return nil
  }

  /// A move of the selection.
  public enum Move: Sendable {
    case left, right, up, down, pageUp, pageDown, first, last
  }

  /// The selection after `move` from `index` (clamped to the tiles; up and down keep the
  /// column where the row has one).
  public func moved(_ index: Int, _ move: Move) -> Int {
    guard count > 0 else { return 0 }
    let pageRows = max(1, viewportHeight / rowPitch)
    let i: Int
    switch move {
    case .left: i = index - 1
    case .right: i = index + 1
    case .up: i = index >= columns ? index - columns : index
    case .down: i = index + columns < count ? index + columns : (index / columns < rows - 1 ? count - 1 : index)
    case .pageUp: i = index - min(index / columns, pageRows) * columns
    case .pageDown:
      let downRows = min(rows - 1 - index / columns, pageRows)
      i = min(count - 1, index + downRows * columns)
    case .first: i = 0
    case .last: i = count - 1
    }
    return min(max(i, 0), count - 1)
  }

  /// The scroll bar's thumb in a track `trackHeight` high: its top and height (at least
  /// `minThumb` pixels); the whole track when everything fits.
  public func thumb(offset: Int, trackHeight: Int, minThumb: Int = 24) -> (y: Int, height: Int) {
    guard maxOffset > 0 else { return (0, trackHeight) }
    let h = min(trackHeight, max(minThumb, trackHeight * viewportHeight / contentHeight))
    let y = (trackHeight - h) * clamp(offset) / maxOffset
    return (y, h)
  }

  /// The offset that puts the thumb's top at `thumbY` in a track `trackHeight` high.
  public func offset(thumbY: Int, trackHeight: Int, minThumb: Int = 24) -> Int {
    let h = thumb(offset: 0, trackHeight: trackHeight, minThumb: minThumb).height
    guard trackHeight > h else { return 0 }
    return clamp(thumbY * maxOffset / (trackHeight - h))
  }
}

/// Which tiles of a grid load now: at most `limit` loads at once, the rest wait in order
/// (the lowest index first), and a tile that leaves the live range gives up its place.
/// Plain bookkeeping: the host starts and stops the playbacks it names.
public struct LoadQueue: Equatable, Sendable {
  /// The most loads that run at once.
  public let limit: Int
  /// Tiles whose load runs now.
  public private(set) var running: Set<Int> = []
  /// Tiles waiting for a place, in order.
  public private(set) var waiting: [Int] = []

  /// A queue running at most `limit` loads.
  public init(limit: Int = 6) { self.limit = max(1, limit) }

  /// Asks for tile `index` to load (no effect when it runs or waits already).
  public mutating func request(_ index: Int) {
    guard !running.contains(index), !waiting.contains(index) else { return }
    let at = waiting.firstIndex { $0 > index } ?? waiting.endIndex
    waiting.insert(index, at: at)
  }

  /// Tile `index` finished loading (or failed, or was stopped): its place is free.
  public mutating func finished(_ index: Int) {
    running.remove(index)
    waiting.removeAll { $0 == index }
  }

  /// Forgets every tile outside `live`; answers those that were running (to stop).
  public mutating func keep(only live: Range<Int>) -> [Int] {
    let gone = running.filter { !live.contains($0) }.sorted()
    for i in gone { running.remove(i) }
    waiting.removeAll { !live.contains($0) }
    return gone
  }

  /// Moves waiting tiles into free places; answers the ones to start now, in order.
  public mutating func startable() -> [Int] {
    var out: [Int] = []
    while running.count < limit, !waiting.isEmpty {
      let i = waiting.removeFirst()
      running.insert(i)
      out.append(i)
    }
    return out
  }
}
