/// A decoding failure, named like Wuffs' statuses so it reads well after the source:
/// `gifview: error: cat.gif: not a GIF file`.
public struct GIFError: Error, Equatable, CustomStringConvertible, Sendable {
  /// What went wrong.
  public enum Kind: Equatable, Sendable {
    case emptyInput
    case notAGIF
    case truncatedHeader
    case badScreenSize(width: Int, height: Int)
    case canvasTooLarge(width: Int, height: Int, limit: Int)
    case inputTooLarge(limit: Int)
    case frameTooLarge(width: Int, height: Int, limit: Int)
    case noImages
    /// A well-formed file that holds no image (header, maybe extensions, trailer).
    case noImage
  }

  /// What went wrong.
  public var kind: Kind
  /// Byte offset in the input where the problem was seen.
  public var offset: Int

  /// An error of `kind` seen at byte `offset`.
  public init(_ kind: Kind, offset: Int) {
    self.kind = kind
    self.offset = offset
  }

  /// The message, e.g. "not a GIF file".
  public var description: String {
    switch kind {
    case .emptyInput: "empty input"
    case .notAGIF: "not a GIF file"
    case .truncatedHeader: "truncated GIF header"
    case .badScreenSize(let w, let h): "bad logical screen size \(w)x\(h)"
    case .canvasTooLarge(let w, let h, let limit):
      "canvas \(w)x\(h) is larger than the limit of \(limit) pixels"
    case .inputTooLarge(let limit): "input is larger than the limit of \(limit) bytes"
    case .frameTooLarge(let w, let h, let limit):
      "frame \(w)x\(h) is larger than the limit of \(limit) pixels"
    case .noImages: "damaged file with no complete image"
    case .noImage: "no image in file"
    }
  }
}

/// Damage that still allows display: the frames before it are kept.
public struct GIFWarning: Equatable, CustomStringConvertible, Sendable {
  /// What the damage is.
  public enum Kind: Equatable, Sendable {
    case truncated
    case badLZWCode
    case badLZWCodeSize(Int)
    case notEnoughPixelData
    case badGraphicControl
    case unexpectedByte(UInt8)
    case frameTooLarge(width: Int, height: Int)
  }

  /// What the damage is.
  public var kind: Kind
  /// The image the damage belongs to, if any.
  public var frame: Int?
  /// Byte offset in the input where it was seen.
  public var offset: Int

  /// Damage of `kind` in image `frame` (if any) at byte `offset`.
  public init(_ kind: Kind, frame: Int?, offset: Int) {
    self.kind = kind
    self.frame = frame
    self.offset = offset
  }

  /// The message, e.g. "bad LZW code in frame 3".
  public var description: String {
    let what: String
    switch kind {
    case .truncated: what = "truncated input"
    case .badLZWCode: what = "bad LZW code"
    case .badLZWCodeSize(let n): what = "bad LZW minimum code size \(n)"
    case .notEnoughPixelData: what = "not enough pixel data"
    case .badGraphicControl: what = "bad graphic control extension"
    case .unexpectedByte(let b):
      let hex = String(b, radix: 16, uppercase: true)
      what = "unexpected byte 0x\(hex.count == 1 ? "0" + hex : hex) between blocks"
    case .frameTooLarge(let w, let h): what = "frame \(w)x\(h) is larger than the pixel limit"
    }
    if let frame { return "\(what) in frame \(frame) (offset \(offset))" }
    return "\(what) at offset \(offset)"
  }
}
