import GIFAnimator
import GIFDecoder
import GIFLoader
import Glibc
import X11Window

/// The GIFView component (FLAnimatedImage in SwiftUI, natively on X11): sources by
/// path or URL, a spinner while loading, then the animation, or a failure card;
/// play/pause, content mode, reload. One source at a time (`n`/`p`), or all at once in
/// a grid. `run()` owns the UI thread until the window closes.
public final class GIFView {
  /// What the component shows (the seed component's phases).
  public enum Phase: Equatable, Sendable {
    case loading(received: Int, expected: Int?)
    case playing
    case failed(String)
  }

  public struct Options: Sendable {
    public var contentMode = ContentMode.fit
    public var background = Background.checker
    /// Where `b` toggles to (and from).
    public var solidBackground = Background.solid(r: 0, g: 0, b: 0)
    public var startPaused = false
    public var speed = 1.0
    /// nil: as the file says; .some(nil): forever; .some(n): n plays.
    public var plays: Int?? = nil
    public var exactDelays = false
    public var useSHM = true
    public var fade = true
    public var geometry: (width: Int, height: Int, x: Int?, y: Int?)? = nil
    public var fullscreen = false
    public var display: String? = nil
    /// Every source at once, in a grid of tiles.
    public var grid = false
    public var load = LoadOptions()
    public var limits = Limits.default
    /// Decoded frames of all players together stay within this.
    public var frameBudget = 64 << 20
    public init() {}
  }

  let options: Options
  let players: [Player]
  private(set) var active = 0
  let clock: any MonotonicClock
  let mailbox = Mailbox()
  var window: ViewerWindow?

  public var contentMode: ContentMode
  var zoom: Double?  // nil: the content mode decides
  var background: Background
  var showInfo = false
  var needsRedraw = true
  var fadeFrom: [UInt32] = []
  /// What the frames kept on the X server were drawn for.
  var keptView: ViewSignature?
  var sizedForImage = false
  var quit = false
  private var nextLoadID = 0
  let launchNS: UInt64

  static let fadeNS: UInt64 = 150_000_000

  public init(sources: [Source], options: Options, clock: any MonotonicClock = SystemClock()) {
    precondition(!sources.isEmpty)
    self.players = sources.map(Player.init)
    self.options = options
    self.clock = clock
    self.contentMode = options.contentMode
    self.background = options.background
    self.launchNS = clock.nowNS
  }

  var player: Player { players[active] }
  public var phase: Phase { player.phase }
  public var isAnimating: Bool { !player.timeline.isPaused }
  var isGrid: Bool { options.grid && players.count > 1 }
  /// The players on screen now.
  var visible: [Player] { isGrid ? players : [player] }

  /// Opens the window, plays, and returns the exit status when the window closes:
  /// 0, or 1 when a source failed.
  public func run() -> Int32 {
    do {
      window = try ViewerWindow(initialWindowOptions())
    } catch {
      writeStderrLine("gifview: error: \(error.description)")
      return 1
    }
    for p in visible { startLoad(p) }
    // Sources shown later (`n`) are loaded then; a local file that cannot be opened is
    // reported now, so the exit status and the message do not depend on visiting it.
    for p in players where !visible.contains(where: { $0 === p }) {
      guard case .path(let path) = p.source, access(path, R_OK) != 0 else { continue }
      let text = String(cString: strerror(errno))
      p.markFailed(text)
      writeStderrLine("gifview: error: \(p.source.description): \(text)")
    }
    eventLoop()
    for p in players { p.stop() }
    window?.close()
    window = nil
    return players.contains(where: \.loadFailed) ? 1 : 0
  }

  func startLoad(_ p: Player) {
    nextLoadID += 1
    let budget = options.frameBudget / visible.count
    p.startLoad(id: nextLoadID, now: clock.nowNS, options: options, budget: budget, mailbox: mailbox)
    window?.setTitle(title)
    needsRedraw = true
  }

  var title: String {
    isGrid ? "\(players.count) GIFs — gifview" : "\(player.source.displayName) — gifview"
  }

  func dispatch(_ loadID: Int, _ message: Message) {
    guard let p = players.first(where: { $0.loadID == loadID }) else { return }
    let fx = p.handle(message, now: clock.nowNS, options: options, mailbox: mailbox)
    if let error = fx.error {
      writeStderrLine("gifview: error: \(p.source.description): \(error)")
    }
    for w in fx.warnings where w != fx.error && p.reportedWarnings.insert(w).inserted {
      writeStderrLine("gifview: warning: \(p.source.description): \(w)")
    }
    if fx.screenKnown && p === player && !isGrid { fitWindowToImage() }
    if fx.redraw { needsRedraw = true }
  }

  // MARK: - Commands

  func perform(_ command: Command) {
    let now = clock.nowNS
    switch command {
    case .togglePlay: for p in visible { p.timeline.togglePause(now: now) }
    case .step(let d): for p in visible { p.timeline.step(by: d) }
    case .first: for p in visible { p.timeline.seek(to: 0) }
    case .last: for p in visible { p.timeline.seek(to: p.timeline.frameCount - 1) }
    case .faster: for p in visible { p.timeline.setSpeed(p.timeline.speed * 1.25, now: now) }
    case .slower: for p in visible { p.timeline.setSpeed(p.timeline.speed / 1.25, now: now) }
    case .normalSpeed: for p in visible { p.timeline.setSpeed(1, now: now) }
    case .zoomIn: zoom = min(currentScale * 1.25, 32)
    case .zoomOut: zoom = max(currentScale / 1.25, 1.0 / 32)
    case .actualSize: zoom = 1
    case .fit:
      zoom = nil
      contentMode = .fit
    case .toggleFullscreen: window.map { $0.setFullscreen(!$0.isFullscreen) }
    case .toggleInfo: showInfo.toggle()
    case .toggleBackground:
      background = background == .checker ? options.solidBackground : .checker
    case .reload: for p in visible where p.canReload { startLoad(p) }
    case .nextSource, .previousSource:
      guard players.count > 1, !isGrid else { return }
      // stdin still arriving keeps loading in the background (it cannot be read again).
      if player.canReload { player.stop() }
      let d = command == .nextSource ? 1 : players.count - 1
      active = (active + d) % players.count
      zoom = nil
      sizedForImage = false
      keptView = nil
      window?.dropKeptFrames()
      if !(player.source == .stdin && player.isLoaded) {
        startLoad(player)
      } else {
        window?.setTitle(title)
        player.shownFrame = -1
        fitWindowToImage()
      }
    case .quit: quit = true
    }
    for p in visible { p.cache?.setHead(p.timeline.current) }
    needsRedraw = true
  }

  /// The image scale in use now (single view).
  var currentScale: Double {
    if let zoom { return zoom }
    guard let screen = player.screen, let window else { return 1 }
    return contentMode.scale(
      imageWidth: screen.width, imageHeight: screen.height, windowWidth: window.width, windowHeight: window.height)
  }
}

/// Everything a drawn frame depends on besides its index.
struct ViewSignature: Equatable {
  var loadID: Int
  var scale: Double
  var background: Background
  var width: Int
  var height: Int
}

/// One line on stderr in a single write(2), so lines from several threads never interleave.
public func writeStderrLine(_ s: String) {
  var line = s + "\n"
  line.withUTF8 { b in _ = write(2, b.baseAddress, b.count) }
}
