import Glibc

/// read(2), retried after signals: the byte count (0 at end of file) or the error.
public func readRetrying(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Result<Int, Errno> {
  valueOrErrno { read(fd, buffer, count) }
}

/// Writes every byte of `bytes` to `fd`, retrying after signals and short writes.
public func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Void, Errno> {
  var done = 0
  while done < bytes.count {
    switch valueOrErrno({ write(fd, bytes.baseAddress! + done, bytes.count - done) }) {
    case .success(let n) where n > 0: done += n
    case .success: return .failure(Errno(code: EIO))  // a zero-byte write of a non-empty buffer
    case .failure(let e): return .failure(e)
    }
  }
  return .success(())
}
