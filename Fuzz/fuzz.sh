#!/usr/bin/env bash
# Fuzzes Easel's document decoding, PNG decoding, rendering and zip bodies with libFuzzer.
#
#   Fuzz/fuzz.sh documents|png|render|zip|all [SECONDS] [extra libFuzzer flags...]
#
# Builds the targets with -sanitize=fuzzer,address into .build-fuzz (the C libpng shim is
# instrumented too), seeds a working corpus from Fuzz/seeds (committed) and runs each
# target for SECONDS (default 60). Crashes are written to .build-fuzz/findings/<target>/;
# fix it, and commit its input to Fuzz/seeds/<target>/: FuzzSeedTests runs every seed
# through the same properties in the ordinary suite, so it stays fixed. Prints executions
# and coverage at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:-all}
seconds=${2:-60}
shift $(( $# > 2 ? 2 : $# ))

targets=()
case "$which" in
  documents|png|render|zip) targets=("$which") ;;
  all) targets=(documents png render zip) ;;
  *) echo "usage: $0 documents|png|render|zip|all [SECONDS] [libFuzzer flags]" >&2; exit 64 ;;
esac

for target in "${targets[@]}"; do
  product="easel-fuzz-$target"
  echo "== building $product (fuzzer + address sanitizer)"
  # Coverage-instrumented and address-sanitized code (Swift and the C shim), linked with
  # libFuzzer's no-main runtime: SwiftPM owns the executable's main, which calls
  # LLVMFuzzerRunDriver.
  runtime=$(ls "$(dirname "$(readlink -f "$(command -v swiftc)")")"/../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a | head -1)
  swift build --product "$product" --build-path .build-fuzz -c debug \
    -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp -Xswiftc -DFUZZING \
    -Xcc -fsanitize=fuzzer-no-link,address -Xlinker "$runtime" -Xlinker -lstdc++ 2>&1 \
    | grep -v "Cannot export local symbol" | grep -E "error|Build" | tail -3
  corpus=".build-fuzz/corpus/$target"
  findings=".build-fuzz/findings/$target"
  mkdir -p "$corpus" "$findings"
  cp -n Fuzz/seeds/"$target"/* "$corpus"/ 2>/dev/null || true
  dict=()
  [ -f "Fuzz/$target.dict" ] && dict=(-dict="Fuzz/$target.dict")
  echo "== fuzzing $product for $seconds s"
  log=".build-fuzz/$target.log"
  set +e
  ".build-fuzz/debug/$product" "$corpus" "${dict[@]}" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
    -rss_limit_mb=2048 -artifact_prefix="$findings/" -print_final_stats=1 "$@" >"$log" 2>&1
  status=$?
  set -e
  grep -E " cov: " "$log" | tail -1 || true
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb|stat::new_units_added" "$log" || true
  if [ $status -ne 0 ]; then
    echo "== $product FOUND A PROBLEM (exit $status); inputs in $findings:" >&2
    ls "$findings" >&2
    grep -m5 -E "ERROR|Fatal error|SUMMARY" "$log" >&2 || true
    exit 1
  fi
done
