import Foundation
import GIFTestSupport
import Testing

/// Every option the parser knows: the names in its `case "-x", "--xyz":` rows.
func parserOptionNames() throws -> Set<String> {
  let options = try String(
    contentsOf: repositoryRoot.appendingPathComponent("Sources/gifview/Options.swift"), encoding: .utf8)
  return Set(
    options.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("case \"-") }
      .flatMap { line in line.split(separator: "\"").filter { $0.hasPrefix("-") && $0.count > 1 }.map(String.init) })
}

/// `option` occurs in `text` as a word of its own: not inside a longer option
/// (`--fill` in `--fill-x`, `-d` in `--display`).
func mentions(_ text: String, _ option: String) -> Bool {
  let chars = Array(text.unicodeScalars)
  let want = Array(option.unicodeScalars)
  func partOfOption(_ c: Unicode.Scalar) -> Bool {
    c == "-" || c == "_" || c.properties.isAlphabetic || c.value >= 0x30 && c.value <= 0x39
  }
  guard chars.count >= want.count else { return false }
  for i in 0...(chars.count - want.count) where chars[i..<(i + want.count)].elementsEqual(want) {
    let before = i == 0 ? nil : chars[i - 1]
    let after = i + want.count < chars.count ? chars[i + want.count] : nil
    if before.map(partOfOption) != true && after.map(partOfOption) != true { return true }
  }
  return false
}

@Suite("The docs list every option the parser accepts")
struct DocsTests {
  @Test func theReadmesOptionTablesHaveEveryOption() throws {
    let names = try parserOptionNames()
    #expect(names.count > 25, "could not read the options: \(names)")
    let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
    // The table rows only: `| option | … |` lines.
    let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `-") }.joined(separator: "\n")
    for option in names.sorted() {
      #expect(mentions(rows, option), "README's options tables lack \(option)")
    }
  }

  @Test func aWordMatchIsNotAPrefixMatch() {
    #expect(mentions("-d, --display NAME", "-d"))
    #expect(!mentions("--display NAME", "-d"))
    #expect(!mentions("--fill-in", "--fill"))
    #expect(mentions("`--fit` / `--fill`", "--fill"))
  }
}

extension CLITests {
  @Test func helpListsEveryOptionTheParserAccepts() throws {
    let r = try gifview(["--help"])
    #expect(r.status == 0)
    #expect(r.out.hasPrefix("usage: gifview"))
    for option in try parserOptionNames().sorted() {
      #expect(mentions(r.out, option), "--help does not list \(option)")
    }
  }
}
