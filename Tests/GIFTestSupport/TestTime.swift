import Foundation

/// How much slower than the normal test build the code under test runs:
/// `GIFVIEW_TIME_SCALE` (`make test-sanitize` sets 4: a sanitized debug build against the
/// optimised one `make test` uses), else 1. Every wait, timeout and deadline in the tests
/// goes through it (`scaled`, `pause`, `eventually`, `RunningProcess.wait`), so a slow
/// build gets the time it needs; at 1 nothing changes.
public let testTimeScale: Double = {
  guard let text = ProcessInfo.processInfo.environment["GIFVIEW_TIME_SCALE"], let v = Double(text), v >= 1
  else { return 1 }
  return v
}()

/// The sanitizer the code under test is built with (`GIFVIEW_SANITIZER`: `address` or
/// `thread`, set by `make test-sanitize`), else nil.
public let testSanitizer: String? = {
  guard let text = ProcessInfo.processInfo.environment["GIFVIEW_SANITIZER"], !text.isEmpty else { return nil }
  return text
}()

/// `seconds` of waiting, scaled by `testTimeScale`.
public func scaled(_ seconds: Double) -> Double { seconds * testTimeScale }

/// `milliseconds` of waiting, scaled by `testTimeScale`.
public func scaledMS(_ milliseconds: Int) -> Int { Int(Double(milliseconds) * testTimeScale) }

/// Sleeps `seconds` scaled by `testTimeScale`: time for the code under test to get past
/// a point (a turn of its loop, a frame's deadline) before the test looks.
public func pause(_ seconds: Double) {
  var left = scaled(seconds)
  // usleep takes under 2^32 µs; loop for longer pauses.
  while left > 0 {
    let step = min(left, 1000)
    usleep(UInt32(step * 1_000_000))
    left -= step
  }
}

/// True, after printing `SKIPPED (sanitizer): WHAT`, when a sanitizer is on: for checks
/// that measure speed or timing precision, which a sanitizer's slowdown makes meaningless
/// (scaling their tolerance would make them unable to fail). The normal run checks them.
public func skippedUnderSanitizer(_ what: String) -> Bool {
  guard let testSanitizer else { return false }
  print("SKIPPED (sanitizer): \(what) (GIFVIEW_SANITIZER=\(testSanitizer))")
  return true
}
