import GIFAnimator
import GIFDecoder
import GIFLoader
import SystemIO

/// One source played: its load, decoder, timeline, frame cache and phase, with no X.
///
/// The seed component's model object (FLAnimatedImage's idea): a view draws what a
/// playback shows, and the playback changes only in `tick(now:)`, which its host calls
/// on one thread when `wakeUp`'s descriptor is readable or `nextDeadline` has come.
/// Loading and decoding run in the background; their results wait in a locked inbox
/// until the next tick. Nothing here depends on painting: the spinner's appearance, the
/// cross-fade and the frame on show all advance with time.
public final class GIFPlayback {
  /// What the playback is doing (the seed component's phases).
  public enum Phase: Equatable, Sendable {
    /// Bytes are arriving; `expected` when the server or the file told the size.
    case loading(received: Int, expected: Int?)
    /// At least one frame is ready to show.
    case playing
    /// Nothing can be shown; `reload()` tries again.
    case failed(PlaybackError)
  }

  /// The source being played.
  public let source: Source
  /// How it loads and plays.
  public let options: Options
  /// The signal background work raises; poll its descriptor.
  public let wakeUp: WakeUpSignal
  private let clock: any MonotonicClock
  private let inbox: Inbox

  /// The phase now; `onPhaseChange` hears every change.
  public private(set) var phase = Phase.loading(received: 0, expected: nil) {
    didSet { if phase != oldValue { onPhaseChange?(phase) } }
  }
  /// Called on the driving thread whenever `phase` changes.
  public var onPhaseChange: ((Phase) -> Void)?
  /// Called on the driving thread once for each new warning (damage that still allows
  /// display, e.g. a file cut short after complete frames).
  public var onWarning: ((String) -> Void)?

  private var generation = 0
  /// Changes with every load: what a view kept for one load is stale after the next.
  package var loadID: Int { generation }
  private var session: LoadSession?
  private var screen: ScreenInfo?
  private var cache: FrameCache?
  /// Compressed image data this load's frames hold in memory: 0 for a source that is read
  /// again by offset (a local file, a download through the disk cache).
  package private(set) var retainedImageDataBytes = 0
  private var timeline = Timeline(plays: 1)
  private var wantsAnimation: Bool
  /// Every warning so far, each once, in order.
  public private(set) var warnings: [String] = []
  /// stdin's bytes from a finished load: a reload plays them again (stdin reads once).
  private var stdinBytes: [UInt8]?

  // State a view reads; it changes in `tick` only.
  /// The index of the frame on show (nil before the first).
  public private(set) var displayedFrame: Int?
  /// The picture of `displayedFrame`: 0xAARRGGBB words with alpha 0 or 255, for the
  /// part of the screen images have drawn on (nil while `needsPixels` is false, and for
  /// a frame the host keeps itself).
  public private(set) var displayedImage: RenderedFrame?
  /// `displayedImage` as a whole `size`-sized canvas (allocated unless the images cover
  /// the screen): what a host saves or copies.
  public var displayedPixels: [UInt32]? { displayedImage?.canvas() }
  /// False while the host holds a picture of every frame already (a view that keeps
  /// them on the X server): the timeline moves on and `displayedFrame` follows it, but
  /// no frame is rendered or handed out, so a loop shown again costs no decoding. Set it
  /// back to true when the host needs pixels again (it dropped what it kept).
  public var needsPixels = true {
    didSet {
      guard needsPixels != oldValue else { return }
      if !needsPixels { displayedImage = nil } else { followHead() }
    }
  }
  /// When the spinner first became visible in this load (nil: not yet).
  public private(set) var spinnerShownAt: UInt64?
  private var spinnerDueAt: UInt64 = 0
  /// The spinner's animation step now (0..<spinnerSteps).
  public private(set) var spinnerStep = 0
  private var fadeStart: UInt64?
  /// How far the cross-fade from the spinner to the first frame is (0..<1), nil when
  /// none is running.
  public private(set) var fadeProgress: Double?
  private var lastTick: UInt64 = 0

  /// When this load's timeline started (its first frame shown), nil before.
  public private(set) var timelineStart: UInt64?
  /// An earlier `timelineStart` to count from instead of the moment playing starts, set
  /// before it does: a view that went away and comes back (a grid tile scrolled out of
  /// view and back) shows the frame that is due by then, not frame 0.
  public var resumesTimeline: UInt64?

  /// The spinner is held back this long, so a local file's first frame is the first
  /// thing drawn (no spinner flash, no fade; DESIGN §5).
  public static let spinnerGraceNS: UInt64 = 150_000_000
  /// The spinner has this many steps a turn, one every `spinnerStepNS`.
  public static let spinnerSteps = 12
  /// 12 steps a second.
  public static let spinnerStepNS: UInt64 = 83_333_333
  /// The cross-fade's length.
  public static let fadeNS: UInt64 = 150_000_000
  /// Steps of a running fade, about 60 a second.
  static let fadeStepNS: UInt64 = 16_000_000

  /// A playback of `source`; it starts loading at once. Playbacks that share a host
  /// loop may share one `wakeUp`. `clock` is injectable for tests.
  public init(
    source: Source, options: Options = Options(), wakeUp: WakeUpSignal = WakeUpSignal(),
    clock: any MonotonicClock = SystemClock()
  ) {
    self.source = source
    self.options = options
    self.wakeUp = wakeUp
    self.clock = clock
    self.inbox = Inbox(signal: wakeUp)
    self.wantsAnimation = !options.startsPaused
    startLoad()
  }

  deinit { stop() }

  // MARK: - Control

  /// Loads the source again from the start (after a failure: retries).
  public func reload() {
    startLoad()
  }

  /// Cancels the load and frees the frames; `reload()` starts again.
  public func stop() {
    if case .standardInput = source.kind, stdinBytes == nil { stdinBytes = session?.recordedInput }
    session?.cancel()
    session = nil
    generation += 1  // messages the old load already queued go nowhere
    cache?.close()
    cache = nil
  }

  /// No load is running or done: stopped, failed, or not reloaded since.
  public var isStopped: Bool { session == nil }

  /// A stdin load still reading cannot be restarted (a second reader would split the
  /// stream); any other source can.
  public var canReload: Bool {
    guard case .standardInput = source.kind else { return true }
    return stdinBytes != nil || session == nil || session?.recordedInput != nil
  }

  /// Whether frames advance: false for a still image, a finished animation, a failed
  /// load, or while paused. Setting it pauses or resumes (a finished animation starts
  /// over); set while loading, it decides how playback starts.
  public var isAnimating: Bool {
    get {
      guard case .playing = phase else { return false }
      return !timeline.isPaused && !timeline.isFinished && !timeline.isStill
    }
    set {
      wantsAnimation = newValue
      guard case .playing = phase else { return }
      let now = clock.nowNS
      if newValue {
        if timeline.isFinished && !timeline.isPaused { timeline.start(now: now) } else { timeline.resume(now: now) }
      } else {
        timeline.pause()
      }
      followHead()
    }
  }

  /// Play/pause as a player's button does: paused resumes, finished starts over,
  /// playing pauses.
  public func togglePause() {
    guard case .playing = phase else {
      wantsAnimation.toggle()
      return
    }
    timeline.togglePause(now: clock.nowNS)
    wantsAnimation = !timeline.isPaused
    followHead()
  }

  /// Playback speed factor, 0.05–20.
  public var speed: Double {
    get { timeline.speed }
    set { timeline.setSpeed(newValue, now: clock.nowNS) }
  }

  /// Total plays (nil: forever), as the file says unless `Options.plays` overrides it.
  public var plays: Int? { timeline.plays }
  /// Plays completed so far.
  public var playsDone: Int { timeline.playsDone }

  /// Shows frame `index` (clamped) and pauses.
  public func seek(to index: Int) {
    guard timeline.frameCount > 0 else { return }
    timeline.seek(to: index)
    followHead()
  }

  /// Steps `delta` frames (wrapping) and pauses.
  public func step(by delta: Int) {
    guard timeline.frameCount > 0 else { return }
    timeline.step(by: delta)
    followHead()
  }

  // MARK: - What a view shows

  /// The GIF's logical screen size, once its header has arrived.
  public var size: (width: Int, height: Int)? { screen.map { ($0.width, $0.height) } }
  /// Frames known so far.
  public var frameCount: Int { timeline.frameCount }
  /// The timeline's current frame (the one shown once it is rendered).
  public var currentFrame: Int { timeline.current }
  /// The effective delay of frame `index` in milliseconds (nil: unknown frame).
  public func delayMS(of index: Int) -> Int? {
    timeline.delaysNS.indices.contains(index) ? Int(timeline.delaysNS[index] / 1_000_000) : nil
  }
  /// Paused by the user (or started paused).
  public var isPaused: Bool { timeline.isPaused }
  /// The last play ended; the last frame stays.
  public var isFinished: Bool { timeline.isFinished }
  /// Every byte arrived and was parsed.
  public private(set) var isLoadComplete = false
  /// Playing, but the next frame's data has not arrived yet.
  public var isWaitingForData: Bool { timeline.isWaiting && !isLoadComplete }

  /// A spinner belongs on screen: loading after the grace period, or waiting for data.
  public var showsSpinner: Bool {
    switch phase {
    case .loading: spinnerShownAt != nil
    case .playing: isWaitingForData
    case .failed: false
    }
  }

  /// Frame `index` as rendered ahead, if the playback holds it now (a host may prepare
  /// the frames about to show, e.g. scaled to its size).
  public func renderedFrame(_ index: Int) -> RenderedFrame? { needsPixels ? cache?.frame(index) : nil }

  /// Frames the playback holds rendered now (its own copies, not the host's).
  public var cachedFrameCount: Int { cache?.cachedCount ?? 0 }
  /// Memory those frames take, in bytes.
  public var cachedFrameBytes: Int { cache?.cachedBytes ?? 0 }

  /// The host keeps its own picture of frame `index` (e.g. on the X server): the
  /// playback frees its copy, so the frame is held once (DESIGN §3).
  public func hostKeeps(frame index: Int) { cache?.hostKeeps(index) }

  /// The host let go of every frame it kept (the view's size or scale changed).
  public func hostDroppedFrames() {
    cache?.hostDroppedFrames()
    followHead()
  }

  /// The host keeps the frames it shows: render only a few ahead of the one on show
  /// instead of every frame the budget holds, which would keep each frame twice.
  public var hostKeepsFrames = false {
    didSet { setLookahead() }
  }

  /// While the host keeps frames: at least 4 rendered ahead, so that no deadline waits,
  /// and up to 4 MiB of small ones, so that the worker wakes seldom.
  private func setLookahead() {
    guard let cache else { return }
    cache.lookahead = hostKeepsFrames ? max(4, (4 << 20) / max(cache.frameBytes, 1)) : nil
  }

  // MARK: - Driving

  /// Takes what background work delivered and moves time on to `now`; answers true
  /// when what a view shows changed (phase, frame, spinner step, fade).
  @discardableResult
  public func tick(now: UInt64) -> Bool {
    lastTick = now
    var changed = false
    for (gen, m) in inbox.take() where gen == generation && handle(m, now: now) { changed = true }

    if case .loading = phase {
      if cache?.frame(0) != nil, timeline.frameCount > 0 {
        startPlaying(now: now)
        changed = true
      } else if spinnerShownAt == nil, now >= spinnerDueAt {
        spinnerShownAt = now
        changed = true
      }
    }
    if showsSpinner {
      // Steps count from when the spinner was shown, or was due. Waiting for a frame can
      // begin before that (a first frame within the grace period, then a stall): step 0
      // until then, as `nextDeadline` has it.
      let origin = spinnerShownAt ?? spinnerDueAt
      let step = now < origin ? 0 : Int((now - origin) / Self.spinnerStepNS) % Self.spinnerSteps
      if step != spinnerStep {
        spinnerStep = step
        changed = true
      }
    }
    if let start = fadeStart {
      let t = Double(now - start) / Double(Self.fadeNS)
      fadeProgress = t < 1 ? t : nil
      if t >= 1 { fadeStart = nil }
      changed = true
    }
    guard case .playing = phase else { return changed }
    if timeline.advance(now: now) { changed = true }
    if followHead() { changed = true }
    return changed
  }

  /// `tick(now:)` at the playback's clock's time now.
  @discardableResult
  public func tick() -> Bool { tick(now: clock.nowNS) }

  /// When `tick` must run next (nil: only when `wakeUp` fires).
  public var nextDeadline: UInt64? {
    let origin = spinnerShownAt ?? spinnerDueAt
    let nextSpin =
      lastTick < origin ? origin : origin + ((lastTick - origin) / Self.spinnerStepNS + 1) * Self.spinnerStepNS
    var due: [UInt64] = []
    switch phase {
    case .loading: due.append(spinnerShownAt == nil ? spinnerDueAt : nextSpin)
    case .playing:
      if let d = timeline.nextDeadline { due.append(d) }
      if isWaitingForData { due.append(nextSpin) }
      if fadeStart != nil { due.append(lastTick + Self.fadeStepNS) }
    case .failed: break
    }
    return due.min()
  }

  // MARK: - Internals

  private func startLoad() {
    stop()
    screen = nil
    timelineStart = nil
    isLoadComplete = false
    displayedFrame = nil
    displayedImage = nil
    let speed = timeline.speed
    timeline = Timeline(plays: 1)
    timeline.setSpeed(speed == 1 ? options.speed : speed, now: clock.nowNS)
    let now = clock.nowNS
    lastTick = now
    spinnerShownAt = nil
    spinnerDueAt = now + Self.spinnerGraceNS
    spinnerStep = 0
    fadeStart = nil
    fadeProgress = nil
    phase = .loading(received: 0, expected: nil)
    retainedImageDataBytes = 0
    let s: LoadSession
    switch source.storage {
    case .bytes(let bytes, _):
      s = LoadSession(replaying: bytes, limits: options.limits, generation: generation, inbox: inbox)
    case .load(let loaderSource):
      s =
        stdinBytes.map { LoadSession(replaying: $0, limits: options.limits, generation: generation, inbox: inbox) }
        ?? LoadSession(
          source: loaderSource, options: options.load, limits: options.limits, generation: generation, inbox: inbox)
    }
    session = s
    s.start()
  }

  private func startPlaying(now: UInt64) {
    phase = .playing
    // Resumed: the timeline counts from its first start, and moves to the frame due now.
    let origin = min(resumesTimeline ?? now, now)
    timeline.start(now: origin)
    timelineStart = origin
    timeline.advance(now: now)
    if !wantsAnimation { timeline.pause() }
    if spinnerShownAt != nil && options.fadesIn {
      fadeStart = now
      fadeProgress = 0
    }
    followHead()
  }

  /// Keeps the cache's head on the timeline and the shown frame on the current one
  /// once it is rendered; answers true when the shown frame changed.
  @discardableResult
  private func followHead() -> Bool {
    guard let cache, timeline.frameCount > 0 else { return false }
    if !needsPixels {
      guard displayedFrame != timeline.current else { return false }
      displayedFrame = timeline.current
      return true
    }
    cache.setHead(timeline.current)
    if cache.isHostKept(timeline.current) {
      // The host shows its own picture of this frame (a picture still held for it
      // stays: the host may draw over it, e.g. a spinner while waiting for data).
      guard displayedFrame != timeline.current else { return false }
      displayedFrame = timeline.current
      displayedImage = nil
      return true
    }
    guard displayedFrame != timeline.current || displayedImage == nil, let image = cache.frame(timeline.current)
    else { return false }
    displayedFrame = timeline.current
    displayedImage = image
    return true
  }

  private func warn(_ text: String) {
    guard !warnings.contains(text) else { return }
    warnings.append(text)
    onWarning?(text)
  }

  /// Applies one message; answers true when what a view shows changed.
  private func handle(_ message: Message, now: UInt64) -> Bool {
    switch message {
    case .progress(let received, let expected):
      guard case .loading(let before, _) = phase else { return false }
      phase = .loading(received: received, expected: expected)
      // A repaint is needed only when the percentage shown changes.
      guard let expected, expected > 0, spinnerShownAt != nil else { return false }
      return before * 100 / expected != received * 100 / expected
    case .screen(let s, let data):
      screen = s
      let gen = generation
      let inbox = inbox
      cache = FrameCache(
        screen: s, format: .bgra, budgetBytes: options.frameBudgetBytes, data: data, spawn: spawnWorker,
        onRendered: { inbox.post(.rendered, generation: gen) })
      setLookahead()
      return true
    case .frame(let f, let loopCount):
      guard let cache else { return false }
      cache.append(f)
      retainedImageDataBytes += f.compressed.count
      switch options.plays {
      case .some(let forced): timeline.plays = forced
      case .none: timeline.plays = GIFDocument.plays(loopCount: loopCount)
      }
      timeline.append(delayNS: UInt64(f.delayMS(exact: options.exactDelays)) * 1_000_000, now: now)
      return true
    case .complete(let parseWarnings):
      isLoadComplete = true
      cache?.complete()
      timeline.complete(now: now)
      for w in parseWarnings { warn(w.description) }
      if screen != nil && timeline.frameCount == 0 {
        fail(PlaybackError(.damaged, message: "no image in file"))
      }
      return true
    case .failed(let error):
      if timeline.frameCount > 0 {
        // Frames that arrived complete are still shown (DESIGN §2): damage that allows
        // display is a warning, as for a cut-short local file.
        isLoadComplete = true
        cache?.complete()
        timeline.complete(now: now)
        warn(error.message)
      } else {
        fail(error)
      }
      return true
    case .rendered:
      // Damage found while decoding pixels (a bad LZW code) is a warning too.
      for w in cache?.warnings ?? [] { warn(w.description) }
      return timeline.frameCount > 0 && (displayedFrame != timeline.current || (needsPixels && displayedImage == nil))
    }
  }

  private func fail(_ error: PlaybackError) {
    stop()
    fadeStart = nil
    fadeProgress = nil
    phase = .failed(error)
  }
}

/// Background work on a thread of its own (the cooperative pool only if the system
/// refuses one): frames must be rendered ahead however busy the host keeps the pool.
@Sendable func spawnWorker(_ body: @escaping @Sendable () -> Void) {
  if !spawnDetachedThread(body) { Task.detached(priority: .userInitiated) { body() } }
}

extension GIFPlayback.Source {
  enum Kind { case file, standardInput, remote, memory }
  var kind: Kind {
    switch storage {
    case .bytes: .memory
    case .load(.stdin): .standardInput
    case .load(.path), .load(.rawPath): .file
    case .load(.remote): .remote
    }
  }
}
