#!/usr/bin/env bash
# The install build README.md tells a tablet to make (`swift build -c release
# --static-swift-stdlib`), then the tests that run whole tasks and the protocol through the real
# daemon, and the demo, against those binaries (docs/testing.md, "The install build"). The
# release build once crashed at every recorder stop while the debug build the other passes run
# did not. Swift Testing's output goes to standard output for scripts/test.sh to count; the build
# and the demo each end with one line `release-check: <what> passed|failed`.
#
#   scripts/release-check.sh [--build-only | --skip-build]
#
# --build-only makes the build and stops; --skip-build runs the checks against the build made
# before (scripts/test.sh builds the next sanitizer's tests beside those checks).
set -uo pipefail
cd "$(dirname "$0")/.."
build=1
checks=1
case "${1:-}" in
  "") ;;
  --build-only) checks=0 ;;
  --skip-build) build=0 ;;
  *) echo "release-check.sh: unknown argument $1 (only --build-only or --skip-build)" >&2; exit 64 ;;
esac
status=0
if [ "$build" -eq 1 ]; then
  echo "== the install build: swift build -c release --static-swift-stdlib"
  if swift build -c release --static-swift-stdlib; then
    echo "release-check: install build passed"
  else
    echo "release-check: install build failed"
    exit 1
  fi
fi
[ "$checks" -eq 1 ] || exit 0
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
if [ ! -x "$bin/activetaskd" ]; then
  echo "release-check.sh: no install build in $bin; run it without --skip-build first." >&2
  echo "release-check: install build failed"
  exit 1
fi
echo "== ICU's trimmed data (Sources/ICUData) against the toolchain's and the probe (docs/install.md, \"Size\")"
if python3 scripts/icu-data.py check; then
  echo "release-check: ICU data passed"
else
  echo "release-check: ICU data failed"
  status=1
fi
echo "== whole tasks and the protocol through the install build's activetaskd ($bin)"
ACTIVETASK_TEST_BINARIES="$bin" scripts/contained -- swift test --skip-build \
  --filter 'DaemonTests\.(WholeTaskTests|AutoRunTests|DaemonProtocolConformanceTests|InteractiveFrontEndTests|RetentionTests|RepeatedVoiceTests)|AudioTests\.DeviceRateTests|MotionTests\.MotionRateTests' || status=1
echo "== the demo on the install build"
if scripts/contained -- ./scripts/demo.sh --bin-dir "$bin"; then
  echo "release-check: demo passed"
else
  echo "release-check: demo failed"
  status=1
fi
exit "$status"
