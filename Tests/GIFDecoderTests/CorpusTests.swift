import Foundation
import GIFDecoder
import GIFTestSupport
import Testing

/// DESIGN §2 conformance against ../shared/corpus/expected.tsv.
@Suite("Conformance corpus")
struct CorpusTests {
  struct Outcome {
    var sha: [String]  // per frame
    var frames: [FrameInfo]
    var error: GIFError?
  }

  static func decode(_ bytes: [UInt8]) -> Outcome {
    do {
      let doc = try GIFDocument.decode(bytes)
      var hashes: [String] = []
      doc.renderAll(format: .rgba) { _, canvas in hashes.append(SHA256.hex(rgbaBytes(canvas))) }
      return Outcome(sha: hashes, frames: doc.frames, error: nil)
    } catch {
      return Outcome(sha: [], frames: [], error: error)
    }
  }

  /// Without ../shared the corpus tests are reported as skipped, with this reason.
  static let corpusPresent: Bool = {
    if Corpus.root == nil { print("CorpusTests: SKIPPED: ../shared/corpus not found (set GIFVIEW_CORPUS)") }
    return Corpus.root != nil
  }()

  @Test(.enabled(if: corpusPresent, "../shared/corpus not found: conformance skipped"))
  func everyValidAndEdgeRowMatches() throws {
    let rows = Corpus.rows()
    #expect(rows.count > 1000)
    var byFile: [String: [Corpus.Row]] = [:]
    for row in rows { byFile[row.file, default: []].append(row) }
    var matched: [String: Int] = [:]
    var total: [String: Int] = [:]
    for (file, fileRows) in byFile.sorted(by: { $0.key < $1.key }) {
      let bytes = try #require(Corpus.bytes(file), "\(file) unreadable")
      let outcome = Self.decode(bytes)
      for row in fileRows {
        total[row.kind, default: 0] += 1
        let mandatory = row.kind == "valid" || row.kind == "edge"
        guard row.frame < outcome.sha.count else {
          if mandatory {
            Issue.record(
              "\(row): have \(outcome.sha.count) frames (\(String(describing: outcome.error))), want frame \(row.frame)"
            )
          }
          continue
        }
        let f = outcome.frames[row.frame]
        let ok = outcome.sha[row.frame] == row.sha256 && f.delayCS == row.delayCS && f.disposal == row.disposal
        if ok { matched[row.kind, default: 0] += 1 }
        if mandatory && !ok {
          Issue.record(
            "\(row): have sha \(outcome.sha[row.frame]) delay \(f.delayCS) disposal \(f.disposal), want \(row.sha256) \(row.delayCS) \(row.disposal)"
          )
        }
      }
    }
    for kind in total.keys.sorted() {
      print("CorpusTests: \(kind): \(matched[kind, default: 0])/\(total[kind]!) rows match")
    }
  }

  @Test(.enabled(if: corpusPresent, "../shared/corpus not found: conformance skipped"))
  func everyCorpusFileDecodesQuicklyWithoutCrashing() throws {
    let files = Corpus.allGIFs()
    #expect(files.count > 400)
    var slowest = (file: "", seconds: 0.0)
    for file in files {
      guard let bytes = Corpus.bytes(file) else { continue }
      // This thread's CPU time (user + system): other suites running in parallel on two
      // cores must not count against the file. Composited as `--check` does, on the area
      // images touch: a 1624x65312 screen is decoding work for 39 pixels, not a 424 MB fill.
      let t0 = threadCPUTimeNS()
      if let doc = try? GIFDocument.decode(bytes) { doc.renderTouched(format: .rgba) { _, _, _ in } }
      let s = Double(threadCPUTimeNS() - t0) / 1e9
      if s > slowest.seconds { slowest = (file, s) }
    }
    print("CorpusTests: \(files.count) files decoded; slowest \(slowest.file) \(slowest.seconds) s")
    #expect(slowest.seconds < 1.0 * testTimeScale, "\(slowest.file) took \(slowest.seconds) s")
  }
}

private func threadCPUTimeNS() -> UInt64 {
  var ts = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
  return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
