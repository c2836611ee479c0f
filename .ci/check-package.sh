#!/bin/sh
# Builds an outside package that depends on a tagged copy of this repository
# (.package(url: "file://…", exact: …)) and uses GIFPlayback and GIFView: SwiftPM refuses
# a versioned dependency with unsafeFlags, so this proves the library products are usable.
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q "$root" "$work/gifview"
git -C "$work/gifview" tag 9.9.9
mkdir -p "$work/host/Sources/host"
cat > "$work/host/Package.swift" <<'PKG'
// swift-tools-version:6.0
import PackageDescription
let package = Package(
  name: "host",
  dependencies: [.package(url: "file://WORK/gifview", exact: "9.9.9")],
  targets: [
    .executableTarget(name: "host", dependencies: [.product(name: "GIFView", package: "gifview")])
  ]
)
PKG
sed -i "s#WORK#$work#" "$work/host/Package.swift"
cat > "$work/host/Sources/host/main.swift" <<'SRC'
import GIFPlayback
import GIFView
import X11Window

// A host that plays a GIF into its own window with the library's run loop.
let wakeUp = WakeUpSignal()
let playback = GIFPlayback(source: .path(CommandLine.arguments[1]), wakeUp: wakeUp)
let connection = try X11Connection(name: nil)
let top = TopLevelWindow(connection: connection, options: WindowOptions(title: "host", width: 200, height: 200))
let view = GIFView(playback: playback, connection: connection, parent: top.id, x: 0, y: 0, width: 200, height: 200)
view.contentMode = .fit
view.show()
top.map()
let loop = GIFViewRunLoop(connection: connection, wakeUp: wakeUp)
loop.views = [view]
try loop.run { _, event in event != .closeRequested }
SRC
cd "$work/host"
${SWIFT:-swift} build 2>&1 | tail -3
test -x .build/debug/host
echo "check-package: an outside package built against tag 9.9.9"
