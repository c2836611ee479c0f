/// The pieces of an ICCCM INCR transfer (§2.7.2): data larger than one request is
/// sent as chunks of at most `chunkSize` bytes, each after the requestor deleted the last,
/// and ended by a chunk of zero bytes. Pure bookkeeping, no X.
public struct IncrementalChunks: Sendable, Equatable {
  /// The whole data's length.
  public let total: Int
  /// The largest chunk.
  public let chunkSize: Int
  /// Where the next chunk starts.
  public private(set) var offset = 0
  /// The zero-length chunk was handed out: the transfer is over.
  public private(set) var isFinished = false

  /// A transfer of `total` bytes in chunks of at most `chunkSize` (at least 1).
  public init(total: Int, chunkSize: Int) {
    precondition(total >= 0 && chunkSize > 0, "bad INCR plan")
    self.total = total
    self.chunkSize = chunkSize
  }

  /// The byte range of the next chunk: full chunks, the rest, then an empty range at
  /// `total` (the end marker), then nil.
  public mutating func next() -> Range<Int>? {
    guard !isFinished else { return nil }
    let end = min(offset + chunkSize, total)
    let r = offset..<end
    if r.isEmpty { isFinished = true }
    offset = end
    return r
  }

  /// How many chunks, the final empty one included.
  public var chunkCount: Int { (total + chunkSize - 1) / chunkSize + 1 }
}

/// The limits of a selection transfer on one server.
public enum SelectionLimits {
  /// The largest chunk (and the largest property sent at once): the server's maximum
  /// request (in 4-byte units, as `XMaxRequestSize` or BIG-REQUESTS' extended size
  /// gives it) less room for the request's header, and never above 256 KiB, as GTK and
  /// Qt do, so a requestor never has to take one huge property.
  public static func chunkSize(maxRequestUnits: Int) -> Int {
    max(1024, min(256 * 1024, maxRequestUnits * 4 - 100))
  }

  /// Data of `size` bytes goes by INCR.
  public static func needsIncremental(size: Int, chunkSize: Int) -> Bool { size > chunkSize }
}

/// The target to ask for: the first of `preferences` that the owner `offered`
/// (its TARGETS answer), nil when none is.
public func preferredTarget(offered: [String], preferences: [String]) -> String? {
  preferences.first { offered.contains($0) }
}
