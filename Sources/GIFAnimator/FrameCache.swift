import GIFDecoder
import Synchronization

/// Composited frames, rendered ahead of the play head off the UI thread
/// (FLAnimatedImage's idea): all frames are kept when they fit the budget, otherwise a
/// window of frames from the play head on. Memory stays within the budget (plus the
/// renderer's one working canvas) for any frame count.
///
/// Rendering is sequential (each canvas depends on the ones before it), so the worker
/// keeps one `FrameRenderer` and restarts it from frame 0 only when the play head
/// wraps or moves back past it.
public final class FrameCache: Sendable {
  public let screen: ScreenInfo
  public let format: PixelFormat
  public let budgetBytes: Int
  public var frameBytes: Int { screen.width * screen.height * 4 }

  private struct State {
    var frames: [FrameInfo] = []
    var complete = false
    var cached: [Int: [UInt32]] = [:]
    var head = 0  // the frame on screen
    var workerRunning = false
    var closed = false
    var warnings: [GIFWarning] = []
  }
  private let state = Mutex(State())
  /// Owned by the one running worker.
  private let worker: Mutex<Worker>
  private let onRendered: @Sendable () -> Void
  private let spawn: @Sendable (@escaping @Sendable () -> Void) -> Void

  private struct Worker: ~Copyable {
    var renderer: FrameRenderer
    var canvas: [UInt32]
    var nextIndex = 0  // the frame the renderer draws next
  }

  /// `onRendered` runs on the worker after each frame lands (the UI's wake-up);
  /// `spawn` runs the worker body on a background thread.
  public init(
    screen: ScreenInfo, format: PixelFormat, budgetBytes: Int = 64 << 20,
    spawn: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { body in
      Task.detached(priority: .userInitiated) { body() }
    },
    onRendered: @escaping @Sendable () -> Void = {}
  ) {
    self.screen = screen
    self.format = format
    self.budgetBytes = budgetBytes
    self.onRendered = onRendered
    self.spawn = spawn
    let renderer = FrameRenderer(screen: screen, format: format)
    worker = Mutex(Worker(renderer: renderer, canvas: [UInt32](repeating: 0, count: screen.width * screen.height)))
  }

  /// How many frames may be held at once (at least 2: the shown one and the next).
  public var capacity: Int { max(2, budgetBytes / max(frameBytes, 1)) }

  public func append(_ frame: FrameInfo) {
    state.withLock { $0.frames.append(frame) }
    kick()
  }

  public func complete() {
    state.withLock { $0.complete = true }
    kick()
  }

  public func close() {
    state.withLock {
      $0.closed = true
      $0.cached.removeAll()
    }
  }

  /// Pixel-level damage found so far.
  public var warnings: [GIFWarning] { state.withLock { $0.warnings } }

  public var cachedCount: Int { state.withLock { $0.cached.count } }
  public var cachedBytes: Int { cachedCount * frameBytes }

  /// Moves the play head; frames behind it may be evicted, frames ahead get rendered.
  public func setHead(_ index: Int) {
    // Called on every turn of the UI loop: only a move of the head can create work.
    let moved = state.withLock { s -> Bool in
      defer { s.head = index }
      return s.head != index
    }
    if moved { kick() }
  }

  /// The composited frame, or nil if it is not rendered yet.
  public func frame(_ index: Int) -> [UInt32]? {
    state.withLock { $0.cached[index] }
  }

  /// The indices that should be cached: from the head on, wrapping when all frames are
  /// known, at most `capacity` of them.
  private static func wanted(_ s: State, capacity: Int) -> [Int] {
    let n = s.frames.count
    guard n > 0 else { return [] }
    var out: [Int] = []
    var i = min(s.head, n - 1)
    while out.count < min(capacity, n) {
      out.append(i)
      i += 1
      if i == n {
        guard s.complete else { break }
        i = 0
      }
    }
    return out
  }

  private func kick() {
    let start = state.withLock { s -> Bool in
      // Nothing to render (every wanted frame is cached): no thread is woken.
      if s.workerRunning || s.closed || Self.nextTarget(s, capacity: capacity) == nil { return false }
      s.workerRunning = true
      return true
    }
    if start { spawn { [self] in self.runWorkerLoop() } }
  }

  private func runWorkerLoop() {
    runWorker()
    state.withLock { $0.workerRunning = false }
    // Something may have arrived between the last check and clearing the flag.
    let again = state.withLock { s in !s.closed && Self.nextTarget(s, capacity: capacity) != nil }
    if again { kick() }
  }

  private static func nextTarget(_ s: State, capacity: Int) -> Int? {
    wanted(s, capacity: capacity).first { s.cached[$0] == nil }
  }

  /// Renders until every wanted frame is cached (or the cache is closed).
  private func runWorker() {
    worker.withLock { w in
      while true {
        let target = state.withLock { s -> Int? in s.closed ? nil : Self.nextTarget(s, capacity: capacity) }
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
          let warning = w.canvas.withUnsafeMutableBufferPointer { w.renderer.render(frame, canvas: $0) }
          w.nextIndex += 1
          let canvas = w.canvas
          let stillWanted = state.withLock { s -> Bool in
            if let warning, !s.warnings.contains(warning) { s.warnings.append(warning) }
            let keep = Set(Self.wanted(s, capacity: capacity))
            if keep.contains(index) {
              s.cached[index] = canvas
              // Evict what is no longer wanted (behind the head).
              if s.cached.count > capacity {
                for k in s.cached.keys where !keep.contains(k) { s.cached[k] = nil }
              }
            }
            return keep.contains(target) && !s.closed
          }
          onRendered()
          if !stillWanted { break }  // the head moved: pick the next target afresh
        }
      }
    }
  }
}
