import CPNG

/// PNG files through libpng's simplified API (`png_image`): 8-bit RGBA with straight
/// (not premultiplied) alpha, both ways. No X, no output of its own.
public enum PNG {
  /// An image as rows of RGBA bytes, top to bottom, `width * 4` bytes a row.
  public struct Image: Equatable, Sendable {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int
    /// `width * height * 4` bytes: R, G, B, A per pixel, alpha straight.
    public var rgba: [UInt8]

    /// An image of `rgba` bytes (`width * height * 4` of them).
    public init(width: Int, height: Int, rgba: [UInt8]) {
      precondition(rgba.count == width * height * 4, "RGBA bytes do not match the size")
      self.width = width
      self.height = height
      self.rgba = rgba
    }

    /// An image of 0xAARRGGBB words (a GIF canvas); pixels with alpha 0 become 0,0,0,0.
    public init(width: Int, height: Int, argb: [UInt32]) {
      precondition(argb.count == width * height, "pixels do not match the size")
      var bytes = [UInt8](repeating: 0, count: argb.count * 4)
      for (i, p) in argb.enumerated() where p >> 24 != 0 {
        bytes[4 * i] = UInt8(truncatingIfNeeded: p >> 16)
        bytes[4 * i + 1] = UInt8(truncatingIfNeeded: p >> 8)
        bytes[4 * i + 2] = UInt8(truncatingIfNeeded: p)
        bytes[4 * i + 3] = UInt8(truncatingIfNeeded: p >> 24)
      }
      self.init(width: width, height: height, rgba: bytes)
    }

    /// The pixels as 0xAARRGGBB words.
    public var argb: [UInt32] {
      (0..<(width * height)).map { i in
        let a = UInt32(rgba[4 * i + 3]) << 24
        let r = UInt32(rgba[4 * i]) << 16
        let g = UInt32(rgba[4 * i + 1]) << 8
        return a | r | g | UInt32(rgba[4 * i + 2])
      }
    }
  }

  /// Why libpng refused: its own message.
  public struct Failure: Error, CustomStringConvertible, Sendable {
    /// libpng's message, e.g. "png_image_begin_read_from_memory: Not a PNG file".
    public var message: String
    /// The message.
    public var description: String { message }
  }

  /// The PNG file for `image`.
  public static func encode(_ image: Image) throws(Failure) -> [UInt8] {
    guard image.width > 0, image.height > 0, image.width <= Int(Int32.max) / 4, image.height <= Int(Int32.max)
    else { throw Failure(message: "cannot encode a \(image.width)x\(image.height) image") }
    var png = pngImage(width: image.width, height: image.height)
    // One compression into a buffer of a size that nearly always holds it (the raw
    // pixels and some room); only when it does not, libpng says how much it needs and
    // the image is written again (asking for the size first would always compress twice).
    let stride = Int32(image.width * 4)
    var capacity = image.rgba.count + image.rgba.count / 64 + 4096
    var out: [UInt8] = []
    var written: Int32 = 0
    var size = 0
    for _ in 0..<2 {
      out = [UInt8](repeating: 0, count: capacity)
      size = capacity
      written = out.withUnsafeMutableBytes { buffer in
        image.rgba.withUnsafeBytes { pixels in
          png_image_write_to_memory(&png, buffer.baseAddress, &size, 0, pixels.baseAddress, stride, nil)
        }
      }
      // Too small: `size` is the length needed, larger than the buffer.
      guard written == 0, size > capacity else { break }
      capacity = size
    }
    guard written != 0 else { throw failure(&png) }
    out.removeLast(out.count - size)
    return out
  }

  /// Decodes a PNG file of any colour type to 8-bit RGBA.
  public static func decode(_ bytes: [UInt8]) throws(Failure) -> Image {
    var png = pngImage(width: 0, height: 0)
    let begun = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&png, $0.baseAddress, $0.count) }
    guard begun != 0 else { throw failure(&png) }
    png.format = rgbaFormat
    let (width, height) = (Int(png.width), Int(png.height))
    // The same canvas limit as the decoder's default (16384²), so a hostile header
    // cannot ask for more.
    guard width > 0, height > 0, width * height <= 1 << 28 else {
      png_image_free(&png)
      throw Failure(message: "PNG of \(width)x\(height) pixels is too large")
    }
    var rgba = [UInt8](repeating: 0, count: width * height * 4)
    let finished = rgba.withUnsafeMutableBytes { buffer in
      png_image_finish_read(&png, nil, buffer.baseAddress, Int32(width * 4), nil)
    }
    guard finished != 0 else { throw failure(&png) }
    return Image(width: width, height: height, rgba: rgba)
  }

  /// PNG_FORMAT_RGBA (a macro of macros, which Swift does not import).
  private static let rgbaFormat = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)

  private static func pngImage(width: Int, height: Int) -> png_image {
    var png = png_image()
    png.version = UInt32(PNG_IMAGE_VERSION)
    png.width = UInt32(width)
    png.height = UInt32(height)
    png.format = rgbaFormat
    return png
  }

  /// libpng's message for the failed call; frees what the call left.
  private static func failure(_ png: inout png_image) -> Failure {
    let message = withUnsafeBytes(of: png.message) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    png_image_free(&png)
    return Failure(message: message.isEmpty ? "libpng failed" : message)
  }
}
