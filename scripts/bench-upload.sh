#!/usr/bin/env bash
# Upload benchmark (docs/benchmarks.md, "Uploads"): one archive of SIZE_MIB (default 200) MiB of
# random bytes, sent ROUNDS times (default 3) to the same moto S3 server on loopback by
# activetask-upload (release build, already running when the run's outbox entry appears), by
# `aws s3 cp` (awscli) and by rclone, one after another.
# Reports per tool the median wall time, MiB/s, CPU (user + system) per MiB and peak RSS, and
# checks every object against the archive's MD5 with boto3. PARTS_IN_PARALLEL (default 4, the
# uploader's default) sets activetask-upload's partsInParallel.
# Needs moto_server, boto3, awscli, rclone and GNU time (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
size_mib="${SIZE_MIB:-200}"
rounds="${ROUNDS:-3}"
work=$(mktemp -d)
moto_pid=""
uploader_pid=""
cleanup() {
  [ -n "$uploader_pid" ] && kill "$uploader_pid" 2>/dev/null || true
  [ -n "$moto_pid" ] && kill -9 "$moto_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

for tool in moto_server aws rclone /usr/bin/time python3; do
  command -v "$tool" >/dev/null || { echo "bench-upload.sh: $tool is not installed (scripts/setup.sh)." >&2; exit 1; }
done
# Built as scripts/install.sh installs it (README): release, the Swift runtime linked in.
swift build -c release --static-swift-stdlib --product activetask-upload 2>&1 | grep -E "error|warning: unre" || true
uploader="$root/.build/release/activetask-upload"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
INITIAL_NO_AUTH_ACTION_COUNT=4 moto_server -H 127.0.0.1 -p "$port" >"$work/moto.log" 2>&1 &
moto_pid=$!
disown "$moto_pid"  # its SIGKILL at the end is no news
until python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null; do sleep 0.1; done
bucket=bench
keys=$(python3 Tests/UploadTests/Support/moto_s3.py setup --port "$port" --bucket "$bucket")
access=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["accessKeyID"])' "$keys")
secret=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["secretAccessKey"])' "$keys")
endpoint="http://127.0.0.1:$port"

archive="$work/archive.zip"
head -c "$((size_mib << 20))" /dev/urandom >"$archive"
md5=$(md5sum "$archive" | cut -d' ' -f1)
printf '%s\n' "$secret" >"$work/secret"

# check KEY: the object under KEY has the archive's bytes.
check() {
  python3 Tests/UploadTests/Support/moto_s3.py get --port "$port" --bucket "$bucket" --access-key "$access" \
    --secret "$secret" --key "$1" --output "$work/readback" >/dev/null
  [ "$(md5sum "$work/readback" | cut -d' ' -f1)" = "$md5" ] || { echo "bench-upload.sh: $1 differs from the archive" >&2; exit 1; }
  rm -f "$work/readback"
}

# Each line of $work/results: TOOL WALL_SECONDS CPU_SECONDS PEAK_RSS_KB
: >"$work/results"
now() { date +%s.%N; }

for round in $(seq 1 "$rounds"); do
  # activetask-upload as it runs on a device: started with an empty outbox, it settles (and
  # pages its start-up code out when idle, docs/upload.md "Memory"); then the run's outbox entry
  # appears, as the daemon places it (a rename), and it is timed from there to the receipt.
  uuid=$(python3 -c 'import uuid; print(str(uuid.uuid4()).upper())')
  data="$work/data-$round"
  mkdir -p "$data/outbox" "$data/runs/$uuid"
  ln "$archive" "$data/runs/$uuid/$uuid.zip"
  cat >"$work/upload.json" <<JSON
{"study": "bench", "device": "loopback", "pollSeconds": 0.1, "partsInParallel": ${PARTS_IN_PARALLEL:-4},
 "s3": {"endpoint": "$endpoint", "bucket": "$bucket", "region": "us-east-1", "pathStyle": true,
        "accessKeyID": "$access", "secretAccessKeyFile": "$work/secret",
        "keyTemplate": "activetask/{taskRunUUID}.zip"}}
JSON
  /usr/bin/time -f "%U %S %M" -o "$work/time" "$uploader" --config "$work/upload.json" --data-dir "$data" 2>"$work/uploader.log" &
  time_pid=$!
  sleep "${SETTLE_SECONDS:-4}"
  printf '{"taskRunUUID":"%s","taskIdentifier":"Bench","archive":"runs/%s/%s.zip","size":%d,"finishReason":"completed","endDate":"2026-11-26T10:00:00Z"}\n' \
    "$uuid" "$uuid" "$uuid" "$((size_mib << 20))" >"$data/outbox/.$uuid.json.tmp"
  start=$(now)
  mv "$data/outbox/.$uuid.json.tmp" "$data/outbox/$uuid.json"
  until [ -e "$data/uploads/$uuid.uploaded.json" ]; do
    kill -0 "$time_pid" 2>/dev/null || { cat "$work/uploader.log" >&2; exit 1; }
    sleep 0.02
  done
  end=$(now)
  uploader_pid=$(pgrep -P "$time_pid")
  kill "$uploader_pid"
  wait "$time_pid" || true
  uploader_pid=""
  read -r user system rss <"$work/time"
  echo "activetask-upload $(echo "$end - $start" | bc) $(echo "$user + $system" | bc) $rss" >>"$work/results"
  check "activetask/$uuid.zip"

  # awscli, with its defaults (8 MiB parts, 10 requests at once).
  start=$(now)
  AWS_ACCESS_KEY_ID="$access" AWS_SECRET_ACCESS_KEY="$secret" AWS_DEFAULT_REGION=us-east-1 \
    /usr/bin/time -f "%U %S %M" -o "$work/time" aws --endpoint-url "$endpoint" s3 cp --only-show-errors "$archive" "s3://$bucket/aws/$round.zip"
  end=$(now)
  read -r user system rss <"$work/time"
  echo "aws-s3-cp $(echo "$end - $start" | bc) $(echo "$user + $system" | bc) $rss" >>"$work/results"
  check "aws/$round.zip"

  # rclone, with its defaults (5 MiB parts, 4 at once). Its S3 backend refuses to start with
  # AWS_CA_BUNDLE set (it cannot apply it to its own transport); the endpoint is plain HTTP.
  start=$(now)
  /usr/bin/time -f "%U %S %M" -o "$work/time" env -u AWS_CA_BUNDLE rclone copyto --s3-provider Other --s3-endpoint "$endpoint" \
    --s3-access-key-id "$access" --s3-secret-access-key "$secret" --s3-region us-east-1 --s3-force-path-style \
    "$archive" ":s3:$bucket/rclone/$round.zip" 2>"$work/rclone.log" || { cat "$work/rclone.log" >&2; exit 1; }
  end=$(now)
  read -r user system rss <"$work/time"
  echo "rclone $(echo "$end - $start" | bc) $(echo "$user + $system" | bc) $rss" >>"$work/results"
  check "rclone/$round.zip"
done

echo "$size_mib MiB archive, $rounds rounds each, moto on loopback ($(nproc) cores); every object checked by MD5"
python3 - "$work/results" "$size_mib" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    tool, wall, cpu, rss = line.split()
    rows.setdefault(tool, []).append((float(wall), float(cpu), int(rss)))
mib = float(sys.argv[2])
print(f"{'tool':<18} {'wall s (median)':>15} {'MiB/s':>7} {'CPU ms/MiB':>11} {'peak RSS MB':>12}   walls")
for tool, samples in rows.items():
    wall = statistics.median(s[0] for s in samples)
    cpu = statistics.median(s[1] for s in samples)
    rss = max(s[2] for s in samples) / 1024
    walls = " ".join(f"{s[0]:.2f}" for s in samples)
    print(f"{tool:<18} {wall:>15.2f} {mib / wall:>7.1f} {1000 * cpu / mib:>11.2f} {rss:>12.1f}   {walls}")
PY
