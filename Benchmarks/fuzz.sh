#!/bin/sh
# make fuzz: libFuzzer + AddressSanitizer, one target after another (FUZZ_TARGETS, default all):
#   decoder    Sources/GIFDecoder (parse, decode, composite; whole and in 7-byte chunks)
#   cachemeta  the disk cache's metadata parser (Sources/GIFLoader/CacheMeta.swift)
#   scaler     the compositor and the window painter's scaler (PAINTER)
# Seeds: CORPUS (default ../shared/corpus, skipped when absent) and Resources/sample.gif.
# FUZZ_SECONDS per target (default 120); FUZZ_TIMEOUT seconds for one input (default 30:
# a loaded machine stretches a 0.1 s input to several seconds). Crashes land in .build/fuzz/TARGET/crashes, the
# libFuzzer log in .build/fuzz/TARGET.log (FUZZ_OUT instead of .build/fuzz); exits non-zero when a target finds one.
set -eu
cd "$(dirname "$0")/.."
out=${FUZZ_OUT:-.build/fuzz}
corpus=${CORPUS:-../shared/corpus}
# The window painter's source (one place to change if it moves).
PAINTER=${PAINTER:-Sources/GIFView/Painter.swift}
SWIFTC=${SWIFTC:-swiftc}

build() { # name, sources…
  name=$1
  shift
  "$SWIFTC" -O -sanitize=fuzzer,address -parse-as-library -module-name "Fuzz_$name" "$@" \
    "Benchmarks/fuzz/fuzz_$name.swift" -o "$out/fuzz_$name" >"$out/$name.build.log" 2>&1 || {
    grep -v 'Cannot export local symbol' "$out/$name.build.log" >&2
    exit 1
  }
}

seed_gifs() { # dir
  cp Resources/sample.gif "$1/" 2>/dev/null || true
  if [ -d "$corpus" ]; then
    find "$corpus" -name '*.gif' -size -64k -exec cp {} "$1/" \; 2>/dev/null || true
  else
    echo "fuzz: no corpus at $corpus; seeding with the sample only"
  fi
}

seed_meta() { # dir: well-formed records, one with validators
  printf 'gifview-cache 1\nurl https://example.com/a.gif\nsize 35\nchecksum 0123456789abcdef\nfresh-until 0\n' \
    >"$1/plain.meta"
  printf 'gifview-cache 1\nurl https://example.com/b.gif?x=1\nsize 4096\nchecksum ffffffffffffffff\nfresh-until 1780000000\netag "abc"\nlast-modified Tue, 01 Dec 2026 09:00:00 GMT\n' \
    >"$1/validators.meta"
}

status=0
for target in ${FUZZ_TARGETS:-decoder cachemeta scaler}; do
  dir=$out/$target
  mkdir -p "$dir/corpus" "$dir/crashes"
  case $target in
    decoder)
      build decoder Sources/GIFDecoder/*.swift
      max_len=65536
      seed_gifs "$dir/corpus"
      ;;
    cachemeta)
      build cachemeta Sources/GIFLoader/CacheMeta.swift Sources/GIFLoader/Hash.swift
      seed_meta "$dir/corpus"
      max_len=4096
      ;;
    scaler)
      build scaler Sources/GIFDecoder/*.swift "$PAINTER"
      max_len=8192
      seed_gifs "$dir/corpus"
      ;;
    *)
      echo "fuzz: unknown target $target" >&2
      exit 2
      ;;
  esac
  echo "fuzz: $target for ${FUZZ_SECONDS:-120} s"
  if ! "$out/fuzz_$target" -max_total_time="${FUZZ_SECONDS:-120}" -max_len=$max_len -timeout="${FUZZ_TIMEOUT:-30}" -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$dir/crashes/" "$dir/corpus" >"$out/$target.log" 2>&1; then
    echo "fuzz: $target FAILED; see $out/$target.log and $dir/crashes" >&2
    tail -30 "$out/$target.log" >&2
    status=1
  fi
  grep -E '^#[0-9]+.*(DONE|pulse)|^Done [0-9]+ runs' "$out/$target.log" | tail -2
done
exit $status
