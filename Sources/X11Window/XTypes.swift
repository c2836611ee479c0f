import CX11
import Glibc

/// An X window ID: distinct from pixmaps and atoms, so one cannot go where another
/// belongs (STYLE 2.2).
public struct XWindowID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The XID.
  public var rawValue: UInt
  /// Wraps an XID (e.g. one a plain-Xlib host created).
  public init(rawValue: UInt) { self.rawValue = rawValue }
  /// `0x…`, as xwininfo prints it.
  public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// A server-side pixmap.
struct XPixmapID: RawRepresentable, Hashable {
  var rawValue: UInt
}

/// An interned atom.
struct XAtom: RawRepresentable, Hashable {
  var rawValue: Atom
}

/// The atoms gifview uses, interned together in one round trip (STYLE 3.4).
enum AtomName: String, CaseIterable {
  case wmProtocols = "WM_PROTOCOLS"
  case wmDeleteWindow = "WM_DELETE_WINDOW"
  case wmName = "WM_NAME"
  case wmIconName = "WM_ICON_NAME"
  case utf8String = "UTF8_STRING"
  case netWMName = "_NET_WM_NAME"
  case netWMIconName = "_NET_WM_ICON_NAME"
  case netWMPID = "_NET_WM_PID"
  case netWMIcon = "_NET_WM_ICON"
  case netWMState = "_NET_WM_STATE"
  case netWMStateFullscreen = "_NET_WM_STATE_FULLSCREEN"
  case netSupportingWMCheck = "_NET_SUPPORTING_WM_CHECK"
  // Selections (ICCCM §2).
  case clipboard = "CLIPBOARD"
  case targets = "TARGETS"
  case timestamp = "TIMESTAMP"
  case multiple = "MULTIPLE"
  case incr = "INCR"
  case atomPair = "ATOM_PAIR"
  /// The property a zero-length append touches to learn the server's time.
  case gifviewTime = "_GIFVIEW_TIME"
  // Drag and drop (XDND version 5).
  case xdndAware = "XdndAware"
  case xdndEnter = "XdndEnter"
  case xdndPosition = "XdndPosition"
  case xdndStatus = "XdndStatus"
  case xdndLeave = "XdndLeave"
  case xdndDrop = "XdndDrop"
  case xdndFinished = "XdndFinished"
  case xdndSelection = "XdndSelection"
  case xdndTypeList = "XdndTypeList"
  case xdndActionCopy = "XdndActionCopy"
}

/// The interned values of every `AtomName`.
struct Atoms {
  private let values: [Atom]

  init(display: OpaquePointer) {
    let all = AtomName.allCases
    var names = all.map { strdup($0.rawValue) }
    var values = [Atom](repeating: 0, count: names.count)
    XInternAtoms(display, &names, Int32(names.count), 0, &values)
    for n in names { free(n) }
    self.values = values
  }

  subscript(_ name: AtomName) -> Atom {
    // allCases order is the interned order.
    values[AtomName.allCases.firstIndex(of: name)!]
  }
}
