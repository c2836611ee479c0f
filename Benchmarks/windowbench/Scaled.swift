// windowbench scaled: scaled playback, frame memory and launch to the first frame of
// stills (Benchmarks/scaled.sh runs it).
//
//   windowbench scaled --gifview PATH [--gifsicle PATH] [--seconds S] [--launches N] [--out DIR]
//
// 1. Scaled playback: a 1920x1080 GIF of 60 frames at 3 cs (33 fps; a textured gradient
//    with noise, 256 colours, so every frame costs real decoding), shown in a 960x540
//    window (`--geometry 960x540`: a 2:1 shrink). A 128x128 block at the top left has
//    a colour naming the frame; its window pixel (32, 32) is polled as fast as possible
//    for S seconds after 2 s of warm-up. Frames skipped and the interval error p95 (from
//    the median phase) are gifview's; gifsicle's gifview cannot scale, so it is not run.
// 2. Frame memory: peak RSS (VmHWM) of each viewer playing a 480x270 animation of 80
//    frame-optimised frames (a 40 MB loop of canvases) through three loops.
// 3. Launch to the correct first frame of detailed stills (a gradient with noise, 256
//    colours), 640x480 and 1920x1080, on a 2560x1600 Xvfb so both show at 1:1: median of
//    LAUNCHES (5), the two viewers interleaved; the window is checked whole afterwards.

import GIFTestSupport
import Glibc
import X11Window

private let sw = 1920
private let sh = 1080
private let scaledFrames = 60
private let scaledPeriodNS: UInt64 = 30_000_000

/// Frame k: the marker block in `timingColors[k % 4]`, the rest a moving textured
/// gradient (palette entries 4…255).
private func scaledGIF() -> [UInt8] {
  var palette = timingColors.flatMap { c in [UInt8(c >> 16), UInt8(c >> 8 & 0xFF), UInt8(c & 0xFF)] }
  palette += gradientPalette[(4 * 3)...]
  var g = GIFBuilder(width: sw, height: sh, globalPalette: palette)
  g.loop(0)
  var seed: UInt32 = 12345
  for f in 0..<scaledFrames {
    var idx = [UInt8](repeating: 0, count: sw * sh)
    for y in 0..<sh {
      for x in 0..<sw {
        if x < 128 && y < 128 {
          idx[y * sw + x] = UInt8(f % 4)
          continue
        }
        seed = seed &* 1_103_515_245 &+ 12345
        let v = (x / 8 + y / 6 + Int(seed >> 28) + f * 9) % 252
        idx[y * sw + x] = UInt8(4 + v)
      }
    }
    g.control(delayCS: 3, disposal: 1)
    g.image(width: sw, height: sh, indices: idx)
  }
  g.trailer()
  return g.bytes
}

/// 80 frames of 480x270: a full first frame, then a 120x68 patch moving over it
/// (transparent elsewhere), 4 cs each, forever: a typical web animation.
private func webGIF() -> [UInt8] {
  let (w, h) = (480, 270)
  var g = GIFBuilder(width: w, height: h, globalPalette: gradientPalette)
  g.loop(0)
  var first = [UInt8](repeating: 0, count: w * h)
  for y in 0..<h {
    for x in 0..<w { first[y * w + x] = UInt8((x / 2 + y / 3 + ((x * 7) ^ (y * 13)) % 23) & 0xFF) }
  }
  g.control(delayCS: 4, disposal: 1)
  g.image(width: w, height: h, indices: first)
  for f in 1..<80 {
    let (pw, ph) = (120, 68)
    let px = (f * 23) % (w - pw)
    let py = (f * 11) % (h - ph)
    var patch = [UInt8](repeating: 0, count: pw * ph)
    for i in 0..<(pw * ph) { patch[i] = UInt8((i % pw + i / pw + f * 31) & 0xFF) }
    g.control(delayCS: 4, disposal: 1)
    g.image(x: px, y: py, width: pw, height: ph, indices: patch)
  }
  g.trailer()
  return g.bytes
}

/// A w×h still: a diagonal gradient with noise over 256 colours; its canvas as 0x00RRGGBB.
private func stillGIF(_ w: Int, _ h: Int) -> (bytes: [UInt8], frame0: [UInt32]) {
  var g = GIFBuilder(width: w, height: h, globalPalette: gradientPalette)
  var seed: UInt32 = 99
  var idx = [UInt8](repeating: 0, count: w * h)
  for y in 0..<h {
    for x in 0..<w {
      seed = seed &* 1_103_515_245 &+ 12345
      idx[y * w + x] = UInt8(((x * 255 / w + y * 255 / h) / 2 + Int(seed >> 28)) & 0xFF)
    }
  }
  g.image(width: w, height: h, indices: idx)
  g.trailer()
  return (g.bytes, idx.map { rgb(gradientPalette, Int($0)) })
}

private func peakRSSMiB(_ pid: pid_t) -> Double {
  peakResidentKiB(pid: pid).map { Double($0) / 1024 } ?? .nan
}

func runScaledBench(_ args: [String]) -> Int32 {
  var gifview = ""
  var gifsicle = "/usr/bin/gifview"
  var seconds = 10.0
  var out = "/tmp/windowbench-scaled"
  var launches = 5
  var it = args.makeIterator()
  while let a = it.next() {
    guard let v = it.next() else { fail("\(a) needs a value") }
    switch a {
    case "--gifview": gifview = v
    case "--gifsicle": gifsicle = v
    case "--seconds": seconds = Double(v) ?? seconds
    case "--out": out = v
    case "--launches": launches = Int(v) ?? launches
    default: fail("unknown argument \(a)")
    }
  }
  for p in [gifview, gifsicle] where access(p, X_OK) != 0 { fail("\(p) is not executable") }
  makeDirectories(out)
  signal(SIGPIPE, SIG_IGN)
  log("windowbench: writing the GIFs into \(out)")
  let scaledFile = "\(out)/scaled-1920x1080x60.gif"
  let webFile = "\(out)/web-480x270x80.gif"
  writeFile(scaledGIF(), to: scaledFile)
  writeFile(webGIF(), to: webFile)

  let xvfb = startXvfb()
  defer { stop(xvfb.pid) }
  let bench: Bench
  do { bench = try Bench(display: xvfb.display, out: out) } catch { fail("cannot open \(xvfb.display): \(error)") }
  var load = [Double](repeating: 0, count: 3)
  _ = getloadavg(&load, 3)

  // 1. Scaled playback.
  var ours = Viewer(name: "gifview-scaled", path: gifview, byPID: true)
  ours.options = ["--geometry", "960x540"]
  log("windowbench: scaled playback for \(fmt(seconds, 0)) s")
  let t = bench.measureTiming(
    ours, file: scaledFile, seconds: seconds, pollPauseUS: 0, at: (32, 32), periodNS: scaledPeriodNS, warmUpMS: 2000)
  let expected = Int(seconds * 1e9 / Double(scaledPeriodNS))

  // 2. Frame memory, each viewer in turn.
  var rss: [Double] = []
  let viewers = [
    Viewer(name: "gifview", path: gifview, byPID: true), Viewer(name: "gifsicle", path: gifsicle, byPID: false),
  ]
  for v in viewers {
    let before = Set(bench.probe.topLevelWindows())
    let pid = spawn(v.arguments(webFile), display: xvfb.display, stderrPath: "\(out)/memory-\(v.name).stderr")
    var window: UInt?
    let deadline = now() + 10_000_000_000
    while window == nil && now() < deadline {
      window = bench.findWindow(v, pid: pid, before: before)
      usleep(5000)
    }
    sleepMS(80 * 40 * 3)  // three loops
    rss.append(window == nil ? .nan : peakRSSMiB(pid))
    stop(pid)
    usleep(100_000)
  }

  let skippedPass = t.ok && t.skipped <= 3
  let p95Pass = t.ok && t.centredP95MS <= 10
  // 3. Launch to the first frame of stills, at 1:1 on a larger screen.
  let big = startXvfb(screen: "2560x1600x24")
  defer { stop(big.pid) }
  let launchBench: Bench
  do { launchBench = try Bench(display: big.display, out: out) } catch { fail("cannot open \(big.display): \(error)") }
  var stills: [(name: String, results: [Bench.LaunchResult])] = []
  for (w, h) in [(640, 480), (1920, 1080)] {
    let (bytes, frame0) = stillGIF(w, h)
    let file = "\(out)/still-\(w)x\(h).gif"
    writeFile(bytes, to: file)
    let viewers = [
      Viewer(name: "gifview", path: gifview, byPID: true), Viewer(name: "gifsicle", path: gifsicle, byPID: false),
    ]
    // One untimed launch each first: neither pays for a cold binary or cold caches.
    for v in viewers {
      if let r = launchBench.launch(
        v, file, x: w - 1, y: h - 1, accept: { $0 == frame0.last! }, pauseUS: 1000, tag: "warm-\(v.name)")
      {
        stop(r.pid)
      }
    }
    log("windowbench: launch, \(w)x\(h) still")
    stills.append(
      ("\(w)x\(h)", launchBench.measureLaunch(viewers, file: file, frame0: frame0, launches: launches, size: (w, h))))
  }

  let rssPass = rss[0] <= 24
  var lines: [String] = []
  lines.append("")
  lines.append(
    "Scaled playback and frame memory, Xvfb 1280x1024x24 (\(xvfb.display)); load average at start \(fmt(load[0], 2)) on \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) CPUs."
  )
  lines.append("")
  lines.append("| measure | gifview | gifsicle gifview | target (gifview) | met |")
  lines.append("|---|---:|---:|---|---|")
  lines.append(
    "| 1920x1080 at 33 fps in 960x540: frames skipped in \(fmt(seconds, 0)) s (of \(expected)) | \(t.skipped) | | ≤ 3 | \(skippedPass ? "yes" : "**no**") |"
  )
  lines.append(
    "| 1920x1080 at 33 fps in 960x540: interval error p95 (ms) | \(fmt(t.centredP95MS, 2)) | | ≤ 10 ms | \(p95Pass ? "yes" : "**no**") |"
  )
  lines.append(
    "| 1920x1080 at 33 fps in 960x540: changes seen, MAE from the median phase (ms) | \(t.changes), \(fmt(t.centredMAEMS, 3)) | | | |"
  )
  lines.append(
    "| 480x270x80 web animation, three loops: peak RSS (MiB) | \(fmt(rss[0], 1)) | \(fmt(rss[1], 1)) | ≤ 24 MiB | \(rssPass ? "yes" : "**no**") |"
  )
  for (name, r) in stills {
    let (a, b) = (median(r[0].samples), median(r[1].samples))
    let pass = a <= b + 2 && r[0].wrongPixels == 0 && r[0].failures == 0
    lines.append(
      "| \(name) still: launch → correct first frame, median of \(launches) (ms) | \(fmt(a, 1)) | \(fmt(b, 1)) | ≤ gifsicle + 2 ms | \(pass ? "yes" : "**no**") |"
    )
    lines.append(
      "| \(name) still: wrong pixels after the match, launch failures | \(r[0].wrongPixels), \(r[0].failures) | \(r[1].wrongPixels), \(r[1].failures) | 0 | |"
    )
  }
  lines.append("")
  lines.append("Raw data: \(out).")
  print(lines.joined(separator: "\n"))
  return t.ok && rss.allSatisfy(\.isFinite) && stills.allSatisfy({ $0.results.allSatisfy { $0.failures == 0 } }) ? 0 : 1
}
