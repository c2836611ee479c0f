import GIFView
import X11Window

/// What a key or mouse action does.
enum Command: Equatable, Sendable {
  case togglePlay
  case step(Int)
  case first, last
  case faster, slower, normalSpeed
  case zoomIn, zoomOut, actualSize, fit
  /// Pan by a step (a fraction of the view) in x and y: -1, 0 or 1 each.
  case pan(x: Int, y: Int)
  case toggleFullscreen
  case toggleInfo
  case toggleHelp
  case toggleBackground
  case reload
  case saveFrame
  /// Ctrl+c: the shown frame to the CLIPBOARD.
  case copyFrame
  /// Ctrl+v: open the path or URL on the CLIPBOARD.
  case paste
  case nextSource, previousSource
  /// Grid ↔ single view.
  case toggleGrid
  /// A single view opened from the grid goes back to it.
  case backToGrid
  /// Grid: move the selection (a page also scrolls a page).
  case select(GridLayout.Move)
  /// Grid: open the selected tile in the single view.
  case openTile
  case quit
}

/// Where a key binding applies.
enum KeyContext: Sendable {
  case any
  /// The scrolling grid only (ahead of `any` rows there).
  case grid
  /// A single view opened from the grid only.
  case fromGrid
}

/// The key table (nsxiv's idea): `--help`, the man page's KEYS section (a test holds
/// them together) and the in-window help (`?`) read the same rows.
struct KeyBinding: Sendable {
  var keys: [Key]
  var command: Command
  var help: String
  /// Held with the keys (Shift is part of a printable key's character, so only named
  /// keys and Control are matched on it).
  var modifiers: KeyModifiers = []
  /// Where the row applies (everywhere, the grid, a view opened from the grid).
  var context = KeyContext.any

  /// "space", ". →", "Shift+←": the keys as `--help` and the `?` card spell them.
  var label: String {
    let prefix = (modifiers.contains(.control) ? "Ctrl+" : "") + (modifiers.contains(.shift) ? "Shift+" : "")
    return keys.map { prefix + $0.label }.joined(separator: " ")
  }

  func matches(_ key: Key, _ held: KeyModifiers) -> Bool {
    guard keys.contains(key) else { return false }
    var held = held.subtracting(.alt)
    if case .text = key { held.remove(.shift) }
    return held == modifiers
  }
}

let keyBindings: [KeyBinding] = [
  KeyBinding(keys: [.text(" ")], command: .togglePlay, help: "play/pause"),
  KeyBinding(keys: [.text("."), .right], command: .step(1), help: "next frame (pauses)"),
  KeyBinding(keys: [.text(","), .left], command: .step(-1), help: "previous frame (pauses)"),
  KeyBinding(keys: [.home], command: .first, help: "first frame"),
  KeyBinding(keys: [.end], command: .last, help: "last frame"),
  KeyBinding(keys: [.text("]")], command: .faster, help: "faster (×1.25)"),
  KeyBinding(keys: [.text("[")], command: .slower, help: "slower (÷1.25)"),
  KeyBinding(keys: [.backspace], command: .normalSpeed, help: "normal speed"),
  KeyBinding(keys: [.text("+"), .text("=")], command: .zoomIn, help: "zoom in"),
  KeyBinding(keys: [.text("-")], command: .zoomOut, help: "zoom out"),
  KeyBinding(keys: [.text("0")], command: .actualSize, help: "actual size"),
  KeyBinding(keys: [.text("w")], command: .fit, help: "fit to window"),
  KeyBinding(keys: [.text("h")], command: .pan(x: -1, y: 0), help: "pan left (zoomed)"),
  KeyBinding(keys: [.text("j")], command: .pan(x: 0, y: 1), help: "pan down (zoomed)"),
  KeyBinding(keys: [.text("k")], command: .pan(x: 0, y: -1), help: "pan up (zoomed)"),
  KeyBinding(keys: [.text("l")], command: .pan(x: 1, y: 0), help: "pan right (zoomed)"),
  KeyBinding(keys: [.left], command: .pan(x: -1, y: 0), help: "pan left (zoomed)", modifiers: .shift),
  KeyBinding(keys: [.down], command: .pan(x: 0, y: 1), help: "pan down (zoomed)", modifiers: .shift),
  KeyBinding(keys: [.up], command: .pan(x: 0, y: -1), help: "pan up (zoomed)", modifiers: .shift),
  KeyBinding(keys: [.right], command: .pan(x: 1, y: 0), help: "pan right (zoomed)", modifiers: .shift),
  KeyBinding(keys: [.text("f")], command: .toggleFullscreen, help: "fullscreen"),
  KeyBinding(keys: [.text("i")], command: .toggleInfo, help: "info overlay"),
  KeyBinding(keys: [.text("?")], command: .toggleHelp, help: "this key table"),
  KeyBinding(keys: [.text("b")], command: .toggleBackground, help: "checker/solid background"),
  KeyBinding(keys: [.text("r")], command: .reload, help: "reload / retry"),
  KeyBinding(keys: [.text("s")], command: .saveFrame, help: "save the shown (grid: selected) frame as PNG"),
  KeyBinding(keys: [.text("c")], command: .copyFrame, help: "copy the shown frame (clipboard)", modifiers: .control),
  KeyBinding(keys: [.text("v")], command: .paste, help: "open the path or URL on the clipboard", modifiers: .control),
  KeyBinding(keys: [.text("n"), .pageDown], command: .nextSource, help: "next source"),
  KeyBinding(keys: [.text("p"), .pageUp], command: .previousSource, help: "previous source"),
  KeyBinding(keys: [.text("g")], command: .toggleGrid, help: "grid / single view"),
  KeyBinding(keys: [.escape], command: .backToGrid, help: "back to the grid (from a tile)", context: .fromGrid),
  KeyBinding(keys: [.text("q"), .escape], command: .quit, help: "quit"),
  KeyBinding(keys: [.left], command: .select(.left), help: "grid: select the tile to the left", context: .grid),
  KeyBinding(keys: [.right], command: .select(.right), help: "grid: select the tile to the right", context: .grid),
  KeyBinding(keys: [.up], command: .select(.up), help: "grid: select the tile above", context: .grid),
  KeyBinding(keys: [.down], command: .select(.down), help: "grid: select the tile below", context: .grid),
  KeyBinding(keys: [.pageUp], command: .select(.pageUp), help: "grid: scroll a page up", context: .grid),
  KeyBinding(keys: [.pageDown], command: .select(.pageDown), help: "grid: scroll a page down", context: .grid),
  KeyBinding(keys: [.home], command: .select(.first), help: "grid: first tile", context: .grid),
  KeyBinding(keys: [.end], command: .select(.last), help: "grid: last tile", context: .grid),
  KeyBinding(keys: [.enter], command: .openTile, help: "grid: open the selected tile", context: .grid),
]

/// The mouse rows, for the same texts.
let mouseHelp: [(action: String, help: String)] = [
  ("left click", "play/pause"), ("drag", "pan (zoomed)"), ("wheel", "zoom at the pointer"),
  ("drop", "open the dropped files or URLs"),
  ("grid", "wheel or scroll bar scrolls, click selects, double-click opens"),
]

/// The command `key` with `modifiers` runs: in the grid its rows come first; in a single
/// view opened from the grid, Escape goes back.
func command(for key: Key, modifiers: KeyModifiers, inGrid: Bool = false, fromGrid: Bool = false) -> Command? {
  let rows = keyBindings.filter { b in
    switch b.context {
    case .any: true
    case .grid: inGrid
    case .fromGrid: fromGrid && !inGrid
    }
  }
  let first =
    rows.first { $0.context != .any && $0.matches(key, modifiers) } ?? rows.first { $0.matches(key, modifiers) }
  return first?.command
}

/// The key table as aligned lines: "label   help".
func keyTableLines(indent: String = "") -> [String] {
  let width = keyBindings.map(\.label.count).max() ?? 0
  return keyBindings.map { b in indent + b.label + String(repeating: " ", count: width - b.label.count + 3) + b.help }
}

extension Key {
  var label: String {
    switch self {
    case .text(" "): "space"
    case .text(let t): t
    case .left: "←"
    case .right: "→"
    case .up: "↑"
    case .down: "↓"
    case .home: "Home"
    case .end: "End"
    case .backspace: "Backspace"
    case .escape: "Escape"
    case .pageUp: "PageUp"
    case .pageDown: "PageDown"
    case .enter: "Enter"
    case .other: "?"
    }
  }
}
