#!/usr/bin/env bash
# Installs activetask the way a package would (docs/service.md):
#   swift build -c release --static-swift-stdlib && sudo ./scripts/install.sh
# (--static-swift-stdlib links the Swift runtime and Foundation into the binaries: the device
# needs no Swift libraries, and the daemon maps 6 MB less of them; Package.swift links release
# binaries with lld and packed relative relocations, 2.5 MB less again, docs/benchmarks.md.)
# Honours DESTDIR (staging root for packagers) and PREFIX (default /usr/local). Units go to
# $PREFIX/lib/systemd/system (or SYSTEMDUNITDIR), udev rules to $PREFIX/lib/udev/rules.d (or
# UDEVRULESDIR), sysusers/tmpfiles to $PREFIX/lib/{sysusers,tmpfiles}.d, the sample
# configuration to /etc/activetask/activetaskd.json unless one is there already.
# It never runs systemctl; the README says what to enable.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
DESTDIR="${DESTDIR:-}"
PREFIX="${PREFIX:-/usr/local}"
BINDIR="${BINDIR:-$PREFIX/bin}"
SYSTEMDUNITDIR="${SYSTEMDUNITDIR:-$PREFIX/lib/systemd/system}"
UDEVRULESDIR="${UDEVRULESDIR:-$PREFIX/lib/udev/rules.d}"
SYSUSERSDIR="${SYSUSERSDIR:-$PREFIX/lib/sysusers.d}"
TMPFILESDIR="${TMPFILESDIR:-$PREFIX/lib/tmpfiles.d}"
DOCDIR="${DOCDIR:-$PREFIX/share/doc/activetask}"
SYSCONFDIR="${SYSCONFDIR:-/etc}"
BUILDDIR="${BUILDDIR:-$root/.build/release}"

install_file() { # MODE SOURCE DESTINATION
  install -D -m "$1" "$2" "$DESTDIR$3"
  echo "installed $3"
}

built=0
for binary in activetaskd activetaskctl; do
  if [ -x "$BUILDDIR/$binary" ]; then
    install_file 0755 "$BUILDDIR/$binary" "$BINDIR/$binary"
    built=$((built + 1))
  elif [ "$binary" = activetaskd ]; then
    echo "install.sh: $BUILDDIR/activetaskd is not built (run 'swift build -c release --static-swift-stdlib'; if the package has no activetaskd target yet, the units are installed but cannot start it)." >&2
  else
    echo "install.sh: $BUILDDIR/$binary is not built; run 'swift build -c release --static-swift-stdlib' first." >&2
  fi
done

# The units name the daemon by its installed path.
unit="$(mktemp)"
trap 'rm -f "$unit"' EXIT
sed "s|/usr/local/bin/activetaskd|$BINDIR/activetaskd|; s|/usr/local/share/doc/activetask|$DOCDIR|" \
  "$root/systemd/activetaskd.service" > "$unit"
install_file 0644 "$unit" "$SYSTEMDUNITDIR/activetaskd.service"
sed "s|/usr/local/share/doc/activetask|$DOCDIR|" "$root/systemd/activetaskd.socket" > "$unit"
install_file 0644 "$unit" "$SYSTEMDUNITDIR/activetaskd.socket"
install_file 0644 "$root/systemd/activetask.sysusers.conf" "$SYSUSERSDIR/activetask.conf"
install_file 0644 "$root/systemd/activetask.tmpfiles.conf" "$TMPFILESDIR/activetask.conf"
install_file 0644 "$root/udev/70-activetask.rules" "$UDEVRULESDIR/70-activetask.rules"
install_file 0644 "$root/config/activetaskd.json" "$DOCDIR/activetaskd.json.sample"
install_file 0644 "$root/systemd/activetaskd-network.conf.example" "$DOCDIR/activetaskd-network.conf.example"
install_file 0644 "$root/systemd/activetaskd-realtime.conf.example" "$DOCDIR/activetaskd-realtime.conf.example"
install_file 0644 "$root/docs/service.md" "$DOCDIR/service.md"
install_file 0644 "$root/docs/configuration.md" "$DOCDIR/configuration.md"
if [ -e "$DESTDIR$SYSCONFDIR/activetask/activetaskd.json" ]; then
  echo "kept $SYSCONFDIR/activetask/activetaskd.json (the sample is in $DOCDIR)"
else
  install_file 0644 "$root/config/activetaskd.json" "$SYSCONFDIR/activetask/activetaskd.json"
fi

# The kiosk UI (docs/kiosk.md): activetask-web, its UI files where it finds them
# ($PREFIX/share/activetask/web, beside ../bin), its unit, the example kiosk unit and the
# reverse proxy's configurations.
if [ -x "$BUILDDIR/activetask-web" ]; then
  install_file 0755 "$BUILDDIR/activetask-web" "$BINDIR/activetask-web"
  (cd "$BUILDDIR/ActiveTask_WebRelay.resources/Assets" && find . -type f) | while read -r asset; do
    install_file 0644 "$BUILDDIR/ActiveTask_WebRelay.resources/Assets/$asset" "$PREFIX/share/activetask/web/${asset#./}"
  done
  sed "s|/usr/local/bin/activetask-web|$BINDIR/activetask-web|; s|/usr/local/share/doc/activetask|$DOCDIR|" \
    "$root/systemd/activetask-web.service" > "$unit"
  install_file 0644 "$unit" "$SYSTEMDUNITDIR/activetask-web.service"
  install_file 0644 "$root/systemd/activetask-kiosk.service.example" "$SYSTEMDUNITDIR/activetask-kiosk.service.example"
  install_file 0644 "$root/docs/kiosk.md" "$DOCDIR/kiosk.md"
  # The TLS reverse proxy's configurations (docs/kiosk.md, "TLS").
  install_file 0644 "$root/config/kiosk-caddy/Caddyfile" "$DOCDIR/kiosk-caddy/Caddyfile"
  install_file 0644 "$root/config/kiosk-nginx.conf" "$DOCDIR/kiosk-nginx.conf"
fi

# The uploader (docs/upload.md): activetask-upload, its unit and an example configuration. Its
# tmpfiles entry creates the outbox, and the outbox existing is what turns uploads on in the
# daemon (retention then keeps every run until its receipt), so it goes to the docs as an
# example that the administrator installs on purpose, like the configuration.
if [ -x "$BUILDDIR/activetask-upload" ]; then
  install_file 0755 "$BUILDDIR/activetask-upload" "$BINDIR/activetask-upload"
  sed "s|/usr/local/bin/activetask-upload|$BINDIR/activetask-upload|; s|/usr/local/share/doc/activetask|$DOCDIR|" \
    "$root/systemd/activetask-upload.service" > "$unit"
  install_file 0644 "$unit" "$SYSTEMDUNITDIR/activetask-upload.service"
  install_file 0644 "$root/systemd/activetask-upload.tmpfiles.conf" "$DOCDIR/activetask-upload.tmpfiles.conf"
  install_file 0644 "$root/config/upload.json.example" "$DOCDIR/upload.json.example"
  install_file 0644 "$root/docs/upload.md" "$DOCDIR/upload.md"
fi

if [ -z "$DESTDIR" ]; then
  cat <<MSG
Next (as root): systemd-sysusers; systemd-tmpfiles --create; udevadm control --reload;
systemctl daemon-reload; systemctl enable --now activetaskd.socket
and add the front end's user to the group activetask-ui (README: Installing on a tablet).
Uploads stay off until you set them up: docs/upload.md, "Running it".
MSG
fi
