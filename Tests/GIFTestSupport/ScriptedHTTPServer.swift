import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 whose answers are scripts: send these bytes,
/// wait for that gate, close. For the window tests that need a server to be slow,
/// stop half-way through a body, or fail and then recover.
public final class ScriptedHTTPServer: @unchecked Sendable {
  public enum Step: Sendable {
    case send([UInt8])
    case sleep(Double)
    /// Blocks until the gate is opened (by the test).
    case wait(Gate)
  }

  /// A one-way latch.
  public final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false
    public init() {}
    public func open() {
      condition.lock()
      isOpen = true
      condition.broadcast()
      condition.unlock()
    }
    func wait() {
      condition.lock()
      while !isOpen { condition.wait() }
      condition.unlock()
    }
  }

  public let port: Int
  private let listener: Int32
  private let handler: @Sendable (_ path: String, _ requestNumber: Int) -> [Step]
  private let lock = NSLock()
  private var requests = 0
  private var paths: [String] = []
  private var open = 0
  private var peak = 0

  public var requestCount: Int { lock.withLock { requests } }
  /// The paths asked for, in the order the requests were read.
  public var requestedPaths: [String] { lock.withLock { paths } }
  /// The most connections that were open at once.
  public var peakConnections: Int { lock.withLock { peak } }

  /// `handler` gets the request path and how many requests came before this one.
  public init(handler: @escaping @Sendable (_ path: String, _ requestNumber: Int) -> [Step]) throws {
    self.handler = handler
    // A proxy set in the environment must not see this loopback server (the gifview
    // processes the tests start inherit this environment).
    setenv("no_proxy", "127.0.0.1,localhost", 1)
    setenv("NO_PROXY", "127.0.0.1,localhost", 1)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var one: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = 0
    let bound = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(fd, 16) == 0 else { throw XvfbError.message("cannot listen: \(errno)") }
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
    }
    listener = fd
    port = Int(UInt16(bigEndian: addr.sin_port))
    Thread.detachNewThread { [self] in acceptLoop() }
  }

  public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

  /// A complete 200 response with a Content-Length.
  public static func ok(_ body: [UInt8], type: String = "image/gif") -> [UInt8] {
    header(200, "OK", length: body.count, type: type) + body
  }

  public static func header(_ code: Int, _ reason: String, length: Int?, type: String = "image/gif") -> [UInt8] {
    var h = "HTTP/1.1 \(code) \(reason)\r\nContent-Type: \(type)\r\nConnection: close\r\n"
    if let length { h += "Content-Length: \(length)\r\n" }
    return Array((h + "\r\n").utf8)
  }

  private func acceptLoop() {
    while true {
      let c = accept(listener, nil, nil)
      if c < 0 { return }
      let n = lock.withLock {
        requests += 1
        return requests - 1
      }
      Thread.detachNewThread { [self] in serve(c, number: n) }
    }
  }

  private func serve(_ c: Int32, number: Int) {
    defer { close(c) }
    var request = [UInt8]()
    var buf = [UInt8](repeating: 0, count: 4096)
    while !request.containsHeaderEnd {
      let n = read(c, &buf, buf.count)
      if n <= 0 { return }
      request += buf[0..<n]
    }
    // A connection counts from its request to the last byte of its response: a client
    // that opens the next one only after reading a whole response is never counted twice
    // for the moment this thread takes to get back to the lock.
    lock.withLock {
      open += 1
      peak = max(peak, open)
    }
    defer { lock.withLock { open -= 1 } }
    let line = String(decoding: request.prefix { $0 != 13 }, as: UTF8.self)
    let path = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
    lock.withLock { paths.append(path) }
    for step in handler(path, number) {
      switch step {
      case .send(let bytes):
        var done = 0
        while done < bytes.count {
          let n = bytes.withUnsafeBytes { send(c, $0.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL)) }
          if n <= 0 { return }
          done += n
        }
      case .sleep(let s): usleep(UInt32(s * 1_000_000))
      case .wait(let gate): gate.wait()
      }
    }
  }
}

extension [UInt8] {
  fileprivate var containsHeaderEnd: Bool {
    guard count >= 4 else { return false }
    for i in 0...(count - 4) where self[i] == 13 && self[i + 1] == 10 && self[i + 2] == 13 && self[i + 3] == 10 {
      return true
    }
    return false
  }
}
