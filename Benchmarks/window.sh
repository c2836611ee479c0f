#!/bin/sh
# Issue 3's measured targets: gifview against gifsicle's gifview (`gifview -a`), both in
# the same run, under an Xvfb that windowbench starts itself (-displayfd, no races):
#   1. launch to the correct first frame of a 640x480 GIF (median of WINDOW_LAUNCHES),
#   2. frame timing over WINDOW_SECONDS at 50 ms frames (MAE and drift),
#   3. CPU of the viewer + Xvfb per wall second at 20 fps, 640x480, after the first loop.
# Builds gifview and windowbench (release) first. About 75 s with the defaults.
#
# Environment: WINDOW_LAUNCHES (10), WINDOW_SECONDS (10), GIFSICLE_GIFVIEW
# (/usr/bin/gifview), WINDOW_OUT (.build/windowbench: the GIFs, per-change CSVs and the
# viewers' stderr), SWIFT (swift). Prints a Markdown table on stdout, progress on
# stderr; exits 1 if a build or a measurement fails (a missed target is reported in the
# table, not as a failure).
set -u
cd "$(dirname "$0")/.." || exit 1

SWIFT=${SWIFT:-swift}
GIFSICLE_GIFVIEW=${GIFSICLE_GIFVIEW:-/usr/bin/gifview}
OUT=${WINDOW_OUT:-.build/windowbench}

die() {
  echo "window: error: $*" >&2
  exit 1
}

command -v Xvfb >/dev/null 2>&1 || die "Xvfb is not installed (apt-get install xvfb)"
[ -x "$GIFSICLE_GIFVIEW" ] || die "$GIFSICLE_GIFVIEW not found (apt-get install gifsicle)"
for product in gifview windowbench; do
  "$SWIFT" build -c release --product "$product" >&2 || die "swift build --product $product failed"
done
bin=$("$SWIFT" build -c release --show-bin-path) || die "swift build --show-bin-path failed"

exec "$bin/windowbench" --gifview "$bin/gifview" --gifsicle "$GIFSICLE_GIFVIEW" \
  --launches "${WINDOW_LAUNCHES:-10}" --seconds "${WINDOW_SECONDS:-10}" --out "$OUT"
