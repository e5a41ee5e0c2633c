#!/usr/bin/env bash
# Sets up the machine (Debian packages) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
swift build --build-tests
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
swift test --skip-build 2>&1 | tee "$log" || status=$?
# One plain closing line: Swift Testing's totals, with failed tests counted from its report.
total=$(sed -n 's/^.* Test run with \([0-9]*\) tests\{0,1\} .*$/\1/p' "$log" | tail -n 1)
failed=$(grep -c '^✘ Test .* failed after' "$log" || true)
if [ -n "$total" ]; then
  echo "tests: $((total - failed)) passed, $failed failed"
fi
# A short libFuzzer run of every fuzz target (docs/fuzzing.md): 20 s each, fails on a crash.
./scripts/fuzz.sh --seconds 20 || status=1
exit "$status"
