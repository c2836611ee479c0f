import GIFLoader

/// The whole input of a source, for the headless modes: local sources up to the 1 GiB input
/// limit, URLs through the loader with `--timeout`, `--max-size` and `--no-cache`.
func fetchWhole(_ source: Source, options: Options) throws(LoadError) -> [UInt8] {
  try GIFLoader.fetchAll(source, options: loadOptions(options))
}

/// The loader's options from the command line.
func loadOptions(_ options: Options) -> LoadOptions {
  LoadOptions(
    timeout: options.timeout, maxSize: options.maxSize, useCache: !options.noCache, localMaxSize: options.maxInput)
}
