import GIFPlayback
import GIFView
import Glibc
import X11Window

extension Viewer {
  /// The window's first size: `--geometry`, else 320×240 until the GIF's size is known
  /// (a local file's header is read before the window maps: see `presizeFromLocalHeader`).
  func initialWindowOptions() -> WindowOptions {
    var o = WindowOptions(
      title: title, width: 320, height: 240, fullscreen: settings.fullscreen,
      backgroundRGB: isGrid ? 0x1A1B1D : nil)
    if let g = settings.geometry {
      // Never larger than the screen: a window's pixels cost memory here and on the server
      // (32767² would be 4 GiB), and no screen shows more.
      let s = connection.screenSize
      (o.width, o.height, o.x, o.y) = (min(g.width, s.width), min(g.height, s.height), g.x, g.y)
    } else if isGrid {
      // Three columns and three rows of tiles, within 90 % of the screen.
      let g = GridLayout(
        tileWidth: settings.tile.width, tileHeight: settings.tile.height, viewportWidth: 1, viewportHeight: 1, count: 0)
      let s = connection.screenSize
      o.width = min(3 * (g.tileWidth + g.gap) + g.gap + GridScreen.scrollBarWidth, s.width * 9 / 10)
      o.height = min(3 * g.rowPitch + g.gap, s.height * 9 / 10)
    }
    return o
  }

  /// The GIF's size at 1:1 when it fits in 90 % of the screen, else scaled down keeping
  /// the aspect (DESIGN §5).
  func windowSize(forImage w: Int, _ h: Int) -> (Int, Int) {
    let s = connection.screenSize
    let maxW = Double(s.width) * 0.9
    let maxH = Double(s.height) * 0.9
    if Double(w) <= maxW && Double(h) <= maxH { return (w, h) }
    let k = min(maxW / Double(w), maxH / Double(h))
    return (max(1, Int(Double(w) * k)), max(1, Int(Double(h) * k)))
  }

  /// Once the size is known the window takes the image's size (unless `--geometry`).
  func fitWindowToImage() {
    guard !sizedForImage, settings.geometry == nil, !settings.fullscreen, let size = views.first?.playback.size
    else { return }
    sizedForImage = true
    let (w, h) = windowSize(forImage: size.width, size.height)
    if w != top.width || h != top.height { top.resize(width: w, height: h, keepingCentre: keepsCentre) }
  }

  /// Every view shows something of its source: a frame, the spinner or the failure card.
  var firstPaintDone: Bool {
    views.allSatisfy { v in
      let p = v.playback
      if p.displayedFrame != nil || p.spinnerShownAt != nil { return true }
      if case .loading = p.phase { return false }
      return true
    }
  }

  /// For a local file the size is read from its header before the window maps, so the
  /// window never jumps.
  func presizeFromLocalHeader() {
    guard settings.geometry == nil, !isGrid, sources.indices.contains(active),
      let path = sources[active].loaderSource?.pathBytes
    else { return }
    // Regular files only: a pipe or FIFO (`gifview <(curl …)`) must be left to the loader
    // alone, and must not block the UI thread.
    let fd = withCPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
    guard fd >= 0 else { return }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return }
    var header = [UInt8](repeating: 0, count: 10)
    guard pread(fd, &header, 10, 0) == 10, header[0..<4] == [0x47, 0x49, 0x46, 0x38] else { return }
    let w = Int(header[6]) | Int(header[7]) << 8
    let h = Int(header[8]) | Int(header[9]) << 8
    guard w > 0, h > 0 else { return }
    let (ww, wh) = windowSize(forImage: w, h)
    sizedForImage = true
    top.resize(width: ww, height: wh)
  }

  /// The `i` overlay: source, frame, delay, plays, speed, state, zoom, size, warnings.
  func infoLines(_ v: GIFView) -> [String] {
    let p = v.playback
    let i = p.currentFrame
    let plays = p.plays.map(String.init) ?? "∞"
    let speed = (p.speed * 100).rounded() / 100
    var state = p.isPaused ? "paused" : p.isFinished ? "finished" : "playing"
    if p.isWaitingForData { state = "waiting for data" }
    var lines = [
      p.source.displayName + position,
      "frame \(i + 1)/\(p.frameCount)\(p.isLoadComplete ? "" : "+")   delay \(p.delayMS(of: i) ?? 0) ms",
      "play \(min(p.playsDone + 1, p.plays ?? Int.max))/\(plays)   speed \(speed)x   \(state)",
      "zoom \(Int((v.effectiveScale * 100).rounded()))%   \(p.size?.width ?? 0)x\(p.size?.height ?? 0)",
    ]
    if let w = p.warnings.first { lines.append("warning: " + w) }
    return lines
  }
}
