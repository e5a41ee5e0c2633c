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
  chromium-driver python3-selenium python3-websockets curl cage xwayland  # activetask-web: browser and security tests, the kiosk unit (cage needs Xwayland)
  python3 python3-pip tmux
  python3-libiio strace linux-perf  # bench/daemon-bench: the Python recorder and the profiles
  libcurl4-openssl-dev libssl-dev  # activetask-upload: libcurl and libcrypto (docs/upload.md)
  openssl  # UploadTests: study certificates and `openssl cms -decrypt` of encrypted uploads
  caddy nginx-light  # activetask-web behind a TLS reverse proxy: WebTLSTests (docs/kiosk.md, "TLS")
  prometheus prometheus-node-exporter  # MetricsTests: promtool, a real scrape of the textfile collector (docs/fleet.md)
  debhelper dpkg-dev fakeroot lintian help2man  # scripts/package.sh: the Debian packages (docs/install.md)
  mmdebstrap systemd-container reprepro gnupg  # scripts/package-check.sh: a clean Debian 12 root; the apt repository
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

sudo=()
if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
if ((${#missing[@]} > 0)); then
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The control-protocol check validates with jsonschema's `referencing` registry (jsonschema 4.18+);
# Debian 12's python3-jsonschema is 4.10, so pip installs a newer one when needed.
if ! python3 -c 'import jsonschema, referencing' 2>/dev/null; then
  echo "setup: installing the Python package jsonschema>=4.18" >&2
  "${sudo[@]}" python3 -m pip install -q --break-system-packages 'jsonschema>=4.18'
fi

# UploadTests run activetask-upload against moto's S3 server and read objects back with boto3
# (docs/upload.md, "Tests"); without moto_server they are skipped with that reason.
if ! command -v moto_server >/dev/null 2>&1 || ! python3 -c 'import boto3' 2>/dev/null; then
  echo "setup: installing the Python packages moto[server] and boto3" >&2
  "${sudo[@]}" python3 -m pip install -q --break-system-packages 'moto[server]' boto3
fi
