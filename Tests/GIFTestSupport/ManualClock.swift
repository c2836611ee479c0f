import Synchronization

/// A clock tests move by hand (NIO's EmbeddedEventLoop idea): never sleeps.
public final class ManualClock: Sendable {
  private let now = Atomic<UInt64>(1_000_000_000)
  public init(startNS: UInt64 = 1_000_000_000) { now.store(startNS, ordering: .relaxed) }
  public var nowNS: UInt64 { now.load(ordering: .relaxed) }
  public func advance(byMS ms: UInt64) { now.add(ms * 1_000_000, ordering: .relaxed) }
  public func advance(byNS ns: UInt64) { now.add(ns, ordering: .relaxed) }
}
