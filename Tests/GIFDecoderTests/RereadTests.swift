import GIFDecoder
import GIFTestSupport
import Testing

/// Frames handed out without their data (`retainsImageData: false`) and read again by
/// offset when drawn give exactly what frames that keep their data give, however the
/// input arrived, damaged or not; an input that shrinks or changes after it was parsed
/// is damage, never a crash.
@Suite("Image data read again by offset")
struct RereadTests {
  typealias Outcome = IncrementalTests.Outcome
  typealias FrameSummary = IncrementalTests.FrameSummary

  /// The LZW data of `range` of `bytes` as the decoder keeps it: sub-block framing
  /// removed, the first empty sub-block ends it, a sub-block cut short keeps its bytes.
  static func unframe(_ bytes: [UInt8], _ range: Range<Int>) -> [UInt8] {
    var out: [UInt8] = []
    var i = range.lowerBound
    while i < range.upperBound {
      let n = Int(bytes[i])
      if n == 0 { break }
      out += bytes[(i + 1)..<min(i + 1 + n, range.upperBound)]
      i += 1 + n
    }
    return out
  }

  /// Fed `chunk` bytes at a time to a decoder that keeps no image data; each frame is
  /// rendered when handed out, from `input` (default: all of `bytes`).
  static func decodeByOffset(
    _ bytes: [UInt8], chunk: Int, input: (any ImageDataSource)? = nil
  ) -> (outcome: Outcome, retained: Int) {
    IncrementalTests.decodeInChunks(bytes, chunk: chunk, readingAgainFrom: input ?? InMemoryInput(bytes))
  }

  static func expectSame(
    _ have: Outcome, _ want: Outcome, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    // A whole-file decode that fails answers no screen; the incremental one saw it.
    if want.error == nil { #expect(have.screen == want.screen, "\(what): screen", sourceLocation: sourceLocation) }
    #expect(
      have.frames.count == want.frames.count, "\(what): have \(have.frames.count) frames, want \(want.frames.count)",
      sourceLocation: sourceLocation)
    for (h, w) in zip(have.frames, want.frames) {
      #expect(h == w, "\(what): have \(h), want \(w)", sourceLocation: sourceLocation)
    }
    #expect(
      have.warnings == want.warnings, "\(what): have \(have.warnings), want \(want.warnings)",
      sourceLocation: sourceLocation)
    #expect(
      have.comments == want.comments && have.loopCount == want.loopCount, "\(what)", sourceLocation: sourceLocation)
    #expect(
      have.error == want.error,
      "\(what): have \(String(describing: have.error)), want \(String(describing: want.error))",
      sourceLocation: sourceLocation)
  }

  @Test(arguments: IncrementalTests.Fixture.allCases, [1, 2, 13, 787, 4096, Int.max])
  func readByOffsetGivesTheFramesOfKeptData(fixture: IncrementalTests.Fixture, chunk: Int) throws {
    let want = try #require(IncrementalTests.reference[fixture])
    let (have, retained) = Self.decodeByOffset(fixture.bytes, chunk: chunk)
    #expect(retained == 0, "have \(retained) compressed bytes kept, want none")
    #expect(!have.frames.isEmpty)
    Self.expectSame(have, want, "\(fixture) in chunks of \(chunk)")
  }

  @Test func dataRangeSpansFromTheFirstLengthByteThroughTheTerminator() throws {
    var gif = GIFBuilder(width: 2, height: 2, globalPalette: Picture.palette("RGBW"))
    gif.image(width: 2, height: 2, indices: [0, 1, 2, 3])
    let end = gif.count
    gif.trailer()
    var decoder = GIFDecoder(bytes: gif.bytes)
    var frames: [FrameInfo] = []
    while true {
      let event = try decoder.next()
      if case .frame(let f) = event { frames.append(f) }
      if case .end = event { break }
    }
    let f = try #require(frames.first)
    // Descriptor (10 bytes), then the code-size byte, then the sub-blocks.
    #expect(f.dataRange == (f.offset + 11)..<end)
    #expect(gif.bytes[f.dataRange.upperBound - 1] == 0, "the range ends with the block terminator")
    #expect(Self.unframe(gif.bytes, f.dataRange) == f.compressed && !f.compressed.isEmpty)
  }

  @Test func withoutASourceAFrameWithoutDataDrawsNothing() throws {
    var gif = GIFBuilder(width: 2, height: 1, globalPalette: Picture.palette("RG"))
    gif.image(width: 2, height: 1, indices: [0, 1])
    gif.trailer()
    var decoder = GIFDecoder(retainsImageData: false)
    decoder.feed(gif.bytes)
    decoder.finish()
    guard case .screen(let screen) = try decoder.next(), case .frame(let frame) = try decoder.next() else {
      Issue.record("want screen, frame")
      return
    }
    #expect(frame.compressed.isEmpty && !frame.dataRange.isEmpty)
    var renderer = FrameRenderer(screen: screen, format: .rgba)
    var canvas = [UInt32](repeating: 0, count: 2)
    _ = canvas.withUnsafeMutableBufferPointer { renderer.render(frame, canvas: $0) }
    #expect(canvas == [0, 0])
    let warning = canvas.withUnsafeMutableBufferPointer {
      renderer.render(frame, canvas: $0, from: InMemoryInput(gif.bytes))
    }
    #expect(warning == nil && canvas.allSatisfy { $0 >> 24 == 0xFF }, "have \(canvas)")
  }

  /// The input as parsed, then only its first `cut` bytes when frames are drawn (the
  /// file was truncated after it was parsed): frames whose data lies before the cut are
  /// intact; the frame the cut falls in draws as far as its data goes, like the same
  /// frame of the input cut there before parsing, with a "truncated" warning; later
  /// frames draw nothing of their own.
  @Test(arguments: [0.1, 0.45, 0.72, 0.99])
  func anInputCutAfterItWasParsedIsDamageFromTheCutOn(fraction: Double) throws {
    let bytes = IncrementalTests.Fixture.animated.bytes
    let cut = Int(Double(bytes.count) * fraction)
    let full = try #require(IncrementalTests.reference[.animated])
    let cutBefore = IncrementalTests.decodeWhole(Array(bytes.prefix(cut)))
    let (have, _) = Self.decodeByOffset(bytes, chunk: 4096, input: InMemoryInput(bytes, available: cut))
    #expect(have.frames.count == full.frames.count, "every frame parsed is still handed out")
    var framesCut = 0
    for (i, h) in have.frames.enumerated() {
      let w = full.frames[i]
      if h.offset >= cut {
        framesCut += 1
        #expect(have.warnings.contains { $0.kind == .truncated && $0.frame == i }, "frame \(i): want a warning")
      } else if cutBefore.frames.indices.contains(i) && !cutBefore.frames[i].dataComplete {
        // The frame the cut falls in.
        #expect(h.canvasSHA256 == cutBefore.frames[i].canvasSHA256, "frame \(i) drawn as far as its data goes")
        #expect(have.warnings.contains { $0.kind == .truncated && $0.frame == i }, "frame \(i): want a warning")
      } else if i < cutBefore.frames.count {
        #expect(h.canvasSHA256 == w.canvasSHA256, "frame \(i) lies before the cut: intact")
      }
    }
    #expect(framesCut > 0 || fraction > 0.9, "the cut at \(cut) of \(bytes.count) spares no frame it should cut")
  }

  /// An input that changed after it was parsed (other bytes at the same offsets, or
  /// reads that answer nonsense) draws garbage or nothing, never out of bounds.
  @Test(arguments: [0, 1, 2])
  func anInputChangedAfterItWasParsedNeverCrashes(seed: UInt64) throws {
    let bytes = IncrementalTests.Fixture.animated.bytes
    var rng = SeededGenerator(seed: seed)
    var other = bytes
    for i in stride(from: 20, to: other.count, by: 1 + Int.random(in: 0..<40, using: &rng)) {
      other[i] = UInt8.random(in: 0...255, using: &rng)
    }
    let (have, _) = Self.decodeByOffset(bytes, chunk: Int.max, input: InMemoryInput(other))
    #expect(have.frames.count == IncrementalTests.reference[.animated]?.frames.count)
    let (lying, _) = Self.decodeByOffset(bytes, chunk: Int.max, input: LyingInput())
    #expect(lying.frames.count == have.frames.count)
  }

  /// Answers more bytes than asked for, of zeros and 255s.
  struct LyingInput: ImageDataSource {
    func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
      for i in buffer.indices { buffer[i] = i % 3 == 0 ? 0xFF : UInt8(truncatingIfNeeded: offset + i) }
      return buffer.count + 1000
    }
  }

  static let corpusPresent = CorpusTests.corpusPresent

  /// What the corpus comparison checks per file: each frame's canvas (FNV-1a, cheaper
  /// than SHA-256 on the corpus's huge canvases), completeness and data length, the
  /// warnings and the error.
  struct Fingerprint: Equatable {
    var frames: [String] = []
    var warnings: [GIFWarning] = []
    var error: GIFError?

    static func frame(_ f: FrameInfo, dataCount: Int, _ canvas: UnsafeBufferPointer<UInt32>) -> String {
      var h: UInt64 = 0xcbf2_9ce4_8422_2325
      for p in canvas { h = (h ^ UInt64(p)) &* 0x0000_0100_0000_01b3 }
      return "#\(f.index) data \(dataCount) complete \(f.dataComplete) canvas \(String(h, radix: 16))"
    }
  }

  static func fingerprintKept(_ bytes: [UInt8]) -> Fingerprint {
    var print = Fingerprint()
    do {
      let doc = try GIFDocument.decode(bytes)
      let warnings = doc.renderAll(format: .rgba) { f, canvas in
        print.frames.append(Fingerprint.frame(f, dataCount: f.compressed.count, canvas))
      }
      print.warnings = IncrementalTests.sortedWarnings(warnings)
    } catch {
      print.error = error
    }
    return print
  }

  static func fingerprintByOffset(_ bytes: [UInt8], chunk: Int) -> Fingerprint {
    var print = Fingerprint()
    var decoder = GIFDecoder(retainsImageData: false)
    let input = InMemoryInput(bytes)
    var fed = 0
    var renderer: FrameRenderer?
    var canvas: [UInt32] = []
    var pixelWarnings: [GIFWarning] = []
    loop: while true {
      let event: DecoderEvent
      do {
        event = try decoder.next()
      } catch {
        print.error = error
        return print
      }
      switch event {
      case .needMoreData:
        guard fed < bytes.count else {
          decoder.finish()
          continue
        }
        let end = min(bytes.count, fed + chunk)
        decoder.feed(bytes[fed..<end])
        fed = end
      case .screen(let screen):
        renderer = FrameRenderer(screen: screen, format: .rgba)
        canvas = [UInt32](repeating: 0, count: screen.width * screen.height)
      case .frame(let frame):
        #expect(frame.compressed.isEmpty)
        let warning = canvas.withUnsafeMutableBufferPointer { renderer!.render(frame, canvas: $0, from: input) }
        if let warning { pixelWarnings.append(warning) }
        let count = unframe(bytes, frame.dataRange).count
        canvas.withUnsafeBufferPointer { print.frames.append(Fingerprint.frame(frame, dataCount: count, $0)) }
      case .end:
        break loop
      }
    }
    print.warnings = IncrementalTests.sortedWarnings(decoder.warnings + pixelWarnings)
    return print
  }

  /// Every corpus file, fed in 4096-byte chunks and read back by offset, gives the frames,
  /// warnings and errors of the whole file decoded with its data kept.
  @Test(.enabled(if: corpusPresent, "../shared/corpus not found: skipped"))
  func everyCorpusFileReadByOffsetMatchesKeptData() throws {
    var files = 0
    for file in Corpus.allGIFs() {
      guard let bytes = Corpus.bytes(file) else { continue }
      files += 1
      let want = Self.fingerprintKept(bytes)
      let have = Self.fingerprintByOffset(bytes, chunk: 4096)
      #expect(have.frames == want.frames, "\(file): have \(have.frames), want \(want.frames)")
      #expect(have.warnings == want.warnings, "\(file): have \(have.warnings), want \(want.warnings)")
      #expect(have.error == want.error, "\(file)")
    }
    #expect(files > 100, "have \(files) corpus files")
  }
}
