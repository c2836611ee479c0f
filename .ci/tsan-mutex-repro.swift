// A correct program that ThreadSanitizer flags (Swift 6.3.1, Linux): four threads append
// to an array inside Synchronization.Mutex.withLock. Run by make test-sanitize with
// .ci/tsan.supp, which must suppress exactly this report (exit 0, "Matched").
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

final class Box: Sendable {
  let state = Mutex<[Int]>([])
}

let box = Box()
var threads: [pthread_t] = []
for _ in 0..<4 {
  var thread = pthread_t()
  pthread_create(
    &thread, nil,
    { _ in
      for i in 0..<10_000 {
        box.state.withLock {
          $0.append(i)
          if $0.count > 100 { $0.removeAll() }
        }
      }
      return nil
    }, nil)
  threads.append(thread)
}
for thread in threads { pthread_join(thread, nil) }
print(box.state.withLock { $0.count })
