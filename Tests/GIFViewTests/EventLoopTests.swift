import Foundation
import GIFTestSupport
import Testing
import X11Window

private func twoFrames(delayCS: Int) -> [UInt8] {
  var b = GIFBuilder(width: 16, height: 16, globalPalette: [255, 0, 0, 0, 0, 255])
  b.loop(0)
  for k in 0..<2 {
    b.control(delayCS: delayCS)
    b.image(width: 16, height: 16, indices: [UInt8](repeating: UInt8(k), count: 256), minimumCodeSize: 2)
  }
  b.trailer()
  return b.bytes
}

@Suite("Event loop (DESIGN §1)", .enabled(if: Xvfb.available), .serialized)
struct EventLoopTests {
  /// Wake-ups of the UI thread over `seconds`.
  private func wakeUps(of v: Viewer, over seconds: Double) throws -> Int {
    let pid = v.process.process.processIdentifier
    pause(0.2)  // let start-up work settle
    let before = contextSwitches(pid: pid)
    usleep(UInt32(seconds * 1_000_000))
    let after = contextSwitches(pid: pid)
    let a = try #require(before)
    let b = try #require(after)
    return b - a
  }

  @Test func aPausedAnimationNeverWakesUp() throws {
    let v = try Viewer([temporaryFile("paused.gif", twoFrames(delayCS: 2)), "--paused"], on: eventLoopTestsXvfb)
    let n = try wakeUps(of: v, over: 1)
    #expect(n <= 1, "\(n) wake-ups in 1 s while paused")
  }

  @Test func aStillImageNeverWakesUp() throws {
    var b = GIFBuilder(width: 8, height: 8, globalPalette: [1, 2, 3, 4, 5, 6])
    b.image(width: 8, height: 8, indices: [UInt8](repeating: 0, count: 64), minimumCodeSize: 2)
    b.trailer()
    let v = try Viewer([temporaryFile("still.gif", b.bytes)], on: eventLoopTestsXvfb)
    let n = try wakeUps(of: v, over: 1)
    #expect(n <= 1, "\(n) wake-ups in 1 s on a still image")
  }

  @Test func playingWakesAboutOncePerFrame() throws {
    // 10 frames a second: no busy waiting.
    let v = try Viewer([temporaryFile("ten.gif", twoFrames(delayCS: 10))], on: eventLoopTestsXvfb)
    let n = try wakeUps(of: v, over: 1)
    #expect(n >= 5 && n <= 40, "\(n) wake-ups in 1 s at 10 fps")
  }

  @Test func losingTheXServerIsAOneLineErrorAndExit1() throws {
    let xvfb = try Xvfb(width: 320, height: 240)
    let p = try RunningProcess(
      gifviewBinary, [temporaryFile("lost.gif", twoFrames(delayCS: 5))], environment: ["DISPLAY": xvfb.display])
    var probe: WindowProbe? = try WindowProbe(display: xvfb.display)
    #expect(probe?.waitForWindow(pid: p.process.processIdentifier, timeoutMS: scaledMS(5000)) != nil)
    probe = nil  // the probe's own connection must not outlive the server
    xvfb.stop()
    #expect(p.wait(timeout: 5) == 1)
    #expect(p.stderr == "gifview: error: lost connection to the X server\n", "stderr: \(p.stderr)")
  }

  @Test func noDisplayIsAOneLineError() throws {
    let p = try RunningProcess(
      gifviewBinary, [temporaryFile("nodisplay.gif", twoFrames(delayCS: 5))], environment: ["DISPLAY": ":9999"])
    #expect(p.wait(timeout: 5) == 1)
    #expect(p.stderr == "gifview: error: cannot open display ':9999'\n", "stderr: \(p.stderr)")
  }
}
