import GIFDecoder
import GIFLoader
import GIFView

/// Window mode: one window plays the sources (`n`/`p` switch between them).
func runWindow(options o: Options, sources: [Source]) -> Int32 {
  var v = GIFView.Options()
  v.contentMode = ContentMode(rawValue: o.contentMode.rawValue) ?? .fit
  if let (r, g, b) = parseColor(o.background) {
    v.background = .solid(r: r, g: g, b: b)
    v.solidBackground = .solid(r: r, g: g, b: b)
  }
  v.startPaused = o.paused
  v.speed = o.speed
  v.plays = o.loop
  v.exactDelays = o.exactDelays
  v.useSHM = !o.noSHM
  v.fade = !o.noFade
  v.fullscreen = o.fullscreen
  v.display = o.display
  v.grid = o.grid
  if let g = o.geometry, let p = parseGeometry(g) { v.geometry = p }
  v.load = loadOptions(o)
  v.limits = Limits(maxCanvasPixels: o.maxPixels, maxInputBytes: o.maxInput)
  return GIFView(sources: sources, options: v).run()
}
