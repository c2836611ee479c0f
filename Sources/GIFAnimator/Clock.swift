/// Monotonic time in integer nanoseconds. Named so it does not shadow `Swift.Clock`;
/// the animator takes one so tests drive time exactly, without sleeping.
public protocol MonotonicClock: Sendable {
  var nowNS: UInt64 { get }
}

/// The real monotonic clock (CLOCK_MONOTONIC through `ContinuousClock`).
public struct SystemClock: MonotonicClock {
  private static let origin = ContinuousClock.now

  /// The process's monotonic clock.
  public init() {}

  /// Nanoseconds since an arbitrary start (at least 1 s, so deadlines never underflow).
  public var nowNS: UInt64 {
    let origin = Self.origin  // initialised first, so `d` is never negative
    let d = ContinuousClock.now - origin
    let (seconds, attoseconds) = d.components
    return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000) + 1_000_000_000
  }
}
