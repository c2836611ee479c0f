import Foundation
import GIFTestSupport
import Testing

/// The library products (GIFDecoder; GIFView with GIFPlayback, X11Window, GIFAnimator)
/// are used from other packages: every public symbol says what it is.
@Suite("Public API documentation")
struct DocCommentTests {
  static let modules = ["GIFDecoder", "GIFAnimator", "GIFPlayback", "GIFView", "X11Window", "SystemIO", "PNGCodec"]

  @Test(arguments: modules)
  func everyPublicSymbolHasADocComment(module: String) throws {
    let dir = repositoryRoot.appendingPathComponent("Sources/\(module)")
    let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".swift") }.sorted()
    #expect(!files.isEmpty)
    var undocumented: [String] = []
    for file in files {
      let lines = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
        .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      for (i, line) in lines.enumerated() {
        let text = line.trimmingCharacters(in: .whitespaces)
        guard
          text.hasPrefix("public ") || text.range(of: #"^@\w+(\([^)]*\))? public "#, options: .regularExpression) != nil
        else { continue }
        // The comment sits above the declaration and its attributes.
        var j = i - 1
        while j >= 0, lines[j].trimmingCharacters(in: .whitespaces).hasPrefix("@") { j -= 1 }
        if j < 0 || !lines[j].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
          undocumented.append("\(file):\(i + 1): \(text)")
        }
      }
    }
    #expect(undocumented.isEmpty, "undocumented public symbols:\n\(undocumented.joined(separator: "\n"))")
  }
}
