import CCurl

#if canImport(Glibc)
  import Glibc
#endif

/// Sent with every request.
let userAgent = "gifview/\(gifviewVersion)"

/// The first four bytes of every GIF.
let gifSignature: [UInt8] = Array("GIF8".utf8)

/// The response a transfer ended on (after redirects).
struct HTTPResponse {
  var status = 0
  var reason = ""
  /// Lower-cased names; the last value of each.
  var headers: [String: String] = [:]

  /// The media type without parameters: "text/html" for "text/html; charset=utf-8".
  var contentType: String? {
    guard let value = headers["content-type"] else { return nil }
    let type = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
    let trimmed = type.trimmingSpaces
    return trimmed.isEmpty ? nil : trimmed.lowercased()
  }

  /// Body bytes are the bytes on the wire (no Content-Encoding other than identity).
  var isIdentityEncoded: Bool {
    guard let e = headers["content-encoding"] else { return true }
    return e.trimmingSpaces.lowercased() == "identity" || e.trimmingSpaces.isEmpty
  }

  var contentLength: Int? { headers["content-length"].flatMap { Int($0.trimmingSpaces) } }

  /// Cache-Control: nil when it says nothing about freshness, else seconds the body stays
  /// fresh (0 for no-cache); `noStore` when it must not be cached at all.
  var freshnessLifetime: Int? {
    var result: Int?
    for directive in cacheControl {
      if directive == "no-cache" { return 0 }
      if directive.hasPrefix("max-age="), let n = Int(directive.dropFirst(8)) { result = max(0, n) }
    }
    return result
  }

  var noStore: Bool { cacheControl.contains("no-store") }

  private var cacheControl: [String] {
    (headers["cache-control"] ?? "").lowercased().split(separator: ",").map { $0.trimmingSpaces }
  }
}

/// Validators of a cached entry, sent as If-None-Match / If-Modified-Since.
struct Validators {
  var etag: String?
  var lastModified: String?
}

/// One HTTP(S) GET with libcurl's easy API on the calling thread. The body goes to `emit`
/// chunk by chunk, in order, once its first four bytes proved it a GIF; `perform()` tells
/// how it ended. Everything here runs on that one thread: libcurl calls back into it from
/// inside `curl_easy_perform`.
final class HTTPTransfer {
  enum Outcome {
    /// A 2xx body that starts with GIF8, delivered whole; `spool` holds it when it went
    /// to the cache's directory as it arrived.
    case complete(HTTPResponse, spool: DiskCache.Spool?)
    /// 304 to a conditional request: the cached body is current.
    case notModified(HTTPResponse)
    case failed(LoadError.Kind)
  }

  let url: String
  let options: LoadOptions
  let validators: Validators?
  let emit: (LoadEvent) -> Void
  let isCancelled: () -> Bool

  private var response = HTTPResponse()
  private var received = 0  // body bytes handed to us by libcurl (decoded)
  private var expected: Int?
  private var head: [UInt8] = []  // the first bytes, held back until GIF8 is seen
  private var verified = false
  /// The blank line after the current response's headers arrived.
  private var headersComplete = false
  /// Where the body goes as it arrives, for the cache and for reading it again.
  private let cache: DiskCache?
  /// The body's file once the first bytes of a cacheable 2xx body arrived. The caller
  /// stores or discards it after `perform()`, whatever the outcome.
  private(set) var spool: DiskCache.Spool?
  /// A spool is tried for the first bytes only: one begun later would lack them.
  private var spoolTried = false
  private var abortReason: LoadError.Kind?

  /// `cache`: a 2xx body that may be cached is written to a file in its directory as it
  /// arrives (see `spool`), and the load says it is `.rereadable` from there.
  init(
    url: String, options: LoadOptions, validators: Validators?, cache: DiskCache?,
    emit: @escaping (LoadEvent) -> Void, isCancelled: @escaping () -> Bool
  ) {
    self.url = url
    self.options = options
    self.validators = validators
    self.cache = cache
    self.emit = emit
    self.isCancelled = isCancelled
  }

  /// Whole seconds, 1 to 2^20 (NaN counts as 1): libcurl's CURLOPT_LOW_SPEED_TIME.
  var stallSeconds: Int {
    let seconds = options.stallTimeout.rounded(.up)
    guard seconds >= 1 else { return 1 }
    return Int(min(seconds, Double(1 << 20)))
  }
  var stallSpeedLimit: Int { max(1, options.stallSpeedLimit) }

  func perform() -> Outcome {
    guard let easy = CurlEasy() else { return .failed(.network(curlUnavailable ?? "could not start libcurl")) }
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    defer { errorBuffer.deallocate() }
    let requestHeaders = CurlHeaderList()
    if let etag = validators?.etag { requestHeaders.append("If-None-Match: \(etag)") }
    if let date = validators?.lastModified { requestHeaders.append("If-Modified-Since: \(date)") }

    // The callbacks get `self` back through their user-data pointer; `self` outlives
    // `perform()` because this method is running on it.
    let me = Unmanaged.passUnretained(self).toOpaque()
    do throws(CurlCode) {
      try easy.set(CURLOPT_URL, url)
      try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
      try easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
      try easy.set(CURLOPT_FOLLOWLOCATION, 1)
      try easy.set(CURLOPT_MAXREDIRS, 10)
      try easy.set(CURLOPT_USERAGENT, userAgent)
      try easy.set(CURLOPT_ACCEPT_ENCODING, "")  // every encoding libcurl decodes (gzip…)
      try easy.set(CURLOPT_NOSIGNAL, 1)
      try easy.set(CURLOPT_SSL_VERIFYPEER, 1)
      try easy.set(CURLOPT_SSL_VERIFYHOST, 2)
      if let ca = caBundle { try easy.set(CURLOPT_CAINFO, ca) }
      try easy.set(CURLOPT_CONNECTTIMEOUT_MS, milliseconds(options.connectTimeout))
      try easy.set(CURLOPT_LOW_SPEED_LIMIT, stallSpeedLimit)
      try easy.set(CURLOPT_LOW_SPEED_TIME, stallSeconds)
      if let timeout = options.timeout { try easy.set(CURLOPT_TIMEOUT_MS, milliseconds(timeout)) }
      try easy.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
      try easy.set(CURLOPT_HTTPHEADER, pointer: UnsafeMutableRawPointer(requestHeaders.list))
      try easy.set(CURLOPT_WRITEDATA, pointer: me)
      try easy.check(
        gv_setopt_write(easy.handle) { data, size, count, user in
          let n = size * count
          let transfer = Unmanaged<HTTPTransfer>.fromOpaque(user!).takeUnretainedValue()
          return transfer.didReceive(UnsafeRawBufferPointer(start: data, count: n)) ? n : 0
        })
      try easy.set(CURLOPT_HEADERDATA, pointer: me)
      try easy.check(
        gv_setopt_header(easy.handle) { data, size, count, user in
          let n = size * count
          let transfer = Unmanaged<HTTPTransfer>.fromOpaque(user!).takeUnretainedValue()
          return transfer.didReceiveHeader(UnsafeRawBufferPointer(start: data, count: n)) ? n : 0
        })
      try easy.set(CURLOPT_XFERINFODATA, pointer: me)
      try easy.check(
        gv_setopt_xferinfo(easy.handle) { user, _, _, _, _ in
          let transfer = Unmanaged<HTTPTransfer>.fromOpaque(user!).takeUnretainedValue()
          return transfer.shouldAbort() ? 1 : 0
        })
      try easy.set(CURLOPT_NOPROGRESS, 0)
    } catch {
      return .failed(.network("libcurl: \(error)"))
    }

    let started = monotonicSeconds()
    let code = easy.perform()
    let elapsed = monotonicSeconds() - started
    let errorText = String(cString: errorBuffer)

    if isCancelled() { return .failed(.cancelled) }
    if let abortReason { return .failed(abortReason) }
    guard code == .ok else {
      return .failed(failure(code, easy: easy, errorText: errorText, elapsed: elapsed))
    }
    // libcurl calls a connection that closes inside the headers a success.
    if response.status != 0 && !headersComplete { return .failed(.closedBeforeResponse) }
    switch response.status {
    case 200..<300:
      guard verified else {
        return .failed(received == 0 ? .emptyInput : .notAGIF(contentType: response.contentType))
      }
      return .complete(response, spool: spool)
    case 304 where validators != nil:
      return .notModified(response)
    default:
      return .failed(.http(status: response.status, reason: response.reason))
    }
  }

  /// The CA bundle: the option, else `$SSL_CERT_FILE`, else libcurl's (the system store).
  private var caBundle: String? {
    if let ca = options.caBundle { return ca }
    guard let env = getenv("SSL_CERT_FILE") else { return nil }
    let path = String(cString: env)
    return path.isEmpty ? nil : path
  }

  // MARK: libcurl callbacks

  /// One header line of the current response (libcurl also passes the status line of each
  /// response, redirects included, and the blank line ending the headers).
  private func didReceiveHeader(_ raw: UnsafeRawBufferPointer) -> Bool {
    var end = raw.count
    while end > 0 && (raw[end - 1] == 10 || raw[end - 1] == 13) { end -= 1 }
    let bytes = UnsafeRawBufferPointer(rebasing: raw[0..<end])
    let line = String(decoding: bytes, as: UTF8.self)
    if line.hasPrefix("HTTP/") {
      // The reason phrase is the server's to choose: kept byte-exact (bytes that are not
      // UTF-8 as \xNN), escaped when shown.
      let parts = bytes.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: true)
      response = HTTPResponse()
      headersComplete = false
      response.status = parts.count > 1 ? Int(String(decoding: parts[1], as: UTF8.self)) ?? 0 : 0
      response.reason = parts.count > 2 ? displayText(parts[2], keepingControls: true).trimmingSpaces : ""
    } else if line.isEmpty {
      headersComplete = true
      guard (200..<300).contains(response.status) else { return true }
      expected = response.isIdentityEncoded ? response.contentLength : nil
      if let length = response.contentLength, response.isIdentityEncoded, length > options.maxSize {
        abortReason = .tooLarge(limit: options.maxSize)
        return false
      }
      emit(.progress(received: 0, expected: expected))
    } else if let colon = line.firstIndex(of: ":") {
      let name = line[..<colon].trimmingSpaces.lowercased()
      response.headers[name] = line[line.index(after: colon)...].trimmingSpaces
    }
    return !shouldAbort()
  }

  /// The next piece of the body of the current response.
  private func didReceive(_ chunk: UnsafeRawBufferPointer) -> Bool {
    if shouldAbort() { return false }
    guard (200..<300).contains(response.status) else {
      // A redirect's own body is skipped: libcurl follows it or reports why it could not.
      if (300..<400).contains(response.status) { return true }
      abortReason = .http(status: response.status, reason: response.reason)
      return false
    }
    received += chunk.count
    if received > options.maxSize {
      abortReason = .tooLarge(limit: options.maxSize)
      return false
    }
    if verified {
      deliver(Array(chunk))
      return true
    }
    head += chunk
    guard gifSignature.starts(with: head.prefix(4)) else {
      abortReason = .notAGIF(contentType: response.contentType)
      return false
    }
    if head.count >= 4 {
      verified = true
      deliver(head)
      head = []
    }
    return true
  }

  private func deliver(_ bytes: [UInt8]) {
    if !spoolTried {
      spoolTried = true
      if let cache, !response.noStore, let spool = cache.beginSpool() {
        // The first bytes of the body: from here on it is on disk before it is delivered.
        self.spool = spool
        emit(.rereadable(spool.file))
      }
    }
    spool?.append(bytes)
    emit(.data(bytes))
    emit(.progress(received: received, expected: expected))
  }

  private func shouldAbort() -> Bool {
    if isCancelled() {
      abortReason = .cancelled
      return true
    }
    return false
  }

  // MARK: errors

  private func failure(_ code: CurlCode, easy: CurlEasy, errorText: String, elapsed: Double)
    -> LoadError.Kind
  {
    switch code {
    case .couldNotResolveHost:
      return .unresolvedHost(curlHost(of: easy.string(CURLINFO_EFFECTIVE_URL) ?? url))
    case .couldNotConnect:
      let os = easy.long(CURLINFO_OS_ERRNO) ?? 0
      if os == Int(ECONNREFUSED) { return .connectionRefused }
      let host = curlHost(of: easy.string(CURLINFO_EFFECTIVE_URL) ?? url)
      let why = os != 0 ? String(cString: strerror(Int32(os))).lowercased() : "failed"
      return .network("could not connect to \(host): \(why)")
    case .operationTimedOut:
      if let timeout = options.timeout, elapsed >= timeout - 0.05 {
        return .timedOut(seconds: timeout)
      }
      if errorText.hasPrefix("Operation too slow") {
        // A server that never answered timed out; one that answers slower than the limit
        // (a trickle that would never end) is too slow.
        if response.status == 0 && received == 0 { return .timedOut(seconds: Double(stallSeconds)) }
        return .tooSlow(bytesPerSecond: stallSpeedLimit, seconds: stallSeconds)
      }
      return .timedOut(seconds: options.connectTimeout)
    case .peerFailedVerification:
      // One code for every verification failure; libcurl's text tells which (OpenSSL:
      // "certificate has expired", "no alternative certificate subject name matches target
      // host name …" or "… subject name '…' does not match target host name …").
      let text = errorText.lowercased()
      if text.contains("expired") { return .certificateExpired }
      if text.contains("subject name") || text.contains("host name") { return .certificateNameMismatch }
      return .untrustedCertificate
    case .outOfMemory where !headersComplete, .recvError where errorText.contains("Too large response headers"):
      // libcurl 7.x refuses a header over 100 KiB as "out of memory", 8.x as a receive error.
      return .headerTooLarge
    case .tooManyRedirects:
      return .tooManyRedirects
    case .unsupportedProtocol:
      if (300..<400).contains(response.status), let location = response.headers["location"],
        let colon = location.firstIndex(of: ":")
      {
        return .redirectScheme(location[..<colon].lowercased())
      }
      return .network(oneLine(errorText, code))
    case .partialFile, .recvError, .gotNothing, .sendError:
      guard (200..<300).contains(response.status), headersComplete else {
        if response.status == 0 { return .network("connection closed without a response") }
        if !headersComplete { return .closedBeforeResponse }
        return .network(oneLine(errorText, code))
      }
      if response.isIdentityEncoded {
        return .truncated(received: received, expected: response.contentLength)
      }
      return .truncated(
        received: easy.offset(CURLINFO_SIZE_DOWNLOAD_T) ?? received,
        expected: response.contentLength)
    case .sslCACertBadFile:
      return .network("could not read the CA file \(caBundle ?? "")")
    case .sslConnectError:
      return .network("TLS handshake failed")
    case .badContentEncoding:
      return .network("bad compressed data from the server")
    case .urlMalformat:
      return .unsupportedURL("bad URL")
    default:
      return .network(oneLine(errorText, code))
    }
  }

  /// libcurl's own text, first letter lowered, without a trailing period or newline.
  private func oneLine(_ errorText: String, _ code: CurlCode) -> String {
    var text = errorText.isEmpty ? code.description : errorText
    text = String(text.prefix { $0 != "\n" })
    while text.last == "." || text.last == " " { text.removeLast() }
    guard let first = text.first else { return "network error" }
    return first.lowercased() + text.dropFirst()
  }
}

/// Milliseconds for a libcurl option: at least 1, at most Int32.max (24.8 days, which every
/// C long and libcurl's timers hold); saturates instead of trapping, for any Double
/// (infinity and NaN give the most).
func milliseconds(_ seconds: Double) -> Int {
  let ms = (seconds * 1000).rounded(.up)
  guard ms < Double(Int32.max) else { return Int(Int32.max) }
  guard ms >= 1 else { return 1 }
  return Int(ms)
}

func monotonicSeconds() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

extension StringProtocol {
  var trimmingSpaces: String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let start = firstIndex(where: { !isSpace($0) }) else { return "" }
    let end = lastIndex(where: { !isSpace($0) })!
    return String(self[start...end])
  }
}

/// Standard reason phrases, for status lines that carry none (HTTP/2 never does).
func httpReasonPhrase(_ status: Int) -> String {
  switch status {
  case 300: "Multiple Choices"
  case 301: "Moved Permanently"
  case 302: "Found"
  case 303: "See Other"
  case 304: "Not Modified"
  case 305: "Use Proxy"
  case 307: "Temporary Redirect"
  case 308: "Permanent Redirect"
  case 400: "Bad Request"
  case 401: "Unauthorized"
  case 402: "Payment Required"
  case 403: "Forbidden"
  case 404: "Not Found"
  case 405: "Method Not Allowed"
  case 406: "Not Acceptable"
  case 407: "Proxy Authentication Required"
  case 408: "Request Timeout"
  case 409: "Conflict"
  case 410: "Gone"
  case 411: "Length Required"
  case 412: "Precondition Failed"
  case 413: "Content Too Large"
  case 414: "URI Too Long"
  case 415: "Unsupported Media Type"
  case 416: "Range Not Satisfiable"
  case 417: "Expectation Failed"
  case 418: "I'm a teapot"
  case 421: "Misdirected Request"
  case 422: "Unprocessable Content"
  case 425: "Too Early"
  case 426: "Upgrade Required"
  case 428: "Precondition Required"
  case 429: "Too Many Requests"
  case 431: "Request Header Fields Too Large"
  case 451: "Unavailable For Legal Reasons"
  case 500: "Internal Server Error"
  case 501: "Not Implemented"
  case 502: "Bad Gateway"
  case 503: "Service Unavailable"
  case 504: "Gateway Timeout"
  case 505: "HTTP Version Not Supported"
  case 506: "Variant Also Negotiates"
  case 507: "Insufficient Storage"
  case 508: "Loop Detected"
  case 511: "Network Authentication Required"
  default:
    switch status / 100 {
    case 1: "Informational"
    case 2: "Success"
    case 3: "Redirection"
    case 4: "Client Error"
    case 5: "Server Error"
    default: "Unknown Status"
    }
  }
}
