import Foundation
import GIFTestSupport
import X11Window

/// One Xvfb per suite (suites run in parallel and windows must not overlap); within a
/// suite tests are serialized and each test finds its own window by `_NET_WM_PID`.
let windowTestsXvfb: Xvfb? = try? Xvfb()
let eventLoopTestsXvfb: Xvfb? = try? Xvfb()
let loaderWindowTestsXvfb: Xvfb? = try? Xvfb()
let gridTestsXvfb: Xvfb? = try? Xvfb()
let commandTestsXvfb: Xvfb? = try? Xvfb()
let streamTestsXvfb: Xvfb? = try? Xvfb()

/// A gifview window under test.
final class Viewer {
  let process: RunningProcess
  let probe: WindowProbe
  let window: UInt
  /// Kept so the server outlives this viewer's probe (an optimised build may otherwise end
  /// a local server's lifetime at its last use, while the probe still talks to it).
  private let server: Xvfb

  init(
    _ arguments: [String], environment: [String: String] = [:], binary: String = gifviewBinary, stdin: Data? = nil,
    on server: Xvfb? = windowTestsXvfb
  ) throws {
    guard let xvfb = server else { throw XvfbError.message("no Xvfb") }
    self.server = xvfb
    var env = environment
    env["DISPLAY"] = xvfb.display
    process = try RunningProcess(binary, arguments, environment: env, stdin: stdin)
    probe = try WindowProbe(display: xvfb.display)
    guard let w = probe.waitForWindow(pid: process.process.processIdentifier, timeoutMS: scaledMS(5000)) else {
      throw XvfbError.message("no window appeared; stderr: \(process.stderr)")
    }
    window = w
  }

  var size: (width: Int, height: Int) { probe.size(window) }
  var pixels: [UInt32] { probe.pixels(window)?.pixels ?? [] }

  /// Waits until the window shows exactly `want` (0x00RRGGBB, window-sized).
  func waitForPixels(_ want: [UInt32], timeout: Double = 10) -> Bool {
    eventually(timeout: timeout) { pixels == want }
  }

  func key(_ keysym: UInt) { probe.sendKey(window, keysym: keysym) }

  /// The window is gone before the next test opens one.
  deinit {
    if process.process.isRunning {
      process.process.terminate()
      process.process.waitUntilExit()
    }
  }
}

/// Writes `bytes` to a fresh temporary file named `name`.
func temporaryFile(_ name: String, _ bytes: [UInt8]) -> String {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gifview-tests-\(UUID().uuidString)")
  try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  let path = dir.appendingPathComponent(name).path
  _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
  return path
}

/// RGB of a palette as 0x00RRGGBB.
func rgb(_ p: [UInt8], _ i: Int) -> UInt32 { UInt32(p[3 * i]) << 16 | UInt32(p[3 * i + 1]) << 8 | UInt32(p[3 * i + 2]) }
