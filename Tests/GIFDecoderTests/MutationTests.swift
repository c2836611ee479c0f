import GIFDecoder
import GIFTestSupport
import Testing

/// Damaged input of every kind: the decoder must end (no trap, no hang, bounded work),
/// and feeding the same bytes in random chunks must give the same result as all at once.
@Suite("Mutated input")
struct MutationTests {
  /// A small animation with every feature: loop, comment, local palette, interlace,
  /// transparency, disposals 2 and 3.
  static let seedGIF: [UInt8] = {
    var b = GIFBuilder(width: 12, height: 9, globalPalette: [0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255])
    b.loop(2)
    b.comment("mutation seed")
    b.control(delayCS: 3, disposal: 2, transparent: 0)
    b.image(width: 12, height: 9, indices: (0..<108).map { UInt8($0 % 4) }, minimumCodeSize: 2)
    b.control(delayCS: 4, disposal: 3)
    b.image(
      x: 2, y: 1, width: 8, height: 7, indices: (0..<56).map { UInt8($0 % 7) },
      localPalette: (0..<24).map { UInt8($0 * 10) }, interlaced: true, minimumCodeSize: 3)
    b.control(delayCS: 5)
    b.image(x: 6, y: 4, width: 9, height: 9, indices: (0..<81).map { UInt8($0 % 3) }, minimumCodeSize: 2)
    b.trailer()
    return b.bytes
  }()

  /// Frame hashes and warnings, or the error.
  static func outcome(_ bytes: [UInt8], chunks: [Int]? = nil) -> String {
    var decoder = GIFDecoder(limits: Limits(maxCanvasPixels: 1 << 20, maxInputBytes: 1 << 20))
    var frames: [FrameInfo] = []
    var screen: ScreenInfo?
    var rest = bytes[...]
    var sizes = (chunks ?? [bytes.count]).makeIterator()
    do {
      loop: while true {
        switch try decoder.next() {
        case .screen(let s): screen = s
        case .frame(let f): frames.append(f)
        case .end: break loop
        case .needMoreData:
          if rest.isEmpty {
            decoder.finish()
          } else {
            let n = min(sizes.next() ?? rest.count, rest.count)
            decoder.feed(rest.prefix(max(n, 1)))
            rest = rest.dropFirst(max(n, 1))
          }
        }
      }
    } catch {
      return "error: \(error)"
    }
    guard let screen else { return "no screen" }
    let doc = GIFDocument(
      screen: screen, frames: frames, loopCount: decoder.loopCount, comments: decoder.comments,
      warnings: decoder.warnings)
    var hashes: [String] = []
    let warnings = doc.renderAll(format: .rgba) { _, canvas in hashes.append(SHA256.hex(rgbaBytes(canvas))) }
    return "\(hashes) \(warnings.map(\.description)) loop \(String(describing: doc.loopCount))"
  }

  @Test(arguments: 0..<8)
  func randomDamageNeverTrapsAndChunkingDoesNotMatter(seed: Int) {
    var rng = SeededGenerator(seed: UInt64(seed) &* 0x9E37)
    for _ in 0..<250 {
      var bytes = Self.seedGIF
      for _ in 0..<Int.random(in: 1...4, using: &rng) {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: bytes[Int.random(in: 0..<bytes.count, using: &rng)] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
        case 1: bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
        case 2: bytes.removeLast(Int.random(in: 0..<bytes.count, using: &rng))
        default:
          bytes.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...bytes.count, using: &rng))
        }
        if bytes.isEmpty { break }
      }
      let whole = Self.outcome(bytes)
      let chunks = (0..<bytes.count).map { _ in Int.random(in: 1...17, using: &rng) }
      let chunked = Self.outcome(bytes, chunks: chunks)
      #expect(whole == chunked, "bytes \(bytes)")
    }
  }
}
