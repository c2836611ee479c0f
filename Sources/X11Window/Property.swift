import CX11

/// A window property as XGetWindowProperty answers it.
struct PropertyValue {
  /// The property's type (None: the property does not exist).
  var type: Atom
  /// 8, 16 or 32.
  var format: Int32
  /// The items of an 8-bit property.
  var bytes: [UInt8]
  /// The items of a 32-bit property (Xlib hands them over as C longs).
  var longs: [UInt]
  /// Bytes left unread past what was asked for.
  var bytesAfter: Int
}

extension X11Connection {
  /// Reads up to `maxBytes` of `property` on `window`, deleting it when `delete` and it
  /// was read whole (the INCR handshake); nil when the request failed.
  func readProperty(_ window: Window, _ property: Atom, delete: Bool, maxBytes: Int) -> PropertyValue? {
    guard isUsable else { return nil }
    var type: Atom = 0
    var format: Int32 = 0
    var count: UInt = 0
    var after: UInt = 0
    var data: UnsafeMutablePointer<UInt8>?
    let units = (max(maxBytes, 0) + 3) / 4
    let r = XGetWindowProperty(
      display, window, property, 0, units, delete ? 1 : 0, 0, &type, &format, &count, &after, &data)
    guard r == Success else { return nil }
    defer { if let data { XFree(data) } }
    var value = PropertyValue(type: type, format: format, bytes: [], longs: [], bytesAfter: Int(after))
    guard let data, count > 0 else { return value }
    switch format {
    case 8: value.bytes = Array(UnsafeBufferPointer(start: data, count: Int(count)))
    case 32:
      let longs = UnsafeRawPointer(data).assumingMemoryBound(to: UInt.self)
      value.longs = Array(UnsafeBufferPointer(start: longs, count: Int(count)))
    default: break
    }
    return value
  }

  /// Replaces `property` on `window` with 8-bit items.
  func writeProperty(_ window: Window, _ property: Atom, type: Atom, bytes: ArraySlice<UInt8>) {
    // Never a nil pointer, even for no items (the end of an INCR transfer).
    let items = bytes.isEmpty ? [0] : Array(bytes)
    _ = XChangeProperty(display, window, property, type, 8, PropModeReplace, items, Int32(bytes.count))
  }

  /// Replaces `property` on `window` with 32-bit items (atoms, times, sizes).
  func writeProperty(_ window: Window, _ property: Atom, type: Atom, longs: [UInt]) {
    let items = longs.isEmpty ? [0] : longs
    items.withUnsafeBytes { b in
      _ = XChangeProperty(
        display, window, property, type, 32, PropModeReplace, b.baseAddress?.assumingMemoryBound(to: UInt8.self),
        Int32(longs.count))
    }
  }

  /// The server's largest request in 4-byte units (BIG-REQUESTS' when it has them).
  var maxRequestUnits: Int {
    let extended = XExtendedMaxRequestSize(display)
    return Int(extended > 0 ? extended : XMaxRequestSize(display))
  }

  /// Sends a ClientMessage of format 32 to `window` (XDND's messages).
  func sendClientMessage(to window: Window, type: Atom, _ l: (Int, Int, Int, Int, Int)) {
    var e = XEvent()
    e.xclient.type = ClientMessage
    e.xclient.display = display
    e.xclient.window = window
    e.xclient.message_type = type
    e.xclient.format = 32
    e.xclient.data.l = l
    XSendEvent(display, window, 0, NoEventMask, &e)
  }
}
