#!/usr/bin/env bash
# Runs the test suite under ThreadSanitizer and/or AddressSanitizer (with LeakSanitizer), each
# in its own build directory (.build/tsan, .build/asan), with the committed suppressions
# (scripts/sanitizers/*.supp, toolchain and dependency noise only). Fails when a sanitizer reports
# anything, or a test fails twice (a pass that failed with no report runs once more, below). scripts/test.sh (and so CI) runs it for both after the plain passes; see
# docs/testing.md for the time it takes.
#
# Without options the suites run in scripts/test.sh's three passes (all but the real-time ones;
# whole recorded tasks; strict timings), so that real-time tests are not judged under the load
# of the whole suite; with options, one `swift test` run with those options.
#
#   scripts/sanitize.sh [thread|address]... [--skip-build] [-- SWIFT-TEST-OPTIONS...]
#
# e.g. scripts/sanitize.sh thread --skip-build -- --filter BlockingCallsTests
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

sanitizers=()
skip_build=0
while [ $# -gt 0 ]; do
  case "$1" in
    thread|address) sanitizers+=("$1"); shift ;;
    --skip-build) skip_build=1; shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
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

# The passes' regexes, taken from scripts/test.sh so that both scripts split the suites alike.
eval "$(grep -E "^(recordings|timings)='" scripts/test.sh)"
[ -n "${recordings:-}" ] && [ -n "${timings:-}" ] || { echo "sanitize.sh: no pass regexes in scripts/test.sh" >&2; exit 70; }

# Suites a sanitizer adds nothing to, left out of the sanitizer passes (docs/testing.md, "Testing
# under sanitizers"): pure logic on one thread in safe Swift (the task model, navigation, fusion,
# quality checks, the protocol's types, the fuzz seeds' replay: fuzz.sh runs those under
# AddressSanitizer), the UI's flows in Chromium and SageResearch's navigation scenarios over the
# socket (one request at a time), and whole tasks that repeat what the kept ones exercise (the
# corpus, five runs of one task, a residency measurement). The plain passes run them all.
unsanitized='TaskModelTests\.|TaskNavigationTests\.|MotionFusionTests\.|QualityTests\.|ControlProtocolTests\.|FuzzTests\.|MotionTests\.FusionMotionTests|DaemonTests\.(WebBrowserTests|WebBrowserTappingTests|SageNavigationScenarioTests|SageTaskControllerScenarioTests|SimpleSurveyTests|HandTaskTests|RepeatedVoiceTests|IdleCodePageOutTests|AutoRunTests|PublishedStatusTests)|SessionTests\.(CorpusSessionTests|TaskInfoSessionTests)'

# The longest one pass may take (seconds), by pass: under ThreadSanitizer the plain pass takes
# about 140 s, the serial whole-task pass about 390 s and the serial strict timings about 2 min.
# `run_pass` uses $pass_limit; the calls below set it per pass.
pass_limit=900

# A sanitizer's report starts with one of these lines; a subprocess that died of a signal under
# a sanitizer (`==N==ERROR: ThreadSanitizer: FPE`, SEGV: activetaskctl under umockdev, the
# daemon) is one too wherever it shows, usually indented inside a test's issue, never retried;
# so is a report's closing SUMMARY line, which is all a test that prints only the end of a
# child's output may show of it (a leak report's first line was cut so once, and the pass retried).
report_pattern='^(WARNING: ThreadSanitizer|==[0-9]+==ERROR: (Address|Leak)Sanitizer)|==[0-9]+==ERROR: (Thread|Address)Sanitizer: (SEGV|FPE|BUS|ILL|ABRT|stack-overflow)|SUMMARY: (Address|Leak|Thread)Sanitizer: '

# One pass: a `swift test` run appended to $log, with its time and Swift Testing's summary.
# A pass whose tests failed with no sanitizer report in its output is run once more:
# under the sanitizer's slowdown a real-time check can miss its (already scaled) bound, and that
# says nothing about races or memory. The retried tests are named in the output; a failure
# again, or any sanitizer report, fails the run. The plain passes (scripts/test.sh) never retry.
run_pass() {
  local before pass_started summary attempt pass_status pass_reports
  for attempt in 1 2; do
    echo "== $sanitizer: swift test $*$([ "$attempt" -eq 2 ] && echo ' (once more)')"
    before=$(wc -l <"$log")
    pass_started=$(date +%s)
    pass_status=0
    # Bounded, so that a process stuck at exit (a sanitizer's own exit-time check can spin) fails
    # the pass instead of CI's whole time limit; a pass takes 1-2 minutes.
    # In a PID namespace of its own (scripts/contained): nothing the pass started outlives it.
    scripts/contained --limit "$pass_limit" -- \
      swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" "$@" >>"$log" 2>&1 || pass_status=$?
    if [ "$pass_status" -eq 124 ] || [ "$pass_status" -eq 137 ]; then
      echo "== $sanitizer: the pass did not end within $pass_limit s; it was stopped"
    fi
    summary=$(tail -n +"$((before + 1))" "$log" | grep -E 'Test run with [0-9]+ tests?' | tail -n 1 || true)
    echo "== $sanitizer: $(( $(date +%s) - pass_started )) s; ${summary:-no Swift Testing summary}"
    [ "$pass_status" -eq 0 ] && return 0
    pass_reports=$(tail -n +"$((before + 1))" "$log" | grep -cE "$report_pattern" || true)
    # A pass stopped at its limit is retried too: once, a timings pass hung in
    # PulsePacingTests' 10 s recording (no thread left running, no report) and was stopped.
    local stopped=0
    { [ "$pass_status" -eq 124 ] || [ "$pass_status" -eq 137 ]; } && stopped=1
    if [ "$attempt" -eq 1 ] && [ "$pass_reports" -eq 0 ] && { [ -n "$summary" ] || [ "$stopped" -eq 1 ]; }; then
      echo "== $sanitizer: failed with no sanitizer report; retried once:"
      # A pass stopped at its limit may have no failed test to name (grep finds none; under
      # pipefail that alone ended the script before the retry).
      tail -n +"$((before + 1))" "$log" | { grep -E '^✘ Test .* recorded an issue' || true; } | cut -c1-300 | sed 's/^/==   /'
      continue
    fi
    result=$pass_status
    return 0
  done
}

status=0
for sanitizer in "${sanitizers[@]}"; do
  scratch=.build/${sanitizer:0:1}san
  log=$scratch/sanitize-test.log
  if [ "$skip_build" -eq 0 ]; then
    echo "== $sanitizer: building the tests"
    started=$(date +%s)
    # A failed build fails this sanitizer's run: its tests are not run against the binaries of
    # an earlier build (only the filtered output is shown; pipefail keeps swift build's status).
    if ! swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" 2>&1 | { grep -E 'error:|Build' || true; }; then
      echo "== $sanitizer: FAILED; the build failed, so no test ran" >&2
      status=1
      continue
    fi
    echo "== $sanitizer: built in $(( $(date +%s) - started )) s"
  fi
  # The margins of timing assertions (TestSupport's TestTiming) widen by the sanitizer's slowdown.
  case "$sanitizer" in
    thread) export ACTIVETASK_TEST_TIME_SCALE=5 ;;
    address) export ACTIVETASK_TEST_TIME_SCALE=3 ;;
  esac
  : >"$log"
  result=0
  started=$(date +%s)
  if [ ${#options[@]} -gt 0 ]; then
    run_pass "${options[@]}"
  else
    # At most 8 tests at a time: every suite starting at once (dozens of sanitized subprocesses,
    # daemons with their sound servers) stalled the whole process for 16 s at the pass's start,
    # and a microphone's configuration and a simulated IMU's stop missed 10 s and 5 s deadlines.
    pass_limit=600 && run_pass --experimental-maximum-parallelization-width 8 --skip "$recordings|$timings|$unsanitized"
    # One test at a time: under a sanitizer the whole tasks starve each other of the two cores
    # (steps 1.5-2.8 s off their second in parallel; all 19 passed serially in 392 s, TSan).
    pass_limit=900 && run_pass --no-parallel --filter "$recordings" --skip "$unsanitized"
    # Serial too: in parallel under ThreadSanitizer, opening a file PCM took over a second and
    # a queued prompt was heard 0.2 s late (CI, twice in a row); under the sanitizer's slowdown
    # the suites' own threads are what starves them.
    pass_limit=420 && run_pass --no-parallel --filter "$timings" --skip "$unsanitized"
  fi
  reports=$(grep -cE "$report_pattern" "$log" || true)
  echo "== $sanitizer: $(( $(date +%s) - started )) s in all, $reports sanitizer reports"
  if [ "$reports" -gt 0 ]; then
    grep -E -A30 "$report_pattern" "$log" | head -n 120 >&2
  fi
  if [ "$result" -ne 0 ] || [ "$reports" -gt 0 ]; then
    # Anywhere on a line: a child process's output may run into the line an issue starts.
    grep -E -A6 '✘ Test .* recorded an issue' "$log" | cut -c1-300 | head -n 120 >&2 || true
    grep -E '✘ Test .* failed after' "$log" | cut -c1-300 >&2 || true
    echo "== $sanitizer: FAILED; full log in $log" >&2
    status=1
  fi
done
exit "$status"
