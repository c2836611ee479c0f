import CX11
import Glibc

/// Owning a selection (ICCCM §2.2–2.7) for a window, `CLIPBOARD` by default: the data
/// is offered by target name and made on the first request for it. Answers `TARGETS`,
/// `TIMESTAMP` and `MULTIPLE` itself; data larger than one chunk goes by INCR; an unknown
/// target, or a request from before ownership began, is refused (property None).
/// Requests are events: they are answered from the connection's event loop. Data that
/// takes long to make (a PNG of a large frame) can be made elsewhere: a request for a
/// target offered as pending waits, unanswered, until `provide` brings its bytes.
public final class SelectionOwner: RawEventHandler {
  private let connection: X11Connection
  private let window: Window
  private let selection: Atom
  private var offers: [Atom: Offer] = [:]
  /// The order targets are listed in TARGETS.
  private var offerOrder: [Atom] = []
  private var ownedSince: Time = 0
  private var transfers: [Transfer] = []
  private let chunkSize: Int
  /// Still the owner (false after another client took the selection: SelectionClear).
  public private(set) var isOwner = false
  /// Chunks sent by INCR so far, over all transfers (for measurements and tests).
  public private(set) var incrementalChunksSent = 0

  /// A transfer that has not seen progress for this long is dropped.
  static let staleTransferNS: UInt64 = 30_000_000_000

  private final class Offer {
    let make: (() -> [UInt8]?)?
    var made: [UInt8]??
    init(_ make: (() -> [UInt8]?)?) { self.make = make }
    /// Made on a `provide` that has not come yet.
    var isPending: Bool { make == nil && made == nil }
    var data: [UInt8]? {
      if let made { return made }
      let d = make?()
      made = .some(d)
      return d
    }
  }
  /// Requests waiting for a pending target's bytes, answered in order on `provide`.
  private var waiting: [XSelectionRequestEvent] = []

  private struct Transfer {
    var requestor: Window
    var property: Atom
    var type: Atom
    var data: [UInt8]
    var chunks: IncrementalChunks
    var lastProgressNS: UInt64
  }

  /// An owner of `selection` for `window`; it owns nothing until `offer`.
  public init(window: TopLevelWindow, selection: String = "CLIPBOARD") {
    connection = window.connection
    self.window = window.id.rawValue
    self.selection = connection.atom(named: selection)
    chunkSize = SelectionLimits.chunkSize(maxRequestUnits: connection.maxRequestUnits)
    connection.addRawEventHandler(self)
  }

  /// Takes the selection, offering each of `targets` (a MIME type such as "image/png",
  /// or an atom name such as "UTF8_STRING") with the function that makes its bytes (nil:
  /// refuse). `time` is the user event's server time; nil takes the last input event's
  /// (ICCCM: never CurrentTime). Answers whether the server made this window the owner.
  @discardableResult
  public func offer(_ targets: [(name: String, make: () -> [UInt8]?)], time: UInt? = nil) -> Bool {
    take(targets.map { ($0.name, Optional($0.make)) }, time: time)
  }

  /// Takes the selection, offering `targets` whose bytes come later by `provide`; a
  /// request for one waits until then. Answers whether this window became the owner.
  @discardableResult
  public func offer(pending targets: [String], time: UInt? = nil) -> Bool {
    take(targets.map { ($0, nil) }, time: time)
  }

  /// The bytes of pending target `name` (nil: refuse it): waiting requests are answered.
  public func provide(_ name: String, _ data: [UInt8]?) {
    guard connection.isUsable, let offer = offers[connection.atom(named: name)], offer.isPending else { return }
    offer.made = .some(data)
    let ready = waiting.filter { !needsPending($0) }
    waiting.removeAll { !needsPending($0) }
    for r in ready { answer(r) }
  }

  private func take(_ targets: [(name: String, make: (() -> [UInt8]?)?)], time: UInt?) -> Bool {
    guard connection.isUsable else { return false }
    let d = connection.display
    let t = time.map { Time($0) } ?? connection.userTime(window: window)
    refuseWaiting()
    offers = [:]
    offerOrder = []
    for (name, make) in targets {
      let a = connection.atom(named: name)
      if offers[a] == nil { offerOrder.append(a) }
      offers[a] = Offer(make)
    }
    XSetSelectionOwner(d, selection, window, t)
    isOwner = XGetSelectionOwner(d, selection) == window
    ownedSince = t
    if !isOwner { offers = [:] }
    return isOwner
  }

  /// Gives the selection up (if still held).
  public func disown() {
    guard isOwner, connection.isUsable else { return }
    XSetSelectionOwner(connection.display, selection, 0, ownedSince)
    isOwner = false
    refuseWaiting()
    offers = [:]
  }

  /// A request names a target (or, by MULTIPLE, maybe one) whose bytes are still pending.
  private func needsPending(_ r: XSelectionRequestEvent) -> Bool {
    if r.target == connection.atom(.multiple) { return offers.values.contains { $0.isPending } }
    return offers[r.target]?.isPending ?? false
  }

  /// Waiting requests are answered now, with what there is (a pending target: refused).
  private func refuseWaiting() {
    for o in offers.values where o.isPending { o.made = .some(nil) }
    let all = waiting
    waiting = []
    for r in all { answer(r) }
  }

  /// Transfers in progress (INCR).
  public var activeTransfers: Int { transfers.count }

  func handleRaw(_ e: inout XEvent) -> Bool {
    switch e.type {
    case SelectionRequest:
      let r = e.xselectionrequest
      guard r.owner == window, r.selection == selection else { return false }
      if isOwner && needsPending(r) {
        waiting.append(r)
      } else {
        answer(r)
      }
      return true
    case SelectionClear:
      guard e.xselectionclear.window == window, e.xselectionclear.selection == selection else { return false }
      // Another client owns it now; INCR transfers already under way may finish.
      isOwner = false
      refuseWaiting()
      offers = [:]
      return true
    case PropertyNotify:
      let p = e.xproperty
      guard p.state == PropertyDelete,
        let i = transfers.firstIndex(where: { $0.requestor == p.window && $0.property == p.atom })
      else { return false }
      sendNextChunk(i)
      return true
    default:
      return false
    }
  }

  // MARK: - Answering a request

  private func answer(_ r: XSelectionRequestEvent) {
    dropStaleTransfers()
    // Obsolete clients name no property: the target's name is used instead (ICCCM §2.2).
    let property = r.property != 0 ? r.property : r.target
    var ok = false
    let beforeOwnership = r.time != Time(CurrentTime) && ownedSince != Time(CurrentTime) && r.time < ownedSince
    if isOwner && !beforeOwnership {
      ok = connection.catchingErrors {
        if r.target == connection.atom(.multiple) {
          return r.property != 0 && convertMultiple(requestor: r.requestor, property: r.property)
        }
        return convert(target: r.target, requestor: r.requestor, property: property)
      }
    }
    var n = XEvent()
    n.xselection.type = SelectionNotify
    n.xselection.display = connection.display
    n.xselection.requestor = r.requestor
    n.xselection.selection = r.selection
    n.xselection.target = r.target
    n.xselection.property = ok ? property : 0
    n.xselection.time = r.time
    _ = connection.catchingErrors {
      XSendEvent(connection.display, r.requestor, 0, NoEventMask, &n)
      return true
    }
  }

  /// Writes one target to the requestor's property; false: refused.
  private func convert(target: Atom, requestor: Window, property: Atom) -> Bool {
    let c = connection
    if target == c.atom(.targets) {
      let list = [c.atom(.targets), c.atom(.timestamp), c.atom(.multiple)] + offerOrder
      c.writeProperty(requestor, property, type: Atom(XA_ATOM), longs: list.map { UInt($0) })
      return true
    }
    if target == c.atom(.timestamp) {
      c.writeProperty(requestor, property, type: Atom(XA_INTEGER), longs: [UInt(ownedSince)])
      return true
    }
    guard let offer = offers[target], let data = offer.data else { return false }
    if SelectionLimits.needsIncremental(size: data.count, chunkSize: chunkSize) {
      // The requestor deletes the INCR property to ask for each chunk: listen for that
      // on its window (ours already reports it).
      if requestor != window { XSelectInput(c.display, requestor, PropertyChangeMask) }
      transfers.removeAll { $0.requestor == requestor && $0.property == property }
      transfers.append(
        Transfer(
          requestor: requestor, property: property, type: target, data: data,
          chunks: IncrementalChunks(total: data.count, chunkSize: chunkSize), lastProgressNS: monotonicNowNS()))
      c.writeProperty(requestor, property, type: c.atom(.incr), longs: [UInt(data.count)])
      return true
    }
    c.writeProperty(requestor, property, type: target, bytes: data[...])
    return true
  }

  /// MULTIPLE: the requestor's property holds (target, property) pairs; each is
  /// converted as a request of its own, and a refused one has its property replaced by
  /// None in the pairs written back (ICCCM §2.6.2).
  private func convertMultiple(requestor: Window, property: Atom) -> Bool {
    let c = connection
    guard let pairs = c.readProperty(requestor, property, delete: false, maxBytes: 64 * 1024),
      pairs.format == 32, pairs.longs.count % 2 == 0, !pairs.longs.isEmpty
    else { return false }
    var answered = pairs.longs
    for i in stride(from: 0, to: answered.count, by: 2) {
      let (target, p) = (Atom(answered[i]), Atom(answered[i + 1]))
      let ok = p != 0 && target != c.atom(.multiple) && convert(target: target, requestor: requestor, property: p)
      if !ok { answered[i + 1] = 0 }
    }
    c.writeProperty(requestor, property, type: c.atom(.atomPair), longs: answered)
    return true
  }

  /// The requestor deleted the last piece: the next chunk, or the empty one that ends it.
  private func sendNextChunk(_ i: Int) {
    guard let range = transfers[i].chunks.next() else {
      transfers.remove(at: i)
      return
    }
    let t = transfers[i]
    let ok = connection.catchingErrors {
      connection.writeProperty(t.requestor, t.property, type: t.type, bytes: t.data[range])
      return true
    }
    incrementalChunksSent += 1
    transfers[i].lastProgressNS = monotonicNowNS()
    if range.isEmpty || !ok { finishTransfer(i) }
  }

  private func finishTransfer(_ i: Int) {
    let requestor = transfers.remove(at: i).requestor
    if requestor != window && !transfers.contains(where: { $0.requestor == requestor }) {
      _ = connection.catchingErrors {
        XSelectInput(connection.display, requestor, NoEventMask)
        return true
      }
    }
  }

  /// A requestor that stopped asking (gone, or given up) does not keep its data here.
  private func dropStaleTransfers() {
    let now = monotonicNowNS()
    while let i = transfers.firstIndex(where: { now - $0.lastProgressNS > Self.staleTransferNS }) {
      finishTransfer(i)
    }
  }
}

/// CLOCK_MONOTONIC in nanoseconds, for the library's own bookkeeping.
func monotonicNowNS() -> UInt64 {
  var t = timespec()
  clock_gettime(CLOCK_MONOTONIC, &t)
  return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}
