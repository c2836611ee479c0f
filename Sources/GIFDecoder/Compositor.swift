/// Draws images onto a canvas with browser semantics (DESIGN §2): the canvas starts
/// transparent, images are clipped to the screen, the transparent index leaves the canvas
/// alone, and before each image the previous image's disposal is applied.
///
/// The canvas is the caller's buffer (an XImage's pixels, or an RGBA array) holding
/// `area` of the screen, row by row; the compositor keeps only what disposal needs
/// between images. An area smaller than the screen serves files whose images touch only
/// part of it: everything outside stays transparent.
public struct Compositor: Sendable {
  /// Canvas width in pixels.
  public let width: Int
  /// Canvas height in pixels.
  public let height: Int
  /// How canvas pixels are laid out.
  public let format: PixelFormat
  /// The part of the screen the canvas holds; images are clipped to it.
  public private(set) var area: Rect

  private var pendingDisposal = 0
  private var pendingRect = Rect(x0: 0, y0: 0, x1: 0, y1: 0)
  /// The clipped rectangle of the canvas before an image with disposal 3 or 4.
  private var saved: [UInt32] = []
  private var globalTable: [UInt32]?
  private var globalPalette: Palette?

  // The image being drawn (set by `begin`).
  private var frameRect = Rect(x0: 0, y0: 0, x1: 0, y1: 0)
  private var clip = Rect(x0: 0, y0: 0, x1: 0, y1: 0)
  private var interlaced = false
  private var transparent = -1
  private var table: [UInt32] = []

  /// A compositor for a `width`×`height` canvas of `format` pixels.
  public init(width: Int, height: Int, format: PixelFormat) {
    self.init(width: width, height: height, format: format, area: Rect(x0: 0, y0: 0, x1: width, y1: height))
  }

  /// A compositor whose canvas holds only `area` (clipped to the screen).
  public init(width: Int, height: Int, format: PixelFormat, area: Rect) {
    self.width = width
    self.height = height
    self.format = format
    self.area = area.clipped(width: width, height: height)
  }

  /// Pixels the canvas must hold.
  public var canvasCount: Int { area.width * area.height }

  /// Widens the canvas to hold `newArea` (clipped to the screen), which must contain
  /// the current area: `old` is copied into place in `new` (`newArea`'s size) and the
  /// rest is transparent, as nothing was ever drawn there. Disposal state carries over,
  /// so a canvas can start with the first image's rectangle and grow with later ones.
  public mutating func grow(
    to newArea: Rect, from old: UnsafeBufferPointer<UInt32>, into new: UnsafeMutableBufferPointer<UInt32>
  ) {
    let target = newArea.clipped(width: width, height: height).union(area)
    precondition(old.count >= canvasCount && new.count >= target.width * target.height)
    new.update(repeating: 0)
    for y in area.y0..<area.y1 {
      let from = (y - area.y0) * area.width
      let to = (y - target.y0) * target.width + (area.x0 - target.x0)
      _ = UnsafeMutableBufferPointer(rebasing: new[to..<(to + area.width)])
        .update(fromContentsOf: UnsafeBufferPointer(rebasing: old[from..<(from + area.width)]))
    }
    area = target
  }

  /// Forget the previous image: the next `draw` starts a new play on a cleared canvas.
  public mutating func reset(canvas: UnsafeMutableBufferPointer<UInt32>) {
    canvas.update(repeating: 0)
    pendingDisposal = 0
    pendingRect = Rect(x0: 0, y0: 0, x1: 0, y1: 0)
  }

  /// Applies the previous image's disposal, then draws `frame` whose first `produced`
  /// indices (in stream order) are in `indices`.
  public mutating func draw(
    _ frame: FrameInfo, indices: UnsafeBufferPointer<UInt8>, produced: Int,
    canvas: UnsafeMutableBufferPointer<UInt32>
  ) {
    begin(frame, canvas: canvas)
    if produced > 0 { draw(UnsafeBufferPointer(rebasing: indices[0..<produced]), at: 0, canvas: canvas) }
  }

  /// Applies the previous image's disposal and gets ready to draw `frame`'s indices.
  public mutating func begin(_ frame: FrameInfo, canvas: UnsafeMutableBufferPointer<UInt32>) {
    precondition(canvas.count >= canvasCount)
    applyPendingDisposal(canvas: canvas)
    frameRect = frame.rect
    clip = Self.intersect(frame.rect.clipped(width: width, height: height), area)
    if frame.disposal == 3 || frame.disposal == 4 { save(clip, from: canvas) }
    pendingDisposal = frame.disposal
    pendingRect = clip
    interlaced = frame.interlaced
    transparent = frame.transparentIndex ?? -1
    table = clip.isEmpty ? [] : lookupTable(for: frame)
  }

  /// Draws indices `offset..<offset + indices.count` (in stream order) of the image
  /// given to `begin`.
  public func draw(_ indices: UnsafeBufferPointer<UInt8>, at offset: Int, canvas: UnsafeMutableBufferPointer<UInt32>) {
    guard !clip.isEmpty, let source = indices.baseAddress else { return }
    let frameWidth = frameRect.width
    let frameHeight = frameRect.height
    let areaWidth = area.width
    var done = 0
    var position = offset
    table.withUnsafeBufferPointer { lut in
      // `lut` has 256 entries: every UInt8 index is inside it.
      let colours = lut.baseAddress!
      while done < indices.count {
        let streamRow = position / frameWidth
        let column = position - streamRow * frameWidth
        let run = min(indices.count - done, frameWidth - column)
        if streamRow >= frameHeight { break }
        let y = frameRect.y0 + (interlaced ? Interlace.row(streamRow, height: frameHeight) : streamRow)
        let runX0 = frameRect.x0 + column
        let x0 = max(runX0, clip.x0)
        let x1 = min(runX0 + run, clip.x1)
        if y >= clip.y0 && y < clip.y1 && x1 > x0 {
          // Inside the clip, so inside both the index run and the canvas.
          let rowStart = (y - area.y0) * areaWidth - area.x0
          assert(rowStart + x1 <= canvas.count && done + (x1 - runX0) <= indices.count)
          let src = source + done + (x0 - runX0)
          let dst = canvas.baseAddress! + rowStart + x0
          Self.drawRow(src, dst, count: x1 - x0, colours: colours, transparent: transparent)
        }
        done += run
        position += run
      }
    }
  }

  /// One row: four pixels a step; with a transparent index, four transparent pixels are
  /// skipped and four opaque ones stored with one test each.
  @inline(__always)
  private static func drawRow(
    _ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt32>, count: Int,
    colours: UnsafePointer<UInt32>, transparent: Int
  ) {
    var i = 0
    if transparent < 0 {
      while i &+ 4 <= count {
        dst[i] = colours[Int(src[i])]
        dst[i &+ 1] = colours[Int(src[i &+ 1])]
        dst[i &+ 2] = colours[Int(src[i &+ 2])]
        dst[i &+ 3] = colours[Int(src[i &+ 3])]
        i &+= 4
      }
      while i < count {
        dst[i] = colours[Int(src[i])]
        i &+= 1
      }
      return
    }
    let pattern = UInt32(truncatingIfNeeded: transparent) &* 0x0101_0101
    while i &+ 4 <= count {
      // Bytes equal to the transparent index become zero bytes.
      let x = UInt32(littleEndian: UnsafeRawPointer(src + i).loadUnaligned(as: UInt32.self)) ^ pattern
      if x == 0 {
        // All four transparent.
      } else if (x &- 0x0101_0101) & ~x & 0x8080_8080 == 0 {
        // None transparent.
        dst[i] = colours[Int(src[i])]
        dst[i &+ 1] = colours[Int(src[i &+ 1])]
        dst[i &+ 2] = colours[Int(src[i &+ 2])]
        dst[i &+ 3] = colours[Int(src[i &+ 3])]
      } else {
        for k in i..<(i &+ 4) where Int(src[k]) != transparent { dst[k] = colours[Int(src[k])] }
      }
      i &+= 4
    }
    while i < count {
      let index = Int(src[i])
      if index != transparent { dst[i] = colours[index] }
      i &+= 1
    }
  }

  private static func intersect(_ a: Rect, _ b: Rect) -> Rect {
    let r = Rect(x0: max(a.x0, b.x0), y0: max(a.y0, b.y0), x1: min(a.x1, b.x1), y1: min(a.y1, b.y1))
    return r.isEmpty ? Rect(x0: 0, y0: 0, x1: 0, y1: 0) : r
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

  /// Canvas index of the first pixel of rectangle `r`'s row `y`.
  @inline(__always) private func rowIndex(_ r: Rect, _ y: Int) -> Int {
    (y - area.y0) * area.width + (r.x0 - area.x0)
  }

  private mutating func applyPendingDisposal(canvas: UnsafeMutableBufferPointer<UInt32>) {
    let r = pendingRect
    guard !r.isEmpty else { return }
    switch pendingDisposal {
    case 2:
      for y in r.y0..<r.y1 {
        let start = rowIndex(r, y)
        canvas[start..<(start + r.width)].update(repeating: 0)
      }
    case 3, 4:
      for y in r.y0..<r.y1 {
        let start = rowIndex(r, y)
        let from = (y - r.y0) * r.width
        saved.withUnsafeBufferPointer { s in
          _ = UnsafeMutableBufferPointer(rebasing: canvas[start..<(start + r.width)])
            .update(fromContentsOf: UnsafeBufferPointer(rebasing: s[from..<(from + r.width)]))
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
      let start = rowIndex(r, y)
      saved.append(contentsOf: canvas[start..<(start + r.width)])
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
