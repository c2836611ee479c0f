import GIFDecoder
import GIFLoader

extension GIFPlayback {
  /// How a playback loads and plays its source.
  public struct Options: Sendable {
    /// Start paused once the first frame is shown.
    public var startsPaused = false
    /// Playback speed factor (clamped to 0.05–20).
    public var speed = 1.0
    /// Number of plays: nil plays as the file says, `.some(nil)` forever, `.some(n)` n times.
    public var plays: Int?? = nil
    /// Play 0–1 cs delays as stored instead of as 100 ms (what browsers do).
    public var exactDelays = false
    /// Cross-fade from a spinner that was on screen to the first frame.
    public var fadesIn = true
    /// Bytes of decoded frames this playback may keep (all frames when they fit, else a
    /// window rendered ahead of the play head).
    public var frameBudgetBytes = 64 << 20
    /// How the source is fetched (timeouts, size caps, disk cache).
    package var load = LoadOptions()
    /// What the decoder accepts (canvas pixels, input bytes).
    package var limits = Limits.default

    /// Default options.
    public init() {}

    /// The whole transfer's time limit in seconds (nil: none).
    public var timeoutSeconds: Double? {
      get { load.timeout }
      set { load.timeout = newValue }
    }

    /// The largest download accepted, in bytes.
    public var maxDownloadBytes: Int {
      get { load.maxSize }
      set { load.maxSize = newValue }
    }

    /// Keep downloads in the disk cache (`~/.cache/gifview`) and revalidate them.
    public var usesDiskCache: Bool {
      get { load.useCache }
      set { load.useCache = newValue }
    }

    /// The largest canvas accepted, in pixels.
    public var maxCanvasPixels: Int {
      get { limits.maxCanvasPixels }
      set { limits.maxCanvasPixels = newValue }
    }
  }
}
