#!/usr/bin/env bash
# The install build README.md tells a tablet to make (`swift build -c release
# --static-swift-stdlib`), then the tests that run whole tasks and the protocol through the real
# daemon, and the demo, against those binaries (docs/testing.md, "The install build"). The
# release build once crashed at every recorder stop while the debug build the other passes run
# did not. Swift Testing's output goes to standard output for scripts/test.sh to count.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== the install build: swift build -c release --static-swift-stdlib"
swift build -c release --static-swift-stdlib
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
for product in activetaskd activetaskctl; do
  [ -x "$bin/$product" ] || { echo "release-check: $bin/$product was not built" >&2; exit 1; }
done
echo "== whole tasks and the protocol through the install build's activetaskd ($bin)"
status=0
ACTIVETASK_TEST_BINARIES="$bin" swift test --skip-build \
  --filter 'DaemonTests\.(WholeTaskTests|AutoRunTests|DaemonProtocolConformanceTests|InteractiveFrontEndTests|RetentionTests)' || status=$?
echo "== the demo on the install build"
./scripts/demo.sh --bin-dir "$bin" || status=$?
exit "$status"
