#!/usr/bin/env bash
# Commit rate of durprobe's SQLite workload against the sqlite3 command-line shell on the same
# path: single-row autocommit INSERTs of a 100-byte blob, per journal_mode/synchronous pair.
# The shell runs N2 inserts and reads the clock after insert N1 and after insert N2 (SQLite's
# julianday('now'), 1 ms): its rate is (N2 - N1) / (t2 - t1) within one run, so process start,
# setup and the first N1 commits are outside it; durprobe runs N1 untimed (--warmup) and N2 - N1
# timed commits, the same rows of the same run. Python's sqlite3 module (the same libsqlite3 as
# durprobe, one cached prepared INSERT) makes the same inserts as a third client, an application's
# view, timed the same way (time.monotonic after insert N1 and after insert N2).
# Short rounds alternate the clients (shell, durprobe, then durprobe, shell: the order flips each
# round) so a device that changes state hits them alike; each round gives paired ratios
# durprobe / shell and Python / shell, and the table shows their median and min-max over rounds.
# Usage: scripts/sqlite-vs-shell.sh [--rounds N] [--drain SECS] [--durprobe BIN] [--only J/S] [-v]
#        DIR
#   --rounds N       alternating rounds per configuration (default 5)
#   --only J/S       only the configurations whose journal/sync matches, e.g. WAL/FULL (repeatable)
#   --drain SECS     before every client run, SECS of fdatasync so a disk with a burst allowance
#                    is in the same state for each (default 1; 0 skips)
#   --durprobe BIN   the durprobe binary (default build/durprobe)
#   -v, --verbose    also print every round's ratios
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: $0 [--rounds N] [--drain SECS] [--durprobe BIN] [--only J/S] [-v] DIR"
rounds=5 drain_secs=1 bin=$src/build/durprobe verbose= only=
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --drain) drain_secs=$2; shift 2 ;;
    --durprobe) bin=$2; shift 2 ;;
    --only) only="$only ${2^^} "; shift 2 ;;
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

# Rate-limited virtual disks (token buckets) run fast until a burst allowance is spent, so a
# client's rate depends on what ran just before it: every run starts after the same drain.
drain() {
  if [ "$drain_secs" != 0 ]; then
    "$bin" probe "$work" --budget "${drain_secs}s" --primitives fdatasync --patterns overwrite \
      --quiet
  fi
}

ours() {  # journal sync statement commits warmup -> commits/s
  drain
  "$bin" sqlite "$work" --journal-modes "$1" --synchronous "$2" --statement "$3" --commits "$4" \
    --warmup "$5" --repetitions 1 --no-probes --quiet --json - |
    python3 -c 'import json, sys
print(json.load(sys.stdin)["targets"][0]["sqlite"][0]["commits_per_sec"])'
}

# Inserts N2 rows, one autocommit statement each, as an application using the shell would, and
# prints the rate of inserts N1+1..N2, timed by the shell's own clock reads in the same run (two
# runs of N1 and N2 inserts would add the difference of two runs' first N1 commits, process
# starts and drains to the N2 - N1 commits).
shell_rate() {  # journal sync n1 n2 -> commits/s
  # A fresh directory per run, as durprobe's scratch is: ext4 places a new directory in another
  # block group, which moved the shell's rate by about 8% against a long-lived one.
  local sub; sub=$(mktemp -d "$work/shell.XXXXXX")
  local db="$sub/shell.db" sql="$work/shell.sql"
  local now="SELECT printf('%.3f', (julianday('now') - 2440587.5) * 86400.0);"
  {
    echo "PRAGMA journal_mode=$1; PRAGMA synchronous=$2;"
    echo "CREATE TABLE events(id INTEGER PRIMARY KEY, payload BLOB NOT NULL);"
    for ((i = 1; i <= $4; i++)); do
      echo "INSERT INTO events(id, payload) VALUES ($i, randomblob(100));"
      if ((i == $3)); then echo "$now"; fi
    done
    echo "$now"
  } > "$sql"
  drain
  sqlite3 "$db" < "$sql" | tail -n 2 | python3 -c "import sys
t1, t2 = (float(x) for x in sys.stdin.read().split())
print(($4 - $3) / (t2 - t1))"
  rm -rf "$sub"
}

# The same inserts from Python's sqlite3 module (the same libsqlite3 as durprobe, its statement
# cache reusing one prepared INSERT), as an application would make them, timed the same way.
python_rate() {  # journal sync n1 n2 -> commits/s
  local sub; sub=$(mktemp -d "$work/python.XXXXXX")
  drain
  python3 - "$sub/python.db" "$@" <<'PY'
import os, sqlite3, sys, time
db, journal, sync, n1, n2 = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
con = sqlite3.connect(db, isolation_level=None)
con.execute(f"PRAGMA journal_mode={journal}")
con.execute(f"PRAGMA synchronous={sync}")
con.execute("CREATE TABLE events(id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
t1 = None
for i in range(1, n2 + 1):
    con.execute("INSERT INTO events(id, payload) VALUES (?, ?)", (i, os.urandom(100)))
    if i == n1:
        t1 = time.monotonic()
t2 = time.monotonic()
con.close()
print((n2 - n1) / (t2 - t1))
PY
  rm -rf "$sub"
}

# median [min-max] of the numbers on stdin
spread() {
  python3 -c 'import sys, statistics as s
v = sorted(float(x) for x in sys.stdin.read().split())
print(f"{s.median(v):.2f} [{v[0]:.2f}-{v[-1]:.2f}]")'
}

printf '%-8s %-7s %3s %-18s %-18s %-18s %-18s\n' journal sync rnd "reused/shell" "per_row/shell" \
  "python/shell" "reused/python"
for cfg in "DELETE FULL 40 200" "DELETE NORMAL 40 200" "TRUNCATE FULL 40 200" "WAL FULL 100 600"; do
  set -- $cfg
  [ -z "$only" ] || [[ "$only" == *" $1/$2 "* ]] || continue
  : > "$work/reused"; : > "$work/per_row"; : > "$work/python"; : > "$work/vs_python"
  for ((r = 0; r < rounds; r++)); do
    if ((r % 2 == 0)); then
      shell=$(shell_rate "$1" "$2" "$3" "$4")
      python=$(python_rate "$1" "$2" "$3" "$4")
      reused=$(ours "$1" "$2" reused $(($4 - $3)) "$3")
      per_row=$(ours "$1" "$2" per_row $(($4 - $3)) "$3")
    else
      per_row=$(ours "$1" "$2" per_row $(($4 - $3)) "$3")
      reused=$(ours "$1" "$2" reused $(($4 - $3)) "$3")
      python=$(python_rate "$1" "$2" "$3" "$4")
      shell=$(shell_rate "$1" "$2" "$3" "$4")
    fi
    [ -z "$verbose" ] || printf '  round %d: commits/s shell %.0f python %.0f reused %.0f per_row %.0f\n' \
      "$r" "$shell" "$python" "$reused" "$per_row"
    python3 -c "print($reused / $shell)" >> "$work/reused"
    python3 -c "print($per_row / $shell)" >> "$work/per_row"
    python3 -c "print($python / $shell)" >> "$work/python"
    python3 -c "print($reused / $python)" >> "$work/vs_python"
  done
  printf '%-8s %-7s %3d %-18s %-18s %-18s %-18s\n' "$1" "$2" "$rounds" \
    "$(spread < "$work/reused")" "$(spread < "$work/per_row")" "$(spread < "$work/python")" \
    "$(spread < "$work/vs_python")"
  if [ -n "$verbose" ]; then
    printf '  rounds: reused/shell %s| per_row/shell %s| python/shell %s\n' \
      "$(xargs printf '%.2f ' < "$work/reused")" "$(xargs printf '%.2f ' < "$work/per_row")" \
      "$(xargs printf '%.2f ' < "$work/python")"
  fi
done
echo "ratio = commits/s of one client / another's in the same round (python: Python's sqlite3);"
echo "median [min-max] over the rounds"
