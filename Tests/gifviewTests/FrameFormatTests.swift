import Foundation
import GIFTestSupport
import PNGCodec
import Testing

extension CLITests {
  // MARK: --frames --format png

  @Test func framesAsPNGHoldExactlyThePixelsOfThePAMFiles() throws {
    let path = try write("two.gif", Self.twoFrames)
    let pam = dir.appendingPathComponent("pam")
    let png = dir.appendingPathComponent("png")
    let a = try gifview(["--frames", pam.path, "--format", "pam", path])
    let b = try gifview(["--frames", png.path, "--format=png", path])
    #expect(a.status == 0 && b.status == 0 && a.stderr.isEmpty && b.stderr.isEmpty, "\(a.stderr) \(b.stderr)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: png.path).sorted() == ["frame-0000.png", "frame-0001.png"])
    let header = Self.pam("", width: 3, height: 2).count  // the PAM header alone
    for n in ["0000", "0001"] {
      let pamBytes = try [UInt8](Data(contentsOf: pam.appendingPathComponent("frame-\(n).pam")))
      let pngBytes = try [UInt8](Data(contentsOf: png.appendingPathComponent("frame-\(n).png")))
      let image = try PNG.decode(pngBytes)
      #expect(image.width == 3 && image.height == 2)
      #expect(image.rgba == Array(pamBytes.dropFirst(header)), "frame \(n)")
      #expect(decodePNGWithPython(pngBytes)?.rgba == image.rgba, "frame \(n), read without libpng")
    }
    // The default stays PAM (DESIGN §4).
    let c = try gifview(["--frames", dir.appendingPathComponent("default").path, path])
    #expect(c.status == 0)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("default").path).sorted() == [
        "frame-0000.pam", "frame-0001.pam",
      ])
  }

  @Test func aBadFormatOrAFormatWithoutFramesIsAUsageError() throws {
    let path = try write("two.gif", Self.twoFrames)
    let bad = try gifview(["--frames", dir.path + "/x", "--format", "gif", path])
    #expect(bad.status == 2)
    #expect(bad.stderr == "gifview: error: bad format 'gif' (want png or pam) (see gifview --help)\n", "\(bad.stderr)")
    let alone = try gifview(["--info", "--format", "png", path])
    #expect(alone.status == 2)
    #expect(alone.stderr == "gifview: error: option '--format' goes with --frames (see gifview --help)\n")
  }
}
