#!/usr/bin/env bash
# Sets up the machine and runs the demo on any Debian 12 machine, no sensors or sound card
# needed: starts activetaskd on a socket of its own with the simulated IMU (sim:walking) and
# sound devices backed by a private PulseAudio null sink, runs the example walk-and-balance task
# (motion in both sections, the room's sound while standing, spoken prompts) through
# `activetaskctl run --auto`, prints where the run directory and the upload archive are, writes
# the run's report, and stops the daemon. Everything goes to demo-output/.
# The microphone hears a simulated room (generated pink noise played into the sink it records
# from) and the sink is settled before the daemon starts, as a sound card would be; the demo
# ends with the run's own quality verdict (qc.json, docs/quality.md) and exits 1 unless it is ok.
# `--bin-dir DIR` runs the binaries in DIR instead of building the debug ones (scripts/release-check.sh
# runs the demo on the install build that way).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=""
case "${1:-}" in
  --bin-dir) bin=$(cd "${2:?--bin-dir needs a directory}" && pwd) ;;
  -h|--help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    echo "Usage: scripts/demo.sh [--bin-dir DIR]   (exit status 0 only when the run's verdict is ok)"
    exit 0 ;;
  "") ;;
  *) echo "demo.sh: unknown argument $1 (only --bin-dir DIR, --help)" >&2; exit 64 ;;
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

daemon_pid="" pulse_pid="" noise_pid="" room_pid=""
cleanup() {
  [ -n "$daemon_pid" ] && kill "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null || true
  [ -n "$room_pid" ] && kill "$room_pid" 2>/dev/null && wait "$room_pid" 2>/dev/null || true
  # SIGKILL: sox stopped by SIGTERM can stay blocked writing a FIFO nobody reads.
  [ -n "$noise_pid" ] && kill -KILL "$noise_pid" 2>/dev/null && wait "$noise_pid" 2>/dev/null || true
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
for _ in $(seq 300); do pactl info >/dev/null 2>&1 && break; sleep 0.1; done

echo "== The room: pink noise (about -40 dBFS) played into the sink the microphone hears"
# A quiet room is not digital silence: the quality check counts a level at or below -70 dBFS as
# a dead microphone (docs/quality.md). sox generates the noise into a FIFO, pacat plays it.
mkfifo "$out/room.fifo"
sox -q -n -r 48000 -c 1 -b 16 -e signed-integer -t raw "$out/room.fifo" synth 3600 pinknoise vol 0.03 &
noise_pid=$!
pacat --playback --device=null --rate=48000 --channels=1 --format=s16le --latency-msec=20 \
  --client-name=demo-room --stream-name=room "$out/room.fifo" &
room_pid=$!
# A fresh null sink renders its first block at 2 s of configured latency: whatever is played in
# the server's first seconds is heard up to 2 s late (docs/benchmarks.md, "Voice prompt onsets").
# The room stream lowers it; wait until the sink reports under 100 ms, as a sound card that has
# been running would.
settled=""
for _ in $(seq 100); do
  sleep 0.1
  latency=$(pactl list sinks 2>/dev/null | sed -n 's/^[[:space:]]*Latency: \([0-9]*\) usec.*/\1/p' | head -n 1)
  if [ -n "$latency" ] && [ "$latency" -lt 100000 ]; then settled=yes; break; fi
done
[ -n "$settled" ] || { echo "demo.sh: the PulseAudio null sink did not settle below 100 ms of latency (last: ${latency:-unknown} usec); see $out/pulseaudio.log" >&2; exit 1; }
sleep 0.5
# The microphone hears the sink (the room and the spoken prompts); the prompts are also written
# to prompts.wav as they play.
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

# The run's own verdict (qc.json): the demo passes only when its checks say ok.
verdict=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$run_dir/qc.json" 2>/dev/null || echo "missing")
if [ "$verdict" = ok ]; then
  echo "== The run's quality verdict: ok"
else
  {
    echo "######################################################################"
    echo "## demo.sh FAILED: the run's quality verdict is '$verdict', not ok."
    echo "## The checks that were not ok:"
    python3 - "$run_dir/qc.json" <<'PY' || echo "##   (no readable $run_dir/qc.json)"
import json, sys
for check in json.load(open(sys.argv[1]))["checks"]:
    if check["verdict"] != "ok":
        print(f"##   {check['identifier']}/{check['check']}: {check['verdict']}: {check['message']}")
PY
    echo "## The daemon's log: $out/activetaskd.log"
    echo "######################################################################"
  } >&2
  exit 1
fi
