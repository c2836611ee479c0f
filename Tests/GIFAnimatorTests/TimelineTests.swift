import GIFAnimator
import GIFTestSupport
import Testing

extension ManualClock: MonotonicClock {}

private let ms: UInt64 = 1_000_000

/// A timeline of `delays` (ms) whose frames have all arrived.
private func timeline(_ delays: [UInt64], plays: Int?, now: UInt64) -> Timeline {
  var t = Timeline(plays: plays)
  for d in delays { t.append(delayNS: d * ms, now: now) }
  t.complete(now: now)
  return t
}

@Suite("Timeline: absolute deadlines (DESIGN §3)")
struct TimelineTests {
  @Test func framesChangeExactlyAtTheirDeadlines() {
    let clock = ManualClock()
    var t = timeline([100, 50, 200], plays: nil, now: clock.nowNS)
    let t0 = clock.nowNS
    t.start(now: t0)
    #expect(t.current == 0)
    #expect(t.nextDeadline == t0 + 100 * ms)
    let changed = t.advance(now: t0 + 100 * ms - 1)
    #expect(!changed)
    #expect(t.current == 0)
    let changedAgain = t.advance(now: t0 + 100 * ms)
    #expect(changedAgain)
    #expect(t.current == 1)
    #expect(t.nextDeadline == t0 + 150 * ms)
    t.advance(now: t0 + 150 * ms)
    #expect(t.current == 2)
    #expect(t.nextDeadline == t0 + 350 * ms)
    t.advance(now: t0 + 350 * ms)
    #expect(t.current == 0, "loops forever")
    #expect(t.playsDone == 1)
    #expect(t.nextDeadline == t0 + 450 * ms)
  }

  @Test func lateWakeUpsDoNotAccumulateDrift() {
    var t = timeline([20], plays: nil, now: 0)
    // One frame repeated: 10 000 ticks, each woken 3 ms late; the schedule never slips.
    var t2 = timeline([20, 20], plays: nil, now: 0)
    let t0: UInt64 = 5_000_000_000
    t.start(now: t0)
    t2.start(now: t0)
    #expect(t.isStill, "a single frame is a still image")
    for k in 1...10_000 {
      let deadline = try! #require(t2.nextDeadline)
      #expect(deadline == t0 + UInt64(k) * 20 * ms, "frame \(k): have \(deadline), want \(t0 + UInt64(k) * 20 * ms)")
      t2.advance(now: deadline + 3 * ms)
      if deadline != t0 + UInt64(k) * 20 * ms { break }
    }
    #expect(t2.current == 10_000 % 2)
  }

  @Test func whenMoreThanAFrameLateItSkipsToTheFrameThatIsDue() {
    var t = timeline([100, 100, 100, 100], plays: nil, now: 0)
    let t0: UInt64 = 1_000 * ms
    t.start(now: t0)
    // 250 ms late: frames 1 and 2 were due at +100 and +200; frame 2 is shown.
    let changed = t.advance(now: t0 + 250 * ms)
    #expect(changed)
    #expect(t.current == 2)
    #expect(t.nextDeadline == t0 + 300 * ms)
  }

  @Test func aLongSuspendSkipsWholePlaysArithmetically() {
    var t = timeline([10, 10], plays: nil, now: 0)
    t.start(now: 0)
    t.advance(now: 3_600_000 * ms + 5 * ms)  // an hour later
    #expect(t.current == 0)
    #expect(t.playsDone == 180_000)
    #expect(t.nextDeadline == 3_600_010 * ms)
  }

  @Test func playsFollowTheLoopCountAndTheLastFrameStays() {
    var t = timeline([100, 100], plays: 2, now: 0)
    t.start(now: 0)
    t.advance(now: 100 * ms)
    t.advance(now: 200 * ms)
    #expect(t.current == 0 && t.playsDone == 1)
    t.advance(now: 300 * ms)
    #expect(t.current == 1)
    t.advance(now: 400 * ms)
    #expect(t.isFinished)
    #expect(t.current == 1, "the last frame stays")
    #expect(t.nextDeadline == nil, "no wake-ups after the end")
    let changed = t.advance(now: 10_000 * ms)
    #expect(!changed)
  }

  @Test func pauseKeepsTheFrameAndResumeGivesAFreshDeadline() {
    var t = timeline([100, 100, 100], plays: nil, now: 0)
    t.start(now: 0)
    t.advance(now: 100 * ms)
    t.pause()
    #expect(t.nextDeadline == nil)
    let changed = t.advance(now: 5_000 * ms)
    #expect(!changed)
    #expect(t.current == 1)
    t.resume(now: 5_000 * ms)
    #expect(t.nextDeadline == 5_100 * ms)
  }

  @Test func stepsPauseAndWrap() {
    var t = timeline([100, 100, 100], plays: nil, now: 0)
    t.start(now: 0)
    t.step(by: -1)
    #expect(t.isPaused && t.current == 2)
    t.step(by: 1)
    #expect(t.current == 0)
    t.seek(to: 2)
    #expect(t.current == 2)
    t.seek(to: 99)
    #expect(t.current == 2)
  }

  @Test func speedScalesDelaysAndRescalesTheTimeLeftMidFrame() {
    var t = timeline([100, 100], plays: nil, now: 0)
    t.start(now: 0)
    // 40 ms into a 100 ms frame at 1x, go 2x: the 60 ms left become 30 ms.
    t.setSpeed(2, now: 40 * ms)
    #expect(t.nextDeadline == 70 * ms)
    t.advance(now: 70 * ms)
    #expect(t.current == 1)
    #expect(t.nextDeadline == 120 * ms, "next frame's 100 ms play as 50 ms")
    t.setSpeed(1, now: 120 * ms - 10 * ms)  // 10 ms left at 2x → 20 ms at 1x
    #expect(t.nextDeadline == 130 * ms)
    t.setSpeed(1000, now: 130 * ms)
    #expect(t.speed == Timeline.maxSpeed)
  }

  @Test func progressivePlayWaitsForTheNextFrameThenGoesOn() {
    var t = Timeline(plays: nil)
    t.append(delayNS: 100 * ms, now: 0)
    t.start(now: 0)
    t.advance(now: 100 * ms)
    #expect(t.isWaiting && t.current == 0)
    #expect(t.nextDeadline == nil, "no timer while waiting for data")
    t.append(delayNS: 50 * ms, now: 180 * ms)
    #expect(t.current == 1)
    #expect(t.nextDeadline == 230 * ms, "the arrived frame shows at once, on a fresh deadline")
    t.advance(now: 230 * ms)
    #expect(t.isWaiting)
    t.complete(now: 300 * ms)
    #expect(t.current == 0 && t.playsDone == 1, "the play ended at the last frame; loops on")
    #expect(t.nextDeadline == 400 * ms)
  }

  @Test func togglingAFinishedAnimationPlaysItAgain() {
    var t = timeline([100, 100], plays: 1, now: 0)
    t.start(now: 0)
    t.advance(now: 200 * ms)
    #expect(t.isFinished)
    t.togglePause(now: 1_000 * ms)
    #expect(!t.isFinished && t.current == 0)
    #expect(t.nextDeadline == 1_100 * ms)
  }
}
