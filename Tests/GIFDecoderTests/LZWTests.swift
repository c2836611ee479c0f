import GIFDecoder
import GIFTestSupport
import Testing

/// DESIGN §2, LZW: literal widths 2…11, a table that stops at 4096 entries (deferred
/// clear), missing data left alone, extra data ignored. GIFBuilder's encoder is checked
/// first, since every other test in this target writes its images with it.
@Suite("LZW")
struct LZWTests {
  /// Runs `LZWDecoder` over `data` into `capacity` slots pre-filled with `fill`.
  static func decode(
    _ data: [UInt8], minimumCodeSize: Int, capacity: Int, fill: UInt8 = 0xEE
  ) -> (output: [UInt8], produced: Int, status: LZWDecoder.Status) {
    var decoder = LZWDecoder()
    var output = [UInt8](repeating: fill, count: capacity)
    let result = data.withUnsafeBufferPointer { input in
      output.withUnsafeMutableBufferPointer { decoder.decode(input, minimumCodeSize: minimumCodeSize, into: $0) }
    }
    return (output, result.produced, result.status)
  }

  /// The codes of a GIF LZW stream, read bit by bit with GIF's width schedule. Written
  /// apart from `LZWDecoder` so the encoder's stream structure is checked on its own.
  static func codes(_ data: [UInt8], minimumCodeSize: Int) -> [Int] {
    let clear = 1 << minimumCodeSize
    var width = minimumCodeSize + 1
    var next = clear + 2
    var firstAfterClear = true
    var bit = 0
    var codes: [Int] = []
    while bit + width <= data.count * 8 {
      var code = 0
      for i in 0..<width where data[(bit + i) >> 3] >> UInt8((bit + i) & 7) & 1 == 1 { code |= 1 << i }
      bit += width
      codes.append(code)
      if code == clear {
        (width, next, firstAfterClear) = (minimumCodeSize + 1, clear + 2, true)
        continue
      }
      if code == clear + 1 { break }
      if !firstAfterClear && next < 4096 {
        next += 1
        if next == 1 << width && width < 12 { width += 1 }
      }
      firstAfterClear = false
    }
    return codes
  }

  enum Data: String, CaseIterable, Sendable {
    case random, constant, runs

    func make(_ count: Int, alphabet: Int, seed: UInt64) -> [UInt8] {
      var rng = SeededGenerator(seed: seed)
      switch self {
      case .random:
        return rng.indices(count, below: alphabet)
      case .constant:
        // One value over and over: every new code is the KwKwK case.
        return [UInt8](repeating: UInt8(alphabet - 1), count: count)
      case .runs:
        var out: [UInt8] = []
        while out.count < count {
          let value = UInt8(Int.random(in: 0..<alphabet, using: &rng))
          out += [UInt8](repeating: value, count: Int.random(in: 1...40, using: &rng))
        }
        return Array(out.prefix(count))
      }
    }
  }

  static let sizes = [1, 2, 3, 255, 4097, 20_000]

  @Test(arguments: 1...11)
  func builderRoundTripsThroughTheDecoderForEveryMinimumCodeSize(minimumCodeSize: Int) {
    let alphabet = min(1 << minimumCodeSize, 256)
    for deferredClear in [false, true] {
      for kind in Data.allCases {
        for size in Self.sizes {
          let indices = kind.make(size, alphabet: alphabet, seed: UInt64(minimumCodeSize * 1_000_003 + size))
          let data = GIFBuilder.lzw(indices, minimumCodeSize: minimumCodeSize, deferredClear: deferredClear)
          let have = Self.decode(data, minimumCodeSize: minimumCodeSize, capacity: size)
          let label = "code size \(minimumCodeSize), \(kind) ×\(size), deferredClear \(deferredClear)"
          #expect(have.status == .complete, "\(label): have status \(have.status), want complete")
          #expect(have.produced == size, "\(label): have \(have.produced) indices, want \(size)")
          let firstDifference = zip(have.output, indices).enumerated().first { $0.element.0 != $0.element.1 }?.offset
          #expect(
            have.output == indices,
            "\(label): first difference at index \(firstDifference.map(String.init) ?? "-")")
        }
      }
    }
  }

  @Test(arguments: 2...11)
  func builderClearsExactlyWhenTheTableIsFull(minimumCodeSize: Int) throws {
    let clear = 1 << minimumCodeSize
    let indices = Data.random.make(60_000, alphabet: min(clear, 256), seed: UInt64(minimumCodeSize))
    let data = GIFBuilder.lzw(indices, minimumCodeSize: minimumCodeSize)
    let codes = Self.codes(data, minimumCodeSize: minimumCodeSize)
    #expect(codes.count > 4096, "have \(codes.count) codes, want more than 4096")
    #expect(codes.first == clear, "have first code \(String(describing: codes.first)), want clear \(clear)")
    #expect(codes.last == clear + 1, "have last code \(String(describing: codes.last)), want end \(clear + 1)")
    let clears = codes.indices.filter { codes[$0] == clear }
    #expect(clears.count >= 2, "have \(clears.count) clear codes, want a clear after each full table")
    // Between two clears: one code per free table entry, plus the one written when it is full.
    for (a, b) in zip(clears, clears.dropFirst()) {
      #expect(b - a - 1 == 4096 - clear - 1, "have \(b - a - 1) codes between clears, want \(4096 - clear - 1)")
    }
    #expect(codes.allSatisfy { $0 < 4096 })
    let have = Self.decode(data, minimumCodeSize: minimumCodeSize, capacity: indices.count)
    #expect(have.output == indices && have.produced == indices.count && have.status == .complete)
  }

  @Test(arguments: 2...11)
  func deferredClearKeepsDecodingWithTwelveBitCodesAfterTheTableIsFull(minimumCodeSize: Int) throws {
    let clear = 1 << minimumCodeSize
    let indices = Data.random.make(60_000, alphabet: min(clear, 256), seed: UInt64(100 + minimumCodeSize))
    let data = GIFBuilder.lzw(indices, minimumCodeSize: minimumCodeSize, deferredClear: true)
    let codes = Self.codes(data, minimumCodeSize: minimumCodeSize)
    let clears = codes.filter { $0 == clear }.count
    #expect(clears == 1, "have \(clears) clear codes, want only the first")
    #expect(codes.count > 2 * 4096, "have \(codes.count) codes, want well past a full table")
    #expect(codes.last == clear + 1, "have last code \(String(describing: codes.last)), want end \(clear + 1)")
    let have = Self.decode(data, minimumCodeSize: minimumCodeSize, capacity: indices.count)
    #expect(have.status == .complete, "have status \(have.status), want complete")
    #expect(have.produced == indices.count, "have \(have.produced) indices, want \(indices.count)")
    #expect(have.output == indices)
  }

  @Test func emptyInputEncodesAsClearThenEnd() {
    // Codes 4, 5 at 3 bits: 0b101_100.
    #expect(GIFBuilder.lzw([], minimumCodeSize: 2) == [0x2C])
    let have = Self.decode([0x2C], minimumCodeSize: 2, capacity: 3)
    #expect(have.produced == 0 && have.status == .complete && have.output == [0xEE, 0xEE, 0xEE])
  }

  @Test func dataAfterTheEndCodeIsIgnored() {
    let data = GIFBuilder.lzw([0, 1, 2, 3], minimumCodeSize: 2) + [0xFF, 0xFF, 0x12, 0x34]
    let have = Self.decode(data, minimumCodeSize: 2, capacity: 6)
    #expect(have.produced == 4, "have \(have.produced), want 4")
    #expect(have.status == .complete, "have \(have.status), want complete")
    #expect(have.output == [0, 1, 2, 3, 0xEE, 0xEE], "have \(have.output)")
  }

  @Test func pixelsBeyondTheOutputAreIgnored() {
    let data = GIFBuilder.lzw([3, 2, 1, 0, 3, 2, 1, 0, 1, 1], minimumCodeSize: 2)
    let have = Self.decode(data, minimumCodeSize: 2, capacity: 4)
    #expect(have.produced == 4 && have.status == .complete, "have \(have.produced) \(have.status), want 4 complete")
    #expect(have.output == [3, 2, 1, 0], "have \(have.output)")
  }

  @Test func endCodeBeforeTheOutputIsFullLeavesTheRestUntouched() {
    let have = Self.decode(GIFBuilder.lzw([2, 1], minimumCodeSize: 2), minimumCodeSize: 2, capacity: 5)
    #expect(have.produced == 2 && have.status == .complete, "have \(have.produced) \(have.status), want 2 complete")
    #expect(have.output == [2, 1, 0xEE, 0xEE, 0xEE], "have \(have.output)")
  }

  @Test func dataEndingWithoutEndCodeAnswersNotEnoughData() {
    // Code size 8: clear + 3 codes = 36 bits in 5 bytes; the 4 padding bits are no code.
    let data = GIFBuilder.lzw([7, 8, 9], minimumCodeSize: 8, endCode: false)
    #expect(data.count == 5)
    let have = Self.decode(data, minimumCodeSize: 8, capacity: 5)
    #expect(have.produced == 3, "have \(have.produced), want 3")
    #expect(have.status == .notEnoughData, "have \(have.status), want notEnoughData")
    #expect(have.output == [7, 8, 9, 0xEE, 0xEE], "have \(have.output)")
  }

  @Test func codeAboveTheNextFreeSlotIsABadCode() {
    // 3-bit codes 4 (clear), 1, 7: after one literal the next free slot is 6.
    let have = Self.decode([0xCC, 0x01], minimumCodeSize: 2, capacity: 4)
    #expect(have.status == .badCode, "have \(have.status), want badCode")
    #expect(have.produced == 1 && have.output == [1, 0xEE, 0xEE, 0xEE], "have \(have.produced) \(have.output)")
  }

  @Test func codeEqualToTheNextFreeSlotRepeatsThePreviousStringPlusItsFirstIndex() {
    // 3-bit codes 4 (clear), 1, 6 (not yet in the table: "1" + "1"), 5 (end).
    #expect(Self.codes([0x8C, 0x0B], minimumCodeSize: 2) == [4, 1, 6, 5])
    let have = Self.decode([0x8C, 0x0B], minimumCodeSize: 2, capacity: 4)
    #expect(have.produced == 3 && have.status == .complete, "have \(have.produced) \(have.status), want 3 complete")
    #expect(have.output == [1, 1, 1, 0xEE], "have \(have.output)")
  }
}
