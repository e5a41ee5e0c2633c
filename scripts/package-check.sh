#!/usr/bin/env bash
# The Debian packages, installed the way a tablet installs them (docs/install.md, "The package
# check"): builds them from the release build (scripts/package.sh, reusing a current build),
# runs lintian on them (an error fails), then boots a fresh Debian 12 root made by mmdebstrap
# under systemd-nspawn and there: installs them with `apt-get install ./*.deb`, verifies the
# installed units, runs `activetaskd --version` and `activetaskctl validate`, records a run
# through the installed daemon (socket activation, `sim:` motion), upgrades to a package with a
# higher version while a run records and checks that the daemon waits for the run's end and
# then restarts into the new version, and purges, leaving no file the packages installed and
# the recorded runs (unless ACTIVETASK_PURGE_RUNS=yes, checked last).
# Each check ends with one line `release-check: package <what> passed|failed`, as
# scripts/release-check.sh prints (scripts/test.sh counts them).
#
# The root is cached as a tarball in $ACTIVETASK_PACKAGE_CHECK_CACHE (default
# /var/cache/activetask-package-check), keyed by the packages it holds; the first run makes it
# from Debian's archive (about two minutes). Every process it starts ends with it: the
# container is powered off, and killed with its PID namespace if it does not stop.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
cache="${ACTIVETASK_PACKAGE_CHECK_CACHE:-/var/cache/activetask-package-check}"
status=0
started=$SECONDS

report() { # NAME STATUS
  echo "  ($((SECONDS - started)) s)"
  if [ "$2" -eq 0 ]; then echo "release-check: package $1 passed"; else echo "release-check: package $1 failed"; status=1; fi
}
fail() { echo "package-check: $*" >&2; return 1; }

work="$(mktemp -d /var/tmp/activetask-package-check.XXXXXX)"
nspawn_pid=""
init_pid=""
stop_container() {
  [ -n "$nspawn_pid" ] || return 0
  if [ -n "$init_pid" ] && kill -0 "$init_pid" 2>/dev/null; then
    nsenter -t "$init_pid" -a systemctl poweroff >/dev/null 2>&1 || true
  fi
  # Poweroff ends nspawn; if it does not within a minute, kill the container's init, which
  # ends its whole PID namespace, and nspawn with it.
  timeout 60 tail --pid="$nspawn_pid" -f /dev/null || { [ -z "$init_pid" ] || kill -KILL "$init_pid" 2>/dev/null; kill -KILL "$nspawn_pid" 2>/dev/null; }
  wait "$nspawn_pid" 2>/dev/null
  nspawn_pid=""
  init_pid=""
}
cleanup() { stop_container; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- the packages and lintian ------------------------------------------------------------------
version="$(dpkg-parsechangelog -l debian/changelog -S Version)"
upgrade="$version+check1"
# The upgrade is the same build with a higher version: what an upgrade does to a running daemon
# is the maintainer scripts' doing, and a second dpkg-buildpackage would double the time.
repack() { # DEB: the package as version $upgrade, into $work/upgrade
  local unpacked="$work/repack/$(basename "$1" .deb)"
  dpkg-deb -R "$1" "$unpacked" \
    && sed -i "s/^Version: $version\$/Version: $upgrade/; s/(= $version)/(= $upgrade)/g" "$unpacked/DEBIAN/control" \
    && dpkg-deb --root-owner-group -Zgzip -z1 -b "$unpacked" "$work/upgrade/" >/dev/null \
    && rm -rf "$unpacked"
}
built=0
mkdir -p "$work/upgrade" "$work/repack"
scripts/package.sh --output "$work/debs" >"$work/package.log" 2>&1 || built=1
for deb in "$work"/debs/activetask*_"$version"_*.deb; do
  [ "$built" -ne 0 ] || case "$deb" in *-dbgsym_*) ;; *) repack "$deb" || built=1 ;; esac
done
[ "$built" -eq 0 ] || tail -30 "$work/package.log"
report "build ($version, $upgrade)" "$built"
[ "$built" -eq 0 ] || exit 1
for deb in "$work"/debs/*.deb; do echo "  $(basename "$deb"): Installed-Size $(dpkg-deb -f "$deb" Installed-Size) KiB"; done
# What a kiosk tablet installs, all three packages, within 40 MB (docs/install.md, "Size"): the
# bytes of the files they unpack. A size, not a time: the machine's load cannot move it.
installed=0
for deb in "$work"/debs/activetaskd_"$version"_*.deb "$work"/debs/activetask-web_"$version"_*.deb "$work"/debs/activetask-upload_"$version"_*.deb; do
  rm -rf "$work/unpacked" && dpkg-deb -x "$deb" "$work/unpacked" && installed=$((installed + $(du -sb "$work/unpacked" | cut -f1)))
done
rm -rf "$work/unpacked"
echo "  all three packages unpack $installed bytes (at most 40000000)"
[ "$installed" -gt 0 ] && [ "$installed" -le 40000000 ]
report "size" "$?"

lintian --fail-on error --info "$work"/debs/*.deb >"$work/lintian.log" 2>&1
result=$?
sed 's/^/  /' "$work/lintian.log"
report "lintian" "$result"

# --- a fresh Debian 12 root --------------------------------------------------------------------
# Its packages: systemd to boot, and what the packages depend on, so that the install below
# reaches no network. The key names the list, so a new dependency makes a new root.
dependencies=$(for deb in "$work"/debs/activetask*_"$version"_*.deb; do dpkg-deb -f "$deb" Depends; done \
  | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/[[:space:]]//g' | grep -v '^activetask' | grep -v '^$' | sort -u | tr '\n' ',')
include="systemd,systemd-sysv,dbus,${dependencies%,}"
tarball="$cache/bookworm-$(printf '%s' "$include" | sha256sum | cut -c1-16).tar"
if [ ! -s "$tarball" ]; then
  mkdir -p "$cache"
  echo "package-check: making the Debian 12 root (once): mmdebstrap --variant=apt --include=$include"
  mmdebstrap --quiet --variant=apt --format=tar --include="$include" bookworm "$tarball.partial" && mv "$tarball.partial" "$tarball" \
    || { rm -f "$tarball.partial"; report "root" 1; exit 1; }
fi
mkdir "$work/root"
tar -C "$work/root" -xf "$tarball"
mkdir -p "$work/root/debs" "$work/root/upgrade" "$work/root/check"
cp "$work"/debs/*.deb "$work/root/debs/"
cp "$work"/upgrade/*.deb "$work/root/upgrade/"
cp scripts/package-check/PackageCheck.json "$work/root/check/"

systemd-nspawn --quiet --directory="$work/root" --register=no --keep-unit --boot --console=passive \
  --machine=activetask-package-check >"$work/nspawn.log" 2>&1 &
nspawn_pid=$!
# The container's init is nspawn's child; wait for it, then for the boot to finish.
until init_pid=$(pgrep -P "$nspawn_pid" -x systemd); do
  kill -0 "$nspawn_pid" 2>/dev/null || { cat "$work/nspawn.log"; report "boot" 1; exit 1; }
  sleep 0.2
done
# A command in the container; bounded, so that a daemon that never answers fails the check
# instead of hanging it (what is left inside ends with the container).
in_root() { timeout 300 nsenter -t "$init_pid" -a env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 "$@"; }
journal() { in_root journalctl -q --no-pager -n 15 -u "$1" | sed 's/^/    /'; }
until in_root test -S /run/dbus/system_bus_socket 2>/dev/null; do sleep 0.2; done
booted=$(in_root systemctl is-system-running --wait)
echo "  the root booted: $booted"
[ "$booted" = running ] || [ "$booted" = degraded ]
report "boot" $?

# --- install -----------------------------------------------------------------------------------
packages=(activetaskd activetask-web activetask-upload)
debs=()
upgrades=()
for package in "${packages[@]}"; do
  debs+=("/debs/${package}_${version}_$(dpkg --print-architecture).deb")
  upgrades+=("/upgrade/${package}_${upgrade}_$(dpkg --print-architecture).deb")
done
in_root apt-get install -y -q "${debs[@]}" >"$work/install.log" 2>&1
result=$?
[ "$result" -eq 0 ] || tail -30 "$work/install.log"
report "install (apt-get install ./*.deb)" "$result"

units=(activetaskd.service activetaskd.socket activetask-restart-when-idle.service activetask-web.service activetask-upload.service)
in_root systemd-analyze verify "${units[@]/#//lib/systemd/system/}"
report "installed units verify" $?

installed_version=$(in_root /usr/bin/activetaskd --version)
echo "  activetaskd --version: $installed_version"
[ "$installed_version" = "${version%%-*}" ] && in_root /usr/bin/activetaskctl validate /check/PackageCheck.json
report "installed activetaskd --version and activetaskctl validate" $?

# --- a recording through the installed daemon, and an upgrade during the next one -------------
# The daemon records the simulated IMU (a drop-in, as a technician would add with
# `systemctl edit`); the socket activates it on the first connection.
in_root mkdir -p /etc/systemd/system/activetaskd.service.d
printf '[Service]\nExecStart=\nExecStart=/usr/bin/activetaskd --config /etc/activetask/activetaskd.json --iio-uri sim:walking\n' \
  | in_root tee /etc/systemd/system/activetaskd.service.d/sim.conf >/dev/null
in_root systemctl daemon-reload
socket="/proc/$init_pid/root/run/activetask/control.sock"
record() { timeout 120 python3 scripts/package-check/record.py "$socket" "$@"; }
run_is_valid() { # UUID: the run finished completed, its result and motion file parse, its archive is whole
  in_root activetaskctl result "$1" >"$work/result.log" 2>&1 || { cat "$work/result.log"; return 1; }
  local directory
  directory=$(in_root find /var/lib/activetask/runs -maxdepth 2 -type d -name "*$1*" | head -1)
  [ -n "$directory" ] || fail "run $1 has no directory" || return 1
  python3 - "/proc/$init_pid/root$directory" <<'PY'
import json, pathlib, sys, zipfile
run = pathlib.Path(sys.argv[1])
result = json.loads((run / "taskResult.json").read_text())
motion = [p for p in run.rglob("*.json") if "motion" in p.name]
if not motion:
    sys.exit(f"no motion file in {run}")
samples = json.loads(motion[0].read_text())
archives = list(run.rglob("*.zip"))
for archive in archives:
    bad = zipfile.ZipFile(archive).testzip()
    if bad:
        sys.exit(f"{archive}: {bad} is damaged")
print(f"  run {run.name}: taskResult.json, {motion[0].name} ({len(samples)} records), {len(archives)} archive(s) whole")
PY
}

first=$(record start scripts/package-check/PackageCheck.json) && finished=$(record finish) \
  && echo "  $finished" && grep -q '"reason": "completed"' <<<"$finished" && run_is_valid "$first"
result=$?
[ "$result" -eq 0 ] || journal activetaskd.service
report "recording through the installed daemon" "$result"

daemon_pid() { in_root systemctl show -P MainPID activetaskd.service; }
upgraded=1
if second=$(record start scripts/package-check/PackageCheck.json); then
  before=$(daemon_pid)
  in_root apt-get install -y -q "${upgrades[@]}" >"$work/upgrade.log" 2>&1 || tail -30 "$work/upgrade.log"
  # dpkg is done and the new version installed; the run still records in the same daemon.
  during=$(daemon_pid)
  state=$(in_root activetaskctl status | sed -n 's/^state: //p')
  echo "  upgraded to $(in_root dpkg-query -W -f='${Version}' activetaskd) during run $second: daemon $before -> $during, state $state"
  if [ "$(in_root dpkg-query -W -f='${Version}' activetaskd)" = "$upgrade" ] && [ "$during" = "$before" ] && [ "$state" = running ] \
    && finished=$(record finish) \
    && grep -q '"reason": "completed"' <<<"$finished" && run_is_valid "$second"; then
    # Then the waiting restart brings the new version in: wait for it to end, however it ends.
    waited=0
    while [ "$(in_root systemctl show -P ActiveState activetask-restart-when-idle.service)" = activating ] && [ "$waited" -lt 600 ]; do
      sleep 0.5; waited=$((waited + 1))
    done
    after=$(daemon_pid)
    echo "  after the run: daemon $after ($(in_root systemctl show -P ActiveState activetaskd.service))"
    journal activetask-restart-when-idle.service
    if [ "$(in_root systemctl show -P Result activetask-restart-when-idle.service)" = success ] && [ "$after" != "$before" ] \
      && [ "$(in_root activetaskctl status | sed -n 's/^state: //p')" = idle ]; then
      upgraded=0
    else
      journal activetaskd.service
    fi
  fi
fi
report "upgrade during a recording" "$upgraded"

# --- purge -------------------------------------------------------------------------------------
in_root sh -c "dpkg -L ${packages[*]}" | sort -u >"$work/installed.list"
in_root apt-get purge -y -q "${packages[@]}" >"$work/purge.log" 2>&1 || tail -30 "$work/purge.log"
left=$(while read -r path; do
  [ -n "$path" ] && [ "$path" != "/." ] || continue
  if in_root test -e "$path" -o -L "$path"; then
    # Folders other packages own (/usr/bin, /lib/systemd/system …) stay, as they should.
    in_root test -d "$path" && in_root sh -c "dpkg -S '$path' >/dev/null 2>&1" && continue
    echo "$path"
  fi
done <"$work/installed.list")
kept=$(in_root find /var/lib/activetask /etc/activetask /var/lib/activetask-web -mindepth 1 2>/dev/null | grep -v -e '^/var/lib/activetask/runs' -e '^/var/lib/activetask/outbox' || true)
runs=$(in_root find /var/lib/activetask/runs -name taskResult.json 2>/dev/null | wc -l)
echo "  after the purge: $(wc -l <"$work/installed.list") packaged paths checked, left: ${left:-none}; state left: ${kept:-none}; recorded runs kept: $runs"
[ -z "$left" ] && [ -z "$kept" ] && [ "$runs" -eq 2 ]
report "purge" $?

# Asked to, a purge removes the recorded runs too (docs/install.md, "Removing").
in_root apt-get install -y -q "${debs[@]}" >>"$work/install.log" 2>&1 \
  && in_root env ACTIVETASK_PURGE_RUNS=yes apt-get purge -y -q "${packages[@]}" >>"$work/purge.log" 2>&1 \
  && ! in_root test -e /var/lib/activetask
report "purge with ACTIVETASK_PURGE_RUNS=yes" $?

stop_container
echo "package-check: $((SECONDS - started)) s"
exit "$status"
