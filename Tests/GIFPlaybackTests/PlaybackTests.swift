import Foundation
import GIFAnimator
import GIFDecoder
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

@Suite("GIFPlayback whose host keeps each frame it shows (manual clock)")
struct HostKeepsTests {
  @Test func aFrameTheHostKeepsIsHeldOnceAndOnlyAFewAreRenderedAhead() async throws {
    // 12 frames of 1024² (4 MiB each): all fit the 64 MiB budget, but a host that keeps
    // frames gets 4 rendered ahead (4 MiB of frames, at least 4).
    let side = 1024
    var b = GIFBuilder(width: side, height: side, globalPalette: palette)
    b.loop(0)
    for k in 0..<12 {
      b.control(delayCS: 5)
      b.image(
        width: side, height: side, indices: [UInt8](repeating: UInt8(k % 4), count: side * side), minimumCodeSize: 2)
    }
    b.trailer()
    func shows(_ k: Int) -> Bool {
      p.displayedImage?.pixels.count == side * side && p.displayedImage?.pixels.first == pixels(k)[0]
    }
    let clock = ManualClock()
    var options = GIFPlayback.Options()
    options.exactDelays = true
    let p = GIFPlayback(source: .bytes(b.bytes), options: options, clock: clock)
    p.hostKeepsFrames = true
    await settle(p, clock) { p.phase == .playing && p.isLoadComplete && shows(0) }
    await settle(p, clock) { p.cachedFrameCount == 4 }
    p.hostKeeps(frame: 0)
    #expect(p.cachedFrameCount == 3, "the cache let go of the frame the host keeps")
    #expect(shows(0), "the frame on show stays until the next")
    for k in 1..<12 {
      clock.advance(byMS: 50)
      await settle(p, clock) { p.displayedFrame == k && shows(k) }
      p.hostKeeps(frame: k)
      #expect(p.cachedFrameCount <= 4, "frame \(k): \(p.cachedFrameCount) frames held")
    }
    // The second loop: every frame is the host's, none is rendered or handed out.
    for k in 0..<12 {
      clock.advance(byMS: 50)
      #expect(p.tick(now: clock.nowNS))
      #expect(p.displayedFrame == k && p.displayedImage == nil, "frame \(k)")
    }
    #expect(p.cachedFrameCount == 0)
    // The host dropped its pictures (a resize): the frame on show is rendered again.
    p.hostDroppedFrames()
    await settle(p, clock) { p.displayedImage != nil }
    #expect(p.displayedFrame == 11 && shows(11))
  }

  @Test func aHugeScreenWithOneSmallImageCostsTheImage() async throws {
    // 16384² of RGBA is 1 GiB; the frames hold only what the images drew on.
    var b = GIFBuilder(width: 16384, height: 16384, globalPalette: palette)
    b.loop(0)
    b.control(delayCS: 5)
    b.image(x: 3, y: 2, width: 1, height: 1, indices: [1], minimumCodeSize: 2)
    b.control(delayCS: 5)
    b.image(x: 10, y: 20, width: 2, height: 2, indices: [2, 2, 2, 2], minimumCodeSize: 2)
    b.trailer()
    let clock = ManualClock()
    let p = GIFPlayback(source: .bytes(b.bytes), clock: clock)
    await settle(p, clock) { p.phase == .playing && p.isLoadComplete && p.displayedImage != nil }
    let first = try #require(p.displayedImage)
    #expect(first.area == Rect(x0: 3, y0: 2, x1: 4, y1: 3))
    #expect(first.pixels == [0xFF00_FF00])
    clock.advance(byMS: 50)
    await settle(p, clock) { p.displayedFrame == 1 && p.displayedImage != nil }
    let second = try #require(p.displayedImage)
    #expect(second.area == Rect(x0: 3, y0: 2, x1: 12, y1: 22), "the area grew to hold both images")
    #expect(second.pixel(x: 3, y: 2) == 0xFF00_FF00 && second.pixel(x: 11, y: 21) == 0xFF00_00FF)
    #expect(second.pixel(x: 4, y: 2) == 0 && second.pixel(x: 9000, y: 9000) == 0)
    #expect(p.cachedFrameBytes < 4096)
  }
}

/// DESIGN §1: a source that can be read again (a local file, a download in the disk
/// cache) is read again by offset when a frame is rendered, so its frames hold no
/// compressed data; a source that cannot (bytes in memory, a download without the cache)
/// keeps it.
@Suite("GIFPlayback reading frames again from their source (manual clock)")
struct RereadPlaybackTests {
  /// 64 frames in a 4-frame budget: seeking back and forth makes the cache render frames
  /// again, from the first one, each time reading their data again.
  private func options() -> GIFPlayback.Options {
    var options = GIFPlayback.Options()
    options.frameBudgetBytes = 4 * 64
    return options
  }

  private func expectSeeksShowTheRightFrames(_ p: GIFPlayback, _ clock: ManualClock) async {
    for target in [40, 13, 63, 2, 50] {
      p.seek(to: target)
      await settle(p, clock) { p.displayedFrame == target }
      #expect(p.displayedPixels == pixels(target), "frame \(target)")
    }
  }

  @Test func aLocalFileIsReadAgainAndItsFramesHoldNoData() async throws {
    let path = temporaryPath("reread.gif")
    try Data(animation(frames: 64)).write(to: URL(fileURLWithPath: path))
    let clock = ManualClock()
    let p = GIFPlayback(source: .path(path), options: options(), clock: clock)
    await settle(p, clock) { p.phase == .playing && p.isLoadComplete }
    #expect(p.frameCount == 64)
    #expect(p.retainedImageDataBytes == 0, "have \(p.retainedImageDataBytes) bytes of compressed data")
    await expectSeeksShowTheRightFrames(p, clock)
    #expect(p.warnings.isEmpty, "have \(p.warnings)")
  }

  @Test func bytesInMemoryKeepTheirData() async throws {
    let clock = ManualClock()
    let p = GIFPlayback(source: .bytes(animation(frames: 64)), options: options(), clock: clock)
    await settle(p, clock) { p.phase == .playing && p.isLoadComplete }
    #expect(p.retainedImageDataBytes > 64, "have \(p.retainedImageDataBytes)")
    await expectSeeksShowTheRightFrames(p, clock)
  }

  @Test func aFileCutShortAfterItWasParsedShowsWhatIsLeftAndWarns() async throws {
    let path = temporaryPath("shrinks.gif")
    let bytes = animation(frames: 64)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let clock = ManualClock()
    let p = GIFPlayback(source: .path(path), options: options(), clock: clock)
    await settle(p, clock) { p.phase == .playing && p.isLoadComplete }
    #expect(truncate(path, off_t(bytes.count / 2)) == 0)
    // Frames of the first half are read again intact; the ones past the cut draw
    // nothing of their own (a frame of this file covers the canvas: the last intact one stays).
    p.seek(to: 5)
    await settle(p, clock) { p.displayedFrame == 5 }
    #expect(p.displayedPixels == pixels(5))
    p.seek(to: 60)
    await settle(p, clock) { p.displayedFrame == 60 }
    #expect(p.displayedPixels != nil)
    await settle(p, clock) { p.warnings.contains { $0.contains("truncated") } }
    #expect(p.phase == .playing)
  }

  @Test func aCachedDownloadPlaysReadAgainFromTheCache() async throws {
    let gif = animation(frames: 64)
    // Fresh for an hour: the second playback is a cache hit, with no request.
    let response =
      Array(
        ("HTTP/1.1 200 OK\r\nContent-Type: image/gif\r\nCache-Control: max-age=3600\r\n"
          + "Content-Length: \(gif.count)\r\nConnection: close\r\n\r\n").utf8) + gif
    let server = try ScriptedHTTPServer { _, _ in [.send(response)] }
    var options = options()
    options.usesDiskCache = true
    let cache = temporaryPath("cache")
    options.load.cacheDirectory = cache
    for play in ["download", "cache hit"] {
      let clock = ManualClock()
      let p = GIFPlayback(source: try .url(server.url("/anim.gif")), options: options, clock: clock)
      await settle(p, clock) { p.phase == .playing && p.isLoadComplete }
      #expect(p.retainedImageDataBytes == 0, "\(play): have \(p.retainedImageDataBytes) bytes of compressed data")
      await expectSeeksShowTheRightFrames(p, clock)
      // The entry is stored once the transfer ends, just after the last frame was parsed.
      await settle(p, clock) {
        ((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []).contains { $0.hasSuffix(".meta") }
      }
    }
    #expect(server.requestCount == 1, "the second playback read the cache")
    options.usesDiskCache = false
    let clock = ManualClock()
    let p = GIFPlayback(source: try .url(server.url("/anim.gif")), options: options, clock: clock)
    await settle(p, clock) { p.phase == .playing && p.isLoadComplete }
    #expect(p.retainedImageDataBytes > 64, "without the cache a download is kept in memory")
  }
}
