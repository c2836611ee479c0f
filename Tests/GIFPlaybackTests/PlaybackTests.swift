import Foundation
import GIFAnimator
import GIFPlayback
import GIFTestSupport
import Testing

extension ManualClock: MonotonicClock {}

private let palette: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]

/// `count` 4×4 frames, frame k filled with index k % 4, `delayCS` each, looping forever
/// unless `loop` is nil.
private func animation(frames count: Int, delayCS: Int = 10, loop: Int? = 0) -> [UInt8] {
  var b = GIFBuilder(width: 4, height: 4, globalPalette: palette)
  if let loop { b.loop(loop) }
  for k in 0..<count {
    b.control(delayCS: delayCS)
    b.image(width: 4, height: 4, indices: [UInt8](repeating: UInt8(k % 4), count: 16), minimumCodeSize: 2)
  }
  b.trailer()
  return b.bytes
}

/// Frame k's pixels as the playback hands them out (0xAARRGGBB, opaque).
private func pixels(_ k: Int) -> [UInt32] {
  let i = (k % 4) * 3
  let p = 0xFF00_0000 | UInt32(palette[i]) << 16 | UInt32(palette[i + 1]) << 8 | UInt32(palette[i + 2])
  return [UInt32](repeating: p, count: 16)
}

/// Waits on the playback's wake-up descriptor (in real time, never on the manual clock)
/// until `done` holds after a tick at the manual clock's time. The load and the frame
/// cache run on threads of their own, so a blocking wait here cannot starve them.
private func settle(
  _ p: GIFPlayback, _ clock: ManualClock, timeout: Double = 20, sourceLocation: SourceLocation = #_sourceLocation,
  until done: () -> Bool
) async {
  let end = Date().addingTimeInterval(scaled(timeout))
  while true {
    p.tick(now: clock.nowNS)
    if done() { return }
    guard Date() < end else {
      Issue.record("condition not reached; phase \(p.phase)", sourceLocation: sourceLocation)
      return
    }
    p.wakeUp.wait(timeoutNS: 50_000_000)
  }
}

private func temporaryPath(_ name: String) -> String {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gifplayback-\(UUID().uuidString)")
  try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  return dir.appendingPathComponent(name).path
}

@Suite("GIFPlayback without X (manual clock)")
struct PlaybackTests {
  @Test func aFirstFrameWithinTheGracePeriodPlaysWithNoSpinnerAndNoFade() async {
    let clock = ManualClock()
    let p = GIFPlayback(source: .bytes(animation(frames: 3)), clock: clock)
    var phases: [GIFPlayback.Phase] = []
    p.onPhaseChange = { phases.append($0) }
    #expect(p.phase == .loading(received: 0, expected: nil))
    #expect(!p.isAnimating, "nothing animates while loading")
    await settle(p, clock) { p.phase == .playing }
    #expect(phases.last == .playing)
    #expect(p.spinnerShownAt == nil && !p.showsSpinner)
    #expect(p.fadeProgress == nil)
    #expect(p.displayedFrame == 0 && p.displayedPixels == pixels(0))
    #expect(p.size! == (4, 4))
    #expect(p.isAnimating)
  }

  @Test func framesChangeExactlyAtTheirDeadlines() async {
    let clock = ManualClock()
    var options = GIFPlayback.Options()
    options.exactDelays = true
    let p = GIFPlayback(source: .bytes(animation(frames: 3, delayCS: 7)), options: options, clock: clock)
    await settle(p, clock) { p.phase == .playing && p.isLoadComplete }
    let start = clock.nowNS
    #expect(p.nextDeadline == start + 70_000_000)
    clock.advance(byNS: 69_999_999)
    p.tick(now: clock.nowNS)
    #expect(p.currentFrame == 0)
    clock.advance(byNS: 1)
    await settle(p, clock) { p.displayedFrame == 1 }
    #expect(p.displayedPixels == pixels(1))
    #expect(p.nextDeadline == start + 140_000_000, "no drift: the next deadline counts from the last one")
  }

  /// A playback of a URL whose response waits for `gate`, on a manual clock.
  private func held(
    fadesIn: Bool = true
  ) throws -> (p: GIFPlayback, clock: ManualClock, gate: ScriptedHTTPServer.Gate, server: ScriptedHTTPServer) {
    let gif = animation(frames: 2)
    let gate = ScriptedHTTPServer.Gate()
    let server = try ScriptedHTTPServer { _, _ in [.wait(gate), .send(ScriptedHTTPServer.ok(gif))] }
    let clock = ManualClock()
    var options = GIFPlayback.Options()
    options.usesDiskCache = false
    options.fadesIn = fadesIn
    return (GIFPlayback(source: try .url(server.url("/slow.gif")), options: options, clock: clock), clock, gate, server)
  }

  @Test func theSpinnerAppearsAfter150msStepsAndTheFirstFrameFadesInOverIt() async throws {
    let (p, clock, gate, server) = try held()
    defer { withExtendedLifetime(server) {} }
    let t0 = clock.nowNS
    #expect(p.nextDeadline == t0 + GIFPlayback.spinnerGraceNS)
    clock.advance(byMS: 149)
    p.tick(now: clock.nowNS)
    #expect(!p.showsSpinner, "the spinner waits 150 ms")
    clock.advance(byMS: 1)
    #expect(p.tick(now: clock.nowNS))
    #expect(p.showsSpinner && p.spinnerShownAt == t0 + 150_000_000 && p.spinnerStep == 0)
    #expect(p.nextDeadline == t0 + 150_000_000 + GIFPlayback.spinnerStepNS)
    clock.advance(byNS: GIFPlayback.spinnerStepNS)
    #expect(p.tick(now: clock.nowNS))
    #expect(p.spinnerStep == 1)
    gate.open()
    await settle(p, clock) { p.phase == .playing }
    #expect(p.fadeProgress == 0, "a spinner that was on screen fades out")
    clock.advance(byNS: GIFPlayback.fadeNS / 2)
    p.tick(now: clock.nowNS)
    #expect(p.fadeProgress == 0.5)
    clock.advance(byNS: GIFPlayback.fadeNS / 2)
    p.tick(now: clock.nowNS)
    #expect(p.fadeProgress == nil)
  }

  @Test func waitingForTheNextFrameBeforeTheGracePeriodEndsShowsTheSpinnerAtStepZero() async throws {
    // Frame 0 (50 ms) arrives at once, frame 1 only when the gate opens: the playback
    // waits for data 60 ms after the load began, before the loading spinner was ever due.
    var b = GIFBuilder(width: 4, height: 4, globalPalette: palette)
    b.loop(0)
    b.control(delayCS: 5)
    b.image(width: 4, height: 4, indices: [UInt8](repeating: 0, count: 16), minimumCodeSize: 2)
    let frame0End = b.bytes.count
    b.control(delayCS: 5)
    b.image(width: 4, height: 4, indices: [UInt8](repeating: 1, count: 16), minimumCodeSize: 2)
    b.trailer()
    let gif = b.bytes
    let gate = ScriptedHTTPServer.Gate()
    let server = try ScriptedHTTPServer { _, _ in
      [
        .send(ScriptedHTTPServer.header(200, "OK", length: gif.count) + Array(gif[..<frame0End])), .wait(gate),
        .send(Array(gif[frame0End...])),
      ]
    }
    defer { withExtendedLifetime(server) {} }
    let clock = ManualClock()
    var options = GIFPlayback.Options()
    options.usesDiskCache = false
    let p = GIFPlayback(source: try .url(server.url("/held.gif")), options: options, clock: clock)
    let t0 = clock.nowNS
    await settle(p, clock) { p.phase == .playing && p.displayedFrame == 0 }
    #expect(p.spinnerShownAt == nil, "frame 0 came within the grace period")
    clock.advance(byMS: 60)
    p.tick(now: clock.nowNS)
    #expect(p.isWaitingForData && p.showsSpinner, "frame 1 is due and has not arrived")
    clock.advance(byMS: 10)  // still before t0 + 150 ms, when the loading spinner was due
    p.tick(now: clock.nowNS)
    #expect(p.spinnerStep == 0)
    #expect(p.nextDeadline == t0 + GIFPlayback.spinnerGraceNS, "the spinner's first step")
    clock.advance(byNS: t0 + GIFPlayback.spinnerGraceNS + GIFPlayback.spinnerStepNS - clock.nowNS)
    p.tick(now: clock.nowNS)
    #expect(p.spinnerStep == 1)
    gate.open()
    await settle(p, clock) { p.displayedFrame == 1 }
    #expect(!p.showsSpinner)
  }

  @Test func noFadeWhenTurnedOff() async throws {
    let (p, clock, gate, server) = try held(fadesIn: false)
    defer { withExtendedLifetime(server) {} }
    clock.advance(byMS: 200)
    p.tick(now: clock.nowNS)
    #expect(p.showsSpinner)
    gate.open()
    await settle(p, clock) { p.phase == .playing }
    #expect(p.fadeProgress == nil)
  }

  @Test func aMissingFileFailsAndReloadPlaysItOnceItExists() async throws {
    let path = temporaryPath("later.gif")
    let clock = ManualClock()
    let p = GIFPlayback(source: .path(path), clock: clock)
    var phases: [GIFPlayback.Phase] = []
    p.onPhaseChange = { phases.append($0) }
    await settle(p, clock) { if case .failed = p.phase { true } else { false } }
    guard case .failed(let error) = p.phase else { return }
    #expect(error.kind == .unreadable)
    #expect(error.message == "No such file or directory")
    #expect(!p.isAnimating)
    try Data(animation(frames: 2)).write(to: URL(fileURLWithPath: path))
    p.reload()
    await settle(p, clock) { p.phase == .playing }
    try #require(phases.count == 3, "\(phases)")
    #expect(phases[1] == .loading(received: 0, expected: nil) && phases[2] == .playing)
  }

  @Test func aGIFWithNoImageFails() async {
    var b = GIFBuilder(width: 4, height: 4, globalPalette: palette)
    b.trailer()
    let clock = ManualClock()
    let p = GIFPlayback(source: .bytes(b.bytes), clock: clock)
    await settle(p, clock) { if case .failed = p.phase { true } else { false } }
    #expect(p.phase == .failed(PlaybackError(.damaged, message: "no image in file")))
  }

  @Test func notAGIFIsATypedFailure() async {
    let clock = ManualClock()
    let p = GIFPlayback(source: .bytes(Array("hello, world".utf8)), clock: clock)
    await settle(p, clock) { if case .failed = p.phase { true } else { false } }
    guard case .failed(let e) = p.phase else { return }
    #expect(e.kind == .notAGIF && e.message == "not a GIF file")
  }

  @Test func pauseSeekAndSpeed() async {
    let clock = ManualClock()
    var options = GIFPlayback.Options()
    options.exactDelays = true
    let p = GIFPlayback(source: .bytes(animation(frames: 4, delayCS: 10)), options: options, clock: clock)
    await settle(p, clock) { p.phase == .playing && p.isLoadComplete }
    p.isAnimating = false
    #expect(p.isPaused && !p.isAnimating && p.nextDeadline == nil)
    clock.advance(byMS: 1000)
    p.tick(now: clock.nowNS)
    #expect(p.currentFrame == 0, "paused keeps the frame")
    p.seek(to: 2)
    await settle(p, clock) { p.displayedFrame == 2 }
    #expect(p.displayedPixels == pixels(2) && p.isPaused)
    p.step(by: 3)
    #expect(p.currentFrame == 1, "stepping wraps")
    p.speed = 2
    p.isAnimating = true
    let resumed = clock.nowNS
    #expect(p.nextDeadline == resumed + 50_000_000, "twice the speed, half the delay, from a fresh deadline")
    clock.advance(byMS: 50)
    await settle(p, clock) { p.displayedFrame == 2 }
    p.speed = 100
    #expect(p.speed == 20, "speed is clamped")
  }

  @Test func aStillImageAndAFinishedAnimationDoNotAnimate() async {
    let clock = ManualClock()
    let still = GIFPlayback(source: .bytes(animation(frames: 1, loop: nil)), clock: clock)
    await settle(still, clock) { still.phase == .playing && still.isLoadComplete }
    #expect(!still.isAnimating && still.nextDeadline == nil)

    var options = GIFPlayback.Options()
    options.exactDelays = true
    let once = GIFPlayback(source: .bytes(animation(frames: 2, loop: nil)), options: options, clock: clock)
    await settle(once, clock) { once.phase == .playing && once.isLoadComplete }
    #expect(once.isAnimating && once.plays == 1)
    clock.advance(byMS: 200)
    await settle(once, clock) { once.displayedFrame == 1 }
    #expect(once.isFinished && !once.isAnimating && once.nextDeadline == nil, "the last frame stays")
    once.isAnimating = true
    #expect(once.isAnimating && once.currentFrame == 0, "playing a finished animation starts over")
  }

  @Test func aResumedTimelineShowsTheFrameThatIsDueNotFrameZero() async {
    let clock = ManualClock()
    var options = GIFPlayback.Options()
    options.exactDelays = true
    let p = GIFPlayback(source: .bytes(animation(frames: 4, delayCS: 10)), options: options, clock: clock)
    // It first played 250 ms ago (a grid tile scrolled away and back): frame 2 is due.
    let origin = clock.nowNS - 250_000_000
    p.resumesTimeline = origin
    await settle(p, clock) { p.phase == .playing && p.displayedFrame == 2 }
    #expect(p.timelineStart == origin)
    #expect(p.displayedPixels == pixels(2))
    #expect(p.nextDeadline == origin + 300_000_000, "the deadlines still count from the first start")
  }

  @Test func startingPausedShowsTheFirstFrameOnly() async {
    let clock = ManualClock()
    var options = GIFPlayback.Options()
    options.startsPaused = true
    let p = GIFPlayback(source: .bytes(animation(frames: 3)), options: options, clock: clock)
    await settle(p, clock) { p.phase == .playing }
    #expect(p.displayedFrame == 0 && !p.isAnimating && p.isPaused)
  }

  @Test func theCacheHeadFollowsTheTimelineWhenFramesDoNotFit() async {
    // 64 frames of 4×4 (64 bytes each) in a 4-frame budget: only frames near the head
    // are rendered, so a frame far away shows only once the head has moved there.
    let clock = ManualClock()
    var options = GIFPlayback.Options()
    options.frameBudgetBytes = 4 * 64
    let p = GIFPlayback(source: .bytes(animation(frames: 64)), options: options, clock: clock)
    await settle(p, clock) { p.phase == .playing && p.isLoadComplete }
    for target in [40, 13, 63] {
      p.seek(to: target)
      await settle(p, clock) { p.displayedFrame == target }
      #expect(p.displayedPixels == pixels(target))
    }
  }

  @Test func warningsReachTheObserverOnce() async {
    var bytes = animation(frames: 2)
    bytes.removeLast()  // no trailer: cut short after complete frames
    let clock = ManualClock()
    let p = GIFPlayback(source: .bytes(bytes), clock: clock)
    var heard: [String] = []
    p.onWarning = { heard.append($0) }
    await settle(p, clock) { p.phase == .playing && p.isLoadComplete }
    p.tick(now: clock.nowNS)
    #expect(heard.count == 1 && heard == p.warnings)
  }
}

@Suite("GIFPlayback for a host that keeps the frames (manual clock)")
struct NeedsPixelsTests {
  @Test func withoutPixelsTheShownFrameFollowsTheTimelineAndPixelsComeBackOnRequest() async {
    let clock = ManualClock()
    var options = GIFPlayback.Options()
    options.exactDelays = true
    options.frameBudgetBytes = 2 * 64  // two 4×4 frames: the rest are rendered on demand
    let p = GIFPlayback(source: .bytes(animation(frames: 6, delayCS: 5)), options: options, clock: clock)
    await settle(p, clock) { p.phase == .playing && p.isLoadComplete && p.displayedPixels == pixels(0) }
    p.needsPixels = false
    #expect(p.displayedPixels == nil)
    for k in 1...8 {
      clock.advance(byMS: 50)
      #expect(p.tick(now: clock.nowNS), "frame \(k) is a change to show")
      #expect(p.displayedFrame == k % 6 && p.currentFrame == k % 6)
      #expect(p.displayedPixels == nil, "no pixels are handed out")
    }
    // The host dropped what it kept: the frame on show is rendered again (frame 2, not in
    // the two-frame cache that stayed at frame 0).
    p.needsPixels = true
    await settle(p, clock) { p.displayedPixels != nil }
    #expect(p.displayedFrame == 2 && p.displayedPixels == pixels(2))
  }
}
