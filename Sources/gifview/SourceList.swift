import GIFLoader
import GIFPlayback
import Glibc
import Synchronization
import SystemIO

// Sources at scale (DESIGN §4): directories stand for the GIF files in them, and
// `--list -` from a pipe adds sources while the window is open.

/// The arguments with each local directory replaced by the GIF files in it (by
/// signature, not by name), in natural order; `recursive` descends into
/// subdirectories. A directory with no GIF stays (its load fails: "is a directory").
/// Other arguments pass unchanged.
func expandingDirectories(_ arguments: [[UInt8]], recursive: Bool) -> [[UInt8]] {
  var out: [[UInt8]] = []
  for a in arguments {
    guard a != [UInt8(ascii: "-")], !isURL(a), isDirectory(a) else {
      out.append(a)
      continue
    }
    let before = out.count
    appendGIFs(in: a, recursive: recursive, to: &out)
    // A directory without GIFs stays, so that it is reported rather than silently dropped.
    if out.count == before { out.append(a) }
  }
  return out
}

private func isURL(_ a: [UInt8]) -> Bool {
  let s = String(decoding: a.prefix(8), as: UTF8.self).lowercased()
  return s.hasPrefix("http://") || s.hasPrefix("https://") || s.hasPrefix("file://")
}

/// Runs `body` with `path` as a NUL-terminated C string (paths are bytes, not UTF-8).
func withCPath<R>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
  (path + [0]).withUnsafeBufferPointer { b in b.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
}

private func isDirectory(_ path: [UInt8]) -> Bool {
  var st = stat()
  return withCPath(path) { stat($0, &st) } == 0 && st.st_mode & S_IFMT == S_IFDIR
}

/// Starts with "GIF8": a regular file that is a GIF whatever its name.
private func hasGIFSignature(_ path: [UInt8]) -> Bool {
  let fd = withCPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
  guard fd >= 0 else { return false }
  defer { close(fd) }
  var st = stat()
  guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return false }
  var head = [UInt8](repeating: 0, count: 4)
  return pread(fd, &head, 4, 0) == 4 && head == Array("GIF8".utf8)
}

private func appendGIFs(in dir: [UInt8], recursive: Bool, to out: inout [[UInt8]]) {
  guard let d = withCPath(dir, { opendir($0) }) else { return }
  var names: [[UInt8]] = []
  while let e = readdir(d) {
    let name = withUnsafeBytes(of: e.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
    // Hidden entries, "." and "..".
    if name.first == UInt8(ascii: ".") { continue }
    names.append(name)
  }
  closedir(d)
  let base = dir.last == UInt8(ascii: "/") ? dir : dir + [UInt8(ascii: "/")]
  for name in names.sorted(by: naturallyBefore) {
    let path = base + name
    if isDirectory(path) {
      if recursive { appendGIFs(in: path, recursive: true, to: &out) }
    } else if hasGIFSignature(path) {
      out.append(path)
    }
  }
}

/// Natural order: runs of digits compare as numbers ("2.gif" before "10.gif"), the rest
/// byte by byte; equal numbers with more leading zeros go first, then the bytes decide.
func naturallyBefore(_ a: [UInt8], _ b: [UInt8]) -> Bool {
  func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
  var i = 0
  var j = 0
  while i < a.count && j < b.count {
    if isDigit(a[i]) && isDigit(b[j]) {
      var ie = i
      while ie < a.count && isDigit(a[ie]) { ie += 1 }
      var je = j
      while je < b.count && isDigit(b[je]) { je += 1 }
      // Compare without leading zeros: longer is larger, then digit by digit.
      var ia = i
      while ia < ie - 1 && a[ia] == 48 { ia += 1 }
      var jb = j
      while jb < je - 1 && b[jb] == 48 { jb += 1 }
      if ie - ia != je - jb { return ie - ia < je - jb }
      for k in 0..<(ie - ia) where a[ia + k] != b[jb + k] { return a[ia + k] < b[jb + k] }
      if ie - i != je - j { return ie - i > je - j }
      i = ie
      j = je
    } else {
      if a[i] != b[j] { return a[i] < b[j] }
      i += 1
      j += 1
    }
  }
  return a.count - i < b.count - j
}

/// Sources read from a pipe while the window is open (`script | gifview --grid
/// --list -`): a thread reads lines and hands them over; `take()` on the UI thread.
final class IncomingSources: Sendable {
  private struct State {
    var lines: [[UInt8]] = []
    var stopped = false
  }
  private let state = Mutex(State())
  private let wakeUp: WakeUpSignal
  private let recursive: Bool

  /// Reads `fd` line by line on a thread of its own, waking `wakeUp` for each batch.
  init(fd: Int32, wakeUp: WakeUpSignal, recursive: Bool) {
    self.wakeUp = wakeUp
    self.recursive = recursive
    let started = spawnDetachedThread { [self] in self.read(fd) }
    if !started { state.withLock { $0.stopped = true } }
  }

  private func read(_ fd: Int32) {
    var pending: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = Glibc.read(fd, &buf, buf.count)
      if n < 0 && errno == EINTR { continue }
      let end = n <= 0
      if !end { pending += buf[0..<n] }
      var lines: [[UInt8]] = []
      while let nl = pending.firstIndex(where: { $0 == 10 || $0 == 13 }) {
        lines.append(Array(pending[..<nl]))
        pending.removeSubrange(...nl)
      }
      if end && !pending.isEmpty {
        lines.append(pending)
        pending = []
      }
      lines = expandingDirectories(lines.filter { !$0.isEmpty }, recursive: recursive)
      let stop = state.withLock { s -> Bool in
        s.lines += lines
        return s.stopped
      }
      if !lines.isEmpty { wakeUp.wake() }
      if end || stop { return }
    }
  }

  /// The sources read since the last call; a line that is not a source is reported and skipped.
  func take() -> [GIFPlayback.Source] {
    let lines = state.withLock { s -> [[UInt8]] in
      defer { s.lines = [] }
      return s.lines
    }
    return lines.compactMap { line in
      do throws(LoadError) {
        return GIFPlayback.Source(try Source(argumentBytes: line))
      } catch {
        printError(error.source, error.description)
        return nil
      }
    }
  }

  /// No more sources are taken (the reader ends at its next line).
  func stop() { state.withLock { $0.stopped = true } }
}
