#!/usr/bin/env bash
# The etcd preset on one directory, alternating the host's binary and the image under a CPU
# limit, ROUNDS times: the verdict of etcd_wal_fsync_p99, its p99, and what the probe's JSON says
# of the quota and the throttling, one line per run (docs/provisioning.md, "CPU limits").
# Benchmark figures, not a test: the disk's state moves between runs.
# With KUBE (any word), each round also plays the DaemonSet's pod template as a Pod with podman
# kube play, limits as written (cpu 500m), its loop ended after one check and a --json beside its
# textfile (the tests' way: tests/integration/podman_kube_test.cc).
# Usage: scripts/cpu-quota-rounds.sh DIR IMAGE [CPUS] [ROUNDS] [KUBE]
#   e.g. scripts/cpu-quota-rounds.sh /var/tmp/etcd-check localhost/durprobe:0.1.0 0.5 5 kube
# $DURPROBE_PODMAN replaces the podman command and its global options.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: $0 DIR IMAGE [CPUS] [ROUNDS]}
image=${2:?usage: $0 DIR IMAGE [CPUS] [ROUNDS]}
cpus=${3:-0.5}
rounds=${4:-5}
kube=${5:-}
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

# The DaemonSet's pod template as a Pod, its target and textfile in DIR, one check and out.
kube_conf=$(mktemp -d)
trap 'rm -rf "$kube_conf"' EXIT
printf '[containers]\ndefault_ulimits = ["nofile=20000:20000", "nproc=4096:4096"]\n\n[engine]\nruntime = "runc"\ncgroup_manager = "cgroupfs"\n' \
  >"$kube_conf/containers.conf"
python3 - deploy/kubernetes/durprobe-check-daemonset.yaml "$image" "$dir" >"$kube_conf/pod.yaml" <<'PY'
import sys
manifest, image, target = sys.argv[1:4]
lines, body, inside = open(manifest).read().splitlines(), [], False
for line in lines:
    if not inside:
        inside = line == "  template:"
        continue
    if line and not line.startswith("    "):
        break
    body.append(line[4:])
pod = "apiVersion: v1\nkind: Pod\n" + "\n".join(body) + "\n"
pod = pod.replace("metadata:\n", "metadata:\n  name: quota-rounds\n", 1)
pod = pod.replace("localhost/durprobe:0.1.0", image)
pod = pod.replace("--prometheus /textfile/durprobe.prom", "--json /textfile/kube.json --prometheus /textfile/durprobe.prom")
pod = pod.replace("sleep 86400", "exit 0")
pod = pod.replace("/var/lib/node_exporter/textfile", target + "/textfile")
pod = pod.replace("/var/lib/kubelet", target)
print(pod, end="")
PY
kube_round() {
  local play="env CONTAINERS_CONF=$kube_conf/containers.conf podman"
  rm -f "$dir/textfile/kube.json"
  $play kube play --down "$kube_conf/pod.yaml" >/dev/null 2>&1 || true
  $play kube play "$kube_conf/pod.yaml" >/dev/null
  local waited=0
  while [ ! -s "$dir/textfile/kube.json" ] && [ "$waited" -lt 300 ]; do
    sleep 1
    waited=$((waited + 1))
  done
  $play kube play --down "$kube_conf/pod.yaml" >/dev/null 2>&1 || true
  summarise "kube 500m" "$dir/textfile/kube.json"
}

for ((i = 1; i <= rounds; i++)); do
  build/durprobe check "$dir" --preset etcd --quiet --json="$dir/host.json" >/dev/null || true
  summarise "host" "$dir/host.json"
  # shellcheck disable=SC2086
  $podman run --rm $limits --cpus "$cpus" -v "$dir:/data" "$image" \
    check /data --preset etcd --quiet --json=/data/limited.json >/dev/null || true
  summarise "cpus=$cpus" "$dir/limited.json"
  [ -z "$kube" ] || kube_round
done
