import GIFLoader

/// Window mode arrives with the window issue; until then it shows --info.
func runWindow(options: Options, sources: [Source]) -> Int32 {
  var o = options
  o.mode = .info
  return Headless(options: o) { source throws(LoadError) in try fetchWhole(source, options: options) }.run(
    sources: sources)
}
