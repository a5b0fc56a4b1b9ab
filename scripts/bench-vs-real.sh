#!/usr/bin/env bash
# Runs durprobe's presets beside the real systems they stand for, in alternating rounds on one
# directory, and prints per comparison the median of the paired ratios durprobe / the system with
# their min-max over the rounds (docs/accuracy.md):
#   etcd        Debian's etcd-server on 127.0.0.1 (ports of its own), data in DIR, loaded by
#               `etcdctl check perf --load=L`: the WAL fsync mean from its own
#               etcd_disk_wal_fsync_duration_seconds (/metrics, scraped before and after) and
#               check perf's PASS/FAIL  vs  `durprobe check --preset etcd` on the same directory:
#               the WAL probe's sync mean and p99, and the WAL rule's pass/fail
#   postgres    Debian's postgresql-15, a cluster initdb'd in DIR, unix socket only,
#               track_wal_io_timing = on, `pgbench -N -c 1` once per wal_sync_method (the
#               cluster restarted with each): pg_stat_wal's wal_sync_time / wal_sync and
#               pgbench's tps  vs  `durprobe check --preset postgres-wal`: its one-client
#               commit probe's (8 KiB fdatasync after 200 us of work) sync time and ops/s (the
#               commit rate it predicts), and the methods' order by its 1 x 8 KiB ops/s
#   sqlite      scripts/sqlite-vs-shell.sh on DIR: durprobe's commit rate against the sqlite3
#               shell and Python's sqlite3 module
# In each round the system and durprobe run one after the other, and the order flips each round,
# so a disk that changes state hits both sides of a ratio alike. Each system is started by the
# script in a directory of its own under DIR and stopped and removed after.
# Usage: scripts/bench-vs-real.sh [--rounds N] [--systems LIST] [--etcd-loads LIST]
#                                 [--pg-secs N] [--dp-secs N] [--sqlite-only J/S] [--drain SECS]
#                                 [--keep DIR] [--durprobe BIN] [-v] DIR
#   --rounds N        alternating rounds (default 3)
#   --systems LIST    any of etcd,postgres,sqlite (default all three)
#   --etcd-loads LIST check perf loads, each a table of its own (default s; m, l, xl exist); put:N
#                     is N `etcdctl put`s one after the other instead (a quick run: the tests').
#                     Past s, durprobe's WAL probe is paced by a policy at etcd's own sync rate
#   --pg-secs N       seconds of pgbench per wal_sync_method and round (default 15)
#   --dp-secs N       durprobe's --budget per preset run (default 20)
#   --sqlite-only J/S only that SQLite configuration (sqlite-vs-shell.sh --only; repeatable)
#   --drain SECS      before each side of a pair, SECS of fdatasync on DIR, so a disk with a
#                     burst allowance starts each in the same state (default 2; 0 skips)
#   --keep DIR        also copy every round's raw output to DIR
#   --durprobe BIN    the durprobe binary (default build/durprobe)
#   -v, --verbose     also print every round's figures
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: $0 [--rounds N] [--systems LIST] [--etcd-loads LIST] [--pg-secs N] [--dp-secs N]"
usage+=" [--sqlite-only J/S] [--drain SECS] [--keep DIR] [--durprobe BIN] [-v] DIR"
rounds=3 systems=etcd,postgres,sqlite etcd_loads=s pg_secs=15 dp_secs=20 keep= sqlite_only=()
drain_secs=2
bin=$src/build/durprobe verbose=
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --systems) systems=$2; shift 2 ;;
    --etcd-loads) etcd_loads=$2; shift 2 ;;
    --pg-secs) pg_secs=$2; shift 2 ;;
    --dp-secs) dp_secs=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --sqlite-only) sqlite_only+=(--only "$2"); shift 2 ;;
    --drain) drain_secs=$2; shift 2 ;;
    --durprobe) bin=$2; shift 2 ;;
    -v|--verbose) verbose=1; shift ;;
    -*) echo "$usage" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] || { echo "$usage" >&2; exit 2; }
dir=$1
[ -d "$dir" ] || { echo "bench-vs-real: '$dir' is not a directory" >&2; exit 2; }
[ -x "$bin" ] ||
  { echo "bench-vs-real: no durprobe binary at $bin (scripts/build.sh)" >&2; exit 2; }
want() { [[ ",$systems," == *",$1,"* ]]; }
need() {  # tool package
  command -v "$1" >/dev/null ||
    { echo "bench-vs-real: $1 not found (Debian: $2; scripts/deps.sh test)" >&2; exit 2; }
}
pgbin=$(ls -d /usr/lib/postgresql/15/bin 2>/dev/null || true)
if want etcd; then need etcd etcd-server; need etcdctl etcd-client; need curl curl; fi
if want postgres; then
  [ -x "$pgbin/initdb" ] ||
    { echo "bench-vs-real: PostgreSQL 15 not found (Debian: postgresql-15)" >&2; exit 2; }
fi
need python3 python3
work=$(mktemp -d "$(cd "$dir" && pwd)/.bench-vs-real.XXXXXX")
out=$work/out
mkdir -p "$out"
etcd_pid= pg_data=
cleanup() {
  if [ -n "$etcd_pid" ]; then kill "$etcd_pid" 2>/dev/null || true; wait "$etcd_pid" || true; fi
  if [ -n "$pg_data" ] && [ -f "$pg_data/postmaster.pid" ]; then
    as_pg "$pgbin/pg_ctl" -D "$pg_data" -m immediate stop >/dev/null 2>&1 || true
  fi
  if [ -n "$keep" ]; then mkdir -p "$keep" && cp -r "$out"/. "$keep"/; fi
  rm -rf "$work"
}
trap cleanup EXIT
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

# Rate-limited virtual disks run fast until a burst allowance is spent: each side of a pair
# starts after the same drain (sqlite-vs-shell.sh's --drain does the same).
drain() {
  if [ "$drain_secs" != 0 ]; then
    "$bin" probe "$work" --budget "${drain_secs}s" --primitives fdatasync --patterns overwrite \
      --quiet >/dev/null
  fi
}

# --- etcd -----------------------------------------------------------------------------------
etcd_real() {  # load round-dir: a fresh etcd, check perf, the metrics before and after
  local load=$1 o=$2 d=$work/etcd cport pport url
  rm -rf "$d" && mkdir -p "$d"
  drain
  cport=$(free_port) pport=$(free_port) url=http://127.0.0.1:$cport
  etcd --name bench --data-dir "$d/data" --listen-client-urls "$url" \
    --advertise-client-urls "$url" --listen-peer-urls "http://127.0.0.1:$pport" \
    --initial-advertise-peer-urls "http://127.0.0.1:$pport" \
    --initial-cluster "bench=http://127.0.0.1:$pport" \
    >"$o/etcd.log" 2>&1 &
  etcd_pid=$!
  for _ in $(seq 50); do
    ETCDCTL_API=3 etcdctl --endpoints "$url" endpoint health >/dev/null 2>&1 && break
    sleep 0.2
  done
  curl -sf "$url/metrics" >"$o/etcd-before.prom"
  local t0=$SECONDS
  if [[ "$load" == put:* ]]; then
    for ((i = 0; i < ${load#put:}; i++)); do
      ETCDCTL_API=3 etcdctl --endpoints "$url" put "/bench/$i" "$i" >/dev/null
    done
    : >"$o/checkperf.txt"
  else
    # check perf draws a progress bar with carriage returns; its verdict lines end the output.
    ETCDCTL_API=3 etcdctl --endpoints "$url" check perf --load="$load" 2>&1 | tr '\r' '\n' |
      grep -E '^(PASS|FAIL)' >"$o/checkperf.txt" || true
  fi
  curl -sf "$url/metrics" >"$o/etcd-after.prom"
  # The WAL sync rate it reached, for the next durprobe side's pace (etcd_pace).
  python3 "$src/scripts/real_table.py" etcd-rate "$o/etcd-before.prom" "$o/etcd-after.prom" \
    $((SECONDS - t0)) >"$(dirname "$o")/pace"
  kill "$etcd_pid"; wait "$etcd_pid" || true; etcd_pid=
  rm -rf "$d"
}
# The preset paces its WAL probe at check perf's --load=s rate, 150 a second. For another load a
# policy adds the same probe paced at the WAL sync rate etcd reached under that load, from its
# own etcd_disk_wal_fsync_duration_seconds_count, as a user reading their cluster's metrics
# would (docs/provisioning.md): the last round's rate, or check perf's put rate (m 1000, l 8000,
# xl 15000 a second) before any round has run. A machine too slow for the load syncs less often.
etcd_pace() {  # load lout: the pace for durprobe's WAL probe under that load
  if [ "$1" = s ] || [[ "$1" == put:* ]]; then echo 150
  elif [ -s "$2/pace" ]; then cat "$2/pace"
  else case $1 in m) echo 1000 ;; l) echo 8000 ;; *) echo 15000 ;; esac
  fi
}
etcd_durprobe() {  # load round-dir pace: the etcd preset on the directory etcd used
  local pace=$3 policy=()
  if [ "$pace" != 150 ]; then
    printf '%s\n' 'preset = "etcd"' '[[latency]]' 'name = "etcd_wal_fsync_p99_at_load"' \
      'primitive = "fdatasync"' 'pattern = "preallocated"' 'size = 1392' "pace = $pace" \
      'p99 = "10ms"' >"$work/etcd-$1.toml"
    policy=(--policy "$work/etcd-$1.toml")
  fi
  mkdir -p "$work/etcd"
  drain
  "$bin" check "$work/etcd" --preset etcd "${policy[@]}" --budget "${dp_secs}s" --quiet \
    --json "$2/dp-etcd.json" >/dev/null || true
  rm -rf "$work/etcd"
}
etcd_side() {  # load lout round: durprobe's side, its pace kept with the round for the table
  etcd_pace "$1" "$2" >"$2/r$3/pace"
  etcd_durprobe "$1" "$2/r$3" "$(cat "$2/r$3/pace")"
}
run_etcd() {
  for load in ${etcd_loads//,/ }; do
    local lout=$out/etcd-${load/:/}
    echo "== etcd: $rounds rounds of check perf --load=$load against the etcd preset on $dir" \
         "(about $((rounds * (65 + dp_secs))) s) =="
    for ((r = 0; r < rounds; r++)); do
      mkdir -p "$lout/r$r"
      if ((r % 2 == 0)); then
        etcd_real "$load" "$lout/r$r"; etcd_side "$load" "$lout" "$r"
      else
        etcd_side "$load" "$lout" "$r"; etcd_real "$load" "$lout/r$r"
      fi
    done
    python3 "$src/scripts/real_table.py" etcd "$lout" "$rounds" ${verbose:+--verbose}
  done
}

# --- PostgreSQL -------------------------------------------------------------------------------
as_pg() {  # PostgreSQL refuses to run as root: its commands run as the postgres user then
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
pg_port=
pg_init() {
  pg_data=$work/pg/data pg_port=$(free_port)
  mkdir -p "$work/pg/sock"
  chmod 755 "$work"
  [ "$(id -u)" != 0 ] || chown -R postgres: "$work/pg"
  as_pg "$pgbin/initdb" -D "$pg_data" --auth=trust -U postgres >"$out/initdb.log" 2>&1
  cat >>"$pg_data/postgresql.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$work/pg/sock'
port = $pg_port
track_wal_io_timing = on
EOF
  pg_start fdatasync
  as_pg "$pgbin/pgbench" -h "$work/pg/sock" -p "$pg_port" -i -s 1 postgres \
    >"$out/pgbench-init.log" 2>&1
  pg_stop
}
pg_start() {
  as_pg "$pgbin/pg_ctl" -D "$pg_data" -o "-c wal_sync_method=$1" -l "$work/pg/log" -w start \
    >/dev/null
}
pg_stop() { as_pg "$pgbin/pg_ctl" -D "$pg_data" -w stop >/dev/null; }
pg_real() {  # method round-dir: pgbench -N -c 1 under that wal_sync_method, pg_stat_wal after
  local psql=("$pgbin/psql" -h "$work/pg/sock" -p "$pg_port" -U postgres -d postgres -At)
  pg_start "$1"
  drain
  as_pg "${psql[@]}" -c "SELECT pg_stat_reset_shared('wal')" >/dev/null
  {
    as_pg "$pgbin/pgbench" -h "$work/pg/sock" -p "$pg_port" -U postgres -N -c 1 -T "$pg_secs" \
      postgres 2>&1
    as_pg "${psql[@]}" -F ' ' -c \
      "SELECT 'wal', wal_sync, wal_sync_time, wal_write, wal_write_time FROM pg_stat_wal"
  } >"$2/pg-$1.txt"
  pg_stop
}
pg_durprobe() {
  mkdir -p "$work/pg-dp"
  drain
  "$bin" check "$work/pg-dp" --preset postgres-wal --budget "${dp_secs}s" --quiet \
    --json "$1/dp-pg.json" >/dev/null || true
  rm -rf "$work/pg-dp"
}
run_postgres() {
  local methods=(fdatasync open_datasync fsync open_sync)
  echo "== postgres: $rounds rounds of pgbench -N -c 1 per wal_sync_method against the" \
       "postgres-wal preset on $dir (about $((rounds * (4 * (pg_secs + 3) + dp_secs))) s) =="
  pg_init
  for ((r = 0; r < rounds; r++)); do
    mkdir -p "$out/pg/r$r"
    # the methods rotate too, so none always runs first
    local order=("${methods[@]:r%4}" "${methods[@]:0:r%4}")
    if ((r % 2 == 0)); then
      for m in "${order[@]}"; do pg_real "$m" "$out/pg/r$r"; done; pg_durprobe "$out/pg/r$r"
    else
      pg_durprobe "$out/pg/r$r"; for m in "${order[@]}"; do pg_real "$m" "$out/pg/r$r"; done
    fi
  done
  python3 "$src/scripts/real_table.py" postgres "$out/pg" "$rounds" ${verbose:+--verbose}
}

want etcd && run_etcd
want postgres && run_postgres
if want sqlite; then
  echo "== sqlite: scripts/sqlite-vs-shell.sh, $rounds rounds on $dir =="
  bash "$src/scripts/sqlite-vs-shell.sh" --rounds "$rounds" --durprobe "$bin" \
    --drain "$drain_secs" ${verbose:+--verbose} "${sqlite_only[@]}" "$dir"
fi
echo "ratio = durprobe's figure / the system's in the same round; median [min-max] over rounds"
