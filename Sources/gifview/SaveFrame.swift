import GIFPlayback
import Glibc
import PNGCodec

/// `s`: the shown frame as a PNG (DESIGN §5), next to the source file when its directory
/// takes a new file, else in the pictures directory; never over an existing file. In the
/// grid, the selected tile's frame (at the GIF's own size).
extension Viewer {
  func saveShownFrame() {
    guard let (v, size, frame, pixels) = shownFrame(for: .save) else { return }
    let p = v.playback
    let name = saveBaseName(p.source) + "-frame-" + frameNumber(frame, of: p.frameCount)
    do {
      let png = try PNG.encode(PNG.Image(width: size.width, height: size.height, argb: pixels))
      var directories: [[UInt8]] = []
      if let path = p.source.loaderSource?.pathBytes { directories.append(directoryPart(path)) }
      if let pictures = picturesDirectory() { directories.append(pictures) }
      var reasons: [String] = []
      for dir in directories {
        switch writeNewFile(in: dir, name: Array(name.utf8), png) {
        case .success(let path):
          writeStdoutLine(path)
          return
        case .failure(let failure): reasons.append(failure.reason)
        }
      }
      printError(p.source.description, "cannot save the frame: " + (reasons.last ?? "no directory to save in"))
    } catch {
      printError(p.source.description, "cannot save the frame: \(error.message)")
    }
  }
}

/// "cat" for cat.gif, a URL's last path segment without its query, "stdin".
func saveBaseName(_ source: GIFPlayback.Source) -> String {
  var base: String
  if let path = source.loaderSource?.pathBytes {
    let last = path.split(separator: UInt8(ascii: "/")).last.map(Array.init) ?? []
    base = String(decoding: last, as: UTF8.self)
  } else if source == .standardInput {
    base = "stdin"
  } else {
    let url = source.description
    let noQuery = url.prefix { $0 != "?" && $0 != "#" }
    let afterScheme = noQuery.firstRange(of: "://").map { noQuery[$0.upperBound...] } ?? noQuery[...]
    base = afterScheme.split(separator: "/").dropFirst().last.map(String.init) ?? ""
  }
  if base.lowercased().hasSuffix(".gif") { base.removeLast(4) }
  // One path component, no hidden file, no control characters.
  base = String(
    base.map { $0 == "/" || $0.isNewline || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7f } == true ? "_" : $0 })
  while base.hasPrefix(".") { base.removeFirst() }
  return base.isEmpty ? "gifview" : base
}

/// 4 digits, more when the frame count needs them: "0007".
func frameNumber(_ index: Int, of count: Int) -> String {
  let digits = max(4, String(max(count - 1, 0)).count)
  let n = String(index)
  return String(repeating: "0", count: max(0, digits - n.count)) + n
}

/// "/a/b/c.gif" → "/a/b"; "c.gif" → ".".
private func directoryPart(_ path: [UInt8]) -> [UInt8] {
  guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return Array(".".utf8) }
  return slash == 0 ? [UInt8(ascii: "/")] : Array(path[..<slash])
}

/// `$XDG_PICTURES_DIR`, else the one `user-dirs.dirs` names, else `~/Pictures`; created
/// when missing. Nil without a home.
func picturesDirectory() -> [UInt8]? {
  func env(_ name: String) -> String? {
    guard let v = getenv(name).map({ String(cString: $0) }), v.hasPrefix("/") else { return nil }
    return v
  }
  let home = env("HOME")
  var dir = env("XDG_PICTURES_DIR")
  if dir == nil, let home {
    let config = env("XDG_CONFIG_HOME") ?? home + "/.config"
    dir = userDirsPictures(config + "/user-dirs.dirs", home: home)
  }
  guard let dir = dir ?? home.map({ $0 + "/Pictures" }) else { return nil }
  makeDirectories(dir)
  return Array(dir.utf8)
}

/// The XDG_PICTURES_DIR line of xdg-user-dirs' file: `XDG_PICTURES_DIR="$HOME/Pictures"`.
private func userDirsPictures(_ file: String, home: String) -> String? {
  guard let f = fopen(file, "r") else { return nil }
  defer { fclose(f) }
  var line: UnsafeMutablePointer<CChar>?
  var capacity = 0
  defer { free(line) }
  while getline(&line, &capacity, f) > 0, let line {
    let text = String(cString: line).trimmingSpaces
    guard text.hasPrefix("XDG_PICTURES_DIR=") else { continue }
    var value = text.dropFirst("XDG_PICTURES_DIR=".count)
    if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
    let path = value.hasPrefix("$HOME") ? home + value.dropFirst(5) : String(value)
    // xdg-user-dirs writes "$HOME/" for a disabled directory.
    return path.hasPrefix("/") && path != home + "/" ? path : nil
  }
  return nil
}

extension String {
  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0.isWhitespace }.reversed())
  }
}

/// `mkdir -p`, quietly.
private func makeDirectories(_ path: String) {
  var partial = ""
  for part in path.split(separator: "/") {
    partial += "/" + part
    _ = mkdir(partial, 0o755)
  }
}

/// Writes `bytes` to `dir/name.png`, or `dir/name-1.png`, `-2`, … (the first that does
/// not exist: O_EXCL, so a file appearing meanwhile is not overwritten either). Answers
/// the path written, or why not.
func writeNewFile(in dir: [UInt8], name: [UInt8], _ bytes: [UInt8]) -> Result<String, SaveFailure> {
  for n in 0..<10_000 {
    let path = dir + [UInt8(ascii: "/")] + name + (n == 0 ? [] : Array("-\(n)".utf8)) + Array(".png".utf8)
    let fd = withCPath(path) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
    let shown = String(decoding: path, as: UTF8.self)
    if fd < 0 {
      if errno == EEXIST { continue }
      return .failure(SaveFailure(reason: "\(shown): \(String(cString: strerror(errno)))"))
    }
    let ok = bytes.withUnsafeBytes { wroteAll(fd, $0) }
    let closed = close(fd) == 0
    guard ok && closed else {
      let reason = String(cString: strerror(errno))
      _ = withCPath(path) { unlink($0) }
      return .failure(SaveFailure(reason: "\(shown): \(reason)"))
    }
    return .success(shown)
  }
  return .failure(SaveFailure(reason: "too many saved frames named \(String(decoding: name, as: UTF8.self))"))
}

/// Why a frame was not saved in one directory.
struct SaveFailure: Error {
  var reason: String
}

/// One line on stdout in one write(2) (stdout may be a pipe: no buffering to flush).
func writeStdoutLine(_ s: String) {
  var line = s + "\n"
  line.withUTF8 { b in _ = wroteAll(1, UnsafeRawBufferPointer(b)) }
}
