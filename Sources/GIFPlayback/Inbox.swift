import GIFDecoder
import Synchronization
import SystemIO

/// What background work (the load, the frame cache) hands a playback.
enum Message: Sendable {
  case progress(received: Int, expected: Int?)
  /// The header arrived; `data` is where frames sent without their bytes are read again.
  case screen(ScreenInfo, data: (any ImageDataSource)?)
  case frame(FrameInfo, loopCount: Int?)
  /// All bytes arrived and were parsed; `warnings` is parse-level damage.
  case complete(warnings: [GIFWarning])
  /// The load or the decode failed; frames already sent stay.
  case failed(PlaybackError)
  /// The frame cache rendered something.
  case rendered
}

/// Wakes the thread that drives playbacks: background work writes one byte, the host's
/// poll() on `fileDescriptor` returns, and the host calls `tick(now:)`. Several playbacks
/// (a grid of views) may share one, so the host polls a single descriptor.
public final class WakeUpSignal: Sendable {
  private let pipe = WakePipe()

  /// Creates a signal with its own self-pipe.
  public init() {}

  /// The descriptor to poll for input; readable when some playback has work.
  public var fileDescriptor: Int32 { pipe.readFD }

  /// Empties the pipe; call it when poll() says the descriptor is readable.
  public func drain() { pipe.drain() }

  /// Blocks until some playback has work or `timeoutNS` passes (nil: no limit), then
  /// drains: for hosts that drive playbacks without an X loop of their own.
  public func wait(timeoutNS: UInt64?) {
    if pollReadable([fileDescriptor], timeoutNS: timeoutNS)[0] { drain() }
  }

  /// Makes the descriptor readable: background work of the host's own (a reader of
  /// more sources) wakes the same loop.
  public func wake() { pipe.wake() }
}

/// One playback's locked queue (STYLE 2.7): any thread posts, the driving thread takes
/// everything in one swap. Messages of an older load (generation) are dropped on take.
final class Inbox: Sendable {
  private let queue = Mutex<[(generation: Int, message: Message)]>([])
  let signal: WakeUpSignal

  init(signal: WakeUpSignal) {
    self.signal = signal
  }

  func post(_ message: Message, generation: Int) { post([message], generation: generation) }

  /// Posts `messages` at once: a take sees all of them or none (the frames parsed from
  /// one chunk arrive together, so playing never starts with half of them).
  func post(_ messages: [Message], generation: Int) {
    guard !messages.isEmpty else { return }
    let wasEmpty = queue.withLock { q in
      let e = q.isEmpty
      q.append(contentsOf: messages.map { (generation, $0) })
      return e
    }
    if wasEmpty { signal.wake() }
  }

  func take() -> [(generation: Int, message: Message)] {
    queue.withLock { q in
      let all = q
      q.removeAll(keepingCapacity: true)
      return all
    }
  }
}
