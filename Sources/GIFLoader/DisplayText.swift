/// Text from outside the program (file names, URLs, server headers and reason phrases)
/// made fit to print: every control character (C0, DEL, C1, and the line and bidi controls
/// that reorder or break a line) becomes a visible escape, `\n`, `\x1b`, `\u{9b}`, and every
/// byte that is not part of valid UTF-8 becomes `\xNN`. A terminal then never sees an
/// escape sequence a server or a file name chose, and a message stays on one line.
///
/// Escaping twice changes nothing (the escapes are plain ASCII), so a whole message may
/// be passed through again. With `keepingControls`, only invalid UTF-8 is escaped: for
/// JSON, which escapes controls its own way.
public func displayText(_ bytes: some Collection<UInt8>, keepingControls: Bool = false) -> String {
  let bytes = Array(bytes)
  var out = ""
  out.reserveCapacity(bytes.count)
  var parser = Unicode.UTF8.ForwardParser()
  var input = bytes.makeIterator()
  var position = 0
  while true {
    switch parser.parseScalar(from: &input) {
    case .valid(let encoded):
      position += encoded.count
      let scalar = Unicode.UTF8.decode(encoded)
      if keepingControls || !isControlCharacter(scalar) {
        out.unicodeScalars.append(scalar)
      } else {
        out += escaped(scalar)
      }
    case .error(let length):
      for b in bytes[position..<(position + length)] { out += "\\x" + hex2(b) }
      position += length
    case .emptyInput:
      return out
    }
  }
}

/// `displayText` of a string's UTF-8.
public func displayText(_ text: String, keepingControls: Bool = false) -> String {
  displayText(Array(text.utf8), keepingControls: keepingControls)
}

/// Scalars a terminal or a one-line message must not get raw (what `displayText` escapes).
public func isControlCharacter(_ u: Unicode.Scalar) -> Bool {
  switch u.value {
  case 0x00...0x1F, 0x7F...0x9F: true
  case 0x2028, 0x2029: true  // line and paragraph separators
  case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true  // bidi marks, embeddings, isolates
  default: false
  }
}

private func escaped(_ u: Unicode.Scalar) -> String {
  switch u {
  case "\n": "\\n"
  case "\r": "\\r"
  case "\t": "\\t"
  case _ where u.value < 0x80: "\\x" + hex2(UInt8(u.value))
  default: "\\u{" + String(u.value, radix: 16) + "}"
  }
}

private func hex2(_ b: UInt8) -> String {
  let digits = Array("0123456789abcdef".utf8)
  return String(decoding: [digits[Int(b >> 4)], digits[Int(b & 15)]], as: UTF8.self)
}

/// The URL with the secret of its user information replaced by `***`, for everything shown
/// or stored; the URL itself, when it has none. With a password, the user name stays (it
/// tells which account): `https://user:***@host/a.gif`. A bare user name is hidden whole,
/// `https://***@host/a.gif`: a server that takes one name and no password (an access token
/// in the user field) makes that name the secret. The host and path are untouched.
public func redactingCredentials(_ url: String) -> String {
  guard let schemeEnd = url.firstRange(of: "://") else { return url }
  let authorityStart = schemeEnd.upperBound
  let authorityEnd = url[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
  let authority = url[authorityStart..<authorityEnd]
  // The user information ends at the last "@" of the authority (a password may hold "@").
  guard let at = authority.lastIndex(of: "@") else { return url }
  if let colon = authority[..<at].firstIndex(of: ":") {
    return String(url[..<url.index(after: colon)]) + "***" + String(url[at...])
  }
  // An empty user ("https://@host/") hides nothing.
  guard at > authorityStart else { return url }
  return String(url[..<authorityStart]) + "***" + String(url[at...])
}
