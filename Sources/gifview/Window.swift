import GIFDecoder
import GIFLoader
import GIFPlayback
import GIFView
import Glibc

/// Window mode: one window plays the sources (`n`/`p` switch between them).
func runWindow(options o: Options, sources: [Source], streamingList: Bool = false) -> Int32 {
  // A single local source that cannot be opened is an error at once, with no window
  // (DESIGN §4); among several, it gets its failure card like any other.
  if sources.count == 1, !streamingList, let reason = unopenableReason(sources[0]) {
    printError(sources[0].description, reason)
    return 1
  }
  var s = ViewerSettings()
  s.contentMode = ContentMode(rawValue: o.contentMode.rawValue) ?? .fit
  if let (r, g, b) = parseColor(o.background) {
    s.background = .solid(r: r, g: g, b: b)
    s.solidBackground = .solid(r: r, g: g, b: b)
  }
  s.useSHM = !o.noSHM
  s.fullscreen = o.fullscreen
  s.display = o.display
  s.grid = o.grid
  s.tile = o.tile
  if let g = o.geometry, let p = parseGeometry(g) { s.geometry = p }
  s.playback.startsPaused = o.paused
  s.playback.speed = o.speed
  s.playback.plays = o.loop
  s.playback.exactDelays = o.exactDelays
  s.playback.fadesIn = !o.noFade
  s.playback.load = loadOptions(o)
  s.playback.limits = Limits(maxCanvasPixels: o.maxPixels, maxInputBytes: o.maxInput)
  let wakeUp = WakeUpSignal()
  let incoming = streamingList ? IncomingSources(fd: 0, wakeUp: wakeUp, recursive: o.recursive) : nil
  return Viewer(sources: sources.map(GIFPlayback.Source.init), settings: s, wakeUp: wakeUp, incoming: incoming).run()
}

/// Why a local path cannot be opened for reading (strerror's text), or nil: it can, or it
/// is not a local path, or not a regular file (a FIFO is left to the loader: opening it
/// here would let its writer go on before anyone reads).
func unopenableReason(_ source: Source) -> String? {
  guard let path = source.pathBytes else { return nil }
  return withCPath(path) { p -> String? in
    var st = stat()
    guard stat(p, &st) == 0 else { return String(cString: strerror(errno)) }
    guard st.st_mode & S_IFMT == S_IFREG else { return nil }
    let fd = open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return String(cString: strerror(errno)) }
    close(fd)
    return nil
  }
}
