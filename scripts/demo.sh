#!/usr/bin/env bash
# Sets up the machine and runs the demo on any Debian 12 machine, no sensors or sound card
# needed: plans the example walk-and-balance task, records its motion from the simulated IMU
# (raw sensors plus fused device motion), records audio with levels from an ALSA `file` PCM, and
# speaks a prompt with espeak-ng into another `file` PCM. Output goes to demo-output/.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
swift build --product activetaskctl
ctl=.build/debug/activetaskctl
out=demo-output
rm -rf "$out" && mkdir -p "$out"
export XDG_RUNTIME_DIR="$PWD/$out/runtime" && mkdir -p -m 700 "$XDG_RUNTIME_DIR"

echo "== The task: examples/WalkAndBalance/WalkAndBalance.json"
"$ctl" validate examples/WalkAndBalance/WalkAndBalance.json
"$ctl" plan examples/WalkAndBalance/WalkAndBalance.json

echo "== Motion: 3 s of simulated walking, accelerometer + gyro + device motion"
"$ctl" sensors --iio-uri sim:walking
"$ctl" record --iio-uri sim:walking --frequency 100 --duration 3 --step-path WalkAndBalance/walk/motion \
  --types accelerometer,gyro,gravity,userAcceleration,attitude,rotationRate --output "$out/walk_motion.json"

echo "== Audio: 3 s from an ALSA file PCM (a 440 Hz tone), WAV + one-second levels"
sox -q -n -r 16000 -c 1 -b 16 -e signed-integer -t raw "$out/tone.raw" synth 5 sine 440 vol 0.25
cat > "$out/alsa.conf" <<CONF
pcm.demo_capture { type file slave.pcm "null" file "/dev/null" infile "$PWD/$out/tone.raw" format "raw" }
pcm.demo_playback { type file slave.pcm "null" file "$PWD/$out/prompt.wav" format "wav" }
CONF
export ALSA_CONFIG_PATH="/usr/share/alsa/alsa.conf:$PWD/$out/alsa.conf"
"$ctl" record-audio --capture-device demo_capture --duration 3 --output "$out/audio.wav"

echo "== Voice: a spoken instruction, synthesised and played into $out/prompt.wav"
"$ctl" say "Walk for 30 seconds." --playback-device demo_playback

echo "== Files written to $out/"
ls -l "$out" | grep -v -e tone.raw -e alsa.conf -e runtime
