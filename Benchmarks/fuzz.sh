#!/bin/sh
# make fuzz: libFuzzer + AddressSanitizer on the decoder, seeded with ../shared/corpus
# (when present) and Resources/sample.gif. FUZZ_SECONDS (default 120).
set -eu
cd "$(dirname "$0")/.."
out=.build/fuzz
mkdir -p "$out/corpus" "$out/crashes"
cp Resources/sample.gif "$out/corpus/" 2>/dev/null || true
[ -d ../shared/corpus ] && find ../shared/corpus -name '*.gif' -exec cp {} "$out/corpus/" \; 2>/dev/null || true
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name GIFDecoderFuzz \
  Sources/GIFDecoder/*.swift Benchmarks/fuzz/fuzz_decoder.swift -o "$out/fuzz_decoder"
"$out/fuzz_decoder" -max_total_time="${FUZZ_SECONDS:-120}" -max_len=65536 -timeout=5 -rss_limit_mb=2048 \
  -artifact_prefix="$out/crashes/" "$out/corpus"
