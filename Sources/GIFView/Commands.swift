import X11Window

/// What a key or mouse action does.
public enum Command: Equatable, Sendable {
  case togglePlay
  case step(Int)
  case first, last
  case faster, slower, normalSpeed
  case zoomIn, zoomOut, actualSize, fit
  case toggleFullscreen
  case toggleInfo
  case toggleBackground
  case reload
  case nextSource, previousSource
  case quit
}

/// The key table (nsxiv's idea): `--help`, the man page and the overlay read the same rows.
public struct KeyBinding: Sendable {
  public var keys: [Key]
  public var label: String
  public var command: Command
  public var help: String
}

public let keyBindings: [KeyBinding] = [
  KeyBinding(keys: [.text(" ")], label: "space", command: .togglePlay, help: "play/pause"),
  KeyBinding(keys: [.text("."), .right], label: ". →", command: .step(1), help: "next frame (pauses)"),
  KeyBinding(keys: [.text(","), .left], label: ", ←", command: .step(-1), help: "previous frame (pauses)"),
  KeyBinding(keys: [.home], label: "Home", command: .first, help: "first frame"),
  KeyBinding(keys: [.end], label: "End", command: .last, help: "last frame"),
  KeyBinding(keys: [.text("]")], label: "]", command: .faster, help: "faster (×1.25)"),
  KeyBinding(keys: [.text("[")], label: "[", command: .slower, help: "slower (÷1.25)"),
  KeyBinding(keys: [.backspace], label: "Backspace", command: .normalSpeed, help: "normal speed"),
  KeyBinding(keys: [.text("+"), .text("=")], label: "+", command: .zoomIn, help: "zoom in"),
  KeyBinding(keys: [.text("-")], label: "-", command: .zoomOut, help: "zoom out"),
  KeyBinding(keys: [.text("0")], label: "0", command: .actualSize, help: "actual size"),
  KeyBinding(keys: [.text("w")], label: "w", command: .fit, help: "fit to window"),
  KeyBinding(keys: [.text("f")], label: "f", command: .toggleFullscreen, help: "fullscreen"),
  KeyBinding(keys: [.text("i")], label: "i", command: .toggleInfo, help: "info overlay"),
  KeyBinding(keys: [.text("b")], label: "b", command: .toggleBackground, help: "checker/solid background"),
  KeyBinding(keys: [.text("r")], label: "r", command: .reload, help: "reload / retry"),
  KeyBinding(keys: [.text("n"), .pageDown], label: "n", command: .nextSource, help: "next source"),
  KeyBinding(keys: [.text("p"), .pageUp], label: "p", command: .previousSource, help: "previous source"),
  KeyBinding(keys: [.text("q"), .escape], label: "q Escape", command: .quit, help: "quit"),
]

func command(for key: Key) -> Command? {
  keyBindings.first { $0.keys.contains(key) }?.command
}

/// Mouse: left click play/pause, wheel zoom.
func command(forButton button: Int) -> Command? {
  switch button {
  case 1: .togglePlay
  case 4: .zoomIn
  case 5: .zoomOut
  default: nil
  }
}
