/// Sources named by text that came from another program (the CLIPBOARD, a drop): the
/// arguments they stand for, each as bytes for `Source(argumentBytes:)`, which turns a
/// `file://` URI into the path it names, percent-decoded to bytes.
///
/// - `text/uri-list` (RFC 2483): one URI a line, CRLF or LF, `#` lines are comments.
/// - `STRING` is Latin-1 (ICCCM) and becomes UTF-8; `UTF8_STRING`, `text/plain` and
///   the rest are taken as UTF-8 bytes as they are.
///
/// In text, every non-empty line is one path or URL, without the spaces, tabs and
/// NULs around it (a file manager copies several files as several lines).
public func pastedArguments(_ bytes: [UInt8], target: String) -> [[UInt8]] {
  let text = target == "STRING" ? latin1ToUTF8(bytes) : bytes
  let uriList = target == "text/uri-list"
  return text.split { $0 == 10 || $0 == 13 }.compactMap { line -> [UInt8]? in
    let trimmed = line.drop { isBlank($0) }.reversed().drop { isBlank($0) }.reversed()
    if trimmed.isEmpty || (uriList && trimmed.first == UInt8(ascii: "#")) { return nil }
    return Array(trimmed)
  }
}

private func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0 }

/// ISO 8859-1 bytes as UTF-8 (each byte is the code point of the same number).
public func latin1ToUTF8(_ bytes: [UInt8]) -> [UInt8] {
  var out: [UInt8] = []
  out.reserveCapacity(bytes.count)
  for b in bytes {
    if b < 0x80 {
      out.append(b)
    } else {
      out.append(0xC0 | b >> 6)
      out.append(0x80 | b & 0x3F)
    }
  }
  return out
}
