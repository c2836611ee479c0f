import Foundation
import GIFTestSupport
import Testing
import X11Window

private let palette: [UInt8] = [255, 0, 0, 0, 128, 255, 10, 20, 30, 200, 200, 200]

private func still() -> [UInt8] {
  var b = GIFBuilder(width: 8, height: 4, globalPalette: palette)
  b.image(width: 8, height: 4, indices: (0..<32).map { UInt8($0 % 4) }, minimumCodeSize: 2)
  b.trailer()
  return b.bytes
}

@Suite("Visuals (DESIGN §5)", .enabled(if: Xvfb.available), .serialized)
struct VisualTests {
  @Test func trueColorOfDepth24ShowsExactPixels() throws {
    let xvfb = try Xvfb(width: 320, height: 240, depth: 24)
    let v = try Viewer([temporaryFile("depth.gif", still())], on: xvfb)
    #expect(v.waitForPixels((0..<32).map { rgb(palette, $0 % 4) }))
  }

  /// Depth 30: 10-bit channels at masks 3ff00000/000ffc00/000003ff (Xvfb cannot make a
  /// depth-32 default visual; this checks that channel masks are honoured).
  @Test func otherChannelMasksAreHonoured() throws {
    let xvfb = try Xvfb(width: 320, height: 240, depth: 30)
    let v = try Viewer([temporaryFile("depth30.gif", still())], on: xvfb)
    func ten(_ c: UInt8) -> UInt32 { UInt32(c) << 2 | UInt32(c) >> 6 }
    let want = (0..<32).map { i -> UInt32 in
      let k = 3 * (i % 4)
      return ten(palette[k]) << 20 | ten(palette[k + 1]) << 10 | ten(palette[k + 2])
    }
    #expect(eventually { v.probe.rawPixels(v.window)?.pixels == want })
  }

  @Test func otherVisualsAreAClearError() throws {
    let xvfb = try Xvfb(width: 320, height: 240, depth: 16)
    let p = try RunningProcess(
      gifviewBinary, [temporaryFile("d16.gif", still())], environment: ["DISPLAY": xvfb.display])
    #expect(p.wait(timeout: 5) == 1)
    #expect(p.stderr.hasPrefix("gifview: error: unsupported visual (depth 16"), "stderr: \(p.stderr)")
    #expect(p.stderr.split(separator: "\n").count == 1)
    withExtendedLifetime(xvfb) {}
  }
}
