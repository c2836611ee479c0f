import GIFDecoder
import GIFLoader
import GIFView
import PNGCodec
import SystemIO

#if canImport(Glibc)
  import Glibc
#endif

/// `--info`, `--frames DIR` and `--check` (DESIGN §4): no display is opened.
struct Headless {
  let options: Options
  let fetch: (Source) throws(LoadError) -> [UInt8]

  /// Runs the mode over every source; answers the exit status. `position`: the source's
  /// place among the arguments, which `--frames` names files after when `multiple`.
  func run(sources: [(position: Int, source: Source)], multiple: Bool) -> Int32 {
    var failed = false
    var infos: [JSON] = []
    for (position, source) in sources {
      let name = source.description
      let document: GIFDocument
      do {
        document = try GIFDocument.decode(try fetch(source), limits: limits)
      } catch let error as LoadError {
        printError(name, error.description)
        failed = true
        continue
      } catch {
        printError(name, "\(error)")
        failed = true
        continue
      }
      switch options.mode {
      case .info:
        // Damage that still allows display is in "warnings"; the source was processed.
        let warnings = document.renderTouched(format: .rgba) { _, _, _ in }
        infos.append(info(source.name, document, warnings))
      case .frames(let dir):
        do {
          let warnings = try writeFrames(document, to: dir, multiple: multiple, index: position)
          for w in warnings { printWarning(name, w.description) }
        } catch let error as FrameWriteError {
          printError(name, error.message)
          failed = true
        } catch {}
      case .check:
        let warnings = document.renderTouched(format: .rgba) { _, _, _ in }
        if warnings.isEmpty {
          print("\(name): ok, \(document.frames.count) frames")
        } else {
          print(
            "\(name): damaged, \(document.frames.count) frames: " + warnings.map(\.description).joined(separator: "; "))
          failed = true
        }
      default:
        break
      }
    }
    if case .info = options.mode, !infos.isEmpty {
      print(infos.count == 1 ? infos[0].render() : JSON.array(infos).render())
    }
    return failed ? 1 : 0
  }

  var limits: Limits { Limits(maxCanvasPixels: options.maxPixels, maxInputBytes: options.maxInput) }

  func info(_ name: String, _ doc: GIFDocument, _ warnings: [GIFWarning]) -> JSON {
    let exact = options.exactDelays
    let frames: [JSON] = doc.frames.map { f in
      .object([
        ("x", .int(f.x)), ("y", .int(f.y)), ("width", .int(f.width)), ("height", .int(f.height)),
        ("delay_cs", .int(f.delayCS)), ("delay_ms", .int(f.delayMS(exact: exact))),
        ("disposal", .int(f.disposal)),
        ("transparent_index", f.transparentIndex.map { .int($0) } ?? .null),
        ("interlaced", .bool(f.interlaced)), ("local_palette", .bool(f.hasLocalPalette)),
      ])
    }
    return .object([
      ("source", .string(name)),
      ("width", .int(doc.screen.width)), ("height", .int(doc.screen.height)),
      ("frame_count", .int(doc.frames.count)),
      ("loop_count", doc.loopCount.map { .int($0) } ?? .null),
      ("plays", doc.plays.map { .int($0) } ?? .null),
      ("duration_ms", .int(doc.frames.reduce(0) { $0 + $1.delayMS(exact: exact) })),
      ("frames", .array(frames)),
      ("comments", .array(doc.comments.map { .string($0) })),
      ("warnings", .array(warnings.map { .string($0.description) })),
    ])
  }

  struct FrameWriteError: Error { var message: String }

  /// One PAM (or PNG, `--format png`) per image: `DIR/frame-0000.pam`…; with several
  /// sources, `DIR/N-frame-0000.pam`.
  func writeFrames(_ doc: GIFDocument, to dir: String, multiple: Bool, index: Int) throws -> [GIFWarning] {
    if mkdir(dir, 0o755) != 0 && errno != EEXIST {
      throw FrameWriteError(message: "cannot create \(dir): \(String(cString: strerror(errno)))")
    }
    if options.frameFormat == .png { return try writePNGFrames(doc, to: dir, multiple: multiple, index: index) }
    let digits = max(4, String(max(doc.frames.count - 1, 0)).count)
    let header = Array(
      "P7\nWIDTH \(doc.screen.width)\nHEIGHT \(doc.screen.height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
        .utf8)
    let width = doc.screen.width
    // Only the area images touch is composited; the rest of each row is written as
    // transparent zeros, a bounded buffer at a time (a huge, mostly empty screen costs
    // output bytes, not memory).
    var buffer = [UInt32](repeating: 0, count: max(width, 1 << 18))
    return try doc.renderTouched(format: .rgba) { frame, canvas, area in
      let number = String(frame.index)
      let name =
        (multiple ? "\(index)-" : "") + "frame-" + String(repeating: "0", count: digits - number.count) + number
      let path = dir + "/" + name + ".pam"
      var failure: FrameWriteError {
        FrameWriteError(message: "cannot write \(path): \(String(cString: strerror(errno)))")
      }
      let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
      guard fd >= 0 else { throw failure }
      defer { close(fd) }
      guard header.withUnsafeBytes({ wroteAll(fd, $0) }) else { throw failure }
      let rowsPerWrite = buffer.count / width
      var y = 0
      while y < doc.screen.height {
        let rows = min(rowsPerWrite, doc.screen.height - y)
        buffer.withUnsafeMutableBufferPointer { out in
          out.update(repeating: 0)
          for row in max(y, area.y0)..<max(min(y + rows, area.y1), max(y, area.y0)) {
            // Straight alpha; fully transparent pixels are written as 0,0,0,0.
            let from = (row - area.y0) * area.width
            let to = (row - y) * width + area.x0
            for x in 0..<area.width {
              let p = canvas[from + x]
              out[to + x] = p >> 24 == 0 ? 0 : p
            }
          }
        }
        let ok = buffer.withUnsafeBytes { wroteAll(fd, UnsafeRawBufferPointer(rebasing: $0[0..<(rows * width * 4)])) }
        guard ok else { throw failure }
        y += rows
      }
    }
  }
}

extension Headless {
  /// `--format png`: each composited canvas as a PNG (straight alpha, transparent pixels
  /// 0,0,0,0, as in the PAM files).
  private func writePNGFrames(_ doc: GIFDocument, to dir: String, multiple: Bool, index: Int) throws -> [GIFWarning] {
    let (width, height) = (doc.screen.width, doc.screen.height)
    var full = [UInt32](repeating: 0, count: width * height)
    return try doc.renderTouched(format: .rgba) { frame, canvas, area in
      let name = (multiple ? "\(index)-" : "") + "frame-" + frameNumber(frame.index, of: doc.frames.count)
      let path = dir + "/" + name + ".png"
      // The canvas outside the touched area is transparent.
      // `.rgba` words are R, G, B, A in memory; a pixel of alpha 0 is written as 0,0,0,0.
      for row in area.y0..<area.y1 {
        for x in 0..<area.width {
          let p = canvas[(row - area.y0) * area.width + x]
          full[row * width + area.x0 + x] = p >> 24 == 0 ? 0 : p
        }
      }
      let png: [UInt8]
      do {
        let rgba = full.withUnsafeBytes { Array($0) }
        png = try PNG.encode(PNG.Image(width: width, height: height, rgba: rgba))
      } catch {
        throw FrameWriteError(message: "cannot write \(path): \(error)")
      }
      guard writeFile(path, [png]) else {
        throw FrameWriteError(message: "cannot write \(path): \(String(cString: strerror(errno)))")
      }
    }
  }
}

/// Writes all of `raw` to `fd` (SystemIO's writeAll, as a success flag).
func wroteAll(_ fd: Int32, _ raw: UnsafeRawBufferPointer) -> Bool {
  if case .success = writeAll(fd, raw) { return true }
  return false
}

func writeFile(_ path: String, _ parts: [[UInt8]]) -> Bool {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
  guard fd >= 0 else { return false }
  defer { close(fd) }
  for part in parts {
    guard part.withUnsafeBytes({ wroteAll(fd, $0) }) else { return false }
  }
  return true
}

/// One line on stderr, `displayText` over all of it: whatever part came from outside (a
/// name, a reason, an option's value), no control byte reaches the terminal raw.
func printError(_ source: String?, _ message: String) {
  writeStderrLine(displayText("gifview: error: " + (source.map { "\($0): " } ?? "") + message))
}

func printWarning(_ source: String, _ message: String) {
  writeStderrLine(displayText("gifview: warning: \(source): \(message)"))
}
