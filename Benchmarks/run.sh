#!/bin/sh
# make bench: gifview's decoder against giflib 5, both measured in the same run.
#
# Builds gifgen, gifbench and gifview (release) and the giflib harness, generates the
# corpus into .build/bench-corpus once (again only when gifgen's corpus version changes),
# then for every file runs the two harnesses interleaved: ROUNDS rounds, each running
# both with -n REPS (which one goes first alternates), and reports the median of the
# per-round medians. Both harnesses hash every composited frame; a hash mismatch fails.
# Last column: one whole `gifview --check FILE` process (start-up, read, decode, composite).
#
# Environment: BENCH_ROUNDS (5), BENCH_REPS (5), GIFLIB_MODE (stream | slurp),
# SWIFT (swift), CC (gcc). Prints a Markdown table on stdout, progress on stderr;
# exits 1 if any build or harness fails.
set -u
cd "$(dirname "$0")/.." || exit 1

SWIFT=${SWIFT:-swift}
CC=${CC:-gcc}
ROUNDS=${BENCH_ROUNDS:-5}
REPS=${BENCH_REPS:-5}
GIFLIB_MODE=${GIFLIB_MODE:-stream}
corpus=.build/bench-corpus
giflib_bench=.build/giflib_bench

die() {
  echo "bench: error: $*" >&2
  exit 1
}

for product in gifgen gifbench gifview; do
  "$SWIFT" build -c release --product "$product" >&2 || die "swift build --product $product failed"
done
bin=$("$SWIFT" build -c release --show-bin-path) || die "swift build --show-bin-path failed"
"$CC" -O2 -o "$giflib_bench" Benchmarks/giflib_bench.c -lgif || die "cannot build the giflib harness (libgif-dev?)"

version=$("$bin/gifgen" --version) || die "gifgen --version failed"
if [ "$(cat "$corpus/.version" 2>/dev/null)" != "$version" ]; then
  echo "bench: generating the corpus into $corpus" >&2
  rm -rf "$corpus"
  "$bin/gifgen" "$corpus" >/dev/null || die "gifgen failed"
  echo "$version" >"$corpus/.version"
fi

# field NAME LINE: the value of NAME=value in a harness's output line.
field() {
  printf '%s\n' "$2" | sed -n "s/.* $1=\([^ ]*\).*/\1/p"
}

# median: of the numbers on stdin, one per line.
median() {
  sort -n | awk '{ v[NR] = $1 } END {
    if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2];
    else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

now_ns() { date +%s%N; }
case $(now_ns) in
  *N) have_ns=0 ;;
  *) have_ns=1 ;;
esac

# One untimed process first, so the first file's --check does not pay for a cold binary.
"$bin/gifview" --check Resources/sample.gif >/dev/null 2>&1

status=0
rows=""
slower=""
tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

for file in "$corpus"/*.gif Resources/sample.gif; do
  [ -f "$file" ] || continue
  name=$(basename "$file")
  printf 'bench: %s ' "$name" >&2
  : >"$tmp/gifview"
  : >"$tmp/giflib"
  frames="" gv_hash="" gl_hash="" failed=0
  round=1
  while [ "$round" -le "$ROUNDS" ]; do
    if [ $((round % 2)) -eq 1 ]; then order="gifview giflib"; else order="giflib gifview"; fi
    for harness in $order; do
      if [ "$harness" = gifview ]; then
        line=$("$bin/gifbench" -n "$REPS" "$file") || failed=1
        gv_hash=$(field hash "$line")
      else
        line=$("$giflib_bench" -n "$REPS" -m "$GIFLIB_MODE" "$file") || failed=1
        gl_hash=$(field hash "$line")
      fi
      field median_ms "$line" >>"$tmp/$harness"
      [ -n "$frames" ] || frames=$(field frames "$line")
      printf '.' >&2
    done
    round=$((round + 1))
  done
  gv=$(median <"$tmp/gifview")
  gl=$(median <"$tmp/giflib")
  if [ "$failed" -ne 0 ] || [ -z "$gv_hash" ] || [ -z "$gl_hash" ]; then
    echo " FAILED" >&2
    status=1
    rows="$rows| $name | | | failed | failed | | |
"
    continue
  fi
  note=""
  if [ "$gv_hash" != "$gl_hash" ]; then
    note=" (pixels differ: $gv_hash vs $gl_hash)"
    status=1
  fi

  # One whole process, as a user runs it.
  check="n/a"
  if [ "$have_ns" -eq 1 ]; then
    t0=$(now_ns)
    "$bin/gifview" --check "$file" >/dev/null || {
      status=1
      note="$note (gifview --check failed)"
    }
    t1=$(now_ns)
    check=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1e6 }')
  elif ! "$bin/gifview" --check "$file" >/dev/null; then
    status=1
    note="$note (gifview --check failed)"
  fi

  size=$(wc -c <"$file" | awk '{ b = $1
    if (b >= 1048576) printf "%.1f MiB", b / 1048576; else printf "%.0f KiB", b / 1024 }')
  ratio=$(awk -v a="$gv" -v b="$gl" 'BEGIN { printf "%.2f", a / b }')
  if awk -v r="$ratio" 'BEGIN { exit !(r > 1) }'; then slower="$slower $name"; fi
  echo " $gv ms vs $gl ms" >&2
  rows="$rows| $name | $size | $frames | $gv | $gl | $ratio$note | $check |
"
done

echo
echo "Decode + composite every frame to RGBA, file in memory; median of $ROUNDS interleaved"
echo "rounds of $REPS runs each. giflib $GIFLIB_MODE mode (Benchmarks/giflib_bench.c)."
echo
echo "| file | size | frames | gifview ms | giflib ms | gifview/giflib | gifview --check ms |"
echo "|---|---:|---:|---:|---:|---:|---:|"
printf '%s' "$rows"
echo
if [ -n "$slower" ]; then
  echo "gifview is slower than giflib on:$slower"
else
  echo "gifview is at least as fast as giflib on every file."
fi
exit "$status"
