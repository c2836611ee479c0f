import Foundation
import GIFTestSupport
import Synchronization
import Testing

@testable import GIFLoader

#if canImport(Glibc)
  import Glibc
#endif

/// The Python test server (test_server.py beside this file), started once per test process
/// on free ports of 127.0.0.1, with its test CA; it exits when our process does (its stdin
/// closes).
final class TestServer: Sendable {
  let directory: String
  let http: Int
  let https: Int
  let untrusted: Int
  /// HTTPS with certificates from the test CA that fail anyway: expired; for example.com only.
  let expired: Int
  let wrongHost: Int
  /// The test CA that signed the `https` server's certificate (not the `untrusted` one's).
  var caFile: String { directory + "/ca.pem" }

  /// small.gif: a real two-frame GIF; big.gif: "GIF89a" + 199 994 patterned bytes.
  static let small: [UInt8] = {
    var b = GIFBuilder(width: 2, height: 2, globalPalette: [0, 0, 0, 255, 255, 255])
    b.loop(0)
    b.control(delayCS: 10)
    b.image(width: 2, height: 2, indices: [0, 1, 1, 0], minimumCodeSize: 2)
    b.control(delayCS: 10)
    b.image(width: 2, height: 2, indices: [1, 0, 0, 1], minimumCodeSize: 2)
    b.trailer()
    return b.bytes
  }()
  static let big: [UInt8] =
    Array("GIF89a".utf8) + (0..<(200_000 - 6)).map { UInt8(truncatingIfNeeded: $0 * 7 % 251) }
  static let partial = 50_000  // what /reset and /truncated send before giving up

  static let shared: Result<TestServer, TestServerError> = Result { () throws(TestServerError) in
    try TestServer()
  }

  static func get() throws -> TestServer { try shared.get() }

  private init() throws(TestServerError) {
    // A proxy set in the environment must not see the loopback test servers.
    setenv("no_proxy", "127.0.0.1,localhost", 1)
    setenv("NO_PROXY", "127.0.0.1,localhost", 1)
    var template = Array("/tmp/gifview-loader-tests.XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw TestServerError("mkdtemp failed")
    }
    let directory = String(cString: made)
    self.directory = directory
    cleanupDirectory.withLock { $0 = directory }
    atexit {
      if let dir = cleanupDirectory.withLock({ $0 }) {
        try? FileManager.default.removeItem(atPath: dir)
      }
    }
    _ = FileManager.default.createFile(atPath: directory + "/small.gif", contents: Data(Self.small))
    _ = FileManager.default.createFile(atPath: directory + "/big.gif", contents: Data(Self.big))

    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "test_server.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, directory]
    let output = Pipe()
    let input = Pipe()
    process.standardOutput = output
    process.standardInput = input
    _ = FileManager.default.createFile(atPath: directory + "/server.log", contents: nil)
    process.standardError = FileHandle(forWritingAtPath: directory + "/server.log")
    do { try process.run() } catch { throw TestServerError("cannot start python3: \(error)") }
    keepAlive.withLock { $0 = [process, input, output] }  // the server lives as long as we do

    var line = Data()
    while !line.contains(10) {
      let more = output.fileHandleForReading.availableData
      if more.isEmpty {
        let log = (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? ""
        throw TestServerError("test server exited: \(log)")
      }
      line += more
    }
    guard let json = try? JSONSerialization.jsonObject(with: line) as? [String: Int],
      let http = json["http"], let https = json["https"], let untrusted = json["untrusted"],
      let expired = json["expired"], let wrongHost = json["wronghost"]
    else { throw TestServerError("bad port line: \(String(decoding: line, as: UTF8.self))") }
    self.http = http
    self.https = https
    self.untrusted = untrusted
    self.expired = expired
    self.wrongHost = wrongHost
  }

  func url(_ path: String, tls: Bool = false) -> String {
    tls ? "https://127.0.0.1:\(https)\(path)" : "http://127.0.0.1:\(http)\(path)"
  }

  struct PathStats {
    var requests = 0
    var bodies = 0
    var headers: [String: String] = [:]  // of the last request, lower-cased names
  }

  /// The server's counters for one path (fetched over a plain socket, not the loader).
  func stats(_ path: String) throws -> PathStats {
    let body = try rawGET("/stats")
    guard let all = try JSONSerialization.jsonObject(with: Data(body)) as? [String: [String: Any]]
    else {
      throw TestServerError("bad stats")
    }
    guard let entry = all[path] else { return PathStats() }
    return PathStats(
      requests: entry["requests"] as? Int ?? 0, bodies: entry["bodies"] as? Int ?? 0,
      headers: entry["headers"] as? [String: String] ?? [:])
  }

  private func rawGET(_ path: String) throws -> [UInt8] {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw TestServerError("socket failed") }
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = in_port_t(UInt16(http)).bigEndian
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    let rc = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard rc == 0 else { throw TestServerError("connect failed") }
    let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    guard send(fd, request, request.count, 0) == request.count else {
      throw TestServerError("send failed")
    }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = recv(fd, &buffer, buffer.count, 0)
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      response += buffer[0..<n]
    }
    let separator = Array("\r\n\r\n".utf8)
    guard let split = (0..<response.count).first(where: { response[$0...].starts(with: separator) })
    else {
      throw TestServerError("bad response")
    }
    return Array(response[(split + 4)...])
  }

  /// A fresh, empty directory under the server's temporary directory.
  func freshDirectory() -> String {
    let path = directory + "/cache-\(UInt64.random(in: 0...UInt64.max))"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }
}

struct TestServerError: Error, CustomStringConvertible {
  var description: String
  init(_ d: String) { description = d }
}

private let cleanupDirectory = Mutex<String?>(nil)
private let keepAlive = Mutex<[AnyObject]>([])

/// A path no other test uses (the server counts per path).
func uniquePath(_ route: String, _ name: String = #function) -> String {
  let slug = name.filter { $0.isLetter || $0.isNumber }
  return "/\(route)/\(slug)-\(UInt32.random(in: 0...UInt32.max))"
}

/// Loader options for tests: the test CA, no cache unless one is given.
func testOptions(
  cache: String? = nil, maxSize: Int = 256 << 20, timeout: Double? = nil, stall: Double = 30,
  stallSpeed: Int = 1024, connectTimeout: Double = 10, cacheLimit: Int = 256 << 20
) throws -> LoadOptions {
  LoadOptions(
    timeout: timeout, maxSize: maxSize, useCache: cache != nil, connectTimeout: connectTimeout,
    stallTimeout: stall, stallSpeedLimit: stallSpeed, cacheDirectory: cache, cacheLimit: cacheLimit,
    caBundle: try TestServer.get().caFile)
}

/// Everything one load reported.
struct LoadResult {
  var events: [LoadEvent]
  var times: [Double]  // seconds after the start, one per event
  var elapsed: Double

  /// Seconds from the first `.data` event to the last event.
  var streamingSpan: Double {
    guard let first = events.firstIndex(where: { if case .data = $0 { true } else { false } })
    else { return 0 }
    return times[times.count - 1] - times[first]
  }

  var bytes: [UInt8] {
    events.reduce(into: []) { if case .data(let d) = $1 { $0 += d } }
  }
  var dataEvents: Int { events.count { if case .data = $0 { true } else { false } } }
  var finished: Bool { if case .finished = events.last { true } else { false } }
  /// The file the load said the body can be read again from, if any.
  var rereadable: RereadableFile? {
    for e in events { if case .rereadable(let file) = e { return file } }
    return nil
  }
  var error: LoadError? { if case .failed(let e) = events.last { e } else { nil } }
  var errorText: String? { error?.description }
  var expected: Int?? {
    for e in events { if case .progress(_, let expected) = e { return expected } }
    return nil
  }
}

private final class EventLog: Sendable {
  let events = Mutex<[(LoadEvent, Double)]>([])
}

/// Runs a loader through `start` and waits for its last event; checks what every load must
/// satisfy: one terminal event, last; progress counts in step with the data delivered.
func load(_ source: Source, _ options: LoadOptions) async -> LoadResult {
  let started = monotonicSeconds()
  let log = EventLog()
  let loader = GIFLoader(source: source, options: options)
  await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    loader.start { event in
      log.events.withLock { $0.append((event, monotonicSeconds() - started)) }
      switch event {
      case .finished, .failed: done.resume()
      default: break
      }
    }
  }
  let logged = log.events.withLock { $0 }
  let result = LoadResult(
    events: logged.map(\.0), times: logged.map(\.1), elapsed: monotonicSeconds() - started)
  checkInvariants(result)
  return result
}

func load(_ url: String, _ options: LoadOptions) async -> LoadResult {
  await load(.remote(url), options)
}

func checkInvariants(_ r: LoadResult, sourceLocation: SourceLocation = #_sourceLocation) {
  let terminals = r.events.indices.filter {
    switch r.events[$0] {
    case .finished, .failed: true
    default: false
    }
  }
  #expect(
    terminals == [r.events.count - 1], "exactly one terminal event, last",
    sourceLocation: sourceLocation)
  // A rereadable file comes once, before the first data, and holds every byte delivered.
  let rereadable = r.events.indices.filter { if case .rereadable = r.events[$0] { true } else { false } }
  #expect(rereadable.count <= 1, "at most one rereadable event", sourceLocation: sourceLocation)
  if let i = rereadable.first, let file = r.rereadable {
    let firstData = r.events.firstIndex { if case .data = $0 { true } else { false } }
    #expect(firstData.map { i < $0 } ?? true, "rereadable before the first data", sourceLocation: sourceLocation)
    let body = r.bytes
    var back = [UInt8](repeating: 0, count: body.count + 1)
    let n = back.withUnsafeMutableBytes { file.read(at: 0, into: $0) }
    #expect(
      n >= body.count && back.prefix(body.count).elementsEqual(body), "the file holds the body",
      sourceLocation: sourceLocation)
  }
  var delivered = 0
  var lastReceived = 0
  for e in r.events {
    switch e {
    case .data(let d):
      #expect(!d.isEmpty, sourceLocation: sourceLocation)
      delivered += d.count
    case .progress(let received, let expected):
      #expect(
        received == delivered, "progress counts what was delivered", sourceLocation: sourceLocation)
      #expect(received >= lastReceived, sourceLocation: sourceLocation)
      if let expected { #expect(received <= expected, sourceLocation: sourceLocation) }
      lastReceived = received
    default: break
    }
  }
}
