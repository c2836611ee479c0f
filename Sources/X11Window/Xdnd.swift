import CX11

/// A top-level window as an XDND drop target, protocol version 5
/// (freedesktop.org's XDND specification): `XdndAware` = 5; XdndEnter (up to three types
/// in the message, more in the source's `XdndTypeList`), XdndPosition answered by
/// XdndStatus (accepting with XdndActionCopy when one of `acceptedTypes` is offered),
/// XdndLeave, and XdndDrop: the `XdndSelection` is converted with the drop's timestamp
/// and, once its data is read (or the owner failed), XdndFinished tells the source.
public final class XdndTarget: RawEventHandler {
  /// What was dropped.
  public struct Drop: Sendable, Equatable {
    /// The type it came in (one of `acceptedTypes`).
    public var type: String
    /// The data (a `text/uri-list`, a path, …).
    public var bytes: [UInt8]
  }

  /// The protocol version spoken.
  public static let version = 5

  private let connection: X11Connection
  private let window: Window
  private let acceptedTypes: [String]
  private let requestor: SelectionRequestor
  private let maxBytes: Int
  private let timeoutNS: UInt64

  private struct Session {
    var source: Window
    var version: Int
    var types: [String]
    var chosen: String?
    var dropped = false
  }
  private var session: Session?
  /// The source waiting for XdndFinished while its data is read.
  private var finishing: (source: Window, type: String)?
  private var drops: [Result<Drop, SelectionRequestor.Failure>] = []

  /// Makes `window` a drop target for `acceptedTypes` (most preferred first), reading
  /// at most `maxBytes` of a drop, each step within `timeoutNS` on the clock `now`.
  public init(
    window: TopLevelWindow, acceptedTypes: [String], maxBytes: Int = 1 << 20, timeoutNS: UInt64 = 2_000_000_000,
    now: @escaping () -> UInt64
  ) {
    connection = window.connection
    self.window = window.id.rawValue
    self.acceptedTypes = acceptedTypes
    self.maxBytes = maxBytes
    self.timeoutNS = timeoutNS
    requestor = SelectionRequestor(window: window, property: "_GIFVIEW_XDND", now: now)
    connection.writeProperty(self.window, connection.atom(.xdndAware), type: Atom(XA_ATOM), longs: [UInt(Self.version)])
    connection.addRawEventHandler(self)
  }

  /// A deadline of the drop being read.
  public var nextDeadlineNS: UInt64? { requestor.nextDeadlineNS }

  /// Drops whose data arrived (or could not be read) since the last call, in order.
  public func takeDrops() -> [Result<Drop, SelectionRequestor.Failure>] {
    if let f = finishing, let r = requestor.takeResult() {
      finishing = nil
      switch r {
      case .success(let received):
        sendFinished(to: f.source, success: true)
        drops.append(.success(Drop(type: received.target, bytes: received.bytes)))
      case .failure(let failure):
        sendFinished(to: f.source, success: false)
        drops.append(.failure(failure))
      }
    }
    defer { drops = [] }
    return drops
  }

  func handleRaw(_ e: inout XEvent) -> Bool {
    guard e.type == ClientMessage, e.xclient.window == window, e.xclient.format == 32 else { return false }
    let c = connection
    let type = e.xclient.message_type
    let l = e.xclient.data.l
    let source = Window(UInt(bitPattern: l.0))
    switch type {
    case c.atom(.xdndEnter):
      let version = Int((UInt(bitPattern: l.1) >> 24) & 0xFF)
      // A newer protocol than ours: the source is ignored (it should not have sent it).
      guard version <= Self.version else {
        session = nil
        return true
      }
      var atoms: [UInt] = []
      if l.1 & 1 != 0 {
        atoms = c.readProperty(source, c.atom(.xdndTypeList), delete: false, maxBytes: 16 * 1024)?.longs ?? []
      } else {
        atoms = [l.2, l.3, l.4].map { UInt(bitPattern: $0) }.filter { $0 != 0 }
      }
      let types = atoms.compactMap { c.name(of: Atom($0)) }
      session = Session(
        source: source, version: version, types: types,
        chosen: preferredTarget(offered: types, preferences: acceptedTypes))
    case c.atom(.xdndPosition):
      guard let s = session, s.source == source else { return true }
      let accept = s.chosen != nil
      // Accept anywhere in the window (an empty rectangle: send every move).
      c.sendClientMessage(
        to: source, type: c.atom(.xdndStatus),
        (Int(bitPattern: window), accept ? 1 : 0, 0, 0, accept ? Int(c.atom(.xdndActionCopy)) : 0))
      XFlush(c.display)
    case c.atom(.xdndLeave):
      if session?.source == source { session = nil }
    case c.atom(.xdndDrop):
      guard let s = session, s.source == source else {
        sendFinished(to: source, success: false)
        return true
      }
      session = nil
      guard let chosen = s.chosen else {
        sendFinished(to: source, success: false)
        return true
      }
      let time = s.version >= 1 ? UInt(bitPattern: l.2) : nil
      if let f = finishing { sendFinished(to: f.source, success: false) }
      finishing = (source, chosen)
      requestor.request(
        selection: "XdndSelection", preferences: [chosen], time: time == 0 ? nil : time, maxBytes: maxBytes,
        timeoutNS: timeoutNS)
    default:
      return false
    }
    return true
  }

  private func sendFinished(to source: Window, success: Bool) {
    let c = connection
    _ = c.catchingErrors {
      c.sendClientMessage(
        to: source, type: c.atom(.xdndFinished),
        (Int(bitPattern: window), success ? 1 : 0, success ? Int(c.atom(.xdndActionCopy)) : 0, 0, 0))
      return true
    }
  }
}
