import CX11

/// A key as gifview's bindings see it: the character its Latin keysym stands for, or a
/// named special key. Found by keysym, not by typed text, so Caps Lock and a non-Latin
/// layout (the XKB group's Latin keysyms, as browsers and nsxiv use) change nothing.
public enum Key: Hashable, Sendable {
  /// A printable Latin key ("q", "+", " ").
  case text(String)
  /// A named key.
  case left, right, up, down, home, end, backspace, escape, pageUp, pageDown, enter
  /// Anything else.
  case other
}

/// Modifier keys held with a key or a click.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
  /// The modifier bits.
  public var rawValue: UInt8
  /// Wraps bits.
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  /// Shift.
  public static let shift = KeyModifiers(rawValue: 1)
  /// Control.
  public static let control = KeyModifiers(rawValue: 2)
  /// Alt (Mod1).
  public static let alt = KeyModifiers(rawValue: 4)
}

/// Input and window events, translated from XEvent.
public enum WindowEvent: Sendable, Equatable {
  /// Part of the window must be drawn again (the last of a series).
  case expose
  /// The window's size or position changed.
  case configured(width: Int, height: Int)
  /// A key was pressed with `modifiers` held.
  case key(Key, modifiers: KeyModifiers)
  /// Mouse button 1–5 (4/5: wheel up/down) pressed at a window position.
  case button(Int, x: Int, y: Int, modifiers: KeyModifiers)
  /// A mouse button was released.
  case buttonReleased(Int, x: Int, y: Int)
  /// The pointer moved with button 1 held.
  case dragged(x: Int, y: Int)
  /// The window manager asks to close the window (WM_DELETE_WINDOW).
  case closeRequested
  /// The window was mapped.
  case mapped
}

extension X11Connection {
  /// Every event queued now, without blocking, with the window it is for; consecutive
  /// configures (and drags) of one window are coalesced (nsxiv's rule).
  public func pendingEvents() -> [(window: XWindowID, event: WindowEvent)] {
    var events: [(window: XWindowID, event: WindowEvent)] = []
    while !isLost, XPending(display) > 0 {
      var e = XEvent()
      XNextEvent(display, &e)
      if dispatchRaw(&e) { continue }
      guard let translated = translate(&e) else { continue }
      let window = XWindowID(rawValue: e.xany.window)
      if let last = events.last, last.window == window {
        switch (last.event, translated) {
        case (.configured, .configured), (.dragged, .dragged): events.removeLast()
        default: break
        }
      }
      events.append((window, translated))
    }
    return events
  }

  /// One event as gifview sees it (nil: not one it uses). Hosts that read events
  /// themselves pass them on through this.
  public func translate(_ event: UnsafeRawPointer) -> (window: XWindowID, event: WindowEvent)? {
    var e = event.load(as: XEvent.self)
    if dispatchRaw(&e) { return nil }
    return translate(&e).map { (XWindowID(rawValue: e.xany.window), $0) }
  }

  private func translate(_ e: inout XEvent) -> WindowEvent? {
    switch e.type {
    case Expose: return e.xexpose.count == 0 ? .expose : nil
    case ConfigureNotify: return .configured(width: Int(e.xconfigure.width), height: Int(e.xconfigure.height))
    case KeyPress:
      if e.xkey.time != 0 { lastInputTime = e.xkey.time }
      return .key(key(for: e.xkey), modifiers: KeyModifiers(state: e.xkey.state))
    case ButtonPress:
      if e.xbutton.time != 0 { lastInputTime = e.xbutton.time }
      return .button(
        Int(e.xbutton.button), x: Int(e.xbutton.x), y: Int(e.xbutton.y), modifiers: KeyModifiers(state: e.xbutton.state)
      )
    case ButtonRelease: return .buttonReleased(Int(e.xbutton.button), x: Int(e.xbutton.x), y: Int(e.xbutton.y))
    case MotionNotify:
      // Only the newest position of a drag matters.
      var next = XEvent()
      while XCheckTypedWindowEvent(display, e.xmotion.window, MotionNotify, &next) != 0 { e = next }
      return .dragged(x: Int(e.xmotion.x), y: Int(e.xmotion.y))
    case ClientMessage:
      guard e.xclient.message_type == atom(.wmProtocols), Atom(e.xclient.data.l.0) == atom(.wmDeleteWindow)
      else { return nil }
      return .closeRequested
    case MapNotify: return .mapped
    default: return nil
    }
  }
}

extension KeyModifiers {
  init(state: UInt32) {
    var m = KeyModifiers()
    if state & UInt32(ShiftMask) != 0 { m.insert(.shift) }
    if state & UInt32(ControlMask) != 0 { m.insert(.control) }
    if state & UInt32(Mod1Mask) != 0 { m.insert(.alt) }
    self = m
  }
}

extension X11Connection {
  /// The key a press means: the keysym at the Shift level (Caps Lock ignored) in the
  /// event's XKB group, or, when that group's keysym is not Latin (a Cyrillic or Greek
  /// layout), in the first group that has a Latin one.
  func key(for event: XKeyEvent) -> Key {
    let code = UInt8(truncatingIfNeeded: event.keycode)
    let level: Int32 = event.state & UInt32(ShiftMask) != 0 ? 1 : 0
    let group = Int32((event.state >> 13) & 3)
    var sym = XkbKeycodeToKeysym(display, code, group, level)
    if !Key.isLatinOrFunction(sym) {
      for g in Int32(0)..<4 where g != group {
        let other = XkbKeycodeToKeysym(display, code, g, level)
        if Key.isLatinOrFunction(other) {
          sym = other
          break
        }
      }
    }
    // A level without its own keysym (a letter without Shift) falls back to level 0.
    if sym == 0 { sym = XkbKeycodeToKeysym(display, code, group, 0) }
    return Key(keysym: sym)
  }
}

extension Key {
  /// Latin-1 printable keysyms and the function keys (arrows, Escape, keypad).
  static func isLatinOrFunction(_ sym: KeySym) -> Bool {
    (0x20...0x7e).contains(sym) || (0xff00...0xffff).contains(sym)
  }

  init(keysym sym: KeySym) {
    switch Int32(sym) {
    case XK_Left, XK_KP_Left: self = .left
    case XK_Right, XK_KP_Right: self = .right
    case XK_Up, XK_KP_Up: self = .up
    case XK_Down, XK_KP_Down: self = .down
    case XK_Home, XK_KP_Home: self = .home
    case XK_End, XK_KP_End: self = .end
    case XK_Prior, XK_KP_Prior: self = .pageUp
    case XK_Next, XK_KP_Next: self = .pageDown
    case XK_BackSpace: self = .backspace
    case XK_Escape: self = .escape
    case XK_Return, XK_KP_Enter: self = .enter
    case XK_KP_Add: self = .text("+")
    case XK_KP_Subtract: self = .text("-")
    case XK_KP_0, XK_KP_Insert: self = .text("0")
    default:
      if (0x20...0x7e).contains(sym), let u = Unicode.Scalar(UInt32(sym)) {
        // Shift+q is "Q"; Caps Lock alone changes nothing (the level comes from Shift).
        self = .text(String(Character(u)))
      } else {
        self = .other
      }
    }
  }
}
