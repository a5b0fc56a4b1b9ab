#!/usr/bin/env bash
# What counting the device flushes costs a probe: the same probe run with the counters and with
# --no-flush-count, alternated in one run (ABBA, so a disk that changes state meets both alike),
# one line per pair with each side's p50 and p99 of write + sync and its operations, then the
# median of the pairs' ratios (counted / uncounted). docs/durability.md quotes its figures.
# Usage: scripts/bench-flush-count.sh [--rounds N] [--budget DUR] [--primitive P] [DIR]
#   (default 10 rounds of 3s, fdatasync, a scratch under /var/tmp). Needs build/durprobe.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
rounds=10 budget=3s primitive=fdatasync
usage() { echo "usage: $0 [--rounds N] [--budget DUR] [--primitive P] [DIR]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=${2:?}; shift 2 ;;
    --budget) budget=${2:?}; shift 2 ;;
    --primitive) primitive=${2:?}; shift 2 ;;
    -*) usage ;;
    *) break ;;
  esac
done
bin=$src/build/durprobe
[ -x "$bin" ] || { echo "bench-flush-count: $bin is missing (scripts/build.sh)" >&2; exit 2; }
dir=${1:-} own=
if [ -z "$dir" ]; then dir=$(mktemp -d /var/tmp/durprobe-flushbench-XXXXXX) own=1; fi
out=$(mktemp -d)
trap 'rm -rf "$out"; if [ -n "$own" ]; then rm -rf "$dir"; fi' EXIT

one() {  # one() NAME [EXTRA...]: a probe's report as $out/NAME.json
  local name=$1; shift
  "$bin" probe "$dir" --primitives "$primitive" --patterns overwrite --budget "$budget" \
    --json "$out/$name.json" "$@" >/dev/null
}
for i in $(seq 1 "$rounds"); do
  if [ $((i % 2)) -eq 1 ]; then
    one "on-$i"; one "off-$i" --no-flush-count
  else
    one "off-$i" --no-flush-count; one "on-$i"
  fi
done
python3 - "$out" "$rounds" "$primitive" <<'PY'
import json, statistics, sys
out, rounds, primitive = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def probe(name):
    t = json.load(open(f"{out}/{name}.json"))["targets"][0]
    p = next(p for p in t["probes"] if p["primitive"] == primitive)
    lat = p["latency_ns"]
    f = p.get("device_flushes", {})
    return lat["p50"], lat["p99"], p["ops"], f.get("per_op")
def us(ns): return "-" if ns is None else f"{ns / 1000:.1f}"
print(f"{'round':>5} {'p50 on':>9} {'p50 off':>9} {'p99 on':>9} {'p99 off':>9} "
      f"{'ops on':>7} {'ops off':>7} {'flush/op':>8}")
r50, r99 = [], []
for i in range(1, rounds + 1):
    a, b = probe(f"on-{i}"), probe(f"off-{i}")
    if a[0] and b[0]: r50.append(a[0] / b[0])
    if a[1] and b[1]: r99.append(a[1] / b[1])
    per_op = "-" if a[3] is None else f"{a[3]:.2f}"
    print(f"{i:>5} {us(a[0]):>9} {us(b[0]):>9} {us(a[1]):>9} {us(b[1]):>9} "
          f"{a[2]:>7} {b[2]:>7} {per_op:>8}")
def summary(name, xs):
    if not xs: return f"{name}: no pairs"
    return (f"{name} counted/uncounted: median {statistics.median(xs):.3f} "
            f"[{min(xs):.3f}-{max(xs):.3f}] over {len(xs)} pairs")
print(summary("p50", r50)); print(summary("p99", r99))
print(f"counted slower in {sum(x > 1 for x in r50)} of {len(r50)} pairs at p50, "
      f"{sum(x > 1 for x in r99)} of {len(r99)} at p99")
PY
