#!/bin/sh
# Scaled playback and frame memory (Benchmarks/windowbench/Scaled.swift), under an Xvfb
# that windowbench starts itself: a 1920x1080 GIF at 33 fps shown in 960x540 (frames
# skipped, interval error p95), and the peak RSS of gifview and gifsicle's gifview
# playing a 480x270x80 web animation, and launch to the first frame of 640x480 and 1920x1080
# stills beside gifsicle's gifview. Builds gifview and windowbench (release) first.
#
# Environment: SCALED_SECONDS (10), SCALED_LAUNCHES (5), SCALED_OUT (.build/scaledbench), GIFSICLE_GIFVIEW
# (/usr/bin/gifview), SWIFT. Prints a Markdown table on stdout, progress on stderr.
set -u
cd "$(dirname "$0")/.." || exit 1

SWIFT=${SWIFT:-swift}
GIFSICLE_GIFVIEW=${GIFSICLE_GIFVIEW:-/usr/bin/gifview}

die() {
  echo "scaled: error: $*" >&2
  exit 1
}

command -v Xvfb >/dev/null 2>&1 || die "Xvfb is not installed (apt-get install xvfb)"
[ -x "$GIFSICLE_GIFVIEW" ] || die "$GIFSICLE_GIFVIEW not found (apt-get install gifsicle)"
for product in gifview windowbench; do
  "$SWIFT" build -c release --product "$product" >&2 || die "swift build --product $product failed"
done
bin=$("$SWIFT" build -c release --show-bin-path) || die "swift build --show-bin-path failed"

exec "$bin/windowbench" scaled --gifview "$bin/gifview" --gifsicle "$GIFSICLE_GIFVIEW" \
  --seconds "${SCALED_SECONDS:-10}" --launches "${SCALED_LAUNCHES:-5}" --out "${SCALED_OUT:-.build/scaledbench}"
