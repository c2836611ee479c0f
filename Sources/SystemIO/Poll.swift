import CPosix
import Glibc

/// Waits for input on `fds` until `timeoutNS` from now (nil: forever); answers which fds
/// are readable (or hung up, or in error: a read then tells what happened).
///
/// ppoll() takes nanoseconds, so a frame deadline is met to the microsecond instead of
/// being rounded up to the next millisecond. EBADF and EINVAL mean the caller passed a
/// descriptor it does not own or a broken set: a programming error, not a condition to
/// spin on (swift-nio's rule, STYLE 2.4).
public func pollReadable(_ fds: [Int32], timeoutNS: UInt64?) -> [Bool] {
  var pfds = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
  let r = pfds.withUnsafeMutableBufferPointer { buf -> Result<Int32, Errno> in
    guard let timeoutNS else { return valueOrErrno { gv_ppoll(buf.baseAddress, nfds_t(buf.count), nil) } }
    var ts = timespec(tv_sec: Int(timeoutNS / 1_000_000_000), tv_nsec: Int(timeoutNS % 1_000_000_000))
    return valueOrErrno { gv_ppoll(buf.baseAddress, nfds_t(buf.count), &ts) }
  }
  switch r {
  case .success: break
  case .failure(let e):
    precondition(e != .badDescriptor && e != .invalidArgument, "poll(\(fds)): \(e)")
    return fds.map { _ in false }  // ENOMEM: the caller's loop simply polls again
  }
  for p in pfds {
    precondition(p.revents & Int16(POLLNVAL) == 0, "poll: descriptor \(p.fd) is not open")
  }
  return pfds.map { $0.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 }
}
