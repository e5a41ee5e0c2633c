#!/usr/bin/env bash
# Sets up the machine (Debian packages) and runs every test, then the install build's checks and
# its Debian packages' check, then the suites that exercise threads and memory again under
# ThreadSanitizer and AddressSanitizer, and a short fuzz run (docs/testing.md).
# `--no-sanitizers` leaves those out for a quicker local run; `--beside-busy-loops` runs it all
# beside two `nice -n 19` busy loops.
#
# Tests that measure real time run in passes of their own, so that the load of the other suites
# (subprocess daemons, the mutation test, fusion runs) cannot make them miss: on two cores, every
# suite at once is a load no device sees. The second pass holds whole recorded tasks (step
# markers at their second, sample counts, audio length), the third the strict timings (prompt
# onsets within 50 ms, deadlines, watchdog intervals, actors answering within 10 ms).
set -euo pipefail
cd "$(dirname "$0")/.."
# The whole run in a PID namespace of its own (scripts/contained), so that however it is stopped
# (Ctrl-C, SIGTERM, a CI time limit, SIGKILL of this one process) nothing it started outlives it;
# each pass below has a namespace of its own inside this one (docs/testing.md, "Nothing left
# running").
if [ -z "${ACTIVETASK_TEST_RUN_CONTAINED:-}" ]; then
  export ACTIVETASK_TEST_RUN_CONTAINED=1
  exec scripts/contained -- bash scripts/test.sh "$@"
fi
sanitizers=1
busy_loops=0
for argument in "$@"; do
  case "$argument" in
    --no-sanitizers) sanitizers=0 ;;
    --beside-busy-loops) busy_loops=1 ;;
    *) echo "test.sh: unknown argument $argument (only --no-sanitizers, --beside-busy-loops)" >&2; exit 64 ;;
  esac
done
./scripts/setup.sh
./scripts/check-conflicts.sh
# --beside-busy-loops: the whole run beside two `nice -n 19` busy loops, the load no test's
# verdict may depend on (docs/testing.md, "Load"). Like the background builds below, each is in a
# PID namespace that dies with this shell (scripts/contained), so none outlives the run.
busy_pids=()
if [ "$busy_loops" -eq 1 ]; then
  for _ in 1 2; do
    nice -n 19 scripts/contained -- sh -c 'while :; do :; done' &
    busy_pids+=("$!")
  done
  echo "== beside two nice -n 19 busy loops (pids ${busy_pids[*]})"
fi
log=$(mktemp)
trap 'rm -f "$log"; [ ${#busy_pids[@]} -eq 0 ] || kill "${busy_pids[@]}" 2>/dev/null || true' EXIT
swift build --build-tests
status=0
recordings='SessionTests\.(TaskSessionTests|CorpusSessionTests|RecorderFailureSessionTests|TaskInfoSessionTests)|DaemonTests\.(SystemdIntegrationTests|TakeOverTests|ManyClientsTests|FullDiskTests|SensorRemovedTests|PublishedStatusTests|RepeatedVoiceTests|AutoRunTests|IdleCodePageOutTests)'
timings='AudioTests\.(PulsePacingTests|VoiceTests|MicrophoneConformanceTests|DeviceRateTests|KnownDelayTests)|DaemonTests\.DelayedDeviceVoiceTests|BlockingCallsTests\.|MotionTests\.(BlockingOpenTests|MotionConformanceTests|UmockdevConformance)|SystemdTests\.NotifierTests|ControlServerTests\.ControlServerTests'
# Each pass is bounded (seconds; they take about 180, 80 and 45), so a test that hangs fails its
# pass instead of running into CI's time limit, and runs in a PID namespace of its own
# (scripts/contained), so that a pass interrupted or killed leaves no process behind.
bounded() { local limit=$1; shift; scripts/contained --limit "$limit" -- "$@"; }
echo "== tests (all but the real-time ones)"
bounded 900 swift test --skip-build --skip "$recordings|$timings" 2>&1 | tee -a "$log" || status=$?
echo "== whole tasks recorded in real time, on their own"
bounded 600 swift test --skip-build --filter "$recordings" 2>&1 | tee -a "$log" || status=$?
echo "== strict timings, on their own"
bounded 300 swift test --skip-build --filter "$timings" 2>&1 | tee -a "$log" || status=$?
# The custom task example (docs/custom-tasks.md): a package of its own depending on this one by
# path, built in its own .build (TaskModel and TaskNavigation only), and its tests run. Its tests
# count as the others do; a build that fails counts as one failed test.
echo "== the custom task example (examples/custom-task)"
example_build=0
if (cd examples/custom-task && swift build --build-tests) 2>&1 | tee -a "$log"; then
  (cd examples/custom-task && ../../scripts/contained -- swift test --skip-build) 2>&1 | tee -a "$log" || status=$?
else
  example_build=1
  status=1
fi
# The install build README.md gives a tablet, with the whole-task and protocol tests and the demo
# run against it (scripts/release-check.sh, docs/testing.md "The install build").
#
# From here on one build runs beside each group of passes, at nice 19 and in a PID namespace of
# its own (scripts/contained), because those passes leave most of the two cores idle (whole tasks
# in real time, mostly one at a time): ThreadSanitizer's beside the install build's checks,
# AddressSanitizer's beside ThreadSanitizer's passes, and the fuzz targets' build and their short
# run (scripts/fuzz.sh) beside AddressSanitizer's passes. Each sanitizer's passes fail on a failed
# test or on any sanitizer report (scripts/sanitize.sh; full logs in .build/tsan and .build/asan);
# a sanitizer pass that fails with no report is run once more (docs/testing.md, "Where the time
# goes").
echo "== the install build (swift build -c release --static-swift-stdlib)"
release_built=0
./scripts/release-check.sh --build-only 2>&1 | tee -a "$log" && release_built=1 || status=1
mkdir -p .build
# beside VAR LOG COMMAND...: COMMAND in the background at nice 19, contained, its output in LOG,
# its pid in VAR (not printed: a command substitution's background job is not this shell's child).
beside() {
  local var=$1 output=$2; shift 2
  nice -n 19 scripts/contained -- "$@" >"$output" 2>&1 &
  printf -v "$var" '%s' "$!"
}
sanitized=0
sanitizer_failures=0
fuzz_pid=""
if [ "$sanitizers" -eq 1 ]; then
  sanitized=2
  beside tsan_build .build/tsan-build.log swift build --build-tests --sanitize=thread --scratch-path .build/tsan
fi
# The Debian packages from that build, installed, upgraded during a recording and purged in a
# fresh Debian 12 root (scripts/package-check.sh, docs/install.md): beside everything from here
# on, at nice 19 (its waits are for conditions); its lines join the log at the end.
package_pid=""
if [ "$release_built" -eq 1 ]; then
  beside package_pid .build/package-check.log ./scripts/package-check.sh
  ./scripts/release-check.sh --skip-build 2>&1 | tee -a "$log" || status=1
fi
# sanitizer_passes NAME BUILD_PID BUILD_LOG: that sanitizer's passes once its build has ended.
sanitizer_passes() {
  local name=$1 build=$2 build_log=$3
  echo "== $name: waiting for its build, made beside the passes before"
  if wait "$build"; then
    ./scripts/sanitize.sh "$name" --skip-build || { sanitizer_failures=$((sanitizer_failures + 1)); status=1; }
  else
    grep -E 'error:' "$build_log" | head -n 40 >&2 || true
    echo "== $name: FAILED; the build failed ($build_log), so no test ran" >&2
    sanitizer_failures=$((sanitizer_failures + 1))
    status=1
  fi
}
if [ "$sanitizers" -eq 1 ]; then
  beside asan_build .build/asan-build.log swift build --build-tests --sanitize=address --scratch-path .build/asan
  sanitizer_passes thread "$tsan_build" .build/tsan-build.log
  # A short libFuzzer run of every fuzz target (docs/fuzzing.md): 20 s each, fails on a crash.
  beside fuzz_pid .build/fuzz.log ./scripts/fuzz.sh --seconds 20
  sanitizer_passes address "$asan_build" .build/asan-build.log
fi
fuzz=0
if [ -n "$fuzz_pid" ]; then
  wait "$fuzz_pid" || fuzz=1
  cat .build/fuzz.log
else
  ./scripts/fuzz.sh --seconds 20 || fuzz=1
fi
[ "$fuzz" -eq 0 ] || status=1
if [ -n "$package_pid" ]; then
  echo "== the Debian packages (scripts/package-check.sh), made beside the passes above"
  wait "$package_pid" || status=1
  tee -a "$log" <.build/package-check.log
  if ! grep -q '^release-check: package ' .build/package-check.log; then
    echo "release-check: package check failed" | tee -a "$log"
    status=1
  fi
fi
# One plain closing line (docs/testing.md): every test counted once, from the line Swift Testing
# (or XCTest, if an XCTest test ran) prints when the test ends; a skipped test is neither passed
# nor failed. A run that started and printed no summary (a crash) counts as one failed test; the
# fuzz run, each sanitizer run, the install build and the demo on it count as one test each, and
# so does a failed build of the custom task example.
ended=$(grep -vE '^[^ ]+ Test (.* recorded an? (known )?issue|.* started\.$|case |run )' "$log" || true)
count_ended() { grep -cE "$1" <<<"$ended" || true; }
failed_test='^[^ ]+ Test .* failed after [0-9.]+ seconds(\.| with .*)$'
failed_case="^Test Case '.*' failed \\("
passed=$(( $(count_ended '^[^ ]+ Test .* passed after [0-9.]+ seconds(\.| with .*)$') + $(count_ended "^Test Case '.*' passed \(") ))
failed=$(( $(count_ended "$failed_test") + $(count_ended "$failed_case") ))
skipped=$(( $(count_ended '^[^ ]+ Test .* (skipped(: .*)?|was cancelled after [0-9.]+ seconds.*)$') + $(count_ended "^Test Case '.*' skipped \(") ))
# The install build and the demo on it count as one test each (their `release-check:` lines).
passed=$(( passed + $(grep -cE '^release-check: .* passed$' "$log" || true) ))
release_failed='^release-check: .* failed$'
failed=$(( failed + $(grep -cE "$release_failed" "$log" || true) ))
unfinished=$(( $(grep -cE '^[^ ]+ Test run started\.$' "$log" || true) - $(grep -cE '^[^ ]+ Test run with [0-9]+ tests? ' "$log" || true) ))
# Each failed test by name just above the closing line, where output cut short still shows them.
{ grep -E '^[^ ]+ Test .* recorded an issue' "$log" || true; } | head -n 20 | cut -c1-400 | sed 's/^/issue: /'
{ grep -E "$failed_test|$failed_case" <<<"$ended" || true; } | cut -c1-300 | sed 's/^/failed: /'
{ grep -E "$release_failed" "$log" || true; } | sed 's/^/failed: /'
[ "$fuzz" -eq 0 ] || echo "failed: the fuzz run (scripts/fuzz.sh)"
[ "$example_build" -eq 0 ] || echo "failed: the custom task example's build"
[ "$sanitizer_failures" -eq 0 ] || echo "failed: $sanitizer_failures sanitizer run(s) (their output above)"
[ "$unfinished" -le 0 ] || echo "failed: $unfinished test run(s) printed no summary (a crash or a time limit)"
echo "tests: $((passed + 1 - fuzz + sanitized - sanitizer_failures)) passed, $((failed + unfinished + fuzz + sanitizer_failures + example_build)) failed, $skipped skipped"
exit "$status"
