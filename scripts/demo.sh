#!/usr/bin/env bash
# Sets up the machine and runs the demo on any Debian 12 machine, no sensors or sound card
# needed: starts activetaskd on a socket of its own with the simulated IMU (sim:walking) and
# sound devices backed by a private PulseAudio null sink, runs the example walk-and-balance task
# (motion in both sections, the room's sound while standing, spoken prompts) through
# `activetaskctl run --auto`, prints where the run directory and the upload archive are, writes
# the run's report, and stops the daemon. Everything goes to demo-output/.
# `--bin-dir DIR` runs the binaries in DIR instead of building the debug ones (scripts/release-check.sh
# runs the demo on the install build that way).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=""
case "${1:-}" in
  --bin-dir) bin=$(cd "${2:?--bin-dir needs a directory}" && pwd) ;;
  "") ;;
  *) echo "demo.sh: unknown argument $1 (only --bin-dir DIR)" >&2; exit 64 ;;
esac
./scripts/setup.sh
if [ -z "$bin" ]; then
  swift build --product activetaskd
  swift build --product activetaskctl
  bin=$(swift build --show-bin-path)
fi
ctl="$bin/activetaskctl"
out="$PWD/demo-output"
rm -rf "$out" && mkdir -p "$out"
export XDG_RUNTIME_DIR="$out/runtime" HOME="$out/runtime" && mkdir -p -m 700 "$XDG_RUNTIME_DIR"

daemon_pid="" pulse_pid=""
cleanup() {
  [ -n "$daemon_pid" ] && kill "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null || true
  [ -n "$pulse_pid" ] && kill "$pulse_pid" 2>/dev/null && wait "$pulse_pid" 2>/dev/null || true
}
trap cleanup EXIT

echo "== The task: examples/WalkAndBalance/WalkAndBalance.json"
"$ctl" validate examples/WalkAndBalance/WalkAndBalance.json
"$ctl" plan examples/WalkAndBalance/WalkAndBalance.json

echo "== Sound devices: a private PulseAudio null sink, paced in real time like a sound card"
pulseaudio -n --daemonize=no --exit-idle-time=-1 --use-pid-file=no \
  --load="module-native-protocol-unix auth-anonymous=1" --load="module-null-sink sink_name=null" \
  >"$out/pulseaudio.log" 2>&1 &
pulse_pid=$!
for _ in $(seq 100); do [ -S "$XDG_RUNTIME_DIR/pulse/native" ] && break; sleep 0.1; done
# The microphone hears the sink (so the recording holds the spoken prompts); the prompts are
# also written to prompts.wav as they play.
cat > "$out/alsa.conf" <<CONF
pcm.demo_sink { type pulse server "unix:$XDG_RUNTIME_DIR/pulse/native" device "null" }
pcm.demo_capture { type pulse server "unix:$XDG_RUNTIME_DIR/pulse/native" device "null.monitor" }
pcm.demo_playback { type file slave.pcm "demo_sink" file "$out/prompts.wav" format "wav" }
CONF
export ALSA_CONFIG_PATH="/usr/share/alsa/alsa.conf:$out/alsa.conf"

echo "== activetaskd on $out/control.sock (sim:walking)"
"$bin/activetaskd" --socket "$out/control.sock" --data-dir "$out/data" --iio-uri sim:walking \
  --capture-device demo_capture --playback-device demo_playback >"$out/activetaskd.log" 2>&1 &
daemon_pid=$!
for _ in $(seq 100); do [ -S "$out/control.sock" ] && break; sleep 0.1; done
"$ctl" --socket "$out/control.sock" status

echo "== Running the task (about 60 s: a 20 s walk, then 20 s standing still)"
"$ctl" --socket "$out/control.sock" run examples/WalkAndBalance/WalkAndBalance.json --auto --json | tee "$out/run.log"
last=$(tail -n 1 "$out/run.log")
run_dir=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["runDirectory"])' "$last")
archive=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["archive"])' "$last")

kill "$daemon_pid" && wait "$daemon_pid" || true
daemon_pid=""

echo "== The run directory: $run_dir"
ls -l "$run_dir"
echo "== The upload archive: $archive"
unzip -l "$archive"
echo "== The run's report"
"$ctl" report "$run_dir"
echo "Play the recording with: play $run_dir/balance_roomSound.wav   and the prompts with: play $out/prompts.wav"
