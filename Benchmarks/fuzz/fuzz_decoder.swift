// libFuzzer entry point for the decoder: parse, decode and composite every frame of
// arbitrary bytes, whole and in chunks, under tight limits; in chunks the frames keep no
// data and are read back by offset from an input that lost its tail after parsing (as a
// file that shrank would). Built by Benchmarks/fuzz.sh with -sanitize=fuzzer,address
// together with Sources/GIFDecoder.

/// The input's first `available` bytes, read by offset.
struct CutInput: ImageDataSource {
  let bytes: [UInt8]
  let available: Int

  func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    guard offset >= 0, offset < available else { return 0 }
    let n = min(buffer.count, available - offset)
    bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
    return n
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: count))
  let limits = Limits(maxCanvasPixels: 1 << 22, maxInputBytes: 1 << 20)
  // Whole input.
  if let doc = try? GIFDocument.decode(bytes, limits: limits) {
    doc.renderAll(format: .bgra) { _, _ in }
  }
  // The same bytes fed 7 at a time, frames read back from all but the last 0–63 bytes.
  var decoder = GIFDecoder(limits: limits, retainsImageData: false)
  let input = CutInput(bytes: bytes, available: max(0, count - Int(bytes.last ?? 0) % 64))
  var renderer: FrameRenderer?
  var canvas: [UInt32] = []
  var rest = bytes[...]
  var frames = 0
  loop: while true {
    guard let event = try? decoder.next() else { break }
    switch event {
    case .needMoreData:
      if rest.isEmpty {
        decoder.finish()
      } else {
        decoder.feed(rest.prefix(7))
        rest = rest.dropFirst(7)
      }
    case .frame(let frame):
      frames += 1
      _ = canvas.withUnsafeMutableBufferPointer { renderer?.render(frame, canvas: $0, from: input) }
    case .screen(let screen):
      renderer = FrameRenderer(screen: screen, format: .bgra)
      canvas = [UInt32](repeating: 0, count: screen.width * screen.height)
    case .end: break loop
    }
  }
  return 0
}
