import GIFAnimator
import GIFPlayback
import SystemIO
import X11Window

/// A small run loop for hosts that have none: one thread owns the X connection; it
/// drains X events and the playbacks' wake-ups, updates every view, then sleeps in
/// poll() until the next deadline (DESIGN §1). Idle means no wake-ups at all.
public final class GIFViewRunLoop {
  /// The connection the views draw on.
  public let connection: X11Connection
  /// The signal the views' playbacks share.
  public let wakeUp: WakeUpSignal
  /// The views updated each turn.
  public var views: [GIFView] = []
  private let clock: any MonotonicClock

  /// A loop on `connection`; give the views' playbacks `wakeUp`.
  public init(connection: X11Connection, wakeUp: WakeUpSignal, clock: any MonotonicClock = SystemClock()) {
    self.connection = connection
    self.wakeUp = wakeUp
    self.clock = clock
  }

  /// Now on the loop's clock: the clock of the deadlines `afterUpdate` answers.
  public var nowNS: UInt64 { clock.nowNS }

  /// Runs until `handler` answers false. Events for a view's window go to the view;
  /// every other event goes to `handler` with its window. `afterUpdate` runs once a
  /// turn after the views drew, and may add a deadline of the host's own.
  /// Throws `X11Error.connectionLost` when the server goes away.
  public func run(
    _ handler: (XWindowID, WindowEvent) -> Bool, afterUpdate: () -> UInt64? = { nil }
  ) throws(X11Error) {
    var xReadable = true
    while true {
      if xReadable || connection.hasQueuedEvents {
        for (window, event) in connection.pendingEvents()
        where !views.contains(where: { $0.handle(event, for: window) }) {
          if !handler(window, event) { return }
        }
      }
      if connection.isLost { throw .connectionLost }
      let now = clock.nowNS
      for v in views { v.update(now: now) }
      let hostDeadline = afterUpdate()
      connection.flush()
      if connection.isLost { throw .connectionLost }
      if connection.hasQueuedEvents { continue }
      let due = (views.compactMap(\.nextDeadline) + (hostDeadline.map { [$0] } ?? [])).min()
      let timeout = due.map { d -> UInt64 in
        let now = clock.nowNS
        return d <= now ? 0 : d - now
      }
      let ready = pollReadable([connection.fileDescriptor, wakeUp.fileDescriptor], timeoutNS: timeout)
      if ready[1] { wakeUp.drain() }
      xReadable = ready[0]
    }
  }
}
