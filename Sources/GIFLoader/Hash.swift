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
func bodyChecksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
  var h: UInt64 = 0x9e37_79b9_7f4a_7c15 ^ UInt64(bytes.count)
  let n = bytes.count
  var i = 0
  while i + 8 <= n {
    let w = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
    h = (h ^ w) &* 0xff51_afd7_ed55_8ccd
    h ^= h >> 32
    i += 8
  }
  var tail: UInt64 = 0
  var shift: UInt64 = 0
  while i < n {
    tail |= UInt64(bytes[i]) << shift
    shift += 8
    i += 1
  }
  h = (h ^ tail) &* 0xc4ce_b9fe_1a85_ec53
  h ^= h >> 29
  return h
}

func bodyChecksum(_ bytes: [UInt8]) -> UInt64 {
  bytes.withUnsafeBytes { bodyChecksum($0) }
}

func hex16(_ v: UInt64) -> String {
  let s = String(v, radix: 16)
  return String(repeating: "0", count: 16 - s.count) + s
}
