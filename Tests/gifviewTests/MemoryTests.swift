import Foundation
import GIFTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Memory follows what images cover, not the logical screen: a 16384² screen with one
/// 1x1 image used to take 1 GB for `--check` and 2 GB for `--frames`.
///
/// Skipped under a sanitizer: its shadow memory is a reservation of terabytes of address
/// space, which no `prlimit --as` can hold (the sanitized gifview could not even start).
@Suite(
  "gifview memory",
  .disabled(if: testSanitizer != nil, "SKIPPED (sanitizer): prlimit --as cannot hold a sanitizer's shadow memory"))
final class MemoryTests {
  let dir: URL

  init() throws {
    dir = FileManager.default.temporaryDirectory.appendingPathComponent("gifview-memory-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: dir) }

  /// Runs `.build/debug/gifview` with `arguments` (output to /dev/null) under an address
  /// space limit of `limitMiB` (`prlimit --as`), so a canvas for the whole screen cannot
  /// be allocated; answers the exit status. (A spawned child's ru_maxrss would count the
  /// test runner's own pages, shared until exec.)
  func run(_ arguments: [String], limitMiB: Int) throws -> Int32 {
    let binary = CLITests.binary.path
    guard FileManager.default.isExecutableFile(atPath: binary) else { throw CLITests.BinaryMissing() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
    process.arguments = ["--as=\(limitMiB << 20)", "--", binary] + arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// A screen of `side`² without a colour table and one 1x1 image at (3, 2).
  func bigScreen(_ side: Int) throws -> String {
    var b = GIFBuilder(width: side, height: side)
    b.image(x: 3, y: 2, width: 1, height: 1, indices: [1], minimumCodeSize: 2)
    b.trailer()
    let path = dir.appendingPathComponent("screen-\(side).gif").path
    try Data(b.bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func checkOfAHugeMostlyEmptyScreenStaysSmall() throws {
    let path = try bigScreen(16384)
    // The screen is 1 GiB of RGBA.
    #expect(try run(["--check", path], limitMiB: 256) == 0)
  }

  @Test func framesOfAMostlyEmptyScreenStaySmallAndExact() throws {
    // 4096²: a 64 MiB PAM (a canvas and a frame's bytes were 128 MiB), written as zeros
    // around the one pixel.
    let path = try bigScreen(4096)
    let out = dir.appendingPathComponent("frames").path
    #expect(try run(["--frames", out, path], limitMiB: 96) == 0)
    let pam = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out + "/frame-0000.pam")))
    let header = Array("P7\nWIDTH 4096\nHEIGHT 4096\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
    #expect(pam.count == header.count + 4096 * 4096 * 4)
    #expect(Array(pam.prefix(header.count)) == header)
    let pixel = header.count + (2 * 4096 + 3) * 4
    #expect(Array(pam[pixel..<(pixel + 4)]) == [0, 0, 0, 255], "the image's pixel: opaque black")
    // Every other byte is zero: compared with zeros a piece at a time (memcmp, so a
    // debug build is quick about 64 MiB).
    let zeros = [UInt8](repeating: 0, count: 1 << 20)
    var nonZero = 0
    pam.withUnsafeBytes { raw in
      zeros.withUnsafeBytes { z in
        var i = header.count
        while i < raw.count {
          let n = min(z.count, (i < pixel ? pixel : raw.count) - i)
          if n > 0 && memcmp(raw.baseAddress! + i, z.baseAddress!, n) != 0 { nonZero += 1 }
          i += max(n, 0)
          if i == pixel { i += 4 }
        }
      }
    }
    let others = nonZero
    #expect(others == 0, "every other pixel is 0,0,0,0")
  }
}
