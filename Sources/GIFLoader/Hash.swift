/// 64-bit FNV-1a: names a cache entry after its URL (the entry also stores the URL, so a
/// collision is detected, never served).
func fnv1a64(_ bytes: some Sequence<UInt8>) -> UInt64 {
  var h: UInt64 = 0xcbf2_9ce4_8422_2325
  for b in bytes {
    h ^= UInt64(b)
    h = h &* 0x0000_0100_0000_01b3
  }
  return h
}

/// A 64-bit checksum of a cached body, eight bytes a step: each step is a bijection of the
/// state, so any single damaged word changes the result, and the length is mixed in so a
/// truncated body differs even when its prefix is intact. Not cryptographic: it detects
/// damage, it does not resist forgery (the cache is the user's own directory).
///
/// Taken in pieces of any size (a file read in chunks), it gives what the whole body at
/// once gives; the length must be known at the start.
struct BodyChecksum {
  private var h: UInt64
  /// Bytes of an unfinished 8-byte word, little-endian, and how many.
  private var pending: UInt64 = 0
  private var pendingCount: UInt64 = 0

  init(count: Int) { h = 0x9e37_79b9_7f4a_7c15 ^ UInt64(count) }

  mutating func update(_ bytes: UnsafeRawBufferPointer) {
    let n = bytes.count
    var i = 0
    while pendingCount > 0 && pendingCount < 8 && i < n {
      pending |= UInt64(bytes[i]) << (8 * pendingCount)
      pendingCount += 1
      i += 1
    }
    if pendingCount == 8 {
      mix(pending)
      (pending, pendingCount) = (0, 0)
    }
    while i + 8 <= n {
      mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
      i += 8
    }
    while i < n {
      pending |= UInt64(bytes[i]) << (8 * pendingCount)
      pendingCount += 1
      i += 1
    }
  }

  @inline(__always) private mutating func mix(_ w: UInt64) {
    h = (h ^ w) &* 0xff51_afd7_ed55_8ccd
    h ^= h >> 32
  }

  /// The checksum of everything given (the tail of fewer than 8 bytes mixed in last).
  var value: UInt64 {
    var h = (self.h ^ pending) &* 0xc4ce_b9fe_1a85_ec53
    h ^= h >> 29
    return h
  }
}

func bodyChecksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
  var sum = BodyChecksum(count: bytes.count)
  sum.update(bytes)
  return sum.value
}

func bodyChecksum(_ bytes: [UInt8]) -> UInt64 {
  bytes.withUnsafeBytes { bodyChecksum($0) }
}

func hex16(_ v: UInt64) -> String {
  let s = String(v, radix: 16)
  return String(repeating: "0", count: 16 - s.count) + s
}
