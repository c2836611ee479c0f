#!/bin/sh
# The scrolling grid's measured targets, in one run (Benchmarks/windowbench/Grid.swift):
# 60 sources of 480x270x40 over HTTP (python3 -m http.server on 127.0.0.1) in
# `--grid --geometry 1280x1000`: frame interval error p95 of the visible tiles, CPU of
# gifview + Xvfb after their first loop, PageDown → new picture, peak RSS; then 1 000
# local sources: launch → visible tiles playing, peak RSS after paging through them all.
# Builds gifview and windowbench first (GRID_BUILD_FLAGS, default -Xswiftc -O, the build
# `make test` uses). Prints a Markdown table on stdout, progress on stderr.
#
# Environment: GRID_SECONDS (10), GRID_OUT (.build/gridbench), GRID_PORT (18080), SWIFT.
set -u
cd "$(dirname "$0")/.." || exit 1

SWIFT=${SWIFT:-swift}
OUT=${GRID_OUT:-.build/gridbench}
PORT=${GRID_PORT:-18080}
FLAGS=${GRID_BUILD_FLAGS:--Xswiftc -O}

die() {
  echo "grid: error: $*" >&2
  exit 1
}

command -v Xvfb >/dev/null 2>&1 || die "Xvfb is not installed (apt-get install xvfb)"
command -v python3 >/dev/null 2>&1 || die "python3 is not installed"
for product in gifview windowbench; do
  # shellcheck disable=SC2086
  "$SWIFT" build $FLAGS --product "$product" >&2 || die "swift build --product $product failed"
done
# shellcheck disable=SC2086
bin=$("$SWIFT" build $FLAGS --show-bin-path) || die "swift build --show-bin-path failed"

mkdir -p "$OUT/http" || die "cannot create $OUT/http"
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$OUT/http" >"$OUT/http.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null' EXIT INT TERM
sleep 1
kill -0 "$server" 2>/dev/null || die "the HTTP server did not start (port $PORT in use?)"

"$bin/windowbench" grid --gifview "$bin/gifview" --port "$PORT" --http "$OUT/http" --out "$OUT" \
  --seconds "${GRID_SECONDS:-10}"
