import GIFLoader
import Testing

// Text from the CLIPBOARD or a drop, as the sources it names.

@Suite("Pasted and dropped text as sources")
struct PastedTextTests {
  @Test func aURIListIsOneURIALineWithoutComments() throws {
    let list =
      Array("# from a file manager\r\nfile:///tmp/a%20b.gif\r\nfile://localhost/tmp/caf%E9.gif\r\n".utf8)
      + Array("https://example.org/x.gif?s=1\r\n\r\n".utf8)
    let arguments = pastedArguments(list, target: "text/uri-list")
    #expect(
      arguments == [
        Array("file:///tmp/a%20b.gif".utf8), Array("file://localhost/tmp/caf%E9.gif".utf8),
        Array("https://example.org/x.gif?s=1".utf8),
      ])
    let sources = try arguments.map { a throws(LoadError) in try Source(argumentBytes: a) }
    // Percent-decoded to bytes: %E9 is the byte 0xE9 (a Latin-1 name), not U+00E9.
    #expect(
      sources == [
        .path("/tmp/a b.gif"), .rawPath(Array("/tmp/caf".utf8) + [0xE9] + Array(".gif".utf8)),
        .remote("https://example.org/x.gif?s=1"),
      ])
  }

  @Test func textIsOnePathALineTrimmedOfBlanksAndNULs() {
    #expect(pastedArguments(Array("  /tmp/x.gif\n".utf8), target: "UTF8_STRING") == [Array("/tmp/x.gif".utf8)])
    #expect(pastedArguments(Array("/tmp/x.gif".utf8) + [0], target: "UTF8_STRING") == [Array("/tmp/x.gif".utf8)])
    #expect(
      pastedArguments(Array("/a.gif\n\n\t/b c.gif \n".utf8), target: "text/plain")
        == [Array("/a.gif".utf8), Array("/b c.gif".utf8)])
    // Only a uri-list has comments: in text, "#1.gif" is a name.
    #expect(pastedArguments(Array("#1.gif".utf8), target: "UTF8_STRING") == [Array("#1.gif".utf8)])
    #expect(pastedArguments(Array("#1.gif".utf8), target: "text/uri-list") == [])
    #expect(pastedArguments(Array(" \n\r\n".utf8), target: "UTF8_STRING") == [])
  }

  @Test func stringIsLatin1AndBecomesUTF8() {
    #expect(
      pastedArguments([0x2F, 0x63, 0xE9, 0x2E, 0x67], target: "STRING") == [[0x2F, 0x63, 0xC3, 0xA9, 0x2E, 0x67]])
    #expect(latin1ToUTF8([0x41, 0xFF, 0x80]) == [0x41, 0xC3, 0xBF, 0xC2, 0x80])
    // UTF8_STRING is passed through as it is.
    #expect(pastedArguments([0x2F, 0xC3, 0xA9], target: "UTF8_STRING") == [[0x2F, 0xC3, 0xA9]])
  }
}
