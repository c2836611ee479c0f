import GIFDecoder
import Synchronization
import SystemIO

/// Draws the frames about to be shown at the view's size and look, on a thread of its
/// own: at a deadline the UI thread then only copies a finished picture. Scaling a
/// 1920x1080 frame into a smaller view costs more than a frame lasts at 30 fps on a slow
/// machine, and must not delay the frame before it.
final class Prerenderer: Sendable {
  /// Everything a picture depends on besides its frame.
  struct Look: Equatable, Sendable {
    var load: Int
    var place: Placement
    var background: Background
    var width: Int
    var height: Int
  }

  private struct Job: Sendable {
    let index: Int
    let frame: RenderedFrame
    let look: Look
  }

  private struct State {
    var look: Look?
    var queue: [Job] = []
    /// Finished pictures for `look`, by frame index.
    var done: [Int: [UInt32]] = [:]
    var running = false
    var closed = false
  }
  private let state = Mutex(State())

  /// A picture landing wakes no one: the view takes it when its frame is due.
  init() {}

  /// Wants pictures of exactly `frames` for `look`: any other picture is let go, and
  /// missing ones are drawn in the order given.
  func want(_ frames: [(index: Int, frame: RenderedFrame)], look: Look) {
    let start = state.withLock { s -> Bool in
      guard !s.closed else { return false }
      if s.look != look {
        s.look = look
        s.done = [:]
        s.queue = []
      }
      let wanted = Set(frames.map(\.index))
      if s.done.keys.contains(where: { !wanted.contains($0) }) { s.done = s.done.filter { wanted.contains($0.key) } }
      s.queue.removeAll { !wanted.contains($0.index) }
      for (index, frame) in frames where s.done[index] == nil && !s.queue.contains(where: { $0.index == index }) {
        s.queue.append(Job(index: index, frame: frame, look: look))
      }
      guard !s.running, !s.queue.isEmpty else { return false }
      s.running = true
      return true
    }
    if start { run() }
  }

  /// The finished picture of frame `index` for `look` (0x00RRGGBB, `look`'s size).
  func picture(_ index: Int, look: Look) -> [UInt32]? {
    state.withLock { $0.look == look ? $0.done[index] : nil }
  }

  /// Lets every picture go and stops the worker after its current one.
  func close() {
    state.withLock { s in
      s.closed = true
      s.queue = []
      s.done = [:]
    }
  }

  private func run() {
    let started = spawnDetachedThread { [self] in
      while let job = self.next() {
        var out = [UInt32](repeating: 0, count: job.look.width * job.look.height)
        out.withUnsafeMutableBufferPointer { o in
          Painter.draw(
            frame: job.frame, at: job.look.place, over: job.look.background, into: o, width: job.look.width,
            tile: Tile(x0: 0, y0: 0, x1: job.look.width, y1: job.look.height))
        }
        self.state.withLock { s in
          if !s.closed && s.look == job.look { s.done[job.index] = out }
        }
      }
    }
    // Without a thread the view draws every frame itself, as it would without this.
    if !started { state.withLock { $0.running = false } }
  }

  /// The next job, or nil (and the worker ends) when there is none.
  private func next() -> Job? {
    state.withLock { s in
      guard !s.closed, !s.queue.isEmpty else {
        s.running = false
        return nil
      }
      return s.queue.removeFirst()
    }
  }
}
