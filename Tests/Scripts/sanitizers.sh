#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer, and the concurrent parts (parallel export,
# multi-threaded rendering, concurrent edits, the interactive session) under
# ThreadSanitizer. Each sanitizer has its own build folder; the easel binary the CLI tests
# start is instrumented too, and a sanitizer report in it fails the test (non-zero exit).
#   Tests/Scripts/sanitizers.sh [address|thread|all|ci]
# `ci` is the fast subset `make test` runs when CI is set: hostile inputs, fuzz seeds, the
# PNG shim and the fast PNG writer (its SSSE3 filter's stores), the turned-photo sampler's
# and the resampler's loads and easel serve's hostile requests under AddressSanitizer;
# parallel export, band-by-band export, concurrent edits, the sampler's per-thread scratch,
# the resampler's rows on two threads and easel serve's editing and hostile tests under
# ThreadSanitizer.
set -euo pipefail
cd "$(dirname "$0")/../.."
which=${1:-all}

run() {
  local sanitizer=$1 filter=${2:-}
  local build=".build-$sanitizer"
  echo "== building with --sanitize=$sanitizer"
  swift build --build-tests --sanitize="$sanitizer" --build-path "$build" 2>&1 | grep -E "error|Build complete" | tail -2
  echo "== testing with --sanitize=$sanitizer ${filter:+(filter: $filter)}"
  local args=(--skip-build --sanitize="$sanitizer" --build-path "$build")
  [ -n "$filter" ] && args+=(--filter "$filter")
  # halt_on_error: the first report fails the run; the CLI tests see the child's exit code.
  # A failed run does not end the script here: its report is printed below first.
  local status=0
  ASAN_OPTIONS=halt_on_error=1:detect_leaks=0 TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    EASEL_SANITIZER="$sanitizer" EASEL_BINARY="$PWD/$build/debug/easel" swift test "${args[@]}" 2>&1 | tee "$build/sanitizer.log" | grep -E "Test run|✘|SUMMARY: (Address|Thread)Sanitizer" | tail -20 \
    || status=$?
  if grep -q "SUMMARY: .*Sanitizer" "$build/sanitizer.log"; then
    # The first report whole (both stacks, where the memory came from), so that a run seen
    # only through its log (CI's) says where the problem was, not just the summary line.
    echo "== $sanitizer sanitizer reported problems; the first report (all of it in $build/sanitizer.log):" >&2
    sed -n '/^WARNING: .*Sanitizer\|^==[0-9]*==ERROR: .*Sanitizer/,/^SUMMARY: .*Sanitizer/p' "$build/sanitizer.log" | head -150 >&2
    return 1
  fi
  [ "$status" -eq 0 ] && grep -q "✔ Test run with" "$build/sanitizer.log"
}

case "$which" in
  address) run address ;;
  thread) run thread "Batch|OutputFormat|Concurrent|InteractiveEdit|Memory|Server|ServeCommand|StreamingExport|BandedExport|ImagePrefetch|SharedImageCache|FastPNGWriter|BandedPNGExport|TextLayoutAhead|FoundationStandIns|JPEGRowSplit|TurnedImage|ImageReduction" ;;
  all) run address && run thread "Batch|OutputFormat|Concurrent|InteractiveEdit|Memory" ;;
  ci) run address "Hostile|FuzzSeed|ResourceLimit|PNGCodec|FastPNGWriter|JSONParser|DecodingError|TurnedImage|ImageReduction" && run thread "FolderExport|ExportWatchTests|OutputFormat|ConcurrentEdit|DocumentLock|ServerEditingTests|ServerHostileTests|StreamingExport|BandedExport|ImagePrefetch|SharedImageCache|FastPNGWriter|BandedPNGExport|TextLayoutAhead|FoundationStandIns|JPEGRowSplit|TurnedImage|ImageReduction" ;;
  *) echo "usage: $0 address|thread|all|ci" >&2; exit 64 ;;
esac
