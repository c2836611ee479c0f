import Foundation
import GIFTestSupport
import Testing
import X11Window

private let palette: [UInt8] = [255, 0, 0, 0, 200, 0, 0, 0, 255, 250, 250, 250]

/// A w×h still image filled with palette index `index` except a one-pixel border of 3.
private func framed(_ w: Int, _ h: Int, index: UInt8) -> [UInt8] {
  var b = GIFBuilder(width: w, height: h, globalPalette: palette)
  let indices = (0..<(w * h)).map { i -> UInt8 in
    let x = i % w
    let y = i / w
    return x == 0 || y == 0 || x == w - 1 || y == h - 1 ? 3 : index
  }
  b.image(width: w, height: h, indices: indices, minimumCodeSize: 2)
  b.trailer()
  return b.bytes
}

/// Two solid frames, 10 cs each, looping.
private func blinking() -> [UInt8] {
  var b = GIFBuilder(width: 8, height: 8, globalPalette: palette)
  b.loop(0)
  for k in 0..<2 {
    b.control(delayCS: 10)
    b.image(width: 8, height: 8, indices: [UInt8](repeating: UInt8(k), count: 64), minimumCodeSize: 2)
  }
  b.trailer()
  return b.bytes
}

@Suite("Keys and mouse (DESIGN §5)", .enabled(if: Xvfb.available), .serialized)
struct CommandTests {
  @Test func nAndPSwitchBetweenSources() throws {
    let a = temporaryFile("first.gif", framed(16, 8, index: 0))
    let b = temporaryFile("second.gif", framed(16, 8, index: 2))
    let v = try Viewer([a, b], on: commandTestsXvfb)
    #expect(eventually { v.pixels.count == 128 && v.pixels[8 * 4 + 4] == rgb(palette, 0) })
    #expect(v.probe.string(v.window, "_NET_WM_NAME") == "first.gif (1/2) — gifview")
    v.key(WindowProbe.keyN)
    #expect(eventually { v.pixels.count == 128 && v.pixels[8 * 4 + 4] == rgb(palette, 2) }, "n did not show the second")
    #expect(eventually { v.probe.string(v.window, "_NET_WM_NAME") == "second.gif (2/2) — gifview" })
    v.key(WindowProbe.keyP)
    #expect(eventually { v.pixels.count == 128 && v.pixels[8 * 4 + 4] == rgb(palette, 0) }, "p did not go back")
  }

  @Test func theWindowTitleOfAURLShowsNoCredentials() throws {
    let gif = framed(16, 8, index: 0)
    let server = try ScriptedHTTPServer { _, _ in [.send(ScriptedHTTPServer.ok(gif))] }
    let token = "http://ghp_t0ken@127.0.0.1:\(server.port)/a.gif"
    let password = "http://bob:hunter2@127.0.0.1:\(server.port)/b.gif"
    let v = try Viewer(["--no-cache", token, password], on: commandTestsXvfb)
    #expect(eventually { v.pixels.count == 128 && v.pixels[8 * 4 + 4] == rgb(palette, 0) })
    let first = v.probe.string(v.window, "_NET_WM_NAME")
    #expect(first == "http://***@127.0.0.1:\(server.port)/a.gif (1/2) — gifview", "have \(first ?? "nil")")
    #expect(v.probe.string(v.window, "WM_NAME")?.contains("ghp_t0ken") == false)
    v.key(WindowProbe.keyN)
    #expect(
      eventually {
        v.probe.string(v.window, "_NET_WM_NAME") == "http://bob:***@127.0.0.1:\(server.port)/b.gif (2/2) — gifview"
      }
    )
  }

  @Test func aMissingLaterSourceIsReportedAtOnceAndFailsTheExitStatus() throws {
    let v = try Viewer(
      [temporaryFile("shown.gif", framed(16, 8, index: 0)), "/nonexistent/later.gif"], on: commandTestsXvfb)
    #expect(eventually { v.process.stderr == "gifview: error: /nonexistent/later.gif: No such file or directory\n" })
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 1)
  }

  @Test func zeroShowsActualSizeAndWFitsAgain() throws {
    let v = try Viewer(
      [
        temporaryFile("zoom.gif", framed(20, 10, index: 1)), "--geometry", "80x40", "--background", "#000000",
      ], on: commandTestsXvfb)
    // fit: ×4, the border pixel (index 3) covers the window's corner.
    #expect(
      eventually {
        let p = v.pixels; return p.count == 3200 && p[0] == rgb(palette, 3)
      })
    v.key(WindowProbe.key0)
    // 1:1, centred: the image spans x 30..<50, y 15..<25; the corner is the background.
    #expect(
      eventually {
        let p = v.pixels; return p[0] == 0 && p[15 * 80 + 30] == rgb(palette, 3) && p[16 * 80 + 31] == rgb(palette, 1)
      })
    v.key(WindowProbe.keyW)
    #expect(eventually { v.pixels[0] == rgb(palette, 3) }, "w did not fit again")
    // The wheel zooms in at the pointer (here the centre): the corner then shows the image's inside.
    v.probe.sendButton(v.window, button: 4, x: 40, y: 20)
    #expect(eventually { v.pixels[0] == rgb(palette, 1) }, "wheel up did not zoom in")
  }

  @Test func bTogglesCheckerAndSolidBackground() throws {
    var b = GIFBuilder(width: 16, height: 16, globalPalette: palette)
    b.control(transparent: 0)
    b.image(width: 16, height: 16, indices: [UInt8](repeating: 0, count: 256), minimumCodeSize: 2)
    b.trailer()
    let v = try Viewer([temporaryFile("transparent.gif", b.bytes), "--background", "#102030"], on: commandTestsXvfb)
    #expect(eventually { v.pixels.count == 256 && v.pixels.allSatisfy { $0 == 0x102030 } })
    v.key(WindowProbe.keyB)
    // The checker: two greys in 8-pixel squares.
    #expect(
      eventually {
        let p = v.pixels; return p.count == 256 && p[0] == 0xE6E6E6 && p[8] == 0xBFBFBF && p[8 * 16] == 0xBFBFBF
      })
    v.key(WindowProbe.keyB)
    #expect(eventually { v.pixels.allSatisfy { $0 == 0x102030 } })
  }

  @Test func leftClickPausesAndResumes() throws {
    let v = try Viewer([temporaryFile("click.gif", blinking())], on: commandTestsXvfb)
    #expect(eventually { v.pixels.count == 64 })
    v.probe.sendButton(v.window, button: 1)
    pause(0.15)
    let paused = v.pixels
    pause(0.35)
    let still = v.pixels == paused
    #expect(still, "changed while paused by a click")
    v.probe.sendButton(v.window, button: 1)
    #expect(eventually(timeout: 2) { v.pixels != paused }, "a second click did not resume")
  }

  @Test func fFillsTheScreenWithoutAWindowManager() throws {
    let v = try Viewer([temporaryFile("full.gif", framed(16, 8, index: 0))], on: commandTestsXvfb)
    #expect(eventually { v.size.width == 16 })
    v.key(WindowProbe.keyF)
    #expect(eventually { v.size.width == 1280 && v.size.height == 1024 }, "size \(v.size)")
    v.key(WindowProbe.keyF)
    #expect(eventually { v.size.width == 16 && v.size.height == 8 }, "size \(v.size)")
  }

  @Test func iShowsTheInfoOverlay() throws {
    let v = try Viewer([temporaryFile("info.gif", framed(200, 100, index: 1))], on: commandTestsXvfb)
    #expect(eventually { v.pixels.count == 20_000 && v.pixels[50 * 200 + 100] == rgb(palette, 1) })
    v.key(WindowProbe.keyI)
    // The overlay's dark box sits at the top left.
    #expect(eventually { v.pixels[12 * 200 + 12] == 0x18181C })
    v.key(WindowProbe.keyI)
    #expect(eventually { v.pixels[12 * 200 + 12] == rgb(palette, 1) })
  }
}

@Suite("Sources that read once", .enabled(if: Xvfb.available), .serialized)
struct StreamSourceTests {
  private static func solid(_ index: UInt8) -> [UInt8] {
    var b = GIFBuilder(width: 12, height: 6, globalPalette: [255, 0, 0, 0, 0, 255])
    b.image(width: 12, height: 6, indices: [UInt8](repeating: index, count: 72), minimumCodeSize: 2)
    b.trailer()
    return b.bytes
  }

  @Test func stdinIsReplayedOnReloadAndWhenComingBackToIt() throws {
    guard let xvfb = streamTestsXvfb else { throw XvfbError.message("no Xvfb") }
    let other = temporaryFile("other.gif", Self.solid(1))
    let p = try RunningProcess(
      gifviewBinary, ["--no-fade", "-", other], environment: ["DISPLAY": xvfb.display], stdin: Data(Self.solid(0)))
    let probe = try WindowProbe(display: xvfb.display)
    let w = try #require(probe.waitForWindow(pid: p.process.processIdentifier, timeoutMS: scaledMS(5000)))
    let red = [UInt32](repeating: 0xFF0000, count: 72)
    #expect(eventually { probe.pixels(w)?.pixels == red })
    probe.sendKey(w, keysym: WindowProbe.keyR)
    pause(0.2)
    #expect(eventually { probe.pixels(w)?.pixels == red }, "reload lost stdin")
    probe.sendKey(w, keysym: WindowProbe.keyN)
    #expect(eventually { probe.pixels(w)?.pixels == [UInt32](repeating: 0x0000FF, count: 72) })
    probe.sendKey(w, keysym: WindowProbe.keyP)
    #expect(eventually { probe.pixels(w)?.pixels == red }, "coming back to stdin lost it")
    probe.sendKey(w, keysym: WindowProbe.keyQ)
    #expect(p.wait(timeout: 3) == 0, "stderr: \(p.stderr)")
  }

  @Test func aFIFOIsReadByTheLoaderAloneAndTheWindowAppearsAtOnce() throws {
    guard let xvfb = streamTestsXvfb else { throw XvfbError.message("no Xvfb") }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gifview-fifo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let fifo = dir.appendingPathComponent("stream.gif").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let p = try RunningProcess(gifviewBinary, ["--no-fade", fifo], environment: ["DISPLAY": xvfb.display])
    let probe = try WindowProbe(display: xvfb.display)
    // No writer yet: the window must still map (the UI thread does not open the FIFO).
    let w = try #require(probe.waitForWindow(pid: p.process.processIdentifier, timeoutMS: scaledMS(5000)))
    let writer = FileHandle(forWritingAtPath: fifo)
    writer?.write(Data(Self.solid(1)))
    try? writer?.close()
    #expect(eventually { probe.pixels(w)?.pixels == [UInt32](repeating: 0x0000FF, count: 72) }, "stderr: \(p.stderr)")
    probe.sendKey(w, keysym: WindowProbe.keyQ)
    #expect(p.wait(timeout: 3) == 0)
  }
}
