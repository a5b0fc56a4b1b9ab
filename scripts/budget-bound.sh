#!/usr/bin/env bash
# How far past its budget each measuring command runs, with every sync in its scratch held a
# fixed time by the fault preload (tests/faultlib), and on the disk as it is: one line per
# command with the budget, the wall time, the overrun and whether the report says the budget
# ran out (budget_spent). docs/start.md quotes its figures.
# Usage: scripts/budget-bound.sh [--delay-ms N] [DIR]   (default 200 ms, a scratch under /var/tmp)
# Needs build/durprobe and build/tests/libdurprobe_faultlib.so (scripts/build.sh).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
delay=200
while [ $# -gt 0 ]; do
  case "$1" in
    --delay-ms) delay=$2; shift 2 ;;
    -*) echo "usage: $0 [--delay-ms N] [DIR]" >&2; exit 2 ;;
    *) break ;;
  esac
done
bin=$src/build/durprobe lib=$src/build/tests/libdurprobe_faultlib.so
for f in "$bin" "$lib"; do
  [ -e "$f" ] || { echo "budget-bound: $f is missing (scripts/build.sh)" >&2; exit 2; }
done
dir=${1:-} own=
if [ -z "$dir" ]; then dir=$(mktemp -d /var/tmp/durprobe-budget-XXXXXX) own=1; fi
out=$(mktemp -d)
trap 'rm -rf "$out"; if [ -n "$own" ]; then rm -rf "$dir"; fi' EXIT

# command|budget in seconds (the --quick defaults, docs/start.md)
cases=("run --quick|5" "probe --quick|5" "sqlite --quick|10" "sqlite --quick --workloads all|10"
  "compare --quick $dir|10" "check --preset etcd --quick|3.5"
  "check --preset postgres-wal --quick|3.5")
printf '%-38s %8s %8s %8s %8s  %s\n' command syncs budget wall overrun report
for c in "${cases[@]}"; do
  cmd=${c%|*} budget=${c#*|}
  for mode in held plain; do
    pre=()
    if [ $mode = held ]; then
      pre=(env "LD_PRELOAD=$lib" "DURPROBE_FAULT_PATH=*/.durprobe-scratch-*/*"
        "DURPROBE_FAULT_DELAY_MS=$delay")
    fi
    start=$(date +%s.%N)
    # shellcheck disable=SC2086  # cmd is a list of words
    "${pre[@]}" "$bin" $cmd --quiet --json "$out/r.json" "$dir" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    spent=$(grep -c '"budget_spent"' "$out/r.json" 2>/dev/null || true)
    label=$([ $mode = held ] && echo "${delay} ms" || echo "as is")
    awk -v c="${cmd//$dir/DIR} DIR" -v m="$label" -v b="$budget" -v s="$start" -v e="$end" \
      -v r="$([ "${spent:-0}" -gt 0 ] && echo budget_spent || echo complete)" \
      'BEGIN { w = e - s; printf "%-38s %8s %7.1fs %7.1fs %+7.1fs  %s\n", c, m, b, w, w - b, r }'
  done
done
