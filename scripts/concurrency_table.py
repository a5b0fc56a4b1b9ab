"""Prints bench-vs-peers.sh's concurrent-syncers table for one path: per writer count and mode,
the median of the per-round ratios durprobe / fio of aggregate synced ops/s with their min-max,
fio's own round-to-round spread (min-max of its rounds against their median), and the bare C
loop of 8 threads against durprobe's 8 threads (per-operation time durprobe / bare).
usage: concurrency_table.py PATH OUT_DIR ROUNDS WRITERS [--verbose]"""
import json
import statistics
import sys

path, out, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
writers = [int(n) for n in sys.argv[4].split(",") if n]
verbose = "--verbose" in sys.argv[5:]
PAIRS = [("threads", "dp-conc.json", "threads"), ("processes", "dp-conc.json", "processes"),
         ("io_uring", "dp-uring.json", "threads")]


def load_json(name):
    try:
        return json.load(open(name))
    except (OSError, ValueError):
        return None


def fio_iops(doc):
    try:
        return doc["jobs"][0]["write"]["iops"] or None
    except (TypeError, KeyError, IndexError):
        return None


def dp_aggregate(doc, mode, n):
    for row in (doc or {}).get("targets", [{}])[0].get("concurrency", []):
        if row["mode"] == mode and row["writers"] == n and row.get("status", "ok") == "ok":
            return row.get("aggregate_ops_per_sec")
    return None


def bare(name):
    try:
        return {k: float(v) for k, v in (line.split() for line in open(name))}["ops_per_sec"]
    except (OSError, ValueError, KeyError):
        return None


def spread(values):
    if not values:
        return "-"
    m = statistics.median(values)
    return f"{min(values) / m - 1:+.0%} .. {max(values) / m - 1:+.0%}"


def ratio_cell(values):
    if not values:
        return "-"
    return f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})"


print(f"\n{path}: concurrent syncers, durprobe / fio aggregate synced ops/s, median (min-max) "
      f"over {rounds} rounds")
print(f"{'writers':>7} {'mode':<10} {'ratio':>22} {'fio spread':>16} {'durprobe spread':>16}"
      f" {'fio median':>11} {'durprobe median':>15}")
for n in writers:
    for name, dp_file, mode in PAIRS:
        fio, dp, ratios = [], [], []
        for r in range(rounds):
            f = fio_iops(load_json(f"{out}/r{r}/fio-{name}-{n}.json"))
            d = dp_aggregate(load_json(f"{out}/r{r}/{dp_file}"), mode, n)
            if f:
                fio.append(f)
            if d:
                dp.append(d)
            if f and d:
                ratios.append(d / f)
                if verbose:
                    print(f"  round {r}: {n} {name}: fio {f:.0f} durprobe {d:.0f} -> {d / f:.3f}")
        within = ""
        if ratios and fio:
            m, lo, hi = statistics.median(ratios), min(fio), max(fio)
            fm = statistics.median(fio)
            within = " within fio's spread" if lo / fm <= m <= hi / fm else " OUTSIDE fio's spread"
        print(f"{n:>7} {name:<10} {ratio_cell(ratios):>22} {spread(fio):>16} {spread(dp):>16}"
              f" {statistics.median(fio) if fio else 0:>11.0f}"
              f" {statistics.median(dp) if dp else 0:>15.0f}{within}")

per_op = []
for r in range(rounds):
    b = bare(f"{out}/r{r}/bare8.txt")
    d = dp_aggregate(load_json(f"{out}/r{r}/dp-conc.json"), "threads", 8)
    if b and d:
        per_op.append(b / d)  # durprobe's time per operation / the bare loop's
        if verbose:
            print(f"  round {r}: bare 8 threads {b:.0f} ops/s, durprobe {d:.0f} -> {b / d:.3f}")
print(f"\n{path}: per-operation time at 8 threads, durprobe / bare C loop: {ratio_cell(per_op)}"
      f" (goal <= 1.1)")

# The one-writer threads row against the ordinary probe of the same run (fdatasync overwrite 4k):
# the same operation, so the same figures up to the file size (1 MiB against the probe's 16 MiB).
agree = []
for r in range(rounds):
    doc = load_json(f"{out}/r{r}/dp-conc.json")
    probe = next((p for p in (doc or {}).get("targets", [{}])[0].get("probes", [])
                  if (p["primitive"], p["pattern"], p["write_size"]) == ("fdatasync", "overwrite",
                                                                         4096)
                  and p.get("status", "ok") == "ok"), None)
    row = next((c for c in (doc or {}).get("targets", [{}])[0].get("concurrency", [])
                if c["mode"] == "threads" and c["writers"] == 1 and c.get("status") == "ok"), None)
    if probe and row and probe["latency_ns"]["p50"]:
        agree.append(row["latency_ns"]["p50"] / probe["latency_ns"]["p50"])
print(f"{path}: one writer (threads) against the ordinary probe, p50 ratio: {ratio_cell(agree)}")
