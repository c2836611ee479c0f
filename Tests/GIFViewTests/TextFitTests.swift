import GIFTestSupport
import Testing
import X11Window

/// Card text wraps at spaces and is cut with an ellipsis, so it never leaves its box.
@Suite("Text that fits its box", .enabled(if: Xvfb.available), .serialized)
struct TextFitTests {
  @Test func longMessagesWrapAtSpacesWithinTheWidth() throws {
    let xvfb = try Xvfb(width: 320, height: 240)
    defer { xvfb.stop() }
    try withConnection(xvfb) { window in
      let message = "connection closed after 1234 of 56789 bytes from a very slow server"
      for width in [60, 100, 160, 400] {
        let lines = window.fitText([message], maxWidth: width, maxLines: 20)
        for line in lines {
          #expect(window.textWidth(line) <= width, "\"\(line)\" is wider than \(width)")
        }
        // Nothing is lost: words wider than the box break inside themselves.
        #expect(
          lines.joined().filter { $0 != " " } == message.filter { $0 != " " }, "lost text at width \(width): \(lines)")
        if width >= 100 { #expect(lines.joined(separator: " ") == message, "\(lines) broke inside a word") }
        if window.textWidth(message) > width { #expect(lines.count > 1) }
      }
    }
  }

  @Test func tooManyLinesEndWithAnEllipsis() throws {
    let xvfb = try Xvfb(width: 320, height: 240)
    defer { xvfb.stop() }
    try withConnection(xvfb) { window in
      let lines = window.fitText(["one two three four five six seven eight nine ten"], maxWidth: 50, maxLines: 2)
      #expect(lines.count == 2)
      #expect(lines[1].hasSuffix("…"), "\(lines)")
      for line in lines { #expect(window.textWidth(line) <= 50, "\"\(line)\"") }
      let word = window.fitText(["Supercalifragilisticexpialidocious"], maxWidth: 40, maxLines: 1)
      #expect(word.count == 1 && word[0].hasSuffix("…") && window.textWidth(word[0]) <= 40, "\(word)")
    }
  }

  /// A child window on its own connection, closed before the server stops.
  private func withConnection(_ xvfb: Xvfb, _ body: (ChildWindow) throws -> Void) throws {
    let connection = try X11Connection(name: xvfb.display)
    let top = TopLevelWindow(connection: connection, options: WindowOptions(title: "t", width: 100, height: 100))
    let child = ChildWindow(connection: connection, parent: top.id, x: 0, y: 0, width: 100, height: 100)
    try body(child)
    child.close()
    top.close()
    connection.close()
  }
}
