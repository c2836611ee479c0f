#if canImport(Glibc)
  import Glibc
#endif

/// SplitMix64: small, fast and the same on every platform, so the corpus is byte-identical
/// from run to run (the standard library's generators make no such promise).
struct SplitMix64 {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in [0, 1).
  mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

  /// Uniform in [lo, hi).
  mutating func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * unit() }

  /// Uniform in 0..<n.
  mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }

  /// Roughly normal (Irwin–Hall of four uniforms), mean 0, standard deviation 1.
  mutating func normal() -> Double {
    let s = unit() + unit() + unit() + unit()
    return (s - 2) * 1.732_050_807_568_877
  }
}

/// Smooth value noise: a grid of random values, bicubically eased between grid points.
struct ValueNoise {
  let cell: Double
  let columns: Int
  let rows: Int
  let values: [Double]

  init(width: Int, height: Int, cell: Double, rng: inout SplitMix64) {
    self.cell = cell
    columns = Int(Double(width) / cell) + 3
    rows = Int(Double(height) / cell) + 3
    values = (0..<(columns * rows)).map { _ in rng.unit() * 2 - 1 }
  }

  /// In [-1, 1].
  func at(_ x: Double, _ y: Double) -> Double {
    let gx = x / cell
    let gy = y / cell
    let ix = min(max(Int(gx), 0), columns - 2)
    let iy = min(max(Int(gy), 0), rows - 2)
    let fx = smooth(gx - Double(ix))
    let fy = smooth(gy - Double(iy))
    let a = values[iy * columns + ix]
    let b = values[iy * columns + ix + 1]
    let c = values[(iy + 1) * columns + ix]
    let d = values[(iy + 1) * columns + ix + 1]
    return (a + (b - a) * fx) + ((c + (d - c) * fx) - (a + (b - a) * fx)) * fy
  }

  private func smooth(_ t: Double) -> Double { t * t * (3 - 2 * t) }
}

/// The 8×8 Bayer matrix as thresholds in (0, 1).
enum Bayer {
  static let matrix: [Int] = [
    0, 32, 8, 40, 2, 34, 10, 42,
    48, 16, 56, 24, 50, 18, 58, 26,
    12, 44, 4, 36, 14, 46, 6, 38,
    60, 28, 52, 20, 62, 30, 54, 22,
    3, 35, 11, 43, 1, 33, 9, 41,
    51, 19, 59, 27, 49, 17, 57, 25,
    15, 47, 7, 39, 13, 45, 5, 37,
    63, 31, 55, 23, 61, 29, 53, 21,
  ]

  @inline(__always)
  static func threshold(_ x: Int, _ y: Int) -> Double {
    (Double(matrix[(y & 7) << 3 | (x & 7)]) + 0.5) / 64
  }
}

@inline(__always) func clamp01(_ v: Double) -> Double { min(max(v, 0), 1) }
