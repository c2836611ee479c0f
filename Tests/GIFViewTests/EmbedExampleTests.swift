import Foundation
import GIFTestSupport
import Testing
import X11Window

/// The library example (DESIGN §7), built by `make test` beside gifview.
private let embedExampleBinary = URL(fileURLWithPath: gifviewBinary).deletingLastPathComponent()
  .appendingPathComponent("gifview-embed-example").path

/// A w×h GIF of one colour (palette index 0 = `rgb`), two frames so it animates.
private func solid(_ w: Int, _ h: Int, _ rgb: [UInt8]) -> [UInt8] {
  var b = GIFBuilder(width: w, height: h, globalPalette: rgb + [0, 0, 0])
  b.loop(0)
  for _ in 0..<2 {
    b.control(delayCS: 10)
    b.image(width: w, height: h, indices: [UInt8](repeating: 0, count: w * h), minimumCodeSize: 2)
  }
  b.trailer()
  return b.bytes
}

@Suite("The embedding example (DESIGN §7)", .enabled(if: Xvfb.available))
struct EmbedExampleTests {
  @Test func twoViewsPlaySideBySideAtOneToOneInTheHostsWindow() throws {
    let xvfb = try Xvfb(width: 640, height: 480)
    defer { xvfb.stop() }
    try check(on: xvfb)  // the probe's connection closes before the server stops
  }

  private func check(on xvfb: Xvfb) throws {
    let a = temporaryFile("a.gif", solid(16, 8, [200, 20, 30]))
    let b = temporaryFile("b.gif", solid(24, 12, [10, 40, 220]))
    let p = try RunningProcess(embedExampleBinary, [a, b], environment: ["DISPLAY": xvfb.display])
    defer { if p.process.isRunning { p.process.terminate() } }
    let probe = try WindowProbe(display: xvfb.display)
    let w = try #require(
      probe.waitForWindow(withClass: "gifview-embed-example", timeoutMS: scaledMS(5000)), "stderr: \(p.stderr)")
    #expect(probe.wmClass(w)! == ("gifview-embed-example", "gifview-embed-example"))
    #expect(probe.size(w) == (40, 12), "client size wA + wB × max(hA, hB)")
    // A at (0, 0), B at (16, 0), both 1:1; below A the host's own (black) background.
    var want = [UInt32](repeating: 0, count: 40 * 12)
    for y in 0..<12 {
      for x in 0..<40 {
        if x < 16 && y < 8 { want[y * 40 + x] = 0xC8141E }
        if x >= 16 { want[y * 40 + x] = 0x0A28DC }
      }
    }
    #expect(eventually { probe.pixels(w)?.pixels == want }, "stderr: \(p.stderr)")
    probe.sendDelete(w)
    #expect(p.wait(timeout: 5) == 0)
    #expect(p.stderr.isEmpty, "the library writes nothing: \(p.stderr)")
  }
}
