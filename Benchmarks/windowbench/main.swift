// windowbench: issue 3's measured targets, gifview against gifsicle's gifview in the same
// run, under an Xvfb of its own (Benchmarks/window.sh builds and runs it).
//
//   windowbench [--gifview PATH] [--gifsicle PATH] [--launches N] [--seconds S]
//               [--out DIR] [--only launch,timing,cpu] [--poll-pause-us N]
//
// 1. launch: time from posix_spawn to the window showing frame 0's exact colour at its
//    last pixel (bottom-right, drawn last in any top-down order), a 640x480 GIF; the
//    whole window is then checked against frame 0. Median of N launches, interleaved.
// 2. timing: a 640x480 GIF of 4 solid colours, 5 cs each, looping forever. One pixel is
//    polled as fast as possible for S seconds (after 1 s of warm-up); every change gets
//    a monotonic timestamp (the middle of the XGetImage round trip). The frame index k of
//    each change is counted from the changes: each gap adds round(gap / 50 ms) frames,
//    adjusted to agree with the colour step (so a skipped frame counts as 2). Error of a
//    change = (t − t0) − k·50 ms with t0 = the first change; MAE over all changes, drift
//    = error(last) − error(first).
// 3. cpu: a 640x480 GIF of 20 full-frame changes (a moving diagonal gradient), 5 cs each.
//    After the first loop, utime+stime of the viewer and of Xvfb from /proc/PID/stat over
//    S seconds, while this process sleeps (so Xvfb's figure is the viewer's work only).
//
// Prints a Markdown table on stdout, progress on stderr; exits 1 if a measurement could
// not be made (a viewer did not start, the window never showed the frame, ...).

import GIFTestSupport
import Glibc
import X11Window

// MARK: - Small helpers

func now() -> UInt64 {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

func ms(_ ns: UInt64) -> Double { Double(ns) / 1e6 }

func log(_ s: String) {
  var line = s + "\n"
  line.withUTF8 { b in _ = write(2, b.baseAddress, b.count) }
}

func fail(_ s: String) -> Never {
  log("windowbench: error: \(s)")
  exit(1)
}

func sleepMS(_ t: Double) { usleep(UInt32(max(0, t * 1000))) }

func median(_ v: [Double]) -> Double {
  guard !v.isEmpty else { return .nan }
  let s = v.sorted()
  return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func writeFile(_ bytes: [UInt8], to path: String) {
  guard let f = fopen(path, "wb") else { fail("cannot write \(path)") }
  let n = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
  guard n == bytes.count, fclose(f) == 0 else { fail("cannot write \(path)") }
}

func writeText(_ text: String, to path: String) { writeFile(Array(text.utf8), to: path) }

func makeDirectories(_ path: String) {
  var prefix = path.hasPrefix("/") ? "/" : ""
  for part in path.split(separator: "/") {
    prefix += part + "/"
    if mkdir(prefix, 0o755) != 0 && errno != EEXIST { fail("cannot create \(prefix)") }
  }
}

func fmt(_ v: Double, _ digits: Int = 2) -> String {
  guard v.isFinite else { return "n/a" }
  var buf = [CChar](repeating: 0, count: 64)
  _ = withVaList([v]) { vsnprintf(&buf, 64, "%.\(digits)f", $0) }
  return buf.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

// MARK: - Processes

/// Spawns `argv` with `DISPLAY` set (nil: as inherited); stdin from /dev/null, stdout to
/// `stdoutFD` (or /dev/null), stderr to `stderrPath` (or /dev/null).
func spawn(_ argv: [String], display: String?, stdoutFD: Int32? = nil, stderrPath: String? = nil) -> pid_t {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  if let stdoutFD {
    posix_spawn_file_actions_adddup2(&actions, stdoutFD, 1)
  } else {
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  }
  posix_spawn_file_actions_addopen(&actions, 2, stderrPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)

  var env: [String] = []
  var e = environ
  while let p = e.pointee {
    let s = String(cString: p)
    if display == nil || !s.hasPrefix("DISPLAY=") { env.append(s) }
    e += 1
  }
  if let display { env.append("DISPLAY=\(display)") }
  let cArgs = argv.map { strdup($0) } + [nil]
  let cEnv = env.map { strdup($0) } + [nil]
  defer {
    for a in cArgs { free(a) }
    for e in cEnv { free(e) }
  }
  var pid: pid_t = 0
  let r = posix_spawn(&pid, argv[0], &actions, nil, cArgs, cEnv)
  guard r == 0 else { fail("cannot start \(argv[0]): \(String(cString: strerror(r)))") }
  return pid
}

/// SIGTERM, then SIGKILL after a second; reaps it.
func stop(_ pid: pid_t) {
  kill(pid, SIGTERM)
  var status: Int32 = 0
  for _ in 0..<100 {
    if waitpid(pid, &status, WNOHANG) == pid { return }
    usleep(10_000)
  }
  kill(pid, SIGKILL)
  waitpid(pid, &status, 0)
}

func isAlive(_ pid: pid_t) -> Bool {
  var status: Int32 = 0
  return waitpid(pid, &status, WNOHANG) == 0
}

/// utime + stime of a process (all its threads), in seconds.
func cpuSeconds(_ pid: pid_t) -> Double? {
  guard let f = fopen("/proc/\(pid)/stat", "r") else { return nil }
  defer { fclose(f) }
  var buf = [CChar](repeating: 0, count: 4096)
  guard fgets(&buf, 4096, f) != nil else { return nil }
  let line = buf.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
  // The command name (field 2) may hold spaces: fields 3… follow the last ')'.
  guard let close = line.lastIndex(of: ")") else { return nil }
  let fields = line[line.index(after: close)...].split(separator: " ")
  // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
  guard fields.count > 12, let u = Double(fields[11]), let s = Double(fields[12]) else { return nil }
  return (u + s) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// `Xvfb -displayfd 1 -screen 0 1280x1024x24 -nolisten tcp`, its display from the pipe.
func startXvfb(screen: String = "1280x1024x24") -> (pid: pid_t, display: String) {
  var fds: [Int32] = [-1, -1]
  guard pipe(&fds) == 0 else { fail("pipe failed") }
  for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
  let candidates: [String] = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"]
  let exe = candidates.first { access($0, X_OK) == 0 }
  guard let exe else { fail("Xvfb is not installed") }
  let pid = spawn(
    [exe, "-displayfd", "1", "-screen", "0", screen, "-nolisten", "tcp"], display: nil, stdoutFD: fds[1])
  close(fds[1])
  var text = ""
  var pfd = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
  let deadline = now() + 10_000_000_000
  while !text.contains("\n") && now() < deadline {
    guard poll(&pfd, 1, 200) >= 0 else { continue }
    if pfd.revents == 0 { continue }
    var b = [UInt8](repeating: 0, count: 64)
    let n = read(fds[0], &b, 64)
    if n <= 0 { break }
    text += String(decoding: b[0..<n], as: UTF8.self)
  }
  close(fds[0])
  guard let n = Int(text.split(separator: "\n").first ?? "") else {
    stop(pid)
    fail("Xvfb did not report a display")
  }
  return (pid, ":\(n)")
}

// MARK: - GIFs

let width = 640
let height = 480

/// 256 distinct colours, none black or white (Xvfb's root weave), red = index.
let gradientPalette: [UInt8] = {
  var p: [UInt8] = []
  for i in 0..<256 {
    let blue: Int = ((i * 7 + 64) & 0xFF) | 0x10
    p += [UInt8(i), UInt8(255 - i), UInt8(blue)]
  }
  return p
}()

func rgb(_ palette: [UInt8], _ i: Int) -> UInt32 {
  UInt32(palette[3 * i]) << 16 | UInt32(palette[3 * i + 1]) << 8 | UInt32(palette[3 * i + 2])
}

/// launch.gif: frame 0 a textured 640x480 picture (kept 1 s), frame 1 another; forever.
func launchGIF() -> (bytes: [UInt8], frame0: [UInt32]) {
  var g = GIFBuilder(width: width, height: height, globalPalette: gradientPalette)
  g.loop(0)
  var frames: [[UInt8]] = []
  for f in 0..<2 {
    var idx = [UInt8](repeating: 0, count: width * height)
    for y in 0..<height {
      for x in 0..<width {
        // A gradient with a texture, so the decoder has real work (not one long run).
        let v = (x / 2 + y / 3 + ((x * 7) ^ (y * 13)) % 23 + f * 128) & 0xFF
        idx[y * width + x] = UInt8(v)
      }
    }
    frames.append(idx)
    g.control(delayCS: 100, disposal: 1)
    g.image(width: width, height: height, indices: idx)
  }
  g.trailer()
  return (g.bytes, frames[0].map { rgb(gradientPalette, Int($0)) })
}

let timingColors: [UInt32] = [0xE0_2020, 0x20_C040, 0x3050_E0, 0xE0_C020]
let timingPeriodNS: UInt64 = 50_000_000

/// timing.gif: 4 solid 640x480 frames, 5 cs each, forever.
func timingGIF() -> [UInt8] {
  let palette = timingColors.flatMap { c in [UInt8(c >> 16), UInt8(c >> 8 & 0xFF), UInt8(c & 0xFF)] }
  var g = GIFBuilder(width: width, height: height, globalPalette: palette)
  g.loop(0)
  for f in 0..<timingColors.count {
    g.control(delayCS: 5, disposal: 1)
    g.image(
      width: width, height: height, indices: [UInt8](repeating: UInt8(f), count: width * height), minimumCodeSize: 2)
  }
  g.trailer()
  return g.bytes
}

let cpuFrames = 20

/// cpu.gif: 20 frames of a diagonal gradient moving by 13 palette steps a frame (every
/// pixel changes every frame), 5 cs each (20 fps), forever.
func cpuGIF() -> [UInt8] {
  var g = GIFBuilder(width: width, height: height, globalPalette: gradientPalette)
  g.loop(0)
  var idx = [UInt8](repeating: 0, count: width * height)
  for f in 0..<cpuFrames {
    for y in 0..<height {
      for x in 0..<width { idx[y * width + x] = UInt8((x / 3 + y / 2 + 13 * f) & 0xFF) }
    }
    g.control(delayCS: 5, disposal: 1)
    g.image(width: width, height: height, indices: idx)
  }
  g.trailer()
  return g.bytes
}

// MARK: - Viewers

struct Viewer {
  let name: String
  let path: String
  /// Found by _NET_WM_PID (gifview sets it) or as the newest new Gifview window.
  let byPID: Bool
  /// Options before the file (e.g. a window size).
  var options: [String] = []

  func arguments(_ file: String) -> [String] { byPID ? [path] + options + [file] : [path, "-a"] + options + [file] }
}

final class Bench {
  let probe: WindowProbe
  let display: String
  let out: String

  init(display: String, out: String) throws {
    self.display = display
    self.out = out
    probe = try WindowProbe(display: display)
  }

  /// The viewer's top-level window once it exists (maybe not mapped yet).
  func findWindow(_ v: Viewer, pid: pid_t, before: Set<UInt>) -> UInt? {
    if v.byPID {
      return probe.windows(withClass: "Gifview").first { probe.property($0, "_NET_WM_PID")?.longs.first == Int(pid) }
    }
    return probe.topLevelWindows().reversed().first { w in
      !before.contains(w) && probe.wmClass(w)?.1 == "Gifview"
    }
  }

  /// Launches `v` on `file`; polls (every `pauseUS`) until its window's pixel (x, y) is
  /// one of `accept`. Answers the pid, the window and the ns from spawn to that moment.
  func launch(
    _ v: Viewer, _ file: String, x: Int, y: Int, accept: (UInt32) -> Bool, pauseUS: UInt32, tag: String
  ) -> (pid: pid_t, window: UInt, ns: UInt64, windowNS: UInt64)? {
    let before = Set(probe.topLevelWindows())
    let t0 = now()
    let pid = spawn(v.arguments(file), display: display, stderrPath: "\(out)/\(tag).stderr")
    var window: UInt?
    var windowNS: UInt64 = 0
    let deadline = t0 + 10_000_000_000
    while now() < deadline {
      if window == nil {
        window = findWindow(v, pid: pid, before: before)
        if window != nil { windowNS = now() - t0 }
      }
      if let w = window, let p = probe.pixel(w, x: x, y: y), accept(p) { return (pid, w, now() - t0, windowNS) }
      if !isAlive(pid) {
        log("windowbench: \(v.name) exited early (stderr in \(out)/\(tag).stderr)")
        return nil
      }
      if pauseUS > 0 { usleep(pauseUS) }
    }
    log("windowbench: \(v.name): no window showing the expected pixel within 10 s")
    stop(pid)
    return nil
  }

  // MARK: 1. Launch to first frame

  struct LaunchResult {
    var samples: [Double] = []
    var windowSamples: [Double] = []  // spawn to the window existing (found by the probe)
    var wrongPixels = 0  // in the whole-window check after the pixel matched
    var failures = 0
  }

  func measureLaunch(
    _ viewers: [Viewer], file: String, frame0: [UInt32], launches: Int, size: (width: Int, height: Int)? = nil
  ) -> [LaunchResult] {
    let (width, height) = size ?? (width, height)
    var results = [LaunchResult](repeating: LaunchResult(), count: viewers.count)
    let target = frame0[(height - 1) * width + (width - 1)]
    for round in 0..<launches {
      // Alternate who goes first, so neither always follows the other's teardown.
      let order = round % 2 == 0 ? Array(viewers.indices) : viewers.indices.reversed()
      for i in order {
        let v = viewers[i]
        guard
          let r = launch(
            v, file, x: width - 1, y: height - 1, accept: { $0 == target }, pauseUS: 100, tag: "launch-\(v.name)")
        else {
          results[i].failures += 1
          continue
        }
        results[i].samples.append(ms(r.ns))
        results[i].windowSamples.append(ms(r.windowNS))
        if let shot = probe.pixels(r.window), shot.width == width, shot.height == height {
          results[i].wrongPixels += zip(shot.pixels, frame0).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) }
        } else {
          results[i].wrongPixels += width * height
        }
        stop(r.pid)
        usleep(100_000)  // let the server tear the window down
      }
      log(
        "windowbench: launch \(round + 1)/\(launches): "
          + viewers.indices.map { "\(viewers[$0].name) \(fmt(results[$0].samples.last ?? .nan, 1)) ms" }.joined(
            separator: ", "))
    }
    return results
  }

  // MARK: 2. Frame timing

  struct TimingResult {
    var changes = 0
    var maeMS = Double.nan
    var driftMS = Double.nan
    var maxErrorMS = Double.nan
    var skipped = 0  // frames never seen (k advanced by more than 1)
    var samples = 0  // pixel reads
    var meanIntervalMS = Double.nan
    /// The same errors measured from the median phase instead of the first change (so
    /// one late first change does not shift them all), and their 95th percentile.
    var centredMAEMS = Double.nan
    var centredP95MS = Double.nan
    var late5 = 0  // changes more than 5 ms after the median phase
    var ok = false
  }

  /// Frame timing of `file` (frames of `timingColors` at (x, y) of the window, one every
  /// `periodNS`), nil point: the window's centre at 640x480.
  func measureTiming(
    _ v: Viewer, file: String, seconds: Double, pollPauseUS: UInt32, at point: (x: Int, y: Int)? = nil,
    periodNS period: UInt64 = timingPeriodNS, warmUpMS: Double = 1000
  ) -> TimingResult {
    var result = TimingResult()
    let cx = point?.x ?? width / 2
    let cy = point?.y ?? height / 2
    guard
      let r = launch(
        v, file, x: cx, y: cy, accept: { timingColors.contains($0) }, pauseUS: 200, tag: "timing-\(v.name)")
    else { return result }
    defer { stop(r.pid) }
    sleepMS(warmUpMS)  // warm-up: past the first loops
    var changes: [(t: UInt64, color: UInt32)] = []
    var last = probe.pixel(r.window, x: cx, y: cy)
    let end = now() + UInt64(seconds * 1e9)
    var reads = 0
    while true {
      let a = now()
      if a >= end { break }
      let p = probe.pixel(r.window, x: cx, y: cy)
      let b = now()
      reads += 1
      if p != last, let p {
        changes.append((a / 2 + b / 2, p))
        last = p
      }
      if pollPauseUS > 0 { usleep(pollPauseUS) }
    }
    result.samples = reads
    var csv = "t_ms,color,k,error_ms\n"
    guard changes.count >= 2 else {
      log("windowbench: \(v.name): \(changes.count) changes seen in \(seconds) s")
      return result
    }
    // Frame index of each change, counted from the changes (a gap of ~n periods is n
    // frames, made to agree with the colour step modulo the frame count).
    let n = timingColors.count
    var k = 0
    var errors: [Double] = []
    let t0 = changes[0].t
    for (i, c) in changes.enumerated() {
      if i > 0 {
        let gap = Double(c.t - changes[i - 1].t) / Double(period)
        let fromColor = timingColors.firstIndex(of: changes[i - 1].color) ?? 0
        let toColor = timingColors.firstIndex(of: c.color) ?? 0
        let step = ((toColor - fromColor) % n + n) % n
        var frames = max(1, Int(gap.rounded()))
        if timingColors.contains(c.color) && timingColors.contains(changes[i - 1].color) && step != 0 {
          // The nearest count ≥ 1 that lands on the colour seen.
          let candidates = stride(from: step, through: frames + n, by: n).filter { $0 >= 1 }
          frames = candidates.min { abs(Double($0) - gap) < abs(Double($1) - gap) } ?? frames
        }
        result.skipped += frames - 1
        k += frames
      }
      let e = (Double(c.t) - Double(t0) - Double(k) * Double(period)) / 1e6
      errors.append(e)
      csv += "\(fmt(ms(c.t - t0), 3)),\(String(c.color, radix: 16)),\(k),\(fmt(e, 3))\n"
    }
    writeText(csv, to: "\(out)/timing-\(v.name).csv")
    result.changes = changes.count
    result.maeMS = errors.map(abs).reduce(0, +) / Double(errors.count)
    result.driftMS = errors.last! - errors.first!
    result.maxErrorMS = errors.map(abs).max()!
    let phase = median(errors)
    let centred = errors.map { abs($0 - phase) }.sorted()
    result.centredMAEMS = centred.reduce(0, +) / Double(centred.count)
    result.centredP95MS = centred[min(centred.count - 1, Int(Double(centred.count) * 0.95))]
    result.late5 = errors.filter { $0 - phase > 5 }.count
    result.meanIntervalMS = ms(changes.last!.t - t0) / Double(changes.count - 1)
    result.ok = true
    return result
  }

  // MARK: 3. CPU

  struct CPUResult {
    var viewer = Double.nan
    var server = Double.nan
    var total: Double { viewer + server }
    var distinctColors = 0
    var ok = false
  }

  func measureCPU(_ v: Viewer, file: String, seconds: Double, serverPID: pid_t) -> CPUResult {
    var result = CPUResult()
    let cx = width / 2
    let cy = height / 2
    let colors = Set((0..<cpuFrames).map { f in rgb(gradientPalette, (cx / 3 + cy / 2 + 13 * f) & 0xFF) })
    guard
      let r = launch(v, file, x: cx, y: cy, accept: { colors.contains($0) }, pauseUS: 1000, tag: "cpu-\(v.name)")
    else { return result }
    defer { stop(r.pid) }
    // Past the first loop (1 s), then the harness keeps still while it is measured.
    sleepMS(1500)
    guard let v0 = cpuSeconds(r.pid), let s0 = cpuSeconds(serverPID) else { return result }
    let w0 = now()
    sleepMS(seconds * 1000)
    guard let v1 = cpuSeconds(r.pid), let s1 = cpuSeconds(serverPID) else { return result }
    let wall = Double(now() - w0) / 1e9
    // Still animating? Sample the pixel for a few frames (after the window).
    var seen = Set<UInt32>()
    for _ in 0..<30 {
      if let p = probe.pixel(r.window, x: cx, y: cy) { seen.insert(p) }
      usleep(10_000)
    }
    result.distinctColors = seen.count
    result.viewer = (v1 - v0) / wall
    result.server = (s1 - s0) / wall
    result.ok = true
    return result
  }
}

// MARK: - Main

struct Config {
  var gifview = ""
  var gifsicle = "/usr/bin/gifview"
  var launches = 10
  var seconds = 10.0
  var out = ""
  var only: Set<String> = ["launch", "timing", "cpu"]
  var pollPauseUS: UInt32 = 0
}

func parseArguments() -> Config {
  var c = Config()
  // Default: gifview next to this binary (both in .build/release).
  let me = CommandLine.arguments[0]
  let dir = me.contains("/") ? String(me[..<me.lastIndex(of: "/")!]) : "."
  c.gifview = dir + "/gifview"
  var it = CommandLine.arguments.dropFirst().makeIterator()
  while let a = it.next() {
    func value() -> String {
      guard let v = it.next() else { fail("\(a) needs a value") }
      return v
    }
    switch a {
    case "--gifview": c.gifview = value()
    case "--gifsicle": c.gifsicle = value()
    case "--launches": c.launches = Int(value()) ?? c.launches
    case "--seconds": c.seconds = Double(value()) ?? c.seconds
    case "--out": c.out = value()
    case "--only": c.only = Set(value().split(separator: ",").map(String.init))
    case "--poll-pause-us": c.pollPauseUS = UInt32(value()) ?? 0
    case "-h", "--help":
      print(
        "usage: windowbench [--gifview PATH] [--gifsicle PATH] [--launches N] [--seconds S] [--out DIR] [--only launch,timing,cpu] [--poll-pause-us N]"
      )
      exit(0)
    default: fail("unknown argument \(a)")
    }
  }
  if c.out.isEmpty {
    var template = Array("/tmp/windowbench-XXXXXX".utf8CString)
    guard let p = mkdtemp(&template) else { fail("mkdtemp failed") }
    c.out = String(cString: p)
  }
  return c
}

func runMain() -> Int32 {
  let config = parseArguments()
  for p in [config.gifview, config.gifsicle] where access(p, X_OK) != 0 { fail("\(p) is not executable") }
  makeDirectories(config.out)
  signal(SIGPIPE, SIG_IGN)

  log("windowbench: writing the GIFs into \(config.out)")
  let launchFile = "\(config.out)/launch.gif"
  let timingFile = "\(config.out)/timing.gif"
  let cpuFile = "\(config.out)/cpu.gif"
  let (launchBytes, frame0) = launchGIF()
  writeFile(launchBytes, to: launchFile)
  writeFile(timingGIF(), to: timingFile)
  writeFile(cpuGIF(), to: cpuFile)

  let xvfb = startXvfb()
  defer { stop(xvfb.pid) }
  log("windowbench: Xvfb on \(xvfb.display) (pid \(xvfb.pid))")
  let bench: Bench
  do { bench = try Bench(display: xvfb.display, out: config.out) } catch {
    fail("cannot open \(xvfb.display): \(error)")
  }

  let viewers = [
    Viewer(name: "gifview", path: config.gifview, byPID: true),
    Viewer(name: "gifsicle", path: config.gifsicle, byPID: false),
  ]
  var ok = true
  var load = [Double](repeating: 0, count: 3)
  _ = getloadavg(&load, 3)

  var launch: [Bench.LaunchResult] = []
  if config.only.contains("launch") {
    // One untimed launch each first, so neither pays for a cold binary or cold caches.
    for v in viewers {
      if let r = bench.launch(
        v, launchFile, x: width - 1, y: height - 1, accept: { $0 == frame0.last! }, pauseUS: 1000, tag: "warm-\(v.name)"
      ) {
        stop(r.pid)
      }
    }
    usleep(100_000)
    launch = bench.measureLaunch(viewers, file: launchFile, frame0: frame0, launches: config.launches)
    ok = ok && launch.allSatisfy { $0.failures == 0 }
  }
  var timing: [Bench.TimingResult] = []
  if config.only.contains("timing") {
    for v in viewers {
      log("windowbench: timing \(v.name) for \(fmt(config.seconds, 0)) s")
      timing.append(bench.measureTiming(v, file: timingFile, seconds: config.seconds, pollPauseUS: config.pollPauseUS))
      log(
        "windowbench:   \(timing.last!.changes) changes, \(timing.last!.samples) reads, MAE \(fmt(timing.last!.maeMS, 3)) ms, drift \(fmt(timing.last!.driftMS, 2)) ms"
      )
      usleep(100_000)
    }
    ok = ok && timing.allSatisfy(\.ok)
  }
  var cpu: [Bench.CPUResult] = []
  if config.only.contains("cpu") {
    for v in viewers {
      log("windowbench: cpu \(v.name) for \(fmt(config.seconds, 0)) s")
      cpu.append(bench.measureCPU(v, file: cpuFile, seconds: config.seconds, serverPID: xvfb.pid))
      let c = cpu.last!
      log(
        "windowbench:   viewer \(fmt(c.viewer, 3)) s/s, Xvfb \(fmt(c.server, 3)) s/s, \(c.distinctColors) colours seen after"
      )
      usleep(100_000)
    }
    ok = ok && cpu.allSatisfy(\.ok)
  }

  // MARK: The table
  func row(_ name: String, _ a: Double, _ b: Double, digits: Int, target: String, pass: Bool?) -> String {
    let ratio = b != 0 && a.isFinite && b.isFinite ? fmt(a / b, 2) : "n/a"
    let mark = pass.map { $0 ? "yes" : "**no**" } ?? ""
    return "| \(name) | \(fmt(a, digits)) | \(fmt(b, digits)) | \(ratio) | \(target) | \(mark) |"
  }
  var lines: [String] = []
  var missed: [String] = []
  lines.append("")
  lines.append(
    "gifview vs gifsicle's gifview (`gifview -a`), same run, Xvfb 1280x1024x24 (\(xvfb.display)); 640x480 GIFs; load average at start \(fmt(load[0], 2)) on \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) CPUs."
  )
  lines.append("")
  lines.append("| measure | gifview | gifsicle gifview | gifview/gifsicle | target (gifview) | met |")
  lines.append("|---|---:|---:|---:|---|---|")
  if launch.count == 2 {
    let a = median(launch[0].samples)
    let b = median(launch[1].samples)
    let pass = a <= 30 && launch[0].wrongPixels == 0
    if !pass { missed.append("launch to first frame") }
    lines.append(
      row("launch → first frame, median of \(config.launches) (ms)", a, b, digits: 1, target: "≤ 30 ms", pass: pass))
    lines.append(
      row(
        "launch → first frame, min (ms)", launch[0].samples.min() ?? .nan, launch[1].samples.min() ?? .nan, digits: 1,
        target: "", pass: nil))
    lines.append(
      row(
        "launch → first frame, max (ms)", launch[0].samples.max() ?? .nan, launch[1].samples.max() ?? .nan, digits: 1,
        target: "", pass: nil))
    lines.append(
      row(
        "launch → window exists, median (ms)", median(launch[0].windowSamples), median(launch[1].windowSamples),
        digits: 1, target: "", pass: nil))
    lines.append(
      "| wrong pixels in frame 0 after the match (all launches) | \(launch[0].wrongPixels) | \(launch[1].wrongPixels) | | 0 | |"
    )
  }
  if timing.count == 2 {
    let (a, b) = (timing[0], timing[1])
    let maePass = a.ok && a.maeMS <= 1
    let driftPass = a.ok && abs(a.driftMS) <= 5
    if !maePass { missed.append("frame timing MAE") }
    if !driftPass { missed.append("frame timing drift") }
    lines.append(
      row(
        "frame timing: mean abs error over \(fmt(config.seconds, 0)) s (ms)", a.maeMS, b.maeMS, digits: 3,
        target: "≤ 1 ms", pass: maePass))
    lines.append(
      row(
        "frame timing: drift, last − first error (ms)", a.driftMS, b.driftMS, digits: 2, target: "≤ 5 ms",
        pass: driftPass))
    lines.append(row("frame timing: max abs error (ms)", a.maxErrorMS, b.maxErrorMS, digits: 2, target: "", pass: nil))
    lines.append(
      row(
        "frame timing: MAE from the median phase instead of t0 (ms)", a.centredMAEMS, b.centredMAEMS, digits: 3,
        target: "", pass: nil))
    lines.append(
      row(
        "frame timing: p95 abs error from the median phase (ms)", a.centredP95MS, b.centredP95MS, digits: 2, target: "",
        pass: nil))
    lines.append("| frame timing: changes > 5 ms late (from the median phase) | \(a.late5) | \(b.late5) | | | |")
    lines.append(
      row(
        "frame timing: mean interval (ms, ideal 50)", a.meanIntervalMS, b.meanIntervalMS, digits: 3, target: "",
        pass: nil))
    lines.append(
      "| frame timing: changes seen / frames skipped | \(a.changes) / \(a.skipped) | \(b.changes) / \(b.skipped) | | | |"
    )
    lines.append("| frame timing: pixel reads (1×1 XGetImage) | \(a.samples) | \(b.samples) | | | |")
  }
  if cpu.count == 2 {
    let (a, b) = (cpu[0], cpu[1])
    let pass = a.ok && b.ok && a.total <= b.total
    if !pass { missed.append("CPU") }
    lines.append(row("CPU, viewer (s per wall s)", a.viewer, b.viewer, digits: 3, target: "", pass: nil))
    lines.append(row("CPU, Xvfb (s per wall s)", a.server, b.server, digits: 3, target: "", pass: nil))
    lines.append(
      row("CPU, viewer + Xvfb (s per wall s)", a.total, b.total, digits: 3, target: "≤ gifsicle's", pass: pass))
    lines.append(
      "| CPU: distinct colours at the centre in 300 ms after | \(a.distinctColors) | \(b.distinctColors) | | | |")
  }
  let pollText = config.pollPauseUS == 0 ? "as fast as possible" : "every \(config.pollPauseUS) µs + the read"
  lines.append("")
  lines.append(
    "Launch: posix_spawn to frame 0's exact colour at the window's bottom-right pixel (1×1 XGetImage every 0.1 ms), then the whole window compared with frame 0. Timing: 640x480, 4 solid colours, 5 cs, polled at the centre \(pollText) after 1 s of warm-up; k counted from the changes (t0 = the first change, as the target defines it; the 'median phase' rows measure from the median error instead). CPU: 640x480, 20 full-frame changes at 20 fps, utime+stime over \(fmt(config.seconds, 0)) s starting 1.5 s after the first frame, the harness idle. Raw data: \(config.out)."
  )
  lines.append("")
  lines.append(missed.isEmpty ? "gifview meets every target." : "gifview misses: \(missed.joined(separator: ", ")).")
  print(lines.joined(separator: "\n"))
  return ok ? 0 : 1
}

// `windowbench grid …`: the scrolling grid's targets (Grid.swift).
if CommandLine.arguments.dropFirst().first == "grid" {
  exit(runGridBench(Array(CommandLine.arguments.dropFirst(2))))
}
// `windowbench scaled …`: scaled playback and frame memory (Scaled.swift).
if CommandLine.arguments.dropFirst().first == "scaled" {
  exit(runScaledBench(Array(CommandLine.arguments.dropFirst(2))))
}
exit(runMain())
