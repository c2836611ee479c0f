/// The command line of DESIGN §4.
struct Options {
  enum Mode { case window, info, frames(String), check, help, version }
  enum ContentMode: String { case fit, fill, actual }

  var mode = Mode.window
  var sources: [String] = []
  /// Each source argument's bytes as the process got them (a path need not be UTF-8).
  var sourceBytes: [[UInt8]] = []
  var display: String?
  var geometry: String?
  var contentMode = ContentMode.fit
  var background = "checker"
  var fullscreen = false
  var paused = false
  var speed = 1.0
  var loop: Int??  // nil: as stored; .some(nil): forever; .some(n): n plays
  var exactDelays = false
  var noSHM = false
  var noFade = false
  var timeout: Double?
  var maxSize = 256 << 20
  /// DESIGN §2 limits: canvas pixels and input bytes (local files and stdin).
  var maxPixels = 1 << 28
  var maxInput = 1 << 30
  var noCache = false
  var grid = false
  var list: String?
  /// `--frames` output: `pam` (DESIGN §4) or `png`.
  var frameFormat = FrameFormat.pam
  enum FrameFormat: String { case pam, png }

  struct UsageError: Error { var message: String }

  /// The mode is `--frames DIR`.
  var writesFrames: Bool {
    if case .frames = mode { return true }
    return false
  }

  /// The largest `--timeout`, in seconds (one week).
  static let maxTimeout = 7.0 * 24 * 3600

  /// `raw`: the same arguments as bytes (`CommandLine.unsafeArgv`), when there; sources keep them.
  static func parse(_ args: [String], raw: [[UInt8]]? = nil) throws(UsageError) -> Options {
    var o = Options()
    var i = 0
    var onlySources = false
    var formatGiven = false
    func value(_ name: String) throws(UsageError) -> String {
      i += 1
      guard i < args.count else { throw UsageError(message: "option '\(name)' needs a value") }
      return args[i]
    }
    while i < args.count {
      var arg = args[i]
      var inline: String?
      if !onlySources, arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
        inline = String(arg[arg.index(after: eq)...])
        arg = String(arg[..<eq])
      }
      func val() throws(UsageError) -> String {
        if let inline { return inline }
        return try value(arg)
      }
      if onlySources || arg == "-" || !arg.hasPrefix("-") {
        o.sources.append(args[i])
        o.sourceBytes.append(raw.map { $0[i] } ?? Array(args[i].utf8))
        i += 1
        continue
      }
      switch arg {
      case "--": onlySources = true
      case "-h", "--help": o.mode = .help
      case "-V", "--version": o.mode = .version
      case "--info": o.mode = .info
      case "--frames": o.mode = .frames(try val())
      case "--check": o.mode = .check
      case "--format":
        let f = try val()
        guard let format = FrameFormat(rawValue: f) else {
          throw UsageError(message: "bad format '\(f)' (want png or pam)")
        }
        o.frameFormat = format
        formatGiven = true
      case "--display", "-d": o.display = try val()
      case "--geometry", "-g":
        let g = try val()
        guard parseGeometry(g) != nil else { throw UsageError(message: "bad geometry '\(g)' (want WxH[+X+Y])") }
        o.geometry = g
      case "--fit": o.contentMode = .fit
      case "--fill": o.contentMode = .fill
      case "--actual": o.contentMode = .actual
      case "--background":
        let b = try val()
        guard b == "checker" || parseColor(b) != nil else {
          throw UsageError(message: "bad background '\(b)' (want checker or #RRGGBB)")
        }
        o.background = b
      case "--fullscreen": o.fullscreen = true
      case "--paused": o.paused = true
      case "--speed":
        let s = try val()
        guard let v = Double(s), v >= 0.05, v <= 20 else {
          throw UsageError(message: "bad speed '\(s)' (want 0.05 to 20)")
        }
        o.speed = v
      case "--loop":
        let s = try val()
        if s == "forever" {
          o.loop = .some(nil)
        } else if let n = Int(s), n >= 1 {
          o.loop = .some(n)
        } else {
          throw UsageError(message: "bad loop count '\(s)' (want N ≥ 1 or forever)")
        }
      case "--exact-delays": o.exactDelays = true
      case "--no-shm": o.noSHM = true
      case "--no-fade": o.noFade = true
      case "--timeout":
        let s = try val()
        // Finite and at most a week of seconds: "inf", "nan" and 1e300 are mistakes, not limits.
        guard let v = Double(s), v > 0, v <= Self.maxTimeout else {
          throw UsageError(message: "bad timeout '\(s)' (want seconds, above 0 and at most \(Int(Self.maxTimeout)))")
        }
        o.timeout = v
      case "--max-size": o.maxSize = try positive(try val(), "size")
      case "--max-pixels": o.maxPixels = try positive(try val(), "pixel count")
      case "--max-input": o.maxInput = try positive(try val(), "size")
      case "--no-cache": o.noCache = true
      case "--grid": o.grid = true
      case "--list": o.list = try val()
      default: throw UsageError(message: "unknown option '\(arg)'")
      }
      i += 1
    }
    if formatGiven && !o.writesFrames { throw UsageError(message: "option '--format' goes with --frames") }
    return o
  }
}

/// A whole number above 0, or the usage error "bad WHAT 'TEXT'".
private func positive(_ text: String, _ what: String) throws(Options.UsageError) -> Int {
  guard let v = Int(text), v > 0 else { throw Options.UsageError(message: "bad \(what) '\(text)'") }
  return v
}

/// "WxH[+X+Y]" → (w, h, x, y).
func parseGeometry(_ s: String) -> (width: Int, height: Int, x: Int?, y: Int?)? {
  let parts = s.split(separator: "+", omittingEmptySubsequences: false)
  guard parts.count == 1 || parts.count == 3 else { return nil }
  let size = parts[0].split(separator: "x")
  guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), w > 0, h > 0, w <= 32767, h <= 32767
  else { return nil }
  if parts.count == 3 {
    guard let x = Int(parts[1]), let y = Int(parts[2]) else { return nil }
    return (w, h, x, y)
  }
  return (w, h, nil, nil)
}

/// "#RRGGBB" → (r, g, b).
func parseColor(_ s: String) -> (UInt8, UInt8, UInt8)? {
  guard s.hasPrefix("#"), s.count == 7, let v = UInt32(s.dropFirst(), radix: 16) else { return nil }
  return (UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff))
}

let usage =
  usageHead + "\n  Keys:\n" + keyTableLines(indent: "    ").joined(separator: "\n")
  + "\n    Mouse: " + mouseHelp.map { "\($0.action): \($0.help)" }.joined(separator: ", ")
  + "\n\n  Exit status: 0 ok, 1 a source failed, 2 usage error."

private let usageHead = """
  usage: gifview [OPTIONS] [SOURCE ...]
    SOURCE: a path, - (stdin), an http(s):// URL or a file:// URL

  Headless modes (no display is opened):
    --info            print JSON about each source
    --frames DIR      write each composited frame to DIR/frame-NNNN.pam
    --format pam|png  the file format of --frames (default pam)
    --check           decode every frame; exit 1 if any source is damaged

  Window options:
    -d, --display NAME   X display (default $DISPLAY)
    -g, --geometry WxH[+X+Y]   window size and position
    --fit | --fill | --actual   scale to fit (default), fill, or 1:1
    --background checker|#RRGGBB   what shows through transparency
    --fullscreen      start fullscreen
    --paused          start paused
    --speed X         playback speed factor, 0.05 to 20 (default 1)
    --loop N|forever  play N times, or forever (default: as the file says)
    --exact-delays    play 0–1 cs delays as stored (default: 100 ms like browsers)
    --no-shm          draw with XPutImage instead of MIT-SHM
    --no-fade         no cross-fade from the spinner to the first frame
    --list FILE|-     read more sources, one a line
    --grid            play every source at once, in a grid

  Network:
    --timeout SECONDS whole-transfer limit
    --max-size BYTES  largest download (default 268435456)
    --max-pixels N    largest canvas or image, in pixels (default 268435456 = 16384²)
    --max-input BYTES largest local file or stdin (default 1073741824)
    --no-cache        do not use ~/.cache/gifview

    -h, --help        this text
    -V, --version     print the version
    --                every later argument is a SOURCE

  """
