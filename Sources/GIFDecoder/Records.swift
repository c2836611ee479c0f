/// The logical screen: what the decoder knows once the header is read.
public struct ScreenInfo: Sendable, Equatable {
  /// "87a" or "89a".
  public var version: String
  /// Logical screen width.
  public var width: Int
  /// Logical screen height.
  public var height: Int
  /// The global colour table, if any.
  public var globalPalette: Palette?
}

/// A half-open rectangle: x0..<x1, y0..<y1.
public struct Rect: Sendable, Equatable {
  /// Left, top (inclusive), right, bottom (exclusive) edges.
  public var x0: Int, y0: Int, x1: Int, y1: Int
  /// x1 − x0.
  public var width: Int { x1 - x0 }
  /// y1 − y0.
  public var height: Int { y1 - y0 }
  /// No pixel inside.
  public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }

  /// The rectangle x0..<x1 × y0..<y1.
  public init(x0: Int, y0: Int, x1: Int, y1: Int) {
    (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1)
  }

  /// The part inside 0..<w × 0..<h.
  public func clipped(width w: Int, height h: Int) -> Rect {
    let r = Rect(x0: min(max(x0, 0), w), y0: min(max(y0, 0), h), x1: min(x1, w), y1: min(y1, h))
    return r.isEmpty ? Rect(x0: 0, y0: 0, x1: 0, y1: 0) : r
  }

  /// The smallest rectangle holding both (an empty one adds nothing).
  public func union(_ other: Rect) -> Rect {
    if other.isEmpty { return self }
    if isEmpty { return other }
    return Rect(x0: min(x0, other.x0), y0: min(y0, other.y0), x1: max(x1, other.x1), y1: max(y1, other.y1))
  }

  /// Every pixel of `other` is inside (an empty `other` always is).
  public func contains(_ other: Rect) -> Bool {
    other.isEmpty || (other.x0 >= x0 && other.y0 >= y0 && other.x1 <= x1 && other.y1 <= y1)
  }
}

/// One image of the file: its descriptor, the Graphic Control that applied to it,
/// where its data lies in the input, and (unless the decoder was told not to keep it)
/// its LZW data with the sub-block framing removed.
public struct FrameInfo: Sendable {
  /// The image's place in the file, from 0.
  public var index: Int
  /// As stored; may reach beyond the screen (frames are clipped when drawn).
  public var x: Int, y: Int, width: Int, height: Int
  /// The stored delay in hundredths of a second.
  public var delayCS: Int
  /// The stored disposal method, 0–7.
  public var disposal: Int
  /// The transparent colour index, if the graphic control names one.
  public var transparentIndex: Int?
  /// Rows are stored in the four-pass interlaced order.
  public var interlaced: Bool
  /// The image has its own colour table.
  public var hasLocalPalette: Bool
  /// The local table, else the global one, else nil (every index draws opaque black).
  public var palette: Palette?
  /// The LZW literal width.
  public var lzwMinimumCodeSize: Int
  /// The image's LZW data, sub-block framing removed; empty when the decoder hands
  /// frames out without their data (then `dataRange` says where to read it again).
  public var compressed: [UInt8]
  /// False when the input ended inside this image's data.
  public var dataComplete: Bool
  /// Offset of the image descriptor in the input.
  public var offset: Int
  /// Where the image's data lies in the input: its first sub-block's length byte up to
  /// and including the block terminator, or to the end of the input when it was cut
  /// short. Empty for an image without data.
  public var dataRange: Range<Int> = 0..<0

  /// The image's rectangle on the screen (not clipped).
  public var rect: Rect { Rect(x0: x, y0: y, x1: x + width, y1: y + height) }

  /// The delay that plays (DESIGN §2): ≤ 1 cs becomes 100 ms like browsers,
  /// unless `exact`, where 0 plays as the shortest step, 10 ms.
  public func delayMS(exact: Bool = false) -> Int {
    if exact { return max(delayCS, 1) * 10 }
    return delayCS <= 1 ? 100 : delayCS * 10
  }
}

/// What `GIFDecoder.next()` answers.
public enum DecoderEvent: Sendable {
  /// Feed more bytes (or call `finish()`).
  case needMoreData
  case screen(ScreenInfo)
  case frame(FrameInfo)
  /// No more images; `warnings` lists damage seen while parsing.
  case end
}
