import CX11

/// Asking another client for a selection's contents (ICCCM §2.4): TARGETS first, then
/// the most preferred target offered (or, when TARGETS is refused, each preference in
/// turn), reading INCR transfers chunk by chunk. A state machine driven by events from
/// the connection's loop: it never blocks. Each step has a deadline (`nextDeadlineNS`,
/// on the clock given at creation); an owner that does not answer in time ends the
/// request as `.timedOut`. One request at a time: a new one replaces the last.
public final class SelectionRequestor: RawEventHandler {
  /// What came back.
  public struct Received: Sendable, Equatable {
    /// The target the data is in ("text/uri-list", "UTF8_STRING", …).
    public var target: String
    /// The data.
    public var bytes: [UInt8]
    /// It came by INCR, in `chunks` pieces.
    public var incremental: Bool
    /// Pieces read (1 without INCR).
    public var chunks: Int
  }

  /// Why nothing came back; `description` fits a one-line message.
  public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
    /// No client owns the selection.
    case noOwner
    /// The owner offers none of the targets asked for (`offered`: what it has, when it said).
    case refused(offered: [String])
    /// The owner did not answer within the time allowed.
    case timedOut(seconds: Double)
    /// The data is larger than the limit.
    case tooLarge(limit: Int)
    /// The connection cannot make requests any more.
    case connectionUnusable

    /// The reason, e.g. "the owner did not answer within 2 s".
    public var description: String {
      switch self {
      case .noOwner: "it is empty"
      case .refused(let offered) where offered.isEmpty: "it holds nothing of a usable type"
      case .refused(let offered): "it holds nothing of a usable type (it offers \(offered.joined(separator: ", ")))"
      case .timedOut(let s):
        "its owner did not answer within \(s == s.rounded() ? String(Int(s)) : String(s)) s"
      case .tooLarge(let limit): "its data is larger than \(limit) bytes"
      case .connectionUnusable: "the X connection is closed"
      }
    }
  }

  private let connection: X11Connection
  private let window: Window
  private let property: Atom
  private let now: () -> UInt64

  private enum Step {
    case targets
    case converting(Atom)
    case incremental(Atom, [UInt8], chunks: Int)
  }

  private struct Pending {
    var selection: Atom
    var time: Time
    var maxBytes: Int
    var timeoutNS: UInt64
    var deadline: UInt64
    var step: Step
    /// Targets still to try, most preferred first.
    var remaining: [String]
    var offered: [String] = []
  }

  private var pending: Pending?
  private var result: Result<Received, Failure>?

  /// A requestor for `window`, receiving into its property `property` (one property
  /// per requestor, so requestors of one window do not meet); `now` is the clock that
  /// deadlines are on.
  public init(window: TopLevelWindow, property: String, now: @escaping () -> UInt64) {
    connection = window.connection
    self.window = window.id.rawValue
    self.property = connection.atom(named: property)
    self.now = now
    connection.addRawEventHandler(self)
  }

  /// Asks for `selection` in the first of `preferences` its owner offers. `time`: the
  /// triggering event's server time (nil: the last input event's; ICCCM §2.4). At most
  /// `maxBytes` are taken; each step may take `timeoutNS`.
  public func request(
    selection: String, preferences: [String], time: UInt? = nil, maxBytes: Int, timeoutNS: UInt64
  ) {
    result = nil
    pending = nil
    guard connection.isUsable else {
      result = .failure(.connectionUnusable)
      return
    }
    let sel = connection.atom(named: selection)
    guard XGetSelectionOwner(connection.display, sel) != 0 else {
      result = .failure(.noOwner)
      return
    }
    let t = time.map { Time($0) } ?? connection.userTime(window: window)
    pending = Pending(
      selection: sel, time: t, maxBytes: maxBytes, timeoutNS: timeoutNS, deadline: now() + timeoutNS, step: .targets,
      remaining: preferences)
    XDeleteProperty(connection.display, window, property)
    XConvertSelection(connection.display, sel, connection.atom(.targets), property, window, t)
    XFlush(connection.display)
  }

  /// A request is under way.
  public var isBusy: Bool { pending != nil }

  /// When the step under way times out.
  public var nextDeadlineNS: UInt64? { pending?.deadline }

  /// The outcome of the last request once it is known (once: it is then forgotten);
  /// a request past its deadline ends here as `.timedOut`.
  public func takeResult() -> Result<Received, Failure>? {
    if let p = pending, now() >= p.deadline {
      finish(.failure(.timedOut(seconds: Double(p.timeoutNS) / 1e9)))
    }
    defer { result = nil }
    return result
  }

  func handleRaw(_ e: inout XEvent) -> Bool {
    guard var p = pending else { return false }
    switch e.type {
    case SelectionNotify:
      let s = e.xselection
      guard s.requestor == window, s.selection == p.selection, s.property == property || s.property == 0 else {
        return false
      }
      switch p.step {
      case .targets where s.target == connection.atom(.targets):
        if s.property != 0, let list = connection.readProperty(window, property, delete: true, maxBytes: 64 * 1024) {
          p.offered = list.longs.compactMap { connection.name(of: Atom($0)) }
          p.remaining = p.remaining.filter(p.offered.contains)
        }
        pending = p
        askNext()
      case .converting(let target) where s.target == target:
        guard s.property != 0 else {
          askNext()
          return true
        }
        receive(target: target)
      default:
        return false
      }
      return true
    case PropertyNotify:
      let n = e.xproperty
      guard n.window == window, n.atom == property, n.state == PropertyNewValue,
        case .incremental(let target, var bytes, let chunks) = p.step
      else { return false }
      guard let chunk = connection.readProperty(window, property, delete: true, maxBytes: p.maxBytes - bytes.count + 1)
      else {
        finish(.failure(.connectionUnusable))
        return true
      }
      if chunk.bytes.isEmpty && chunk.bytesAfter == 0 {
        finish(
          .success(Received(target: connection.name(of: target) ?? "", bytes: bytes, incremental: true, chunks: chunks))
        )
        return true
      }
      bytes += chunk.bytes
      guard bytes.count <= p.maxBytes, chunk.bytesAfter == 0 else {
        finish(.failure(.tooLarge(limit: p.maxBytes)))
        return true
      }
      p.step = .incremental(target, bytes, chunks: chunks + 1)
      p.deadline = now() + p.timeoutNS
      pending = p
      return true
    default:
      return false
    }
  }

  /// Asks for the next target still to try, or gives up.
  private func askNext() {
    guard var p = pending else { return }
    guard !p.remaining.isEmpty else {
      finish(.failure(.refused(offered: p.offered.filter { !["TARGETS", "TIMESTAMP", "MULTIPLE"].contains($0) })))
      return
    }
    let target = connection.atom(named: p.remaining.removeFirst())
    p.step = .converting(target)
    p.deadline = now() + p.timeoutNS
    pending = p
    XConvertSelection(connection.display, p.selection, target, property, window, p.time)
    XFlush(connection.display)
  }

  /// The owner wrote the property: the data, or INCR's announcement.
  private func receive(target: Atom) {
    guard var p = pending else { return }
    guard let value = connection.readProperty(window, property, delete: true, maxBytes: p.maxBytes + 1) else {
      finish(.failure(.connectionUnusable))
      return
    }
    if value.type == connection.atom(.incr) {
      // Deleting the INCR property (done by the read) asks for the first chunk. Its
      // value is a lower bound of the size.
      if let size = value.longs.first, Int(size) > p.maxBytes {
        finish(.failure(.tooLarge(limit: p.maxBytes)))
        return
      }
      p.step = .incremental(target, [], chunks: 0)
      p.deadline = now() + p.timeoutNS
      pending = p
      return
    }
    guard value.bytesAfter == 0, value.bytes.count <= p.maxBytes else {
      XDeleteProperty(connection.display, window, property)
      finish(.failure(.tooLarge(limit: p.maxBytes)))
      return
    }
    let bytes = value.format == 8 ? value.bytes : []
    finish(.success(Received(target: connection.name(of: target) ?? "", bytes: bytes, incremental: false, chunks: 1)))
  }

  private func finish(_ r: Result<Received, Failure>) {
    if case .incremental = pending?.step, case .failure = r, connection.isUsable {
      XDeleteProperty(connection.display, window, property)
    }
    pending = nil
    result = r
  }
}
