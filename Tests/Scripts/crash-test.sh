#!/usr/bin/env bash
# Kills easel with SIGKILL at random moments while it saves a document and while it
# exports a folder, TRIALS times each (default 200), and checks that every document is
# its old or new version, never partial, and that the export's next run completes.
#   Tests/Scripts/crash-test.sh [TRIALS]
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --build-tests >/dev/null
EASEL_CRASH_TRIALS="${1:-200}" swift test --skip-build --filter CrashSafetyTests 2>&1 | grep -E "crash safety|✘|Test run"
