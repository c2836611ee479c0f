// libFuzzer entry point for the disk cache's metadata parser (Sources/GIFLoader/CacheMeta.swift):
// arbitrary bytes either fail to parse or give a record that encodes and parses back to
// itself. Built by Benchmarks/fuzz.sh with -sanitize=fuzzer,address.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: count))
  guard let meta = CacheMeta(parsing: bytes) else { return 0 }
  precondition(meta.size >= 0, "negative size accepted")
  let again = CacheMeta(parsing: meta.encoded)
  precondition(again == meta, "a parsed record does not survive encode → parse")
  return 0
}
