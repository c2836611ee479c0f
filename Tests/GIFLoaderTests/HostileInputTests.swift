import Foundation
import GIFTestSupport
import Testing

@testable import GIFLoader

#if canImport(Glibc)
  import Glibc
#endif

extension GIFLoaderSuite {
  /// What a deliberate attack found (issue 12): text from outside printed raw, passwords
  /// shown, byte paths refused, a FIFO that hangs, trickles without end, misleading messages.
  @Suite("Hostile input (issue 12)")
  struct Hostile {
    let server: TestServer
    init() throws { server = try TestServer.get() }

    // MARK: text from outside

    @Test func displayTextEscapesEveryControlCharacterVisibly() {
      #expect(displayText("a\u{1B}]0;owned\u{07}b") == "a\\x1b]0;owned\\x07b")
      #expect(displayText("one\ntwo\r\tx\u{0}") == "one\\ntwo\\r\\tx\\x00")
      #expect(
        displayText("del\u{7F} csi\u{9B} ls\u{2028} rlo\u{202E}") == "del\\x7f csi\\u{9b} ls\\u{2028} rlo\\u{202e}")
      #expect(displayText("plain ünïcödé ✓ 漢字") == "plain ünïcödé ✓ 漢字")
    }

    @Test func displayTextShowsInvalidUTF8AsBytes() {
      #expect(displayText([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x67]) == "caf\\xe9.g")
      #expect(displayText([0xE2, 0x82]) == "\\xe2\\x82")  // cut short
      #expect(displayText([0xC0, 0xAF]) == "\\xc0\\xaf")  // overlong "/"
      #expect(displayText([0x1B, 0xFF], keepingControls: true) == "\u{1B}\\xff")
      // Escapes are plain ASCII: escaping again changes nothing.
      let once = displayText([0x1B, 0x0A, 0xFF, 0x41, 0xC2, 0x9B])
      #expect(once == "\\x1b\\n\\xffA\\u{9b}")
      #expect(displayText(once) == once)
    }

    @Test func reasonPhraseControlsAndInvalidUTF8AreEscapedInTheError() async throws {
      let reason = Array("Oops".utf8) + [0x1B] + Array("]0;owned".utf8) + [0x07, 0xFF] + Array(" x".utf8)
      let s = try ScriptedHTTPServer { _, _ in
        [.send(Array("HTTP/1.1 404 ".utf8) + reason + Array("\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))]
      }
      let r = await load(s.url("/x.gif"), try testOptions())
      #expect(r.errorText == "HTTP 404 Oops\\x1b]0;owned\\x07\\xff x")
    }

    @Test func contentTypeFromTheServerIsEscapedInTheError() async throws {
      let s = try ScriptedHTTPServer { _, _ in [.send(ScriptedHTTPServer.ok(Array("hi".utf8), type: "text/\u{1B}[2J"))]
      }
      let r = await load(s.url("/x.gif"), try testOptions())
      #expect(r.errorText == "not a GIF (server sent text/\\x1b[2j)")
    }

    // MARK: passwords

    @Test func redactingCredentialsKeepsTheUserAndHidesThePassword() {
      #expect(redactingCredentials("https://bob:hunter2@example.com/a.gif") == "https://bob:***@example.com/a.gif")
      // The user information ends at the last "@" before the path; "@" and ":" after it are path.
      #expect(redactingCredentials("http://bob:p@ss:w@host:8080/x?y=1:2@z") == "http://bob:***@host:8080/x?y=1:2@z")
      #expect(redactingCredentials("http://host/a:b@c") == "http://host/a:b@c")
      #expect(redactingCredentials("http://:pw@host/") == "http://:***@host/")
      #expect(redactingCredentials("not a url") == "not a url")
      let source = Source.remote("https://bob:hunter2@example.com/a.gif")
      #expect(source.description == "https://bob:***@example.com/a.gif")
      #expect(source.name == "https://bob:***@example.com/a.gif")
      #expect(source.displayName == "https://bob:***@example.com/a.gif")  // the window title's
    }

    @Test func redactingCredentialsHidesABareUserNameWhole() {
      // One name and no password is how a token travels: the name is the secret.
      #expect(redactingCredentials("https://ghp_t0ken@example.com/a.gif") == "https://***@example.com/a.gif")
      #expect(redactingCredentials("http://tok@en@host:8080/x@y") == "http://***@host:8080/x@y")
      #expect(redactingCredentials("HTTP://tok%40en@host?q=a@b") == "HTTP://***@host?q=a@b")
      #expect(redactingCredentials("http://@host/a.gif") == "http://@host/a.gif")  // nothing to hide
      #expect(redactingCredentials("http://host/~tok@en") == "http://host/~tok@en")  // "@" in the path
      let source = Source.remote("https://ghp_t0ken@example.com/a.gif")
      #expect(source.description == "https://***@example.com/a.gif")
      #expect(source.name == "https://***@example.com/a.gif")
      #expect(source.displayName == "https://***@example.com/a.gif")  // the window title's
      #expect(Source.name(ofArgument: Array("ftp://ghp_t0ken@example.com/".utf8)) == "ftp://***@example.com/")
    }

    @Test func passwordIsNotInTheErrorLine() async throws {
      let r = await load("http://bob:hunter2@127.0.0.1:\(server.http)/status/404/p", try testOptions())
      #expect(r.errorText == "HTTP 404 Not Found")
      #expect(r.error?.source == "http://bob:***@127.0.0.1:\(server.http)/status/404/p")
    }

    @Test func bareUserNameIsNotInTheErrorLine() async throws {
      let r = await load("http://ghp_t0ken@127.0.0.1:\(server.http)/status/404/u", try testOptions())
      #expect(r.errorText == "HTTP 404 Not Found")
      #expect(r.error?.source == "http://***@127.0.0.1:\(server.http)/status/404/u")
    }

    @Test func bareUserNameIsNotStoredInTheCacheAndTheEntryStillServes() async throws {
      let dir = server.freshDirectory()
      let path = uniquePath("etag")
      let url = "http://ghp_t0ken@127.0.0.1:\(server.http)\(path)"
      let first = await load(url, try testOptions(cache: dir))
      #expect(first.bytes == TestServer.small)
      let meta = try String(contentsOfFile: "\(dir)/\(DiskCache.key(for: url)).meta", encoding: .utf8)
      #expect(meta.contains("url http://***@127.0.0.1:\(server.http)\(path)\n"), "have \(meta)")
      for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(name)"))
        #expect(!String(decoding: bytes, as: UTF8.self).contains("ghp_t0ken"), "\(name) holds the user name")
      }
      // The key still tells users apart: another name is another entry, not this one's.
      #expect(DiskCache.key(for: url) != DiskCache.key(for: "http://other@127.0.0.1:\(server.http)\(path)"))
      let second = await load(url, try testOptions(cache: dir))
      #expect(second.bytes == TestServer.small)
      let stats = try server.stats(path)
      #expect(stats.requests == 2 && stats.bodies == 1, "the second load was a 304 from the cache entry")
    }

    @Test func passwordIsNotStoredInTheCacheAndTheEntryStillServes() async throws {
      let dir = server.freshDirectory()
      let path = uniquePath("etag")
      let url = "http://bob:hunter2@127.0.0.1:\(server.http)\(path)"
      let first = await load(url, try testOptions(cache: dir))
      #expect(first.bytes == TestServer.small)
      let meta = try String(contentsOfFile: "\(dir)/\(DiskCache.key(for: url)).meta", encoding: .utf8)
      #expect(meta.contains("url http://bob:***@127.0.0.1:\(server.http)\(path)\n"), "have \(meta)")
      for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(name)"))
        #expect(!String(decoding: bytes, as: UTF8.self).contains("hunter2"), "\(name) holds the password")
      }
      let second = await load(url, try testOptions(cache: dir))
      #expect(second.bytes == TestServer.small)
      let stats = try server.stats(path)
      #expect(stats.requests == 2 && stats.bodies == 1, "the second load was a 304 from the cache entry")
    }

    // MARK: paths are bytes

    @Test func pathsThatAreNotUTF8OpenByTheirBytes() async throws {
      let bytes = Array("\(server.directory)/caf".utf8) + [0xE9] + Array(".gif".utf8)
      let fd = (bytes + [0]).withUnsafeBufferPointer {
        $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
      }
      try #require(fd >= 0)
      #expect(write(fd, TestServer.small, TestServer.small.count) == TestServer.small.count)
      close(fd)
      let source = try Source(argumentBytes: bytes)
      #expect(source == .rawPath(bytes))
      #expect(source.description == "\(server.directory)/caf\\xe9.gif")
      #expect(source.displayName == "caf\\xe9.gif")
      let r = await load(source, LoadOptions())
      #expect(r.errorText == nil)
      #expect(r.bytes == TestServer.small)
      #expect(try LocalReader.readAll(source, maxBytes: 1 << 20) == TestServer.small)
      // file:// URLs percent-decode to bytes, UTF-8 or not.
      #expect(try Source(argument: "file://\(server.directory)/caf%E9.gif") == source)
      #expect(try Source(argument: "file:///tmp/%C3%A4.gif") == .path("/tmp/ä.gif"))
      #expect(throws: LoadError.self) { try Source(argument: "file:///tmp/a%00b.gif") }
    }

    // MARK: timeouts

    @Test func millisecondsSaturateForAnyDouble() {
      for seconds in [Double.infinity, .nan, 1e300, 9.3e15, 2.2e6] { #expect(milliseconds(seconds) == Int(Int32.max)) }
      #expect(milliseconds(-.infinity) == 1)
      #expect(milliseconds(0) == 1)
      #expect(milliseconds(0.0004) == 1)
      #expect(milliseconds(2.5) == 2500)
    }

    @Test(arguments: [Double.infinity, .nan, 1e300, 9.3e15])
    func hugeTimeoutsDoNotTrap(seconds: Double) async throws {
      let r = await load(server.url(uniquePath("gif")), try testOptions(timeout: seconds, stall: .infinity))
      #expect(r.errorText == nil)
      #expect(r.bytes == TestServer.small)
    }

    // MARK: the cache meets a FIFO

    @Test func fifoInPlaceOfACacheFileIsAMissNotAHang() async throws {
      let dir = server.freshDirectory()
      let path = uniquePath("etag")
      let stem = "\(dir)/\(DiskCache.key(for: server.url(path)))"
      for name in [stem + ".meta", stem + ".gif"] { try #require(mkfifo(name, 0o600) == 0) }
      // Should the load block in open(), a writer opening the FIFOs after 5 s lets it go
      // on, so the test fails on the time instead of hanging.
      Thread.detachNewThread {
        sleep(5)
        for name in [stem + ".meta", stem + ".gif"] {
          let fd = open(name, O_WRONLY | O_NONBLOCK)
          if fd >= 0 { close(fd) }
        }
      }
      let r = await load(server.url(path), try testOptions(cache: dir))
      #expect(r.elapsed < 3, "the load waited \(r.elapsed) s")
      #expect(r.bytes == TestServer.small)
    }

    // MARK: servers too slow, too big, cut short, with bad certificates

    /// `count` pieces of `size` bytes of `body`, `interval` seconds apart, after a header.
    static func trickle(_ body: [UInt8], size: Int, interval: Double) -> [ScriptedHTTPServer.Step] {
      var steps: [ScriptedHTTPServer.Step] = [.send(ScriptedHTTPServer.header(200, "OK", length: body.count))]
      for start in stride(from: 0, to: body.count, by: size) {
        steps += [.send(Array(body[start..<min(body.count, start + size)])), .sleep(interval)]
      }
      return steps
    }

    @Test func defaultSpeedLimitIsOneKiBPerSecondForThirtySeconds() {
      #expect(LoadOptions().stallSpeedLimit == 1024)
      #expect(LoadOptions().stallTimeout == 30)
    }

    @Test func trickleBelowTheSpeedLimitEndsTooSlow() async throws {
      let s = try ScriptedHTTPServer { _, _ in Self.trickle(TestServer.big, size: 20, interval: 0.1) }  // 200 B/s
      let r = await load(s.url("/trickle.gif"), try testOptions(stall: 1, stallSpeed: 1024))
      #expect(r.errorText == "transfer too slow (under 1 KiB/s for 1 s)")
      #expect(r.elapsed < 4, "took \(r.elapsed) s")
      #expect(!r.bytes.isEmpty && r.bytes == Array(TestServer.big.prefix(r.bytes.count)))
    }

    @Test func wholeTransferTimeoutStillBoundsATrickleAboveTheLimit() async throws {
      let s = try ScriptedHTTPServer { _, _ in Self.trickle(TestServer.big, size: 1000, interval: 0.1) }  // 10 kB/s
      let r = await load(s.url("/trickle.gif"), try testOptions(timeout: 1, stall: 1, stallSpeed: 1024))
      #expect(r.errorText == "timed out after 1 s")
      #expect(r.elapsed < 3, "took \(r.elapsed) s")
    }

    @Test func hugeResponseHeaderIsNotOutOfMemory() async throws {
      let padding = [UInt8](repeating: UInt8(ascii: "a"), count: 2 << 20)
      let s = try ScriptedHTTPServer { _, _ in
        [
          .send(
            Array("HTTP/1.1 200 OK\r\nContent-Type: image/gif\r\nX-Padding: ".utf8) + padding
              + Array("\r\nConnection: close\r\n\r\n".utf8) + TestServer.small)
        ]
      }
      let r = await load(s.url("/big-header.gif"), try testOptions())
      #expect(r.errorText == "response header too large")
    }

    @Test func connectionClosedInsideTheHeadersSaysSo() async throws {
      let s = try ScriptedHTTPServer { _, _ in
        [.send(Array("HTTP/1.1 200 OK\r\nContent-Type: image/gif\r\nContent-Le".utf8))]
      }
      let r = await load(s.url("/cut.gif"), try testOptions())
      #expect(r.errorText == "connection closed before the response")
    }

    @Test func expiredCertificateSaysExpired() async throws {
      let r = await load("https://127.0.0.1:\(server.expired)/gif/x", try testOptions())
      #expect(r.errorText == "certificate expired")
      #expect(r.dataEvents == 0)
    }

    @Test func certificateForAnotherHostSaysTheNameDoesNotMatch() async throws {
      let r = await load("https://127.0.0.1:\(server.wrongHost)/gif/x", try testOptions())
      #expect(r.errorText == "certificate name does not match")
      #expect(r.dataEvents == 0)
    }
  }
}
