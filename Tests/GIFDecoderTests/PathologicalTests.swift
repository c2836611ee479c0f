import GIFDecoder
import GIFTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Inputs shaped to make a careless parser quadratic: the work must stay linear.
@Suite("Pathological framing")
struct PathologicalTests {
  private static func cpuSeconds(_ body: () -> Void) -> Double {
    var a = timespec()
    var b = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a)
    body()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b)
    return Double(b.tv_sec - a.tv_sec) + Double(b.tv_nsec - a.tv_nsec) / 1e9
  }

  @Test func oneByteSubBlocksFedInSmallChunksStayLinear() throws {
    var b = GIFBuilder(width: 300, height: 300, globalPalette: [0, 0, 0, 255, 255, 255])
    // A comment of 100 000 one-byte sub-blocks, then an image whose 90 000 pixels of
    // LZW data come in one-byte sub-blocks too.
    b.raw([0x21, 0xFE] + [UInt8]((0..<100_000).flatMap { _ in [1, 0x41] }) + [0])
    b.imageDescriptor(width: 300, height: 300)
    let data = GIFBuilder.lzw((0..<90_000).map { UInt8($0 % 2) }, minimumCodeSize: 2)
    b.raw([2] + data.flatMap { [1, $0] } + [0])
    b.trailer()
    let bytes = b.bytes
    var frames = 0
    let seconds = Self.cpuSeconds {
      var decoder = GIFDecoder()
      var offset = 0
      loop: while true {
        switch try? decoder.next() {
        case .needMoreData:
          if offset >= bytes.count {
            decoder.finish()
          } else {
            decoder.feed(bytes[offset..<min(offset + 64, bytes.count)])
            offset += 64
          }
        case .frame: frames += 1
        case .screen: break
        case .end, nil: break loop
        }
      }
    }
    #expect(frames == 1)
    #expect(seconds < 1, "\(bytes.count) bytes in 64-byte chunks took \(seconds) s of CPU")
  }
}
