import GIFDecoder
import GIFLoader
import Glibc
import X11Window

extension GIFView {
  /// The window's first size: `--geometry`, else 320×240 until the GIF's size is known
  /// (a local file's header is read before the window maps: see `presizeFromLocalHeader`).
  func initialWindowOptions() -> WindowOptions {
    var o = WindowOptions(title: title, width: 320, height: 240, useSHM: options.useSHM, fullscreen: options.fullscreen)
    o.display = options.display
    if let g = options.geometry {
      (o.width, o.height, o.x, o.y) = (g.width, g.height, g.x, g.y)
    } else if isGrid {
      (o.width, o.height) = (800, 600)
    }
    return o
  }

  /// The GIF's size at 1:1 when it fits in 90 % of the screen, else scaled down keeping
  /// the aspect (DESIGN §5).
  func windowSize(forImage w: Int, _ h: Int) -> (Int, Int) {
    guard let window else { return (w, h) }
    let s = window.screenSize
    let maxW = Double(s.width) * 0.9
    let maxH = Double(s.height) * 0.9
    if Double(w) <= maxW && Double(h) <= maxH { return (w, h) }
    let k = min(maxW / Double(w), maxH / Double(h))
    return (max(1, Int(Double(w) * k)), max(1, Int(Double(h) * k)))
  }

  /// Once the size is known the window takes the image's size (unless `--geometry`).
  func fitWindowToImage() {
    guard !sizedForImage, options.geometry == nil, !options.fullscreen, let screen = player.screen, let window
    else { return }
    sizedForImage = true
    let (w, h) = windowSize(forImage: screen.width, screen.height)
    if w != window.width || h != window.height { window.resize(width: w, height: h) }
  }

  /// For a local file the size is read from its header before the window maps, so the
  /// window never jumps.
  func presizeFromLocalHeader() {
    guard options.geometry == nil, !isGrid, case .path(let path) = player.source else { return }
    // Regular files only: a pipe or FIFO (`gifview <(curl …)`) must be left to the loader
    // alone, and must not block the UI thread.
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return }
    var header = [UInt8](repeating: 0, count: 10)
    guard pread(fd, &header, 10, 0) == 10, header[0..<4] == [0x47, 0x49, 0x46, 0x38] else { return }
    let w = Int(header[6]) | Int(header[7]) << 8
    let h = Int(header[8]) | Int(header[9]) << 8
    guard w > 0, h > 0, let window else { return }
    let (ww, wh) = windowSize(forImage: w, h)
    sizedForImage = true
    window.resize(width: ww, height: wh)
  }

  /// The UI thread's loop (DESIGN §1): drain the mailbox and X, advance the timelines,
  /// draw once, then poll() the X fd and the wake-up pipe until the next deadline.
  /// Paused, still, or waiting with nothing animated: poll() without a timeout.
  func eventLoop() {
    guard let window else { return }
    presizeFromLocalHeader()
    window.map()
    var xReadable = true
    while !quit {
      for (id, m) in mailbox.take() { dispatch(id, m) }
      // Read from the X socket only when poll() said so (or Xlib holds events already).
      if xReadable || window.hasQueuedEvents {
        for event in window.pendingEvents() { handle(event) }
      }
      if quit { break }
      let now = clock.nowNS
      let step = spinnerStep(now: now)
      for p in visible where p.tick(now: now, spinnerStep: step, options: options) { needsRedraw = true }
      if needsRedraw { redraw(now: now) }
      if window.hasQueuedEvents { continue }
      let timeout = nextWake(now: clock.nowNS).map { due -> UInt64 in
        let now = clock.nowNS
        return due <= now ? 0 : due - now
      }
      let ready = pollReadable([window.fileDescriptor, mailbox.pipe.readFD], timeoutNS: timeout)
      if ready[1] { mailbox.pipe.drain() }
      xReadable = ready[0]
    }
  }

  func handle(_ event: WindowEvent) {
    switch event {
    case .expose, .mapped, .resized: needsRedraw = true
    case .closeRequested: quit = true
    case .key(let key): if let c = command(for: key) { perform(c) }
    case .button(let b, _, _): if let c = command(forButton: b) { perform(c) }
    }
  }

  /// When something on screen must change next; nil = nothing scheduled.
  func nextWake(now: UInt64) -> UInt64? {
    let spin = nextSpinnerStep(now: now)
    return visible.compactMap { $0.nextWake(now: now, nextSpinnerStep: spin) }.min()
  }

  func spinnerStep(now: UInt64) -> Int { Int((now - launchNS) / Spinner.stepNS) % Spinner.spokes }

  func nextSpinnerStep(now: UInt64) -> UInt64 {
    launchNS + ((now - launchNS) / Spinner.stepNS + 1) * Spinner.stepNS
  }
}
