/// GIF's variable-width LZW, decoded into a caller's index buffer.
///
/// The table keeps, per code, the last chunk of up to 8 bytes of its string and the
/// code that spells the rest (whole chunks), so a string is written back to front with
/// one 8-byte store per chunk, from a 64 KiB table that stays in cache. Literal widths
/// up to 11 work (DESIGN §2); at 4096 codes the table stops growing and decoding goes
/// on with 12-bit codes (deferred clear).
///
/// Decoding is resumable: `start` then `step` repeatedly, each filling a small buffer
/// that the compositor drains, so no frame-sized index buffer is needed.
public struct LZWDecoder: Sendable {
  /// How a `step` ended.
  public enum Status: Sendable, Equatable {
    /// End-of-information code, or the output is full (extra data is ignored).
    case complete
    /// The data ended before the output was full (missing pixels stay untouched).
    case notEnoughData
    /// A code above the next free slot.
    case badCode
  }

  /// How far past its limit one `step` may write: one code's string (at most 4096
  /// indices) plus the overrun of its last 8-byte store.
  public static let slack = 4096 + 8

  /// Marks the clear and end codes' entries, so that one test of an entry already
  /// loaded finds both. New entries copy it only from the end code's (see `previous`).
  private static let controlCode: UInt64 = 1 << 63

  /// Two words per code, in two halves so an index is a plain 8-byte scale. `[c]`: the
  /// string's last chunk, little-endian, 1–8 bytes, zero above them. `[4096 + c]`: bits 0..<16 the code spelling the string before that
  /// chunk, 16..<32 the length − 1, 32..<40 the first byte, and `controlCode` for the
  /// clear and end codes. Fixed size (STYLE 1.3).
  private var table = [UInt64](repeating: 0, count: 2 * 4096)
  /// The literal width whose literal entries `table` holds (0: none yet).
  private var literalWidth = 0

  // Resumable state between `step` calls.
  private var bits: UInt64 = 0
  private var bitCount: UInt64 = 0
  private var inPos = 0
  private var width: UInt64 = 0
  private var nextCode = 0
  /// After a clear both are the end code: the first code's entry lands in the end
  /// code's slot, never read, and the next free slot is end + 1 as it should be.
  private var previous = 0
  private var finished: Status?

  /// A decoder with its tables allocated once; `start` prepares each image.
  public init() {}

  /// Starts a new image with literal width `minimumCodeSize` (1…11).
  public mutating func start(minimumCodeSize: Int) {
    precondition((1...11).contains(minimumCodeSize))
    let clear = 1 << minimumCodeSize
    if literalWidth != minimumCodeSize {
      literalWidth = minimumCodeSize
      for code in 0..<clear {
        // With literal widths over 8 a value over 255 cannot be an index of any colour
        // table, so it becomes 255 (beyond a short table: opaque black).
        let byte = UInt64(min(code, 255))
        table[code] = byte
        table[4096 + code] = byte << 32
      }
      table[4096 + clear] = Self.controlCode
      table[4096 + clear + 1] = Self.controlCode
    }
    bits = 0
    bitCount = 0
    inPos = 0
    width = UInt64(minimumCodeSize + 1)
    nextCode = clear + 1
    previous = clear + 1
    finished = nil
  }

  /// Decodes codes from `data` (the same bytes on every call since `start`) into
  /// `output` from its beginning, and stops after the code that reaches `limit` indices;
  /// `output.count >= limit + slack`. Answers the indices written (possibly past
  /// `limit`) and, once decoding cannot go on, why.
  public mutating func step(
    _ data: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>, limit: Int
  ) -> (produced: Int, status: Status?) {
    if let finished { return (0, finished) }
    precondition(limit > 0 && output.count >= limit + Self.slack)
    guard let input = data.baseAddress, let out = output.baseAddress else {
      finished = .notEnoughData
      return (0, finished)
    }
    var registers = Registers(
      bits: bits, bitCount: bitCount, input: input + inPos, width: width, nextCode: nextCode, previous: previous)
    let (produced, status) = table.withUnsafeMutableBufferPointer { t in
      Self.run(
        &registers, table: t.baseAddress!, inEnd: input + data.count, output: out, limit: limit,
        literalWidth: literalWidth)
    }
    bits = registers.bits
    bitCount = registers.bitCount
    inPos = registers.input - input
    width = registers.width
    nextCode = registers.nextCode
    previous = registers.previous
    finished = status
    return (produced, status)
  }

  /// The state `run` works on, kept in locals while it runs.
  private struct Registers {
    var bits: UInt64
    var bitCount: UInt64
    var input: UnsafePointer<UInt8>
    var width: UInt64
    var nextCode: Int
    var previous: Int
  }

  /// The decoding loop, apart from `self` so that its state lives in registers.
  /// `table` is the 8192-word table; every index into it below is a code < 4096 (12-bit
  /// codes, `nextCode` capped at 4096, stored prefixes are such codes), or 4096 + one.
  @inline(never)
  private static func run(
    _ registers: inout Registers, table t: UnsafeMutablePointer<UInt64>, inEnd: UnsafePointer<UInt8>,
    output out: UnsafeMutablePointer<UInt8>, limit: Int, literalWidth: Int
  ) -> (produced: Int, status: Status?) {
    let clear = 1 &<< literalWidth
    let firstWidth = UInt64(truncatingIfNeeded: literalWidth &+ 1)
    let controlCode = Self.controlCode
    var bits = registers.bits
    var bitCount = registers.bitCount
    var inPtr = registers.input
    var width = registers.width
    var nextCode = registers.nextCode
    var previous = registers.previous
    var status: Status?
    var outPtr = out
    let outLimit = out + limit
    defer {
      registers = Registers(
        bits: bits, bitCount: bitCount, input: inPtr, width: width, nextCode: nextCode, previous: previous)
    }
    while outPtr < outLimit {
      if inEnd - inPtr >= 8 {
        // Every code, without a branch on the bit count: whole bytes up to 56–63 bits.
        // The bits loaded above `bitCount` are the next bytes' own, so OR-ing them in
        // again at the next refill is harmless.
        bits |= UInt64(littleEndian: UnsafeRawPointer(inPtr).loadUnaligned(as: UInt64.self)) &<< bitCount
        inPtr += Int(truncatingIfNeeded: (63 &- bitCount) &>> 3)
        bitCount |= 56
      } else if bitCount < width {
        while bitCount < width && inPtr < inEnd {
          bits |= UInt64(inPtr.pointee) &<< bitCount
          inPtr += 1
          bitCount &+= 8
        }
        if bitCount < width {
          status = .notEnoughData
          break
        }
      }
      let code = Int(truncatingIfNeeded: bits) & ((1 &<< width) &- 1)
      bits &>>= width
      bitCount &-= width

      // The byte a new entry appends: the first of this code's string, or for a code
      // not yet in the table (KwKwK) the previous string's own first byte.
      let appended: UInt64
      if code < nextCode {
        let info = t[4096 &+ code]
        if info & controlCode != 0 {
          if code != clear {
            status = .complete  // the end code
            break
          }
          width = firstWidth
          nextCode = clear &+ 1
          previous = clear &+ 1
          continue
        }
        appended = (info &>> 32) & 0xFF
      } else if code == nextCode && code != clear &+ 1 {
        appended = (t[4096 &+ previous] &>> 32) & 0xFF
      } else {
        // Above the next free slot, or the end code right after a clear.
        status = code == clear &+ 1 ? .complete : .badCode
        break
      }
      if nextCode < 4096 {
        // The previous entry with its length one longer (the field never reaches bit 32:
        // strings are at most 4096 long); its first byte and flag carry over.
        let grown = t[4096 &+ previous] &+ 0x1_0000
        let shift = (grown &>> 13) & 0x38  // 8 × ((length − 1) mod 8) of the new entry
        // A full last chunk starts a new one whose prefix is the previous code; else the
        // byte joins the previous chunk and the prefix stays. All ones in `joins` then.
        let joins = 0 &- ((shift &+ 63) &>> 6)
        t[nextCode] = t[previous] & joins | appended &<< shift
        t[4096 &+ nextCode] = grown & (joins | ~0xFFFF) | UInt64(truncatingIfNeeded: previous) & ~joins
        nextCode &+= 1
        // Like giflib, one more bit once the table reaches 2^width; with literal width 1
        // the first free code (4) already needs 3 bits after the first code.
        if width < 12 { width &+= UInt64(truncatingIfNeeded: nextCode &>> width) & 1 }
      }

      // Back to front: the last chunk (its store may run up to 7 bytes past the
      // string, into slack or the next string's place), then whole chunks.
      let lengthMinus1 = Int(truncatingIfNeeded: t[4096 &+ code] &>> 16) & 0xFFFF
      var chunkOffset = lengthMinus1 & ~7
      var c = code
      assert(outPtr - out + chunkOffset + 8 <= limit + slack)
      let dst = UnsafeMutableRawPointer(outPtr)
      dst.storeBytes(of: t[c].littleEndian, toByteOffset: chunkOffset, as: UInt64.self)
      while chunkOffset > 0 {
        chunkOffset &-= 8
        c = Int(truncatingIfNeeded: t[4096 &+ c]) & 0xFFFF
        dst.storeBytes(of: t[c].littleEndian, toByteOffset: chunkOffset, as: UInt64.self)
      }
      outPtr += lengthMinus1 &+ 1
      previous = code
    }
    return (outPtr - out, status)
  }

  /// Decodes `data` with literal width `minimumCodeSize` into `output`;
  /// answers how many indices were written.
  public mutating func decode(
    _ data: UnsafeBufferPointer<UInt8>, minimumCodeSize: Int, into output: UnsafeMutableBufferPointer<UInt8>
  ) -> (produced: Int, status: Status) {
    start(minimumCodeSize: minimumCodeSize)
    let capacity = output.count
    guard capacity > 0 else { return (0, .complete) }
    let chunk = 1 << 14
    var scratch = [UInt8](repeating: 0, count: chunk + Self.slack)
    var produced = 0
    while produced < capacity {
      let want = min(chunk, capacity - produced)
      let (n, status) = scratch.withUnsafeMutableBufferPointer { step(data, into: $0, limit: want) }
      let kept = min(n, capacity - produced)
      scratch.withUnsafeBufferPointer { s in
        _ = UnsafeMutableBufferPointer(rebasing: output[produced..<(produced + kept)])
          .initialize(from: UnsafeBufferPointer(rebasing: s[0..<kept]))
      }
      produced += kept
      if let status { return (produced, status) }
    }
    return (produced, .complete)
  }
}
