import Foundation
import GIFTestSupport
import Testing
import X11Window

private let palette: [UInt8] = [220, 30, 30, 30, 160, 60, 40, 60, 220, 240, 240, 240]

/// Two 64×48 frames (vertical stripes of index k, k+1 …), 10 cs each, looping; also the
/// byte count up to the end of frame 0's data.
private func twoFrameGIF() -> (bytes: [UInt8], frame0End: Int) {
  var b = GIFBuilder(width: 64, height: 48, globalPalette: palette)
  b.loop(0)
  var frame0End = 0
  for k in 0..<2 {
    b.control(delayCS: 10)
    b.image(width: 64, height: 48, indices: stripes(shift: k), minimumCodeSize: 2)
    if k == 0 { frame0End = b.bytes.count }
  }
  b.trailer()
  return (b.bytes, frame0End)
}

private func stripes(shift: Int) -> [UInt8] { (0..<(64 * 48)).map { UInt8(($0 % 64 / 8 + shift) % 4) } }
private func frame(_ k: Int) -> [UInt32] { stripes(shift: k).map { rgb(palette, Int($0)) } }

/// Pixels outside the bottom-right 32×32 corner (where the small "waiting" spinner goes).
private func outsideCorner(_ p: [UInt32], width: Int = 64, height: Int = 48) -> [UInt32] {
  p.enumerated().filter { i, _ in i % width < width - 32 || i / width < height - 32 }.map(\.element)
}

@Suite("Loading in the window (issue 4)", .enabled(if: Xvfb.available), .serialized)
struct LoaderWindowTests {
  @Test func theSpinnerAnimatesWhileTheServerDelaysThenTheFirstFrameIsExact() throws {
    let gif = twoFrameGIF()
    let gate = ScriptedHTTPServer.Gate()
    let server = try ScriptedHTTPServer { _, _ in
      [.wait(gate), .send(ScriptedHTTPServer.ok(gif.bytes))]
    }
    let v = try Viewer([server.url("/slow.gif"), "--no-fade", "--paused"], on: loaderWindowTestsXvfb)
    #expect(v.size.width == 320 && v.size.height == 240, "loading window is \(v.size)")
    // The spinner: the backdrop at the corners, bright spokes in the middle, moving.
    #expect(
      eventually {
        let p = v.pixels; return p.count == 320 * 240 && p[0] == 0x2A2B2E && p.contains { $0 > 0xA0A0A0 }
      })
    // At least 10 different pictures a second.
    var changes = 0
    var last = v.pixels
    let start = Date()
    while Date().timeIntervalSince(start) < 1 {
      let p = v.pixels
      if p != last { changes += 1 }
      last = p
      usleep(5_000)
    }
    if !skippedUnderSanitizer("the spinner's 10 pictures a second (have \(changes))") {
      #expect(changes >= 10, "the spinner changed \(changes) times in 1 s")
    }
    #expect(changes >= 2, "the spinner changed \(changes) times in 1 s")
    gate.open()
    #expect(v.waitForPixels(frame(0)), "first frame not shown pixel-exact after the body arrived")
  }

  @Test func theFirstFrameCrossFadesInOverTheSpinner() throws {
    let gif = twoFrameGIF()
    let gate = ScriptedHTTPServer.Gate()
    let server = try ScriptedHTTPServer { _, _ in
      // The header and palette first (the window takes the size), the rest once the gate opens.
      [
        .send(ScriptedHTTPServer.header(200, "OK", length: gif.bytes.count) + Array(gif.bytes[0..<25])),
        .wait(gate), .send(Array(gif.bytes[25...])),
      ]
    }
    let v = try Viewer([server.url("/fade.gif"), "--paused"], on: loaderWindowTestsXvfb)
    #expect(
      eventually {
        let p = v.pixels; return p.count == 64 * 48 && p[0] == 0x2A2B2E
      }, "no spinner")
    gate.open()
    // Between the spinner and the frame: pixels that are neither (a blend), for ~150 ms.
    let want = frame(0)
    var blends = 0
    let start = Date()
    while Date().timeIntervalSince(start) < 2 {
      let p = v.pixels
      if p == want { break }
      if p.count == want.count && p[0] != 0x2A2B2E && p[0] != want[0] { blends += 1 }
    }
    // A 150 ms fade drawn by code a sanitizer slows may end before a blend is read back.
    if !skippedUnderSanitizer("a blend seen during the 150 ms fade (have \(blends))") {
      #expect(blends > 0, "no blended picture seen between the spinner and the first frame")
    }
    #expect(v.waitForPixels(want), "the fade did not end on the exact first frame")
  }

  @Test func progressivePlayShowsFrame0BeforeTheBodyEndsThenGoesOn() throws {
    let gif = twoFrameGIF()
    let gate = ScriptedHTTPServer.Gate()
    let server = try ScriptedHTTPServer { _, _ in
      [
        .send(ScriptedHTTPServer.header(200, "OK", length: gif.bytes.count)),
        .send(Array(gif.bytes[0..<gif.frame0End])),
        .wait(gate),
        .send(Array(gif.bytes[gif.frame0End...])),
      ]
    }
    let v = try Viewer([server.url("/progressive.gif"), "--no-fade"], on: loaderWindowTestsXvfb)
    let want0 = outsideCorner(frame(0))
    #expect(eventually { outsideCorner(v.pixels) == want0 }, "frame 0 not shown while the body is unfinished")
    // Waiting for frame 1: the small spinner sits in the corner over frame 0.
    #expect(eventually(timeout: 1) { v.pixels.count == 64 * 48 && v.pixels != frame(0) })
    pause(0.3)
    #expect(outsideCorner(v.pixels) == want0, "playback moved on without frame 1")
    gate.open()
    #expect(eventually(timeout: 3) { v.pixels == frame(1) }, "frame 1 never played after it arrived")
  }

  @Test func aBodyCutShortKeepsTheFramesThatArrivedWithAWarning() throws {
    let gif = twoFrameGIF()
    let server = try ScriptedHTTPServer { _, _ in
      [.send(ScriptedHTTPServer.header(200, "OK", length: gif.bytes.count) + Array(gif.bytes[0..<gif.frame0End]))]
    }
    let url = server.url("/cut.gif")
    let v = try Viewer([url, "--no-fade"], on: loaderWindowTestsXvfb)
    #expect(v.waitForPixels(frame(0)), "frame 0 not shown after the connection closed")
    #expect(
      eventually {
        v.process.stderr
          == "gifview: warning: \(url): connection closed after \(gif.frame0End) of \(gif.bytes.count) bytes\n"
      }, "stderr: \(v.process.stderr)")
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0)
  }

  @Test func a404ShowsTheFailureCardAndClosingExits1() throws {
    let server = try ScriptedHTTPServer { _, _ in
      [.send(ScriptedHTTPServer.header(404, "Not Found", length: 9, type: "text/html") + Array("not here!".utf8))]
    }
    let url = server.url("/missing.gif")
    let v = try Viewer([url], on: loaderWindowTestsXvfb)
    // The card's icon is red (and the error line is drawn under it).
    #expect(eventually { v.pixels.contains(0xD64541) }, "no failure card")
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 1)
    #expect(v.process.stderr == "gifview: error: \(url): HTTP 404 Not Found\n", "stderr: \(v.process.stderr)")
  }

  @Test func rRetriesAndShowsTheGIFOnceTheServerRecovers() throws {
    let gif = twoFrameGIF()
    let server = try ScriptedHTTPServer { _, n in
      n == 0
        ? [.send(ScriptedHTTPServer.header(503, "Service Unavailable", length: 0, type: "text/plain"))]
        : [.send(ScriptedHTTPServer.ok(gif.bytes))]
    }
    let v = try Viewer([server.url("/flaky.gif"), "--no-fade", "--paused"], on: loaderWindowTestsXvfb)
    #expect(eventually { v.pixels.contains(0xD64541) }, "no failure card for the 503")
    v.key(WindowProbe.keyR)
    #expect(v.waitForPixels(frame(0)), "retry did not show the GIF")
    #expect(server.requestCount == 2)
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0, "a successful retry leaves nothing failed")
  }
}
