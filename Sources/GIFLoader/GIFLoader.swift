import Synchronization
import SystemIO

#if canImport(Glibc)
  import Glibc
#endif

/// Loads a source's bytes off the caller's thread (DESIGN §1: Source → GIFLoader → decoder).
///
/// Paths and stdin are read in chunks by `LocalReader`; http(s) URLs go through libcurl
/// with the checks of issue 4 (GIF8 signature, size cap, timeouts, TLS, redirects) and the
/// disk cache. Either way the handler sees `.progress`/`.data` events in order and exactly
/// one `.finished` or `.failed` at the end.
///
/// Keep a reference while loading only if you want to `cancel()`: a loader whose last
/// reference goes away keeps loading to the end.
public final class GIFLoader: Sendable {
  public let source: Source
  public let options: LoadOptions
  private let control = LoadControl()

  public init(source: Source, options: LoadOptions = LoadOptions()) {
    self.source = source
    self.options = options
  }

  /// Starts loading on a background thread; calls `handler` on that thread, in order,
  /// ending with .finished or .failed. A second call does nothing.
  ///
  /// The handler runs under the loader's delivery lock (that is how `cancel()` can promise
  /// silence), so it should hand the event on quickly, and `cancel()` must not be called
  /// while holding a lock that the handler takes. Calling `cancel()` from inside the
  /// handler is fine.
  public func start(_ handler: @escaping @Sendable (LoadEvent) -> Void) {
    guard control.begin() else { return }
    let source = source
    let options = options
    let control = control
    let started = spawnDetachedThread {
      Self.run(
        source, options, emit: { control.deliver($0, to: handler) },
        isCancelled: { control.isCancelled })
    }
    if !started {
      control.deliver(
        .failed(LoadError(.system("could not start a thread"), source: source.description)),
        to: handler)
    }
  }

  /// Stops the load soon (a network transfer within about a second; a blocking read of
  /// stdin only when it returns). No event is delivered after `cancel()` returns.
  public func cancel() {
    control.cancel()
  }

  /// Synchronous whole-body fetch for the headless modes (same checks and cache as `start`).
  public static func fetchAll(_ source: Source, options: LoadOptions = LoadOptions())
    throws(LoadError) -> [UInt8]
  {
    guard case .remote = source else {
      return try LocalReader.readAll(source, maxBytes: options.localMaxSize)
    }
    let collector = Collector()
    run(source, options, emit: collector.take, isCancelled: { false })
    if let failure = collector.failure { throw failure }
    return collector.bytes
  }

  // MARK: the work, on the loading thread

  private final class Collector {
    var bytes: [UInt8] = []
    var failure: LoadError?

    func take(_ event: LoadEvent) {
      switch event {
      case .progress(_, let expected?) where bytes.isEmpty: bytes.reserveCapacity(expected)
      case .data(let chunk): bytes += chunk
      case .failed(let error): failure = error
      default: break
      }
    }
  }

  /// Emits the source's events, ending with exactly one `.finished` or `.failed`.
  static func run(
    _ source: Source, _ options: LoadOptions, emit: @escaping (LoadEvent) -> Void,
    isCancelled: @escaping () -> Bool
  ) {
    do throws(LoadError) {
      switch source {
      case .path, .rawPath, .stdin:
        try readLocal(source, options, emit: emit, isCancelled: isCancelled)
      case .remote(let url):
        try loadRemote(url, name: source.description, options, emit: emit, isCancelled: isCancelled)
      }
      emit(.finished)
    } catch {
      emit(.failed(error))
    }
  }

  private static func readLocal(
    _ source: Source, _ options: LoadOptions, emit: (LoadEvent) -> Void, isCancelled: () -> Bool
  ) throws(LoadError) {
    var received = 0
    var stopped = false
    try LocalReader.read(source, maxBytes: options.localMaxSize, rereadable: { emit(.rereadable($0)) }) {
      chunk, expected in
      if isCancelled() {
        stopped = true
        return false
      }
      received += chunk.count
      emit(.data(Array(chunk)))
      emit(.progress(received: received, expected: expected))
      return true
    }
    if stopped { throw LoadError(.cancelled, source: source.description) }
  }

  /// `name`: the URL as messages show it (no credentials, controls escaped).
  private static func loadRemote(
    _ url: String, name: String, _ options: LoadOptions, emit: @escaping (LoadEvent) -> Void,
    isCancelled: @escaping () -> Bool
  ) throws(LoadError) {
    let cache =
      options.useCache
      ? DiskCache(directory: options.cacheDirectory, limit: options.cacheLimit) : nil
    let cached = cache?.openEntry(url, maxSize: options.maxSize)
    if let cache, let cached, cached.meta.freshUntil > Int(time(nil)) {
      cache.touch(DiskCache.key(for: url))
      try deliver(cached, source: name, emit: emit, isCancelled: isCancelled)
      return
    }
    let transfer = HTTPTransfer(
      url: url, options: options, validators: cached?.meta.validators, cache: cache, emit: emit,
      isCancelled: isCancelled)
    let outcome = transfer.perform()
    if let cache, let spool = transfer.spool {
      if case .complete(let response, _) = outcome, response.status == 200 {
        cache.store(url, spool: spool, response: response, now: Int(time(nil)))
      } else {
        cache.discard(spool)
      }
    }
    switch outcome {
    case .complete:
      break
    case .notModified(let response):
      // Validators are only sent for an intact entry, so `cached` is there.
      guard let cache, let cached else {
        throw LoadError(.http(status: 304, reason: response.reason), source: name)
      }
      cache.revalidated(cached.meta, key: cached.key, response: response, now: Int(time(nil)))
      try deliver(cached, source: name, emit: emit, isCancelled: isCancelled)
    case .failed(let kind):
      throw LoadError(kind, source: name)
    }
  }

  /// A cached body, read from its file in the same chunks and progress steps as a local
  /// file, and `.rereadable` from there.
  private static func deliver(
    _ entry: DiskCache.FileEntry, source: String, emit: (LoadEvent) -> Void, isCancelled: () -> Bool
  ) throws(LoadError) {
    let count = entry.meta.size
    emit(.rereadable(entry.file))
    emit(.progress(received: 0, expected: count))
    var offset = 0
    var chunk = [UInt8](repeating: 0, count: LocalReader.chunkSize)
    while offset < count {
      if isCancelled() { throw LoadError(.cancelled, source: source) }
      let want = min(count - offset, chunk.count)
      let n = chunk.withUnsafeMutableBytes {
        entry.file.read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<want]))
      }
      // The entry's file is ours (open since it was checked); a short read is a failing disk.
      guard n > 0 else { throw LoadError(.system("read error in the disk cache"), source: source) }
      offset += n
      emit(.data(Array(chunk[0..<n])))
      emit(.progress(received: offset, expected: count))
    }
  }
}

/// Cancellation and delivery: `deliver` calls the handler under a recursive lock unless
/// cancelled; `cancel` takes the same lock, so once it returns no handler call is running
/// or will run (recursive, so the handler itself may cancel).
final class LoadControl: Sendable {
  private let lock = RecursiveMutex()
  private let cancelled = Atomic<Bool>(false)
  private let started = Atomic<Bool>(false)

  /// True the first time only.
  func begin() -> Bool {
    started.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
  }

  var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

  func cancel() {
    lock.withLock { cancelled.store(true, ordering: .releasing) }
  }

  func deliver(_ event: LoadEvent, to handler: (LoadEvent) -> Void) {
    lock.withLock {
      if !isCancelled { handler(event) }
    }
  }
}

/// A pthread mutex of type PTHREAD_MUTEX_RECURSIVE; it lives at a fixed address on the heap.
final class RecursiveMutex: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    mutex = .allocate(capacity: 1)
    var attr = pthread_mutexattr_t()
    pthread_mutexattr_init(&attr)
    pthread_mutexattr_settype(&attr, Int32(PTHREAD_MUTEX_RECURSIVE))
    pthread_mutex_init(mutex, &attr)
    pthread_mutexattr_destroy(&attr)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  func withLock<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}
