// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "gifview",
  products: [
    .library(name: "GIFDecoder", targets: ["GIFDecoder"]),
    // The component: GIFPlayback (no X) and GIFView (draws one into a host's window).
    .library(name: "GIFView", targets: ["GIFView", "GIFPlayback", "X11Window", "GIFAnimator"]),
    .executable(name: "gifview", targets: ["gifview"]),
    .executable(name: "gifview-embed-example", targets: ["gifview-embed-example"]),
  ],
  targets: [
    // C shims: system libraries only, no logic in C.
    .systemLibrary(name: "CX11", path: "Sources/CX11", pkgConfig: "x11 xext"),
    .systemLibrary(name: "CPosix", path: "Sources/CPosix"),
    // libpng (Debian libpng-dev): the app icon, `s` and `--frames --format png`.
    .systemLibrary(name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng"),
    // libcurl's headers at build time; the library itself is dlopen'ed on first use.
    .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
    // libXft, dlopen'ed when text is first drawn.
    .target(name: "CXft", linkerSettings: [.linkedLibrary("dl")]),

    // Pure Swift: imports only the standard library.
    .target(name: "GIFDecoder"),
    // errno, EINTR retry, poll, the wake-up pipe: the one POSIX layer.
    .target(name: "SystemIO", dependencies: ["CPosix"]),
    // Timeline and frame cache: imports only GIFDecoder (and Synchronization for the cache lock).
    .target(name: "GIFAnimator", dependencies: ["GIFDecoder"]),
    // Bytes from paths, stdin, file:// and http(s):// URLs; no X11.
    .target(name: "GIFLoader", dependencies: ["CCurl", "SystemIO"]),
    // One source played: load + decode + timeline + cache + phase; no X.
    .target(name: "GIFPlayback", dependencies: ["GIFDecoder", "GIFAnimator", "GIFLoader", "SystemIO"]),
    // The only module that sees Xlib.
    .target(name: "X11Window", dependencies: ["CX11", "CXft", "SystemIO"]),
    // PNG files both ways through libpng's simplified API; no X.
    .target(name: "PNGCodec", dependencies: ["CPNG"]),
    // The component: draws a GIFPlayback into a rectangle of a host's window.
    .target(name: "GIFView", dependencies: ["GIFPlayback", "GIFDecoder", "X11Window", "SystemIO"]),
    .executableTarget(
      name: "gifview",
      dependencies: ["GIFView", "GIFPlayback", "GIFDecoder", "GIFLoader", "X11Window", "SystemIO", "PNGCodec"]),
    // `make run` and `make screenshots` without ImageMagick: a window's pixels as PNG.
    .executableTarget(name: "gifview-shot", dependencies: ["X11Window", "PNGCodec"], path: "Tools/gifview-shot"),
    // The README's example: two GIFViews in a window made with plain Xlib, as any host would.
    .executableTarget(name: "gifview-embed-example", dependencies: ["GIFView", "GIFPlayback", "CX11"]),

    .target(name: "GIFTestSupport", dependencies: ["GIFDecoder"], path: "Tests/GIFTestSupport"),
    .testTarget(name: "GIFDecoderTests", dependencies: ["GIFDecoder", "GIFTestSupport"]),
    .testTarget(name: "GIFAnimatorTests", dependencies: ["GIFAnimator", "GIFTestSupport"]),
    .testTarget(name: "GIFLoaderTests", dependencies: ["GIFLoader", "GIFTestSupport"], exclude: ["test_server.py"]),
    .testTarget(name: "GIFPlaybackTests", dependencies: ["GIFPlayback", "GIFAnimator", "GIFDecoder", "GIFTestSupport"]),
    .testTarget(name: "GIFViewTests", dependencies: ["GIFView", "X11Window", "GIFTestSupport", "PNGCodec"]),
    .testTarget(name: "gifviewTests", dependencies: ["GIFDecoder", "GIFTestSupport", "X11Window", "PNGCodec"]),
    .testTarget(name: "PNGCodecTests", dependencies: ["PNGCodec", "GIFTestSupport"]),
    .executableTarget(name: "gifgen", dependencies: ["GIFTestSupport"], path: "Benchmarks/gifgen"),
    .executableTarget(name: "gifbench", dependencies: ["GIFDecoder"], path: "Benchmarks/gifbench"),
    .executableTarget(
      name: "windowbench", dependencies: ["X11Window", "GIFView", "GIFTestSupport"], path: "Benchmarks/windowbench"),
  ],
  swiftLanguageModes: [.v6]
)
