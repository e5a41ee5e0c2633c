#!/usr/bin/env bash
# Fails when any file git tracks holds a merge conflict marker: a line starting with seven `<`
# or seven `>` followed by a space or the end of the line, or a line of exactly seven `=` in a
# file that has one of the others (a Markdown rule of `=` alone is not a conflict).
set -euo pipefail
cd "$(dirname "$0")/.."
found=0
while IFS= read -r -d '' file; do
  [ -f "$file" ] || continue
  if grep -IqE '^(<{7}|>{7})( |$)' "$file"; then
    grep -nE '^(<{7}|>{7})( |$)|^={7}$' "$file" | sed "s|^|$file:|" >&2
    found=1
  fi
done < <(git ls-files -z)
if [ "$found" -ne 0 ]; then
  echo "check-conflicts: merge conflict markers above; resolve them and commit again." >&2
  exit 1
fi
echo "check-conflicts: no merge conflict markers in $(git ls-files | wc -l) tracked files."
