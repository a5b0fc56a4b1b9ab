#!/usr/bin/env bash
# What `durprobe watch` costs the application it observes: Python's sqlite3 committing one row
# per transaction for SECONDS in DIR, in interleaved rounds of three runs each (alone, under
# `durprobe watch --comm`, under `strace -f -c -e trace=fsync,fdatasync`), printing each run's
# commits per second and, per round, each observer's rate over the run alone; then the medians.
# Usage: scripts/bench-watch.sh [--rounds N] [--seconds S] [--mode DELETE:FULL|WAL:FULL|WAL:NORMAL]
#        [--binary build/durprobe] DIR
# Root (watch loads BPF). The workload's comm is dpbench (a symlink to python3 in DIR).
set -euo pipefail
rounds=5 seconds=5 mode=DELETE:FULL binary=build/durprobe
while [[ $# -gt 1 ]]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --mode) mode=$2; shift 2 ;;
    --binary) binary=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
dir=${1:?usage: scripts/bench-watch.sh [options] DIR}
work=$(mktemp -d "$dir/bench-watch.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The interpreter itself (a version manager's shim named dpbench would not find itself).
ln -s "$(python3 -c 'import os, sys; print(os.path.realpath(sys.executable))')" "$work/dpbench"
cat >"$work/loop.py" <<'PY'
import os, sqlite3, sys, time
path, journal, sync, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
for suffix in ("", "-journal", "-wal", "-shm"):
    try:
        os.unlink(path + suffix)
    except FileNotFoundError:
        pass
db = sqlite3.connect(path, isolation_level=None)
db.execute("PRAGMA journal_mode=" + journal)
db.execute("PRAGMA synchronous=" + sync)
db.execute("CREATE TABLE t(x)")
n, start = 0, time.monotonic()
while time.monotonic() - start < seconds:
    db.execute("INSERT INTO t VALUES (?)", (os.urandom(100),))
    n += 1
print("%.1f" % (n / (time.monotonic() - start)))
PY
journal=${mode%%:*} sync=${mode##*:}
workload() { "$@" "$work/dpbench" "$work/loop.py" "$work/t.db" "$journal" "$sync" "$seconds"; }
alone() { workload; }
watched() {
  "$binary" watch --comm dpbench -q --json "$work/w.json" >/dev/null 2>&1 &
  local w=$!
  sleep 2  # the program loaded and attached
  workload
  kill -INT $w
  wait $w
}
straced() { workload strace -f -c -e trace=fsync,fdatasync -o "$work/strace.txt"; }
printf "%-6s %10s %10s %10s %12s %12s\n" round alone watch strace "watch/alone" "strace/alone"
ratios_w=() ratios_s=()
for ((r = 1; r <= rounds; r++)); do
  # The order turns each round, so no observer always runs first on a cooler disk.
  if ((r % 2)); then a=$(alone) w=$(watched) s=$(straced); else s=$(straced) w=$(watched) a=$(alone); fi
  rw=$(python3 -c "print('%.3f' % ($w / $a))") rs=$(python3 -c "print('%.3f' % ($s / $a))")
  ratios_w+=("$rw") ratios_s+=("$rs")
  printf "%-6s %10s %10s %10s %12s %12s\n" "$r" "$a" "$w" "$s" "$rw" "$rs"
done
python3 - "${ratios_w[*]}" "${ratios_s[*]}" <<'PY'
import statistics, sys
w = [float(x) for x in sys.argv[1].split()]
s = [float(x) for x in sys.argv[2].split()]
print("median watch/alone %.3f (%.3f-%.3f), strace/alone %.3f (%.3f-%.3f)" % (
    statistics.median(w), min(w), max(w), statistics.median(s), min(s), max(s)))
PY
