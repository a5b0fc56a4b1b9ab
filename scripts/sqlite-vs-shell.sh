#!/usr/bin/env bash
# Commit rate of durprobe's SQLite workload against the sqlite3 command-line shell on the same
# path: single-row autocommit INSERTs of a 100-byte blob, per journal_mode/synchronous pair.
# The shell's rate is (N2 - N1) / (t2 - t1) over two runs of N1 and N2 inserts, so process start
# and schema setup cancel out. Median of 3 for each side.
# Usage: scripts/sqlite-vs-shell.sh DIR [durprobe binary]   (needs sqlite3, python3)
set -euo pipefail
dir=${1:?usage: $0 DIR [durprobe]}
bin=${2:-$(dirname "$0")/../build/durprobe}
work=$(mktemp -d "$dir/.sqlite-vs-shell.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Inserts N rows, one autocommit statement each, as an application using the shell would.
shell_seconds() {  # journal sync n
  local db="$work/shell.db" sql="$work/shell.sql"
  rm -f "$db" "$db-journal" "$db-wal" "$db-shm"
  {
    echo "PRAGMA journal_mode=$1; PRAGMA synchronous=$2;"
    echo "CREATE TABLE events(id INTEGER PRIMARY KEY, payload BLOB NOT NULL);"
    for ((i = 1; i <= $3; i++)); do echo "INSERT INTO events(id, payload) VALUES ($i, randomblob(100));"; done
  } > "$sql"
  local t0 t1
  t0=$(date +%s%N)
  sqlite3 "$db" < "$sql" > /dev/null
  t1=$(date +%s%N)
  echo "scale=6; ($t1 - $t0) / 1000000000" | bc
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# Rate-limited virtual disks (token buckets) run fast until a burst allowance is spent, so a
# client's rate depends on what ran just before it. drain spends the allowance before every
# measurement, so each client starts in the same, steady state. DRAIN=0 skips it.
drain() {
  if [ "${DRAIN:-1}" = 1 ]; then
    "$bin" probe "$work" --budget "${DRAIN_TIME:-1s}" --primitives fdatasync --patterns overwrite --quiet
  fi
}

ours() {  # journal sync statement commits
  drain
  "$bin" sqlite "$work" --journal-modes "$1" --synchronous "$2" --statement "$3" --commits "$4" \
    --repetitions 1 --no-probes --quiet --json - |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["targets"][0]["sqlite"][0]["commits_per_sec"])'
}

rounds=${ROUNDS:-5}
printf '%-8s %-7s %16s %16s %14s %9s\n' journal sync durprobe_reused durprobe_per_row sqlite3_shell per_row/shell
for cfg in "DELETE FULL 40 200" "DELETE NORMAL 40 200" "TRUNCATE FULL 40 200" "WAL FULL 100 600"; do
  set -- $cfg
  : > "$work/reused"; : > "$work/per_row"; : > "$work/shell"
  # Rounds interleave the clients so a change in the device hits them alike, and alternate
  # which goes first (ABBA), since whoever follows an idle moment can ride a burst allowance.
  for ((r = 0; r < rounds; r++)); do
    if ((r % 2)); then
      drain; a=$(shell_seconds "$1" "$2" "$3")
      drain; b=$(shell_seconds "$1" "$2" "$4")
    fi
    ours "$1" "$2" reused $(($4 - $3)) >> "$work/reused"
    ours "$1" "$2" per_row $(($4 - $3)) >> "$work/per_row"
    if ((r % 2 == 0)); then
      drain; a=$(shell_seconds "$1" "$2" "$3")
      drain; b=$(shell_seconds "$1" "$2" "$4")
    fi
    echo "scale=3; ($4 - $3) / ($b - $a)" | bc >> "$work/shell"
  done
  reused=$(median < "$work/reused"); per_row=$(median < "$work/per_row"); shell=$(median < "$work/shell")
  diff=$(python3 -c "print(f'{($per_row / $shell - 1) * 100:+.1f}%')")
  printf '%-8s %-7s %16.1f %16.1f %14.1f %9s\n' "$1" "$2" "$reused" "$per_row" "$shell" "$diff"
  if [ -n "${VERBOSE:-}" ]; then echo "  rounds: reused $(tr '\n' ' ' < "$work/reused")| per_row $(tr '\n' ' ' < "$work/per_row")| shell $(tr '\n' ' ' < "$work/shell")"; fi
done
