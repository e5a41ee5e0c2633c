#!/usr/bin/env bash
# Builds the Debian packages activetaskd, activetask-web and activetask-upload, each with its
# -dbgsym package, from the debian/ source package and the release build (docs/install.md):
#
#   scripts/package.sh [--output DIR] [--version VERSION]
#
# DIR defaults to dist/. VERSION (e.g. 0.2.0+study3) replaces debian/changelog's version for
# this build only, for a study's own builds that must upgrade the last ones. The release build
# (`swift build -c release --static-swift-stdlib`, the one the release check makes) is reused
# when no source file is newer than it, and made otherwise. The packages are built by
# `dpkg-buildpackage -b -us -uc` in a staging copy of debian/, so the work tree stays clean.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
output="$root/dist"
version=""
while [ $# -gt 0 ]; do
  case "$1" in
    --output) output="$2"; shift 2 ;;
    --version) version="$2"; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "package.sh: unknown argument '$1'; usage: scripts/package.sh [--output DIR] [--version VERSION]" >&2; exit 64 ;;
  esac
done
mkdir -p "$output"
output="$(cd "$output" && pwd)"
cd "$root"

bin="$(swift build -c release --static-swift-stdlib --show-bin-path)"
# The packages hold the multi-call `activetask` (docs/install.md, "Size") and the UI's files.
current=yes
[ -x "$bin/activetask" ] && [ -e "$bin/ActiveTask_WebRelay.resources/Assets/index.html" ] || current=no
if [ "$current" = yes ]; then
  if [ -n "$(find Sources Package.swift Package.resolved -newer "$bin/activetask" -type f -print -quit 2>/dev/null)" ]; then
    current=no
  fi
fi
if [ "$current" = yes ]; then
  echo "package.sh: reusing the release build in $bin"
else
  echo "package.sh: swift build -c release --static-swift-stdlib --product activetask"
  swift build -c release --static-swift-stdlib --product activetask
fi

staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
source="$staging/activetask"
mkdir "$source"
cp -a debian "$source/debian"
for folder in systemd config udev docs; do ln -s "$root/$folder" "$source/$folder"; done
if [ -n "$version" ]; then
  { printf 'activetask (%s) bookworm; urgency=medium\n\n  * Built by scripts/package.sh --version %s.\n\n -- %s  %s\n\n' \
      "$version" "$version" "$(dpkg-parsechangelog -l debian/changelog -S Maintainer)" "$(date -R)"
    cat debian/changelog; } > "$source/debian/changelog"
fi
(cd "$source" && ACTIVETASK_BUILD_DIR="$bin" dpkg-buildpackage -b -us -uc --no-sign)
find "$staging" -maxdepth 1 -name '*.deb' -exec mv -f {} "$output/" \;
echo "package.sh: built into $output:"
(cd "$output" && ls -1 ./*.deb | sed 's|^\./|  |')
