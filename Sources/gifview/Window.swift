import GIFDecoder
import GIFLoader
import GIFPlayback
import GIFView

/// Window mode: one window plays the sources (`n`/`p` switch between them).
func runWindow(options o: Options, sources: [Source], streamingList: Bool = false) -> Int32 {
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
