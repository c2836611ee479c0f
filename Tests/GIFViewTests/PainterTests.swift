import GIFDecoder
import Testing

@testable import GIFView

@Suite("Painter (no X)")
struct PainterTests {
  /// A w×h frame of pseudo-random colours, about a third of the pixels transparent.
  private func noise(_ w: Int, _ h: Int, seed: UInt32) -> RenderedFrame {
    var state = seed
    let pixels = (0..<(w * h)).map { _ -> UInt32 in
      state = state &* 1_103_515_245 &+ 12345
      let c = state >> 8 & 0xFF_FFFF
      return state >> 29 < 3 ? 0 : 0xFF00_0000 | c
    }
    return RenderedFrame(screenWidth: w, screenHeight: h, area: Rect(x0: 0, y0: 0, x1: w, y1: h), pixels: pixels)
  }

  private func draw(_ f: RenderedFrame, scale: Double, _ bw: Int, _ bh: Int, shortcuts: Bool) -> [UInt32] {
    let tile = Tile(x0: 0, y0: 0, x1: bw, y1: bh)
    let place = Placement(imageWidth: f.screenWidth, imageHeight: f.screenHeight, scale: scale, in: tile)
    var out = [UInt32](repeating: 0, count: bw * bh)
    out.withUnsafeMutableBufferPointer {
      Painter.draw(frame: f, at: place, over: .checker, into: $0, width: bw, tile: tile, shortcuts: shortcuts)
    }
    return out
  }

  @Test func theTwoToOneShrinkEqualsTheGeneralScaler() {
    for (w, h, bw, bh) in [(64, 48, 32, 24), (64, 48, 40, 30), (200, 100, 90, 70)] {
      let f = noise(w, h, seed: UInt32(w * h))
      let fast = draw(f, scale: 0.5, bw, bh, shortcuts: true)
      let general = draw(f, scale: 0.5, bw, bh, shortcuts: false)
      #expect(fast == general, "\(w)x\(h) in \(bw)x\(bh)")
      #expect(Set(fast).count > 100, "a picture, not a fill")
    }
  }

  @Test func anAreaSmallerThanTheScreenDrawsAsItsWholeCanvas() {
    // The same frame as an area of a larger screen and as the whole canvas: equal pictures.
    let part = noise(20, 10, seed: 7)
    let area = Rect(x0: 30, y0: 12, x1: 50, y1: 22)
    let small = RenderedFrame(screenWidth: 64, screenHeight: 48, area: area, pixels: part.pixels)
    let whole = RenderedFrame(
      screenWidth: 64, screenHeight: 48, area: Rect(x0: 0, y0: 0, x1: 64, y1: 48), pixels: small.canvas())
    for scale in [1.0, 0.5, 0.37, 2.0, 3.3] {
      #expect(
        draw(small, scale: scale, 70, 50, shortcuts: true) == draw(whole, scale: scale, 70, 50, shortcuts: false),
        "scale \(scale)")
    }
  }
}
