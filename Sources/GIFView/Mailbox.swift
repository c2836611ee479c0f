import GIFDecoder
import GIFLoader
import Synchronization
import X11Window

/// What background work hands the UI thread.
enum Message: Sendable {
  case progress(received: Int, expected: Int?)
  case screen(ScreenInfo)
  case frame(FrameInfo, loopCount: Int?)
  /// All bytes arrived and were parsed; `warnings` is parse-level damage.
  case complete(warnings: [GIFWarning])
  /// The load or the decode failed; frames already sent stay.
  case failed(String)
  /// The frame cache rendered something.
  case rendered
}

/// A locked queue plus one byte on the wake-up pipe (STYLE 2.7): any thread posts,
/// the UI thread takes everything in one swap.
final class Mailbox: Sendable {
  private let queue = Mutex<[(generation: Int, message: Message)]>([])
  let pipe = WakePipe()

  func post(_ message: Message, generation: Int) {
    let wasEmpty = queue.withLock { q in
      let e = q.isEmpty
      q.append((generation, message))
      return e
    }
    if wasEmpty { pipe.wake() }
  }

  /// Everything posted so far (the caller drains the pipe when poll() says it is readable).
  func take() -> [(generation: Int, message: Message)] {
    queue.withLock { q in
      let all = q
      q.removeAll(keepingCapacity: true)
      return all
    }
  }
}
