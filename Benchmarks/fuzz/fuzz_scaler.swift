// libFuzzer entry point for the pixel paths: the compositor (Sources/GIFDecoder/Compositor.swift)
// draws fuzzed images with fuzzed rectangles, disposals and index streams onto a small
// canvas, and the window painter (Sources/GIFView/Painter.swift) scales that canvas into a
// fuzzed tile of a fuzzed window at a fuzzed scale, then cross-fades. Every buffer is
// exactly sized, so AddressSanitizer sees any access outside it. Built by
// Benchmarks/fuzz.sh with -sanitize=fuzzer,address.

/// Reads the fuzz input a byte at a time; zeros once it runs out.
struct ByteReader {
  var bytes: ArraySlice<UInt8>
  mutating func byte() -> Int {
    guard let b = bytes.first else { return 0 }
    bytes = bytes.dropFirst()
    return Int(b)
  }
  mutating func signed() -> Int { byte() - 128 }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  var input = ByteReader(bytes: Array(UnsafeBufferPointer(start: data, count: count))[...])
  let width = 1 + input.byte() % 64
  let height = 1 + input.byte() % 64
  let format: PixelFormat = input.byte() & 1 == 0 ? .bgra : .rgba
  var compositor = Compositor(width: width, height: height, format: format)
  var canvas = [UInt32](repeating: 0, count: width * height)
  let frames = 1 + input.byte() % 4
  for index in 0..<frames {
    let fw = 1 + input.byte() % 80
    let fh = 1 + input.byte() % 80
    let paletteCount = input.byte() % 257
    let palette: Palette? =
      paletteCount < 2 ? nil : Palette(rgb: (0..<paletteCount * 3).map { UInt8(truncatingIfNeeded: $0 &* 37) })
    let flags = input.byte()
    let frame = FrameInfo(
      index: index, x: input.signed(), y: input.signed(), width: fw, height: fh,
      delayCS: 0, disposal: flags & 7, transparentIndex: flags & 8 != 0 ? input.byte() : nil,
      interlaced: flags & 16 != 0, hasLocalPalette: flags & 32 != 0, palette: palette,
      lzwMinimumCodeSize: 8, compressed: [], dataComplete: true, offset: 0)
    // Up to every index of the image; the stream's own bytes, then a pattern.
    let produced = min(fw * fh, input.byte() * 32 + input.byte())
    var indices = [UInt8](repeating: 0, count: produced)
    for i in 0..<produced { indices[i] = UInt8(truncatingIfNeeded: input.bytes.isEmpty ? i : input.byte()) }
    indices.withUnsafeBufferPointer { ix in
      canvas.withUnsafeMutableBufferPointer { compositor.draw(frame, indices: ix, produced: produced, canvas: $0) }
    }
  }
  // Painter pixels are 0x00RRGGBB with the alpha in the top byte, as a .bgra canvas is.
  let bufferWidth = 1 + input.byte() % 128
  let bufferHeight = 1 + input.byte() % 128
  let tx0 = input.byte() % bufferWidth
  let ty0 = input.byte() % bufferHeight
  let tile = Tile(
    x0: tx0, y0: ty0, x1: tx0 + input.byte() % (bufferWidth - tx0 + 1),
    y1: ty0 + input.byte() % (bufferHeight - ty0 + 1))
  let modes: [ContentMode] = [.fit, .fill, .actual]
  let mode = input.byte()
  let scale =
    mode < 3
    ? modes[mode].scale(imageWidth: width, imageHeight: height, windowWidth: tile.width, windowHeight: tile.height)
    : Double(mode) / Double(1 + input.byte())
  let place = Placement(imageWidth: width, imageHeight: height, scale: scale, in: tile)
  let bg: Background =
    input.byte() & 1 == 0
    ? .checker : .solid(r: UInt8(input.byte()), g: UInt8(input.byte()), b: UInt8(input.byte()))
  var out = [UInt32](repeating: 0, count: bufferWidth * bufferHeight)
  let frame = RenderedFrame(
    screenWidth: width, screenHeight: height, area: Rect(x0: 0, y0: 0, x1: width, y1: height), pixels: canvas)
  out.withUnsafeMutableBufferPointer { buffer in
    Painter.draw(frame: frame, at: place, over: bg, into: buffer, width: bufferWidth, tile: tile)
  }
  precondition(out.allSatisfy { $0 >> 24 == 0 }, "painter wrote an alpha byte")
  // Every window pixel's source weights sum to 4096 and stay inside the source.
  for (count, from, scaled, source) in [
    (tile.width, max(tile.x0, place.x) - place.x, place.width, width),
    (tile.height, max(tile.y0, place.y) - place.y, place.height, height),
  ] {
    let n = max(0, min(count, scaled - from))
    for parts in Painter.weights(count: n, from: from, scaled: scaled, source: source) {
      precondition(parts.reduce(0) { $0 + $1.weight } == 4096, "weights do not sum to 4096")
      precondition(parts.allSatisfy { $0.index >= 0 && $0.index < source }, "weight outside the source")
    }
  }
  let faded = [UInt32](unsafeUninitializedCapacity: out.count) { buffer, initialized in
    out.withUnsafeBufferPointer { a in Painter.crossFade(a, a, t: Double(input.byte()) / 255, into: buffer) }
    initialized = out.count
  }
  precondition(faded == out, "a cross-fade of a picture with itself changed it")
  return 0
}
