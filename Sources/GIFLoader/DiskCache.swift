import SystemIO

#if canImport(Glibc)
  import Glibc
#endif

extension CacheMeta {
  var validators: Validators? {
    etag == nil && lastModified == nil ? nil : Validators(etag: etag, lastModified: lastModified)
  }
}

/// The disk cache of remote GIFs (issue 4): one directory, `KEY.gif` (the body exactly as
/// received) and `KEY.meta` (URL, validators, size, checksum), KEY = FNV-1a of the URL.
///
/// Safe for several processes at once without locks: every file is written to a fresh
/// temporary name in the same directory, fsynced and renamed into place, so a reader sees a
/// whole old file or a whole new one. The body is renamed first and the meta last; a reader
/// that pairs an old meta with a new body (or meets a truncated, damaged or foreign file)
/// finds the size or checksum wrong, treats the entry as missing and fetches again. The
/// worst a race costs is one extra download, never a wrong or partial GIF. A download's
/// body goes to its temporary file as it arrives (`Spool`), so that the playback reads it
/// back from there instead of holding it in memory.
///
/// Bounded by `limit` bytes: after each store the least recently used entries (by mtime,
/// which a hit or a 304 refreshes) are removed until the rest fit.
final class DiskCache {
  let directory: String
  let limit: Int

  /// nil when the directory cannot be made (the load then simply goes uncached).
  init?(directory: String?, limit: Int) {
    guard let directory = directory ?? Self.defaultDirectory(), limit > 0 else { return nil }
    guard Self.makeDirectories(directory) else { return nil }
    self.directory = directory
    self.limit = limit
  }

  /// `$XDG_CACHE_HOME/gifview` (an absolute path only, per the XDG spec), else `~/.cache/gifview`.
  static func defaultDirectory() -> String? {
    if let x = getenv("XDG_CACHE_HOME").map({ String(cString: $0) }), x.hasPrefix("/") {
      return x + "/gifview"
    }
    if let home = getenv("HOME").map({ String(cString: $0) }), home.hasPrefix("/") {
      return home + "/.cache/gifview"
    }
    if let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir {
      return String(cString: dir) + "/.cache/gifview"
    }
    return nil
  }

  static func key(for url: String) -> String { hex16(fnv1a64(url.utf8)) }

  func bodyPath(_ key: String) -> String { "\(directory)/\(key).gif" }
  func metaPath(_ key: String) -> String { "\(directory)/\(key).meta" }

  struct Entry {
    var meta: CacheMeta
    var body: [UInt8]
    /// The entry's file name stem, from the whole URL (the meta's URL has no credentials).
    var key: String
  }

  /// The entry for `url` when it is whole and intact (size, checksum, GIF8), else nil.
  func lookup(_ url: String, maxSize: Int) -> Entry? {
    guard let found = openEntry(url, maxSize: maxSize) else { return nil }
    let count = found.meta.size
    let body = [UInt8](unsafeUninitializedCapacity: count) { buffer, n in
      n = found.file.read(at: 0, into: UnsafeMutableRawBufferPointer(buffer))
    }
    return body.count == count ? Entry(meta: found.meta, body: body, key: found.key) : nil
  }

  /// An entry whose body is read from its file, never held whole in memory.
  struct FileEntry {
    var meta: CacheMeta
    /// The body file as it was checked: a descriptor kept open on it, so a later
    /// replacement or eviction of the entry does not change what it reads.
    var file: RereadableFile
    var key: String
  }

  /// The entry for `url` when it is whole and intact (size, checksum, GIF8), else nil; its
  /// body is checked by reading it in chunks.
  func openEntry(_ url: String, maxSize: Int) -> FileEntry? {
    let key = Self.key(for: url)
    guard let metaBytes = readFile(metaPath(key), limit: 1 << 16),
      let meta = CacheMeta(parsing: metaBytes),
      meta.url == redactingCredentials(url), meta.size <= maxSize,
      let file = openFile(bodyPath(key), size: meta.size), Self.checksum(of: file, count: meta.size) == meta.checksum
    else { return nil }
    var signature = [UInt8](repeating: 0, count: 4)
    guard signature.withUnsafeMutableBytes({ file.read(at: 0, into: $0) }) == 4, signature == gifSignature
    else { return nil }
    return FileEntry(meta: meta, file: file, key: key)
  }

  /// The checksum of the first `count` bytes of `file`, or nil when it has fewer (or more).
  private static func checksum(of file: RereadableFile, count: Int) -> UInt64? {
    var sum = BodyChecksum(count: count)
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
    defer { chunk.deallocate() }
    var offset = 0
    while offset < count {
      let n = file.read(
        at: offset, into: UnsafeMutableRawBufferPointer(rebasing: chunk[0..<min(chunk.count, count - offset)]))
      guard n > 0 else { return nil }
      sum.update(UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
      offset += n
    }
    // One byte more means the file grew since its meta was written.
    guard file.read(at: count, into: UnsafeMutableRawBufferPointer(rebasing: chunk[0..<1])) == 0 else { return nil }
    return sum.value
  }

  /// A body being downloaded, written to a temporary file in the cache directory as it
  /// arrives, so the playback reads it back by offset instead of keeping it in memory;
  /// `store(_:spool:…)` renames it into place when the download is complete, `discard`
  /// removes it (a reader already holding `file` keeps reading it either way).
  final class Spool {
    let path: String
    private var fd: Int32
    /// What the playback reads back; its own descriptor on the same file.
    let file: RereadableFile
    /// Bytes written so far; after a failed write the rest is not there, and reads of it
    /// come back short (the decoder treats such a frame as cut short).
    private(set) var written = 0
    private(set) var failed = false

    fileprivate init(path: String, fd: Int32, file: RereadableFile) {
      self.path = path
      self.fd = fd
      self.file = file
    }

    func append(_ bytes: [UInt8]) {
      guard !failed, fd >= 0 else { return }
      let ok = bytes.withUnsafeBytes { raw in
        if case .success = writeAll(fd, raw) { return true }
        return false
      }
      if ok { written += bytes.count } else { failed = true }
    }

    /// Flushes and closes the writing descriptor; answers false if the file is not whole.
    fileprivate func close() -> Bool {
      guard fd >= 0 else { return false }
      let synced = !failed && fsync(fd) == 0
      let closed = Glibc.close(fd) == 0
      fd = -1
      return synced && closed
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }
  }

  /// A fresh temporary file for a download's body (nil when it cannot be made).
  func beginSpool() -> Spool? {
    var template = Array("\(directory)/.tmp.download.XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }  // mode 0600
    guard fd >= 0 else { return nil }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    guard let file = RereadableFile.duplicating(fd) else {
      Glibc.close(fd)
      unlink(path)
      return nil
    }
    return Spool(path: path, fd: fd, file: file)
  }

  /// Removes a spool that will not become an entry.
  func discard(_ spool: Spool) {
    _ = spool.close()
    unlink(spool.path)
  }

  /// Makes a complete 200 body that was spooled an entry (the meta is written last), then
  /// evicts; a spool that cannot be stored (larger than the whole cache, say: it was
  /// spooled all the same, for the playback to read back) is removed.
  func store(_ url: String, spool: Spool, response: HTTPResponse, now: Int) {
    let size = spool.written
    let whole = spool.close()
    let key = Self.key(for: url)
    var stored = false
    defer {
      if !stored { unlink(spool.path) }
    }
    guard whole, !response.noStore, let checksum = Self.checksum(of: spool.file, count: size) else { return }
    // The meta never holds a password or bare user name; the key (a hash of the whole URL) tells entries apart.
    let meta = CacheMeta(
      url: redactingCredentials(url), etag: response.headers["etag"], lastModified: response.headers["last-modified"],
      size: size, checksum: checksum, freshUntil: freshUntil(response, now: now))
    let metaBytes = meta.encoded
    guard !metaBytes.isEmpty,
      !(url + (meta.etag ?? "") + (meta.lastModified ?? "")).contains(where: \.isNewline),
      size + metaBytes.count <= limit, rename(spool.path, bodyPath(key)) == 0
    else { return }
    stored = true
    guard writeAtomically(metaBytes, to: metaPath(key)) else {
      unlink(bodyPath(key))  // a body without its meta is never read; don't leave it
      return
    }
    syncDirectory()
    evict(protecting: key)
  }

  /// After a 304: the server's newer validators and freshness; the entry becomes the most
  /// recently used.
  func revalidated(_ old: CacheMeta, key: String, response: HTTPResponse, now: Int) {
    var meta = old
    if let etag = response.headers["etag"] { meta.etag = etag }
    if let date = response.headers["last-modified"] { meta.lastModified = date }
    meta.freshUntil = freshUntil(response, now: now)
    if meta != old,
      !((meta.etag ?? "") + (meta.lastModified ?? "")).contains(where: \.isNewline)
    {
      _ = writeAtomically(meta.encoded, to: metaPath(key))
    }
    touch(key)
  }

  /// Marks an entry as just used (its mtime orders eviction).
  func touch(_ key: String) {
    _ = utimensat(AT_FDCWD, bodyPath(key), nil, 0)
    _ = utimensat(AT_FDCWD, metaPath(key), nil, 0)
  }

  private func freshUntil(_ response: HTTPResponse, now: Int) -> Int {
    guard let lifetime = response.freshnessLifetime, lifetime > 0 else { return 0 }
    return now + min(lifetime, 1 << 40)
  }

  /// Removes the least recently used entries until the cache fits `limit` (never `protecting`),
  /// and temporary files left behind by a process that died mid-write.
  func evict(protecting protected: String? = nil) {
    struct Group {
      var size = 0
      var mtime = 0.0
    }
    var groups: [String: Group] = [:]
    var total = 0
    let now = Double(time(nil))
    forEachFile { name, size, mtime in
      if name.hasPrefix(".tmp.") {
        if now - mtime > 600 { unlink("\(directory)/\(name)") }
        return
      }
      guard let dot = name.firstIndex(of: "."), name[..<dot].count == 16,
        name[dot...] == ".gif" || name[dot...] == ".meta"
      else { return }
      let key = String(name[..<dot])
      groups[key, default: Group()].size += size
      groups[key, default: Group()].mtime = max(groups[key]!.mtime, mtime)
      total += size
    }
    guard total > limit else { return }
    for (key, group) in groups.sorted(by: { ($0.value.mtime, $0.key) < ($1.value.mtime, $1.key) }) {
      if total <= limit { break }
      if key == protected { continue }
      unlink(metaPath(key))  // the meta first: a reader then sees a miss, not a lone meta
      unlink(bodyPath(key))
      total -= group.size
    }
  }

  // MARK: files

  private func forEachFile(_ body: (_ name: String, _ size: Int, _ mtime: Double) -> Void) {
    guard let dir = opendir(directory) else { return }
    defer { closedir(dir) }
    while let entry = readdir(dir) {
      let name = withUnsafePointer(to: &entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
      }
      if name == "." || name == ".." { continue }
      var st = stat()
      guard fstatat(dirfd(dir), name, &st, AT_SYMLINK_NOFOLLOW) == 0,
        (st.st_mode & S_IFMT) == S_IFREG
      else {
        continue
      }
      body(name, Int(st.st_size), Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9)
    }
  }

  /// The whole file, or nil when it is missing, unreadable, longer than `limit` or not a
  /// regular file. O_NONBLOCK: opening a FIFO put in the cache's place returns at once
  /// (without it, `open` waits for a writer forever); it changes nothing for a regular file.
  private func readFile(_ path: String, limit: Int) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) <= limit else {
      return nil
    }
    // One byte of room beyond the expected size, to see a file that grew meanwhile.
    let capacity = Int(st.st_size) + 1
    var total = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
      while total < capacity {
        guard case .success(let n) = readRetrying(fd, into: buffer.baseAddress! + total, count: capacity - total), n > 0
        else { break }
        total += n
      }
      count = total
    }
    return bytes.count <= limit ? bytes : nil
  }

  /// A regular file of exactly `size` bytes, opened to be read by offset (O_NONBLOCK as
  /// in `readFile`).
  private func openFile(_ path: String, size: Int) -> RereadableFile? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    let file = RereadableFile(owning: fd)
    var st = stat()
    guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) == size else { return nil }
    return file
  }

  /// Temporary file in the same directory → write → fsync → rename over `path`.
  private func writeAtomically(_ bytes: [UInt8], to path: String) -> Bool {
    let name = path.split(separator: "/").last.map(String.init) ?? "entry"
    var template = Array("\(directory)/.tmp.\(name).XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }  // mode 0600
    guard fd >= 0 else { return false }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    let temp = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    var ok = bytes.withUnsafeBytes { raw in
      guard case .success = writeAll(fd, raw) else { return false }
      return true
    }
    ok = ok && fsync(fd) == 0
    ok = close(fd) == 0 && ok
    ok = ok && rename(temp, path) == 0
    if !ok { unlink(temp) }
    return ok
  }

  /// Makes the renames durable.
  private func syncDirectory() {
    let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    fsync(fd)
    close(fd)
  }

  /// mkdir -p, private to the user (0700) for the levels it makes.
  private static func makeDirectories(_ path: String) -> Bool {
    var prefix = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
      prefix += "/" + part
      if mkdir(prefix, 0o700) != 0 && errno != EEXIST { return false }
    }
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
  }
}
