/// How a 32-bit canvas pixel is laid out in memory. Transparent is 0 in both.
public enum PixelFormat: Sendable {
  /// Bytes R, G, B, A: what `--frames` writes.
  case rgba
  /// Bytes B, G, R, A: a little-endian X TrueColor pixel with masks ff0000/00ff00/0000ff.
  case bgra

  @inline(__always)
  /// One pixel in this layout.
  public func pack(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) -> UInt32 {
    switch self {
    case .rgba: UInt32(a) << 24 | UInt32(b) << 16 | UInt32(g) << 8 | UInt32(r)
    case .bgra: UInt32(a) << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
    }
  }

  /// (r, g, b, a) of a packed pixel.
  @inline(__always)
  public func unpack(_ p: UInt32) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    let a = UInt8(truncatingIfNeeded: p >> 24)
    let hi = UInt8(truncatingIfNeeded: p >> 16)
    let g = UInt8(truncatingIfNeeded: p >> 8)
    let lo = UInt8(truncatingIfNeeded: p)
    switch self {
    case .rgba: return (lo, g, hi, a)
    case .bgra: return (hi, g, lo, a)
    }
  }
}

/// A colour table as stored: `count` RGB triplets (2…256).
public struct Palette: Sendable, Equatable {
  /// R, G, B bytes of each colour in turn.
  public var rgb: [UInt8]
  /// The number of colours.
  public var count: Int { rgb.count / 3 }

  /// A palette of the colours in `rgb` (three bytes each).
  public init(rgb: [UInt8]) { self.rgb = rgb }

  /// A 256-entry lookup table; entries beyond the table are opaque black (DESIGN §2).
  public func lookupTable(_ format: PixelFormat) -> [UInt32] {
    var table = [UInt32](repeating: format.pack(r: 0, g: 0, b: 0), count: 256)
    for i in 0..<count {
      table[i] = format.pack(r: rgb[3 * i], g: rgb[3 * i + 1], b: rgb[3 * i + 2])
    }
    return table
  }

  /// With no colour table at all every index is opaque black.
  public static func blackTable(_ format: PixelFormat) -> [UInt32] {
    [UInt32](repeating: format.pack(r: 0, g: 0, b: 0), count: 256)
  }
}
