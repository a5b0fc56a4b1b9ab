"""Prints bench-vs-peers.sh's table for one path: per pair and statistic, the median of the
paired ratios durprobe / peer over the rounds, with their min-max.
usage: peer_table.py PATH OUT_DIR ROUNDS [--verbose]"""
import json
import re
import statistics
import sys

path, out, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
verbose = "--verbose" in sys.argv[4:]


def load_json(name):
    try:
        return json.load(open(name))
    except (OSError, ValueError):
        return None


def durprobe(doc, primitive, pattern, size):
    for p in (doc or {}).get("targets", [{}])[0].get("probes", []):
        if (p["primitive"], p["pattern"], p["write_size"]) == (primitive, pattern, size):
            return p if p.get("status", "ok") == "ok" else None
    return None


def pg_test_fsync(name):
    """ops/sec and mean ns per op of the one-8kB-write and cross-descriptor tests."""
    found, section = {}, ""
    try:
        lines = open(name).readlines()
    except OSError:
        return found
    for line in lines:
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


def keyvals(name):
    try:
        return {k: float(v) for k, v in (line.split() for line in open(name))}
    except (OSError, ValueError):
        return {}


def ratio(ours, peer):
    return ours / peer if ours and peer else None


def round_ratios(d):
    """{(pair, statistic): ratio} for one round's files."""
    r = {}
    try:
        job = json.load(open(f"{d}/fio.json"))["jobs"][0]
        pct = job["sync"]["lat_ns"]["percentile"]
        p = durprobe(load_json(f"{d}/dp-2300.json"), "fdatasync", "preallocated", 2300)
        if p:
            pair = "fdatasync preallocated 2300 B vs fio etcd"
            s = p["sync_latency_ns"]
            r[(pair, "sync p50")] = ratio(s["p50"], pct["50.000000"])
            r[(pair, "sync p99")] = ratio(s["p99"], pct["99.000000"])
            r[(pair, "ops/s")] = ratio(p["ops_per_sec"], job["write"]["iops"])
    except (OSError, KeyError, ValueError, IndexError):
        pass
    pg = pg_test_fsync(f"{d}/pgtf.txt")
    for peer, primitive, pattern, name in (
            ("open_datasync", "odirect_dsync", "overwrite", "dp-8k.json"),
            ("fdatasync", "fdatasync", "overwrite", "dp-8k.json"),
            ("fsync", "fsync", "overwrite", "dp-8k.json"),
            ("write, fsync, close", "fsync", "write_sync_close", "dp-cross.json"),
            ("write, close, fsync", "fsync", "write_close_sync", "dp-cross.json")):
        p = durprobe(load_json(f"{d}/{name}"), primitive, pattern, 8192)
        if p and peer in pg:
            ops, mean_ns = pg[peer]
            pair = f"{primitive} {pattern} 8 KiB vs pg_test_fsync {peer}"
            r[(pair, "mean")] = ratio(p["latency_ns"]["mean"], mean_ns)
            r[(pair, "ops/s")] = ratio(p["ops_per_sec"], ops)
    bare = keyvals(f"{d}/bare.txt")
    p = durprobe(load_json(f"{d}/dp-4k.json"), "fdatasync", "overwrite", 4096)
    if p and bare:
        pair = "fdatasync overwrite 4 KiB vs bare timed C loop"
        lat = p["latency_ns"]
        r[(pair, "p50")] = ratio(lat["p50"], bare.get("p50_ns"))
        r[(pair, "p99")] = ratio(lat["p99"], bare.get("p99_ns"))
        r[(pair, "ops/s")] = ratio(p["ops_per_sec"], bare.get("ops_per_sec"))
    return r


per_round = [round_ratios(f"{out}/r{i}") for i in range(rounds)]
keys = []
for rr in per_round:
    keys += [k for k in rr if k not in keys]
print(f"{'durprobe probe vs peer':<66} {'statistic':<9} {'median':>6} {'min-max':>11} {'n':>2}")
for key in keys:
    vals = [rr[key] for rr in per_round if rr.get(key)]
    if not vals:
        continue
    line = (f"{key[0]:<66} {key[1]:<9} {statistics.median(vals):6.2f} "
            f"{min(vals):5.2f}-{max(vals):<5.2f} {len(vals):2d}")
    if verbose:
        line += "  rounds: " + " ".join(f"{v:.2f}" for v in vals)
    print(line)
print(f"ratio = durprobe / peer from the same round ({path}); latencies: lower is faster for"
      " durprobe; pg_test_fsync reports a mean, so its rows compare means")
