// libFuzzer entry point for the decoder: parse, decode and composite every frame of
// arbitrary bytes, whole and in chunks, under tight limits. Built by Benchmarks/fuzz.sh
// with -sanitize=fuzzer,address together with Sources/GIFDecoder.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: count))
  let limits = Limits(maxCanvasPixels: 1 << 22, maxInputBytes: 1 << 20)
  // Whole input.
  if let doc = try? GIFDocument.decode(bytes, limits: limits) {
    doc.renderAll(format: .bgra) { _, _ in }
  }
  // The same bytes fed 7 at a time.
  var decoder = GIFDecoder(limits: limits)
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
    case .frame: frames += 1
    case .screen: break
    case .end: break loop
    }
  }
  return 0
}
