import CX11

/// A key as gifview's bindings see it: the text it types, or a named special key.
public enum Key: Hashable, Sendable {
  case text(String)
  case left, right, up, down, home, end, backspace, escape, pageUp, pageDown, enter, other
}

/// Input and window events, translated from XEvent.
public enum WindowEvent: Sendable, Equatable {
  case expose
  case resized(width: Int, height: Int)
  case key(Key)
  /// Mouse button 1–5 (4/5: wheel up/down) at a window position.
  case button(Int, x: Int, y: Int)
  case closeRequested
  case mapped
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
