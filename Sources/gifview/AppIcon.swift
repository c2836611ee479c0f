import Glibc
import PNGCodec
import X11Window

/// The sizes of the app icon the window carries in `_NET_WM_ICON` (16–256 px).
let appIconSizes = [16, 24, 32, 48, 64, 128, 256]

/// The app icon, decoded from the PNGs found relative to the running binary
/// (`/proc/self/exe`): installed, `PREFIX/bin/gifview` next to
/// `PREFIX/share/icons/hicolor/SxS/apps/gifview.png`; in the build tree,
/// `.build/…/gifview` (up to four directories down) below `Resources/icons/gifview-S.png`.
/// Sizes that are missing or do not decode are left out; no icon at all is no error (the
/// window has none).
func appIcons() -> [WindowIcon] {
  guard let exe = realPath("/proc/self/exe") else { return [] }
  let bin = parentDirectory(exe)
  var candidates: [(Int) -> String] = [
    { s in parentDirectory(bin) + "/share/icons/hicolor/\(s)x\(s)/apps/gifview.png" }
  ]
  var dir = bin
  // .build/TRIPLE/debug/gifview is three levels below the root; a build with its own
  // scratch path (.build/asan/TRIPLE/debug/gifview) is four.
  for _ in 0..<5 {
    let root = dir
    candidates.append { s in root + "/Resources/icons/gifview-\(s).png" }
    if dir.isEmpty { break }  // "/" was the last: its parent would be "." (the working directory)
    dir = parentDirectory(dir)
  }
  guard let place = candidates.first(where: { access($0(appIconSizes[0]), R_OK) == 0 }) else { return [] }
  return appIconSizes.compactMap { size in
    guard let bytes = readSmallFile(place(size)), let image = try? PNG.decode(bytes), image.width == size,
      image.height == size
    else { return nil }
    return WindowIcon(width: size, height: size, argb: image.argb)
  }
}

/// `path` with symbolic links resolved.
private func realPath(_ path: String) -> String? {
  guard let p = realpath(path, nil) else { return nil }
  defer { free(p) }
  return String(cString: p)
}

/// "/a/b/c" → "/a/b"; "/a" → "".
private func parentDirectory(_ path: String) -> String {
  guard let slash = path.lastIndex(of: "/") else { return "." }
  return String(path[..<slash])
}

/// A file of at most 4 MiB, whole; nil when it cannot be read.
private func readSmallFile(_ path: String) -> [UInt8]? {
  let fd = open(path, O_RDONLY | O_CLOEXEC)
  guard fd >= 0 else { return nil }
  defer { close(fd) }
  var out: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while out.count <= 4 << 20 {
    let n = read(fd, &chunk, chunk.count)
    if n < 0 && errno == EINTR { continue }
    guard n >= 0 else { return nil }
    if n == 0 { return out }
    out += chunk[0..<n]
  }
  return nil
}
