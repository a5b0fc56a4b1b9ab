#!/usr/bin/env bash
# Runs durprobe and its peers on each PATH in one go and prints them side by side:
#   fio's etcd recipe (write + fdatasync, 2300 B)  vs durprobe fdatasync preallocated (fio's own
#                                                     layout: fallocate, then sequential writes),
#                                                     append and overwrite at 2300 B
#   pg_test_fsync's one-8kB-write tests             vs durprobe fdatasync/fsync/odsync/odirect_dsync
#                                                      overwrite 8 KiB, and the cross-descriptor pair
#   a bare C loop of pwrite+fdatasync               vs durprobe fdatasync overwrite 4 KiB
# Ratios are durprobe / peer, from the same run.
# Usage: scripts/bench-vs-peers.sh [--secs N] [--fio-size SIZE] [--drain N] PATH...
#   --secs N       seconds per pg_test_fsync test and per durprobe probe group (default 5)
#   --fio-size S   fio's file size (default 22m, etcd's recipe; smaller on slow or throttled disks)
#   --drain N      first sync for N seconds, so a disk with a burst allowance (cloud volumes,
#                  throttled virtual disks) is in its steady state for every tool alike
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
secs=5
fio_size=22m
drain=0
while [ $# -gt 0 ]; do
  case "$1" in
    --secs) secs=$2; shift 2 ;;
    --fio-size) fio_size=$2; shift 2 ;;
    --drain) drain=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: $0 [--secs N] [--fio-size SIZE] [--drain N] PATH..." >&2; exit 2; }
for p in "$@"; do [ -d "$p" ] || { echo "bench-vs-peers: '$p' is not a directory" >&2; exit 2; }; done

bash "$src/scripts/deps.sh" test
[ -x "$src/build/durprobe" ] || bash "$src/scripts/build.sh"
pgtf=$(ls /usr/lib/postgresql/*/bin/pg_test_fsync 2>/dev/null | tail -n 1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/bare_fdatasync" "$src/scripts/bare_fdatasync.c"

for path in "$@"; do
  out="$work/$(echo "$path" | tr / _)"
  mkdir -p "$out"
  scratch="$path/.durprobe-bench-$$"
  mkdir "$scratch"
  echo "== $path: fio, pg_test_fsync, durprobe, bare loop (about $((secs * 16 + drain + 30)) s) =="
  if [ "$drain" -gt 0 ]; then
    fio --name=drain --directory="$scratch" --rw=write --ioengine=sync --fdatasync=1 --bs=4k \
        --size=1m --time_based --runtime="$drain" >/dev/null 2>&1 || true
    rm -f "$scratch"/drain*
  fi
  fio --name=etcd --directory="$scratch" --rw=write --ioengine=sync --fdatasync=1 --size="$fio_size" \
      --bs=2300 --output-format=json >"$out/fio.json" 2>"$out/fio.err" || true
  rm -f "$scratch"/etcd*
  "$pgtf" -f "$scratch/pg_test_fsync.tmp" -s "$secs" >"$out/pgtf.txt" 2>&1 || true
  "$src/build/durprobe" probe --quiet --ci 1 --budget "$((secs * 3))s" --primitives fdatasync \
      --patterns preallocated,append,overwrite --sizes 2300 --json "$out/dp-2300.json" "$path"
  "$src/build/durprobe" probe --quiet --ci 1 --budget "$((secs * 4))s" --file-size 8k \
      --primitives fdatasync,fsync,odsync,odirect_dsync --patterns overwrite --sizes 8k \
      --json "$out/dp-8k.json" "$path"
  "$src/build/durprobe" probe --quiet --ci 1 --budget "$((secs * 2))s" \
      --primitives fsync --patterns write_sync_close,write_close_sync --sizes 8k \
      --json "$out/dp-cross.json" "$path"
  "$src/build/durprobe" probe --quiet --ci 1 --budget "${secs}s" \
      --primitives fdatasync --patterns overwrite --sizes 4k --json "$out/dp-4k.json" "$path"
  "$work/bare_fdatasync" "$scratch" 4096 $((16 * 1024 * 1024)) "$secs" >"$out/bare.txt"
  rmdir "$scratch"
  python3 "$src/scripts/peer_table.py" "$path" "$out"
done
