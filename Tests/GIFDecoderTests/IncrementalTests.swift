import GIFDecoder
import GIFTestSupport
import Testing

/// STYLE 4.4 / Wuffs' many-small-reads tests: however the input is cut into chunks, the
/// decoder hands out the same frames, warnings, comments and loop count as the whole
/// input at once, and each frame as soon as its data's block terminator has arrived.
@Suite("Incremental decoding")
struct IncrementalTests {
  /// Everything about a frame that must not depend on how the input arrived.
  struct FrameSummary: Equatable, CustomStringConvertible {
    var index: Int, x: Int, y: Int, width: Int, height: Int
    var delayCS: Int, disposal: Int, transparentIndex: Int?
    var interlaced: Bool, hasLocalPalette: Bool, palette: Palette?
    var lzwMinimumCodeSize: Int, compressedCount: Int, compressedSHA256: String
    var dataComplete: Bool, offset: Int
    /// The composited canvas after this frame.
    var canvasSHA256: String

    init(_ f: FrameInfo, canvas: UnsafeBufferPointer<UInt32>) {
      (index, x, y, width, height) = (f.index, f.x, f.y, f.width, f.height)
      (delayCS, disposal, transparentIndex) = (f.delayCS, f.disposal, f.transparentIndex)
      (interlaced, hasLocalPalette, palette) = (f.interlaced, f.hasLocalPalette, f.palette)
      (lzwMinimumCodeSize, compressedCount) = (f.lzwMinimumCodeSize, f.compressed.count)
      compressedSHA256 = SHA256.hex(f.compressed)
      (dataComplete, offset) = (f.dataComplete, f.offset)
      canvasSHA256 = SHA256.hex(rgbaBytes(canvas))
    }

    var description: String {
      "#\(index) \(width)x\(height)+\(x)+\(y) delay \(delayCS) disposal \(disposal) "
        + "transparent \(transparentIndex.map(String.init) ?? "-") data \(compressedCount) complete \(dataComplete) "
        + "offset \(offset) canvas \(canvasSHA256.prefix(12))"
    }
  }

  struct Outcome: Equatable {
    var screen: ScreenInfo?
    var frames: [FrameSummary] = []
    var warnings: [GIFWarning] = []
    var comments: [String] = []
    var loopCount: Int?
    var error: GIFError?
  }

  static func sortedWarnings(_ w: [GIFWarning]) -> [GIFWarning] {
    w.sorted { ($0.offset, $0.description) < ($1.offset, $1.description) }
  }

  /// The whole input at once, through `GIFDocument`.
  static func decodeWhole(_ bytes: [UInt8]) -> Outcome {
    var outcome = Outcome()
    do {
      let doc = try GIFDocument.decode(bytes)
      outcome.screen = doc.screen
      let warnings = doc.renderAll(format: .rgba) { f, canvas in outcome.frames.append(FrameSummary(f, canvas: canvas))
      }
      (outcome.warnings, outcome.comments, outcome.loopCount) = (sortedWarnings(warnings), doc.comments, doc.loopCount)
    } catch {
      outcome.error = error
    }
    return outcome
  }

  /// Fed `chunk` bytes at a time, each frame rendered as soon as it is handed out.
  static func decodeInChunks(_ bytes: [UInt8], chunk: Int) -> Outcome {
    decodeInChunks(bytes, chunk: chunk, readingAgainFrom: nil).outcome
  }

  /// As above; with `input`, by a decoder that keeps no image data, each frame rendered
  /// from `input` and its summary's data rebuilt from its `dataRange` (so it equals the
  /// kept data only if that range is exact). `retained` counts the bytes frames held.
  static func decodeInChunks(
    _ bytes: [UInt8], chunk: Int, readingAgainFrom input: (any ImageDataSource)?
  ) -> (outcome: Outcome, retained: Int) {
    var outcome = Outcome()
    var retained = 0
    var decoder = GIFDecoder(retainsImageData: input == nil)
    var fed = 0
    var finished = false
    var renderer: FrameRenderer?
    var canvas: [UInt32] = []
    var pixelWarnings: [GIFWarning] = []
    loop: while true {
      let event: DecoderEvent
      do {
        event = try decoder.next()
      } catch {
        outcome.error = error
        break
      }
      switch event {
      case .needMoreData:
        if fed < bytes.count {
          let end = chunk >= bytes.count - fed ? bytes.count : fed + chunk
          decoder.feed(bytes[fed..<end])
          fed = end
        } else if !finished {
          decoder.finish()
          finished = true
        } else {
          Issue.record("needMoreData after finish()")
          break loop
        }
      case .screen(let screen):
        outcome.screen = screen
        renderer = FrameRenderer(screen: screen, format: .rgba)
        canvas = [UInt32](repeating: 0, count: screen.width * screen.height)
      case .frame(var frame):
        guard renderer != nil else {
          Issue.record("frame before screen")
          break loop
        }
        retained += input == nil ? 0 : frame.compressed.count
        let warning = canvas.withUnsafeMutableBufferPointer { renderer!.render(frame, canvas: $0, from: input) }
        if let warning { pixelWarnings.append(warning) }
        if input != nil { frame.compressed = RereadTests.unframe(bytes, frame.dataRange) }
        canvas.withUnsafeBufferPointer { outcome.frames.append(FrameSummary(frame, canvas: $0)) }
      case .end:
        break loop
      }
    }
    if outcome.error == nil {
      outcome.warnings = sortedWarnings(decoder.warnings + pixelWarnings)
      (outcome.comments, outcome.loopCount) = (decoder.comments, decoder.loopCount)
    }
    return (outcome, retained)
  }

  enum Fixture: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case animated, cutInsideImageData, cutInsideExtension, damaged

    var testDescription: String { rawValue }

    /// About 160 KB, so the decoder's buffer compaction (at 64 KiB) happens mid-image.
    static let animatedBytes: (bytes: [UInt8], thirdImage: Int, lastComment: Int) = {
      var rng = SeededGenerator(seed: 2024)
      var gif = GIFBuilder(width: 300, height: 200, globalPalette: rng.indices(768, below: 256))
      gif.loop(0)
      gif.comment("incremental")
      gif.control(delayCS: 4)
      gif.image(width: 300, height: 200, indices: rng.indices(60_000, below: 256))
      gif.control(delayCS: 0, disposal: 2, transparent: 5)
      var runs: [UInt8] = []
      while runs.count < 5000 {
        runs += fill(UInt8(Int.random(in: 0..<8, using: &rng)), Int.random(in: 1...30, using: &rng))
      }
      gif.image(x: 10, y: 20, width: 100, height: 50, indices: Array(runs.prefix(5000)), interlaced: true)
      gif.raw([0x21, 0x01, 12] + [UInt8](repeating: 1, count: 12) + GIFBuilder.subBlocks(Array("text".utf8)) + [0])
      gif.raw([0x21, 0x77] + GIFBuilder.subBlocks(rng.indices(600, below: 256)) + [0])
      let third = gif.count
      gif.image(
        x: 250, y: 150, width: 100, height: 100, indices: rng.indices(10_000, below: 4),
        localPalette: rng.indices(12, below: 256), minimumCodeSize: 2, deferredClear: true)
      gif.control(delayCS: 1, disposal: 3)
      gif.image(width: 300, height: 200, indices: rng.indices(60_000, below: 200), deferredClear: true)
      let comment = gif.count
      gif.comment(String(repeating: "long comment ", count: 40))
      gif.image(x: 299, y: 199, width: 1, height: 1, indices: [7])
      gif.loop(3)
      gif.trailer()
      return (gif.bytes, third, comment)
    }()

    var bytes: [UInt8] {
      let (all, third, comment) = Self.animatedBytes
      switch self {
      case .animated:
        return all
      case .cutInsideImageData:
        return Array(all.prefix(third + 1000))
      case .cutInsideExtension:
        return Array(all.prefix(comment + 300))
      case .damaged:
        // A bad code in the third image's data, and a stray byte before the comment.
        var bytes = all
        for i in (third + 600)..<(third + 603) { bytes[i] = 0xFF }
        bytes[comment] = 0x00
        return bytes
      }
    }
  }

  static let reference: [Fixture: Outcome] = Dictionary(
    uniqueKeysWithValues: Fixture.allCases.map { ($0, decodeWhole($0.bytes)) })

  @Test func fixturesHoldWhatTheyAreMeantToHold() throws {
    let animated = try #require(Self.reference[.animated])
    #expect(animated.frames.count == 5 && animated.warnings.isEmpty && animated.error == nil)
    #expect(animated.loopCount == 0 && animated.comments.count == 2)
    #expect(Fixture.animated.bytes.count > 150_000, "have \(Fixture.animated.bytes.count) bytes")
    let cut = try #require(Self.reference[.cutInsideImageData])
    #expect(cut.frames.count == 3 && cut.frames.last?.dataComplete == false)
    #expect(cut.warnings.map(\.kind) == [.truncated])
    let ext = try #require(Self.reference[.cutInsideExtension])
    #expect(ext.frames.count == 4 && ext.warnings.map(\.kind) == [.truncated] && ext.comments.count == 1)
    let damaged = try #require(Self.reference[.damaged])
    #expect(damaged.frames.count == 4 && damaged.warnings.map(\.kind) == [.badLZWCode, .unexpectedByte(0)])
  }

  @Test(arguments: Fixture.allCases, [1, 2, 13, 787, 4096, Int.max])
  func everyChunkSizeGivesTheSameFramesAsTheWholeInput(fixture: Fixture, chunk: Int) throws {
    let want = try #require(Self.reference[fixture])
    let have = Self.decodeInChunks(fixture.bytes, chunk: chunk)
    #expect(have.screen == want.screen)
    #expect(have.frames.count == want.frames.count, "have \(have.frames.count) frames, want \(want.frames.count)")
    for (h, w) in zip(have.frames, want.frames) {
      #expect(h == w, "have \(h), want \(w)")
    }
    #expect(have.warnings == want.warnings, "have \(have.warnings), want \(want.warnings)")
    #expect(have.comments == want.comments)
    #expect(have.loopCount == want.loopCount)
    #expect(have.error == want.error)
  }

  @Test func eachFrameIsHandedOutAsSoonAsItsBlockTerminatorArrives() throws {
    var gif = GIFBuilder(width: 20, height: 20, globalPalette: Picture.palette("RGBW"))
    let screenEnd = gif.count
    gif.control(delayCS: 3)
    var rng = SeededGenerator(seed: 1)
    gif.image(width: 20, height: 20, indices: rng.indices(400, below: 4))
    let first = gif.count
    gif.comment("between")
    gif.image(x: 5, y: 5, width: 3, height: 3, indices: fill(2, 9), localPalette: Picture.palette("YC"))
    let second = gif.count
    gif.trailer()
    var decoder = GIFDecoder()
    var arrivals: [String] = []
    for (i, byte) in gif.bytes.enumerated() {
      decoder.feed(CollectionOfOne(byte))
      events: while true {
        switch try decoder.next() {
        case .needMoreData: break events
        case .screen: arrivals.append("screen after \(i + 1) bytes")
        case .frame(let f): arrivals.append("frame \(f.index) after \(i + 1) bytes")
        case .end:
          arrivals.append("end after \(i + 1) bytes")
          break events
        }
      }
    }
    #expect(
      arrivals == [
        "screen after \(screenEnd) bytes", "frame 0 after \(first) bytes", "frame 1 after \(second) bytes",
        "end after \(gif.count) bytes",
      ])
  }

  @Test func withoutATrailerTheDecoderWaitsUntilFinishThenWarns() throws {
    var gif = GIFBuilder(width: 1, height: 1, globalPalette: Picture.palette("RG"))
    gif.image(width: 1, height: 1, indices: [1])
    var decoder = GIFDecoder()
    decoder.feed(gif.bytes)
    var frames = 0
    while true {
      let event = try decoder.next()
      if case .frame = event { frames += 1 }
      if case .needMoreData = event { break }
    }
    #expect(frames == 1)
    #expect(!decoder.isFinished && decoder.warnings.isEmpty)
    guard case .needMoreData = try decoder.next() else {
      Issue.record("have another event, want needMoreData again")
      return
    }
    decoder.finish()
    guard case .end = try decoder.next() else {
      Issue.record("have another event, want end after finish()")
      return
    }
    #expect(decoder.warnings == [GIFWarning(.truncated, frame: nil, offset: gif.count)])
  }
}
