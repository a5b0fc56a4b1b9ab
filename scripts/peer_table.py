"""Prints bench-vs-peers.sh's side-by-side table for one path from the files it collected."""
import json
import re
import sys

path, out = sys.argv[1], sys.argv[2]


def durprobe(name, primitive, pattern, size):
    for p in json.load(open(f"{out}/{name}"))["targets"][0]["probes"]:
        if (p["primitive"], p["pattern"], p["write_size"]) == (primitive, pattern, size):
            return p
    return None


def pg_test_fsync():
    """ops/sec and usecs/op of the one-8kB-write and cross-descriptor tests."""
    found, section = {}, ""
    for line in open(f"{out}/pgtf.txt"):
        if line.startswith("Compare file sync methods using one"):
            section = "one"
        elif line.startswith("Compare file sync methods using two"):
            section = ""
        elif line.startswith("Test if fsync on non-write"):
            section = "cross"
        m = re.match(r"\s+(\S.*?)\s+([\d.]+) ops/sec\s+(\d+) usecs/op", line)
        if m and section:
            found[m.group(1)] = (float(m.group(2)), float(m.group(3)) * 1000)
    return found


def ratio(a, b):
    return f"{a / b:5.2f}" if a and b else "  n/a"


def us(ns):
    return f"{ns / 1000:9.1f}" if ns else "      n/a"


rows = []
try:
    job = json.load(open(f"{out}/fio.json"))["jobs"][0]
    pct = job["sync"]["lat_ns"]["percentile"]
    fio = {"p50": pct["50.000000"], "p99": pct["99.000000"], "mean": job["sync"]["lat_ns"]["mean"],
           "ops": job["write"]["iops"]}
except (OSError, KeyError, ValueError, IndexError):
    fio = None
if fio:
    for pattern in ("preallocated", "append", "overwrite"):
        d = durprobe("dp-2300.json", "fdatasync", pattern, 2300)
        if d:
            s = d["sync_latency_ns"]
            rows.append((f"fdatasync {pattern} 2300 B", "fio etcd (sync lat)", fio["p50"], s["p50"],
                         fio["p99"], s["p99"], fio["ops"], d["ops_per_sec"]))
pg = pg_test_fsync()
for peer, primitive, pattern, file in (
        ("open_datasync", "odirect_dsync", "overwrite", "dp-8k.json"),
        ("open_datasync", "odsync", "overwrite", "dp-8k.json"),
        ("fdatasync", "fdatasync", "overwrite", "dp-8k.json"),
        ("fsync", "fsync", "overwrite", "dp-8k.json"),
        ("write, fsync, close", "fsync", "write_sync_close", "dp-cross.json"),
        ("write, close, fsync", "fsync", "write_close_sync", "dp-cross.json")):
    d = durprobe(file, primitive, pattern, 8192)
    if d and peer in pg and d.get("status") == "ok":
        ops, mean_ns = pg[peer]
        rows.append((f"{primitive} {pattern} 8 KiB", f"pg_test_fsync {peer} (mean)", mean_ns,
                     d["latency_ns"]["mean"], None, None, ops, d["ops_per_sec"]))
bare = dict(line.split() for line in open(f"{out}/bare.txt"))
d = durprobe("dp-4k.json", "fdatasync", "overwrite", 4096)
if d:
    rows.append(("fdatasync overwrite 4 KiB", "bare C loop", None, None, None, None,
                 float(bare["ops_per_sec"]), d["ops_per_sec"]))

print(f"{'durprobe probe':<30} {'peer':<36} {'peer p50':>9} {'dp p50':>9} {'ratio':>5}"
      f" {'peer p99':>9} {'dp p99':>9} {'ratio':>5} {'peer op/s':>10} {'dp op/s':>10} {'ratio':>5}")
for name, peer, p50a, p50b, p99a, p99b, opsa, opsb in rows:
    print(f"{name:<30} {peer:<36} {us(p50a)} {us(p50b)} {ratio(p50b, p50a)}"
          f" {us(p99a)} {us(p99b)} {ratio(p99b, p99a)} {opsa:10.0f} {opsb:10.0f} {ratio(opsb, opsa)}")
print("latencies in microseconds; pg_test_fsync reports a mean, so its row compares means; "
      "ratio = durprobe / peer")
