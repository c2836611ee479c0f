import GIFDecoder
import GIFLoader
import Synchronization

/// One load of one source: bytes from `GIFLoader` are parsed as they arrive (off the UI
/// thread) and each frame is posted as soon as its data is complete.
final class LoadSession: Sendable {
  let generation: Int
  private let loader: GIFLoader
  private let mailbox: Mailbox
  private let decoder: Mutex<GIFDecoder>
  private let stopped = Mutex(false)

  init(source: Source, options: LoadOptions, limits: Limits, generation: Int, mailbox: Mailbox) {
    self.generation = generation
    self.mailbox = mailbox
    self.loader = GIFLoader(source: source, options: options)
    self.decoder = Mutex(GIFDecoder(limits: limits))
  }

  func start() {
    loader.start { [self] event in self.handle(event) }
  }

  func cancel() {
    stopped.withLock { $0 = true }
    loader.cancel()
  }

  private var isStopped: Bool { stopped.withLock { $0 } }

  private func post(_ m: Message) { mailbox.post(m, generation: generation) }

  private func handle(_ event: LoadEvent) {
    guard !isStopped else { return }
    switch event {
    case .progress(let received, let expected):
      post(.progress(received: received, expected: expected))
    case .data(let chunk):
      let failure = decoder.withLock { d -> String? in
        d.feed(chunk)
        return drain(&d)
      }
      if let failure {
        post(.failed(failure))
        cancel()
      }
    case .finished:
      let failure = decoder.withLock { d -> String? in
        d.finish()
        return drain(&d)
      }
      if let failure { post(.failed(failure)) }
    case .failed(let error):
      // Keep the frames that did arrive complete; then say what went wrong.
      decoder.withLock { d in
        d.finish()
        _ = drain(&d, completing: false)
      }
      post(.failed(error.description))
    }
  }

  /// Posts everything the decoder can hand out now; answers a fatal error's text.
  private func drain(_ d: inout GIFDecoder, completing: Bool = true) -> String? {
    do {
      while true {
        switch try d.next() {
        case .needMoreData: return nil
        case .screen(let s): post(.screen(s))
        case .frame(let f): post(.frame(f, loopCount: d.loopCount))
        case .end:
          if completing { post(.complete(warnings: d.warnings)) }
          return nil
        }
      }
    } catch {
      return error.description
    }
  }
}
