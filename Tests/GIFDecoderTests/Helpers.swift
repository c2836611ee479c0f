import GIFDecoder
import GIFTestSupport
import Testing

/// Decodes a built GIF and composites every image.
func render(_ gif: GIFBuilder, limits: Limits = .default) throws -> Rendered {
  try Rendered.decode(gif.bytes, limits: limits)
}

/// Checks the canvas after each image against one picture per image (see `Picture`).
func expectPictures(_ rendered: Rendered, _ want: [String], sourceLocation: SourceLocation = #_sourceLocation) {
  #expect(
    rendered.canvases.count == want.count, "have \(rendered.canvases.count) frames, want \(want.count)",
    sourceLocation: sourceLocation)
  for (i, picture) in want.enumerated() where i < rendered.canvases.count {
    let have = rendered.picture(i)
    let want = Picture.normalised(picture)
    let unknown = Picture.unknownColours(rendered.canvases[i])
    let note = unknown.isEmpty ? "" : "\n(? = \(unknown))"
    #expect(have == want, "frame \(i):\nhave\n\(have)\(note)\nwant\n\(want)", sourceLocation: sourceLocation)
  }
}

/// Checks the warnings `renderAll` answered.
func expectWarnings(_ rendered: Rendered, _ want: [GIFWarning], sourceLocation: SourceLocation = #_sourceLocation) {
  #expect(
    rendered.warnings == want, "have warnings \(rendered.warnings), want \(want)", sourceLocation: sourceLocation)
}

/// `count` copies of `index`.
func fill(_ index: UInt8, _ count: Int) -> [UInt8] { [UInt8](repeating: index, count: count) }
