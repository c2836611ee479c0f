extension GIFBuilder {
  /// Offset of the next byte to be written.
  public var count: Int { bytes.count }

  /// An Image Descriptor and its local colour table alone, for tests that frame the
  /// image data themselves with `raw` (odd sub-block sizes, cut-short data).
  public mutating func imageDescriptor(
    x: Int = 0, y: Int = 0, width: Int, height: Int, localPalette: [UInt8]? = nil, interlaced: Bool = false
  ) {
    var packed: UInt8 = interlaced ? 0x40 : 0
    var table: [UInt8] = []
    if let localPalette {
      let (bits, padded) = Self.padPalette(localPalette)
      packed |= 0x80 | UInt8(bits - 1)
      table = padded
    }
    raw([0x2C] + le16(x) + le16(y) + le16(width) + le16(height) + [packed] + table)
  }
}
