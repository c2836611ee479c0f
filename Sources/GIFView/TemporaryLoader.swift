// TEMPORARY while GIFLoader's network part lands: local sources only. Deleted when
// GIFLoader provides GIFLoader/LoadOptions/LoadEvent.
import GIFLoader


enum LoadEvent: Sendable {
  case progress(received: Int, expected: Int?)
  case data([UInt8])
  case finished
  case failed(LoadError)
}

final class GIFLoader: Sendable {
  let source: Source
  let options: LoadOptions
  init(source: Source, options: LoadOptions) {
    self.source = source
    self.options = options
  }
  func start(_ handler: @escaping @Sendable (LoadEvent) -> Void) {
    let source = self.source, max = options.maxSize
    Task.detached {
      do {
        var received = 0
        try LocalReader.read(source, maxBytes: max) { chunk, expected in
          received += chunk.count
          handler(.data(Array(chunk)))
          handler(.progress(received: received, expected: expected))
          return true
        }
        handler(.finished)
      } catch let e as LoadError {
        handler(.failed(e))
      } catch {}
    }
  }
  func cancel() {}
}
