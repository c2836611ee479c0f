#!/bin/sh
# make bench: gifview's decoder against Wuffs and giflib 5, all measured in the same run.
#
# Builds gifgen, gifbench and gifview (release; gifview with the Swift runtime linked in,
# as installed), the giflib harness, proctime and, when
# ../shared/bench/wuffs is there (WUFFS_DIR), Wuffs' harness from it (never copied into
# the repository). Generates the corpus into .build/bench-corpus once (again only when
# gifgen's corpus version changes). Then:
#
# 1. Decode + composite, file in memory: for every file ROUNDS rounds, each running every
#    harness with -n REPS (the order rotates round by round); the median over rounds of
#    each round's fastest run (on a machine shared with other work, the fastest run of a
#    round is the one least disturbed). Every harness hashes every composited frame;
#    any mismatch fails the run.
# 2. Whole process: `gifview --check FILE` against giflib decoding FILE once in a C
#    process (and Wuffs likewise), PROCESSES runs each, interleaved (proctime): median
#    wall time and median CPU time (user + system) of the process.
# 3. Frame-cache bookkeeping: a 32x32 GIF of 10 000 frames of 2 cs played in a window
#    under Xvfb (when installed): gifview's CPU seconds per second of playback, measured
#    over 5 s after 2 s of warm-up.
# 4. Memory against file size (Benchmarks/memory.sh): a 1920x1080x300 GIF of 257 MB
#    played in a window under Xvfb by gifview and by gifsicle's gifview, peak RSS of each
#    through the first loop and after; and of `gifview --check` on it.
# 5. Window targets (Benchmarks/scaled.sh): a 1920x1080 GIF at 33 fps in a 960x540 window
#    (frames skipped, interval error p95), peak RSS of a 480x270x80 web animation, and
#    launch to the first frame of 640x480 and 1920x1080 stills, beside gifsicle's gifview.
#
# Environment: BENCH_ROUNDS (5), BENCH_REPS (5), BENCH_PROCESSES (11), GIFLIB_MODE
# (stream | slurp), WUFFS_DIR (../shared/bench/wuffs), BENCH_MEMORY (1; 0 skips part 4),
# BENCH_WINDOW (1; 0 skips part 5),
# SWIFT (swift), CC (gcc).
# Prints Markdown tables on stdout, progress on stderr; exits 1 if any build or harness
# fails or any hashes differ.
set -u
cd "$(dirname "$0")/.." || exit 1

SWIFT=${SWIFT:-swift}
CC=${CC:-gcc}
ROUNDS=${BENCH_ROUNDS:-5}
REPS=${BENCH_REPS:-5}
PROCESSES=${BENCH_PROCESSES:-11}
GIFLIB_MODE=${GIFLIB_MODE:-stream}
WUFFS_DIR=${WUFFS_DIR:-../shared/bench/wuffs}
corpus=.build/bench-corpus
giflib_bench=.build/giflib_bench
wuffs_bench=.build/wuffs_bench
proctime=.build/proctime
many=.build/bench-frames/frames-32x32x10000.gif

die() {
  echo "bench: error: $*" >&2
  exit 1
}

for product in gifgen gifbench; do
  "$SWIFT" build -c release --product "$product" >&2 || die "swift build --product $product failed"
done
# gifview as `make install` builds it: the Swift runtime linked in (start-up 2 ms shorter).
"$SWIFT" build -c release --product gifview --static-swift-stdlib >&2 || die "swift build --product gifview failed"
bin=$("$SWIFT" build -c release --show-bin-path) || die "swift build --show-bin-path failed"
"$CC" -O2 -o "$giflib_bench" Benchmarks/giflib_bench.c -lgif || die "cannot build the giflib harness (libgif-dev?)"
"$CC" -O2 -o "$proctime" Benchmarks/proctime.c || die "cannot build proctime"
harnesses="gifview giflib"
if [ -f "$WUFFS_DIR/wuffs_bench.c" ] && [ -f "$WUFFS_DIR/wuffs-v0.4.c" ]; then
  wuffs_src=$(cd "$WUFFS_DIR" && pwd)/wuffs-v0.4.c
  "$CC" -O3 -o "$wuffs_bench" -DWUFFS_SRC="\"$wuffs_src\"" "$WUFFS_DIR/wuffs_bench.c" ||
    die "cannot build Wuffs' harness from $WUFFS_DIR"
  harnesses="gifview wuffs giflib"
else
  echo "bench: $WUFFS_DIR not found: no Wuffs column" >&2
fi
has_wuffs() { case $harnesses in *wuffs*) return 0 ;; *) return 1 ;; esac }

version=$("$bin/gifgen" --version) || die "gifgen --version failed"
if [ "$(cat "$corpus/.version" 2>/dev/null)" != "$version" ]; then
  echo "bench: generating the corpus into $corpus" >&2
  rm -rf "$corpus"
  "$bin/gifgen" "$corpus" >/dev/null || die "gifgen failed"
  echo "$version" >"$corpus/.version"
fi
if [ ! -f "$many" ]; then
  mkdir -p "$(dirname "$many")" && "$bin/gifgen" frames 10000 32x32 "$many" >/dev/null || die "gifgen frames failed"
fi

# field NAME LINE: the value of NAME=value in a harness's output line.
field() {
  printf '%s\n' "$2" | sed -n "s/.*$1=\([^ ]*\).*/\1/p"
}

# median: of the numbers on stdin, one per line.
median() {
  sort -n | awk '{ v[NR] = $1 } END {
    if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2];
    else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "nan" }'; }
above() { awk -v r="$1" 'BEGIN { exit !(r > 1) }'; }

# run HARNESS FILE: one harness line, -n REPS.
run() {
  case $1 in
    gifview) "$bin/gifbench" -n "$REPS" "$2" ;;
    wuffs) "$wuffs_bench" -n "$REPS" "$2" ;;
    giflib) "$giflib_bench" -n "$REPS" -m "$GIFLIB_MODE" "$2" ;;
  esac
}

# One untimed process first, so the first file's --check does not pay for a cold binary.
"$bin/gifview" --check Resources/sample.gif >/dev/null 2>&1

status=0
rows=""
process_rows=""
slower_wuffs=""
slower_giflib=""
slower_process=""
tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

for file in "$corpus"/*.gif Resources/sample.gif; do
  [ -f "$file" ] || continue
  name=$(basename "$file")
  printf 'bench: %s ' "$name" >&2
  frames="" failed=0
  for h in $harnesses; do
    : >"$tmp/$h"
    : >"$tmp/$h.hash"
  done
  round=0
  while [ "$round" -lt "$ROUNDS" ]; do
    # Rotate the order: each harness goes first, middle and last equally often.
    order=$(echo "$harnesses" | awk -v r="$round" '{ for (i = 0; i < NF; i++) printf "%s ", $((i + r) % NF + 1) }')
    for h in $order; do
      line=$(run "$h" "$file") || failed=1
      field min_ms "$line" >>"$tmp/$h"
      field hash "$line" >>"$tmp/$h.hash"
      [ -n "$frames" ] || frames=$(field frames "$line")
      printf '.' >&2
    done
    round=$((round + 1))
  done
  gv=$(median <"$tmp/gifview")
  gl=$(median <"$tmp/giflib")
  wf=""
  has_wuffs && wf=$(median <"$tmp/wuffs")
  hashes=$(cat "$tmp"/*.hash | sort -u)
  if [ "$failed" -ne 0 ] || [ -z "$hashes" ]; then
    echo " FAILED" >&2
    status=1
    rows="$rows| $name | | | failed | | | | | |
"
    continue
  fi
  if [ "$(printf '%s\n' "$hashes" | wc -l)" -ne 1 ]; then
    check="**differ**: $(for h in $harnesses; do printf '%s %s ' "$h" "$(sort -u "$tmp/$h.hash" | tr '\n' ' ')"; done)"
    status=1
  else
    check="equal"
  fi

  # Whole processes, as a user runs them: read, decode and composite once.
  set -- -- "$bin/gifview" --check "$file" -- "$giflib_bench" -n 0 -m "$GIFLIB_MODE" "$file"
  has_wuffs && set -- "$@" -- "$wuffs_bench" -n 0 "$file"
  if ! "$proctime" -n "$PROCESSES" "$@" >"$tmp/process"; then
    status=1
    check="$check (a whole-process run failed)"
  fi
  pgv=$(field median_ms "$(sed -n 1p "$tmp/process")")
  pgl=$(field median_ms "$(sed -n 2p "$tmp/process")")
  pwf=$(field median_ms "$(sed -n 3p "$tmp/process")")
  cgv=$(field cpu_ms "$(sed -n 1p "$tmp/process")")
  cgl=$(field cpu_ms "$(sed -n 2p "$tmp/process")")
  cwf=$(field cpu_ms "$(sed -n 3p "$tmp/process")")

  size=$(wc -c <"$file" | awk '{ b = $1
    if (b >= 1048576) printf "%.1f MiB", b / 1048576; else printf "%.0f KiB", b / 1024 }')
  r_gl=$(ratio "$gv" "$gl")
  above "$r_gl" && slower_giflib="$slower_giflib $name"
  if has_wuffs; then
    r_wf=$(ratio "$gv" "$wf")
    above "$r_wf" && slower_wuffs="$slower_wuffs $name"
  else
    r_wf="" wf=""
  fi
  r_proc=$(ratio "$pgv" "$pgl")
  r_cpu=$(ratio "$cgv" "$cgl")
  above "$r_proc" && slower_process="$slower_process $name"
  echo " $gv ms; Wuffs ${wf:-n/a}; giflib $gl; process $pgv vs $pgl ms" >&2
  rows="$rows| $name | $size | $frames | $gv | $wf | $gl | $r_wf | $r_gl | $check |
"
  process_rows="$process_rows| $name | $pgv | $pgl | $r_proc | $cgv | $cgl | $r_cpu | ${pwf:+$pwf / $cwf} |
"
done

# Frame-cache bookkeeping while playing 10 000 frames (DESIGN §3: O(1) per frame).
bookkeeping="n/a (no Xvfb)"
if command -v Xvfb >/dev/null 2>&1; then
  n=$((90 + $$ % 100))
  while [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ]; do n=$((n + 1)); done
  Xvfb ":$n" -screen 0 640x480x24 -nolisten tcp >/dev/null 2>&1 &
  xvfb=$!
  waited=0
  while [ ! -e "/tmp/.X11-unix/X$n" ] && [ "$waited" -lt 50 ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  "$bin/gifview" --display ":$n" --no-fade "$many" >/dev/null 2>&1 &
  player=$!
  ticks() { cut -d' ' -f14,15 "/proc/$1/stat" 2>/dev/null | awk '{ print $1 + $2 }'; }
  hz=$(getconf CLK_TCK)
  sleep 2
  t0=$(ticks "$player")
  sleep 5
  t1=$(ticks "$player")
  kill "$player" 2>/dev/null
  wait "$player" 2>/dev/null
  kill "$xvfb" 2>/dev/null
  wait "$xvfb" 2>/dev/null
  if [ -n "$t0" ] && [ -n "$t1" ]; then
    bookkeeping=$(awk -v a="$t0" -v b="$t1" -v hz="$hz" 'BEGIN { printf "%.3f", (b - a) / hz / 5 }')
  else
    bookkeeping="failed (gifview did not keep playing)"
    status=1
  fi
  echo "bench: frame cache: $bookkeeping CPU s per s" >&2
fi

memory=""
if [ "${BENCH_MEMORY:-1}" != 0 ] && command -v Xvfb >/dev/null 2>&1; then
  memory=$(sh Benchmarks/memory.sh "$bin") || status=1
fi
window=""
if [ "${BENCH_WINDOW:-1}" != 0 ] && command -v Xvfb >/dev/null 2>&1 && [ -x "${GIFSICLE_GIFVIEW:-/usr/bin/gifview}" ]; then
  window=$(sh Benchmarks/scaled.sh) || status=1
fi

echo
echo "Decode + composite every frame to RGBA, file in memory; median over $ROUNDS rounds of the"
echo "fastest of $REPS runs, harnesses interleaved. giflib $GIFLIB_MODE mode (Benchmarks/giflib_bench.c);"
echo "Wuffs: $WUFFS_DIR/wuffs_bench.c. Hashes: FNV-1a over every composited frame."
echo
echo "| file | size | frames | gifview ms | Wuffs ms | giflib ms | gifview/Wuffs | gifview/giflib | hashes |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
printf '%s' "$rows"
echo
echo "Whole process, median of $PROCESSES runs each, interleaved: \`gifview --check FILE\` against"
echo "one decode in a C process (\`giflib_bench -n 0\`, \`wuffs_bench -n 0\`), start-up included."
echo
echo "| file | gifview --check ms | giflib process ms | gifview/giflib | gifview CPU ms | giflib CPU ms | CPU gifview/giflib | Wuffs process ms / CPU ms |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
printf '%s' "$process_rows"
echo
echo "Frame cache: a 32x32 GIF of 10 000 frames of 2 cs, playing: $bookkeeping CPU s per s."
[ -n "$memory" ] && printf '%s\n' "$memory"
[ -n "$window" ] && printf '%s\n' "$window"
echo
if has_wuffs; then
  if [ -n "$slower_wuffs" ]; then echo "gifview is slower than Wuffs on:$slower_wuffs"; else
    echo "gifview is at least as fast as Wuffs on every file."; fi
fi
if [ -n "$slower_giflib" ]; then echo "gifview is slower than giflib on:$slower_giflib"; else
  echo "gifview is at least as fast as giflib on every file."; fi
if [ -n "$slower_process" ]; then echo "gifview --check is slower than a giflib process on:$slower_process"; else
  echo "gifview --check is at least as fast as a giflib process on every file."; fi
exit "$status"
