import GIFLoader

/// The whole input of a source, for the headless modes.
func fetchWhole(_ source: Source, options: Options) throws(LoadError) -> [UInt8] {
  switch source {
  case .path, .stdin:
    return try LocalReader.readAll(source, maxBytes: 1 << 30)
  case .remote:
    throw LoadError(.unsupportedURL("http(s) URLs are not supported yet"), source: source.description)
  }
}
