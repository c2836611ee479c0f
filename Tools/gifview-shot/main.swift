// gifview-shot: saves a window's pixels as a PNG, for `make run` without a display and
// `make screenshots` (xwd + ImageMagick's convert did this before).
//
//   gifview-shot [--display NAME] [--class CLASS | --id 0xWINDOW] [--wait MS] OUT.png
//
// Without --id: the first viewable top-level window of WM_CLASS class CLASS (default
// Gifview), waited for up to --wait milliseconds (default 5000).
import Glibc
import PNGCodec
import X11Window

func fail(_ message: String) -> Never {
  var line = "gifview-shot: error: " + message + "\n"
  line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
  exit(1)
}

var display = getenv("DISPLAY").map { String(cString: $0) }
var cls = "Gifview"
var id: UInt?
var waitMS = 5000
var out: String?
var args = CommandLine.arguments.dropFirst()
while let arg = args.popFirst() {
  func value() -> String {
    guard let v = args.popFirst() else { fail("\(arg) needs a value") }
    return v
  }
  switch arg {
  case "--display": display = value()
  case "--class": cls = value()
  case "--id":
    let v = value()
    guard let n = v.hasPrefix("0x") ? UInt(v.dropFirst(2), radix: 16) : UInt(v) else { fail("bad window id '\(v)'") }
    id = n
  case "--wait":
    guard let n = Int(value()), n >= 0 else { fail("bad --wait") }
    waitMS = n
  default:
    guard out == nil, !arg.hasPrefix("-") else {
      fail("usage: gifview-shot [--display NAME] [--class CLASS | --id 0xWINDOW] [--wait MS] OUT.png")
    }
    out = arg
  }
}
guard let out else { fail("no output file given") }
guard let display else { fail("no display (DISPLAY is not set)") }

let probe: WindowProbe
do {
  probe = try WindowProbe(display: display)
} catch {
  fail(error.message)
}
guard let window = id ?? probe.waitForWindow(withClass: cls, timeoutMS: waitMS) else {
  fail("no viewable window of class \(cls) on \(display)")
}
guard let shot = probe.pixels(window) else { fail("cannot read the pixels of window 0x\(String(window, radix: 16))") }
let png: [UInt8]
do {
  png = try PNG.encode(PNG.Image(width: shot.width, height: shot.height, argb: shot.pixels.map { $0 | 0xFF00_0000 }))
} catch {
  fail(error.message)
}
let fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
guard fd >= 0 else { fail("cannot write \(out): \(String(cString: strerror(errno)))") }
var done = 0
while done < png.count {
  let n = png.withUnsafeBytes { write(fd, $0.baseAddress! + done, png.count - done) }
  if n < 0 && errno == EINTR { continue }
  guard n > 0 else { fail("cannot write \(out): \(String(cString: strerror(errno)))") }
  done += n
}
close(fd)
