import Testing
import X11Window

// The parts of selection transfers that need no X server: INCR's chunks, the chunk
// limit, the choice of target, and the failure texts.

@Suite("Selections without X: INCR chunks, limits, target choice")
struct SelectionLogicTests {
  @Test func incrementalChunksAreFullChunksTheRestThenAnEmptyOne() {
    var plan = IncrementalChunks(total: 10, chunkSize: 4)
    #expect(plan.chunkCount == 4)
    var got: [Range<Int>] = []
    while let r = plan.next() { got.append(r) }
    #expect(got == [0..<4, 4..<8, 8..<10, 10..<10])
    #expect(plan.isFinished)
    #expect(plan.next() == nil)
  }

  @Test func anExactMultipleEndsWithTheEmptyChunkRightAfterTheLastFullOne() {
    var plan = IncrementalChunks(total: 8, chunkSize: 4)
    #expect(plan.chunkCount == 3)
    #expect(plan.next() == 0..<4)
    #expect(plan.next() == 4..<8)
    #expect(plan.next() == 8..<8)
    #expect(plan.next() == nil)
    var empty = IncrementalChunks(total: 0, chunkSize: 4)
    #expect(empty.next() == 0..<0)
    #expect(empty.next() == nil)
  }

  @Test func theChunkIsTheMaximumRequestLessItsHeaderAndAtMost256KiB() {
    // Without BIG-REQUESTS: 65535 units of 4 bytes.
    #expect(SelectionLimits.chunkSize(maxRequestUnits: 65535) == 262_040)
    // With them (Xvfb: 4194303 units) the 256 KiB cap holds.
    #expect(SelectionLimits.chunkSize(maxRequestUnits: 4_194_303) == 262_144)
    #expect(SelectionLimits.chunkSize(maxRequestUnits: 10) == 1024)
    #expect(SelectionLimits.needsIncremental(size: 262_145, chunkSize: 262_144))
    #expect(!SelectionLimits.needsIncremental(size: 262_144, chunkSize: 262_144))
  }

  @Test func theMostPreferredOfferedTargetIsChosen() {
    let preferences = ["text/uri-list", "UTF8_STRING", "STRING"]
    #expect(preferredTarget(offered: ["TARGETS", "STRING", "UTF8_STRING"], preferences: preferences) == "UTF8_STRING")
    #expect(
      preferredTarget(offered: ["UTF8_STRING", "text/uri-list"], preferences: preferences) == "text/uri-list")
    #expect(preferredTarget(offered: ["TARGETS", "image/png"], preferences: preferences) == nil)
    #expect(preferredTarget(offered: [], preferences: preferences) == nil)
  }

  @Test func failuresReadAsOneLine() {
    typealias F = SelectionRequestor.Failure
    #expect(F.noOwner.description == "it is empty")
    #expect(F.timedOut(seconds: 2).description == "its owner did not answer within 2 s")
    #expect(F.timedOut(seconds: 0.5).description == "its owner did not answer within 0.5 s")
    #expect(F.tooLarge(limit: 1_048_576).description == "its data is larger than 1048576 bytes")
    #expect(F.refused(offered: []).description == "it holds nothing of a usable type")
    #expect(
      F.refused(offered: ["image/png", "text/html"]).description
        == "it holds nothing of a usable type (it offers image/png, text/html)")
  }
}
