/// A composited frame as the cache keeps it: only the part of the screen that images
/// have drawn on so far (`area`); every pixel outside it is transparent. A file whose
/// images cover a corner of a huge screen costs the corner, not the screen.
public struct RenderedFrame: Sendable, Equatable {
  /// The screen the frame belongs to.
  public let screenWidth: Int
  /// The screen the frame belongs to.
  public let screenHeight: Int
  /// The part of the screen `pixels` holds (clipped to it; may be empty).
  public let area: Rect
  /// `area`'s pixels, row by row.
  public let pixels: [UInt32]

  /// A frame holding `area` of a `screenWidth`×`screenHeight` screen.
  public init(screenWidth: Int, screenHeight: Int, area: Rect, pixels: [UInt32]) {
    precondition(pixels.count == area.width * area.height || (area.isEmpty && pixels.isEmpty))
    self.screenWidth = screenWidth
    self.screenHeight = screenHeight
    self.area = area
    self.pixels = pixels
  }

  /// The area is the whole screen: `pixels` is the canvas as it is.
  public var coversScreen: Bool { area == Rect(x0: 0, y0: 0, x1: screenWidth, y1: screenHeight) }

  /// The pixel at screen point (x, y); 0 (transparent) outside the area.
  public func pixel(x: Int, y: Int) -> UInt32 {
    guard x >= area.x0 && x < area.x1 && y >= area.y0 && y < area.y1 else { return 0 }
    return pixels[(y - area.y0) * area.width + (x - area.x0)]
  }

  /// The whole screen's canvas (allocates it unless the area is the screen).
  public func canvas() -> [UInt32] {
    if coversScreen { return pixels }
    var out = [UInt32](repeating: 0, count: screenWidth * screenHeight)
    let w = area.width
    out.withUnsafeMutableBufferPointer { o in
      pixels.withUnsafeBufferPointer { p in
        for y in area.y0..<area.y1 {
          let to = y * screenWidth + area.x0
          let from = (y - area.y0) * w
          _ = UnsafeMutableBufferPointer(rebasing: o[to..<(to + w)])
            .update(fromContentsOf: UnsafeBufferPointer(rebasing: p[from..<(from + w)]))
        }
      }
    }
    return out
  }
}
