#!/usr/bin/env bash
# Commit rate of durprobe's SQLite workload against the sqlite3 command-line shell on the same
# path: single-row autocommit INSERTs of a 100-byte blob, per journal_mode/synchronous pair.
# The shell's rate is (N2 - N1) / (t2 - t1) over two runs of N1 and N2 inserts, so process start
# and schema setup cancel out; durprobe runs N2 - N1 timed commits.
# Short rounds alternate the clients (shell, durprobe, then durprobe, shell: the order flips each
# round) so a device that changes state hits both alike; each round gives one paired ratio
# durprobe / shell, and the table shows their median and min-max over the rounds.
# Usage: scripts/sqlite-vs-shell.sh [--rounds N] [--drain SECS] [--durprobe BIN] [-v] DIR
#   --rounds N       alternating rounds per configuration (default 5)
#   --drain SECS     before every client run, SECS of fdatasync so a disk with a burst allowance
#                    is in the same state for each (default 1; 0 skips)
#   --durprobe BIN   the durprobe binary (default build/durprobe)
#   -v, --verbose    also print every round's ratios
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: $0 [--rounds N] [--drain SECS] [--durprobe BIN] [-v] DIR"
rounds=5 drain_secs=1 bin=$src/build/durprobe verbose=
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --drain) drain_secs=$2; shift 2 ;;
    --durprobe) bin=$2; shift 2 ;;
    -v|--verbose) verbose=1; shift ;;
    -*) echo "$usage" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] || { echo "$usage" >&2; exit 2; }
dir=$1
[ -d "$dir" ] || { echo "sqlite-vs-shell: '$dir' is not a directory" >&2; exit 2; }
for tool in sqlite3 python3; do
  command -v "$tool" >/dev/null ||
    { echo "sqlite-vs-shell: $tool not found (scripts/deps.sh test installs it)" >&2; exit 2; }
done
[ -x "$bin" ] ||
  { echo "sqlite-vs-shell: no durprobe binary at $bin (scripts/build.sh)" >&2; exit 2; }
work=$(mktemp -d "$dir/.sqlite-vs-shell.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Inserts N rows, one autocommit statement each, as an application using the shell would;
# prints the seconds it took.
shell_seconds() {  # journal sync n
  local db="$work/shell.db" sql="$work/shell.sql"
  rm -f "$db" "$db-journal" "$db-wal" "$db-shm"
  {
    echo "PRAGMA journal_mode=$1; PRAGMA synchronous=$2;"
    echo "CREATE TABLE events(id INTEGER PRIMARY KEY, payload BLOB NOT NULL);"
    for ((i = 1; i <= $3; i++)); do
      echo "INSERT INTO events(id, payload) VALUES ($i, randomblob(100));"
    done
  } > "$sql"
  local t0 t1
  t0=$(date +%s%N)
  sqlite3 "$db" < "$sql" > /dev/null
  t1=$(date +%s%N)
  echo $(((t1 - t0) / 1000))e-6
}

# Rate-limited virtual disks (token buckets) run fast until a burst allowance is spent, so a
# client's rate depends on what ran just before it: every run starts after the same drain.
drain() {
  if [ "$drain_secs" != 0 ]; then
    "$bin" probe "$work" --budget "${drain_secs}s" --primitives fdatasync --patterns overwrite \
      --quiet
  fi
}

ours() {  # journal sync statement commits -> commits/s
  drain
  "$bin" sqlite "$work" --journal-modes "$1" --synchronous "$2" --statement "$3" --commits "$4" \
    --repetitions 1 --no-probes --quiet --json - |
    python3 -c 'import json, sys
print(json.load(sys.stdin)["targets"][0]["sqlite"][0]["commits_per_sec"])'
}

shell_rate() {  # journal sync n1 n2 -> commits/s
  local a b
  drain; a=$(shell_seconds "$1" "$2" "$3")
  drain; b=$(shell_seconds "$1" "$2" "$4")
  python3 -c "print(($4 - $3) / ($b - $a))"
}

# median [min-max] of the numbers on stdin
spread() {
  python3 -c 'import sys, statistics as s
v = sorted(float(x) for x in sys.stdin.read().split())
print(f"{s.median(v):.2f} [{v[0]:.2f}-{v[-1]:.2f}]")'
}

printf '%-8s %-7s %6s %-22s %-22s\n' journal sync rounds "reused/shell" "per_row/shell"
for cfg in "DELETE FULL 40 200" "DELETE NORMAL 40 200" "TRUNCATE FULL 40 200" "WAL FULL 100 600"; do
  set -- $cfg
  : > "$work/reused"; : > "$work/per_row"
  for ((r = 0; r < rounds; r++)); do
    if ((r % 2 == 0)); then
      shell=$(shell_rate "$1" "$2" "$3" "$4")
      reused=$(ours "$1" "$2" reused $(($4 - $3)))
      per_row=$(ours "$1" "$2" per_row $(($4 - $3)))
    else
      per_row=$(ours "$1" "$2" per_row $(($4 - $3)))
      reused=$(ours "$1" "$2" reused $(($4 - $3)))
      shell=$(shell_rate "$1" "$2" "$3" "$4")
    fi
    python3 -c "print($reused / $shell)" >> "$work/reused"
    python3 -c "print($per_row / $shell)" >> "$work/per_row"
  done
  printf '%-8s %-7s %6d %-22s %-22s\n' "$1" "$2" "$rounds" "$(spread < "$work/reused")" \
    "$(spread < "$work/per_row")"
  if [ -n "$verbose" ]; then
    printf '  rounds: reused/shell %s| per_row/shell %s\n' \
      "$(xargs printf '%.2f ' < "$work/reused")" "$(xargs printf '%.2f ' < "$work/per_row")"
  fi
done
echo "ratio = durprobe commits/s / sqlite3 shell commits/s in the same round; median [min-max]"
