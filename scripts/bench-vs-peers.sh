#!/usr/bin/env bash
# Runs durprobe and its peers on each PATH in alternating short rounds and prints, per pair, the
# median of the paired ratios durprobe / peer with their min-max over the rounds:
#   fio's etcd recipe (write + fdatasync, 2300 B)  vs durprobe fdatasync preallocated 2300 B
#                                                     (fio's own layout: fallocate, then
#                                                     sequential writes)
#   pg_test_fsync's one-8kB-write tests             vs durprobe fdatasync/fsync/odirect_dsync
#                                                     overwrite 8 KiB, and the cross-descriptor
#                                                     pair
#   a bare C loop timing each pwrite+fdatasync      vs durprobe fdatasync overwrite 4 KiB, same file
#     (scripts/bare_fdatasync.c, timed mode)          size
# With --writers LIST, each round also runs the concurrent syncers against fio, 4 KiB on 1 MiB
# files per writer, at each N of LIST:
#   fio --numjobs=N --fdatasync=1 --thread          vs durprobe --writers N, mode threads
#   fio --numjobs=N --fdatasync=1 (processes)       vs durprobe --writers N, mode processes
#   fio --ioengine=io_uring --fsync=1 --numjobs=N   vs durprobe --writers N, threads,
#     --thread                                        --writers-primitive io_uring_fsync
#   a bare C loop of 8 threads (pwrite+fdatasync,   vs durprobe --writers 8, threads: the
#     scripts/bare_threads_fdatasync.c)               harness's per-operation cost
# (scripts/concurrency_table.py prints those: durprobe/fio per round, fio's own round-to-round
# spread, and the bare loop's per-operation ratio). --concurrency-only skips the serial pairs.
# In each round every pair runs peer then durprobe, or durprobe then peer (the order flips each
# round), so a disk that changes state (a flush of tens of us for a while, of ms later) hits both
# sides of a ratio alike. Absolute figures are left out on purpose: they say more about the disk's
# state at that moment than about either tool.
# Usage: scripts/bench-vs-peers.sh [--rounds N] [--secs N] [--fio-size SIZE] [--file-size SIZE]
#                                  [--drain SECS] [--durprobe BIN] [-v] PATH...
#   --rounds N       alternating rounds (default 5)
#   --secs N         seconds per tool and pair in a round (default 1; pg_test_fsync runs about
#                    15 tests of N seconds each)
#   --fio-size S     cap on fio's file (default 22m, etcd's recipe); fio stops at --secs anyway
#   --file-size S    the bare loop's and durprobe's 4 KiB overwrite file (default 16m)
#   --drain SECS     first sync for SECS on each path, so a disk with a burst allowance (cloud
#                    volumes, throttled virtual disks) starts in its steady state (default 0)
#   --durprobe BIN   the durprobe binary (default build/durprobe)
#   --writers LIST   also the concurrent syncers at these writer counts (e.g. 1,2,4,8,16)
#   --concurrency-only  with --writers: only the concurrent pairs
#   -v, --verbose    also print every round's ratios
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: $0 [--rounds N] [--secs N] [--fio-size SIZE] [--file-size SIZE] [--drain SECS]"
usage+=" [--durprobe BIN] [--writers LIST [--concurrency-only]] [-v] PATH..."
rounds=5 secs=1 fio_size=22m file_size=16m drain=0 bin=$src/build/durprobe verbose=
writers= conc_only=
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --secs) secs=$2; shift 2 ;;
    --fio-size) fio_size=$2; shift 2 ;;
    --file-size) file_size=$2; shift 2 ;;
    --drain) drain=$2; shift 2 ;;
    --durprobe) bin=$2; shift 2 ;;
    --writers) writers=$2; shift 2 ;;
    --concurrency-only) conc_only=1; shift ;;
    -v|--verbose) verbose=1; shift ;;
    -*) echo "$usage" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
for p in "$@"; do
  [ -d "$p" ] || { echo "bench-vs-peers: '$p' is not a directory" >&2; exit 2; }
done
pgtf=$(ls /usr/lib/postgresql/*/bin/pg_test_fsync 2>/dev/null | tail -n 1 || true)
[ -n "$pgtf" ] || { echo "bench-vs-peers: pg_test_fsync not found (scripts/deps.sh test installs" \
  "postgresql)" >&2; exit 2; }
for tool in fio cc python3; do
  command -v "$tool" >/dev/null ||
    { echo "bench-vs-peers: $tool not found (scripts/deps.sh test installs it)" >&2; exit 2; }
done
[ -x "$bin" ] ||
  { echo "bench-vs-peers: no durprobe binary at $bin (scripts/build.sh)" >&2; exit 2; }
bytes=$(python3 -c "import sys; s = sys.argv[1].lower().rstrip('ib')
m = {'k': 1 << 10, 'm': 1 << 20, 'g': 1 << 30}
print(int(float(s[:-1]) * m[s[-1]]) if s[-1] in m else int(s))" "$file_size")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/bare_fdatasync" "$src/scripts/bare_fdatasync.c"
cc -O2 -pthread -o "$work/bare_threads" "$src/scripts/bare_threads_fdatasync.c"
IFS=, read -r -a wlist <<<"${writers:-}"
# durprobe's concurrency cells: every N plus one writer (its scaling base), per mode, and the
# queue-depth run; one probe beside them. Each gets an equal slice: secs each.
ncounts=$(printf '%s\n' 1 "${wlist[@]}" | sort -un | wc -l)
conc_budget=$((secs * (ncounts * 2 + 2))) uring_budget=$((secs * (ncounts + 2)))

conc_fio() {  # round-dir mode N
  local o=$1 mode=$2 n=$3 engine=(--ioengine=sync --fdatasync=1)
  [ "$mode" = processes ] || engine+=(--thread)
  [ "$mode" = io_uring ] && engine=(--ioengine=io_uring --fsync=1 --thread)
  fio --name=w --directory="$scratch" --rw=write --bs=4k --size=1m --overwrite=1 \
      --numjobs="$n" --group_reporting --time_based --runtime="$secs" --output-format=json \
      "${engine[@]}" >"$o/fio-$mode-$n.json" 2>"$o/fio-$mode-$n.err" || true
  rm -f "$scratch"/w.*
}
conc_dp() {  # round-dir
  dp "$1/dp-conc.json" "$conc_budget" --primitives fdatasync --patterns overwrite --sizes 4k \
     --writers "$writers" --writers-modes threads,processes "$path"
  dp "$1/dp-uring.json" "$uring_budget" --primitives fdatasync --patterns overwrite --sizes 4k \
     --writers "$writers" --writers-modes threads --writers-primitive io_uring_fsync "$path"
}
conc_round() {  # round-dir round
  local o=$1 r=$2 n
  if ((r % 2 == 0)); then
    for n in "${wlist[@]}"; do for m in threads processes io_uring; do conc_fio "$o" $m "$n"; done
    done
    "$work/bare_threads" "$scratch" 8 4096 1048576 "$secs" >"$o/bare8.txt"
    conc_dp "$o"
  else
    conc_dp "$o"
    "$work/bare_threads" "$scratch" 8 4096 1048576 "$secs" >"$o/bare8.txt"
    for n in "${wlist[@]}"; do for m in io_uring processes threads; do conc_fio "$o" $m "$n"; done
    done
  fi
}

dp() {  # out-file budget-seconds probe options... PATH
  local out=$1 budget=$2
  shift 2
  "$bin" probe --quiet --ci 0.1 --budget "${budget}s" --json "$out" "$@"
}

for path in "$@"; do
  out="$work/$(echo "$path" | tr / _)"
  scratch="$path/.durprobe-bench-$$"
  mkdir -p "$out" "$scratch"
  echo "== $path: $rounds rounds of fio, pg_test_fsync and the bare loop against durprobe" \
       "(about $((rounds * secs * 28 + drain)) s) =="
  if [ "$drain" -gt 0 ]; then
    fio --name=drain --directory="$scratch" --rw=write --ioengine=sync --fdatasync=1 --bs=4k \
        --size=1m --time_based --runtime="$drain" >/dev/null 2>&1 || true
    rm -f "$scratch"/drain*
  fi
  for ((r = 0; r < rounds; r++)); do
    o="$out/r$r"
    mkdir -p "$o"
    fio_run() {
      fio --name=etcd --directory="$scratch" --rw=write --ioengine=sync --fdatasync=1 \
          --size="$fio_size" --runtime="$secs" --bs=2300 --output-format=json \
          >"$o/fio.json" 2>"$o/fio.err" || true
      rm -f "$scratch"/etcd*
    }
    dp_2300() { dp "$o/dp-2300.json" "$secs" --primitives fdatasync --patterns preallocated \
                  --sizes 2300 "$path"; }
    pg_run() { "$pgtf" -f "$scratch/pg_test_fsync.tmp" -s "$secs" >"$o/pgtf.txt" 2>&1 || true; }
    dp_8k() {
      dp "$o/dp-8k.json" "$((secs * 3))" --file-size 8k --primitives fdatasync,fsync,odirect_dsync \
         --patterns overwrite --sizes 8k "$path"
      dp "$o/dp-cross.json" "$((secs * 2))" --primitives fsync \
         --patterns write_sync_close,write_close_sync --sizes 8k "$path"
    }
    bare_run() { "$work/bare_fdatasync" "$scratch" 4096 "$bytes" "$secs" timed >"$o/bare.txt"; }
    dp_4k() { dp "$o/dp-4k.json" "$secs" --primitives fdatasync --patterns overwrite --sizes 4k \
                --file-size "$file_size" "$path"; }
    if [ -n "$writers" ]; then conc_round "$o" "$r"; fi
    [ -z "$conc_only" ] || continue
    if ((r % 2 == 0)); then
      fio_run; dp_2300; pg_run; dp_8k; bare_run; dp_4k
    else
      dp_4k; bare_run; dp_8k; pg_run; dp_2300; fio_run
    fi
  done
  rm -rf "$scratch"
  [ -n "$conc_only" ] ||
    python3 "$src/scripts/peer_table.py" "$path" "$out" "$rounds" ${verbose:+--verbose}
  [ -z "$writers" ] ||
    python3 "$src/scripts/concurrency_table.py" "$path" "$out" "$rounds" "$writers" \
      ${verbose:+--verbose}
done
