import Foundation
import Synchronization
import Testing

@testable import GIFLoader

#if canImport(Glibc)
  import Glibc
#endif

/// Every test of this target in one serialized suite: they share one server, and one test
/// changes the process environment (SSL_CERT_FILE).
@Suite("GIFLoader", .serialized)
struct GIFLoaderSuite {}

extension GIFLoaderSuite {
  @Suite("HTTP(S) against a local server (issue 4)")
  struct Network {
    let server: TestServer
    init() throws { server = try TestServer.get() }

    // MARK: bodies that arrive

    @Test func normalGIFOverHTTP() async throws {
      let path = uniquePath("gif")
      let r = await load(server.url(path), try testOptions())
      #expect(r.finished)
      #expect(r.bytes == TestServer.small)
      #expect(r.expected == .some(TestServer.small.count))
      let stats = try server.stats(path)
      #expect(stats.requests == 1)
      #expect(stats.headers["user-agent"] == "gifview/1.0.0")
      #expect(stats.headers["accept-encoding"]?.contains("gzip") == true)
    }

    @Test func normalGIFOverHTTPS() async throws {
      let r = await load(server.url(uniquePath("gif"), tls: true), try testOptions())
      #expect(r.errorText == nil)
      #expect(r.bytes == TestServer.small)
    }

    @Test func sslCertFileEnvironmentVariableIsTheCABundle() async throws {
      let saved = getenv("SSL_CERT_FILE").map { String(cString: $0) }
      defer {
        if let saved { setenv("SSL_CERT_FILE", saved, 1) } else { unsetenv("SSL_CERT_FILE") }
      }
      var options = try testOptions()
      options.caBundle = nil
      setenv("SSL_CERT_FILE", server.caFile, 1)
      let trusted = await load(server.url(uniquePath("gif"), tls: true), options)
      #expect(trusted.errorText == nil)
      #expect(trusted.bytes == TestServer.small)
      unsetenv("SSL_CERT_FILE")  // the system store does not know the test CA
      let system = await load(server.url(uniquePath("gif"), tls: true), options)
      #expect(system.errorText == "certificate not trusted")
    }

    @Test func untrustedCertificate() async throws {
      let r = await load("https://127.0.0.1:\(server.untrusted)/gif/x", try testOptions())
      #expect(r.errorText == "certificate not trusted")
      #expect(r.dataEvents == 0)
    }

    @Test func slowStart() async throws {
      let r = await load(server.url(uniquePath("slow")), try testOptions())
      #expect(r.finished)
      #expect(r.bytes == TestServer.small)
      #expect(r.elapsed >= 0.5)
    }

    @Test func trickleArrivesInPiecesInOrder() async throws {
      let r = await load(server.url(uniquePath("trickle"), tls: true), try testOptions())
      #expect(r.finished)
      #expect(r.bytes == TestServer.big)
      #expect(r.dataEvents >= 4)
      #expect(r.expected == .some(TestServer.big.count))
      // Progressive: the first chunk came while the server was still sending (8 × 60 ms).
      #expect(r.streamingSpan >= 0.25)
    }

    @Test func chunkedWithoutContentLength() async throws {
      let r = await load(server.url(uniquePath("chunked")), try testOptions())
      #expect(r.finished)
      #expect(r.bytes == TestServer.small)
      #expect(r.expected == .some(nil))
    }

    @Test func closeDelimitedWithoutContentLength() async throws {
      let r = await load(server.url(uniquePath("close")), try testOptions())
      #expect(r.finished)
      #expect(r.bytes == TestServer.big)
      #expect(r.expected == .some(nil))
    }

    @Test func gzipIsAcceptedAndDecoded() async throws {
      let path = uniquePath("gzip")
      let r = await load(server.url(path), try testOptions())
      #expect(r.bytes == TestServer.big)
      #expect(try server.stats(path).headers["accept-encoding"]?.contains("gzip") == true)
    }

    // MARK: failures, one line each

    @Test(arguments: [
      ("/status/404/a", "HTTP 404 Not Found"),
      ("/status/500/a", "HTTP 500 Internal Server Error"),
      ("/status/410/a?bare", "HTTP 410 Gone"),  // no reason phrase on the status line: the table's
      ("/status/503/a?bare", "HTTP 503 Service Unavailable"),
      ("/html/a", "not a GIF (server sent text/html)"),
      ("/notype/a", "not a GIF file"),
      ("/empty/a", "empty input"),
      ("/loop/a", "too many redirects"),
      ("/tofile/a", "redirect to unsupported URL scheme 'file'"),
    ])
    func failsWithOneLine(path: String, message: String) async throws {
      let r = await load(server.url(path), try testOptions())
      #expect(r.errorText == message)
      #expect(r.dataEvents == 0)
      #expect(r.error?.source == server.url(path))
    }

    @Test func redirectChainOfThreeHops() async throws {
      let tail = "hops-\(UInt32.random(in: 0...UInt32.max))"
      let r = await load(server.url("/chain/3/\(tail)"), try testOptions())
      #expect(r.finished)
      #expect(r.bytes == TestServer.small)
      for n in 0...3 { #expect(try server.stats("/chain/\(n)/\(tail)").requests == 1) }
    }

    @Test func redirectLoopStopsAfterTenRedirects() async throws {
      let path = uniquePath("loop")
      let r = await load(server.url(path), try testOptions())
      #expect(r.errorText == "too many redirects")
      #expect(try server.stats(path).requests == 11)
    }

    @Test func bodyOverTheCapByContentLength() async throws {
      let r = await load(server.url(uniquePath("big")), try testOptions(maxSize: 64 << 10))
      #expect(r.errorText == "larger than the 64 KiB limit")
      #expect(r.dataEvents == 0)
    }

    @Test func bodyOverTheCapWhileStreaming() async throws {
      let r = await load(server.url(uniquePath("close")), try testOptions(maxSize: 64 << 10))
      #expect(r.errorText == "larger than the 64 KiB limit")
      #expect(r.bytes.count <= 64 << 10)
      #expect(r.bytes == Array(TestServer.big.prefix(r.bytes.count)))
    }

    @Test func defaultCapIs256MiB() async throws {
      let r = await load(server.url(uniquePath("huge")), try testOptions())
      #expect(r.errorText == "larger than the 256 MiB limit")
      #expect(r.dataEvents == 0)
    }

    @Test(arguments: ["reset", "truncated"])
    func connectionClosedMidBodyKeepsTheChunks(route: String) async throws {
      let r = await load(server.url(uniquePath(route)), try testOptions())
      #expect(
        r.errorText
          == "connection closed after \(TestServer.partial) of \(TestServer.big.count) bytes")
      #expect(r.bytes == Array(TestServer.big.prefix(TestServer.partial)))
    }

    @Test func neverAnswersStallTimeout() async throws {
      let r = await load(server.url(uniquePath("hang")), try testOptions(stall: 1))
      #expect(r.errorText == "timed out after 1 s")
      #expect(r.elapsed < 5)
    }

    @Test func neverAnswersWholeTransferTimeout() async throws {
      let r = await load(server.url(uniquePath("hang"), tls: true), try testOptions(timeout: 0.5))
      #expect(r.errorText == "timed out after 0.5 s")
      #expect(r.elapsed < 3)
    }

    @Test func connectionRefused() async throws {
      let r = await load("http://127.0.0.1:\(closedPort())/x.gif", try testOptions())
      #expect(r.errorText == "connection refused")
    }

    @Test func unresolvableHost() async throws {
      let r = await load("http://gifview-test.invalid/x.gif", try testOptions(connectTimeout: 5))
      #expect(r.errorText == "could not resolve host gifview-test.invalid")
    }

    // MARK: API

    @Test func fetchAllReturnsTheBodyOrThrowsTheLine() throws {
      let bytes = try GIFLoader.fetchAll(
        .remote(server.url(uniquePath("big"), tls: true)), options: try testOptions())
      #expect(bytes == TestServer.big)
      #expect(
        throws: LoadError(
          .http(status: 404, reason: "Not Found"), source: server.url("/status/404/b"))
      ) {
        try GIFLoader.fetchAll(.remote(server.url("/status/404/b")), options: try testOptions())
      }
    }

    @Test func cancelStopsEventsAtOnce() async throws {
      let log = Mutex<[LoadEvent]>([])
      let firstData = Mutex<CheckedContinuation<Void, Never>?>(nil)
      let loader = GIFLoader(
        source: .remote(server.url(uniquePath("trickle"))), options: try testOptions())
      await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
        firstData.withLock { $0 = c }
        loader.start { event in
          log.withLock { $0.append(event) }
          if case .data = event { firstData.withLock { $0.take() }?.resume() }
        }
      }
      loader.cancel()
      let countAtCancel = log.withLock { $0.count }
      try await Task.sleep(for: .milliseconds(700))  // the trickle would have sent more by now
      #expect(log.withLock { $0.count } == countAtCancel)
      #expect(
        log.withLock { $0.contains { if case .finished = $0 { true } else { false } } } == false)
    }

    @Test func cancelFromInsideTheHandler() async throws {
      let log = Mutex<[LoadEvent]>([])
      let loader = GIFLoader(
        source: .remote(server.url(uniquePath("trickle"))), options: try testOptions())
      loader.start { event in
        log.withLock { $0.append(event) }
        if case .data = event { loader.cancel() }
      }
      try await Task.sleep(for: .milliseconds(900))
      let events = log.withLock { $0 }
      #expect(events.count { if case .data = $0 { true } else { false } } == 1)
      #expect(events.last.map { if case .data = $0 { true } else { false } } == true)
    }
  }
}

/// A port on 127.0.0.1 with nothing listening (bound, then released).
func closedPort() -> Int {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  defer { close(fd) }
  var addr = sockaddr_in()
  addr.sin_family = sa_family_t(AF_INET)
  addr.sin_addr.s_addr = inet_addr("127.0.0.1")
  var len = socklen_t(MemoryLayout<sockaddr_in>.size)
  _ = withUnsafeMutablePointer(to: &addr) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(fd, $0, len)
      return getsockname(fd, $0, &len)
    }
  }
  return Int(UInt16(bigEndian: addr.sin_port))
}
