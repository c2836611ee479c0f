#if canImport(Glibc)
  import Glibc
#endif

/// The version `gifview -V` prints and the User-Agent sends.
public let gifviewVersion = "1.0.0"

/// Where a GIF comes from (DESIGN §4): a path, `-` (stdin), or a URL.
public enum Source: Sendable, Equatable, CustomStringConvertible {
  case path(String)
  /// A local path whose bytes are not valid UTF-8 (Linux file names are bytes, such as a
  /// Latin-1 `caf\xe9.gif`), kept exactly; `Source.local(_:)` picks this or `.path`.
  case rawPath([UInt8])
  case stdin
  case remote(String)  // http:// or https://

  /// Parses a command-line argument; `file://` URLs become paths (percent-decoded).
  public init(argument: String) throws(LoadError) {
    try self.init(argumentBytes: Array(argument.utf8))
  }

  /// Parses a command-line argument as the bytes the process got (`CommandLine.unsafeArgv`),
  /// so a file name that is not UTF-8 still opens; `file://` URLs are percent-decoded to bytes.
  public init(argumentBytes bytes: [UInt8]) throws(LoadError) {
    if bytes == [UInt8(ascii: "-")] {
      self = .stdin
      return
    }
    let argument = String(decoding: bytes, as: UTF8.self)
    let lower = argument.lowercased()
    if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
      self = .remote(argument)
    } else if lower.hasPrefix("file://") {
      var rest = bytes.dropFirst(7)
      // file://host/path: only the local host is ours.
      if rest.first != UInt8(ascii: "/") {
        let host = rest.prefix { $0 != UInt8(ascii: "/") }
        guard host.isEmpty || host.elementsEqual("localhost".utf8) else {
          throw LoadError(
            .unsupportedURL("file URL with host '\(displayText(host))'"), source: Self.name(ofArgument: bytes))
        }
        rest = rest.dropFirst(host.count)
      }
      let cut = rest.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex
      guard let path = Self.percentDecoded(rest[..<cut]), !path.isEmpty, !path.contains(0) else {
        throw LoadError(.unsupportedURL("bad file URL"), source: Self.name(ofArgument: bytes))
      }
      self = .local(path)
    } else if let scheme = Self.scheme(of: argument) {
      throw LoadError(
        .unsupportedURL("unsupported URL scheme '\(displayText(scheme))'"), source: Self.name(ofArgument: bytes))
    } else {
      self = .local(bytes)
    }
  }

  /// A local path from its bytes: `.path` when they are UTF-8, else `.rawPath`.
  public static func local(_ bytes: [UInt8]) -> Source {
    if let text = String(validating: bytes, as: UTF8.self) { return .path(text) }
    return .rawPath(bytes)
  }

  /// The bytes to hand to `open()` for a local path; nil for stdin and URLs.
  public var pathBytes: [UInt8]? {
    switch self {
    case .path(let p): Array(p.utf8)
    case .rawPath(let bytes): bytes
    case .stdin, .remote: nil
    }
  }

  /// The source as data shows it (`--info` "source"): a URL without its credentials, a path
  /// with bytes that are not UTF-8 as `\xNN`; control characters are left for the format
  /// to escape (JSON does).
  public var name: String {
    switch self {
    case .path(let p): p
    case .rawPath(let bytes): displayText(bytes, keepingControls: true)
    case .stdin: "-"
    case .remote(let u): redactingCredentials(u)
    }
  }

  /// The source as messages show it: `name` with every control character escaped
  /// (`displayText`), fit for "gifview: error: SOURCE: …" on a terminal.
  public var description: String { displayText(name) }

  /// The name a window title shows: a file's base name, or the URL (without credentials),
  /// control characters escaped.
  public var displayName: String {
    switch self {
    case .path, .rawPath:
      let bytes = pathBytes ?? []
      let base = bytes.split(separator: UInt8(ascii: "/")).last.map(Array.init) ?? bytes
      return displayText(base)
    case .stdin: return "stdin"
    case .remote: return description
    }
  }

  /// How an argument that is not a source is named in its error line.
  static func name(ofArgument bytes: [UInt8]) -> String {
    displayText(redactingCredentials(String(decoding: bytes, as: UTF8.self)))
  }

  static func scheme(of s: String) -> String? {
    guard let colon = s.firstIndex(of: ":"), s[colon...].hasPrefix("://") else { return nil }
    let scheme = s[..<colon]
    guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
    else {
      return nil
    }
    return String(scheme)
  }

  /// `%XX` escapes decoded to the bytes they stand for (a path is bytes, UTF-8 or not);
  /// nil for a `%` not followed by two hex digits.
  static func percentDecoded(_ s: some Collection<UInt8>) -> [UInt8]? {
    var bytes: [UInt8] = []
    var it = Array(s)[...]
    while let c = it.popFirst() {
      if c == UInt8(ascii: "%") {
        guard it.count >= 2, let hi = hexValue(it.removeFirst()),
          let lo = hexValue(it.removeFirst())
        else {
          return nil
        }
        bytes.append(hi << 4 | lo)
      } else {
        bytes.append(c)
      }
    }
    return bytes
  }

  private static func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}

/// Why a source could not be loaded; `description` fits "gifview: error: SOURCE: …".
public struct LoadError: Error, Equatable, CustomStringConvertible, Sendable {
  public enum Kind: Equatable, Sendable {
    case system(String)  // strerror text of open/read
    case isDirectory
    case emptyInput
    case tooLarge(limit: Int)
    case unsupportedURL(String)
    case network(String)  // a complete message from the HTTP layer
    case notAGIF(contentType: String?)
    case cancelled
    case http(status: Int, reason: String)  // a final response that is not 2xx
    case unresolvedHost(String)
    case connectionRefused
    case timedOut(seconds: Double)
    case untrustedCertificate
    case certificateExpired
    case certificateNameMismatch
    /// Below `bytesPerSecond` for `seconds` (LoadOptions' stall limits).
    case tooSlow(bytesPerSecond: Int, seconds: Int)
    case headerTooLarge
    /// The connection ended after the status line, before the response's headers did.
    case closedBeforeResponse
    case tooManyRedirects
    case redirectScheme(String)  // a redirect to a scheme other than http/https
    case truncated(received: Int, expected: Int?)  // the body ended early
  }
  public var kind: Kind
  public var source: String

  public init(_ kind: Kind, source: String) {
    self.kind = kind
    self.source = source
  }

  /// The reason, with anything that came from outside (a reason phrase, a host, a content
  /// type) passed through `displayText`: one line, no raw control characters.
  public var description: String { displayText(rawDescription) }

  private var rawDescription: String {
    switch kind {
    case .system(let text): text
    case .isDirectory: "a directory with no GIF files"
    case .emptyInput: "empty input"
    case .tooLarge(let limit): "larger than the \(formatBytes(limit)) limit"
    case .unsupportedURL(let text): text
    case .network(let text): text
    case .notAGIF(let type): type.map { "not a GIF (server sent \($0))" } ?? "not a GIF file"
    case .cancelled: "cancelled"
    case .http(let status, let reason):
      "HTTP \(status) \(reason.isEmpty ? httpReasonPhrase(status) : reason)"
    case .unresolvedHost(let host): "could not resolve host \(host)"
    case .connectionRefused: "connection refused"
    case .timedOut(let seconds): "timed out after \(formatSeconds(seconds)) s"
    case .untrustedCertificate: "certificate not trusted"
    case .certificateExpired: "certificate expired"
    case .certificateNameMismatch: "certificate name does not match"
    case .tooSlow(let rate, let seconds):
      "transfer too slow (under \(formatBytes(rate))/s for \(seconds) s)"
    case .headerTooLarge: "response header too large"
    case .closedBeforeResponse: "connection closed before the response"
    case .tooManyRedirects: "too many redirects"
    case .redirectScheme(let scheme): "redirect to unsupported URL scheme '\(scheme)'"
    case .truncated(let received, let expected?):
      "connection closed after \(received) of \(expected) bytes"
    case .truncated(let received, nil): "connection closed after \(received) bytes"
    }
  }
}

/// "30", "0.5": whole seconds without a fraction.
func formatSeconds(_ s: Double) -> String {
  if s == s.rounded() && abs(s) < 1e15 { return String(Int(s)) }
  return String(s)
}

/// "256 MiB", "1 GiB", "1000 bytes".
public func formatBytes(_ n: Int) -> String {
  if n >= 1 << 30 && n % (1 << 30) == 0 { return "\(n >> 30) GiB" }
  if n >= 1 << 20 && n % (1 << 20) == 0 { return "\(n >> 20) MiB" }
  if n >= 1 << 10 && n % (1 << 10) == 0 { return "\(n >> 10) KiB" }
  return "\(n) bytes"
}
