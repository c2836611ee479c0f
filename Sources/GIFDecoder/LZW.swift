/// GIF's variable-width LZW, decoded into a caller's index buffer.
///
/// Every code's string already stands in the output (a new code is the previous code's
/// output plus one byte), so the table keeps only where that string starts and how long
/// it is; emitting a code is a forward copy from earlier output, like LZ77. Literal
/// widths up to 11 work (DESIGN §2); at 4096 codes the table stops growing and decoding
/// goes on with 12-bit codes (deferred clear).
public struct LZWDecoder: Sendable {
  public enum Status: Sendable, Equatable {
    /// End-of-information code, or the output is full (extra data is ignored).
    case complete
    /// The data ended before the output was full (missing pixels stay untouched).
    case notEnoughData
    /// A code above the next free slot.
    case badCode
  }

  // Indexed by code; fixed size, reused per frame (STYLE 1.3).
  private var start = [UInt32](repeating: 0, count: 4096)
  private var length = [UInt32](repeating: 0, count: 4096)

  public init() {}

  /// Decodes `data` with literal width `minimumCodeSize` into `output`;
  /// answers how many indices were written.
  public mutating func decode(
    _ data: UnsafeBufferPointer<UInt8>, minimumCodeSize: Int, into output: UnsafeMutableBufferPointer<UInt8>
  ) -> (produced: Int, status: Status) {
    precondition((1...11).contains(minimumCodeSize))
    let capacity = output.count
    guard capacity > 0 else { return (0, .complete) }
    guard let out = output.baseAddress, let input = data.baseAddress else { return (0, .notEnoughData) }
    let clear = 1 << minimumCodeSize
    let end = clear + 1
    let inputCount = data.count

    return start.withUnsafeMutableBufferPointer { startBuf in
      length.withUnsafeMutableBufferPointer { lengthBuf in
        let starts = startBuf.baseAddress!
        let lengths = lengthBuf.baseAddress!
        var bits: UInt64 = 0
        var bitCount = 0
        var inPos = 0
        var width = minimumCodeSize + 1
        var nextCode = clear + 2
        var outPos = 0
        var prevStart = -1  // -1: no previous code since the last clear
        var prevLength = 0

        while true {
          // Refill: 7 bytes at a time when they are there, else what is left.
          if bitCount < width {
            if inPos + 8 <= inputCount {
              let raw = UnsafeRawPointer(input + inPos).loadUnaligned(as: UInt64.self)
              bits |= UInt64(littleEndian: raw) << UInt64(bitCount)
              let take = (63 - bitCount) >> 3
              inPos += take
              bitCount += take << 3
              // Drop the bits of bytes loaded but not taken.
              bits &= (UInt64(1) << UInt64(bitCount)) &- 1
            } else {
              while bitCount < width && inPos < inputCount {
                bits |= UInt64(input[inPos]) << UInt64(bitCount)
                inPos += 1
                bitCount += 8
              }
              if bitCount < width { return (outPos, .notEnoughData) }
            }
          }
          let code = Int(truncatingIfNeeded: bits) & ((1 << width) - 1)
          bits >>= UInt64(width)
          bitCount -= width

          if code == clear {
            width = minimumCodeSize + 1
            nextCode = clear + 2
            prevStart = -1
            continue
          }
          if code == end { return (outPos, .complete) }

          let here = outPos
          var count: Int
          if code < clear {
            // A literal; with literal widths over 8 a value over 255 cannot be an index
            // of any colour table, so it becomes 255 (beyond a short table: opaque black).
            out[outPos] = UInt8(truncatingIfNeeded: min(code, 255))
            count = 1
          } else if code > end && code < nextCode {
            count = Int(lengths[code])
            let from = Int(starts[code])
            let n = min(count, capacity - outPos)
            // Source ends at or before `here`: a plain forward copy is safe.
            (out + outPos).update(from: out + from, count: n)
          } else if code == nextCode && prevStart >= 0 {
            // KwKwK: the previous string plus its own first byte.
            count = prevLength + 1
            let n = min(count, capacity - outPos)
            for i in 0..<n { out[outPos + i] = out[prevStart + i] }
          } else {
            return (outPos, .badCode)
          }
          if prevStart >= 0 && nextCode < 4096 {
            starts[nextCode] = UInt32(prevStart)
            lengths[nextCode] = UInt32(prevLength + 1)
            nextCode += 1
          }
          // Checked after every code, like giflib: with literal width 1 the first free
          // code (4) already needs 3 bits after the first code; from width 2 up this is
          // the usual "table reached 2^width" step.
          if nextCode >= 1 << width && width < 12 { width += 1 }
          prevStart = here
          prevLength = count
          outPos += count
          if outPos >= capacity { return (capacity, .complete) }
        }
      }
    }
  }
}
