import GIFAnimator
import GIFDecoder
import GIFLoader

/// One source's playback: its load, frame cache, timeline and phase. GIFView shows one
/// player full-window, or all of them in a grid.
final class Player {
  typealias Phase = GIFView.Phase

  let source: Source
  private(set) var phase = Phase.loading(received: 0, expected: nil)
  private(set) var loadID = 0
  private var session: LoadSession?
  private(set) var screen: ScreenInfo?
  private(set) var cache: FrameCache?
  var timeline = Timeline(plays: 1)
  private(set) var loadComplete = false
  private(set) var warnings: [String] = []
  /// Warnings already printed for this source (each is printed once).
  var reportedWarnings = Set<String>()
  /// The last load failed with nothing to show: the exit status will be 1.
  private(set) var loadFailed = false
  /// The frame index last drawn (-1: none yet).
  var shownFrame = -1
  /// When the spinner was first painted (a later first frame fades in over it).
  var spinnerShownAt: UInt64?
  private(set) var spinnerDueAt: UInt64 = 0
  var fadeStart: UInt64?
  var lastSpinnerStep = -1

  /// The spinner's first paint is held back this long, so a local file's first frame
  /// is the first thing drawn (no spinner flash, no fade).
  static let spinnerGraceNS: UInt64 = 40_000_000

  init(source: Source) {
    self.source = source
  }

  var hasFailed: Bool {
    if case .failed = phase { return true }
    return false
  }

  /// What the component needs to know after a message.
  struct Effects {
    var redraw = false
    var screenKnown = false
    var error: String?
    var warnings: [String] = []
  }

  /// stdin's bytes from a finished load: a reload plays them again (stdin reads once).
  private var stdinBytes: [UInt8]?

  /// A stdin load still reading cannot be restarted (a second reader would split the
  /// stream); any other source can.
  var canReload: Bool { source != .stdin || stdinBytes != nil || session == nil || session?.recordedInput != nil }

  /// This player's load is running or done (not stopped).
  var isLoaded: Bool { session != nil }

  func startLoad(id: Int, now: UInt64, options: GIFView.Options, budget: Int, mailbox: Mailbox) {
    stop()
    loadID = id
    screen = nil
    loadComplete = false
    loadFailed = false
    warnings = []
    shownFrame = -1
    let speed = timeline.speed
    timeline = Timeline(plays: 1)
    timeline.setSpeed(speed == 1 ? options.speed : speed, now: now)
    phase = .loading(received: 0, expected: nil)
    spinnerShownAt = nil
    spinnerDueAt = now + Self.spinnerGraceNS
    fadeStart = nil
    lastSpinnerStep = -1
    let s =
      stdinBytes.map { LoadSession(replaying: $0, limits: options.limits, generation: id, mailbox: mailbox) }
      ?? LoadSession(source: source, options: options.load, limits: options.limits, generation: id, mailbox: mailbox)
    session = s
    pendingBudget = budget
    s.start()
  }

  private var pendingBudget = 64 << 20
  private var emptyScreen: [UInt32] = []

  /// A source known to be unreadable before any load (a missing local file that `n`
  /// has not reached yet): it counts as failed for the exit status.
  func markFailed(_ text: String) {
    phase = .failed(text)
    loadFailed = true
  }

  /// Cancels the load and frees the frames.
  func stop() {
    if source == .stdin, stdinBytes == nil { stdinBytes = session?.recordedInput }
    session?.cancel()
    session = nil
    loadID = 0  // messages the old load already queued go nowhere
    cache?.close()
    cache = nil
  }

  func handle(_ message: Message, now: UInt64, options: GIFView.Options, mailbox: Mailbox) -> Effects {
    var fx = Effects()
    switch message {
    case .progress(let received, let expected):
      if case .loading(let before, _) = phase {
        phase = .loading(received: received, expected: expected)
        // Repaint only when the percentage shown changes.
        if let expected, expected > 0, spinnerShownAt != nil {
          fx.redraw = before * 100 / expected != received * 100 / expected
        }
      }
    case .screen(let s):
      screen = s
      let id = loadID
      cache = FrameCache(
        screen: s, format: .bgra, budgetBytes: pendingBudget,
        onRendered: { mailbox.post(.rendered, generation: id) })
      fx.screenKnown = true
    case .frame(let f, let loopCount):
      guard let cache else { break }
      cache.append(f)
      switch options.plays {
      case .some(let forced): timeline.plays = forced
      case .none: timeline.plays = GIFDocument.plays(loopCount: loopCount)
      }
      timeline.append(delayNS: UInt64(f.delayMS(exact: options.exactDelays)) * 1_000_000, now: now)
      fx.redraw = true
    case .complete(let parseWarnings):
      loadComplete = true
      cache?.complete()
      timeline.complete(now: now)
      fx.warnings = parseWarnings.map(\.description)
      if screen != nil && timeline.frameCount == 0 {
        // A file with no image: its (transparent) screen is what there is to show.
        phase = .playing
      }
      fx.redraw = true
    case .failed(let text):
      if timeline.frameCount > 0 {
        // Frames that arrived complete are still shown (DESIGN §2): damage that allows
        // display is a warning, as for a cut-short local file.
        loadComplete = true
        cache?.complete()
        timeline.complete(now: now)
        fx.warnings = [text]
      } else {
        fx.error = text
        loadFailed = true
        phase = .failed(text)
        stop()
      }
      fx.redraw = true
    case .rendered:
      // Only a frame that is due and not yet on screen needs a paint.
      fx.redraw = timeline.frameCount > 0 && shownFrame != timeline.current
      // Damage found while decoding pixels (a bad LZW code) is a warning too.
      fx.warnings = cache?.warnings.map(\.description) ?? []
    }
    for w in fx.warnings where !warnings.contains(w) { warnings.append(w) }
    return fx
  }

  /// Moves time on; answers true when something visible changed.
  func tick(now: UInt64, spinnerStep: Int, options: GIFView.Options) -> Bool {
    var redraw = false
    if case .loading = phase, let cache, timeline.frameCount > 0, cache.frame(0) != nil {
      phase = .playing
      timeline.start(now: now)
      if options.startPaused { timeline.pause() }
      if spinnerShownAt != nil && options.fade { fadeStart = now }
      redraw = true
    }
    if isSpinning(now: now) && spinnerStep != lastSpinnerStep { redraw = true }
    if let start = fadeStart {
      if now - start >= GIFView.fadeNS { fadeStart = nil }  // over, drawn or not
      redraw = true
    }
    guard case .playing = phase else { return redraw }
    if timeline.advance(now: now) { redraw = true }
    cache?.setHead(timeline.current)
    if timeline.frameCount > 0 && timeline.current != shownFrame && cache?.frame(timeline.current) != nil {
      redraw = true
    }
    return redraw
  }

  /// Loading (after the grace period), or playing but waiting for the next frame.
  func isSpinning(now: UInt64) -> Bool {
    switch phase {
    case .loading: now >= spinnerDueAt
    case .playing: isWaitingForData
    case .failed: false
    }
  }

  var isWaitingForData: Bool { timeline.isWaiting && !loadComplete }

  /// The next moment this player needs the UI thread, nil for none.
  func nextWake(now: UInt64, nextSpinnerStep: UInt64) -> UInt64? {
    var due: [UInt64] = []
    switch phase {
    case .loading: due.append(spinnerShownAt == nil ? spinnerDueAt : nextSpinnerStep)
    case .playing:
      if let d = timeline.nextDeadline { due.append(d) }
      if isWaitingForData { due.append(nextSpinnerStep) }
      if fadeStart != nil { due.append(now + 16_000_000) }
    case .failed: break
    }
    return due.min()
  }

  /// The composited frame to show now (the current one, else the last shown).
  func frameToShow() -> [UInt32]? {
    guard let cache else { return nil }
    if timeline.frameCount == 0, loadComplete, let screen {
      // A file with no image shows its transparent screen (made once).
      if emptyScreen.count != screen.width * screen.height {
        emptyScreen = [UInt32](repeating: 0, count: screen.width * screen.height)
      }
      return emptyScreen
    }
    if let f = cache.frame(timeline.current) {
      shownFrame = timeline.current
      return f
    }
    return shownFrame >= 0 ? cache.frame(shownFrame) : nil
  }
}
