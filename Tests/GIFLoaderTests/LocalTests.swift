import Foundation
import Testing

@testable import GIFLoader

extension GIFLoaderSuite {
  @Suite("Local sources through the loader")
  struct Local {
    @Test func fileArrivesInChunksWithProgress() async throws {
      let server = try TestServer.get()
      let r = await load(.path(server.directory + "/big.gif"), LoadOptions())
      #expect(r.finished)
      #expect(r.bytes == TestServer.big)
      #expect(
        r.dataEvents == (TestServer.big.count + LocalReader.chunkSize - 1) / LocalReader.chunkSize)
      guard case .progress(let received, let expected) = r.events[r.events.count - 2] else {
        Issue.record("no final progress")
        return
      }
      #expect(received == TestServer.big.count)
      #expect(expected == TestServer.big.count)
    }

    @Test func aRegularFileCanBeReadAgainByOffset() async throws {
      let server = try TestServer.get()
      let r = await load(.path(server.directory + "/big.gif"), LoadOptions())
      let file = try #require(r.rereadable, "a regular file is rereadable")
      #expect(file.size == TestServer.big.count)
      var middle = [UInt8](repeating: 0, count: 1000)
      #expect(middle.withUnsafeMutableBytes { file.read(at: 123_456, into: $0) } == 1000)
      #expect(middle[...] == TestServer.big[123_456..<124_456])
      var past = [UInt8](repeating: 0, count: 10)
      #expect(past.withUnsafeMutableBytes { file.read(at: TestServer.big.count - 4, into: $0) } == 4)
      #expect(past.withUnsafeMutableBytes { file.read(at: TestServer.big.count + 100, into: $0) } == 0)
      #expect(past.withUnsafeMutableBytes { file.read(at: -1, into: $0) } == 0)
    }

    @Test func aFIFOIsReadOnceNotAgain() async throws {
      let server = try TestServer.get()
      let path = server.freshDirectory() + "/pipe.gif"
      #expect(mkfifo(path, 0o600) == 0)
      let bytes = TestServer.small
      let writer = Thread {
        let fd = open(path, O_WRONLY)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
      }
      writer.start()
      let r = await load(.path(path), LoadOptions())
      #expect(r.finished && r.bytes == bytes)
      #expect(r.rereadable == nil, "a FIFO cannot be read again")
    }

    @Test func missingFile() async throws {
      let r = await load(.path("/nonexistent/gifview/x.gif"), LoadOptions())
      #expect(r.errorText == "No such file or directory")
      #expect(r.error?.source == "/nonexistent/gifview/x.gif")
    }

    @Test func localLimitIsNotTheDownloadLimit() async throws {
      let server = try TestServer.get()
      var options = LoadOptions(maxSize: 1000)
      #expect(
        try GIFLoader.fetchAll(.path(server.directory + "/big.gif"), options: options)
          == TestServer.big)
      options.localMaxSize = 1 << 16
      let r = await load(.path(server.directory + "/big.gif"), options)
      #expect(r.errorText == "larger than the 64 KiB limit")
    }

    @Test func timeoutTextsAreWholeOrFractionalSeconds() {
      #expect(LoadError(.timedOut(seconds: 30), source: "x").description == "timed out after 30 s")
      #expect(
        LoadError(.timedOut(seconds: 2.5), source: "x").description == "timed out after 2.5 s")
      #expect(
        LoadError(.truncated(received: 5, expected: nil), source: "x").description
          == "connection closed after 5 bytes")
      #expect(
        LoadError(.http(status: 418, reason: ""), source: "x").description
          == "HTTP 418 I'm a teapot")
      #expect(
        LoadError(.http(status: 599, reason: ""), source: "x").description
          == "HTTP 599 Server Error")
    }
  }
}
