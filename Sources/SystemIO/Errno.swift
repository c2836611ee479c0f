import Glibc

/// A C `errno` value (STYLE 2.2): a struct, so unknown codes still round-trip.
public struct Errno: Error, CustomStringConvertible, Equatable, Sendable {
  /// The raw `errno` code.
  public var code: Int32

  /// Wraps a raw code.
  public init(code: Int32) { self.code = code }

  /// The calling thread's `errno` now.
  public static var current: Errno { Errno(code: errno) }

  /// `strerror` text, e.g. "No such file or directory".
  public var description: String { String(cString: strerror(code)) }

  /// EINTR: a signal arrived; the call is retried.
  public static let interrupted = Errno(code: EINTR)
  /// EAGAIN: a non-blocking descriptor has nothing to give now.
  public static let wouldBlock = Errno(code: EAGAIN)
  /// EBADF: not an open descriptor (a bug when it is our own).
  public static let badDescriptor = Errno(code: EBADF)
  /// EINVAL: an argument the call refuses (a bug for our own poll sets).
  public static let invalidArgument = Errno(code: EINVAL)
}

/// Runs `body` until it does not fail with EINTR; -1 becomes `Errno.current`.
@inline(__always)
public func valueOrErrno<T: FixedWidthInteger>(_ body: () -> T) -> Result<T, Errno> {
  while true {
    let r = body()
    if r != -1 { return .success(r) }
    if errno != EINTR { return .failure(.current) }
  }
}
