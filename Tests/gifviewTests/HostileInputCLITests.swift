import Foundation
import GIFTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Hostile input at the command line (issue 12): option values that trapped, names that
/// are not UTF-8 or carry control bytes, passwords and user names in URLs, files with no image, and the
/// `--frames` prefix of several sources.
extension CLITests {
  // MARK: helpers

  /// Runs gifview with arguments given as bytes (no String in between), in `dir`.
  func gifviewBytes(_ arguments: [[UInt8]]) throws -> Result {
    guard FileManager.default.isExecutableFile(atPath: Self.binary.path) else { throw BinaryMissing() }
    let id = UUID().uuidString
    let outPath = dir.appendingPathComponent(".out-\(id)").path
    let errPath = dir.appendingPathComponent(".err-\(id)").path
    defer {
      unlink(outPath)
      unlink(errPath)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    // env -C: the working directory (posix_spawn_file_actions_addchdir_np is not imported).
    let argv: [UnsafeMutablePointer<CChar>?] =
      ([Array("env".utf8), Array("-C".utf8), Array(dir.path.utf8), Array(Self.binary.path.utf8)] + arguments).map {
        bytes in
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (i, b) in bytes.enumerated() { p[i] = CChar(bitPattern: b) }
        p[bytes.count] = 0
        return p
      } + [nil]
    defer { for p in argv { p?.deallocate() } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, "/usr/bin/env", &actions, nil, argv, environ)
    guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS; a signal shows as 128 + its number.
    let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return Result(
      status: code, stdout: try Data(contentsOf: URL(fileURLWithPath: outPath)),
      stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: errPath)), as: UTF8.self))
  }

  /// Creates `dir/NAME` from the name's bytes; answers the whole path's bytes.
  func writeBytesNamed(_ name: [UInt8], _ contents: [UInt8]) throws -> [UInt8] {
    let path = Array(dir.path.utf8) + [UInt8(ascii: "/")] + name
    let fd = (path + [0]).withUnsafeBufferPointer {
      $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
    }
    guard fd >= 0 else { throw POSIXError(.EIO) }
    defer { close(fd) }
    guard Glibc.write(fd, contents, contents.count) == contents.count else { throw POSIXError(.EIO) }
    return path
  }

  /// A screen, a comment, a trailer: a well-formed GIF with no image.
  static let noImage: [UInt8] = {
    var gif = GIFBuilder(width: 4, height: 3, globalPalette: palette)
    gif.comment("no pictures here")
    gif.trailer()
    return gif.bytes
  }()

  // MARK: --timeout

  @Test(arguments: ["inf", "nan", "1e300", "9.3e15", "604801", "0", "-1", "infinity"])
  func timeoutThatIsNotAFiniteLimitIsAUsageError(value: String) throws {
    for arguments in [["--timeout", value], ["--timeout=\(value)"]] {
      expectOneErrorLine(
        try gifview(arguments + ["--check", "http://127.0.0.1:9/a.gif"]),
        "gifview: error: bad timeout '\(value)' (want seconds, above 0 and at most 604800) (see gifview --help)",
        status: 2)
    }
  }

  @Test func longestTimeoutIsAccepted() throws {
    let path = try write("two.gif", Self.twoFrames)
    let r = try gifview(["--timeout", "604800", "--check", path])
    #expect(r.status == 0 && r.out == "\(path): ok, 2 frames\n", "have \(r.status) \(r.out) \(r.stderr)")
  }

  // MARK: names that are bytes

  @Test func fileNameThatIsNotUTF8Opens() throws {
    let path = try writeBytesNamed(Array("caf".utf8) + [0xE9] + Array(".gif".utf8), Self.twoFrames)
    let shown = "\(dir.path)/caf\\xe9.gif"
    let check = try gifviewBytes([Array("--check".utf8), path])
    #expect(check.status == 0, "have \(check.status) \(check.stderr)")
    #expect(check.out == "\(shown): ok, 2 frames\n", "have \(check.out.debugDescription)")
    let relative = try gifviewBytes([Array("--check".utf8), Array("caf".utf8) + [0xE9] + Array(".gif".utf8)])
    #expect(relative.out == "caf\\xe9.gif: ok, 2 frames\n", "have \(relative.out.debugDescription) \(relative.stderr)")
    let info = try parseInfo(try gifviewBytes([Array("--info".utf8), path]))
    #expect(info.map(\.source) == [shown] && info.map(\.frameCount) == [2])
    let url = try gifview(["--check", "file://\(dir.path)/caf%E9.gif"])
    #expect(url.status == 0 && url.out == "\(shown): ok, 2 frames\n", "have \(url.status) \(url.out) \(url.stderr)")
    let frames = try gifviewBytes([Array("--frames".utf8), Array("out".utf8), path])
    #expect(frames.status == 0, "have \(frames.status) \(frames.stderr)")
    #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/frame-0001.pam").path))
  }

  @Test func listLinesAreBytesToo() throws {
    let name = Array("caf".utf8) + [0xE9] + Array(".gif".utf8)
    _ = try writeBytesNamed(name, Self.twoFrames)
    let list = try write("list.txt", name + [10] + Array("missing.gif\r\n".utf8))
    let r = try gifview(["--check", "--list", list])
    #expect(r.status == 1)
    #expect(r.out == "caf\\xe9.gif: ok, 2 frames\n", "have \(r.out.debugDescription)")
    #expect(r.stderr == "gifview: error: missing.gif: No such file or directory\n", "have \(r.stderr.debugDescription)")
  }

  @Test func missingFileThatIsNotUTF8IsReportedWithItsBytesEscaped() throws {
    let r = try gifviewBytes([Array("--check".utf8), Array("gon".utf8) + [0xE9, 0xFF] + Array(".gif".utf8)])
    expectOneErrorLine(r, "gifview: error: gon\\xe9\\xff.gif: No such file or directory", status: 1)
  }

  // MARK: control bytes never reach the terminal

  @Test func controlBytesInAFileNameAreEscapedOnStdoutStderrAndInJSON() throws {
    let name = "a\u{1B}]0;owned\u{07}\nb\u{7F}\u{9B}.gif"
    let shownName = "a\\x1b]0;owned\\x07\\nb\\x7f\\u{9b}.gif"
    let path = try write(name, Self.twoFrames)
    let check = try gifview(["--check", path])
    #expect(check.out == "\(dir.path)/\(shownName): ok, 2 frames\n", "have \(check.out.debugDescription)")
    let missing = try gifview(["--check", path + "\u{1B}[2J"])
    expectOneErrorLine(
      missing, "gifview: error: \(dir.path)/\(shownName)\\x1b[2J: No such file or directory", status: 1)
    let info = try gifview(["--info", path])
    #expect(!info.stdout.contains(0x1B) && !info.stdout.contains(0x07), "raw control bytes in the JSON")
    #expect(info.out.contains("\\u001b]0;owned\\u0007\\nb\\u007f\\u009b.gif"), "have \(info.out.prefix(200))")
    #expect(try parseInfo(info).map(\.source) == [path], "the JSON string decodes to the real name")
  }

  @Test func controlBytesInAnOptionValueAreEscaped() throws {
    expectOneErrorLine(
      try gifview(["--speed", "1\u{1B}[31m"]),
      "gifview: error: bad speed '1\\x1b[31m' (want 0.05 to 20) (see gifview --help)", status: 2)
  }

  // MARK: passwords

  /// A password shows as `user:***`; a bare user name (an access token) is hidden whole.
  @Test(arguments: [("bob:hunter2", "bob:***", "hunter2"), ("ghp_t0ken", "***", "ghp_t0ken")])
  func credentialsInAURLAreRedactedInErrorsAndInInfo(userInfo: String, shownAs: String, secret: String) throws {
    let gif = Self.twoFrames
    let server = try ScriptedHTTPServer { path, _ in
      path.hasPrefix("/ok")
        ? [.send(ScriptedHTTPServer.ok(gif))]
        : [.send(ScriptedHTTPServer.header(404, "Not Found", length: 0, type: "text/plain"))]
    }
    let base = "http://\(userInfo)@127.0.0.1:\(server.port)"
    let shown = "http://\(shownAs)@127.0.0.1:\(server.port)"
    expectOneErrorLine(
      try gifview(["--no-cache", "--check", base + "/missing.gif"]),
      "gifview: error: \(shown)/missing.gif: HTTP 404 Not Found", status: 1)
    let check = try gifview(["--no-cache", "--check", base + "/ok.gif"])
    #expect(check.out == "\(shown)/ok.gif: ok, 2 frames\n", "have \(check.out.debugDescription) \(check.stderr)")
    let info = try gifview(["--no-cache", "--info", base + "/ok.gif"])
    #expect(!info.out.contains(secret))
    #expect(try parseInfo(info).map(\.source) == ["\(shown)/ok.gif"])
    expectOneErrorLine(
      try gifview(["--check", "ftp://\(userInfo)@example.com/a.gif"]),
      "gifview: error: ftp://\(shownAs)@example.com/a.gif: unsupported URL scheme 'ftp'", status: 1)
  }

  // MARK: no image

  @Test(arguments: [["--check"], ["--info"], ["--frames", "out"]])
  func aGIFWithNoImageIsAnError(mode: [String]) throws {
    let path = try write("empty-screen.gif", Self.noImage)
    expectOneErrorLine(try gifview(mode + [path]), "gifview: error: \(path): no image in file", status: 1)
  }

  // MARK: --frames with several sources

  @Test func framesPrefixIsTheArgumentPositionEvenAfterAFailedSource() throws {
    let a = try write("a.gif", Self.twoFrames)
    let b = try write("b.gif", Self.twoFrames)
    let r = try gifview(["--frames", "out", "missing.gif", a, "ftp://x/y.gif", b])
    #expect(r.status == 1)
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("out").path).sorted()
    #expect(names == ["1-frame-0000.pam", "1-frame-0001.pam", "3-frame-0000.pam", "3-frame-0001.pam"])
    #expect(r.stderr.split(separator: "\n").count == 2, "have \(r.stderr)")
  }
}
