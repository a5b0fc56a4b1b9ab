#!/usr/bin/env bash
# The decision campaign (docs/accuracy.md, "Decided, or cannot tell"): the diagnosis commands as
# the docs show them, each run ROUNDS times on the lab mounts without a neighbour and ROUNDS times
# with one (fio writing 4 KiB with an fsync after each, at about half the device's own rate, on
# the same disk), every answer judged right, "cannot tell", or wrong by
# scripts/decision_campaign.py from the JSON each run wrote. Root (the lab's mounts).
# Usage: scripts/decision-campaign.sh [ROUNDS] [WORKDIR]   (default 5, /var/tmp/durprobe-campaign)
# Needs build/durprobe, build/tests/durprobe_test_passthrough and fio. Prints one line per run and
# the tally; the JSON stays in WORKDIR/runs.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-5}
work=${2:-/var/tmp/durprobe-campaign}
dp=$src/build/durprobe
server=$src/build/tests/durprobe_test_passthrough
[ "$(id -u)" = 0 ] || { echo "decision-campaign: needs root (the lab's mounts)" >&2; exit 2; }
for tool in "$dp" "$server"; do
  [ -x "$tool" ] || { echo "decision-campaign: no $tool (scripts/build.sh)" >&2; exit 2; }
done
command -v fio >/dev/null || { echo "decision-campaign: fio is not installed" >&2; exit 2; }
lab=$work/lab
mkdir -p "$work/runs" "$lab" "$work/drop-src" "$work/drop" "$work/neighbour"
neighbour_pid=
cleanup() {
  [ -n "$neighbour_pid" ] && kill "$neighbour_pid" 2>/dev/null && wait "$neighbour_pid" 2>/dev/null
  umount "$work/drop" 2>/dev/null || true
  bash "$src/scripts/lab-mounts.sh" down "$lab" >/dev/null 2>&1 || true
}
trap cleanup EXIT
bash "$src/scripts/lab-mounts.sh" up "$lab" >/dev/null 2>&1 || true
# A FUSE server that answers every sync at once and writes slowly (1 ms a write, where the test
# server takes --write-delay-us), so a quick budget meets slow plain writes.
delay=()
if "$server" --help 2>&1 | grep -q -- --write-delay-us; then delay=(--write-delay-us 1000); fi
"$server" --ignore-syncs "${delay[@]}" "$work/drop-src" "$work/drop"
for _ in $(seq 50); do mountpoint -q "$work/drop" && break; sleep 0.1; done

# The device's own rate of 4 KiB writes each followed by an fsync, measured for 5 s.
rate=$(fio --name=rate --directory="$work/neighbour" --rw=randwrite --bs=4k --size=64m \
  --fsync=1 --time_based --runtime=5 --output-format=json 2>/dev/null |
  python3 -c 'import json,sys; print(int(json.load(sys.stdin)["jobs"][0]["write"]["iops"]))')
half=$((rate / 2 > 0 ? rate / 2 : 1))
echo "decision-campaign: the device takes $rate fsynced 4 KiB writes/s; the neighbour runs at $half"

run_round() {  # run_round CONDITION N
  local c=$1 n=$2 d=$work/runs/$1-$2
  mkdir -p "$d"
  "$dp" compare --quick --no-sqlite --json "$d/compare3.json" \
    "$lab/ext4" "$lab/bind" "$lab/overlay" >/dev/null 2>&1 || true
  "$dp" run --quick --json "$d/ext4.json" "$lab/ext4" >/dev/null 2>&1 || true
  "$dp" run --quick --json "$d/bindfs.json" "$lab/bindfs" >/dev/null 2>&1 || true
  "$dp" diff --json "$d/diff.json" "$d/ext4.json" "$d/bindfs.json" >/dev/null 2>&1 || true
  "$dp" check --preset etcd --quick --json "$d/check.json" "$lab/ext4" >/dev/null 2>&1 || true
  "$dp" compare --quick --json "$d/tmpfs.json" /var/tmp /dev/shm >/dev/null 2>&1 || true
  "$dp" compare --quick --json "$d/bindfs-compare.json" "$lab/ext4" "$lab/bindfs" \
    >/dev/null 2>&1 || true
  "$dp" probe --quick --json "$d/drop.json" "$work/drop" >/dev/null 2>&1 || true
}

for n in $(seq "$rounds"); do run_round quiet "$n"; done
fio --name=neighbour --directory="$work/neighbour" --rw=randwrite --bs=4k --size=64m --fsync=1 \
  --time_based --runtime=86400 --rate_iops="$half" >/dev/null 2>&1 &
neighbour_pid=$!
for n in $(seq "$rounds"); do run_round neighbour "$n"; done
kill "$neighbour_pid" 2>/dev/null || true
wait "$neighbour_pid" 2>/dev/null || true
neighbour_pid=
python3 "$src/scripts/decision_campaign.py" "$work/runs"
