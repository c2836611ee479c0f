// windowbench grid: the scrolling grid's measured targets (Benchmarks/grid.sh runs it).
//
//   windowbench grid --gifview PATH --port N --http DIR --out DIR [--seconds S]
//
// Writes 60 GIFs of 480x270, 40 full frames of 5 cs each, into the http DIR (served by
// the script's python http.server on 127.0.0.1:N). Each frame has a 40x40 marker block at
// the top left in a colour that names the frame, and a 40x40 block at the bottom right in
// a colour that names the source (palette entry 255, patched per file). In one gifview
// run (`--grid --no-cache --geometry 1280x1000 --list urls`) it measures:
//   - CPU of gifview + Xvfb per wall second after the visible tiles' first loop (harness idle),
//   - the frame intervals of the 12 visible tiles' markers (each polled alone for a twelfth
//     of the time with 1x1 XGetImage): error = |interval − frames × 50 ms|, p95,
//   - page-scroll latency: PageDown to the top-left tile showing its new source (5 times,
//     Home and reload in between),
//   - gifview's peak RSS (VmHWM).
// Then 1 000 local sources (symbolic links to one such file, in a directory): launch to
// the 12 visible tiles playing, and the peak RSS after paging through all of them.

import GIFTestSupport
import GIFView
import Glibc
import X11Window

private let gw = 480
private let gh = 270
private let frames = 40

/// Marker colour of frame k (palette entry k).
private func marker(_ k: Int) -> UInt32 { UInt32(40 + k * 5) << 16 | UInt32(250 - k * 5) << 8 | UInt32((k * 97) % 200) }
/// Source colour of source i (palette entry 255).
private func sourceColor(_ i: Int) -> UInt32 {
  UInt32(20 + (i * 53) % 230) << 16 | UInt32(30 + (i * 29) % 220) << 8 | 7
}

private func gridGIF() -> [UInt8] {
  var palette: [UInt8] = []
  for k in 0..<frames {
    let c = marker(k)
    palette += [UInt8(c >> 16), UInt8(c >> 8 & 0xFF), UInt8(c & 0xFF)]
  }
  for j in frames..<255 {
    let t = Double(j - frames) / Double(255 - frames)
    palette += [UInt8(30 + t * 60), UInt8(60 + t * 120), UInt8(200 - t * 100)]
  }
  palette += [0, 0, 0]
  var b = GIFBuilder(width: gw, height: gh, globalPalette: palette)
  b.loop(0)
  let shades = 255 - frames
  for k in 0..<frames {
    var px = [UInt8](repeating: 0, count: gw * gh)
    for y in 0..<gh {
      for x in 0..<gw {
        // A diagonal gradient that moves every frame: every pixel changes.
        px[y * gw + x] = UInt8(frames + ((x + y) / 6 + k * 3) % shades)
      }
    }
    for y in 0..<40 {
      for x in 0..<40 {
        px[y * gw + x] = UInt8(k)
        px[(gh - 1 - y) * gw + gw - 1 - x] = 255
      }
    }
    b.control(delayCS: 5)
    b.image(width: gw, height: gh, indices: px)
  }
  b.trailer()
  return b.bytes
}

private func withSource(_ gif: [UInt8], _ i: Int) -> [UInt8] {
  var g = gif
  let c = sourceColor(i)
  let at = 13 + 255 * 3
  g[at] = UInt8(c >> 16)
  g[at + 1] = UInt8(c >> 8 & 0xFF)
  g[at + 2] = UInt8(c & 0xFF)
  return g
}

private func peakRSSMB(_ pid: pid_t) -> Double {
  guard let f = fopen("/proc/\(pid)/status", "r") else { return .nan }
  defer { fclose(f) }
  var line = [CChar](repeating: 0, count: 256)
  while fgets(&line, 256, f) != nil {
    let s = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if s.hasPrefix("VmHWM:") {
      let kb = Double(s.split(separator: " ").dropFirst().first ?? "") ?? .nan
      return kb / 1024
    }
  }
  return .nan
}

private func percentile(_ v: [Double], _ p: Double) -> Double {
  guard !v.isEmpty else { return .nan }
  let s = v.sorted()
  return s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
}

private struct GridConfig {
  var gifview = ""
  var port = 0
  var http = ""
  var out = ".build/gridbench"
  var seconds = 10.0
}

/// Where tile i's marker and source blocks are on screen at `offset` (the GIF is fit
/// into the 320x240 tile: 320x180, centred).
private struct Spots {
  let layout: GridLayout
  func marker(_ i: Int, offset: Int) -> (Int, Int) {
    let r = layout.pictureRect(i, offset: offset)
    return (r.x0 + 12, r.y0 + 30 + 12)
  }
  func source(_ i: Int, offset: Int) -> (Int, Int) {
    let r = layout.pictureRect(i, offset: offset)
    return (r.x1 - 12, r.y0 + 30 + 180 - 12)
  }
}

func runGridBench(_ args: [String]) -> Int32 {
  var c = GridConfig()
  var i = 0
  while i < args.count {
    let v = i + 1 < args.count ? args[i + 1] : ""
    switch args[i] {
    case "--gifview": c.gifview = v
    case "--port": c.port = Int(v) ?? 0
    case "--http": c.http = v
    case "--out": c.out = v
    case "--seconds": c.seconds = Double(v) ?? 10
    default: fail("unknown argument \(args[i])")
    }
    i += 2
  }
  makeDirectories(c.out)
  makeDirectories(c.http)
  log("gridbench: writing 60 GIFs of \(gw)x\(gh)x\(frames)")
  let gif = gridGIF()
  var urls = ""
  for s in 0..<60 {
    writeFile(withSource(gif, s), to: "\(c.http)/\(s).gif")
    urls += "http://127.0.0.1:\(c.port)/\(s).gif\n"
  }
  writeText(urls, to: "\(c.out)/urls.txt")
  let local = "\(c.out)/local"
  makeDirectories(local)
  writeFile(gif, to: "\(c.out)/one.gif")
  for s in 0..<1000 {
    let name = "\(local)/\(s).gif"
    unlink(name)
    symlink("../one.gif", name)
  }

  let (xvfb, display) = startXvfb()
  defer { stop(xvfb) }
  guard let probe = try? WindowProbe(display: display) else { fail("cannot open \(display)") }
  let layout = GridLayout(tileWidth: 320, tileHeight: 240, viewportWidth: 1270, viewportHeight: 1000, count: 60)
  let spots = Spots(layout: layout)
  let visible = Array(layout.visibleRange(offset: 0))
  let markers = Set((0..<frames).map(marker))

  // MARK: 60 sources over HTTP
  let t0 = now()
  let pid = spawn(
    [c.gifview, "--grid", "--no-cache", "--geometry", "1280x1000", "--list", "\(c.out)/urls.txt"], display: display,
    stderrPath: "\(c.out)/gifview-http.err")
  guard let w = probe.waitForWindow(pid: pid, timeoutMS: 10_000) else { fail("no gifview window") }
  func playing(_ tiles: [Int], offset: Int) -> Bool {
    tiles.allSatisfy { t in
      let (x, y) = spots.marker(t, offset: offset)
      return probe.pixel(w, x: x, y: y).map(markers.contains) ?? false
    }
  }
  while !playing(visible, offset: 0) {
    if now() - t0 > 60_000_000_000 { fail("the visible tiles never played") }
    sleepMS(20)
  }
  let firstPlayingMS = ms(now() - t0)
  log("gridbench: 12 visible tiles playing after \(fmt(firstPlayingMS, 0)) ms; waiting for their first loop")
  // The last visible tile's first loop ends 2 s after it started; the row ahead too.
  sleepMS(4000)
  let g0 = cpuSeconds(pid) ?? .nan
  let x0 = cpuSeconds(xvfb) ?? .nan
  let c0 = now()
  sleepMS(c.seconds * 1000)
  let wall = Double(now() - c0) / 1e9
  let cpuViewer = ((cpuSeconds(pid) ?? .nan) - g0) / wall
  let cpuServer = ((cpuSeconds(xvfb) ?? .nan) - x0) / wall
  log("gridbench: CPU gifview \(fmt(cpuViewer, 3)) + Xvfb \(fmt(cpuServer, 3)) s/s")

  // Frame intervals of the visible tiles.
  var last: [Int: (t: UInt64, k: Int)] = [:]
  var errors: [Double] = []
  var skipped = 0
  // One tile at a time (a share of the time each), so a read takes a fraction of a ms.
  let share = UInt64(c.seconds * 1e9) / UInt64(visible.count)
  for t in visible {
    let p0 = now()
    while now() - p0 < share {
      let (x, y) = spots.marker(t, offset: 0)
      let before = now()
      guard let colour = probe.pixel(w, x: x, y: y) else { continue }
      let at = before / 2 + now() / 2
      guard let k = (0..<frames).first(where: { marker($0) == colour }) else { continue }
      if let l = last[t], l.k != k {
        let steps = (k - l.k + frames) % frames
        if steps > 1 { skipped += steps - 1 }
        errors.append(abs(ms(at - l.t) - Double(steps) * 50))
        last[t] = (at, k)
      } else if last[t] == nil {
        last[t] = (at, k)
      }
    }
  }
  let p95 = percentile(errors, 0.95)
  let p50 = percentile(errors, 0.5)
  log("gridbench: \(errors.count) intervals, p95 error \(fmt(p95, 2)) ms")

  // Page scroll: PageDown, then the top-left tile shows source 9 (the row that was partly
  // in view); Home and wait for the tiles to reload between tries.
  var latencies: [Double] = []
  let target = layout.moved(0, .pageDown)
  let after = layout.offset(revealing: target, from: layout.pageStep)
  let topLeft = layout.visibleRange(offset: after).lowerBound
  for _ in 0..<5 {
    let (x, y) = spots.source(topLeft, offset: after)
    let want = sourceColor(topLeft)
    let k0 = now()
    probe.sendKey(w, keysym: 0xff56)
    while probe.pixel(w, x: x, y: y) != want && now() - k0 < 5_000_000_000 {}
    latencies.append(ms(now() - k0))
    probe.sendKey(w, keysym: 0xff50)  // Home
    let h0 = now()
    while !playing(visible, offset: 0) && now() - h0 < 20_000_000_000 { sleepMS(10) }
    sleepMS(2500)
  }
  let httpRSS = peakRSSMB(pid)
  stop(pid)
  log("gridbench: page scroll \(latencies.map { fmt($0, 1) }) ms, peak RSS \(fmt(httpRSS, 1)) MB")

  // MARK: 1 000 local sources
  let local1000 = GridLayout(tileWidth: 320, tileHeight: 240, viewportWidth: 1270, viewportHeight: 1000, count: 1000)
  let l0 = now()
  let lpid = spawn(
    [c.gifview, "--grid", "--geometry", "1280x1000", local], display: display, stderrPath: "\(c.out)/gifview-local.err")
  guard let lw = probe.waitForWindow(pid: lpid, timeoutMS: 10_000) else { fail("no gifview window (local)") }
  let mappedMS = ms(now() - l0)
  let lspots = Spots(layout: local1000)
  /// Every tile whose marker is in the window shows a frame's marker.
  func localPlaying(_ offset: Int) -> Bool {
    local1000.visibleRange(offset: offset).allSatisfy { t in
      let (x, y) = lspots.marker(t, offset: offset)
      guard y >= 0 && y < 1000 else { return true }
      return probe.pixel(lw, x: x, y: y).map(markers.contains) ?? false
    }
  }
  while !localPlaying(0) && now() - l0 < 30_000_000_000 {}
  let localFirstMS = ms(now() - l0)
  log(
    "gridbench: 1000 local: window after \(fmt(mappedMS, 0)) ms, visible tiles playing after \(fmt(localFirstMS, 0)) ms"
  )
  // Page through all of them, 120 ms a page.
  let pages = local1000.maxOffset / local1000.pageStep + 1
  for _ in 0..<pages {
    probe.sendKey(lw, keysym: 0xff56)
    sleepMS(120)
  }
  sleepMS(1000)
  let localRSS = peakRSSMB(lpid)
  let atEnd = localPlaying(local1000.maxOffset)
  stop(lpid)
  log("gridbench: paged \(pages) times; last tiles playing: \(atEnd); peak RSS \(fmt(localRSS, 1)) MB")

  let lines = [
    "| measure (one run) | gifview | target |",
    "| --- | ---: | ---: |",
    "| 60 × 480x270×40 over HTTP: 12 visible tiles playing after launch (ms) | \(fmt(firstPlayingMS, 0)) | |",
    "| frame interval error, p95 over \(errors.count) intervals of the 12 visible tiles (ms) | \(fmt(p95, 2)) | ≤ 5 |",
    "| frame interval error, median / max (ms) | \(fmt(p50, 2)) / \(fmt(errors.max() ?? .nan, 2)) | |",
    "| frames skipped in those intervals | \(skipped) | |",
    "| CPU after the first loop, gifview (s per s) | \(fmt(cpuViewer, 3)) | |",
    "| CPU after the first loop, Xvfb (s per s) | \(fmt(cpuServer, 3)) | |",
    "| CPU after the first loop, gifview + Xvfb (s per s) | \(fmt(cpuViewer + cpuServer, 3)) | ≤ 0.15 |",
    "| PageDown → new picture, median of 5 (ms) | \(fmt(median(latencies), 1)) | ≤ 16 |",
    "| PageDown → new picture, max of 5 (ms) | \(fmt(latencies.max() ?? .nan, 1)) | |",
    "| peak RSS, 60 over HTTP (MB) | \(fmt(httpRSS, 1)) | ≤ 256 |",
    "| 1 000 local: launch → window (ms) | \(fmt(mappedMS, 0)) | |",
    "| 1 000 local: launch → the 12 visible tiles playing (ms) | \(fmt(localFirstMS, 0)) | ≤ 500 |",
    "| 1 000 local: peak RSS after paging through all \(pages) pages (MB) | \(fmt(localRSS, 1)) | ≤ 256 |",
    "| 1 000 local: the last tiles play at the end | \(atEnd) | |",
  ]
  print(lines.joined(separator: "\n"))
  print("\nLoad average at the end (2-core machine, shared): \(loadAverage()).")
  return 0
}

private func loadAverage() -> String {
  var l = [Double](repeating: 0, count: 3)
  return getloadavg(&l, 3) == 3 ? l.map { fmt($0, 2) }.joined(separator: " ") : "n/a"
}
