/// Turns images into composited canvases, in order: LZW into a small reused index
/// buffer, drained by the compositor onto the caller's canvas as it fills.
public struct FrameRenderer: Sendable {
  /// The logical screen frames are composited onto.
  public let screen: ScreenInfo
  /// The compositor that applies disposal and draws each image.
  public private(set) var compositor: Compositor
  private var lzw = LZWDecoder()
  /// Indices per LZW step: small enough to stay in cache between decoder and compositor.
  private static let chunk = 1 << 13
  private var indices = [UInt8](repeating: 0, count: chunk + LZWDecoder.slack)
  /// A frame's data read again from its source, unframed in place (see `reread`).
  private var rereadBuffer: [UInt8] = []

  /// A renderer for `screen`, producing `format` canvases.
  public init(screen: ScreenInfo, format: PixelFormat) {
    self.screen = screen
    self.compositor = Compositor(width: screen.width, height: screen.height, format: format)
  }

  /// A renderer whose canvas holds only `area` of the screen (see `Compositor`).
  public init(screen: ScreenInfo, format: PixelFormat, area: Rect) {
    self.screen = screen
    self.compositor = Compositor(width: screen.width, height: screen.height, format: format, area: area)
  }

  /// Pixels the canvas must hold (the screen's, unless an area was given).
  public var pixelCount: Int { compositor.canvasCount }
  /// The part of the screen the canvas holds.
  public var area: Rect { compositor.area }

  /// Widens the canvas to `newArea` (see `Compositor.grow`).
  public mutating func grow(
    to newArea: Rect, from old: UnsafeBufferPointer<UInt32>, into new: UnsafeMutableBufferPointer<UInt32>
  ) {
    compositor.grow(to: newArea, from: old, into: new)
  }

  /// Start a new play: clears `canvas` and the disposal state.
  public mutating func reset(canvas: UnsafeMutableBufferPointer<UInt32>) {
    compositor.reset(canvas: canvas)
  }

  /// Draws `frame` onto `canvas` (which holds the previous image's result); answers the
  /// pixel-level damage found, if any. A frame handed out without its data
  /// (`GIFDecoder.retainsImageData` false) is read again from `source` by its
  /// `dataRange`; without a source it draws as a frame with no data.
  @discardableResult
  public mutating func render(
    _ frame: FrameInfo, canvas: UnsafeMutableBufferPointer<UInt32>, from source: (any ImageDataSource)? = nil
  ) -> GIFWarning? {
    compositor.begin(frame, canvas: canvas)
    let pixels = frame.width * frame.height
    guard pixels > 0 else { return nil }
    let (produced, status): (Int, LZWDecoder.Status)
    var complete = frame.dataComplete
    if frame.compressed.isEmpty, !frame.dataRange.isEmpty, let source {
      let (count, read) = reread(frame.dataRange, from: source)
      // The input changed or shrank since it was parsed: its data ends where the read did.
      if read < frame.dataRange.count { complete = false }
      // A copy of the reference only: `data` is not written while it is shared.
      let data = rereadBuffer
      (produced, status) = data.withUnsafeBufferPointer {
        decode(UnsafeBufferPointer(rebasing: $0[0..<count]), frame: frame, pixels: pixels, canvas: canvas)
      }
      if produced < pixels && !complete && frame.dataComplete {
        return GIFWarning(.truncated, frame: frame.index, offset: frame.dataRange.lowerBound + read)
      }
    } else {
      (produced, status) = frame.compressed.withUnsafeBufferPointer {
        decode($0, frame: frame, pixels: pixels, canvas: canvas)
      }
    }
    if produced >= pixels { return nil }
    switch status {
    case .complete, .notEnoughData:
      // An end code before the last pixel: the rest stay untouched, but it is damage;
      // a cut-short file already carries its "truncated" warning.
      return complete ? GIFWarning(.notEnoughPixelData, frame: frame.index, offset: frame.offset) : nil
    case .badCode:
      return GIFWarning(.badLZWCode, frame: frame.index, offset: frame.offset)
    }
  }

  /// LZW from `data` into the index buffer, drained onto `canvas` chunk by chunk; answers
  /// the pixels drawn and how decoding ended.
  private mutating func decode(
    _ data: UnsafeBufferPointer<UInt8>, frame: FrameInfo, pixels: Int, canvas: UnsafeMutableBufferPointer<UInt32>
  ) -> (produced: Int, status: LZWDecoder.Status) {
    lzw.start(minimumCodeSize: frame.lzwMinimumCodeSize)
    var produced = 0
    var status = LZWDecoder.Status.complete
    indices.withUnsafeMutableBufferPointer { buffer in
      while produced < pixels {
        let (n, done) = lzw.step(data, into: buffer, limit: min(Self.chunk, pixels - produced))
        // Indices past the last pixel are extra data, ignored.
        let kept = min(n, pixels - produced)
        compositor.draw(UnsafeBufferPointer(rebasing: buffer[0..<kept]), at: produced, canvas: canvas)
        produced += kept
        if let done {
          status = done
          break
        }
      }
    }
    return (produced, status)
  }

  /// Reads `range` of the input from `source` into `rereadBuffer` and strips the
  /// sub-block framing in place, as the decoder does when it keeps the data (a sub-block
  /// cut short keeps its bytes; the first empty one ends the data). Answers the length of
  /// the LZW data and how many bytes of `range` the source gave.
  private mutating func reread(_ range: Range<Int>, from source: any ImageDataSource) -> (count: Int, read: Int) {
    let want = range.count
    // Grows to the largest frame's data once; later frames reuse it.
    if rereadBuffer.count < want { rereadBuffer = [UInt8](repeating: 0, count: want) }
    return rereadBuffer.withUnsafeMutableBytes { raw in
      var read = 0
      while read < want {
        let n = source.read(
          at: range.lowerBound + read, into: UnsafeMutableRawBufferPointer(rebasing: raw[read..<want]))
        guard n > 0 else { break }
        read += min(n, want - read)  // a source answering more than it was asked is not believed
      }
      // Unframe in place: the data moves left only (`to` ≤ `from`), so every copy is
      // within `raw[0..<read]`.
      var from = 0
      var to = 0
      while from < read {
        let length = Int(raw[from])
        if length == 0 { break }
        let start = from + 1
        let end = min(start + length, read)
        if end > start {
          (raw.baseAddress! + to).copyMemory(from: raw.baseAddress! + start, byteCount: end - start)
          to += end - start
        }
        from = end
      }
      return (to, read)
    }
  }
}

/// Where a renderer reads image data again: the input a `GIFDecoder` parsed (a file, a
/// cached download), by absolute offset. Called from the thread that renders.
public protocol ImageDataSource: Sendable {
  /// Copies the input's bytes from `offset` on into `buffer`, as many as there are up to
  /// its size, and answers how many (fewer, down to 0, at the end of the input or on a
  /// read error: the renderer treats the data as ending there).
  func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int
}

/// A whole file parsed at once: what `--info`, `--frames` and `--check` work from.
public struct GIFDocument: Sendable {
  /// The logical screen.
  public var screen: ScreenInfo
  /// Every image, in file order, with its compressed data.
  public var frames: [FrameInfo]
  /// The stored loop value that counts, nil without a loop extension.
  public var loopCount: Int?
  /// The text of every comment extension.
  public var comments: [String]
  /// Damage found while parsing (pixel-level damage is found by rendering).
  public var warnings: [GIFWarning]

  /// A document from parts an incremental `GIFDecoder` handed out.
  public init(
    screen: ScreenInfo, frames: [FrameInfo], loopCount: Int?, comments: [String], warnings: [GIFWarning]
  ) {
    self.screen = screen
    self.frames = frames
    self.loopCount = loopCount
    self.comments = comments
    self.warnings = warnings
  }

  /// Parses a whole file; throws when nothing can be shown.
  public static func decode(_ bytes: [UInt8], limits: Limits = .default) throws(GIFError) -> GIFDocument {
    var decoder = GIFDecoder(bytes: bytes, limits: limits)
    var screen: ScreenInfo?
    var frames: [FrameInfo] = []
    loop: while true {
      switch try decoder.next() {
      case .screen(let s): screen = s
      case .frame(let f): frames.append(f)
      case .end, .needMoreData: break loop
      }
    }
    guard let screen else { throw GIFError(.truncatedHeader, offset: 0) }
    return GIFDocument(
      screen: screen, frames: frames, loopCount: decoder.loopCount,
      comments: decoder.comments, warnings: decoder.warnings)
  }

  /// Total plays (DESIGN §2): no loop extension → 1, stored 0 → nil (forever), N → N+1.
  public var plays: Int? { Self.plays(loopCount: loopCount) }

  /// Total plays for a stored loop count (DESIGN §2): none → 1, 0 → forever (nil), N → N + 1.
  public static func plays(loopCount: Int?) -> Int? {
    guard let loopCount else { return 1 }
    return loopCount == 0 ? nil : loopCount + 1
  }

  /// Renders every frame in order, handing each composited canvas to `body`;
  /// answers the parse warnings followed by the pixel-level ones.
  @discardableResult
  public func renderAll(
    format: PixelFormat, _ body: (FrameInfo, UnsafeBufferPointer<UInt32>) throws -> Void
  ) rethrows -> [GIFWarning] {
    try render(FrameRenderer(screen: screen, format: format), body)
  }

  /// The part of the screen any image draws on (clipped to it): every pixel outside it
  /// stays transparent in every frame. Empty when no image shows.
  public var touchedArea: Rect {
    frames.reduce(Rect(x0: 0, y0: 0, x1: 0, y1: 0)) {
      $0.union($1.rect.clipped(width: screen.width, height: screen.height))
    }
  }

  /// `renderAll` on a canvas of `touchedArea` only, so memory follows what the images
  /// cover, not the screen: `body` gets that area's pixels row by row (none if empty).
  @discardableResult
  public func renderTouched(
    format: PixelFormat, _ body: (FrameInfo, UnsafeBufferPointer<UInt32>, Rect) throws -> Void
  ) rethrows -> [GIFWarning] {
    let area = touchedArea
    return try render(FrameRenderer(screen: screen, format: format, area: area)) { try body($0, $1, area) }
  }

  private func render(
    _ renderer: FrameRenderer, _ body: (FrameInfo, UnsafeBufferPointer<UInt32>) throws -> Void
  ) rethrows -> [GIFWarning] {
    var renderer = renderer
    var canvas = [UInt32](repeating: 0, count: renderer.pixelCount)
    var found = warnings
    for frame in frames {
      let warning = canvas.withUnsafeMutableBufferPointer { renderer.render(frame, canvas: $0) }
      if let warning { found.append(warning) }
      try canvas.withUnsafeBufferPointer { try body(frame, $0) }
    }
    return found.sorted { $0.offset < $1.offset }
  }
}
