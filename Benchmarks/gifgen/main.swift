// gifgen: writes the benchmark corpus and the bundled sample, deterministically.
//
//   gifgen DIR [NAME...]        the corpus (or only the named files) into DIR
//   gifgen sample [PATH]        the sample animation (default Resources/sample.gif)
//   gifgen frames N WxH PATH    N small frames of 2 cs, looping (frame-cache bookkeeping)
//   gifgen large N WxH PATH     N big noisy frames of 4 cs, looping (memory against file size)
//   gifgen --version            the corpus version (run.sh regenerates when it changes)

#if canImport(Glibc)
  import Glibc
#endif

func fail(_ message: String) -> Never {
  let line = Array("gifgen: error: \(message)\n".utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(1)
}

/// Writes through a temporary name, so an interrupted run never leaves a short file.
func writeFile(_ bytes: [UInt8], to path: String) {
  let temporary = path + ".tmp"
  guard let file = fopen(temporary, "wb") else {
    fail("cannot write \(temporary): \(String(cString: strerror(errno)))")
  }
  let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
  if written != bytes.count || fclose(file) != 0 {
    fail("cannot write \(temporary): \(String(cString: strerror(errno)))")
  }
  guard rename(temporary, path) == 0 else {
    fail("cannot rename \(temporary): \(String(cString: strerror(errno)))")
  }
}

func makeDirectories(_ path: String) {
  var prefix = path.hasPrefix("/") ? "/" : ""
  for part in path.split(separator: "/") {
    prefix += part + "/"
    if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
      fail("cannot create \(prefix): \(String(cString: strerror(errno)))")
    }
  }
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case nil, "-h", "--help":
  print(
    """
    usage: gifgen DIR [NAME...]     write the benchmark corpus into DIR
           gifgen sample [PATH]     write the sample animation (default Resources/sample.gif)
           gifgen frames N WxH PATH N frames of WxH, 2 cs each, looping forever
           gifgen large N WxH PATH  N noisy frames of WxH, 4 cs each, looping (1920x1080x300: ~250 MB)
           gifgen --version         print the corpus version
    """)
  exit(arguments.isEmpty ? 2 : 0)
case "--version":
  print(BenchCorpus.version)
case "sample":
  let path = arguments.count > 1 ? arguments[1] : "Resources/sample.gif"
  writeFile(Sample.make(), to: path)
  print(path)
case "frames":
  let size = arguments.count > 2 ? arguments[2].split(separator: "x").compactMap { Int($0) } : []
  guard arguments.count == 4, let count = Int(arguments[1]), count > 0, size.count == 2, size.allSatisfy({ $0 > 0 })
  else { fail("usage: gifgen frames N WxH PATH") }
  writeFile(ManyFrames.make(count: count, width: size[0], height: size[1]), to: arguments[3])
  print(arguments[3])
case "large":
  let size = arguments.count > 2 ? arguments[2].split(separator: "x").compactMap { Int($0) } : []
  guard arguments.count == 4, let count = Int(arguments[1]), count > 0, size.count == 2, size.allSatisfy({ $0 > 0 })
  else { fail("usage: gifgen large N WxH PATH") }
  writeFile(Large.make(count: count, width: size[0], height: size[1]), to: arguments[3])
  print(arguments[3])
case let dir?:
  let wanted = Set(arguments.dropFirst())
  let known = Set(BenchCorpus.files.map(\.name))
  if let unknown = wanted.subtracting(known).first { fail("no corpus file named \(unknown)") }
  makeDirectories(dir)
  for (name, make) in BenchCorpus.files where wanted.isEmpty || wanted.contains(name) {
    let path = dir + "/" + name
    writeFile(make(), to: path)
    print(path)
  }
}
