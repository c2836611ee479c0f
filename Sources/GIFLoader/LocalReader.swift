import SystemIO

#if canImport(Glibc)
  import Glibc
#endif

/// Reads a local file or stdin in chunks, on the calling thread.
public enum LocalReader {
  public static let chunkSize = 1 << 16

  /// Calls `body` with each chunk as it is read; stops early when `body` answers false.
  /// A path that names a regular file is handed to `rereadable` first, as a file of its
  /// own that can be read again by offset (a FIFO, a character device or stdin cannot).
  public static func read(
    _ source: Source, maxBytes: Int, rereadable: (RereadableFile) -> Void = { _ in },
    _ body: (UnsafeRawBufferPointer, _ expected: Int?) -> Bool
  ) throws(LoadError) {
    let name = source.description
    let fd: Int32
    var expected: Int?
    switch source {
    case .stdin:
      fd = 0
    case .path, .rawPath:
      // The path's own bytes (NUL-terminated), whatever their encoding.
      fd = ((source.pathBytes ?? []) + [0]).withUnsafeBufferPointer { bytes in
        bytes.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
      }
      guard fd >= 0 else { throw LoadError(.system(errnoText()), source: name) }
      var st = stat()
      if fstat(fd, &st) == 0 {
        if (st.st_mode & S_IFMT) == S_IFDIR {
          close(fd)
          throw LoadError(.isDirectory, source: name)
        }
        if (st.st_mode & S_IFMT) == S_IFREG { expected = Int(st.st_size) }
      }
    case .remote:
      preconditionFailure("LocalReader reads local sources only")
    }
    defer { if fd != 0 { close(fd) } }
    if let expected, expected > maxBytes {
      throw LoadError(.tooLarge(limit: maxBytes), source: name)
    }
    // `expected` is set for regular files only.
    if expected != nil, let file = RereadableFile.duplicating(fd) { rereadable(file) }

    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
    defer { chunk.deallocate() }
    var total = 0
    while true {
      let n: Int
      switch readRetrying(fd, into: chunk.baseAddress!, count: chunkSize) {
      case .success(let count): n = count
      case .failure(let e): throw LoadError(.system(e.description), source: name)
      }
      if n == 0 { break }
      total += n
      if total > maxBytes { throw LoadError(.tooLarge(limit: maxBytes), source: name) }
      if !body(UnsafeRawBufferPointer(rebasing: chunk[0..<n]), expected) { return }
    }
    if total == 0 { throw LoadError(.emptyInput, source: name) }
  }

  /// The whole input at once.
  public static func readAll(_ source: Source, maxBytes: Int) throws(LoadError) -> [UInt8] {
    var bytes: [UInt8] = []
    try read(source, maxBytes: maxBytes) { chunk, expected in
      if bytes.isEmpty, let expected { bytes.reserveCapacity(expected) }
      bytes.append(contentsOf: chunk)
      return true
    }
    return bytes
  }
}

func errnoText() -> String {
  let code = errno
  guard let s = strerror(code) else { return "error \(code)" }
  return String(cString: s)
}
