import Foundation
import GIFTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Memory follows what images cover, not the logical screen: a 16384² screen with one
/// 1x1 image used to take 1 GB for `--check` and 2 GB for `--frames`.
@Suite("gifview memory")
final class MemoryTests {
  let dir: URL

  init() throws {
    dir = FileManager.default.temporaryDirectory.appendingPathComponent("gifview-memory-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: dir) }

  /// Runs `.build/debug/gifview` with `arguments` (output to /dev/null); answers its exit
  /// status and peak resident set in KiB. The child is forked by a small Python parent and
  /// its ru_maxrss read from wait4 there: a child spawned straight from this (large) test
  /// process would inherit the test process's high-water mark at exec (posix_spawn shares
  /// the parent's memory until then), and report that instead of its own.
  func peakRSS(_ arguments: [String]) throws -> (status: Int32, kib: Int) {
    let binary = CLITests.binary.path
    guard FileManager.default.isExecutableFile(atPath: binary) else { throw CLITests.BinaryMissing() }
    let script = """
      import os, sys
      pid = os.fork()
      if pid == 0:
          fd = os.open("/dev/null", os.O_WRONLY)
          os.dup2(fd, 1); os.dup2(fd, 2)
          os.execv(sys.argv[1], sys.argv[1:])
      _, status, usage = os.wait4(pid, 0)
      print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
      """
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3", "-c", script, binary] + arguments
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    let fields = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    #expect(fields.count == 2, "wrapper said: \(text)")
    return (Int32(fields.first ?? -1), fields.last ?? Int.max)
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
    let run = try peakRSS(["--check", path])
    #expect(run.status == 0)
    #expect(run.kib < 100 << 10, "peak RSS \(run.kib) KiB, want < 100 MiB (the screen is 1 GiB of RGBA)")
  }

  @Test func framesOfAMostlyEmptyScreenStaySmallAndExact() throws {
    // 4096²: a 64 MiB PAM, written as zeros around the one pixel.
    let path = try bigScreen(4096)
    let out = dir.appendingPathComponent("frames").path
    let run = try peakRSS(["--frames", out, path])
    #expect(run.status == 0)
    #expect(run.kib < 48 << 10, "peak RSS \(run.kib) KiB, want < 48 MiB (a frame is 64 MiB)")
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
