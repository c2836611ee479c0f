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
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
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

  var arguments = options.sources
  if let list = options.list {
    do {
      let text = try LocalReader.readAll(Source(argument: list), maxBytes: 16 << 20)
      arguments += String(decoding: text, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
        .filter { !$0.isEmpty }
    } catch {
      printError(list, error.description)
      return 2
    }
  }
  if arguments.isEmpty {
    guard isatty(0) == 0 else {
      writeStderrLine(usage)
      return 2
    }
    arguments = ["-"]
  }
  var sources: [Source] = []
  var bad = false
  for argument in arguments {
    do {
      sources.append(try Source(argument: argument))
    } catch {
      printError(argument, error.description)
      bad = true
    }
  }
  if sources.isEmpty { return 1 }

  switch options.mode {
  case .info, .frames, .check:
    let headless = Headless(options: options) { source throws(LoadError) in
      try fetchWhole(source, options: options)
    }
    let status = headless.run(sources: sources)
    return bad ? 1 : status
  default:
    let status = runWindow(options: options, sources: sources)
    return bad ? 1 : status
  }
}

exit(main())
