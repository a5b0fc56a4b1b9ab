#!/usr/bin/env bash
# The powercut writer's synced record rate against the plain probe's synced write rate on the
# same path, same primitive, 4 KiB (docs/powercut.md "What it costs"), interleaved ROUNDS times.
# The witness runs on loopback with its log on /dev/shm, standing in for a second host whose
# disk is not the one measured.
# Usage: scripts/powercut-vs-probe.sh DIR [ROUNDS] [PRIMITIVE] [SECONDS]
set -euo pipefail
dir=${1:?usage: powercut-vs-probe.sh DIR [ROUNDS] [PRIMITIVE] [SECONDS]}
rounds=${2:-5}
primitive=${3:-fdatasync}
seconds=${4:-5}
bin=$(dirname "$0")/../build/durprobe
log=$(mktemp /dev/shm/durprobe-witness-XXXXXX)
port=$((20000 + $$ % 10000))
"$bin" powercut witness --listen 127.0.0.1:$port --log "$log" --for 3600s 2>/dev/null &
witness=$!
cleanup() {
  kill "$witness" 2>/dev/null || true
  wait "$witness" 2>/dev/null || true
  rm -f "$log"
  rm -rf "$dir"/.durprobe-powercut-*
}
trap cleanup EXIT
sleep 0.5
ratios=()
for i in $(seq "$rounds"); do
  rm -rf "$dir"/.durprobe-powercut-*
  w=$("$bin" powercut write "$dir" --witness 127.0.0.1:$port --primitive "$primitive" \
        --for "$seconds"s --file-size 512MiB 2>&1 |
      sed -n 's/.*; \([0-9]*\) synced records\/s$/\1/p')
  p=$("$bin" probe "$dir" --primitives "$primitive" --patterns overwrite --sizes 4k \
        --budget "$seconds"s --json - 2>/dev/null |
      python3 -c 'import json,sys
print(round(json.load(sys.stdin)["targets"][0]["probes"][0]["ops_per_sec"]))')
  python3 -c "print(f'round $i: writer $w records/s, probe $p writes/s, ratio {$w/$p:.2f}')"
  ratios+=("$w/$p")
done
python3 -c "
import statistics
r = [eval(x) for x in '${ratios[*]}'.split()]
print(f'median ratio {statistics.median(r):.2f} over {len(r)} rounds '
      f'(min {min(r):.2f}, max {max(r):.2f})')"
