// gifbench: times gifview's decoder on whole files held in memory.
//
//   gifbench [-n N] FILE...
//
// Each file is read once, then decoded N times after one untimed warm-up; each timed run
// parses the file, decodes every image's LZW data and composites every frame into one
// RGBA canvas (allocated once per file, as a viewer reuses its surface). One line per
// file, the same format as Benchmarks/giflib_bench.c prints:
//
//   NAME frames=F canvas=WxH reps=N median_ms=M min_ms=M hash=H
//
// `hash` is FNV-1a (64-bit) over every composited frame's pixels as little-endian RGBA
// words, from the warm-up run; the two harnesses agree on it when they agree on pixels.

import GIFDecoder

#if canImport(Glibc)
  import Glibc
#endif

func now() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

func readFile(_ path: String) -> [UInt8]? {
  guard let file = fopen(path, "rb") else { return nil }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 20)
  while true {
    let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
    if n == 0 { break }
    bytes += chunk[0..<n]
  }
  return ferror(file) == 0 ? bytes : nil
}

struct Failure: Error { var message: String }

func printError(_ message: String) {
  let line = Array(message.utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// The logical screen size, from the header alone.
func screenSize(_ bytes: [UInt8]) throws -> (width: Int, height: Int) {
  var decoder = GIFDecoder(bytes: bytes)
  while true {
    switch try decoder.next() {
    case .screen(let screen): return (screen.width, screen.height)
    case .frame, .end, .needMoreData: throw Failure(message: "no logical screen")
    }
  }
}

/// One full decode: parse, LZW and composite every frame; `body` sees each canvas.
/// Answers the frame count; damage of any kind is a failure (the corpus is intact).
@inline(never)
func decodeAll(
  _ bytes: [UInt8], canvas: UnsafeMutableBufferPointer<UInt32>,
  _ body: (UnsafeMutableBufferPointer<UInt32>) -> Void
) throws -> Int {
  var decoder = GIFDecoder(bytes: bytes)
  var renderer: FrameRenderer?
  var frames = 0
  loop: while true {
    switch try decoder.next() {
    case .screen(let screen):
      renderer = FrameRenderer(screen: screen, format: .rgba)
      renderer!.reset(canvas: canvas)
    case .frame(let frame):
      if let warning = renderer!.render(frame, canvas: canvas) {
        throw Failure(message: warning.description)
      }
      frames += 1
      body(canvas)
    case .end, .needMoreData:
      break loop
    }
  }
  if let warning = decoder.warnings.first { throw Failure(message: warning.description) }
  return frames
}

/// Keeps the timed runs' results alive (read at exit) so nothing is optimised away.
nonisolated(unsafe) var sink: UInt64 = 0

func bench(_ path: String, reps: Int) throws -> String {
  guard let bytes = readFile(path) else {
    throw Failure(message: "cannot read: \(String(cString: strerror(errno)))")
  }
  let (width, height) = try screenSize(bytes)
  let pixels = width * height
  let canvas = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: pixels)
  defer { canvas.deallocate() }
  canvas.initialize(repeating: 0)

  // Warm-up, with the full hash.
  var hash: UInt64 = 0xCBF2_9CE4_8422_2325
  let frames = try decodeAll(bytes, canvas: canvas) { canvas in
    for pixel in canvas { hash = (hash ^ UInt64(pixel)) &* 0x0000_0100_0000_01B3 }
  }

  var times: [Double] = []
  for _ in 0..<reps {
    var check: UInt64 = 0
    let t0 = now()
    _ = try decodeAll(bytes, canvas: canvas) { canvas in
      check =
        check &* 31 &+ UInt64(canvas[0]) &+ UInt64(canvas[pixels / 2]) &+ UInt64(canvas[pixels - 1])
    }
    times.append(now() - t0)
    sink &+= check
  }
  times.sort()
  let median = reps % 2 == 1 ? times[reps / 2] : (times[reps / 2 - 1] + times[reps / 2]) / 2
  let name = path.split(separator: "/").last.map(String.init) ?? path
  return "\(name) frames=\(frames) canvas=\(width)x\(height) reps=\(reps) "
    + "median_ms=\(fixed3(median * 1e3)) min_ms=\(fixed3(times[0] * 1e3)) hash=\(hex16(hash))"
}

func fixed3(_ v: Double) -> String {
  let thousandths = Int((v * 1000).rounded())
  let fraction = String(thousandths % 1000)
  return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}

func hex16(_ v: UInt64) -> String {
  let digits = String(v, radix: 16)
  return String(repeating: "0", count: 16 - digits.count) + digits
}

var reps = 5
var files: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  if argument == "-n", let value = arguments.popFirst(), let n = Int(value), n >= 1 {
    reps = n
  } else if argument.hasPrefix("-") {
    printError("usage: gifbench [-n N] FILE...\n")
    exit(2)
  } else {
    files.append(argument)
  }
}
if files.isEmpty {
  printError("usage: gifbench [-n N] FILE...\n")
  exit(2)
}
var status: Int32 = 0
for path in files {
  do {
    print(try bench(path, reps: reps))
  } catch let failure as Failure {
    printError("gifbench: \(path): \(failure.message)\n")
    status = 1
  } catch {
    printError("gifbench: \(path): \(error)\n")
    status = 1
  }
}
if sink == 0x5EED { printError("") }
exit(status)
