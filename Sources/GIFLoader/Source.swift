#if canImport(Glibc)
  import Glibc
#endif

/// The version `gifview -V` prints and the User-Agent sends.
public let gifviewVersion = "1.0.0"

/// Where a GIF comes from (DESIGN §4): a path, `-` (stdin), or a URL.
public enum Source: Sendable, Equatable, CustomStringConvertible {
  case path(String)
  case stdin
  case remote(String)  // http:// or https://

  /// Parses a command-line argument; `file://` URLs become paths (percent-decoded).
  public init(argument: String) throws(LoadError) {
    if argument == "-" {
      self = .stdin
      return
    }
    let lower = argument.lowercased()
    if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
      self = .remote(argument)
    } else if lower.hasPrefix("file://") {
      var rest = Substring(argument.dropFirst(7))
      // file://host/path: only the local host is ours.
      if !rest.hasPrefix("/") {
        let host = rest.prefix { $0 != "/" }
        guard host.isEmpty || host == "localhost" else {
          throw LoadError(.unsupportedURL("file URL with host '\(host)'"), source: argument)
        }
        rest = rest.dropFirst(host.count)
      }
      let cut = rest.firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
      guard let path = Self.percentDecoded(String(rest[..<cut])), !path.isEmpty else {
        throw LoadError(.unsupportedURL("bad file URL"), source: argument)
      }
      self = .path(path)
    } else if let scheme = Self.scheme(of: argument) {
      throw LoadError(.unsupportedURL("unsupported URL scheme '\(scheme)'"), source: argument)
    } else {
      self = .path(argument)
    }
  }

  public var description: String {
    switch self {
    case .path(let p): p
    case .stdin: "-"
    case .remote(let u): u
    }
  }

  /// The name a window title shows: a file's base name, or the URL.
  public var displayName: String {
    switch self {
    case .path(let p): String(p.split(separator: "/").last ?? Substring(p))
    case .stdin: "stdin"
    case .remote(let u): u
    }
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

  static func percentDecoded(_ s: String) -> String? {
    var bytes: [UInt8] = []
    var it = Array(s.utf8)[...]
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
    return String(validating: bytes, as: UTF8.self) ?? String(decoding: bytes, as: UTF8.self)
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

  public var description: String {
    switch kind {
    case .system(let text): text
    case .isDirectory: "is a directory"
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
