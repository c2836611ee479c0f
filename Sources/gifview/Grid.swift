import GIFLoader
import GIFPlayback
import GIFView
import X11Window

/// The scrolling, virtualized grid (DESIGN §5 "The grid"): one GIFView per tile in view
/// (and one row ahead), each with its name row below; at most `loadLimit` loads at once,
/// the rest queued in order; tiles that leave the view stop and are freed. The geometry
/// is `GridLayout`'s, the queue `LoadQueue`'s; this class turns them into X windows.
final class GridScreen {
  /// Loads that run at once.
  static let loadLimit = 6
  /// Server memory for frames kept by the tiles in view, shared equally between them.
  static let keptFramesBudgetBytes = 256 << 20
  static let scrollBarWidth = 10
  static let ringWidth = 3
  static let background: UInt32 = 0x1A1B1D
  static let labelBackground: UInt32 = 0x1A1B1D
  static let accent: UInt32 = 0x3D8BFD
  /// Two clicks on one tile within this time open it.
  static let doubleClickNS: UInt64 = 400_000_000

  private unowned let viewer: Viewer
  private(set) var layout: GridLayout
  /// The viewport's top in content coordinates.
  private(set) var offset = 0
  /// The selected tile.
  private(set) var focus = 0
  private var queue = LoadQueue(limit: GridScreen.loadLimit)
  private var tiles: [Int: GridTile] = [:]
  private var ring: ChildWindow?
  private var bar: ChildWindow?
  private var drag: (pointerY: Int, thumbY: Int)?
  private var lastClick: (index: Int, at: UInt64)?
  private(set) var isActive = false

  /// One tile in the live range: its name row, and once its load started, its view.
  final class GridTile {
    let label: ChildWindow
    var view: GIFView?
    var labelDrawn = false
    init(label: ChildWindow) { self.label = label }
  }

  init(viewer: Viewer) {
    self.viewer = viewer
    layout = GridLayout(
      tileWidth: viewer.settings.tile.width, tileHeight: viewer.settings.tile.height, viewportWidth: 1,
      viewportHeight: 1, count: 0)
  }

  /// The selected tile's view, once its load started.
  var focusedView: GIFView? { tiles[focus]?.view }

  /// The views on screen, for the run loop.
  var views: [GIFView] { tiles.keys.sorted().compactMap { tiles[$0]?.view } }

  /// How many tiles can be live at once in this window: the rows in view and one ahead.
  private var liveCapacity: Int {
    (layout.viewportHeight / layout.rowPitch + 3) * layout.columns
  }

  // MARK: - Showing and hiding

  /// Shows the grid in the viewer's window at the scroll offset and selection it had.
  func activate() {
    guard !isActive else { return }
    isActive = true
    let c = viewer.connection!
    let top = viewer.top!
    ring = ChildWindow(connection: c, parent: top.id, x: 0, y: 0, width: 1, height: 1, useSHM: false)
    bar = ChildWindow(
      connection: c, parent: top.id, x: top.width - Self.scrollBarWidth, y: 0, width: Self.scrollBarWidth,
      height: top.height, useSHM: false)
    bar?.map()
    relayout()
  }

  /// Frees every tile (their loads stop) and hides the grid; offset and selection stay.
  func deactivate() {
    guard isActive else { return }
    isActive = false
    for i in Array(tiles.keys) { removeTile(i) }
    needsPrune = false
    _ = queue.keep(only: 0..<0)
    ring?.close()
    bar?.close()
    ring = nil
    bar = nil
    viewer.runLoop.views = []
  }

  /// The window or the number of sources changed: lay the tiles out again.
  func relayout() {
    guard isActive, let top = viewer.top else { return }
    layout.viewportWidth = max(1, top.width - Self.scrollBarWidth)
    layout.viewportHeight = top.height
    layout.count = viewer.sources.count
    focus = min(focus, max(0, layout.count - 1))
    bar?.setFrame(x: top.width - Self.scrollBarWidth, y: 0, width: Self.scrollBarWidth, height: top.height)
    scroll(to: offset, force: true)
  }

  // MARK: - Scrolling and the live range

  /// Scrolls to `newOffset` (clamped): tiles move, those that left the live range stop,
  /// those that entered it are queued.
  func scroll(to newOffset: Int, force: Bool = false) {
    let o = layout.clamp(newOffset)
    guard force || o != offset else { return }
    offset = o
    let live = layout.liveRange(offset: offset)
    // Tiles that stay move first and draw in this turn; those that left are freed after
    // (in `afterUpdate`), so the new picture does not wait for their teardown.
    for (i, t) in tiles where live.contains(i) {
      let p = layout.pictureRect(i, offset: offset)
      t.view?.setFrame(x: p.x0, y: p.y0, width: p.width, height: p.height)
      t.view?.setNeedsDisplay()
      let l = layout.labelRect(i, offset: offset)
      t.label.setFrame(x: l.x0, y: l.y0, width: l.width, height: l.height)
    }
    for (i, t) in tiles where !live.contains(i) {
      // Out of sight at once; freed in `afterUpdate`.
      t.view?.hide()
      t.label.unmap()
    }
    needsPrune = true
    _ = queue.keep(only: live)
    for i in live where tiles[i] == nil {
      let r = layout.labelRect(i, offset: offset)
      let label = ChildWindow(
        connection: viewer.connection, parent: viewer.top.id, x: r.x0, y: r.y0, width: r.width, height: r.height,
        useSHM: false)
      label.map()
      tiles[i] = GridTile(label: label)
      queue.request(i)
    }
    let budget = Self.keptFramesBudgetBytes / max(1, liveCapacity)
    for t in tiles.values { t.view?.keptFramesBudgetBytes = budget }
    placeRing()
    drawBar()
  }

  /// Some tiles may have left the live range since the last turn.
  private var needsPrune = false

  /// Frees the tiles outside the live range.
  private func prune() {
    guard needsPrune else { return }
    needsPrune = false
    let live = layout.liveRange(offset: offset)
    for i in Array(tiles.keys) where !live.contains(i) { removeTile(i) }
    viewer.runLoop.views = views
  }

  /// When each tile that left the view had started playing.
  private var resumeFrom: [Int: UInt64] = [:]

  private func removeTile(_ i: Int) {
    guard let t = tiles.removeValue(forKey: i) else { return }
    queue.finished(i)
    if let v = t.view {
      // Scrolled back, the tile resumes where its timeline says.
      if let start = v.playback.timelineStart { resumeFrom[i] = start }
      v.hide()
      // stdin cannot be read again: its tile keeps loading (and is dropped when done).
      if v.playback.canReload { v.playback.stop() }
      v.playback.onPhaseChange = nil
      v.playback.onWarning = nil
    }
    t.label.close()
  }

  /// Starts queued loads while fewer than `loadLimit` run.
  private func startLoads() {
    var changed = false
    for i in queue.startable() {
      guard let t = tiles[i], i < viewer.sources.count else {
        queue.finished(i)
        continue
      }
      var options = viewer.settings.playback
      options.frameBudgetBytes = max(1 << 20, options.frameBudgetBytes / max(1, liveCapacity))
      let p = viewer.makePlayback(i, options: options)
      p.resumesTimeline = resumeFrom[i]
      let r = layout.pictureRect(i, offset: offset)
      let v = GIFView(
        playback: p, connection: viewer.connection, parent: viewer.top.id, x: r.x0, y: r.y0, width: r.width,
        height: r.height, useSHM: viewer.settings.useSHM)
      v.contentMode = .fit
      v.background = viewer.background
      v.keptFramesBudgetBytes = Self.keptFramesBudgetBytes / max(1, liveCapacity)
      v.show()
      t.view = v
      changed = true
    }
    if changed {
      viewer.runLoop.views = views
      placeRing()
    }
  }

  /// Once a turn: frees the places of finished loads, starts queued ones, keeps scales,
  /// redraws name rows that need it.
  func afterUpdate() {
    guard isActive else { return }
    prune()
    for i in queue.running {
      guard let p = tiles[i]?.view?.playback else { continue }
      if p.isLoadComplete || p.isStopped { queue.finished(i) }
    }
    startLoads()
    for (i, t) in tiles {
      if let v = t.view, v.scale == nil, let size = v.playback.size {
        // Fit into the tile, never enlarged.
        v.scale = min(
          1,
          ContentMode.fit.scale(
            imageWidth: size.width, imageHeight: size.height, windowWidth: layout.tileWidth,
            windowHeight: layout.tileHeight))
      }
      if !t.labelDrawn { drawLabel(i, t) }
    }
  }

  private func drawLabel(_ i: Int, _ t: GridTile) {
    guard i < viewer.sources.count else { return }
    t.labelDrawn = true
    let l = t.label
    let selected = i == focus
    l.draw { out, _, _ in out.update(repeating: selected ? Self.accent : Self.labelBackground) }
    let name = l.fitText([tileName(viewer.sources[i])], maxWidth: l.width - 8, maxLines: 1)
    l.present(text: [TextItem(name, x: l.width / 2, y: l.height / 2, anchor: .center, boxed: false)])
  }

  /// The focus ring: a frame of the accent colour behind the selected tile.
  private func placeRing() {
    guard let ring else { return }
    let p = layout.pictureRect(focus, offset: offset)
    let w = Self.ringWidth
    if layout.count == 0 || !layout.liveRange(offset: offset).contains(focus) {
      ring.unmap()
      return
    }
    ring.setFrame(
      x: p.x0 - w, y: p.y0 - w, width: layout.tileWidth + 2 * w, height: layout.tileHeight + layout.labelHeight + 2 * w)
    ring.draw { out, _, _ in out.update(repeating: Self.accent) }
    ring.present()
    ring.map()
  }

  private func drawBar() {
    guard let bar else { return }
    let t = layout.thumb(offset: offset, trackHeight: bar.height)
    bar.draw { out, w, h in
      for y in 0..<h {
        let inThumb = y >= t.y && y < t.y + t.height
        for x in 0..<w {
          let edge = x == 0
          out[y * w + x] = edge ? 0x101113 : inThumb && x >= 2 && x < w - 2 ? 0x7A7D85 : 0x26282C
        }
      }
    }
    bar.present()
  }

  // MARK: - Input

  /// Moves the selection, scrolling to keep it in view.
  func select(_ index: Int) {
    guard layout.count > 0 else { return }
    let old = focus
    focus = min(max(index, 0), layout.count - 1)
    if old != focus {
      tiles[old]?.labelDrawn = false
      tiles[focus]?.labelDrawn = false
    }
    scroll(to: layout.offset(revealing: focus, from: offset))
    placeRing()
  }

  /// A key's move of the selection; a page also scrolls by a page.
  func move(_ m: GridLayout.Move) {
    switch m {
    case .pageUp, .pageDown:
      let target = layout.moved(focus, m)
      scroll(to: offset + (m == .pageDown ? layout.pageStep : -layout.pageStep))
      select(target)
    default: select(layout.moved(focus, m))
    }
  }

  /// Wheel, clicks, double-clicks and the scroll bar; answers false when not the grid's.
  func handleButton(_ button: Int, x: Int, y: Int, now: UInt64) -> Bool {
    switch button {
    case 4: scroll(to: offset - layout.rowPitch / 2)
    case 5: scroll(to: offset + layout.rowPitch / 2)
    case 1:
      if x >= layout.viewportWidth {
        let t = layout.thumb(offset: offset, trackHeight: viewer.top.height)
        if y >= t.y && y < t.y + t.height {
          drag = (y, t.y)
        } else {
          // A click on the track pages towards it.
          scroll(to: offset + (y < t.y ? -layout.pageStep : layout.pageStep))
        }
        return true
      }
      guard let i = layout.index(atX: x, y: y, offset: offset) else { return true }
      if let last = lastClick, last.index == i, now - last.at < Self.doubleClickNS {
        lastClick = nil
        select(i)
        viewer.openFromGrid(i)
        return true
      }
      lastClick = (i, now)
      select(i)
    default: return false
    }
    return true
  }

  /// A drag of the scroll bar's thumb.
  func handleDrag(y: Int) {
    guard let drag else { return }
    scroll(to: layout.offset(thumbY: drag.thumbY + y - drag.pointerY, trackHeight: viewer.top.height))
  }

  /// The end of a drag.
  func handleRelease() { drag = nil }

  /// Expose of a window of the grid's own (name rows, ring, scroll bar).
  func handleExpose(_ window: XWindowID) {
    if window == bar?.id { drawBar() }
    if window == ring?.id { placeRing() }
    for (_, t) in tiles where t.label.id == window { t.labelDrawn = false }
  }
}

/// A tile's name: the file's name, or the last part of a URL's path.
func tileName(_ source: GIFPlayback.Source) -> String {
  let d = source.displayName
  guard d.contains("://") else { return d }
  var rest = Substring(d)
  if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
  let parts = rest.split(separator: "/")
  // "https:", "host", ...: a URL with no path shows its host.
  return parts.count > 2 ? String(parts.last ?? rest) : String(parts.count > 1 ? parts[1] : rest)
}
