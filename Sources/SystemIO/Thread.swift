import Glibc

private final class ThreadBody {
  let run: @Sendable () -> Void
  init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// A detached pthread running `body`; false when the system refused one.
///
/// Blocking reads and steady background work (a render worker) get threads of their own
/// rather than the cooperative pool, which a host (or a test runner) may keep busy.
public func spawnDetachedThread(_ body: @escaping @Sendable () -> Void) -> Bool {
  let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
  var thread = pthread_t()
  let rc = pthread_create(
    &thread, nil,
    { context in
      Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
      return nil
    }, context)
  guard rc == 0 else {
    Unmanaged<ThreadBody>.fromOpaque(context).release()
    return false
  }
  pthread_detach(thread)
  return true
}
