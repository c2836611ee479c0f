import CPosix
import Glibc

/// A non-blocking self-pipe: any thread writes a byte, the polling thread wakes.
public final class WakePipe: Sendable {
  /// The end to poll for input.
  public let readFD: Int32
  private let writeFD: Int32

  /// Opens the pipe; running out of descriptors here is not recoverable.
  public init() {
    var fds: [Int32] = [-1, -1]
    let r = fds.withUnsafeMutableBufferPointer { gv_pipe2($0.baseAddress!, O_NONBLOCK | O_CLOEXEC) }
    precondition(r == 0, "pipe2 failed: \(Errno.current)")
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
    var buf = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
    while case .success(let n) = valueOrErrno({ withUnsafeMutableBytes(of: &buf) { read(readFD, $0.baseAddress, 32) } }),
      n > 0
    {}
  }
}
