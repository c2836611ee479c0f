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
  /// Every source at once, in a grid of tiles.
  var grid = false
  var playback = GIFPlayback.Options()
}

/// The application's window: one top-level window holding one GIFView (single view,
/// `n`/`p` between sources) or one per source (the grid). It owns the messages on
/// stderr and the exit status; the component below it does neither.
final class Viewer {
  let sources: [GIFPlayback.Source]
  let settings: ViewerSettings
  let wakeUp = WakeUpSignal()
  private(set) var active = 0
  /// One playback per source, made when the source is first shown.
  private var playbacks: [GIFPlayback?]
  /// The last load of a source failed with nothing to show: the exit status is 1.
  private var failed: [Bool]

  var connection: X11Connection!
  var top: TopLevelWindow!
  var runLoop: GIFViewRunLoop!
  var views: [GIFView] = []

  var contentMode: ContentMode
  var background: Background
  var showInfo = false
  var showHelp = false
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

  init(sources: [GIFPlayback.Source], settings: ViewerSettings) {
    precondition(!sources.isEmpty)
    self.sources = sources
    self.settings = settings
    self.playbacks = sources.map { _ in nil }
    self.failed = sources.map { _ in false }
    self.contentMode = settings.contentMode
    self.background = settings.background
  }

  var isGrid: Bool { settings.grid && sources.count > 1 }

  var title: String {
    isGrid ? "\(sources.count) GIFs — gifview" : "\(sources[active].displayName) — gifview"
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
    // Sources shown later (`n`) are loaded then; a local file that cannot be opened is
    // reported now, so the exit status and the message do not depend on visiting it.
    for (i, s) in sources.enumerated() where !isGrid && i != active {
      guard let path = s.loaderSource?.pathBytes,
        (path + [0]).withUnsafeBufferPointer({ b in
          b.withMemoryRebound(to: CChar.self) { access($0.baseAddress!, R_OK) != 0 }
        })
      else { continue }
      failed[i] = true
      writeStderrLine("gifview: error: \(s.description): \(String(cString: strerror(errno)))")
    }
    presizeFromLocalHeader()
    makeViews()
    top.map()
    var status: Int32 = 0
    do {
      try runLoop.run({ window, event in handle(event, for: window) }, afterUpdate: afterUpdate)
    } catch {
      writeStderrLine("gifview: error: \(error.description)")
      status = 1
    }
    for p in playbacks { p?.stop() }
    if !connection.isLost {
      views.removeAll()
      runLoop.views = []
      top.close()
    }
    connection.close()
    return status == 0 && failed.contains(true) ? 1 : status
  }

  // MARK: - Playbacks and views

  /// The playback of source `i`, made (and started) on first use.
  func playback(_ i: Int) -> GIFPlayback {
    if let p = playbacks[i] { return p }
    var options = settings.playback
    if isGrid { options.frameBudgetBytes /= sources.count }
    let p = GIFPlayback(source: sources[i], options: options, wakeUp: wakeUp)
    p.onPhaseChange = { [unowned self] phase in phaseChanged(i, phase) }
    p.onWarning = { w in writeStderrLine("gifview: warning: \(p.source.description): \(w)") }
    playbacks[i] = p
    return p
  }

  private func phaseChanged(_ i: Int, _ phase: GIFPlayback.Phase) {
    switch phase {
    case .failed(let error):
      failed[i] = true
      writeStderrLine("gifview: error: \(sources[i].description): \(error.message)")
      // A window sized for a tiny image is too small for the card: make it readable.
      if !isGrid, settings.geometry == nil, !settings.fullscreen, top.width < 320 || top.height < 240 {
        top.resize(width: max(top.width, 320), height: max(top.height, 240))
      }
    case .playing: failed[i] = false
    case .loading: break
    }
  }

  /// Indices of the sources on screen.
  var visibleSources: [Int] { isGrid ? Array(sources.indices) : [active] }

  private func makeViews() {
    views = visibleSources.map { i in
      let v = GIFView(
        playback: playback(i), connection: connection, parent: top.id, x: 0, y: 0, width: top.width,
        height: top.height, useSHM: settings.useSHM)
      v.contentMode = isGrid ? .fit : contentMode
      v.background = background
      v.failureHint = isGrid ? nil : "r: retry   q: quit"
      if isGrid { v.keptFramesBudgetBytes /= sources.count }
      return v
    }
    runLoop.views = views
    layoutViews()
    for v in views { v.show() }
  }

  /// Single view: the whole window. Grid: tiles in rows, images never enlarged.
  func layoutViews() {
    guard isGrid else {
      views.first?.setFrame(x: 0, y: 0, width: top.width, height: top.height)
      return
    }
    let tiles = Tile.grid(count: views.count, width: top.width, height: top.height)
    for (v, t) in zip(views, tiles) {
      v.setFrame(x: t.x0, y: t.y0, width: max(t.width, 1), height: max(t.height, 1))
      if let size = v.playback.size {
        let fit = ContentMode.fit.scale(
          imageWidth: size.width, imageHeight: size.height, windowWidth: t.width, windowHeight: t.height)
        v.scale = min(1, fit)
      }
    }
  }

  /// Runs after the views drew, once a turn: sizes the window to the image once it is
  /// known, keeps grid scales and the overlay current.
  private func afterUpdate() -> UInt64? {
    // The icon once the first frame (or the spinner, or the failure card) is on screen:
    // decoding its PNGs never delays the first frame.
    if !top.hasIcons && firstPaintDone { top.setIcons(appIcons()) }
    if !isGrid {
      fitWindowToImage()
    } else {
      for v in views where v.scale == nil && v.playback.size != nil { layoutViews() }
    }
    for v in views {
      var overlay: [TextItem] = []
      if showInfo && !isGrid && v.playback.phase == .playing { overlay.append(TextItem(infoLines(v), x: 8, y: 8)) }
      if showHelp && v === views.first {
        let (w, h) = isGrid ? (top.width, top.height) : (v.frame.width, v.frame.height)
        overlay.append(TextItem(helpLines(height: h), x: w / 2, y: h / 2, anchor: .center))
      }
      if overlay.map(\.lines) != v.overlay.map(\.lines) { v.overlay = overlay }
    }
    return nil
  }

  // MARK: - Events

  private func handle(_ event: WindowEvent, for window: XWindowID) -> Bool {
    guard window == top.id else { return true }
    switch event {
    case .configured(let w, let h):
      if top.noteConfigured(width: w, height: h) { layoutViews() }
    case .closeRequested: quit = true
    case .key(let key, let modifiers): if let c = command(for: key, modifiers: modifiers) { perform(c) }
    case .button(1, let x, let y, _):
      drag = Drag(startX: x, startY: y, startPan: views.first?.panOffset ?? (0, 0), moved: false)
    case .dragged(let x, let y):
      guard var d = drag, !isGrid, let v = views.first else { break }
      // A click that wobbles a pixel or two is still a click.
      if abs(x - d.startX) > 3 || abs(y - d.startY) > 3 { d.moved = true }
      if d.moved { v.panOffset = (d.startPan.x + x - d.startX, d.startPan.y + y - d.startY) }
      drag = d
    case .buttonReleased(1, _, _):
      if drag?.moved == false { perform(.togglePlay) }
      drag = nil
    case .button(let b, let x, let y, _):
      switch b {
      case 4: zoom(at: x, y) { min($0 * 1.25, 32) }
      case 5: zoom(at: x, y) { max($0 / 1.25, 1.0 / 32) }
      default: break
      }
    case .expose, .mapped, .buttonReleased: break
    }
    return !quit
  }

  func perform(_ command: Command) {
    let shown = views.map(\.playback)
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
    case .nextSource, .previousSource: switchSource(by: command == .nextSource ? 1 : sources.count - 1)
    case .quit: quit = true
    }
    for v in views { v.setNeedsDisplay() }
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
    sizedForImage = false
    keepsCentre = true
    for v in views { v.hide() }
    views = []
    makeViews()
    top.setTitle(title)
  }
}

/// One line on stderr in a single write(2), so lines from several threads never interleave.
func writeStderrLine(_ s: String) {
  var line = s + "\n"
  line.withUTF8 { b in _ = write(2, b.baseAddress, b.count) }
}
