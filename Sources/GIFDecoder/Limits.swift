/// Bounds checked before anything is allocated from sizes read in the file (DESIGN §2).
public struct Limits: Sendable, Equatable {
  /// Largest logical screen, and largest single image, in pixels (16 384²).
  public var maxCanvasPixels: Int
  /// Largest input accepted, in bytes.
  public var maxInputBytes: Int

  /// DESIGN §2: 2^28 canvas pixels (16 384²), 1 GiB of input.
  public static let `default` = Limits(maxCanvasPixels: 1 << 28, maxInputBytes: 1 << 30)

  /// Limits of `maxCanvasPixels` pixels and `maxInputBytes` bytes.
  public init(maxCanvasPixels: Int, maxInputBytes: Int) {
    self.maxCanvasPixels = maxCanvasPixels
    self.maxInputBytes = maxInputBytes
  }
}
