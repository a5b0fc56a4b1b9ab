#!/usr/bin/env bash
# The etcd preset on one directory, alternating the host's binary and the image under a CPU
# limit, ROUNDS times: the verdict of etcd_wal_fsync_p99, its p99, and what the probe's JSON says
# of the quota and the throttling, one line per run (docs/provisioning.md, "CPU limits").
# Benchmark figures, not a test: the disk's state moves between runs.
# Usage: scripts/cpu-quota-rounds.sh DIR IMAGE [CPUS] [ROUNDS]
#   e.g. scripts/cpu-quota-rounds.sh /var/tmp/etcd-check localhost/durprobe:0.1.0 0.5 5
# $DURPROBE_PODMAN replaces the podman command and its global options.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: $0 DIR IMAGE [CPUS] [ROUNDS]}
image=${2:?usage: $0 DIR IMAGE [CPUS] [ROUNDS]}
cpus=${3:-0.5}
rounds=${4:-5}
podman=${DURPROBE_PODMAN:-podman --runtime runc --cgroup-manager cgroupfs}
limits="--ulimit nofile=20000:20000 --ulimit nproc=4096:4096"
mkdir -p "$dir"

summarise() {  # WHERE JSON-FILE
  python3 - "$1" "$2" <<'PY'
import json, sys
where, path = sys.argv[1], sys.argv[2]
j = json.load(open(path))
rule = next(c for c in j["checks"] if c["rule"] == "etcd_wal_fsync_p99")
wal = next(p for p in j["targets"][0]["probes"] if p.get("paced_per_sec"))
cpu = wal.get("cpu") or {}
t = cpu.get("throttling") or {}
quota = (j["context"].get("cpu_quota") or {}).get("cpus")
print(f"{where:10} {rule['status']:8} p99 {rule['measured'] * 1e3:7.2f} ms  quota {quota}  "
      f"wait {cpu.get('wait')}  spun {cpu.get('spun_ns', 0) / 1e9:.2f} s  "
      f"slept {cpu.get('slept_ns', 0) / 1e9:.2f} s  throttled {t.get('throttled_periods')}"
      f"/{t.get('periods')} periods")
PY
}

for ((i = 1; i <= rounds; i++)); do
  build/durprobe check "$dir" --preset etcd --quiet --json="$dir/host.json" >/dev/null || true
  summarise "host" "$dir/host.json"
  # shellcheck disable=SC2086
  $podman run --rm $limits --cpus "$cpus" -v "$dir:/data" "$image" \
    check /data --preset etcd --quiet --json=/data/limited.json >/dev/null || true
  summarise "cpus=$cpus" "$dir/limited.json"
done
