import GIFAnimator
import GIFDecoder
import GIFLoader
import Glibc
import X11Window

/// The GIFView component (FLAnimatedImage in SwiftUI, natively on X11): a source,
/// a spinner while loading, then the animation, or a failure card; play/pause,
/// content mode, reload. `run()` owns the UI thread until the window closes.
public final class GIFView {
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
    public var load = LoadOptions()
    public var limits = Limits.default
    public var frameBudget = 64 << 20
    public init() {}
  }

  public private(set) var phase = Phase.loading(received: 0, expected: nil)
  public var isAnimating: Bool { !timeline.isPaused }
  public var contentMode: ContentMode

  let options: Options
  let sources: [Source]
  private(set) var sourceIndex = 0
  let clock: any MonotonicClock
  let mailbox = Mailbox()
  var window: ViewerWindow?

  // Per load.
  var generation = 0
  var session: LoadSession?
  var screen: ScreenInfo?
  var cache: FrameCache?
  var timeline = Timeline(plays: 1)
  var loadComplete = false
  var warnings: [String] = []

  // Display.
  var shownFrame = -1  // the frame index last drawn
  var zoom: Double?  // nil: the content mode decides
  var background: Background
  var showInfo = false
  var needsRedraw = true
  var spinnerShownAt: UInt64?  // when the spinner was first painted (for the fade)
  var spinnerDueAt: UInt64 = 0
  var fadeStart: UInt64?
  var fadeFrom: [UInt32] = []
  var lastSpinnerStep = -1
  var sizedForImage = false
  var failedSources = Set<Int>()
  var quit = false
  let launchNS: UInt64

  /// The spinner's first paint is held back this long, so a local file's first frame
  /// is the first thing drawn (no spinner flash, no fade).
  static let spinnerGraceNS: UInt64 = 40_000_000
  static let fadeNS: UInt64 = 150_000_000

  public init(sources: [Source], options: Options, clock: any MonotonicClock = SystemClock()) {
    precondition(!sources.isEmpty)
    self.sources = sources
    self.options = options
    self.clock = clock
    self.contentMode = options.contentMode
    self.background = options.background
    self.launchNS = clock.nowNS
  }

  public var source: Source { sources[sourceIndex] }

  /// Opens the window, plays, and returns the exit status when the window closes:
  /// 0, or 1 when a source failed.
  public func run() -> Int32 {
    do {
      window = try ViewerWindow(initialWindowOptions())
    } catch {
      writeError(nil, error.description)
      return 1
    }
    startLoad()
    eventLoop()
    session?.cancel()
    cache?.close()
    window?.close()
    window = nil
    return failedSources.isEmpty ? 0 : 1
  }

  // MARK: - Loading

  func startLoad() {
    session?.cancel()
    cache?.close()
    generation += 1
    screen = nil
    cache = nil
    loadComplete = false
    warnings = []
    shownFrame = -1
    timeline = Timeline(plays: 1)
    timeline.setSpeed(options.speed, now: clock.nowNS)
    phase = .loading(received: 0, expected: nil)
    spinnerShownAt = nil
    spinnerDueAt = clock.nowNS + Self.spinnerGraceNS
    fadeStart = nil
    needsRedraw = true
    failedSources.remove(sourceIndex)
    window?.setTitle(title)
    let s = LoadSession(
      source: source, options: options.load, limits: options.limits, generation: generation, mailbox: mailbox)
    session = s
    s.start()
  }

  var title: String { "\(source.displayName) — gifview" }

  func handle(_ message: Message) {
    let now = clock.nowNS
    switch message {
    case .progress(let received, let expected):
      if case .loading = phase {
        phase = .loading(received: received, expected: expected)
        needsRedraw = spinnerShownAt != nil
      }
    case .screen(let s):
      screen = s
      let mailbox = self.mailbox, generation = self.generation
      cache = FrameCache(
        screen: s, format: .bgra, budgetBytes: options.frameBudget,
        onRendered: { mailbox.post(.rendered, generation: generation) })
      fitWindowToImage()
    case .frame(let f, let loopCount):
      guard let cache else { return }
      cache.append(f)
      updatePlays(loopCount: loopCount)
      timeline.append(delayNS: UInt64(f.delayMS(exact: options.exactDelays)) * 1_000_000, now: now)
      needsRedraw = true
    case .complete(let parseWarnings):
      loadComplete = true
      cache?.complete()
      timeline.complete(now: now)
      for w in parseWarnings { report(warning: w.description) }
      if screen != nil && timeline.frameCount == 0 { beginPlaying(now: now) }
      needsRedraw = true
    case .failed(let text):
      failedSources.insert(sourceIndex)
      writeError(source.description, text)
      if timeline.frameCount > 0 {
        // Frames that arrived complete are still shown (DESIGN §2), with a warning.
        loadComplete = true
        cache?.complete()
        timeline.complete(now: now)
        report(warning: text)
      } else {
        phase = .failed(text)
        cache?.close()
        cache = nil
      }
      needsRedraw = true
    case .rendered:
      needsRedraw = true
    }
  }

  func updatePlays(loopCount: Int?) {
    switch options.plays {
    case .some(let forced): timeline.plays = forced
    case .none: timeline.plays = GIFDocument.plays(loopCount: loopCount)
    }
  }

  func report(warning: String) {
    guard !warnings.contains(warning) else { return }
    warnings.append(warning)
    writeStderrLine("gifview: warning: \(source.description): \(warning)")
  }

  func writeError(_ source: String?, _ text: String) {
    writeStderrLine("gifview: error: " + (source.map { "\($0): " } ?? "") + text)
  }

  // MARK: - Playing

  /// The first frame is ready: start the clock and leave the spinner.
  func beginPlaying(now: UInt64) {
    phase = .playing
    timeline.start(now: now)
    if options.startPaused { timeline.pause() }
    if spinnerShownAt != nil && options.fade { fadeStart = now }
  }

  func tick(now: UInt64) {
    let spinning: Bool
    switch phase {
    case .loading: spinning = now >= spinnerDueAt
    case .playing: spinning = timeline.isWaiting && !loadComplete
    case .failed: spinning = false
    }
    if spinning && spinnerStep(now: now) != lastSpinnerStep { needsRedraw = true }
    if fadeStart != nil { needsRedraw = true }
    if case .loading = phase, let cache, cache.frame(0) != nil, timeline.frameCount > 0 {
      beginPlaying(now: now)
      needsRedraw = true
    }
    guard case .playing = phase else { return }
    if timeline.advance(now: now) { needsRedraw = true }
    cache?.setHead(timeline.current)
    if timeline.current != shownFrame { needsRedraw = true }
  }

  // MARK: - Commands

  func perform(_ command: Command) {
    let now = clock.nowNS
    switch command {
    case .togglePlay: timeline.togglePause(now: now)
    case .step(let d): timeline.step(by: d)
    case .first: timeline.seek(to: 0)
    case .last: timeline.seek(to: timeline.frameCount - 1)
    case .faster: timeline.setSpeed(timeline.speed * 1.25, now: now)
    case .slower: timeline.setSpeed(timeline.speed / 1.25, now: now)
    case .normalSpeed: timeline.setSpeed(1, now: now)
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
    case .reload: startLoad()
    case .nextSource, .previousSource:
      guard sources.count > 1 else { return }
      let d = command == .nextSource ? 1 : sources.count - 1
      sourceIndex = (sourceIndex + d) % sources.count
      zoom = nil
      sizedForImage = false
      startLoad()
    case .quit: quit = true
    }
    cache?.setHead(timeline.current)
    needsRedraw = true
  }

  /// The image scale in use now.
  var currentScale: Double {
    if let zoom { return zoom }
    guard let screen, let window else { return 1 }
    return contentMode.scale(
      imageWidth: screen.width, imageHeight: screen.height, windowWidth: window.width, windowHeight: window.height)
  }
}

func writeStderrLine(_ s: String) {
  var line = s + "\n"
  line.withUTF8 { b in _ = write(2, b.baseAddress, b.count) }
}
