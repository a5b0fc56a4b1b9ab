#!/usr/bin/env bash
# Times `durprobe summarize` on N generated reports next to a plain JSON parse of the same files
# (Python's json module), for docs/provisioning.md. The reports are copies of one real report
# with the host name, path and latencies varied, so every file has a real report's size.
# Usage: scripts/fleet-bench.sh BUILD_DIR SAMPLE_REPORT.json [N=10000]
set -euo pipefail
build=$1 sample=$2 n=${3:-10000}
dir=$(mktemp -d /tmp/durprobe-fleet-XXXXXX)
trap 'rm -rf "$dir"' EXIT
python3 - "$sample" "$dir" "$n" <<'PY'
import json, sys
sample, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
doc = json.load(open(sample))
for i in range(n):
    doc["context"]["host"] = f"host-{i:05d}"
    for t in doc["targets"]:
        for p in t.get("probes", []):
            for key in ("latency_ns", "sync_latency_ns"):
                if key in p:
                    p[key]["p99"] = 1000000 + (i * 7919) % 50000000
    with open(f"{out}/r{i:05d}.json", "w") as f:
        json.dump(doc, f, indent=2)
PY
echo "files: $n, $(du -sh "$dir" | cut -f1) on disk"
cat "$dir"/*.json >/dev/null  # both runs read from the page cache
echo "durprobe summarize:"
( time "$build/durprobe" summarize --quiet --csv /dev/null "$dir"/*.json ) 2>&1 | grep real
echo "python3 json.load of each file:"
( time python3 -c 'import json,sys
for f in sys.argv[1:]: json.load(open(f))' "$dir"/*.json ) 2>&1 | grep real
PY_MAXRSS=$( { /usr/bin/time -f %M "$build/durprobe" summarize --quiet --csv /dev/null "$dir"/*.json; } 2>&1 | tail -1 )
echo "durprobe summarize max RSS: ${PY_MAXRSS} KiB"
