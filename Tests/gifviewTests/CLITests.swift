import Foundation
import GIFDecoder
import GIFTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

private func fill(_ index: UInt8, _ count: Int) -> [UInt8] { [UInt8](repeating: index, count: count) }

/// DESIGN §4: the headless modes, sources and error reporting of the built binary,
/// run as a user would (Foundation's `Process`, in a fresh temporary directory).
@Suite("gifview command line")
final class CLITests {
  let dir: URL

  init() throws {
    dir = FileManager.default.temporaryDirectory.appendingPathComponent("gifview-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  }

  deinit {
    // A chmod-000 file or directory left by a test must not stop the clean-up.
    if let e = FileManager.default.enumerator(atPath: dir.path) {
      for case let path as String in e { chmod(dir.appendingPathComponent(path).path, 0o755) }
    }
    try? FileManager.default.removeItem(at: dir)
  }

  // MARK: Running the binary

  /// `.build/debug/gifview` of this checkout, or `$GIFVIEW_BIN` (the sanitizer builds').
  static let binary = URL(fileURLWithPath: gifviewBinary)

  struct BinaryMissing: Error, CustomStringConvertible {
    var description: String {
      "\(CLITests.binary.path) not found: run `swift build --product gifview` before these tests"
    }
  }

  struct Result {
    var status: Int32
    var stdout: Data
    var stderr: String
    var out: String { String(decoding: stdout, as: UTF8.self) }
  }

  enum Input {
    case none  // /dev/null
    case bytes([UInt8])
    case terminal
  }

  /// Runs gifview in `dir`; stdout and stderr go to files, so neither pipe can fill up.
  func gifview(_ arguments: [String], stdin: Input = .none) throws -> Result {
    guard FileManager.default.isExecutableFile(atPath: Self.binary.path) else { throw BinaryMissing() }
    let id = UUID().uuidString
    let outURL = dir.appendingPathComponent(".out-\(id)")
    let errURL = dir.appendingPathComponent(".err-\(id)")
    for url in [outURL, errURL] { try Data().write(to: url) }
    defer {
      try? FileManager.default.removeItem(at: outURL)
      try? FileManager.default.removeItem(at: errURL)
    }
    let process = Process()
    process.executableURL = Self.binary
    process.arguments = arguments
    process.currentDirectoryURL = dir
    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = nil  // headless modes open no display
    process.environment = environment
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    process.standardOutput = out
    process.standardError = err
    var terminal: (primary: Int32, secondary: FileHandle)?
    switch stdin {
    case .none:
      process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
    case .bytes(let bytes):
      let inURL = dir.appendingPathComponent(".in-\(id)")
      try Data(bytes).write(to: inURL)
      process.standardInput = FileHandle(forReadingAtPath: inURL.path)
    case .terminal:
      // posix_openpt and friends are not in the Glibc module: /dev/ptmx and two ioctls,
      // TIOCSPTLCK (unlock) and TIOCGPTN (the pty's number).
      let (lockRequest, numberRequest): (UInt, UInt) = (0x4004_5431, 0x8004_5430)
      let primary = open("/dev/ptmx", O_RDWR | O_NOCTTY)
      var unlock: CInt = 0
      var number: CUnsignedInt = 0
      guard primary >= 0, ioctl(primary, lockRequest, &unlock) == 0, ioctl(primary, numberRequest, &number) == 0
      else { throw POSIXError(.ENOTTY) }
      let secondary = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
      guard secondary >= 0, isatty(secondary) == 1 else { throw POSIXError(.ENOTTY) }
      terminal = (primary, FileHandle(fileDescriptor: secondary, closeOnDealloc: true))
      process.standardInput = terminal!.secondary
    }
    try process.run()
    process.waitUntilExit()
    try out.close()
    try err.close()
    if let terminal { close(terminal.primary) }
    return Result(
      status: process.terminationStatus, stdout: try Data(contentsOf: outURL),
      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
  }

  /// Writes `bytes` under the temporary directory; answers the path.
  @discardableResult
  func write(_ name: String, _ bytes: [UInt8]) throws -> String {
    let url = dir.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: url)
    return url.path
  }

  func expectOneErrorLine(
    _ r: Result, _ line: String, status: Int32, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(r.status == status, "have exit status \(r.status), want \(status)", sourceLocation: sourceLocation)
    #expect(
      r.stderr == line + "\n", "have stderr \(r.stderr.debugDescription), want \(line.debugDescription)",
      sourceLocation: sourceLocation)
    #expect(r.stdout.isEmpty, "have stdout \(r.out.debugDescription), want nothing", sourceLocation: sourceLocation)
  }

  // MARK: GIFs

  /// Indices 0 R, 1 G, 2 B, 3 W.
  static let palette = Picture.palette("RGBW")

  /// 4×3, loop 2, two comments, three images covering every per-frame field.
  static let infoGIF: [UInt8] = {
    var gif = GIFBuilder(width: 4, height: 3, globalPalette: palette)
    gif.loop(2)
    gif.comment("made by hand")
    gif.control(delayCS: 0, disposal: 1, transparent: 3)
    gif.image(width: 4, height: 3, indices: fill(0, 12))
    gif.comment("say \"hi\"\tà ✓\n")
    gif.control(delayCS: 7, disposal: 2)
    gif.image(
      x: 1, y: 1, width: 2, height: 2, indices: [0, 1, 1, 0], localPalette: Picture.palette("YC"), interlaced: true)
    gif.image(x: 3, y: 2, width: 1, height: 1, indices: [2])
    gif.trailer()
    return gif.bytes
  }()

  /// 3×2: "R.G B.R" (transparent index 3), then a white pixel at (1, 0): "RWG B.R".
  static let twoFrames: [UInt8] = {
    var gif = GIFBuilder(width: 3, height: 2, globalPalette: palette)
    gif.control(delayCS: 10, transparent: 3)
    gif.image(width: 3, height: 2, indices: [0, 3, 1, 2, 3, 0])
    gif.image(x: 1, y: 0, width: 1, height: 1, indices: [3])
    gif.trailer()
    return gif.bytes
  }()

  /// `twoFrames` cut inside the second image's data: both frames shown, a warning.
  static let truncated: (bytes: [UInt8], secondImage: Int) = {
    var gif = GIFBuilder(width: 3, height: 2, globalPalette: palette)
    gif.control(delayCS: 10, transparent: 3)
    gif.image(width: 3, height: 2, indices: [0, 3, 1, 2, 3, 0])
    let second = gif.count
    gif.image(x: 1, y: 0, width: 1, height: 1, indices: [3])
    return (Array(gif.bytes.prefix(second + 12)), second)  // descriptor, code size, sub-block length
  }()

  static func pam(_ picture: String, width: Int, height: Int) -> [UInt8] {
    Array("P7\nWIDTH \(width)\nHEIGHT \(height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
      + Picture.pixels(picture).flatMap(\.bytes)
  }

  // MARK: --info

  struct Info: Decodable, Equatable {
    var source: String
    var width: Int, height: Int, frameCount: Int
    var loopCount: Int?, plays: Int?, durationMs: Int
    var frames: [Frame]
    var comments: [String]
    var warnings: [String]
  }

  struct Frame: Decodable, Equatable {
    var x: Int, y: Int, width: Int, height: Int
    var delayCs: Int, delayMs: Int, disposal: Int
    var transparentIndex: Int?
    var interlaced: Bool, localPalette: Bool
  }

  static let infoKeys: Set = [
    "source", "width", "height", "frame_count", "loop_count", "plays", "duration_ms", "frames", "comments", "warnings",
  ]
  static let frameKeys: Set = [
    "x", "y", "width", "height", "delay_cs", "delay_ms", "disposal", "transparent_index", "interlaced",
    "local_palette",
  ]

  /// Parses `--info` output: checks every object has exactly DESIGN §4's keys (null
  /// values present, not left out), then decodes it strictly (a Bool is not a number).
  func parseInfo(_ r: Result, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Info] {
    let json = try JSONSerialization.jsonObject(with: r.stdout)
    let objects = (json as? [[String: Any]]) ?? [(json as? [String: Any])].compactMap { $0 }
    #expect(!objects.isEmpty, "have \(r.out), want JSON objects", sourceLocation: sourceLocation)
    for object in objects {
      #expect(Set(object.keys) == Self.infoKeys, "have keys \(object.keys.sorted())", sourceLocation: sourceLocation)
      for frame in object["frames"] as? [[String: Any]] ?? [] {
        #expect(Set(frame.keys) == Self.frameKeys, "have keys \(frame.keys.sorted())", sourceLocation: sourceLocation)
      }
    }
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    if json is [Any] { return try decoder.decode([Info].self, from: r.stdout) }
    return [try decoder.decode(Info.self, from: r.stdout)]
  }

  @Test func infoReportsEveryFieldOfOneSource() throws {
    let path = try write("info.gif", Self.infoGIF)
    let r = try gifview(["--info", path])
    #expect(r.status == 0 && r.stderr.isEmpty, "have \(r.status) \(r.stderr)")
    let json = try JSONSerialization.jsonObject(with: r.stdout)
    #expect(json is [String: Any], "one source gives one object, not an array")
    let want = Info(
      source: path, width: 4, height: 3, frameCount: 3, loopCount: 2, plays: 3, durationMs: 270,
      frames: [
        Frame(
          x: 0, y: 0, width: 4, height: 3, delayCs: 0, delayMs: 100, disposal: 1, transparentIndex: 3,
          interlaced: false, localPalette: false),
        Frame(
          x: 1, y: 1, width: 2, height: 2, delayCs: 7, delayMs: 70, disposal: 2, transparentIndex: nil,
          interlaced: true, localPalette: true),
        Frame(
          x: 3, y: 2, width: 1, height: 1, delayCs: 0, delayMs: 100, disposal: 0, transparentIndex: nil,
          interlaced: false, localPalette: false),
      ],
      comments: ["made by hand", "say \"hi\"\tà ✓\n"], warnings: [])
    let have = try parseInfo(r)
    #expect(have == [want], "have \(have), want \(want)")
    let object = try #require(json as? [String: Any])
    let frames = try #require(object["frames"] as? [[String: Any]])
    #expect(frames[1]["transparent_index"] is NSNull, "have \(String(describing: frames[1]["transparent_index"]))")
  }

  @Test func infoWithExactDelaysReportsTheShortestStepForZero() throws {
    let path = try write("info.gif", Self.infoGIF)
    let have = try parseInfo(try gifview(["--exact-delays", "--info", path]))
    #expect(have.first?.frames.map(\.delayMs) == [10, 70, 10])
    #expect(have.first?.frames.map(\.delayCs) == [0, 7, 0])
    #expect(have.first?.durationMs == 90, "have \(String(describing: have.first?.durationMs)), want 90")
  }

  @Test(arguments: [(stored: nil, plays: 1), (stored: 0, plays: nil), (stored: 4, plays: 5)] as [(Int?, Int?)])
  func infoReportsLoopCountAndPlaysWithNullForNoneAndForever(stored: Int?, plays: Int?) throws {
    var gif = GIFBuilder(width: 1, height: 1, globalPalette: Self.palette)
    if let stored { gif.loop(stored) }
    gif.image(width: 1, height: 1, indices: [0])
    gif.image(width: 1, height: 1, indices: [1])
    gif.trailer()
    let r = try gifview(["--info", try write("loop.gif", gif.bytes)])
    let have = try #require(try parseInfo(r).first)
    #expect(
      have.loopCount == stored,
      "have loop_count \(String(describing: have.loopCount)), want \(String(describing: stored))")
    #expect(have.plays == plays, "have plays \(String(describing: have.plays)), want \(String(describing: plays))")
    let object = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
    #expect((object["loop_count"] is NSNull) == (stored == nil))
    #expect((object["plays"] is NSNull) == (plays == nil))
  }

  @Test func infoForTwoSourcesIsAnArrayInArgumentOrder() throws {
    let a = try write("a.gif", Self.twoFrames)
    let b = try write("b.gif", Self.infoGIF)
    let r = try gifview(["--info", b, a])
    #expect(r.status == 0 && r.stderr.isEmpty, "have \(r.status) \(r.stderr)")
    #expect(try JSONSerialization.jsonObject(with: r.stdout) is [Any], "several sources give an array")
    let have = try parseInfo(r)
    #expect(have.map(\.source) == [b, a])
    #expect(have.map(\.frameCount) == [3, 2])
    #expect(have.map(\.width) == [4, 3] && have.map(\.height) == [3, 2])
    #expect(have.last?.frames.map(\.transparentIndex) == [3, nil])
    #expect(have.last?.durationMs == 200)
  }

  @Test func infoListsTheWarningsOfADamagedFile() throws {
    let path = try write("cut.gif", Self.truncated.bytes)
    let r = try gifview(["--info", path])
    let have = try #require(try parseInfo(r).first)
    #expect(have.frameCount == 2)
    #expect(have.warnings == ["truncated input in frame 1 (offset \(Self.truncated.secondImage + 11))"])
  }

  // MARK: --frames

  @Test func framesWritesEachCompositedCanvasAsAByteExactPAM() throws {
    let path = try write("two.gif", Self.twoFrames)
    let out = dir.appendingPathComponent("out")  // created by gifview
    let r = try gifview(["--frames", out.path, path])
    #expect(r.status == 0, "have exit status \(r.status), want 0")
    #expect(r.stdout.isEmpty && r.stderr.isEmpty, "have stdout \(r.out) stderr \(r.stderr)")
    let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
    #expect(names == ["frame-0000.pam", "frame-0001.pam"])
    for (name, picture) in [("frame-0000.pam", "R.G B.R"), ("frame-0001.pam", "RWG B.R")] {
      let have = try [UInt8](Data(contentsOf: out.appendingPathComponent(name)))
      let want = Self.pam(picture, width: 3, height: 2)
      #expect(have == want, "\(name): have \(have), want \(want)")
    }
  }

  @Test func framesOfADamagedFileAreWrittenWithAWarning() throws {
    let path = try write("cut.gif", Self.truncated.bytes)
    let out = dir.appendingPathComponent("out")
    let r = try gifview(["--frames", out.path, path])
    #expect(r.status == 0, "have exit status \(r.status), want 0 (damage that still allows display)")
    #expect(
      r.stderr
        == "gifview: warning: \(path): truncated input in frame 1 (offset \(Self.truncated.secondImage + 11))\n",
      "have \(r.stderr.debugDescription)")
    let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
    #expect(names == ["frame-0000.pam", "frame-0001.pam"])
    // The second image's data never arrived: its canvas is the first one.
    let have = try [UInt8](Data(contentsOf: out.appendingPathComponent("frame-0001.pam")))
    #expect(have == Self.pam("R.G B.R", width: 3, height: 2))
  }

  @Test func framesNamesGrowPastFourDigitsWhenNeeded() throws {
    var gif = GIFBuilder(width: 1, height: 1, globalPalette: Self.palette)
    let image = GIFBuilder.lzw([1], minimumCodeSize: 2)
    for _ in 0..<10_001 { gif.image(width: 1, height: 1, indices: [], minimumCodeSize: 2, lzwData: image) }
    gif.trailer()
    let out = dir.appendingPathComponent("many")
    let r = try gifview(["--frames", out.path, try write("many.gif", gif.bytes)])
    #expect(r.status == 0 && r.stderr.isEmpty, "have \(r.status) \(r.stderr)")
    let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
    #expect(names.count == 10_001)
    #expect(
      names.first == "frame-00000.pam" && names.last == "frame-10000.pam",
      "have \(names.prefix(2)) … \(names.suffix(1))")
    #expect(names.allSatisfy { $0.count == "frame-00000.pam".count })
  }

  // MARK: --check

  @Test func checkPrintsOneOkLinePerIntactSourceAndExitsZero() throws {
    let a = try write("a.gif", Self.twoFrames)
    let b = try write("b.gif", Self.infoGIF)
    let r = try gifview(["--check", a, b])
    #expect(r.status == 0, "have exit status \(r.status), want 0")
    #expect(r.out == "\(a): ok, 2 frames\n\(b): ok, 3 frames\n", "have \(r.out.debugDescription)")
    #expect(r.stderr.isEmpty, "have stderr \(r.stderr.debugDescription)")
  }

  @Test func checkOfADamagedSourceReportsItsWarningsAndExitsOne() throws {
    let a = try write("a.gif", Self.twoFrames)
    let cut = try write("cut.gif", Self.truncated.bytes)
    let r = try gifview(["--check", a, cut])
    #expect(r.status == 1, "have exit status \(r.status), want 1")
    let offset = Self.truncated.secondImage + 11
    #expect(
      r.out == "\(a): ok, 2 frames\n\(cut): damaged, 2 frames: truncated input in frame 1 (offset \(offset))\n",
      "have \(r.out.debugDescription)")
  }

  @Test func checkOfAFailedSourceReportsTheErrorAndExitsOne() throws {
    let a = try write("a.gif", Self.twoFrames)
    let missing = dir.appendingPathComponent("missing.gif").path
    let r = try gifview(["--check", missing, a])
    #expect(r.status == 1, "have exit status \(r.status), want 1")
    #expect(r.out == "\(a): ok, 2 frames\n", "have \(r.out.debugDescription)")
    #expect(r.stderr == "gifview: error: \(missing): No such file or directory\n", "have \(r.stderr.debugDescription)")
  }

  // MARK: Sources

  @Test func dashReadsStandardInput() throws {
    let check = try gifview(["--check", "-"], stdin: .bytes(Self.twoFrames))
    #expect(check.status == 0 && check.out == "-: ok, 2 frames\n", "have \(check.status) \(check.out.debugDescription)")
    let info = try parseInfo(try gifview(["--info", "-"], stdin: .bytes(Self.infoGIF)))
    #expect(info.map(\.source) == ["-"] && info.first?.frameCount == 3)
  }

  @Test func withoutASourceStandardInputIsReadWhenItIsNotATerminal() throws {
    let r = try gifview(["--check"], stdin: .bytes(Self.twoFrames))
    #expect(r.status == 0 && r.out == "-: ok, 2 frames\n", "have \(r.status) \(r.out.debugDescription) \(r.stderr)")
  }

  @Test func withoutASourceAndATerminalOnStandardInputUsageIsPrintedWithStatusTwo() throws {
    let r = try gifview(["--check"], stdin: .terminal)
    #expect(r.status == 2, "have exit status \(r.status), want 2")
    #expect(
      r.stderr.hasPrefix("usage: gifview [OPTIONS] [SOURCE ...]\n"), "have \(r.stderr.prefix(80).debugDescription)")
    #expect(r.stdout.isEmpty)
  }

  @Test func emptyStandardInputIsAnError() throws {
    expectOneErrorLine(try gifview(["--check", "-"], stdin: .bytes([])), "gifview: error: -: empty input", status: 1)
  }

  @Test func fileURLsArePercentDecodedAndMayNameALocalHost() throws {
    let path = try write("dir with space/ä b%.gif", Self.twoFrames)
    let encoded = try #require(path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed))
    #expect(encoded.contains("%20") && encoded.contains("%C3%A4") && encoded.contains("%25"))
    // How the source is named in the output (the URL as given, or the decoded path) is
    // not checked here: DESIGN §4 does not settle it.
    for url in ["file://" + encoded, "file://localhost" + encoded] {
      let check = try gifview(["--check", url])
      #expect(check.status == 0, "\(url): have exit status \(check.status) \(check.stderr)")
      #expect(check.out.hasSuffix(": ok, 2 frames\n"), "\(url): have \(check.out.debugDescription)")
      #expect(check.out.split(separator: "\n").count == 1 && check.stderr.isEmpty)
      let info = try parseInfo(try gifview(["--info", url]))
      #expect(info.map(\.frameCount) == [2] && info.map(\.width) == [3] && info.map(\.height) == [2])
    }
    let missing = "file://" + encoded.replacingOccurrences(of: ".gif", with: "-not-there.gif")
    let r = try gifview(["--check", missing])
    #expect(r.status == 1 && r.stdout.isEmpty, "have \(r.status) \(r.out)")
    #expect(r.stderr.hasSuffix("-not-there.gif: No such file or directory\n"), "have \(r.stderr.debugDescription)")
  }

  // MARK: Errors: one line on stderr, exit status 1 for a source, 2 for usage

  @Test(arguments: ["--check", "--info"])
  func missingFileIsAnError(mode: String) throws {
    let path = dir.appendingPathComponent("nope.gif").path
    expectOneErrorLine(try gifview([mode, path]), "gifview: error: \(path): No such file or directory", status: 1)
  }

  @Test func relativePathsAreReportedAsGiven() throws {
    expectOneErrorLine(
      try gifview(["--check", "nope.gif"]), "gifview: error: nope.gif: No such file or directory", status: 1)
  }

  @Test(arguments: ["--check", "--info"])
  func fileThatIsNotAGIFIsAnError(mode: String) throws {
    let path = try write("notes.gif", Array("just some text\n".utf8))
    expectOneErrorLine(try gifview([mode, path]), "gifview: error: \(path): not a GIF file", status: 1)
  }

  @Test func emptyFileIsAnError() throws {
    let path = try write("empty.gif", [])
    expectOneErrorLine(try gifview(["--check", path]), "gifview: error: \(path): empty input", status: 1)
  }

  @Test func directoryIsAnError() throws {
    let path = dir.appendingPathComponent("a dir.gif").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    expectOneErrorLine(
      try gifview(["--check", path]), "gifview: error: \(path): a directory with no GIF files", status: 1)
  }

  @Test(.enabled(if: getuid() != 0, "runs as root: chmod 000 does not stop root from reading"))
  func unreadableFileIsAnError() throws {
    let path = try write("secret.gif", Self.twoFrames)
    chmod(path, 0)
    expectOneErrorLine(try gifview(["--check", path]), "gifview: error: \(path): Permission denied", status: 1)
  }

  @Test func pathThroughAFileIsAnErrorEvenForRoot() throws {
    let file = try write("plain.gif", Self.twoFrames)
    let path = file + "/inside.gif"
    expectOneErrorLine(try gifview(["--check", path]), "gifview: error: \(path): Not a directory", status: 1)
  }

  @Test func unsupportedURLSchemeIsAnError() throws {
    expectOneErrorLine(
      try gifview(["--check", "ftp://example.com/a.gif"]),
      "gifview: error: ftp://example.com/a.gif: unsupported URL scheme 'ftp'", status: 1)
  }

  @Test func unknownOptionIsAUsageError() throws {
    let path = try write("two.gif", Self.twoFrames)
    expectOneErrorLine(
      try gifview(["--bogus", path]), "gifview: error: unknown option '--bogus' (see gifview --help)", status: 2)
  }

  @Test func optionWithoutItsValueIsAUsageError() throws {
    expectOneErrorLine(
      try gifview(["--frames"]), "gifview: error: option '--frames' needs a value (see gifview --help)", status: 2)
  }

  @Test(arguments: ["-h", "--help"])
  func helpPrintsUsageOnStandardOutput(flag: String) throws {
    let r = try gifview([flag])
    #expect(r.status == 0, "have exit status \(r.status), want 0")
    #expect(r.stderr.isEmpty)
    #expect(r.out.hasPrefix("usage: gifview [OPTIONS] [SOURCE ...]\n"), "have \(r.out.prefix(80).debugDescription)")
    for option in ["--info", "--frames DIR", "--check", "-h, --help", "-V, --version"] {
      #expect(r.out.contains(option), "help does not mention \(option)")
    }
  }

  @Test(arguments: ["-V", "--version"])
  func versionPrintsOneLine(flag: String) throws {
    let r = try gifview([flag])
    #expect(r.status == 0 && r.stderr.isEmpty, "have \(r.status) \(r.stderr)")
    let line = r.out
    let version = line.dropFirst("gifview ".count).dropLast()
    let parts = version.split(separator: ".", omittingEmptySubsequences: false)
    #expect(
      line.hasPrefix("gifview ") && line.hasSuffix("\n") && parts.count == 3
        && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) },
      "have \(line.debugDescription), want \"gifview X.Y.Z\\n\"")
  }
}

@Suite("Limit options")
struct LimitOptionTests {
  private func run(_ args: [String]) throws -> (Int32?, String) {
    let p = try RunningProcess(gifviewBinary, args)
    let status = p.wait(timeout: 10)
    return (status, p.stderr)
  }

  @Test func maxPixelsAndMaxInputOverrideTheDefaults() throws {
    var b = GIFBuilder(width: 20, height: 10, globalPalette: [0, 0, 0, 255, 255, 255])
    b.image(width: 20, height: 10, indices: [UInt8](repeating: 1, count: 200), minimumCodeSize: 2)
    b.trailer()
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gifview-limits-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let path = dir.appendingPathComponent("small.gif").path
    _ = FileManager.default.createFile(atPath: path, contents: Data(b.bytes))
    #expect(try run(["--check", path]).0 == 0)
    let pixels = try run(["--check", "--max-pixels", "199", path])
    #expect(pixels.0 == 1)
    #expect(pixels.1 == "gifview: error: \(path): canvas 20x10 is larger than the limit of 199 pixels\n")
    #expect(try run(["--check", "--max-pixels", "200", path]).0 == 0)
    let input = try run(["--check", "--max-input", "10", path])
    #expect(input.0 == 1)
    #expect(input.1 == "gifview: error: \(path): larger than the 10 bytes limit\n")
  }
}

@Suite("Directory sources")
struct DirectorySourceTests {
  private func check(_ args: [String]) throws -> (Int32?, [String]) {
    let p = try RunningProcess(gifviewBinary, ["--check"] + args)
    let status = p.wait(timeout: 10)
    return (status, p.stdout.split(separator: "\n").map(String.init))
  }

  @Test func aDirectoryStandsForItsGIFsBySignatureInNaturalOrderAndRDescends() throws {
    var b = GIFBuilder(width: 2, height: 2, globalPalette: [0, 0, 0, 255, 255, 255])
    b.image(width: 2, height: 2, indices: [0, 1, 1, 0], minimumCodeSize: 2)
    b.trailer()
    let gif = Data(b.bytes)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gifview-dir-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir + "/sub/deeper", withIntermediateDirectories: true)
    for name in ["10.gif", "2.gif", "1.gif", "noext", "sub/3.gif", "sub/deeper/01.gif", ".hidden.gif"] {
      _ = FileManager.default.createFile(atPath: dir + "/" + name, contents: gif)
    }
    // Named like a GIF, but text: not one.
    _ = FileManager.default.createFile(atPath: dir + "/fake.gif", contents: Data("a.gif\n".utf8))
    let flat = try check([dir])
    #expect(flat.0 == 0)
    #expect(flat.1 == ["1.gif", "2.gif", "10.gif", "noext"].map { "\(dir)/\($0): ok, 1 frames" })
    let deep = try check(["-r", dir + "/"])
    #expect(deep.0 == 0)
    #expect(
      deep.1
        == ["1.gif", "2.gif", "10.gif", "noext", "sub/3.gif", "sub/deeper/01.gif"].map {
          "\(dir)/\($0): ok, 1 frames"
        })
    // A directory without a GIF is a source that fails.
    let empty = dir + "/sub/empty"
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    let none = try RunningProcess(gifviewBinary, ["--check", empty])
    #expect(none.wait(timeout: 10) == 1)
    #expect(none.stderr == "gifview: error: \(empty): is a directory\n")
    // In a list too.
    let list = dir + "/../list-\(UUID().uuidString).txt"
    _ = FileManager.default.createFile(atPath: list, contents: Data("\(dir)/sub\n".utf8))
    #expect(
      try check(["--recursive", "--list", list]).1
        == ["3.gif", "deeper/01.gif"].map { "\(dir)/sub/\($0): ok, 1 frames" })
  }
}
