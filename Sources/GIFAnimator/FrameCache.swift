import GIFDecoder
import Synchronization

/// Composited frames, rendered ahead of the play head off the UI thread
/// (FLAnimatedImage's idea): all frames are kept when they fit the budget, otherwise a
/// window of frames from the play head on. Memory stays within the budget (plus the
/// renderer's one working canvas) for any frame count. Canvases hold only the part of
/// the screen that images have drawn on so far (`RenderedFrame`).
///
/// A host that keeps pictures of frames itself (a view keeping them on the X server)
/// says so with `hostKeeps(_:)`: the cache then drops its copy and keeps none until
/// `hostDroppedFrames()`, so a frame is kept once, not twice. Such a frame is still drawn
/// in its turn (the frames after it depend on it), just not stored.
///
/// Rendering is sequential (each canvas depends on the ones before it), so the worker
/// keeps one `FrameRenderer` and restarts it from frame 0 only when the play head
/// wraps or moves back past it.
public final class FrameCache: Sendable {
  /// The screen frames are rendered for.
  public let screen: ScreenInfo
  /// The pixel layout of rendered frames.
  public let format: PixelFormat
  /// Memory rendered frames may take together.
  public let budgetBytes: Int
  /// Where frames handed out without their data are read again when rendered.
  public let data: (any ImageDataSource)?
  /// Bytes of one rendered frame at most (a whole screen).
  public var frameBytes: Int { screen.width * screen.height * 4 }

  /// Bookkeeping is O(1) per frame for any frame count: the wanted frames are a window
  /// (head + count, wrapping when all frames are known), the cached ones an array by
  /// index plus their order of arrival for eviction.
  private struct State {
    var frames: [FrameInfo] = []
    var complete = false
    /// By frame index; nil = not cached.
    var cached: [RenderedFrame?] = []
    var cachedCount = 0
    var cachedPixels = 0
    /// By frame index: the host keeps its own picture of the frame.
    var hostKept: [Bool] = []
    /// Frames rendered ahead of the head at most (nil: as many as the budget holds).
    var lookahead: Int?
    /// By frame index: drawn by the worker since the head last passed it.
    var drawn: [Bool] = []
    /// Cached indices, oldest first, from `orderStart` on (eviction takes the oldest).
    var order: [Int] = []
    var orderStart = 0
    var head = 0  // the frame on screen
    /// The first `ready` frames of the window from `readyFrom` are known to be cached.
    var ready = 0
    var readyFrom = 0
    var workerRunning = false
    var closed = false
    var warnings: [GIFWarning] = []

    /// The window's first frame.
    var start: Int { min(head, max(frames.count - 1, 0)) }

    /// How many frames the window holds.
    func windowCount(capacity: Int) -> Int {
      let n = frames.count
      guard n > 0 else { return 0 }
      let limit = min(capacity, lookahead ?? capacity)
      return complete ? min(limit, n) : min(limit, n - start)
    }

    /// The frame at `offset` in the window.
    func index(at offset: Int) -> Int {
      let i = start + offset
      return i < frames.count ? i : i - frames.count
    }

    /// True when frame `i` is in the window: from the head on, wrapping when all frames
    /// are known, at most `capacity` of them.
    func isWanted(_ i: Int, capacity: Int) -> Bool {
      i >= 0 && i < frames.count && !hostKept[i] && isInWindow(i, capacity: capacity)
    }

    func isInWindow(_ i: Int, capacity: Int) -> Bool {
      let n = frames.count
      guard i >= 0 && i < n else { return false }
      let offset = i >= start ? i - start : (complete ? i + n - start : n)
      return offset < windowCount(capacity: capacity)
    }

    /// Moves `ready` to the window's current start: a step forward keeps what is known.
    mutating func followHead() {
      let from = start
      guard from != readyFrom else { return }
      let n = frames.count
      let step = from >= readyFrom ? from - readyFrom : (complete ? from + n - readyFrom : Int.max)
      ready = step <= ready ? ready - step : 0
      // Frames the head passed are drawn again in their next turn.
      for k in 0..<min(step, n) { drawn[(readyFrom + k) % n] = false }
      readyFrom = from
    }

    /// The first frame of the window not cached yet, nil when all are. A frame the host
    /// keeps is not cached but still drawn in turn, so the frames after it do not wait
    /// for a replay from frame 0.
    mutating func nextTarget(capacity: Int) -> Int? {
      followHead()
      let count = windowCount(capacity: capacity)
      while ready < count {
        let i = index(at: ready)
        if hostKept[i] {
          if !drawn[i] { return i }
        } else if cached[i] == nil {
          return i
        }
        ready += 1
      }
      return nil
    }

    /// Caches frame `i` (wanted), evicting frames outside the window, oldest first,
    /// while over `capacity`.
    mutating func store(_ frame: RenderedFrame, at i: Int, capacity: Int) {
      if let old = cached[i] {
        cachedPixels -= old.pixels.count
      } else {
        cachedCount += 1
        order.append(i)
      }
      cached[i] = frame
      cachedPixels += frame.pixels.count
      var tries = order.count - orderStart
      while cachedCount > capacity && tries > 0 {
        tries -= 1
        let oldest = order[orderStart]
        orderStart += 1
        if cached[oldest] == nil {
          continue  // dropped already (the host keeps it)
        } else if isWanted(oldest, capacity: capacity) {
          order.append(oldest)  // still wanted: it stays, behind the rest
        } else {
          drop(oldest)
        }
      }
      if orderStart >= 1024 && orderStart * 2 >= order.count {
        order.removeFirst(orderStart)
        orderStart = 0
      }
    }

    /// Frees frame `i`'s canvas (its place in `order` is skipped later).
    mutating func drop(_ i: Int) {
      guard let old = cached[i] else { return }
      cached[i] = nil
      cachedCount -= 1
      cachedPixels -= old.pixels.count
    }
  }
  private let state = Mutex(State())
  /// Owned by the one running worker.
  private let worker: Mutex<Worker>
  private let onRendered: @Sendable () -> Void
  private let spawn: @Sendable (@escaping @Sendable () -> Void) -> Void

  private struct Worker: ~Copyable {
    var renderer: FrameRenderer
    var canvas: [UInt32] = []
    var nextIndex = 0  // the frame the renderer draws next

    /// Widens the canvas when `frame` draws outside what earlier images touched.
    mutating func makeRoom(for frame: FrameInfo, screen: ScreenInfo) {
      let r = frame.rect.clipped(width: screen.width, height: screen.height)
      guard !renderer.area.contains(r) else { return }
      let area = renderer.area.union(r)
      var wider = [UInt32](repeating: 0, count: area.width * area.height)
      canvas.withUnsafeBufferPointer { old in
        wider.withUnsafeMutableBufferPointer { renderer.grow(to: area, from: old, into: $0) }
      }
      canvas = wider
    }
  }

  /// `onRendered` runs on the worker after each frame lands (the UI's wake-up);
  /// `spawn` runs the worker body on a background thread; `data` is the input that
  /// frames without their compressed bytes are read from (see `GIFDecoder.retainsImageData`).
  public init(
    screen: ScreenInfo, format: PixelFormat, budgetBytes: Int = 64 << 20, data: (any ImageDataSource)? = nil,
    spawn: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { body in
      Task.detached(priority: .userInitiated) { body() }
    },
    onRendered: @escaping @Sendable () -> Void = {}
  ) {
    self.screen = screen
    self.format = format
    self.budgetBytes = budgetBytes
    self.data = data
    self.onRendered = onRendered
    self.spawn = spawn
    // The canvas starts empty and grows with the images' rectangles.
    let renderer = FrameRenderer(screen: screen, format: format, area: Rect(x0: 0, y0: 0, x1: 0, y1: 0))
    worker = Mutex(Worker(renderer: renderer))
  }

  /// How many frames may be held at once (at least 2: the shown one and the next).
  public var capacity: Int { max(2, budgetBytes / max(frameBytes, 1)) }

  /// Adds the next frame as it arrives (rendered when wanted).
  public func append(_ frame: FrameInfo) {
    state.withLock {
      $0.frames.append(frame)
      $0.cached.append(nil)
      $0.hostKept.append(false)
      $0.drawn.append(false)
    }
    kick()
  }

  /// No more frames will come: the play head may wrap.
  public func complete() {
    state.withLock { $0.complete = true }
    kick()
  }

  /// Stops rendering and frees every frame.
  public func close() {
    state.withLock {
      $0.closed = true
      $0.cached = [RenderedFrame?](repeating: nil, count: $0.frames.count)
      $0.cachedCount = 0
      $0.cachedPixels = 0
      $0.order = []
      $0.orderStart = 0
    }
  }

  /// Pixel-level damage found so far.
  public var warnings: [GIFWarning] { state.withLock { $0.warnings } }

  /// Frames rendered and kept now.
  public var cachedCount: Int { state.withLock { $0.cachedCount } }
  /// Memory the kept frames take.
  public var cachedBytes: Int { state.withLock { $0.cachedPixels } * 4 }

  /// The host keeps its own picture of frame `index`: the cache frees its copy and keeps
  /// none (until `hostDroppedFrames()`).
  public func hostKeeps(_ index: Int) {
    state.withLock { s in
      guard index >= 0 && index < s.frames.count else { return }
      s.hostKept[index] = true
      s.drop(index)
    }
  }

  /// The host keeps frame `index` itself (see `hostKeeps(_:)`).
  public func isHostKept(_ index: Int) -> Bool {
    state.withLock { index >= 0 && index < $0.hostKept.count && $0.hostKept[index] }
  }

  /// The host let go of every picture it kept: the cache renders them again as needed.
  public func hostDroppedFrames() {
    state.withLock { s in
      guard s.hostKept.contains(true) else { return }
      s.hostKept = [Bool](repeating: false, count: s.frames.count)
      s.ready = 0
    }
    kick()
  }

  /// At most this many frames are rendered ahead of the head (nil: as many as the
  /// budget holds). A host that keeps frames itself wants few: only what is about to show.
  public var lookahead: Int? {
    get { state.withLock { $0.lookahead } }
    set {
      state.withLock { $0.lookahead = newValue.map { max(1, $0) } }
      kick()
    }
  }

  /// Moves the play head; frames behind it may be evicted, frames ahead get rendered.
  public func setHead(_ index: Int) {
    // Called on every turn of the UI loop: only a move of the head can create work.
    let moved = state.withLock { s -> Bool in
      defer { s.head = index }
      return s.head != index
    }
    if moved { kick() }
  }

  /// The composited frame, or nil if it is not rendered (or kept by the host).
  public func frame(_ index: Int) -> RenderedFrame? {
    state.withLock { index >= 0 && index < $0.cached.count ? $0.cached[index] : nil }
  }

  private func kick() {
    let start = state.withLock { s -> Bool in
      // Nothing to render (every wanted frame is cached): no thread is woken.
      if s.workerRunning || s.closed || s.nextTarget(capacity: capacity) == nil { return false }
      // A short window is topped up once half of it is used, not after every frame: a
      // thread a frame would cost more than tiny frames do.
      if s.lookahead != nil, case let count = s.windowCount(capacity: capacity), count >= 4, s.ready >= count / 2 {
        return false
      }
      s.workerRunning = true
      return true
    }
    if start { spawn { [self] in self.runWorkerLoop() } }
  }

  private func runWorkerLoop() {
    runWorker()
    state.withLock { $0.workerRunning = false }
    // Something may have arrived between the last check and clearing the flag.
    let again = state.withLock { s in !s.closed && s.nextTarget(capacity: capacity) != nil }
    if again { kick() }
  }

  /// Renders until every wanted frame is cached (or the cache is closed).
  private func runWorker() {
    worker.withLock { w in
      while true {
        let target = state.withLock { s -> Int? in s.closed ? nil : s.nextTarget(capacity: capacity) }
        guard let target else { return }
        if target < w.nextIndex {
          // Wrapped or moved back: replay from the first frame.
          w.canvas.withUnsafeMutableBufferPointer { w.renderer.reset(canvas: $0) }
          w.nextIndex = 0
        }
        while w.nextIndex <= target {
          let index = w.nextIndex
          // One frame at a time under the lock: appends on the UI thread never copy the
          // frame list, and a close or a jump of the head is seen at once.
          let frame = state.withLock { s -> FrameInfo? in
            s.closed || index >= s.frames.count ? nil : s.frames[index]
          }
          guard let frame else { return }
          w.makeRoom(for: frame, screen: screen)
          let warning = w.canvas.withUnsafeMutableBufferPointer { w.renderer.render(frame, canvas: $0, from: data) }
          w.nextIndex += 1
          let canvas = RenderedFrame(
            screenWidth: screen.width, screenHeight: screen.height, area: w.renderer.area, pixels: w.canvas)
          let stillWanted = state.withLock { s -> Bool in
            if let warning, !s.warnings.contains(warning) { s.warnings.append(warning) }
            s.drawn[index] = true
            if s.closed { return false }
            if s.isWanted(index, capacity: capacity) { s.store(canvas, at: index, capacity: capacity) }
            return s.isInWindow(target, capacity: capacity)
          }
          onRendered()
          if !stillWanted { break }  // the head moved: pick the next target afresh
        }
      }
    }
  }
}
