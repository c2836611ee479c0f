import CCurl

/// A libcurl result (STYLE §2.2): unknown codes round-trip; text from `curl_easy_strerror`.
struct CurlCode: RawRepresentable, Equatable, Error, CustomStringConvertible {
  var rawValue: CURLcode
  init(rawValue: CURLcode) { self.rawValue = rawValue }
  init(_ code: CURLcode) { rawValue = code }

  static let ok = CurlCode(CURLE_OK)
  static let unsupportedProtocol = CurlCode(CURLE_UNSUPPORTED_PROTOCOL)
  static let couldNotResolveHost = CurlCode(CURLE_COULDNT_RESOLVE_HOST)
  static let couldNotConnect = CurlCode(CURLE_COULDNT_CONNECT)
  static let partialFile = CurlCode(CURLE_PARTIAL_FILE)
  static let writeError = CurlCode(CURLE_WRITE_ERROR)
  static let operationTimedOut = CurlCode(CURLE_OPERATION_TIMEDOUT)
  static let abortedByCallback = CurlCode(CURLE_ABORTED_BY_CALLBACK)
  static let tooManyRedirects = CurlCode(CURLE_TOO_MANY_REDIRECTS)
  static let gotNothing = CurlCode(CURLE_GOT_NOTHING)
  static let recvError = CurlCode(CURLE_RECV_ERROR)
  static let sendError = CurlCode(CURLE_SEND_ERROR)
  static let peerFailedVerification = CurlCode(CURLE_PEER_FAILED_VERIFICATION)
  static let sslConnectError = CurlCode(CURLE_SSL_CONNECT_ERROR)
  static let sslCACertBadFile = CurlCode(CURLE_SSL_CACERT_BADFILE)
  static let badContentEncoding = CurlCode(CURLE_BAD_CONTENT_ENCODING)
  static let urlMalformat = CurlCode(CURLE_URL_MALFORMAT)
  static let outOfMemory = CurlCode(CURLE_OUT_OF_MEMORY)

  var description: String { String(cString: gv_easy_strerror(rawValue)) }
}

/// libcurl loaded and curl_global_init run, once per process (Swift runs a global's
/// initialiser exactly once); nil when ready, else why not.
let curlUnavailable: String? = {
  if let error = gv_curl_load() { return String(cString: error) }
  return gv_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK ? nil : "curl_global_init failed"
}()

/// One easy handle, used on one thread (STYLE §2: typed calls over the shim's wrappers).
final class CurlEasy {
  let handle: UnsafeMutableRawPointer  // CURL *

  init?() {
    guard curlUnavailable == nil, let h = gv_easy_init() else { return nil }
    handle = h
  }

  deinit { gv_easy_cleanup(handle) }

  func set(_ option: CURLoption, _ value: Int) throws(CurlCode) {
    try check(gv_setopt_long(handle, option, value))
  }

  /// libcurl copies string options (since 7.17), so the C string need not outlive the call.
  func set(_ option: CURLoption, _ value: String) throws(CurlCode) {
    try check(value.withCString { gv_setopt_str(handle, option, $0) })
  }

  func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(CurlCode) {
    try check(gv_setopt_ptr(handle, option, pointer))
  }

  func perform() -> CurlCode { CurlCode(gv_easy_perform(handle)) }

  func long(_ info: CURLINFO) -> Int? {
    var v = 0
    return gv_getinfo_long(handle, info, &v) == CURLE_OK ? v : nil
  }

  func offset(_ info: CURLINFO) -> Int? {
    var v: curl_off_t = 0
    return gv_getinfo_off(handle, info, &v) == CURLE_OK ? v : nil
  }

  func string(_ info: CURLINFO) -> String? {
    var p: UnsafeMutablePointer<CChar>?
    guard gv_getinfo_str(handle, info, &p) == CURLE_OK, let p else { return nil }
    return String(cString: p)
  }

  /// For the shim's callback setters, which answer a bare CURLcode.
  func check(_ code: CURLcode) throws(CurlCode) {
    if code != CURLE_OK { throw CurlCode(code) }
  }
}

/// A `curl_slist` of request headers, freed with its owner.
final class CurlHeaderList {
  private(set) var list: UnsafeMutablePointer<curl_slist>?

  func append(_ line: String) {
    if let l = gv_slist_append(list, line) { list = l }
  }

  deinit { gv_slist_free_all(list) }
}

/// The host part of a URL, via libcurl's URL parser; the URL itself when it has none.
func curlHost(of url: String) -> String {
  guard curlUnavailable == nil, let u = gv_url() else { return url }
  defer { gv_url_cleanup(u) }
  guard gv_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK else { return url }
  var p: UnsafeMutablePointer<CChar>?
  guard gv_url_get(u, CURLUPART_HOST, &p, 0) == CURLUE_OK, let p else { return url }
  defer { gv_free(p) }
  return String(cString: p)
}
