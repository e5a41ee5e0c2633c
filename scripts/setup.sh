#!/usr/bin/env bash
# Installs the Debian packages activetask builds and tests against.
# Does nothing when every package is already present; uses sudo when not root.
set -euo pipefail

packages=(
  pkg-config
  libiio-dev libiio-utils iiod
  libasound2-dev alsa-utils libasound2-plugins
  libsystemd-dev systemd udev
  libespeak-ng-dev espeak-ng
  umockdev
  pulseaudio sox
  util-linux iproute2 zip unzip
  chromium python3-pil
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
