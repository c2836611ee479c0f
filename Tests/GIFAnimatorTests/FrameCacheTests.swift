import GIFAnimator
import GIFDecoder
import GIFTestSupport
import Testing

/// A w×h animation of `count` frames; frame k fills the screen with palette index k % 4.
private func animation(width: Int, height: Int, count: Int) throws -> GIFDocument {
  var b = GIFBuilder(width: width, height: height, globalPalette: [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255])
  b.loop(0)
  for k in 0..<count {
    b.control(delayCS: 5)
    b.image(
      width: width, height: height, indices: [UInt8](repeating: UInt8(k % 4), count: width * height),
      minimumCodeSize: 2)
  }
  b.trailer()
  return try GIFDocument.decode(b.bytes)
}

private let colours: [UInt32] = [0xFFFF_0000, 0xFF00_FF00, 0xFF00_00FF, 0xFFFF_FFFF]

@Suite("Frame cache")
struct FrameCacheTests {
  /// Runs the worker inline, so the tests are deterministic.
  static let inline: @Sendable (@escaping @Sendable () -> Void) -> Void = { $0() }

  @Test func allFramesAreKeptWhenTheyFitTheBudget() throws {
    let doc = try animation(width: 8, height: 8, count: 10)
    let cache = FrameCache(screen: doc.screen, format: .bgra, budgetBytes: 64 << 20, spawn: Self.inline)
    doc.frames.forEach(cache.append)
    cache.complete()
    #expect(cache.cachedCount == 10)
    for k in 0..<10 {
      let f = try #require(cache.frame(k))
      #expect(f.pixels.allSatisfy { $0 == colours[k % 4] }, "frame \(k)")
    }
  }

  @Test func memoryStaysWithinTheBudgetForAnyFrameCount() throws {
    let doc = try animation(width: 16, height: 16, count: 300)
    let frameBytes = 16 * 16 * 4
    let budget = frameBytes * 5
    let cache = FrameCache(screen: doc.screen, format: .bgra, budgetBytes: budget, spawn: Self.inline)
    doc.frames.forEach(cache.append)
    cache.complete()
    #expect(cache.capacity == 5)
    for head in [0, 1, 2, 150, 299, 3, 298] {
      cache.setHead(head)
      #expect(cache.cachedBytes <= budget, "head \(head): have \(cache.cachedBytes) bytes, want ≤ \(budget)")
      // The head and the frames after it (wrapping) are ready.
      for ahead in 0..<5 {
        let k = (head + ahead) % 300
        let f = try #require(cache.frame(k), "head \(head): frame \(k) not rendered ahead")
        #expect(f.pixels[0] == colours[k % 4], "frame \(k)")
      }
    }
  }

  @Test func renderingAheadMatchesSequentialRendering() throws {
    // Disposal 3 makes each canvas depend on history: restarts must replay it right.
    var b = GIFBuilder(width: 4, height: 1, globalPalette: [0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255])
    b.loop(0)
    for k in 0..<12 {
      b.control(delayCS: 2, disposal: k % 3 == 0 ? 3 : 1)
      b.image(x: k % 4, y: 0, width: 1, height: 1, indices: [UInt8(k % 3 + 1)], minimumCodeSize: 2)
    }
    b.trailer()
    let doc = try GIFDocument.decode(b.bytes)
    var expected: [[UInt32]] = []
    doc.renderAll(format: .bgra) { _, c in expected.append(Array(c)) }
    let cache = FrameCache(screen: doc.screen, format: .bgra, budgetBytes: 4 * 4 * 3, spawn: Self.inline)
    doc.frames.forEach(cache.append)
    cache.complete()
    for head in [5, 2, 11, 0, 7] {
      cache.setHead(head)
      let f = try #require(cache.frame(head))
      #expect(f.canvas() == expected[head], "frame \(head)")
    }
  }

  @Test func framesArrivingLaterAreRenderedAsTheyCome() throws {
    let doc = try animation(width: 4, height: 4, count: 3)
    let cache = FrameCache(screen: doc.screen, format: .bgra, spawn: Self.inline)
    cache.append(doc.frames[0])
    #expect(cache.frame(0) != nil)
    #expect(cache.frame(1) == nil)
    cache.append(doc.frames[1])
    #expect(cache.frame(1)?.pixels[0] == colours[1])
  }

  @Test func tenThousandFramesPlayThroughWithTheWindowFollowingTheHead() throws {
    // 32x32 frames, a budget of 100: playing every frame twice round keeps exactly the
    // window from the head cached, and each step renders one frame and evicts one.
    let doc = try animation(width: 32, height: 32, count: 10_000)
    let budget = 32 * 32 * 4 * 100
    let cache = FrameCache(screen: doc.screen, format: .bgra, budgetBytes: budget, spawn: Self.inline)
    doc.frames.forEach(cache.append)
    cache.complete()
    for head in 0..<20_000 {
      let k = head % 10_000
      cache.setHead(k)
      #expect(cache.cachedCount == 100, "head \(k): have \(cache.cachedCount) cached, want 100")
      if head % 997 == 0 {
        for ahead in [0, 1, 99] {
          let f = try #require(cache.frame((k + ahead) % 10_000), "head \(k): frame \(k + ahead) not ready")
          #expect(f.pixels[0] == colours[(k + ahead) % 4])
        }
        #expect(cache.frame((k + 100) % 10_000) == nil)
        #expect(k == 0 || cache.frame(k - 1) == nil)
      }
    }
  }

  @Test func allTenThousandFramesStayWhenTheyFit() throws {
    let doc = try animation(width: 32, height: 32, count: 10_000)
    let cache = FrameCache(screen: doc.screen, format: .bgra, budgetBytes: 64 << 20, spawn: Self.inline)
    doc.frames.forEach(cache.append)
    cache.complete()
    #expect(cache.cachedCount == 10_000)
    for head in stride(from: 0, to: 10_000, by: 7) { cache.setHead(head) }
    #expect(cache.cachedCount == 10_000)
    #expect(cache.frame(9_999)?.pixels[0] == colours[9_999 % 4])
  }

  @Test func aJumpBackRendersTheWindowAgainFromTheStart() throws {
    let doc = try animation(width: 8, height: 8, count: 50)
    let cache = FrameCache(screen: doc.screen, format: .bgra, budgetBytes: 8 * 8 * 4 * 10, spawn: Self.inline)
    doc.frames.forEach(cache.append)
    cache.complete()
    cache.setHead(30)
    #expect(cache.frame(30) != nil && cache.frame(39) != nil && cache.frame(0) == nil)
    cache.setHead(45)  // the window wraps: 45…49, 0…4
    #expect(cache.frame(49) != nil && cache.frame(4)?.pixels[0] == colours[0] && cache.frame(30) == nil)
    cache.setHead(2)
    #expect(cache.cachedCount == 10)
    for k in 2..<12 { #expect(cache.frame(k)?.pixels[0] == colours[k % 4], "frame \(k)") }
  }
}

@Suite("Frame cache with a host that keeps frames")
struct HostKeptFrameCacheTests {
  @Test func framesTheHostKeepsAreDrawnInTurnButNotKept() throws {
    let doc = try animation(width: 8, height: 8, count: 12)
    let cache = FrameCache(screen: doc.screen, format: .bgra, spawn: FrameCacheTests.inline)
    cache.lookahead = 3
    doc.frames.forEach(cache.append)
    cache.complete()
    #expect(cache.cachedCount == 3, "three ahead, though all twelve fit")
    // The host keeps frames 0–5 (a loop that did not fit its budget).
    for k in 0..<12 {
      cache.setHead(k)
      if k < 6 { cache.hostKeeps(k) }
      #expect(cache.frame(k) == nil || k >= 6, "frame \(k) is the host's")
    }
    // The second loop: frames 6… must be ready without a replay from 0 at the moment
    // they are due, so the worker draws 0–5 in turn without keeping them.
    for k in 0..<12 {
      cache.setHead(k)
      // Frames the host does not keep may stay within the budget; the host's never do.
      #expect(cache.cachedCount <= 6, "head \(k): \(cache.cachedCount) kept")
      for ahead in 0..<3 where (k + ahead) % 12 >= 6 {
        let i = (k + ahead) % 12
        let f = try #require(cache.frame(i), "head \(k): frame \(i) not rendered ahead")
        #expect(f.pixels[0] == colours[i % 4])
      }
      for i in 0..<6 { #expect(cache.frame(i) == nil, "head \(k): frame \(i) kept twice") }
    }
  }

  @Test func allFramesFittingTheWindowDoNotSpin() throws {
    // Three frames, a window of four: the worker's pass covers the window exactly.
    let doc = try animation(width: 4, height: 4, count: 3)
    let runs = Counter()
    let cache = FrameCache(
      screen: doc.screen, format: .bgra,
      spawn: {
        runs.add(); $0()
      })
    cache.lookahead = 4
    doc.frames.forEach(cache.append)
    cache.complete()
    for k in 0..<3 { cache.hostKeeps(k) }
    let before = runs.value
    for k in [0, 1, 2, 0, 1, 2] { cache.setHead(k) }
    #expect(runs.value - before <= 6, "the worker ran \(runs.value - before) times")
    #expect(cache.cachedCount == 0)
  }
}

final class Counter: @unchecked Sendable {
  private(set) var value = 0
  func add() { value += 1 }
}
