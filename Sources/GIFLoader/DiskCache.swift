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
/// worst a race costs is one extra download, never a wrong or partial GIF.
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
    let key = Self.key(for: url)
    guard let metaBytes = readFile(metaPath(key), limit: 1 << 16),
      let meta = CacheMeta(parsing: metaBytes),
      meta.url == redactingCredentials(url), meta.size <= maxSize,
      let body = readFile(bodyPath(key), limit: meta.size), body.count == meta.size,
      body.starts(with: gifSignature), bodyChecksum(body) == meta.checksum
    else { return nil }
    return Entry(meta: meta, body: body, key: key)
  }

  /// Stores a complete 200 body (already known to start with GIF8), then evicts.
  func store(_ url: String, body: [UInt8], response: HTTPResponse, now: Int) {
    guard !response.noStore, body.starts(with: gifSignature) else { return }
    // The meta never holds a password or bare user name; the key (a hash of the whole URL) tells entries apart.
    let meta = CacheMeta(
      url: redactingCredentials(url), etag: response.headers["etag"], lastModified: response.headers["last-modified"],
      size: body.count, checksum: bodyChecksum(body), freshUntil: freshUntil(response, now: now))
    let metaBytes = meta.encoded
    // One line per field: a value with a line break (impossible from libcurl's header
    // lines, possible in a URL) would not read back.
    guard !metaBytes.isEmpty,
      !(url + (meta.etag ?? "") + (meta.lastModified ?? "")).contains(where: \.isNewline),
      body.count + metaBytes.count <= limit
    else { return }
    let key = Self.key(for: url)
    guard writeAtomically(body, to: bodyPath(key)), writeAtomically(metaBytes, to: metaPath(key))
    else { return }
    syncDirectory()
    evict(protecting: key)
  }

  /// After a 304: the server's newer validators and freshness; the entry becomes the most
  /// recently used.
  func revalidated(_ entry: Entry, response: HTTPResponse, now: Int) {
    var meta = entry.meta
    if let etag = response.headers["etag"] { meta.etag = etag }
    if let date = response.headers["last-modified"] { meta.lastModified = date }
    meta.freshUntil = freshUntil(response, now: now)
    let key = entry.key
    if meta != entry.meta,
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
