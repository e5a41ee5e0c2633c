#!/usr/bin/env bash
# Sets up the machine and runs the demo: plans the project's example walk-and-balance task.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
swift build --product activetaskctl
.build/debug/activetaskctl plan examples/WalkAndBalance/WalkAndBalance.json
