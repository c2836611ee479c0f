import GIFLoader
import GIFPlayback
import GIFView
import Glibc
import X11Window

/// What the window shows, as the command line set it.
struct ViewerSettings {
  var contentMode = ContentMode.fit
  var background = Background.checker
  /// Where `b` toggles to (and from).
  var solidBackground = Background.solid(r: 0, g: 0, b: 0)
  var useSHM = true
  var geometry: (width: Int, height: Int, x: Int?, y: Int?)?
  var fullscreen = false
  var display: String?
  /// Start in the grid of tiles.
  var grid = false
  /// The grid's tile (picture) size.
  var tile = (width: 320, height: 240)
  var playback = GIFPlayback.Options()
}

/// The application's window: one top-level window holding one GIFView (single view,
/// `n`/`p` between sources) or the scrolling grid of tiles (`GridScreen`). It owns the
/// messages on stderr and the exit status; the component below it does neither.
final class Viewer {
  /// The sources; a streamed `--list -` appends to them while the window is open.
  private(set) var sources: [GIFPlayback.Source]
  let settings: ViewerSettings
  let wakeUp: WakeUpSignal
  private(set) var active = 0
  /// The single view's playback, made when its source is shown.
  private var playbacks: [Int: GIFPlayback] = [:]
  /// Sources whose last load failed with nothing to show: the exit status is 1.
  private var failed: Set<Int> = []
  /// Sources that arrive while the window is open (`--list -` from a pipe).
  private let incoming: IncomingSources?
  /// The grid, while it is shown or was (it keeps its scroll offset and selection).
  private var grid: GridScreen?
  /// The single view was opened from the grid: Escape goes back there.
  private var openedFromGrid = false

  var connection: X11Connection!
  var top: TopLevelWindow!
  var runLoop: GIFViewRunLoop!
  var views: [GIFView] = []

  var contentMode: ContentMode
  var background: Background
  var showInfo = false
  var showHelp = false
  /// `s` or Ctrl+c was pressed while the shown frame's pixels were not at hand: each runs
  /// when they come.
  var waitingForPixels: Set<FrameUse> = []
  /// The CLIPBOARD's PNG being encoded (nil: none).
  var copyJob: EncodeJob?
  /// The CLIPBOARD, owned with the frame copied last.
  var clipboard: SelectionOwner!
  /// Ctrl+v's request for the CLIPBOARD's contents.
  var pasteRequest: SelectionRequestor!
  /// Files and URLs dropped on the window (XDND).
  var dropTarget: XdndTarget!
  /// A message shown in the window until `until` (a paste that found nothing to open).
  var notice: (text: String, until: UInt64)?
  /// The server time of the Ctrl+c that asked for a copy (0: none known).
  var copyTime: UInt = 0
  /// A left-button press in progress: a drag pans, a press without moving is a click.
  private struct Drag {
    var startX: Int
    var startY: Int
    var startPan: (x: Int, y: Int)
    var moved: Bool
  }
  private var drag: Drag?
  var sizedForImage = false
  /// The next fit to the image keeps the window's centre (after `n`/`p`).
  var keepsCentre = false
  var quit = false

  init(
    sources: [GIFPlayback.Source], settings: ViewerSettings, wakeUp: WakeUpSignal = WakeUpSignal(),
    incoming: IncomingSources? = nil
  ) {
    precondition(!sources.isEmpty || incoming != nil)
    self.sources = sources
    self.wakeUp = wakeUp
    self.settings = settings
    self.incoming = incoming
    self.contentMode = settings.contentMode
    self.background = settings.background
    self.isGrid = settings.grid
  }

  /// The grid is on screen (else the single view).
  private(set) var isGrid: Bool

  var title: String {
    if isGrid { return sources.count == 1 ? "1 GIF — gifview" : "\(sources.count) GIFs — gifview" }
    guard sources.indices.contains(active) else { return "gifview" }
    return "\(sources[active].displayName)\(position) — gifview"
  }

  /// " (2/4)" with several sources, else nothing.
  var position: String {
    sources.count > 1 && sources.indices.contains(active) ? " (\(active + 1)/\(sources.count))" : ""
  }

  /// Opens the window, plays, and returns the exit status when the window closes:
  /// 0, or 1 when a source failed.
  func run() -> Int32 {
    do {
      connection = try X11Connection(name: settings.display)
    } catch {
      writeStderrLine("gifview: error: \(error.description)")
      return 1
    }
    quietXlibIOErrors()
    top = TopLevelWindow(connection: connection, options: initialWindowOptions())
    runLoop = GIFViewRunLoop(connection: connection, wakeUp: wakeUp)
    makeClipboardAndDropTarget()
    // Sources shown later (`n`) are loaded then; a local file that cannot be opened is
    // reported now, so the exit status and the message do not depend on visiting it.
    for (i, s) in sources.enumerated() where !isGrid && i != active {
      guard let source = s.loaderSource, let reason = unopenableReason(source) else { continue }
      failed.insert(i)
      writeStderrLine("gifview: error: \(s.description): \(reason)")
    }
    presizeFromLocalHeader()
    if isGrid {
      grid = GridScreen(viewer: self)
      grid?.activate()
    } else {
      makeViews()
    }
    top.map()
    var status: Int32 = 0
    do {
      try runLoop.run({ window, event in handle(event, for: window) }, afterUpdate: afterUpdate)
    } catch {
      writeStderrLine("gifview: error: \(error.description)")
      status = 1
    }
    for p in playbacks.values { p.stop() }
    incoming?.stop()
    // Views and windows go before the connection: after a lost server they still free
    // their client-side memory (Xlib drops the requests), which XCloseDisplay would not.
    grid?.deactivate()
    views.removeAll()
    runLoop.views = []
    top.close()
    connection.close()
    return status == 0 && !failed.isEmpty ? 1 : status
  }

  // MARK: - Playbacks and views

  /// The single view's playback of source `i`, made (and started) on first use.
  func playback(_ i: Int) -> GIFPlayback {
    if let p = playbacks[i] { return p }
    let p = makePlayback(i, options: settings.playback)
    playbacks[i] = p
    return p
  }

  /// A playback of source `i` (it starts loading) whose messages and failures this
  /// viewer reports.
  func makePlayback(_ i: Int, options: GIFPlayback.Options) -> GIFPlayback {
    let p = GIFPlayback(source: sources[i], options: options, wakeUp: wakeUp)
    p.onPhaseChange = { [unowned self] phase in phaseChanged(i, phase) }
    let name = sources[i].description  // not `p`: the playback must not keep itself alive
    p.onWarning = { w in writeStderrLine("gifview: warning: \(name): \(w)") }
    return p
  }

  private func phaseChanged(_ i: Int, _ phase: GIFPlayback.Phase) {
    switch phase {
    case .failed(let error):
      failed.insert(i)
      var message = error.message
      // A pipe of names instead of a picture: say how to read them.
      if sources[i] == .standardInput, error.kind == .notAGIF { message += " (for a list of sources, use --list -)" }
      writeStderrLine("gifview: error: \(sources[i].description): \(message)")
      // A window sized for a tiny image is too small for the card: make it readable.
      // (The size asked for counts: the server may not have reported it yet.)
      let size = top.requestedSize ?? (top.width, top.height)
      if !isGrid, settings.geometry == nil, !settings.fullscreen, size.width < 320 || size.height < 240 {
        top.resize(width: max(size.width, 320), height: max(size.height, 240))
      }
    case .playing: failed.remove(i)
    case .loading: break
    }
  }

  private func makeViews() {
    guard sources.indices.contains(active) else { return }
    let v = GIFView(
      playback: playback(active), connection: connection, parent: top.id, x: 0, y: 0, width: top.width,
      height: top.height, useSHM: settings.useSHM)
    v.contentMode = contentMode
    v.background = background
    v.failureHint = openedFromGrid ? "r: retry   Escape: back" : "r: retry   q: quit"
    views = [v]
    runLoop.views = views
    layoutViews()
    v.show()
  }

  /// The single view fills the window; the grid lays out its tiles.
  func layoutViews() {
    if isGrid { return grid?.relayout() ?? () }
    views.first?.setFrame(x: 0, y: 0, width: top.width, height: top.height)
  }

  /// Runs after the views drew, once a turn: takes sources that arrived, sizes the
  /// window to the image once it is known, runs the grid's queue, keeps the overlay current.
  private func afterUpdate() -> UInt64? {
    if !waitingForPixels.isEmpty, frameView?.playback.displayedImage != nil {
      if waitingForPixels.contains(.save) { saveShownFrame() }
      if waitingForPixels.contains(.copy) { copyShownFrame() }
    }
    takeEncodedCopy()
    takePastesAndDrops()
    if let more = incoming?.take(), !more.isEmpty {
      let wasEmpty = sources.isEmpty
      sources += more
      top.setTitle(title)
      if isGrid {
        grid?.relayout()
      } else if wasEmpty {
        makeViews()
      }
    }
    // The icon once the first frame (or the spinner, or the failure card) is on screen:
    // decoding its PNGs never delays the first frame.
    if !top.hasIcons && firstPaintDone { top.setIcons(appIcons()) }
    if !isGrid {
      fitWindowToImage()
    } else {
      grid?.afterUpdate()
      views = grid?.views ?? []
    }
    var overlayChanged = false
    for v in views {
      var overlay: [TextItem] = []
      if showInfo && !isGrid && v.playback.phase == .playing { overlay.append(TextItem(infoLines(v), x: 8, y: 8)) }
      if showHelp && v === views.first {
        let (w, h) = isGrid ? (top.width, top.height) : (v.frame.width, v.frame.height)
        overlay.append(TextItem(helpLines(height: h), x: w / 2, y: h / 2, anchor: .center))
      }
      if let notice, v === views.first, !isGrid {
        overlay.append(
          TextItem(
            notice.text.split(separator: "\n").map(String.init), x: v.frame.width / 2, y: v.frame.height / 2,
            anchor: .center))
      }
      if overlay.map(\.lines) != v.overlay.map(\.lines) {
        v.overlay = overlay
        overlayChanged = true
      }
    }
    // A changed overlay is drawn in the next turn, at once.
    return overlayChanged ? runLoop.nowNS : clipboardDeadline
  }

  // MARK: - Events

  private func handle(_ event: WindowEvent, for window: XWindowID) -> Bool {
    guard window == top.id else {
      if event == .expose { grid?.handleExpose(window) }
      return true
    }
    switch event {
    case .configured(let w, let h):
      if top.noteConfigured(width: w, height: h) { layoutViews() }
    case .closeRequested: quit = true
    case .key(let key, let modifiers):
      if let c = command(for: key, modifiers: modifiers, inGrid: isGrid, fromGrid: openedFromGrid) { perform(c) }
    case .button(let b, let x, let y, _):
      if isGrid, let grid, grid.handleButton(b, x: x, y: y, now: monotonicNS()) { break }
      switch b {
      case 1: drag = Drag(startX: x, startY: y, startPan: views.first?.panOffset ?? (0, 0), moved: false)
      case 4: zoom(at: x, y) { min($0 * 1.25, 32) }
      case 5: zoom(at: x, y) { max($0 / 1.25, 1.0 / 32) }
      default: break
      }
    case .dragged(let x, let y):
      if isGrid {
        grid?.handleDrag(y: y)
        break
      }
      guard var d = drag, let v = views.first else { break }
      // A click that wobbles a pixel or two is still a click.
      if abs(x - d.startX) > 3 || abs(y - d.startY) > 3 { d.moved = true }
      if d.moved { v.panOffset = (d.startPan.x + x - d.startX, d.startPan.y + y - d.startY) }
      drag = d
    case .buttonReleased(let b, _, _):
      grid?.handleRelease()
      if b == 1, drag?.moved == false, !isGrid { perform(.togglePlay) }
      if b == 1 { drag = nil }
    case .expose, .mapped: break
    }
    return !quit
  }

  func perform(_ command: Command) {
    let shown = views.map(\.playback)
    defer { for v in views { v.setNeedsDisplay() } }
    switch command {
    case .togglePlay: for p in shown { p.togglePause() }
    case .step(let d): for p in shown { p.step(by: d) }
    case .first: for p in shown { p.seek(to: 0) }
    case .last: for p in shown { p.seek(to: p.frameCount - 1) }
    case .faster: for p in shown { p.speed *= 1.25 }
    case .slower: for p in shown { p.speed /= 1.25 }
    case .normalSpeed: for p in shown { p.speed = 1 }
    case .zoomIn: zoom { min($0 * 1.25, 32) }
    case .zoomOut: zoom { max($0 / 1.25, 1.0 / 32) }
    case .actualSize:
      zoom { _ in 1 }
      views.first?.panOffset = (0, 0)
    case .pan(let dx, let dy):
      guard !isGrid, let v = views.first else { break }
      // The image moves the other way: `l` shows more of its right side.
      let p = v.panOffset
      v.panOffset = (p.x - dx * max(v.frame.width / 8, 1), p.y - dy * max(v.frame.height / 8, 1))
    case .fit:
      contentMode = .fit
      for v in views where !isGrid {
        v.scale = nil
        v.contentMode = .fit
        v.panOffset = (0, 0)
      }
    case .toggleFullscreen: top.setFullscreen(!top.isFullscreen)
    case .toggleInfo: showInfo.toggle()
    case .toggleHelp: showHelp.toggle()
    case .toggleBackground:
      background = background == .checker ? settings.solidBackground : .checker
      for v in views { v.background = background }
    case .reload: for p in shown where p.canReload { p.reload() }
    case .saveFrame: saveShownFrame()
    case .copyFrame:
      copyTime = connection.lastInputTime
      copyShownFrame()
    case .paste: requestPaste()
    case .nextSource, .previousSource: switchSource(by: command == .nextSource ? 1 : sources.count - 1)
    case .toggleGrid:
      if isGrid {
        if let focus = grid?.focus, !sources.isEmpty { openFromGrid(focus) }
      } else if sources.count > 1 || openedFromGrid {
        backToGrid()
      }
    case .backToGrid: backToGrid()
    case .select(let move): grid?.move(move)
    case .openTile: if let focus = grid?.focus, isGrid { openFromGrid(focus) }
    case .quit: quit = true
    }
  }

  /// Enter or a double-click in the grid: source `i` in the single view.
  func openFromGrid(_ i: Int) {
    guard isGrid, sources.indices.contains(i) else { return }
    grid?.deactivate()
    isGrid = false
    openedFromGrid = true
    active = i
    sizedForImage = true  // the window keeps its size
    makeViews()
    top.setTitle(title)
  }

  /// The view whose frame `s` and Ctrl+c take: the single view, or the grid's selected tile.
  var frameView: GIFView? { isGrid ? grid?.focusedView : views.first }

  /// What the shown frame's pixels are wanted for.
  enum FrameUse { case save, copy }

  /// The shown frame, whole, for `use`: its view, size, index and canvas. Nil when none
  /// is shown, and while its pixels live only on the X server: they are asked for again,
  /// and `use` runs when they come.
  func shownFrame(for use: FrameUse) -> (view: GIFView, size: (width: Int, height: Int), index: Int, pixels: [UInt32])?
  {
    guard let v = frameView, let size = v.playback.size, let index = v.playback.displayedFrame else {
      waitingForPixels.remove(use)
      return nil
    }
    guard let pixels = v.playback.displayedPixels else {
      waitingForPixels.insert(use)
      v.hostNeedsPixels = true
      return nil
    }
    waitingForPixels.remove(use)
    if waitingForPixels.isEmpty { v.hostNeedsPixels = false }
    return (v, size, index, pixels)
  }

  /// Pasted or dropped sources replace the ones shown, as if they had been the command
  /// line's: one plays in the single view; several are `n`/`p`'s sources, or the grid's
  /// tiles when the grid is on screen.
  func replaceSources(with new: [GIFPlayback.Source]) {
    guard !new.isEmpty else { return }
    for v in views { v.hide() }
    views = []
    runLoop.views = []
    for p in playbacks.values { p.stop() }
    playbacks = [:]
    grid?.deactivate()
    grid = nil
    failed = []
    waitingForPixels = []
    let toGrid = isGrid && new.count > 1
    sources = new
    active = 0
    openedFromGrid = false
    isGrid = toGrid
    sizedForImage = false
    keepsCentre = true
    if isGrid {
      grid = GridScreen(viewer: self)
      grid?.activate()
    } else {
      makeViews()
    }
    top.setTitle(title)
  }

  /// Escape (or `g`) in a single view: the grid, where it was.
  private func backToGrid() {
    guard !isGrid else { return }
    for v in views { v.hide() }
    views = []
    runLoop.views = []
    for p in playbacks.values { p.stop() }
    playbacks = [:]
    isGrid = true
    openedFromGrid = false
    if grid == nil { grid = GridScreen(viewer: self) }
    grid?.activate()
    top.setTitle(title)
  }

  /// The key table as a card: key and action in columns, in two blocks side by side
  /// when one would not fit `height` (17 px a line).
  private func helpLines(height: Int) -> [String] {
    let keys: [String] = keyBindings.map { "\($0.label)\t\($0.help)" }
    let rows: [String] = keys + mouseHelp.map { "\($0.action)\t\($0.help)" }
    let fits = max(4, (height - 24) / 17 - 1)
    guard rows.count > fits else { return rows + ["", "? closes this"] }
    let half = (rows.count + 1) / 2
    var lines: [String] = []
    for i in 0..<half { lines.append(i + half < rows.count ? rows[i] + "\t" + rows[i + half] : rows[i]) }
    return lines + ["? closes this"]
  }

  private func zoom(_ f: (Double) -> Double) {
    guard !isGrid, let v = views.first else { return }
    zoom(at: v.frame.width / 2, v.frame.height / 2, f)
  }

  /// Zooms keeping the image point under window point (x, y) fixed.
  private func zoom(at x: Int, _ y: Int, _ f: (Double) -> Double) {
    guard !isGrid, let v = views.first else { return }
    v.zoom(to: f(v.effectiveScale), keepingViewPoint: x - v.frame.x, y - v.frame.y)
  }

  private func switchSource(by d: Int) {
    guard sources.count > 1, !isGrid else { return }
    let old = playback(active)
    // stdin still arriving keeps loading in the background (it cannot be read again).
    if old.canReload { old.stop() }
    active = (active + d) % sources.count
    let fresh = playbacks[active] == nil
    let p = playback(active)
    if !fresh && !(p.source == .standardInput && !p.isStopped) { p.reload() }
    if openedFromGrid, playbacks.count > 4 {
      // Visiting many sources from the grid: only the one shown keeps its playback.
      for (i, q) in playbacks where i != active && q.canReload { playbacks[i] = nil }
    }
    sizedForImage = false
    keepsCentre = true
    for v in views { v.hide() }
    views = []
    makeViews()
    top.setTitle(title)
  }
}

/// CLOCK_MONOTONIC in nanoseconds (double-clicks).
func monotonicNS() -> UInt64 {
  var t = timespec()
  clock_gettime(CLOCK_MONOTONIC, &t)
  return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// One line on stderr in a single write(2), so lines from several threads never interleave.
func writeStderrLine(_ s: String) {
  var line = s + "\n"
  line.withUTF8 { b in _ = write(2, b.baseAddress, b.count) }
}
