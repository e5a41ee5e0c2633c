#!/bin/sh
# Audio benchmark: CPU of recording and of prompts, allocations per period.
# Needs: libasound2-plugins, pulseaudio, espeak-ng (scripts/setup.sh), a C compiler.
set -eu
cd "$(dirname "$0")/.."
work=$(mktemp -d)
pulse_pid=""
trap 'kill "$pulse_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
swift build -c release --product audio-benchmark 2>&1 | grep -E "error|warning: unre" || true
cc -O2 -shared -fPIC -o "$work/malloc_count.so" scripts/bench/malloc_count.c
# 11 minutes of a 440 Hz half-scale sine, 16 kHz mono S16_LE.
sox -n -r 16000 -c 1 -b 16 -e signed-integer -t raw "$work/in.raw" synth 660 sine 440 vol 0.5
mkdir -p "$work/pulse"
XDG_RUNTIME_DIR="$work/pulse" HOME="$work/pulse" pulseaudio -n --daemonize=no --exit-idle-time=-1 \
  --use-pid-file=no --load="module-native-protocol-unix auth-anonymous=1" \
  --load="module-null-sink sink_name=null" 2>"$work/pulse.log" &
pulse_pid=$!
while [ ! -S "$work/pulse/pulse/native" ]; do sleep 0.1; done
sleep 0.5
cat > "$work/bench.conf" <<CONF
pcm.bench_cap { @args [ FILE ] @args.FILE { type string } type file slave.pcm "null" file "/dev/null" infile \$FILE format "raw" }
pcm.bench_pulse_cap { type pulse server "unix:$work/pulse/pulse/native" device "null.monitor" }
pcm.bench_pulse_play { type pulse server "unix:$work/pulse/pulse/native" device "null" }
CONF
mkdir -p "$work/xdg"
ALSA_CONFIG_PATH="/usr/share/alsa/alsa.conf:$work/bench.conf" XDG_RUNTIME_DIR="$work/xdg" \
  LD_PRELOAD="$work/malloc_count.so" \
  .build/release/audio-benchmark --infile "$work/in.raw" \
    --paced-capture bench_pulse_cap --paced-playback bench_pulse_play
