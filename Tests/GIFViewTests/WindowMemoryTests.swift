import Foundation
import GIFTestSupport
import Testing

extension WindowTests {
  /// A 16384² screen is 1 GiB of RGBA; with two small images the window needs what they
  /// cover, not the screen (it took 1.3 GB).
  @Test func aHugeMostlyEmptyScreenPlaysInLittleMemory() throws {
    var b = GIFBuilder(width: 16384, height: 16384, globalPalette: [255, 0, 0, 0, 200, 0])
    b.loop(0)
    b.control(delayCS: 5)
    b.image(x: 3, y: 2, width: 1, height: 1, indices: [0], minimumCodeSize: 2)
    b.control(delayCS: 5)
    b.image(x: 8, y: 8, width: 2, height: 2, indices: [1, 1, 1, 1], minimumCodeSize: 2)
    b.trailer()
    let path = temporaryFile("huge-screen.gif", b.bytes)
    let v = try Viewer([path, "--background", "#123456"])
    // Fitted into the screen, each window pixel averages a box of ~18² screen pixels:
    // the images tint the top-left one; the rest is the background.
    #expect(v.size.width <= 1280 && v.size.height <= 1024)
    #expect(
      eventually {
        let p = v.pixels
        return p.count > 1 && p[0] != 0x123456 && p.dropFirst().allSatisfy { $0 == 0x123456 }
      })
    // Some frames later, both images have been rendered more than once.
    Thread.sleep(forTimeInterval: 0.3)
    if skippedUnderSanitizer("peak RSS of a huge mostly empty screen") { return }
    let peak = try #require(peakResidentKiB(pid: v.process.process.processIdentifier))
    #expect(peak < 160 << 10, "peak RSS \(peak >> 10) MiB")
  }
}
