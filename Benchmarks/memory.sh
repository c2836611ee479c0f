#!/bin/sh
# Memory against file size (DESIGN §3: "a 228 MB GIF of 300 full-HD frames plays in at
# most 160 MB"): a 1920x1080x300 GIF of 257 MB (`gifgen large`, made once into
# .build/bench-large) played in a window under Xvfb by gifview, then by gifsicle's gifview
# (`gifview -a`), in the same run: each one's peak RSS (VmHWM in /proc/PID/status)
# through the first loop (300 × 40 ms) and MEMORY_AFTER seconds after; then the peak RSS
# of `gifview --check FILE` (GNU time's %M).
#
#   sh Benchmarks/memory.sh [BIN]   BIN: the release build directory with gifview and
#                                   gifgen (run.sh passes its own); else they are built
#
# Environment: MEMORY_AFTER (5 s), GIFSICLE_GIFVIEW (/usr/bin/gifview), SWIFT (swift).
# Prints a Markdown table on stdout, progress on stderr; exits 1 if a viewer could not be
# measured (a missed target is reported in the table, not as a failure).
set -u
cd "$(dirname "$0")/.." || exit 1

SWIFT=${SWIFT:-swift}
AFTER=${MEMORY_AFTER:-5}
GIFSICLE_GIFVIEW=${GIFSICLE_GIFVIEW:-/usr/bin/gifview}
file=.build/bench-large/large-1920x1080x300.gif
loop_seconds=12 # 300 frames of 4 cs

die() {
  echo "memory: error: $*" >&2
  exit 1
}

command -v Xvfb >/dev/null 2>&1 || die "Xvfb is not installed (apt-get install xvfb)"
if [ $# -ge 1 ]; then
  bin=$1
else
  for product in gifgen gifview; do
    "$SWIFT" build -c release --product "$product" >&2 || die "swift build --product $product failed"
  done
  bin=$("$SWIFT" build -c release --show-bin-path) || die "swift build --show-bin-path failed"
fi
if [ ! -f "$file" ]; then
  echo "memory: generating $file" >&2
  mkdir -p "$(dirname "$file")" && "$bin/gifgen" large 300 1920x1080 "$file" >/dev/null || die "gifgen large failed"
fi
size=$(wc -c <"$file" | awk '{ printf "%.0f MB", $1 / 1e6 }')

n=$((90 + $$ % 100))
while [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ]; do n=$((n + 1)); done
# Large enough for 1920x1080 at 1:1 (a window is scaled down past 90 % of the screen).
Xvfb ":$n" -screen 0 2560x1600x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null' EXIT INT TERM
waited=0
while [ ! -e "/tmp/.X11-unix/X$n" ] && [ "$waited" -lt 50 ]; do
  sleep 0.1
  waited=$((waited + 1))
done

# peak CMD...: runs CMD, samples its VmHWM every half second through the first loop and
# AFTER seconds more; prints the last sample in MB ("failed" if it died before the end).
peak() {
  "$@" >/dev/null 2>&1 &
  pid=$!
  hwm=""
  ticks=$(((loop_seconds + 2 + AFTER) * 2))
  while [ "$ticks" -gt 0 ]; do
    sleep 0.5
    kb=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$pid/status" 2>/dev/null)
    [ -n "$kb" ] || break
    hwm=$kb
    ticks=$((ticks - 1))
  done
  alive=0
  kill -0 "$pid" 2>/dev/null && alive=1
  kill "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  if [ "$alive" -eq 1 ] && [ -n "$hwm" ]; then awk -v k="$hwm" 'BEGIN { printf "%.0f", k / 1024 }'; else echo failed; fi
}

status=0
echo "memory: gifview playing $file ($size)" >&2
gv=$(peak "$bin/gifview" --display ":$n" --no-fade "$file")
[ "$gv" = failed ] && status=1
gs="n/a"
if [ -x "$GIFSICLE_GIFVIEW" ]; then
  echo "memory: gifsicle's gifview playing it" >&2
  gs=$(peak "$GIFSICLE_GIFVIEW" -d ":$n" -a "$file")
  [ "$gs" = failed ] && status=1
fi
check="n/a"
if [ -x /usr/bin/time ]; then
  check=$(/usr/bin/time -f %M "$bin/gifview" --check "$file" 2>&1 >/dev/null | tail -n 1 |
    awk '{ printf "%.0f", $1 / 1024 }')
fi
verdict="within"
awk -v m="$gv" 'BEGIN { exit !(m + 0 > 160 || m == "failed") }' && verdict="**over**"
echo "memory: gifview $gv MB, gifsicle $gs MB, --check $check MB" >&2

echo
echo "Memory: $file ($size, 1920x1080, 300 frames of 4 cs) played under Xvfb through its"
echo "first loop and ${AFTER} s after; peak RSS (VmHWM), same run."
echo
echo "| viewer | peak RSS MB |"
echo "|---|---:|"
echo "| gifview | $gv ($verdict the 160 MB target) |"
echo "| gifsicle's gifview -a | $gs |"
echo "| gifview --check | $check |"
exit "$status"
