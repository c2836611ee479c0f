/// Draws images onto a canvas with browser semantics (DESIGN §2): the canvas starts
/// transparent, images are clipped to the screen, the transparent index leaves the canvas
/// alone, and before each image the previous image's disposal is applied.
///
/// The canvas is the caller's buffer (an XImage's pixels, or an RGBA array); the
/// compositor keeps only what disposal needs between images.
public struct Compositor: Sendable {
  public let width: Int
  public let height: Int
  public let format: PixelFormat

  private var pendingDisposal = 0
  private var pendingRect = Rect(x0: 0, y0: 0, x1: 0, y1: 0)
  /// The clipped rectangle of the canvas before an image with disposal 3 or 4.
  private var saved: [UInt32] = []
  private var globalTable: [UInt32]?
  private var globalPalette: Palette?

  public init(width: Int, height: Int, format: PixelFormat) {
    self.width = width
    self.height = height
    self.format = format
  }

  /// Forget the previous image: the next `draw` starts a new play on a cleared canvas.
  public mutating func reset(canvas: UnsafeMutableBufferPointer<UInt32>) {
    canvas.update(repeating: 0)
    pendingDisposal = 0
  }

  /// Applies the previous image's disposal, then draws `frame` whose first `produced`
  /// indices (in stream order) are in `indices`.
  public mutating func draw(
    _ frame: FrameInfo, indices: UnsafeBufferPointer<UInt8>, produced: Int,
    canvas: UnsafeMutableBufferPointer<UInt32>
  ) {
    precondition(canvas.count >= width * height)
    applyPendingDisposal(canvas: canvas)
    let clip = frame.rect.clipped(width: width, height: height)
    if frame.disposal == 3 || frame.disposal == 4 { save(clip, from: canvas) }
    pendingDisposal = frame.disposal
    pendingRect = clip
    guard !clip.isEmpty, produced > 0 else { return }

    let table = lookupTable(for: frame)
    let transparent = frame.transparentIndex ?? -1
    let frameWidth = frame.width
    let rows = min(frame.height, (produced + frameWidth - 1) / frameWidth)
    table.withUnsafeBufferPointer { lut in
      for streamRow in 0..<rows {
        let y = frame.y + (frame.interlaced ? Interlace.row(streamRow, height: frame.height) : streamRow)
        guard y >= clip.y0 && y < clip.y1 else { continue }
        let rowStart = streamRow * frameWidth
        // Only indices that arrived are drawn (a cut-short image keeps the rest).
        let x1 = min(clip.x1, frame.x + (produced - rowStart))
        guard x1 > clip.x0 else { continue }
        var src = rowStart + (clip.x0 - frame.x)
        var dst = y * width + clip.x0
        let dstEnd = y * width + x1
        if transparent < 0 {
          while dst < dstEnd {
            canvas[dst] = lut[Int(indices[src])]
            dst += 1
            src += 1
          }
        } else {
          while dst < dstEnd {
            let index = Int(indices[src])
            if index != transparent { canvas[dst] = lut[index] }
            dst += 1
            src += 1
          }
        }
      }
    }
  }

  private mutating func lookupTable(for frame: FrameInfo) -> [UInt32] {
    guard let palette = frame.palette else { return Palette.blackTable(format) }
    if !frame.hasLocalPalette {
      if let globalTable, globalPalette == palette { return globalTable }
      let table = palette.lookupTable(format)
      globalTable = table
      globalPalette = palette
      return table
    }
    return palette.lookupTable(format)
  }

  private mutating func applyPendingDisposal(canvas: UnsafeMutableBufferPointer<UInt32>) {
    let r = pendingRect
    guard !r.isEmpty else { return }
    switch pendingDisposal {
    case 2:
      for y in r.y0..<r.y1 {
        canvas[(y * width + r.x0)..<(y * width + r.x1)].update(repeating: 0)
      }
    case 3, 4:
      var i = 0
      for y in r.y0..<r.y1 {
        for x in r.x0..<r.x1 {
          canvas[y * width + x] = saved[i]
          i += 1
        }
      }
    default:
      break
    }
    pendingRect = Rect(x0: 0, y0: 0, x1: 0, y1: 0)
  }

  private mutating func save(_ r: Rect, from canvas: UnsafeMutableBufferPointer<UInt32>) {
    saved.removeAll(keepingCapacity: true)
    guard !r.isEmpty else { return }
    saved.reserveCapacity(r.width * r.height)
    for y in r.y0..<r.y1 {
      saved.append(contentsOf: canvas[(y * width + r.x0)..<(y * width + r.x1)])
    }
  }
}

/// Interlaced images store rows in four passes (every 8th from 0, every 8th from 4,
/// every 4th from 2, every 2nd from 1).
enum Interlace {
  static let start = [0, 4, 2, 1]
  static let step = [8, 8, 4, 2]

  /// The image row that stream row `n` belongs to.
  static func row(_ n: Int, height: Int) -> Int {
    var n = n
    for pass in 0..<4 {
      let rows = (height - start[pass] + step[pass] - 1) / step[pass]
      let count = max(rows, 0)
      if n < count { return start[pass] + n * step[pass] }
      n -= count
    }
    return height  // beyond the image: not drawn
  }
}
