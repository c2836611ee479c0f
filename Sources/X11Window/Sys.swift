import CX11
import Glibc

/// Thin typed layer over the few system calls the event loop makes (STYLE 2.1).
public struct Errno: Error, CustomStringConvertible, Equatable, Sendable {
  public var code: Int32
  public static var current: Errno { Errno(code: errno) }
  public var description: String { String(cString: strerror(code)) }
  public static let interrupted = Errno(code: EINTR)
  public static let wouldBlock = Errno(code: EAGAIN)
}

/// Runs `body` until it does not fail with EINTR; -1 becomes `Errno.current`.
@inline(__always)
func valueOrErrno<T: FixedWidthInteger>(_ body: () -> T) -> Result<T, Errno> {
  while true {
    let r = body()
    if r != -1 { return .success(r) }
    if errno != EINTR { return .failure(.current) }
  }
}

/// A non-blocking self-pipe: any thread writes a byte, the UI thread's poll() wakes.
public final class WakePipe: Sendable {
  public let readFD: Int32
  public let writeFD: Int32

  public init() {
    var fds: [Int32] = [-1, -1]
    let r = fds.withUnsafeMutableBufferPointer { pipe($0.baseAddress!) }
    precondition(r == 0, "pipe failed: \(Errno.current)")
    for fd in fds {
      _ = fcntl(fd, F_SETFL, O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    readFD = fds[0]
    writeFD = fds[1]
  }

  deinit {
    close(readFD)
    close(writeFD)
  }

  /// Safe from any thread; a full pipe already means "wake up".
  public func wake() {
    var b: UInt8 = 1
    _ = valueOrErrno { write(writeFD, &b, 1) }
  }

  /// Empties the pipe (until it would block).
  public func drain() {
    var buf = [UInt8](repeating: 0, count: 64)
    while case .success(let n) = valueOrErrno({ buf.withUnsafeMutableBytes { read(readFD, $0.baseAddress, 64) } }),
      n > 0
    {}
  }
}

/// Waits for input on `fds` until `timeoutNS` from now (nil: forever); answers which fds
/// are readable. ppoll() takes nanoseconds, so a frame deadline is met to the
/// microsecond instead of being rounded up to the next millisecond.
public func pollReadable(_ fds: [Int32], timeoutNS: UInt64?) -> [Bool] {
  var pfds = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
  let r = pfds.withUnsafeMutableBufferPointer { buf -> Result<Int32, Errno> in
    guard let timeoutNS else { return valueOrErrno { gv_ppoll(buf.baseAddress, nfds_t(buf.count), nil) } }
    var ts = timespec(tv_sec: Int(timeoutNS / 1_000_000_000), tv_nsec: Int(timeoutNS % 1_000_000_000))
    return valueOrErrno { gv_ppoll(buf.baseAddress, nfds_t(buf.count), &ts) }
  }
  guard case .success = r else { return fds.map { _ in false } }
  return pfds.map { $0.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 }
}
