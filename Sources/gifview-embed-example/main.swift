// gifview-embed-example A.gif B.gif: two GIFViews side by side, at 1:1, in a window that
// this program makes with plain Xlib, as any X11 host would. The README shows it as the
// example of using the library.
import CX11
import GIFPlayback
import GIFView
import Glibc
import X11Window

/// One line on stderr, then the exit status.
func fail(_ message: String, status: Int32 = 1) -> Never {
  let line = message + "\n"
  _ = line.withCString { write(2, $0, strlen($0)) }
  exit(status)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2 else {
  fail("usage: gifview-embed-example A.gif B.gif", status: 2)
}

// 1. Start both playbacks: they load and decode in the background, sharing one wake-up.
let wakeUp = WakeUpSignal()
var playbacks: [GIFPlayback] = []
for argument in arguments {
  do {
    playbacks.append(GIFPlayback(source: try .init(argument: argument), wakeUp: wakeUp))
  } catch {
    fail("gifview-embed-example: \(argument): \(error.message)")
  }
}

// 2. The window's size comes from the GIFs' sizes: wait for both headers.
while playbacks.contains(where: { $0.size == nil }) {
  for p in playbacks {
    p.tick()
    if case .failed(let error) = p.phase {
      fail("gifview-embed-example: \(p.source): \(error.message)")
    }
  }
  wakeUp.wait(timeoutNS: 100_000_000)
}
let (a, b) = (playbacks[0].size!, playbacks[1].size!)

// 3. The host's own window, with plain Xlib.
guard let display = XOpenDisplay(nil) else {
  fail("gifview-embed-example: cannot open display")
}
let window = XCreateSimpleWindow(
  display, XDefaultRootWindow(display), 0, 0, UInt32(a.width + b.width), UInt32(max(a.height, b.height)), 0, 0, 0)
var classHint = XClassHint()
"gifview-embed-example".withCString { name in
  classHint.res_name = UnsafeMutablePointer(mutating: name)
  classHint.res_class = UnsafeMutablePointer(mutating: name)
  XSetClassHint(display, window, &classHint)
}
XStoreName(display, window, "gifview-embed-example")
var deleteWindow = XInternAtom(display, "WM_DELETE_WINDOW", 0)
XSetWMProtocols(display, window, &deleteWindow, 1)
XSelectInput(display, window, StructureNotifyMask)
XMapWindow(display, window)

// 4. Two views in it, on the host's connection, each at 1:1.
let connection: X11Connection
do {
  connection = try X11Connection(borrowing: display)
} catch {
  fail("gifview-embed-example: \(error)")
}
let parent = XWindowID(rawValue: window)
let views = [
  GIFView(playback: playbacks[0], connection: connection, parent: parent, x: 0, y: 0, width: a.width, height: a.height),
  GIFView(
    playback: playbacks[1], connection: connection, parent: parent, x: a.width, y: 0, width: b.width,
    height: b.height),
]
for v in views {
  v.contentMode = .actual
  v.show()
}

// 5. Run until the window manager closes the window.
let loop = GIFViewRunLoop(connection: connection, wakeUp: wakeUp)
loop.views = views
do {
  try loop.run { _, event in event != .closeRequested }
} catch {
  fail("gifview-embed-example: \(error)")
}
exit(0)
