import SystemIO

#if canImport(Glibc)
  import Glibc
#endif

/// A source's bytes on disk, read again by offset instead of being held in memory
/// (DESIGN §1): a local regular file, or a download's file in the disk cache.
///
/// It reads with `pread` on a descriptor of its own (close-on-exec), which no other code
/// reads, seeks or closes, so any thread may read while the load goes on; the descriptor
/// closes when the last reference goes. A file that shrinks or changes meanwhile gives
/// short or different reads, never an error the caller must handle.
public final class RereadableFile: Sendable {
  private let fd: Int32

  /// Takes over `fd`: it is closed with this object.
  init(owning fd: Int32) { self.fd = fd }

  /// A descriptor of its own on the file `fd` is open on; nil when none can be made.
  static func duplicating(_ fd: Int32) -> RereadableFile? {
    let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
    return copy >= 0 ? RereadableFile(owning: copy) : nil
  }

  deinit { close(fd) }

  /// Reads up to `buffer.count` bytes from `offset`; answers how many were read (fewer
  /// at the end of the file, 0 past it or on a read error).
  public func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    guard offset >= 0, let base = buffer.baseAddress else { return 0 }
    var done = 0
    while done < buffer.count {
      switch valueOrErrno({ pread(fd, base + done, buffer.count - done, off_t(offset + done)) }) {
      case .success(let n) where n > 0: done += n
      default: return done
      }
    }
    return done
  }

  /// The file's size now (0 if it cannot be told).
  public var size: Int {
    var st = stat()
    return fstat(fd, &st) == 0 ? Int(st.st_size) : 0
  }
}
