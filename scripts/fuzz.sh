#!/usr/bin/env bash
# Builds every fuzz target (Fuzz/, one per Fuzz/Corpus/<target>) with libFuzzer and
# AddressSanitizer and fuzzes each for a bounded time, starting from its committed seed corpus.
# Fails on the first crash, timeout or out-of-memory, printing the reproducer and how to replay it.
#
#   scripts/fuzz.sh [--seconds N] [--keep DIR] [--build-only] [TARGET...]
#
# --seconds N   fuzzing time per target (default 20, what CI runs)
# --keep DIR    keep the grown corpora in DIR/<target> (default: a temporary directory, removed)
# --build-only  build the targets and stop (scripts/test.sh builds them beside other work)
# See docs/fuzzing.md for the longer run and its figures.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

seconds=20
keep=""
build_only=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    --build-only) build_only=1; shift ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1; see --help" >&2; exit 64 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if [ ${#targets[@]} -eq 0 ]; then
  for dir in Fuzz/Corpus/*/; do targets+=("$(basename "$dir")"); done
fi

scratch=.build/fuzz
artifacts=$root/$scratch/artifacts
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$artifacts"

# Swift's backtracer would catch the crash signal before libFuzzer and ASan can report it.
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS="${LSAN_OPTIONS:-}${LSAN_OPTIONS:+:}suppressions=$root/scripts/sanitizers/lsan.supp:print_suppressions=0"

# Inputs outside the repository that make good seeds, copied at run time only (never committed).
extra_seeds() {
  local target=$1 corpus=$2
  local shared=${ACTIVETASK_SHARED_FIXTURES:-$root/../shared/fixtures}
  case "$target" in
    fuzz-task)
      if [ -d "$shared/sage" ]; then
        find "$shared/sage" -name '*.json' -size -64k | sort | head -n 400 |
          while read -r file; do cp "$file" "$corpus/shared-$(echo "$file" | md5sum | cut -c1-12).json"; done
      fi ;;
  esac
}

status=0
for target in "${targets[@]}"; do
  if [ ! -d "Fuzz/Corpus/$target" ]; then
    echo "fuzz.sh: no seed corpus Fuzz/Corpus/$target; targets are: $(ls Fuzz/Corpus | tr '\n' ' ')" >&2
    exit 64
  fi
  echo "== $target: building with -sanitize=fuzzer,address"
  swift build --scratch-path "$scratch" --product "$target" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING 2>&1 | grep -E 'error|warning: unre|Build' || true
  binary=$(swift build --scratch-path "$scratch" --product "$target" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --show-bin-path)/$target
  [ -x "$binary" ] || { echo "fuzz.sh: $target did not build" >&2; exit 1; }
  [ "$build_only" -eq 0 ] || continue

  corpus=${keep:+$keep/$target}
  corpus=${corpus:-$work/$target}
  mkdir -p "$corpus"
  cp Fuzz/Corpus/"$target"/* "$corpus"/
  extra_seeds "$target" "$corpus"
  log=$work/$target.log

  echo "== $target: fuzzing for $seconds s from $(ls "$corpus" | wc -l) seeds"
  started=$(date +%s)
  set +e
  "$binary" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$artifacts/$target-" -print_final_stats=1 >"$log" 2>&1
  result=$?
  set -e
  elapsed=$(( $(date +%s) - started ))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  # No status line when the fuzzer fails on its seeds: grep finds nothing, which must not end the script.
  coverage=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | sed -n 's/.*cov: \([0-9]*\) ft: \([0-9]*\) corp: \([0-9]*\).*/\1 edges, \2 features, \3 inputs in the corpus/p' || true)
  if [ "$result" -eq 0 ]; then
    echo "== $target: ok: ${runs:-?} executions in ${elapsed} s, ${coverage:-coverage unknown}"
  else
    status=1
    echo "== $target: FAILED (exit $result) after ${elapsed} s; the fuzzer's report:" >&2
    grep -v '^#[0-9]' "$log" | tail -n 60 >&2
    reproducer=$(sed -n 's/^.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
    if [ -n "$reproducer" ]; then
      echo "== reproducer: $reproducer ($(wc -c <"$reproducer") bytes), base64:" >&2
      base64 -w 76 "$reproducer" | head -n 40 >&2
      echo "== replay: $binary $reproducer   (or without libFuzzer: swift build --product $target && .build/debug/$target $reproducer)" >&2
    fi
  fi
done
exit "$status"
