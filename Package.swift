// swift-tools-version:6.0
import PackageDescription

// The decoder and the test helpers that hash whole canvases are built optimised even in
// debug builds, so the conformance suite runs in seconds and times the code that ships.
let optimizedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
  name: "gifview",
  products: [
    .library(name: "GIFDecoder", targets: ["GIFDecoder"]),
    .library(name: "GIFView", targets: ["GIFView"]),
    .executable(name: "gifview", targets: ["gifview"]),
  ],
  targets: [
    // C shims: system libraries only, no logic in C.
    .systemLibrary(name: "CX11", path: "Sources/CX11", pkgConfig: "x11 xext"),
    // libcurl's headers at build time; the library itself is dlopen'ed on first use.
    .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),

    // Pure Swift: imports only the standard library.
    .target(name: "GIFDecoder", swiftSettings: optimizedInDebug),
    // Timeline and frame cache: imports only GIFDecoder (and Synchronization for the cache lock).
    .target(name: "GIFAnimator", dependencies: ["GIFDecoder"]),
    // Bytes from paths, stdin, file:// and http(s):// URLs; no X11.
    .target(name: "GIFLoader", dependencies: ["CCurl"]),
    // The only module that sees Xlib.
    .target(name: "X11Window", dependencies: ["CX11"]),
    // The component: loader + decoder + animator + window.
    .target(name: "GIFView", dependencies: ["GIFDecoder", "GIFAnimator", "GIFLoader", "X11Window"]),
    .executableTarget(name: "gifview", dependencies: ["GIFView", "GIFDecoder", "GIFLoader"]),

    .target(
      name: "GIFTestSupport", dependencies: ["GIFDecoder"], path: "Tests/GIFTestSupport",
      swiftSettings: optimizedInDebug),
    .testTarget(name: "GIFDecoderTests", dependencies: ["GIFDecoder", "GIFTestSupport"]),
    .testTarget(name: "GIFAnimatorTests", dependencies: ["GIFAnimator", "GIFTestSupport"]),
    .testTarget(name: "GIFLoaderTests", dependencies: ["GIFLoader", "GIFTestSupport"], exclude: ["test_server.py"]),
    .testTarget(name: "GIFViewTests", dependencies: ["GIFView", "X11Window", "GIFTestSupport"]),
    .testTarget(name: "gifviewTests", dependencies: ["GIFDecoder", "GIFTestSupport", "X11Window"]),
    .executableTarget(name: "gifgen", dependencies: ["GIFTestSupport"], path: "Benchmarks/gifgen"),
    .executableTarget(name: "gifbench", dependencies: ["GIFDecoder"], path: "Benchmarks/gifbench"),
    .executableTarget(
      name: "windowbench", dependencies: ["X11Window", "GIFTestSupport"], path: "Benchmarks/windowbench"),
  ],
  swiftLanguageModes: [.v6]
)
