import Foundation
import Testing

@testable import GIFLoader

#if canImport(Glibc)
  import Glibc
#endif

extension GIFLoaderSuite {
  @Suite("Disk cache (issue 4)")
  struct Cache {
    let server: TestServer
    init() throws { server = try TestServer.get() }

    func files(_ dir: String) -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    }

    func key(_ path: String) -> String { DiskCache.key(for: server.url(path)) }

    @Test func revalidatesWithETagAnd304ServesTheCachedBody() async throws {
      let dir = server.freshDirectory()
      let path = uniquePath("etag")
      let first = await load(server.url(path), try testOptions(cache: dir))
      #expect(first.bytes == TestServer.small)
      #expect(files(dir) == [key(path) + ".gif", key(path) + ".meta"])

      let second = await load(server.url(path), try testOptions(cache: dir))
      #expect(second.finished)
      #expect(second.bytes == TestServer.small)
      #expect(second.expected == .some(TestServer.small.count))
      let stats = try server.stats(path)
      #expect(stats.requests == 2)
      #expect(stats.bodies == 1)  // the second answer was a bodiless 304
      #expect(stats.headers["if-none-match"] == "\"v1-\(path.dropFirst(6))\"")
    }

    @Test func aDownloadIsReadAgainFromItsCacheFileAndSoIsAHit() async throws {
      let dir = server.freshDirectory()
      let path = uniquePath("fresh")
      let first = await load(server.url(path), try testOptions(cache: dir))
      #expect(first.finished && first.bytes == TestServer.small)
      #expect(first.rereadable != nil, "the download went to the cache's directory as it arrived")
      #expect(files(dir) == [key(path) + ".gif", key(path) + ".meta"], "the spool became the entry")
      let hit = await load(server.url(path), try testOptions(cache: dir))
      #expect(hit.finished && hit.bytes == TestServer.small)
      #expect(hit.rereadable?.size == TestServer.small.count, "a hit is read from the entry's file")
      #expect(try server.stats(path).requests == 1)
      // The hit's file stays readable when the entry goes away.
      for name in files(dir) { unlink(dir + "/" + name) }
      var head = [UInt8](repeating: 0, count: 6)
      #expect(head.withUnsafeMutableBytes { hit.rereadable!.read(at: 0, into: $0) } == 6)
      #expect(head == Array(TestServer.small.prefix(6)))
    }

    @Test func a304IsReadAgainFromTheEntrysFile() async throws {
      let dir = server.freshDirectory()
      let path = uniquePath("etag")
      _ = await load(server.url(path), try testOptions(cache: dir))
      let second = await load(server.url(path), try testOptions(cache: dir))
      #expect(second.bytes == TestServer.small && second.rereadable != nil)
      #expect(try server.stats(path).bodies == 1)
    }

    @Test func withoutTheCacheOrWithNoStoreADownloadIsNotReadAgain() async throws {
      let plain = await load(server.url(uniquePath("big")), try testOptions())
      #expect(plain.finished && plain.bytes == TestServer.big && plain.rereadable == nil)
      let dir = server.freshDirectory()
      let noStore = await load(server.url(uniquePath("nostore")), try testOptions(cache: dir))
      #expect(noStore.finished && noStore.rereadable == nil)
      #expect(files(dir).isEmpty)
    }

    @Test func aBodyTooBigForTheCacheIsReadAgainButNotKept() async throws {
      let dir = server.freshDirectory()
      let r = await load(server.url(uniquePath("big")), try testOptions(cache: dir, cacheLimit: 1000))
      #expect(r.finished && r.bytes == TestServer.big)
      #expect(r.rereadable?.size == TestServer.big.count)
      #expect(files(dir).isEmpty, "have \(files(dir)): no entry and no temporary file")
    }

    @Test func aDownloadCutShortLeavesNoTemporaryFile() async throws {
      let dir = server.freshDirectory()
      let r = await load(server.url(uniquePath("truncated")), try testOptions(cache: dir))
      #expect(r.error != nil && r.rereadable != nil)
      #expect(files(dir).isEmpty, "have \(files(dir))")
    }

    @Test func revalidatesWithLastModified() async throws {
      let dir = server.freshDirectory()
      let path = uniquePath("lastmod")
      _ = await load(server.url(path), try testOptions(cache: dir))
      let second = await load(server.url(path), try testOptions(cache: dir))
      #expect(second.bytes == TestServer.small)
      let stats = try server.stats(path)
      #expect(stats.requests == 2)
      #expect(stats.bodies == 1)
      #expect(stats.headers["if-modified-since"] == "Wed, 21 Oct 2015 07:28:00 GMT")
      #expect(stats.headers["if-none-match"] == nil)
    }

    @Test func freshEntryIsAHitWithoutARequest() async throws {
      let dir = server.freshDirectory()
      let path = uniquePath("fresh")
      _ = await load(server.url(path), try testOptions(cache: dir))
      let second = await load(server.url(path), try testOptions(cache: dir))
      #expect(second.finished)
      #expect(second.bytes == TestServer.small)
      #expect(try server.stats(path).requests == 1)
    }

    enum Damage: String, CaseIterable, CustomTestStringConvertible {
      case flippedByte, truncatedBody, longerBody, missingBody, garbageMeta, metaOfAnotherURL,
        notAGIF
      var testDescription: String { rawValue }
    }

    @Test(arguments: Damage.allCases)
    func damagedEntryIsFetchedAgain(damage: Damage) async throws {
      let dir = server.freshDirectory()
      let path = uniquePath("etag")
      _ = await load(server.url(path), try testOptions(cache: dir))
      let body = dir + "/" + key(path) + ".gif"
      let meta = dir + "/" + key(path) + ".meta"
      var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: body)))
      switch damage {
      case .flippedByte: bytes[bytes.count / 2] ^= 0x10
      case .truncatedBody: bytes.removeLast(bytes.count / 2)
      case .longerBody: bytes.append(0x3B)
      case .missingBody: bytes = []
      case .garbageMeta:
        try Data("gifview-cache 1\nurl ".utf8).write(to: URL(fileURLWithPath: meta))
      case .metaOfAnotherURL:
        var text = try String(contentsOfFile: meta, encoding: .utf8)
        text = text.replacingOccurrences(of: "url http", with: "url hxxp")
        try Data(text.utf8).write(to: URL(fileURLWithPath: meta))
      case .notAGIF:
        // Same size and a matching checksum, but not a GIF: still refused.
        bytes[0] = UInt8(ascii: "X")
        var text = try String(contentsOfFile: meta, encoding: .utf8)
        let old = hex16(bodyChecksum(TestServer.small))
        text = text.replacingOccurrences(of: old, with: hex16(bodyChecksum(bytes)))
        try Data(text.utf8).write(to: URL(fileURLWithPath: meta))
      }
      if damage == .missingBody {
        unlink(body)
      } else {
        try Data(bytes).write(to: URL(fileURLWithPath: body))
      }

      let second = await load(server.url(path), try testOptions(cache: dir))
      #expect(second.finished)
      #expect(second.bytes == TestServer.small)
      let stats = try server.stats(path)
      #expect(stats.bodies == 2)  // fetched whole again…
      #expect(stats.headers["if-none-match"] == nil)  // …without claiming to have it
      // …and the entry is whole again: a third load revalidates it.
      #expect(
        DiskCache(directory: dir, limit: 1 << 30)?.lookup(server.url(path), maxSize: 1 << 30)?.body
          == TestServer.small)
      let third = await load(server.url(path), try testOptions(cache: dir))
      #expect(third.bytes == TestServer.small)
      #expect(try server.stats(path).bodies == 2)
    }

    @Test func writesAreAtomicAndLeaveNoTemporaryFiles() async throws {
      let dir = server.freshDirectory()
      let path = uniquePath("big")
      // Several loaders store the same URL at once (as several processes would).
      await withTaskGroup(of: LoadResult.self) { group in
        for _ in 0..<4 {
          group.addTask { await load(server.url(path), try! testOptions(cache: dir)) }
        }
        for await r in group { #expect(r.bytes == TestServer.big) }
      }
      #expect(files(dir) == [key(path) + ".gif", key(path) + ".meta"])
      let entry = DiskCache(directory: dir, limit: 1 << 30)?.lookup(
        server.url(path), maxSize: 1 << 30)
      #expect(entry?.body == TestServer.big)
      #expect(entry?.meta.size == TestServer.big.count)
    }

    @Test func staleTemporaryFilesOfADeadWriterAreRemoved() async throws {
      let dir = server.freshDirectory()
      let stale = dir + "/.tmp.0123456789abcdef.gif.AbCdEf"
      let recent = dir + "/.tmp.0123456789abcdef.gif.XyZxYz"
      _ = FileManager.default.createFile(atPath: stale, contents: Data([1, 2, 3]))
      _ = FileManager.default.createFile(atPath: recent, contents: Data([1, 2, 3]))
      var old = [
        timespec(tv_sec: time(nil) - 3600, tv_nsec: 0),
        timespec(tv_sec: time(nil) - 3600, tv_nsec: 0),
      ]
      utimensat(AT_FDCWD, stale, &old, 0)
      // Every store ends with an eviction pass, which also sweeps old temporary files.
      let path = uniquePath("gif")
      _ = await load(server.url(path), try testOptions(cache: dir))
      #expect(FileManager.default.fileExists(atPath: dir + "/" + key(path) + ".gif"))
      #expect(!FileManager.default.fileExists(atPath: stale))
      #expect(FileManager.default.fileExists(atPath: recent))  // may be another process's write
    }

    @Test func evictsTheLeastRecentlyUsedOverTheLimit() async throws {
      let dir = server.freshDirectory()
      let entrySize = TestServer.big.count + 200  // body + meta
      let limit = 2 * entrySize + entrySize / 2
      let paths = (0..<4).map { uniquePath("big", "evict\($0)") }
      func present() -> [Bool] {
        paths.map { FileManager.default.fileExists(atPath: dir + "/" + key($0) + ".gif") }
      }
      func totalSize() -> Int {
        files(dir).reduce(0) {
          $0
            + ((try? FileManager.default.attributesOfItem(atPath: dir + "/" + $1)[.size]) as? Int
              ?? 0)
        }
      }
      for p in paths.prefix(2) {
        _ = await load(server.url(p), try testOptions(cache: dir, cacheLimit: limit))
        usleep(20_000)
      }
      #expect(present() == [true, true, false, false])
      // Use the first again: it becomes the most recent, so the second goes next.
      DiskCache(directory: dir, limit: limit)!.touch(key(paths[0]))
      usleep(20_000)
      _ = await load(server.url(paths[2]), try testOptions(cache: dir, cacheLimit: limit))
      #expect(present() == [true, false, true, false])
      usleep(20_000)
      _ = await load(server.url(paths[3]), try testOptions(cache: dir, cacheLimit: limit))
      #expect(present() == [false, false, true, true])
      #expect(totalSize() <= limit)
    }

    @Test func aBodyLargerThanTheWholeCacheIsNotStored() async throws {
      let dir = server.freshDirectory()
      let r = await load(
        server.url(uniquePath("big")), try testOptions(cache: dir, cacheLimit: 100_000))
      #expect(r.bytes == TestServer.big)
      #expect(files(dir).isEmpty)
    }

    @Test func noCacheNeitherReadsNorWrites() async throws {
      let dir = server.freshDirectory()
      let path = uniquePath("etag")
      var off = try testOptions(cache: dir)
      off.useCache = false
      let uncached = await load(server.url(path), off)
      #expect(uncached.bytes == TestServer.small)
      #expect(files(dir).isEmpty)

      _ = await load(server.url(path), try testOptions(cache: dir))  // now an entry exists
      #expect(files(dir).count == 2)
      let again = await load(server.url(path), off)
      #expect(again.bytes == TestServer.small)
      let stats = try server.stats(path)
      #expect(stats.bodies == 3)
      #expect(stats.headers["if-none-match"] == nil)
    }

    @Test(arguments: ["truncated", "reset", "html", "status/404", "nostore"])
    func onlyCompleteGIF200sAreStored(route: String) async throws {
      let dir = server.freshDirectory()
      _ = await load(server.url(uniquePath(route)), try testOptions(cache: dir))
      #expect(files(dir).isEmpty)
    }

    @Test func defaultDirectoryFollowsXDG() {
      let saved = getenv("XDG_CACHE_HOME").map { String(cString: $0) }
      defer {
        if let saved { setenv("XDG_CACHE_HOME", saved, 1) } else { unsetenv("XDG_CACHE_HOME") }
      }
      setenv("XDG_CACHE_HOME", "/somewhere/cache", 1)
      #expect(DiskCache.defaultDirectory() == "/somewhere/cache/gifview")
      setenv("XDG_CACHE_HOME", "relative/is/ignored", 1)
      let home = String(cString: getenv("HOME"))
      #expect(DiskCache.defaultDirectory() == home + "/.cache/gifview")
    }

    @Test func metadataRoundTrips() {
      let meta = CacheMeta(
        url: "https://example.com/a b.gif", etag: "W/\"x y\"",
        lastModified: "Wed, 21 Oct 2015 07:28:00 GMT",
        size: 123, checksum: 0x0123_4567_89ab_cdef, freshUntil: 1_700_000_000)
      #expect(CacheMeta(parsing: meta.encoded) == meta)
      #expect(CacheMeta(parsing: Array(meta.encoded.dropLast(3))) == nil)
      let bare = CacheMeta(
        url: "http://x/", etag: nil, lastModified: nil, size: 0, checksum: 0, freshUntil: 0)
      #expect(CacheMeta(parsing: bare.encoded) == bare)
      #expect(bare.validators == nil)
    }

    @Test func checksumSeesEveryBitAndTheLength() {
      let body = TestServer.big
      let sum = bodyChecksum(body)
      for i in stride(from: 0, to: body.count, by: 9973) {
        for bit in 0..<8 {
          var damaged = body
          damaged[i] ^= 1 << bit
          #expect(bodyChecksum(damaged) != sum)
        }
      }
      #expect(bodyChecksum(Array(body.dropLast())) != sum)
      #expect(bodyChecksum(body + [0]) != sum)
      #expect(DiskCache.key(for: "http://a/") != DiskCache.key(for: "http://b/"))
      #expect(DiskCache.key(for: "http://a/").count == 16)
    }
  }
}
