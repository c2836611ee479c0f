import CX11

/// A key as gifview's bindings see it: the text it types, or a named special key.
public enum Key: Hashable, Sendable {
  /// A key that types text ("q", "+", " ").
  case text(String)
  /// A named key.
  case left, right, up, down, home, end, backspace, escape, pageUp, pageDown, enter
  /// Anything else.
  case other
}

/// Input and window events, translated from XEvent.
public enum WindowEvent: Sendable, Equatable {
  /// Part of the window must be drawn again (the last of a series).
  case expose
  /// The window's size or position changed.
  case configured(width: Int, height: Int)
  /// A key was pressed.
  case key(Key)
  /// Mouse button 1–5 (4/5: wheel up/down) pressed at a window position.
  case button(Int, x: Int, y: Int)
  /// A mouse button released at a window position.
  case buttonReleased(Int, x: Int, y: Int)
  /// The pointer moved with button 1 held (a drag), to a window position.
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
    return translate(&e).map { (XWindowID(rawValue: e.xany.window), $0) }
  }

  private func translate(_ e: inout XEvent) -> WindowEvent? {
    switch e.type {
    case Expose: return e.xexpose.count == 0 ? .expose : nil
    case ConfigureNotify: return .configured(width: Int(e.xconfigure.width), height: Int(e.xconfigure.height))
    case KeyPress: return .key(Key(event: &e.xkey))
    case ButtonPress: return .button(Int(e.xbutton.button), x: Int(e.xbutton.x), y: Int(e.xbutton.y))
    case ButtonRelease: return .buttonReleased(Int(e.xbutton.button), x: Int(e.xbutton.x), y: Int(e.xbutton.y))
    case MotionNotify: return .dragged(x: Int(e.xmotion.x), y: Int(e.xmotion.y))
    case ClientMessage:
      guard e.xclient.message_type == atom(.wmProtocols), Atom(e.xclient.data.l.0) == atom(.wmDeleteWindow)
      else { return nil }
      return .closeRequested
    case MapNotify: return .mapped
    default: return nil
    }
  }
}

extension Key {
  init(event: inout XKeyEvent) {
    var buf = [CChar](repeating: 0, count: 16)
    var sym: KeySym = 0
    let n = XLookupString(&event, &buf, Int32(buf.count - 1), &sym, nil)
    switch Int32(sym) {
    case XK_Left, XK_KP_Left: self = .left
    case XK_Right, XK_KP_Right: self = .right
    case XK_Up, XK_KP_Up: self = .up
    case XK_Down, XK_KP_Down: self = .down
    case XK_Home, XK_KP_Home: self = .home
    case XK_End, XK_KP_End: self = .end
    case XK_Prior: self = .pageUp
    case XK_Next: self = .pageDown
    case XK_BackSpace: self = .backspace
    case XK_Escape: self = .escape
    case XK_Return, XK_KP_Enter: self = .enter
    case XK_KP_Add: self = .text("+")
    case XK_KP_Subtract: self = .text("-")
    default:
      if n > 0 {
        self = .text(String(decoding: buf[0..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self))
      } else {
        self = .other
      }
    }
  }
}
