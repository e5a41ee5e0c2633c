#!/usr/bin/env bash
# Runs the test suite under ThreadSanitizer and/or AddressSanitizer (with LeakSanitizer), each
# in its own build directory (.build/tsan, .build/asan), with the committed suppressions
# (scripts/sanitizers/*.supp, Swift runtime noise only). Fails when a test fails or a sanitizer
# reports anything. Not part of scripts/test.sh: see docs/testing.md for the time it takes.
#
#   scripts/sanitize.sh [thread|address]... [-- SWIFT-TEST-OPTIONS...]
#
# e.g. scripts/sanitize.sh thread -- --filter BlockingCallsTests
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

sanitizers=()
while [ $# -gt 0 ]; do
  case "$1" in
    thread|address) sanitizers+=("$1"); shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "sanitize.sh: unknown argument $1; see --help" >&2; exit 64 ;;
  esac
done
[ ${#sanitizers[@]} -gt 0 ] || sanitizers=(thread address)
options=("$@")

# Swift's backtracer forks a helper on a crash, which ThreadSanitizer cannot follow; the
# sanitizers print their own reports. Subprocesses the tests start inherit these settings.
export SWIFT_BACKTRACE=enable=no
export TSAN_OPTIONS="suppressions=$root/scripts/sanitizers/tsan.supp:second_deadlock_stack=1"
# umockdev-run preloads its library before the ASan runtime in the tests' children; the
# runtime still intercepts everything, so its link-order check is turned off.
export ASAN_OPTIONS="detect_leaks=1:verify_asan_link_order=0"
export LSAN_OPTIONS="suppressions=$root/scripts/sanitizers/lsan.supp:print_suppressions=0"

status=0
for sanitizer in "${sanitizers[@]}"; do
  scratch=.build/${sanitizer:0:1}san
  log=$scratch/sanitize-test.log
  echo "== $sanitizer: building the tests"
  swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" 2>&1 | grep -E 'error:|Build' || true
  echo "== $sanitizer: running swift test ${options[*]:-}"
  started=$(date +%s)
  set +e
  swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" "${options[@]}" >"$log" 2>&1
  result=$?
  set -e
  reports=$(grep -cE '^(WARNING: ThreadSanitizer|==[0-9]+==ERROR: (Address|Leak)Sanitizer)' "$log" || true)
  summary=$(grep -E 'Test run with [0-9]+ tests' "$log" | tail -n 1 || true)
  echo "== $sanitizer: $(( $(date +%s) - started )) s, $reports sanitizer reports; ${summary:-no Swift Testing summary}"
  if [ "$reports" -gt 0 ]; then
    grep -E -A30 '^(WARNING: ThreadSanitizer|==[0-9]+==ERROR: (Address|Leak)Sanitizer)' "$log" | head -n 120 >&2
  fi
  grep -E '^✘ Test .* (recorded an issue|failed after)' "$log" | cut -c1-300 >&2 || true
  if [ "$result" -ne 0 ] || [ "$reports" -gt 0 ]; then
    echo "== $sanitizer: FAILED; full log in $log" >&2
    status=1
  fi
done
exit "$status"
