import GIFDecoder

/// One canvas pixel as `--frames` and the corpus write it: straight alpha, and every
/// pixel with alpha 0 written as 0,0,0,0.
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
  public var r: UInt8, g: UInt8, b: UInt8, a: UInt8

  public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
    (self.r, self.g, self.b, self.a) = (r, g, b, a)
  }

  /// A packed canvas pixel of `format`, alpha-0 pixels normalised to 0,0,0,0.
  public init(_ pixel: UInt32, format: PixelFormat) {
    let p = format.unpack(pixel)
    self = p.a == 0 ? .clear : RGBA(p.r, p.g, p.b, p.a)
  }

  public static let clear = RGBA(0, 0, 0, 0)
  public static let black = RGBA(0, 0, 0)
  public static let red = RGBA(255, 0, 0)
  public static let green = RGBA(0, 255, 0)
  public static let blue = RGBA(0, 0, 255)
  public static let white = RGBA(255, 255, 255)
  public static let yellow = RGBA(255, 255, 0)
  public static let cyan = RGBA(0, 255, 255)
  public static let magenta = RGBA(255, 0, 255)

  public var bytes: [UInt8] { [r, g, b, a] }

  public var description: String {
    "#" + [r, g, b, a].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
  }
}

/// Pictures: a canvas written one character a pixel, rows separated by white space, so
/// a test states its exact expected pixels in a line and a failure shows have/want as grids.
///
/// `.` transparent (0,0,0,0), `K` opaque black, `R` red, `G` green, `B` blue, `W` white,
/// `Y` yellow, `C` cyan, `M` magenta (all opaque, components 0 or 255); `?` in a
/// rendered picture is a colour outside this legend.
public enum Picture {
  public static let legend: [Character: RGBA] = [
    ".": .clear, "K": .black, "R": .red, "G": .green, "B": .blue, "W": .white, "Y": .yellow, "C": .cyan,
    "M": .magenta,
  ]
  private static let reverse: [RGBA: Character] = Dictionary(uniqueKeysWithValues: legend.map { ($0.value, $0.key) })

  /// RGB triplets of a colour table, one legend character an entry: `palette("RGBW")`.
  public static func palette(_ colours: String) -> [UInt8] {
    colours.flatMap { c -> [UInt8] in
      guard let p = legend[c] else { preconditionFailure("no colour '\(c)' in the picture legend") }
      return [p.r, p.g, p.b]
    }
  }

  /// The canonical form of a picture: rows joined by "\n".
  public static func normalised(_ picture: String) -> String {
    picture.split(whereSeparator: \.isWhitespace).joined(separator: "\n")
  }

  /// The pixels a picture stands for, row-major.
  public static func pixels(_ picture: String) -> [RGBA] {
    normalised(picture).compactMap { c in
      if c == "\n" { return nil }
      guard let p = legend[c] else { preconditionFailure("no colour '\(c)' in the picture legend") }
      return p
    }
  }

  /// A canvas as a picture (rows joined by "\n").
  public static func of(_ pixels: [RGBA], width: Int) -> String {
    var rows: [String] = []
    var i = 0
    while i < pixels.count {
      rows.append(String(pixels[i..<min(i + width, pixels.count)].map { reverse[$0] ?? "?" }))
      i += width
    }
    return rows.joined(separator: "\n")
  }

  /// Colours of `pixels` outside the legend, for failure messages.
  public static func unknownColours(_ pixels: [RGBA]) -> [RGBA] {
    var seen: [RGBA] = []
    for p in pixels where reverse[p] == nil && !seen.contains(p) { seen.append(p) }
    return seen
  }
}

/// A whole input decoded and every frame composited, the way `--frames` does it.
public struct Rendered: Sendable {
  public var document: GIFDocument
  /// The canvas after each image, RGBA.
  public var canvases: [[RGBA]]
  /// SHA-256 of each canvas as RGBA bytes (the corpus' `sha256_rgba`).
  public var sha256: [String]
  /// Parse warnings followed by pixel-level ones, as `renderAll` answers them.
  public var warnings: [GIFWarning]

  public var width: Int { document.screen.width }
  public var frames: [FrameInfo] { document.frames }

  /// The canvas after image `frame` as a picture.
  public func picture(_ frame: Int) -> String { Picture.of(canvases[frame], width: width) }

  public static func decode(
    _ bytes: [UInt8], limits: Limits = .default, format: PixelFormat = .rgba
  ) throws(GIFError) -> Rendered {
    let document = try GIFDocument.decode(bytes, limits: limits)
    var canvases: [[RGBA]] = []
    var hashes: [String] = []
    let warnings = document.renderAll(format: format) { _, canvas in
      let pixels = canvas.map { RGBA($0, format: format) }
      canvases.append(pixels)
      hashes.append(SHA256.hex(pixels.flatMap(\.bytes)))
    }
    return Rendered(document: document, canvases: canvases, sha256: hashes, warnings: warnings)
  }
}

/// A small, seedable generator (SplitMix64), so random test data is the same every run.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// `count` indices below `alphabet`.
  public mutating func indices(_ count: Int, below alphabet: Int) -> [UInt8] {
    (0..<count).map { _ in UInt8(Int.random(in: 0..<alphabet, using: &self)) }
  }
}

/// A whole input in memory as a renderer's source of image data; with `available` it
/// answers as a file cut to that many bytes after it was parsed would.
public struct InMemoryInput: ImageDataSource {
  public let bytes: [UInt8]
  public let available: Int

  public init(_ bytes: [UInt8], available: Int? = nil) {
    self.bytes = bytes
    self.available = min(available ?? bytes.count, bytes.count)
  }

  public func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    guard offset >= 0, offset < available else { return 0 }
    let n = min(buffer.count, available - offset)
    bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
    return n
  }
}
