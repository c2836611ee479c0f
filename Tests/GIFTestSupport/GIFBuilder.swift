/// Writes GIF files block by block, for tests, the benchmark corpus and the sample.
/// Every block can be bent (raw bytes, odd code sizes, cut-short data) to make damage.
public struct GIFBuilder {
  public private(set) var bytes: [UInt8] = []

  /// Header and logical screen; `globalPalette` is RGB triplets (2…256 entries, padded
  /// to a power of two with black).
  public init(
    width: Int, height: Int, globalPalette: [UInt8]? = nil, version: String = "89a", background: UInt8 = 0
  ) {
    bytes += Array("GIF\(version)".utf8)
    bytes += le16(width) + le16(height)
    if let globalPalette {
      let (bits, padded) = Self.padPalette(globalPalette)
      bytes += [0x80 | 0x70 | UInt8(bits - 1), background, 0]
      bytes += padded
    } else {
      bytes += [0x70, background, 0]
    }
  }

  public mutating func raw(_ b: [UInt8]) { bytes += b }

  /// NETSCAPE2.0 (or ANIMEXTS1.0) loop extension with a stored value.
  public mutating func loop(_ count: Int, id: String = "NETSCAPE2.0") {
    bytes += [0x21, 0xFF, 11] + Array(id.utf8) + [3, 1] + le16(count) + [0]
  }

  public mutating func comment(_ text: String) {
    bytes += [0x21, 0xFE] + Self.subBlocks(Array(text.utf8)) + [0]
  }

  /// Graphic Control Extension.
  public mutating func control(delayCS: Int = 0, disposal: Int = 0, transparent: Int? = nil) {
    let packed = UInt8(disposal & 7) << 2 | (transparent != nil ? 1 : 0)
    bytes += [0x21, 0xF9, 4, packed] + le16(delayCS) + [UInt8(transparent ?? 0), 0]
  }

  /// An image. `indices` are in row order (reordered here when `interlaced`);
  /// `lzwData` replaces the encoded stream, already in stream order (sub-block framing
  /// is still added). To cut a file short, take a prefix of `bytes`.
  public mutating func image(
    x: Int = 0, y: Int = 0, width: Int, height: Int, indices: [UInt8], localPalette: [UInt8]? = nil,
    interlaced: Bool = false, minimumCodeSize: Int = 8, deferredClear: Bool = false, lzwData: [UInt8]? = nil
  ) {
    imageDescriptor(x: x, y: y, width: width, height: height, localPalette: localPalette, interlaced: interlaced)
    let data =
      lzwData
      ?? Self.lzw(
        interlaced ? Self.interlace(indices, width: width, height: height) : indices,
        minimumCodeSize: minimumCodeSize, deferredClear: deferredClear)
    bytes += [UInt8(minimumCodeSize)] + Self.subBlocks(data) + [0]
  }

  public mutating func trailer() { bytes.append(0x3B) }

  // MARK: - Pieces

  public static func subBlocks(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(data.count + data.count / 255 + 1)
    var i = 0
    while i < data.count {
      let n = min(255, data.count - i)
      out.append(UInt8(n))
      out += data[i..<(i + n)]
      i += n
    }
    return out
  }

  /// Rows in the four-pass interlaced order.
  public static func interlace(_ indices: [UInt8], width: Int, height: Int) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(indices.count)
    for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
      for row in stride(from: start, to: height, by: step) {
        out += indices[(row * width)..<((row + 1) * width)]
      }
    }
    return out
  }

  /// LZW-encodes indices: a clear code first, a clear when the table is full (or, with
  /// `deferredClear`, none: the table stops growing and 12-bit codes go on), EOI last.
  public static func lzw(
    _ indices: [UInt8], minimumCodeSize: Int, deferredClear: Bool = false, endCode: Bool = true
  ) -> [UInt8] {
    let clear = 1 << minimumCodeSize
    var writer = BitWriter()
    var width = minimumCodeSize + 1
    var next = clear + 2
    var table: [UInt32: UInt16] = [:]
    table.reserveCapacity(4096)
    writer.write(clear, width: width)
    guard var prefix = indices.first.map(Int.init) else {
      if endCode { writer.write(clear + 1, width: width) }
      return writer.finish()
    }
    for k in indices.dropFirst() {
      let key = UInt32(prefix) << 12 | UInt32(k)
      if let code = table[key] {
        prefix = Int(code)
        continue
      }
      writer.write(prefix, width: width)
      if next < 4096 {
        table[key] = UInt16(next)
        next += 1
        if next > (1 << width) && width < 12 { width += 1 }
      } else if !deferredClear {
        writer.write(clear, width: width)
        table.removeAll(keepingCapacity: true)
        width = minimumCodeSize + 1
        next = clear + 2
      }
      prefix = Int(k)
    }
    writer.write(prefix, width: width)
    // The decoder adds an entry after this code too; the end code's width follows it.
    if next < 4096 && next + 1 > (1 << width) && width < 12 { width += 1 }
    if endCode { writer.write(clear + 1, width: width) }
    return writer.finish()
  }

  static func padPalette(_ rgb: [UInt8]) -> (bits: Int, padded: [UInt8]) {
    let entries = max(2, rgb.count / 3)
    var bits = 1
    while (1 << bits) < entries { bits += 1 }
    return (bits, rgb + [UInt8](repeating: 0, count: 3 * (1 << bits) - rgb.count))
  }
}

struct BitWriter {
  var out: [UInt8] = []
  var acc: UInt64 = 0
  var count = 0

  mutating func write(_ code: Int, width: Int) {
    acc |= UInt64(code) << UInt64(count)
    count += width
    while count >= 8 {
      out.append(UInt8(truncatingIfNeeded: acc))
      acc >>= 8
      count -= 8
    }
  }

  mutating func finish() -> [UInt8] {
    if count > 0 { out.append(UInt8(truncatingIfNeeded: acc)) }
    return out
  }
}

func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8 & 0xff)] }
