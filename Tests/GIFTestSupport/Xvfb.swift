import Foundation
import Synchronization

/// An Xvfb server of the test's own on a free display (`-displayfd`: no races).
///
/// It never outlives the test process, however that ends: Xvfb runs under a small `sh`
/// that holds the read end of a pipe whose only write end is ours, and kills Xvfb when the
/// pipe reports end of file: on `stop()`, at exit, and when the process crashes or is
/// killed (the kernel closes the pipe). An `atexit` handler also kills every server still
/// running, so none is left even for a moment after a normal exit. When
/// `GIFVIEW_XVFB_PIDFILE` is set, each server's PID is appended to it (`make test` checks
/// that none of them is left).
public final class Xvfb: @unchecked Sendable {
  public let display: String
  /// The Xvfb server's own PID (its `sh` guard is `process`).
  public let pid: Int32
  private let process: Process
  private let lifeline: FileHandle

  public static var available: Bool { executable != nil }

  static var executable: String? {
    ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"].first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// The guard: starts Xvfb ($0, with "$@"), says its PID, waits for end of file on stdin,
  /// then kills it and waits for it to go.
  static let guardScript = """
    "$0" "$@" </dev/null 2>/dev/null &
    pid=$!
    echo "pid $pid"
    read -r _ || :
    kill "$pid" 2>/dev/null
    wait "$pid"
    """

  /// Starts `Xvfb -displayfd 1 -screen 0 WxHxD`; throws if it does not come up in 10 s
  /// (scaled: `testTimeScale`).
  public init(width: Int = 1280, height: Int = 1024, depth: Int = 24, extraArguments: [String] = []) throws {
    guard let exe = Self.executable else { throw XvfbError.message("Xvfb is not installed (make test installs it)") }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sh")
    p.arguments =
      [
        "-c", Self.guardScript, exe, "-displayfd", "1", "-screen", "0", "\(width)x\(height)x\(depth)", "-nolisten",
        "tcp",
      ]
      + extraArguments
    let out = Pipe()
    let lifeline = Pipe()
    p.standardOutput = out
    p.standardInput = lifeline
    p.standardError = FileHandle.nullDevice
    try withUnblockedSignals { try p.run() }
    process = p
    self.lifeline = lifeline.fileHandleForWriting
    // Our copy of the read end would keep nothing alive, but close it: only the guard reads.
    try? lifeline.fileHandleForReading.close()
    var text = ""
    var serverPID: Int32?
    var number: Int?
    let deadline = Date().addingTimeInterval(scaled(10))
    while number == nil && Date() < deadline {
      let chunk = out.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      text += String(decoding: chunk, as: UTF8.self)
      for line in text.split(separator: "\n") {
        if line.hasPrefix("pid "), let n = Int32(line.dropFirst(4)) { serverPID = n }
        if let n = Int(line) { number = n }
      }
      // A display number is complete only with its newline.
      if let n = number, !text.contains("\(n)\n") { number = nil }
    }
    if let serverPID { XvfbRegistry.started(serverPID) }
    guard let number, let serverPID else {
      try? self.lifeline.close()
      p.waitUntilExit()
      throw XvfbError.message("Xvfb did not report a display")
    }
    pid = serverPID
    display = ":\(number)"
  }

  /// Kills the server and waits until it is gone (also for tests of a lost connection).
  public func stop() {
    try? lifeline.close()
    process.waitUntilExit()
    XvfbRegistry.stopped(pid)
  }

  deinit { stop() }
}

/// Every Xvfb the tests started and have not stopped, for the `atexit` handler.
enum XvfbRegistry {
  private struct State {
    var running: Set<Int32> = []
    var installed = false
  }
  private static let state = Mutex(State())

  static func started(_ pid: Int32) {
    state.withLock { s in
      s.running.insert(pid)
      if !s.installed {
        s.installed = true
        atexit { XvfbRegistry.killAll() }
      }
    }
    if let file = ProcessInfo.processInfo.environment["GIFVIEW_XVFB_PIDFILE"], !file.isEmpty {
      let fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
      if fd >= 0 {
        let line = Array("\(pid)\n".utf8)
        _ = write(fd, line, line.count)
        close(fd)
      }
    }
  }

  static func stopped(_ pid: Int32) { _ = state.withLock { $0.running.remove(pid) } }

  /// SIGTERM to each server still running (static ones are never deinitialised).
  static func killAll() {
    for pid in state.withLock({ $0.running }) { kill(pid, SIGTERM) }
  }
}

/// Voluntary context switches of a process's main thread so far (its wake-ups).
public func contextSwitches(pid: Int32) -> Int? { statusField(pid: pid, "voluntary_ctxt_switches") }

/// A process's peak resident memory so far (VmHWM), in KiB.
public func peakResidentKiB(pid: Int32) -> Int? { statusField(pid: pid, "VmHWM") }

/// The number in field `name` of /proc/PID/status (units dropped).
private func statusField(pid: Int32, _ name: String) -> Int? {
  guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
  for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
    return Int(line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
  }
  return nil
}

public enum XvfbError: Error { case message(String) }

/// Runs `body` (which starts a child) with no signal blocked on this thread: a child
/// inherits the mask, and Swift Testing's threads block SIGTERM, which would make
/// `terminate()` do nothing.
public func withUnblockedSignals<T>(_ body: () throws -> T) rethrows -> T {
  var none = sigset_t()
  var saved = sigset_t()
  sigemptyset(&none)
  pthread_sigmask(SIG_SETMASK, &none, &saved)
  defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
  return try body()
}

/// The repository root, from this file's path.
public let repositoryRoot: URL = {
  var dir = URL(fileURLWithPath: #filePath)
  for _ in 0..<3 { dir.deleteLastPathComponent() }
  return dir
}()

/// The debug gifview binary `make test` builds before the tests.
public var gifviewBinary: String {
  ProcessInfo.processInfo.environment["GIFVIEW_BIN"]
    ?? repositoryRoot.appendingPathComponent(".build/debug/gifview").path
}

/// A running gifview: stderr captured, exit status when it ends.
public final class RunningProcess: @unchecked Sendable {
  public let process = Process()
  private let errPipe = Pipe()
  private let outPipe = Pipe()
  private let captured = Captured()

  /// What the child wrote so far; filled by one reader thread per pipe.
  private final class Captured: @unchecked Sendable {
    let lock = NSLock()
    var stderr = Data()
    var stdout = Data()
  }

  /// stdin's writing end when the process was started with `keepingStdinOpen`.
  public private(set) var stdinWriter: FileHandle?

  /// Starts `executable`; `stdin` is written to its standard input, which is then closed
  /// unless `keepingStdinOpen` (write more to `stdinWriter`, close it to end the input).
  public init(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil,
    keepingStdinOpen: Bool = false
  ) throws {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    process.environment = env
    process.standardError = errPipe
    process.standardOutput = outPipe
    if stdin != nil || keepingStdinOpen {
      let inPipe = Pipe()
      process.standardInput = inPipe
      try withUnblockedSignals { try process.run() }
      if let stdin { inPipe.fileHandleForWriting.write(stdin) }
      if keepingStdinOpen {
        stdinWriter = inPipe.fileHandleForWriting
      } else {
        try? inPipe.fileHandleForWriting.close()
      }
    } else {
      process.standardInput = FileHandle.nullDevice
      try withUnblockedSignals { try process.run() }
    }
    // Reader threads rather than `readabilityHandler`: Foundation's handler leaks a weak
    // reference per handle, which AddressSanitizer reports with all it keeps alive.
    let captured = captured
    Self.drain(errPipe.fileHandleForReading) { d in captured.lock.withLock { captured.stderr.append(d) } }
    Self.drain(outPipe.fileHandleForReading) { d in captured.lock.withLock { captured.stdout.append(d) } }
  }

  /// Reads `handle` on a thread of its own until end of file (the child and every copy of
  /// the pipe's write end are gone).
  private static func drain(_ handle: FileHandle, _ append: @escaping @Sendable (Data) -> Void) {
    Thread.detachNewThread {
      while true {
        let d = handle.availableData
        if d.isEmpty { return }
        append(d)
      }
    }
  }

  public var stderr: String { captured.lock.withLock { String(decoding: captured.stderr, as: UTF8.self) } }
  public var stdout: String { captured.lock.withLock { String(decoding: captured.stdout, as: UTF8.self) } }

  /// The exit status, or nil if it is still running after `timeout` seconds (scaled:
  /// `testTimeScale`).
  public func wait(timeout: Double = 5) -> Int32? {
    let deadline = Date().addingTimeInterval(scaled(timeout))
    while process.isRunning && Date() < deadline { usleep(5_000) }
    if process.isRunning { return nil }
    process.waitUntilExit()  // returns at once; see `reap()`
    pause(0.02)  // let the pipes drain
    return process.terminationStatus
  }

  /// Foundation's Process keeps itself alive (a cycle through its run-loop source) until
  /// `waitUntilExit()` has seen it end; without that call every Process leaks, with its
  /// pipes and environment. So the child is ended (SIGTERM, then SIGKILL after 2 s,
  /// scaled) and waited for.
  private func reap() {
    if process.isRunning {
      process.terminate()
      let deadline = Date().addingTimeInterval(scaled(2))
      while process.isRunning && Date() < deadline { usleep(5_000) }
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
    process.waitUntilExit()
  }

  deinit { reap() }
}

/// Polls `condition` every 10 ms for up to `timeout` seconds (scaled: `testTimeScale`).
public func eventually(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(scaled(timeout))
  while Date() < deadline {
    if condition() { return true }
    usleep(10_000)
  }
  return condition()
}
