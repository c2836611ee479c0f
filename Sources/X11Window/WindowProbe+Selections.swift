import CX11
import SystemIO

/// The probe as another client of the selections and of drag and drop: a requestor that
/// reads what a window offers, an owner that offers data to it, and a scripted XDND
/// source. Every call blocks (with a bound): test code, not an application's loop.
extension WindowProbe {
  /// A selection's answer as a requestor read it.
  public struct SelectionReply: Equatable {
    /// The owner refused the target (SelectionNotify with property None).
    public var refused: Bool
    /// The property's type name ("image/png", "ATOM", "INCR" never: that is followed).
    public var type: String
    /// 8-bit data.
    public var bytes: [UInt8]
    /// 32-bit data (atoms, times).
    public var longs: [UInt]
    /// It came by INCR.
    public var incremental: Bool
    /// Non-empty chunks read (1 without INCR).
    public var chunks: Int
    /// The size INCR announced (a lower bound of the whole), nil without INCR.
    public var announcedSize: Int?

    /// 32-bit items as atom names (a TARGETS answer).
    public func atomNames(_ probe: WindowProbe) -> [String] {
      longs.map { probe.connection.name(of: Atom($0)) ?? "?" }
    }
  }

  /// Waits up to `timeoutMS` for an event that `take` accepts; events it declines are dropped.
  private func waitForEvent(timeoutMS: Int, _ take: (inout XEvent) -> Bool) -> Bool {
    let d = connection.display
    let deadline = monotonicNowNS() + UInt64(timeoutMS) * 1_000_000
    while monotonicNowNS() < deadline {
      while XPending(d) > 0 {
        var e = XEvent()
        XNextEvent(d, &e)
        if take(&e) { return true }
      }
      _ = pollReadable([connection.fileDescriptor], timeoutNS: 5_000_000)
    }
    return false
  }

  /// Asks the owner of `selection` for `target` (time CurrentTime, as xclip does) and
  /// reads the answer, following INCR; nil when no answer came within `timeoutMS`.
  public func convertSelection(_ selection: String = "CLIPBOARD", target: String, timeoutMS: Int = 5000)
    -> SelectionReply?
  {
    let c = connection
    let w = helperWindow
    let property = c.atom(named: "PROBE_SELECTION")
    XDeleteProperty(c.display, w, property)
    XConvertSelection(c.display, c.atom(named: selection), c.atom(named: target), property, w, Time(CurrentTime))
    XFlush(c.display)
    let notified = selectionNotify(for: w, timeoutMS: timeoutMS)
    guard let n = notified else { return nil }
    guard n.property != 0 else {
      return SelectionReply(refused: true, type: "", bytes: [], longs: [], incremental: false, chunks: 0)
    }
    guard let first = c.readProperty(w, property, delete: true, maxBytes: 64 << 20) else { return nil }
    guard first.type == c.atom(.incr) else {
      return SelectionReply(
        refused: false, type: c.name(of: first.type) ?? "", bytes: first.bytes, longs: first.longs, incremental: false,
        chunks: 1)
    }
    var reply = SelectionReply(
      refused: false, type: "", bytes: [], longs: [], incremental: true, chunks: 0,
      announcedSize: first.longs.first.map { Int($0) })
    while true {
      var got = false
      _ = waitForEvent(timeoutMS: timeoutMS) { e in
        guard e.type == PropertyNotify, e.xproperty.window == w, e.xproperty.atom == property,
          e.xproperty.state == PropertyNewValue
        else { return false }
        got = true
        return true
      }
      guard got, let chunk = c.readProperty(w, property, delete: true, maxBytes: 64 << 20) else { return nil }
      if chunk.bytes.isEmpty { return reply }
      reply.type = c.name(of: chunk.type) ?? ""
      reply.bytes += chunk.bytes
      reply.chunks += 1
    }
  }

  /// MULTIPLE: asks for every target of `targets` in one request; answers, per target,
  /// its reply (nil: the owner replaced its property by None, refusing it), or nil for
  /// the whole when MULTIPLE itself was refused or not answered.
  public func convertMultiple(_ selection: String = "CLIPBOARD", targets: [String], timeoutMS: Int = 5000)
    -> [SelectionReply?]?
  {
    let c = connection
    let w = helperWindow
    let properties = targets.indices.map { c.atom(named: "PROBE_MULTIPLE_\($0)") }
    var pairs: [UInt] = []
    for (t, p) in zip(targets, properties) { pairs += [UInt(c.atom(named: t)), UInt(p)] }
    let list = c.atom(named: "PROBE_MULTIPLE")
    c.writeProperty(w, list, type: c.atom(.atomPair), longs: pairs)
    XConvertSelection(c.display, c.atom(named: selection), c.atom(.multiple), list, w, Time(CurrentTime))
    XFlush(c.display)
    let notified = selectionNotify(for: w, timeoutMS: timeoutMS)
    guard let n = notified, n.property != 0,
      let answered = c.readProperty(w, list, delete: true, maxBytes: 64 * 1024), answered.longs.count == pairs.count
    else { return nil }
    return targets.indices.map { i in
      guard answered.longs[2 * i + 1] != 0, let v = c.readProperty(w, properties[i], delete: true, maxBytes: 64 << 20)
      else { return nil }
      return SelectionReply(
        refused: false, type: c.name(of: v.type) ?? "", bytes: v.bytes, longs: v.longs, incremental: false, chunks: 1)
    }
  }

  /// Takes `selection` for the probe's window (then `serveSelection` answers requests).
  public func ownSelection(_ selection: String = "CLIPBOARD") {
    let c = connection
    XSetSelectionOwner(c.display, c.atom(named: selection), helperWindow, Time(CurrentTime))
    XFlush(c.display)
  }

  /// The window that owns `selection` now (0: none).
  public func selectionOwner(_ selection: String = "CLIPBOARD") -> UInt {
    UInt(XGetSelectionOwner(connection.display, connection.atom(named: selection)))
  }

  /// Answers requests for a selection the probe owns (`ownSelection`) until `done` is
  /// true or `timeoutMS` passed: TARGETS lists `offers`' keys; a target of `offers` gets
  /// its bytes, by INCR in `chunk`-byte pieces when it is longer than `chunk`; any
  /// other target is refused. Other events go to `other`. Answers the targets asked
  /// for, in order.
  @discardableResult
  public func serveSelection(
    offers: [String: [UInt8]], chunk: Int = 1 << 18, timeoutMS: Int = 5000, until done: () -> Bool = { false }
  ) -> [String] {
    serveSelection(offers: offers, chunk: chunk, timeoutMS: timeoutMS, other: { _ in }, until: done)
  }

  private func serveSelection(
    offers: [String: [UInt8]], chunk: Int, timeoutMS: Int, other: (inout XEvent) -> Void, until done: () -> Bool
  ) -> [String] {
    let c = connection
    let d = c.display
    var asked: [String] = []
    var incr: (requestor: Window, property: Atom, type: Atom, data: [UInt8], offset: Int)?
    let deadline = monotonicNowNS() + UInt64(timeoutMS) * 1_000_000
    while monotonicNowNS() < deadline && !done() {
      _ = waitForEvent(timeoutMS: 20) { e in
        if e.type == PropertyNotify, let t = incr, e.xproperty.window == t.requestor, e.xproperty.atom == t.property,
          e.xproperty.state == PropertyDelete
        {
          let end = min(t.offset + chunk, t.data.count)
          c.writeProperty(t.requestor, t.property, type: t.type, bytes: t.data[t.offset..<end])
          incr = t.offset == end ? nil : (t.requestor, t.property, t.type, t.data, end)
          XFlush(d)
          return false
        }
        guard e.type == SelectionRequest else {
          other(&e)
          return false
        }
        let r = e.xselectionrequest
        let target = c.name(of: r.target) ?? "?"
        asked.append(target)
        let property = r.property != 0 ? r.property : r.target
        var ok = true
        if target == "TARGETS" {
          let atoms = [c.atom(.targets)] + offers.keys.sorted().map { c.atom(named: $0) }
          c.writeProperty(r.requestor, property, type: Atom(XA_ATOM), longs: atoms.map(UInt.init))
        } else if let data = offers[target] {
          if data.count > chunk {
            XSelectInput(d, r.requestor, PropertyChangeMask)
            c.writeProperty(r.requestor, property, type: c.atom(.incr), longs: [UInt(data.count)])
            incr = (r.requestor, property, r.target, data, 0)
          } else {
            c.writeProperty(r.requestor, property, type: r.target, bytes: data[...])
          }
        } else {
          ok = false
        }
        var n = XEvent()
        n.xselection.type = SelectionNotify
        n.xselection.requestor = r.requestor
        n.xselection.selection = r.selection
        n.xselection.target = r.target
        n.xselection.property = ok ? property : 0
        n.xselection.time = r.time
        XSendEvent(d, r.requestor, 0, NoEventMask, &n)
        XFlush(d)
        return false
      }
    }
    return asked
  }

  /// What a scripted XDND drop saw.
  public struct DropReport: Equatable {
    /// The window's XdndAware version (nil: not a drop target).
    public var awareVersion: Int?
    /// XdndStatus said "accept" (nil: no XdndStatus came).
    public var accepted: Bool?
    /// The action XdndStatus named.
    public var statusAction: String?
    /// XdndFinished's success flag (nil: no XdndFinished came).
    public var success: Bool?
    /// The action XdndFinished named.
    public var finishedAction: String?
    /// The targets the window asked of the XdndSelection.
    public var asked: [String]
  }

  /// Drags `offers` (type → data; all offered, in `types` order) from the probe onto
  /// `w`, as a version-5 XDND source does: XdndEnter (the types inline, or in
  /// XdndTypeList when more than three), one XdndPosition at the window's centre, and,
  /// when accepted, XdndDrop, answering the XdndSelection requests until XdndFinished.
  /// Without acceptance it sends XdndLeave.
  public func drop(on w: UInt, types: [String], offers: [String: [UInt8]], timeoutMS: Int = 5000) -> DropReport {
    let c = connection
    let d = c.display
    let source = helperWindow
    var report = DropReport(asked: [])
    report.awareVersion = property(w, "XdndAware")?.longs.first
    guard report.awareVersion != nil else { return report }
    let typeAtoms = types.map { c.atom(named: $0) }
    if typeAtoms.count > 3 {
      c.writeProperty(source, c.atom(.xdndTypeList), type: Atom(XA_ATOM), longs: typeAtoms.map(UInt.init))
    }
    XSetSelectionOwner(d, c.atom(.xdndSelection), source, Time(CurrentTime))
    let inline = typeAtoms.count > 3 ? [] : typeAtoms
    func t(_ i: Int) -> Int { i < inline.count ? Int(inline[i]) : 0 }
    let src = Int(bitPattern: UInt(source))
    c.sendClientMessage(
      to: Window(w), type: c.atom(.xdndEnter), (src, 5 << 24 | (typeAtoms.count > 3 ? 1 : 0), t(0), t(1), t(2)))
    let (ox, oy) = position(w)
    let (sw, sh) = size(w)
    let time = Int(c.serverTime(window: source))
    c.sendClientMessage(
      to: Window(w), type: c.atom(.xdndPosition),
      (src, 0, (ox + sw / 2) << 16 | (oy + sh / 2), time, Int(c.atom(.xdndActionCopy))))
    XFlush(d)
    _ = waitForEvent(timeoutMS: timeoutMS) { e in
      guard e.type == ClientMessage, e.xclient.message_type == c.atom(.xdndStatus) else { return false }
      report.accepted = e.xclient.data.l.1 & 1 != 0
      report.statusAction = c.name(of: Atom(UInt(bitPattern: e.xclient.data.l.4)))
      return true
    }
    guard report.accepted == true else {
      c.sendClientMessage(to: Window(w), type: c.atom(.xdndLeave), (src, 0, 0, 0, 0))
      XFlush(d)
      return report
    }
    c.sendClientMessage(to: Window(w), type: c.atom(.xdndDrop), (src, 0, time, 0, 0))
    XFlush(d)
    final class Finished {
      var flag: Bool?
      var action: String?
    }
    let finished = Finished()
    report.asked = serveSelection(
      offers: offers, chunk: 1 << 18, timeoutMS: timeoutMS,
      other: { e in
        guard e.type == ClientMessage, e.xclient.message_type == c.atom(.xdndFinished) else { return }
        finished.flag = e.xclient.data.l.1 & 1 != 0
        finished.action = c.name(of: Atom(UInt(bitPattern: e.xclient.data.l.2)))
      }, until: { finished.flag != nil })
    report.success = finished.flag
    report.finishedAction = finished.action
    return report
  }

  /// The SelectionNotify that answers a request of `requestor`'s, or nil after `timeoutMS`.
  private func selectionNotify(for requestor: Window, timeoutMS: Int) -> XSelectionEvent? {
    var notified: XSelectionEvent?
    _ = waitForEvent(timeoutMS: timeoutMS) { e in
      guard e.type == SelectionNotify, e.xselection.requestor == requestor else { return false }
      notified = e.xselection
      return true
    }
    return notified
  }
}
