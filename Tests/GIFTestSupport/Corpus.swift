import Foundation
import GIFDecoder

/// The shared conformance corpus (`../shared/corpus` from the repository root).
public enum Corpus {
  public static let root: URL? = {
    var dir = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { dir.deleteLastPathComponent() }  // Tests/GIFTestSupport/Corpus.swift → repo
    let corpus = dir.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    let env = ProcessInfo.processInfo.environment["GIFVIEW_CORPUS"].map { URL(fileURLWithPath: $0) }
    for candidate in [env, corpus].compactMap({ $0 })
    where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("expected.tsv").path) {
      return candidate
    }
    return nil
  }()

  public struct Row: Sendable, CustomStringConvertible {
    public var file: String
    public var kind: String
    public var frame: Int
    public var width: Int
    public var height: Int
    public var loop: String
    public var delayCS: Int
    public var disposal: Int
    public var sha256: String
    public var description: String { "\(file)#\(frame)" }
  }

  /// Rows of expected.tsv, grouped by file in file order.
  public static func rows() -> [Row] {
    guard let root, let text = try? String(contentsOf: root.appendingPathComponent("expected.tsv"), encoding: .utf8)
    else { return [] }
    var rows: [Row] = []
    for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("file\t") {
      let c = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard c.count >= 15 else { continue }
      rows.append(
        Row(
          file: c[0], kind: c[1], frame: Int(c[2]) ?? -1, width: Int(c[3]) ?? 0, height: Int(c[4]) ?? 0,
          loop: c[6], delayCS: Int(c[7]) ?? 0, disposal: Int(c[8]) ?? 0, sha256: c[14]))
    }
    return rows
  }

  /// Every GIF in the corpus, relative paths.
  public static func allGIFs() -> [String] {
    guard let root, let e = FileManager.default.enumerator(atPath: root.path) else { return [] }
    return e.compactMap { $0 as? String }.filter { $0.lowercased().hasSuffix(".gif") }.sorted()
  }

  public static func bytes(_ file: String) -> [UInt8]? {
    guard let root, let d = FileManager.default.contents(atPath: root.appendingPathComponent(file).path) else {
      return nil
    }
    return [UInt8](d)
  }
}

/// RGBA canvas bytes as the corpus hashes them: alpha-0 pixels written as 0,0,0,0.
public func rgbaBytes(_ canvas: UnsafeBufferPointer<UInt32>) -> [UInt8] {
  var out = [UInt8](repeating: 0, count: canvas.count * 4)
  for (i, p) in canvas.enumerated() where p >> 24 != 0 {
    out[4 * i] = UInt8(truncatingIfNeeded: p)
    out[4 * i + 1] = UInt8(truncatingIfNeeded: p >> 8)
    out[4 * i + 2] = UInt8(truncatingIfNeeded: p >> 16)
    out[4 * i + 3] = UInt8(truncatingIfNeeded: p >> 24)
  }
  return out
}
