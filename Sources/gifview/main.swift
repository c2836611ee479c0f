import GIFDecoder
import GIFLoader
import GIFView

#if canImport(Glibc)
  import Glibc
#endif

func main() -> Int32 {
  // A closed pipe (stdout to `head`, a TLS peer reset) is an error to report, not a death.
  signal(SIGPIPE, SIG_IGN)
  let options: Options
  do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()), raw: Array(rawArguments().dropFirst()))
  } catch {
    printError(nil, error.message + " (see gifview --help)")
    return 2
  }
  switch options.mode {
  case .help:
    print(usage)
    return 0
  case .version:
    print("gifview \(gifviewVersion)")
    return 0
  default:
    break
  }

  // Bytes, not Strings: a file name need not be UTF-8 (Linux paths are bytes).
  var arguments = expandingDirectories(options.sourceBytes, recursive: options.recursive)
  // `--list -` from a pipe in a window: sources are added as lines arrive.
  var streamingList = false
  if options.list == "-", case .window = options.mode {
    var st = stat()
    streamingList = fstat(0, &st) != 0 || st.st_mode & S_IFMT != S_IFREG
  }
  if let list = options.list, !streamingList {
    do {
      let text = try LocalReader.readAll(Source(argument: list), maxBytes: 16 << 20)
      arguments += expandingDirectories(
        text.split { $0 == 10 || $0 == 13 }.map(Array.init), recursive: options.recursive)
    } catch {
      printError(error.source, error.description)
      return 2
    }
  }
  if arguments.isEmpty && !streamingList {
    guard isatty(0) == 0 else {
      writeStderrLine(usage)
      return 2
    }
    arguments = [Array("-".utf8)]
  }
  // Each source with its argument position (`--frames` names files after it).
  var sources: [(position: Int, source: Source)] = []
  var bad = false
  for (position, argument) in arguments.enumerated() {
    do {
      sources.append((position, try Source(argumentBytes: argument)))
    } catch {
      printError(error.source, error.description)
      bad = true
    }
  }
  if sources.isEmpty && !streamingList { return 1 }

  switch options.mode {
  case .info, .frames, .check:
    let headless = Headless(options: options) { source throws(LoadError) in
      try fetchWhole(source, options: options)
    }
    let status = headless.run(sources: sources, multiple: arguments.count > 1)
    return bad ? 1 : status
  default:
    let status = runWindow(options: options, sources: sources.map(\.source), streamingList: streamingList)
    return bad ? 1 : status
  }
}

/// argv as the kernel gave it: bytes, whatever their encoding.
func rawArguments() -> [[UInt8]] {
  (0..<Int(CommandLine.argc)).map { i in
    guard let p = CommandLine.unsafeArgv[i] else { return [] }
    return Array(UnsafeBufferPointer(start: p, count: strlen(p))).map { UInt8(bitPattern: $0) }
  }
}

exit(main())
