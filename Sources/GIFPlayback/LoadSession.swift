import GIFDecoder
import GIFLoader
import Synchronization

/// One load of one source: bytes from `GIFLoader` are parsed as they arrive (off the UI
/// thread) and each frame is posted as soon as its data is complete.
///
/// When the loader says the bytes can be read again (a local file, a download spooled to
/// the disk cache), frames are posted without their compressed data, and the frame cache
/// reads it back from the file when it renders: memory does not grow with the file.
///
/// stdin can be read only once, so a stdin load records its bytes; a reload replays them.
final class LoadSession: Sendable {
  let generation: Int
  private let loader: GIFLoader?
  private let replay: [UInt8]?
  private let inbox: Inbox

  private struct State {
    var decoder: GIFDecoder
    let limits: Limits
    /// Where posted frames' data is read again (nil: frames keep their bytes).
    var data: (any ImageDataSource)?
    var fed = false
    var stopped = false
    /// `.complete` or `.failed` was posted: nothing more is fed or posted.
    var ended = false
    var recording: [UInt8]?
    var recordingComplete = false
  }
  private let state: Mutex<State>

  init(source: Source, options: LoadOptions, limits: Limits, generation: Int, inbox: Inbox) {
    self.generation = generation
    self.inbox = inbox
    self.loader = GIFLoader(source: source, options: options)
    self.replay = nil
    self.state = Mutex(
      State(decoder: GIFDecoder(limits: limits), limits: limits, recording: source == .stdin ? [] : nil))
  }

  /// A load that plays back bytes an earlier stdin load recorded.
  init(replaying bytes: [UInt8], limits: Limits, generation: Int, inbox: Inbox) {
    self.generation = generation
    self.inbox = inbox
    self.loader = nil
    self.replay = bytes
    self.state = Mutex(State(decoder: GIFDecoder(limits: limits), limits: limits, recording: nil))
  }

  func start() {
    if let loader {
      loader.start { [self] event in self.handle(event) }
    } else if let replay {
      spawnWorker { [self] in
        self.handle(.progress(received: replay.count, expected: replay.count))
        self.handle(.data(replay))
        self.handle(.finished)
      }
    }
  }

  func cancel() {
    state.withLock { $0.stopped = true }
    loader?.cancel()
  }

  /// Everything stdin sent, once it has all arrived (nil for other sources or before).
  var recordedInput: [UInt8]? {
    if let replay { return replay }
    return state.withLock { $0.recordingComplete ? $0.recording : nil }
  }

  private func handle(_ event: LoadEvent) {
    var messages: [Message] = []
    var failed = false
    state.withLock { s in
      guard !s.stopped else { return }
      // stdin's bytes are kept to the end, even past the trailer, for a reload.
      if case .data(let chunk) = event, s.recording != nil { s.recording! += chunk }
      if case .finished = event, s.recording != nil { s.recordingComplete = true }
      guard !s.ended else { return }
      switch event {
      case .progress(let received, let expected):
        messages.append(.progress(received: received, expected: expected))
      case .rereadable(let file):
        // Only before the first byte: frames already parsed hold their data.
        guard !s.fed else { break }
        s.decoder = GIFDecoder(limits: s.limits, retainsImageData: false)
        s.data = FileImageData(file: file)
      case .data(let chunk):
        s.fed = true
        s.decoder.feed(chunk)
        failed = drain(&s, into: &messages)
      case .finished:
        s.decoder.finish()
        _ = drain(&s, into: &messages)
      case .failed(let error):
        // Keep the frames that did arrive complete; then say what went wrong (the load's
        // error, not the decoder's view of the cut-short bytes).
        s.decoder.finish()
        var parsed: [Message] = []
        _ = drain(&s, into: &parsed, completing: false)
        for m in parsed {
          if case .failed = m { continue }
          messages.append(m)
        }
        messages.append(.failed(PlaybackError(error)))
        s.ended = true
      }
    }
    inbox.post(messages, generation: generation)
    if failed { loader?.cancel() }
  }

  /// Queues everything the decoder can hand out now; answers true on a fatal error.
  private func drain(_ s: inout State, into messages: inout [Message], completing: Bool = true) -> Bool {
    do {
      while !s.ended {
        switch try s.decoder.next() {
        case .needMoreData: return false
        case .screen(let screen): messages.append(.screen(screen, data: s.data))
        case .frame(let f): messages.append(.frame(f, loopCount: s.decoder.loopCount))
        case .end:
          if completing {
            messages.append(.complete(warnings: s.decoder.warnings))
            s.ended = true
          }
          return false
        }
      }
      return false
    } catch {
      messages.append(.failed(PlaybackError(error)))
      s.ended = true
      return true
    }
  }
}

/// A loader's file as the renderer reads image data from it.
struct FileImageData: ImageDataSource {
  let file: RereadableFile

  func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    file.read(at: offset, into: buffer)
  }
}
