/// How a `GIFLoader` fetches: limits, timeouts and the disk cache (DESIGN §4 network options).
public struct LoadOptions: Sendable {
  /// The whole transfer, in seconds (`--timeout`); nil: no limit.
  public var timeout: Double?
  /// The largest remote body, in bytes (`--max-size`).
  public var maxSize: Int
  /// Read and write the disk cache (`--no-cache` → false).
  public var useCache: Bool
  /// Seconds to establish a connection (DNS, TCP and TLS).
  public var connectTimeout: Double
  /// Seconds below `stallSpeedLimit` bytes per second before the transfer ends: "timed out"
  /// when nothing came, else "transfer too slow". libcurl counts whole seconds: fractions
  /// are rounded up, and 1 is the least.
  public var stallTimeout: Double
  /// Bytes per second under which the transfer is stalled (libcurl's CURLOPT_LOW_SPEED_LIMIT;
  /// 1 KiB/s by default, so a trickle of a few bytes a second ends too).
  public var stallSpeedLimit: Int
  /// Where cached GIFs live; nil: `$XDG_CACHE_HOME/gifview`, else `~/.cache/gifview`.
  public var cacheDirectory: String?
  /// Bytes the cache may hold; the least recently used entries go first.
  public var cacheLimit: Int
  /// PEM file of trusted CAs; nil: `$SSL_CERT_FILE` when set, else the system store.
  public var caBundle: String?
  /// The largest local input (paths and stdin), in bytes (DESIGN §2: 1 GiB).
  public var localMaxSize: Int

  public init(
    timeout: Double? = nil, maxSize: Int = 256 << 20, useCache: Bool = true,
    connectTimeout: Double = 10,
    stallTimeout: Double = 30, stallSpeedLimit: Int = 1024, cacheDirectory: String? = nil,
    cacheLimit: Int = 256 << 20, caBundle: String? = nil, localMaxSize: Int = 1 << 30
  ) {
    self.timeout = timeout
    self.maxSize = maxSize
    self.useCache = useCache
    self.connectTimeout = connectTimeout
    self.stallTimeout = stallTimeout
    self.stallSpeedLimit = stallSpeedLimit
    self.cacheDirectory = cacheDirectory
    self.cacheLimit = cacheLimit
    self.caBundle = caBundle
    self.localMaxSize = localMaxSize
  }
}

/// What a `GIFLoader` reports, in order, on its own thread.
public enum LoadEvent: Sendable {
  /// Body bytes delivered so far, and the whole size when the server or the file told it.
  case progress(received: Int, expected: Int?)
  /// The body is also in `file`, each byte at its offset in the body, written there
  /// before its `.data` chunk is delivered: whoever parses the chunks may drop them and
  /// read them again from the file (DESIGN §1). Sent at most once, before the first
  /// `.data`, for a local regular file or a download that goes to the disk cache.
  case rereadable(RereadableFile)
  /// The next chunk of the body, in order.
  case data([UInt8])
  /// All bytes were delivered.
  case finished
  /// The load failed, after zero or more `.data` chunks (a partial body keeps its chunks).
  case failed(LoadError)
}
