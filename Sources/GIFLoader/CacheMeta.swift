/// What the cache knows of one entry; stored as `KEY.meta` beside the body `KEY.gif`.
struct CacheMeta: Equatable {
  var url: String
  var etag: String?
  var lastModified: String?
  var size: Int
  var checksum: UInt64
  /// Unix seconds until which the body may be used without asking the server; 0: ask.
  var freshUntil: Int

  static let magic = "gifview-cache 1"

  var encoded: [UInt8] {
    var text =
      "\(Self.magic)\nurl \(url)\nsize \(size)\nchecksum \(hex16(checksum))\nfresh-until \(freshUntil)\n"
    if let etag { text += "etag \(etag)\n" }
    if let lastModified { text += "last-modified \(lastModified)\n" }
    return Array(text.utf8)
  }

  /// nil unless every required field is there and well-formed (a damaged file is a miss).
  init?(parsing bytes: [UInt8]) {
    let lines = String(decoding: bytes, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false)
    guard lines.first == Substring(Self.magic), lines.last == "" else { return nil }
    var fields: [Substring: Substring] = [:]
    for line in lines.dropFirst().dropLast() {
      guard let space = line.firstIndex(of: " ") else { return nil }
      fields[line[..<space]] = line[line.index(after: space)...]
    }
    guard let url = fields["url"], let size = fields["size"].flatMap({ Int($0) }), size >= 0,
      let sum = fields["checksum"], sum.count == 16, let checksum = UInt64(sum, radix: 16),
      let fresh = fields["fresh-until"].flatMap({ Int($0) })
    else { return nil }
    self.init(
      url: String(url), etag: fields["etag"].map(String.init),
      lastModified: fields["last-modified"].map(String.init),
      size: size, checksum: checksum, freshUntil: fresh)
  }

  init(
    url: String, etag: String?, lastModified: String?, size: Int, checksum: UInt64, freshUntil: Int
  ) {
    self.url = url
    self.etag = etag
    self.lastModified = lastModified
    self.size = size
    self.checksum = checksum
    self.freshUntil = freshUntil
  }
}
