import GIFDecoder

/// The playback timeline of DESIGN §3: frames are shown at absolute deadlines,
/// deadline(k+1) = deadline(k) + delay(k) ÷ speed, so lateness never accumulates; when
/// late, it skips to the frame that is due. Frames may still be arriving (progressive
/// play): at the end of what has arrived it waits on the current frame.
public struct Timeline: Sendable {
  /// Effective delays in nanoseconds, one per frame that has arrived.
  public private(set) var delaysNS: [UInt64] = []
  /// True once no more frames will arrive.
  public private(set) var isComplete = false
  /// Total plays; nil = forever.
  public var plays: Int?
  /// The speed factor.
  public private(set) var speed = 1.0

  /// The frame on show.
  public private(set) var current = 0
  /// Plays finished so far (the current play is number `playsDone + 1`).
  public private(set) var playsDone = 0
  /// Paused by the user.
  public private(set) var isPaused = false
  /// The last play ended: the last frame stays.
  public private(set) var isFinished = false
  /// Waiting for frame `current + 1` to arrive.
  public private(set) var isWaiting = false
  /// `start(now:)` has run.
  public private(set) var isStarted = false
  /// When the current frame gives way to the next (absolute, ns).
  private var deadline: UInt64 = 0

  /// The slowest speed.
  public static let minSpeed = 0.05
  /// The fastest speed.
  public static let maxSpeed = 20.0

  /// An empty timeline of `plays` plays (nil: forever).
  public init(plays: Int?) {
    self.plays = plays
  }

  /// Frames known so far.
  public var frameCount: Int { delaysNS.count }

  /// A single complete frame never animates.
  public var isStill: Bool { isComplete && delaysNS.count <= 1 }

  /// The deadline the event loop sleeps until; nil means no timer (paused, finished,
  /// still, waiting for data, or not started).
  public var nextDeadline: UInt64? {
    guard isStarted, !isPaused, !isFinished, !isWaiting, !isStill else { return nil }
    return deadline
  }

  /// Adds the next frame's effective delay; a wait for it ends at `now`.
  public mutating func append(delayNS: UInt64, now: UInt64) {
    delaysNS.append(delayNS)
    if isWaiting {
      // The frame we were waiting for is here: it shows now, on a fresh deadline.
      isWaiting = false
      if isStarted && !isPaused { showNextArrived(now: now) }
    }
  }

  /// No more frames will come.
  public mutating func complete(now: UInt64) {
    isComplete = true
    if isWaiting {
      isWaiting = false
      // Waiting at the last frame: the play ended there.
      endOfPlay(now: now)
    }
  }

  /// Shows frame 0 at `now`.
  public mutating func start(now: UInt64) {
    guard !delaysNS.isEmpty else { return }
    isStarted = true
    current = 0
    playsDone = 0
    isFinished = false
    isWaiting = false
    deadline = now &+ scaled(delaysNS[0])
  }

  /// Moves to the frame due at `now`; answers true when the shown frame changed.
  @discardableResult
  public mutating func advance(now: UInt64) -> Bool {
    guard let _ = nextDeadline, now >= deadline else { return false }
    let before = (current, playsDone)
    // Far behind (a suspended machine): skip whole plays arithmetically; a whole play
    // later the same frame is due again, whichever frame this is.
    if isComplete, now - deadline > 1_000_000_000 {
      let loopNS = delaysNS.reduce(UInt64(0)) { $0 + scaled($1) }
      if loopNS > 0, now - deadline > loopNS {
        var loops = (now - deadline) / loopNS
        if let plays { loops = min(loops, UInt64(max(plays - playsDone - 1, 0))) }
        deadline += loops * loopNS
        playsDone += Int(loops)
      }
    }
    while let due = nextDeadline, now >= due {
      moveToNext(at: due)
    }
    return before != (current, playsDone)
  }

  /// The frame after `current`, whose deadline is `at` (the old deadline: no drift).
  private mutating func moveToNext(at due: UInt64) {
    if current + 1 < delaysNS.count {
      current += 1
      deadline = due &+ scaled(delaysNS[current])
    } else if !isComplete {
      isWaiting = true
    } else {
      endOfPlay(now: due)
    }
  }

  private mutating func endOfPlay(now: UInt64) {
    playsDone += 1
    if let plays, playsDone >= plays {
      isFinished = true
      playsDone = plays
      return
    }
    current = 0
    deadline = now &+ scaled(delaysNS[0])
  }

  /// Shows the next frame now (after waiting for it).
  private mutating func showNextArrived(now: UInt64) {
    current += 1
    deadline = now &+ scaled(delaysNS[current])
  }

  /// Stops at the current frame.
  public mutating func pause() { isPaused = true }

  /// Continues from the current frame with a fresh deadline.
  public mutating func resume(now: UInt64) {
    guard isPaused else { return }
    isPaused = false
    if isFinished {
      // Play again from the start, as a player does after the end.
      start(now: now)
      return
    }
    if !delaysNS.isEmpty { deadline = now &+ scaled(delaysNS[current]) }
  }

  /// Play/pause as a button does: resumes, restarts a finished play, or pauses.
  public mutating func togglePause(now: UInt64) {
    if isPaused {
      resume(now: now)
    } else if isFinished {
      start(now: now)
    } else {
      pause()
    }
  }

  /// Steps by `delta` frames (wrapping) and pauses, as players do.
  public mutating func step(by delta: Int) {
    guard !delaysNS.isEmpty else { return }
    isPaused = true
    isFinished = false
    isWaiting = false
    let n = delaysNS.count
    current = ((current + delta) % n + n) % n
  }

  /// Shows frame `index` (clamped) and pauses.
  public mutating func seek(to index: Int) {
    guard !delaysNS.isEmpty else { return }
    isPaused = true
    isFinished = false
    isWaiting = false
    current = min(max(index, 0), delaysNS.count - 1)
  }

  /// Changes speed; the time left on the current frame is rescaled.
  public mutating func setSpeed(_ newSpeed: Double, now: UInt64) {
    let clamped = min(max(newSpeed, Self.minSpeed), Self.maxSpeed)
    if nextDeadline != nil && deadline > now {
      let remaining = Double(deadline - now) * speed / clamped
      deadline = now + UInt64(remaining.rounded())
    }
    speed = clamped
  }

  private func scaled(_ ns: UInt64) -> UInt64 {
    speed == 1 ? ns : UInt64((Double(ns) / speed).rounded())
  }
}
