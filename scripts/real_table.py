"""Reads what bench-vs-real.sh's rounds left and prints its tables: per comparison, the median of
the paired ratios durprobe / the real system over the rounds, with their min-max.
usage: real_table.py etcd OUT_DIR ROUNDS [--verbose]
       real_table.py postgres OUT_DIR ROUNDS [--verbose]
       real_table.py etcd-metrics FILE   (one scrape: WAL fsync sum and count; a test's check)
       real_table.py etcd-rate BEFORE AFTER SECS   (WAL syncs a second between two scrapes)
Each round's directory (OUT_DIR/rN) holds the real system's figures and durprobe's JSON report."""
import json
import math
import re
import statistics
import sys

METHODS = {"fdatasync": "fdatasync", "open_datasync": "odsync", "fsync": "fsync",
           "open_sync": "osync"}


def load_json(name):
    try:
        return json.load(open(name))
    except (OSError, ValueError):
        return None


def probe(doc, primitive, pattern, size, writes_per_op=1, work_us=0):
    for p in (doc or {}).get("targets", [{}])[0].get("probes", []):
        if (p["primitive"], p["pattern"], p["write_size"], p.get("writes_per_op", 1),
                p.get("work_us", 0)) == (primitive, pattern, size, writes_per_op, work_us):
            return p if p.get("status", "ok") == "ok" else None
    return None


def sync_stats(p):
    """The sync part's mean and p99 in ns (the whole op where the write is the sync)."""
    lat = p.get("sync_latency_ns") or p["latency_ns"]
    return lat["mean"], lat.get("p99")


def histogram(name, metric):
    """sum, count and cumulative buckets {le: count} of one Prometheus histogram in a scrape."""
    total, count, buckets = 0.0, 0.0, {}
    for line in open(name):
        if line.startswith(metric + "_sum "):
            total = float(line.split()[1])
        elif line.startswith(metric + "_count "):
            count = float(line.split()[1])
        elif line.startswith(metric + "_bucket{"):
            le = re.search(r'le="([^"]+)"', line).group(1)
            buckets[math.inf if le == "+Inf" else float(le)] = float(line.split()[1])
    return total, count, buckets


def etcd_round(rdir):
    """etcd's WAL fsync mean and p99 bucket bound (s) over check perf, from two scrapes."""
    metric = "etcd_disk_wal_fsync_duration_seconds"
    s0, c0, b0 = histogram(rdir + "/etcd-before.prom", metric)
    s1, c1, b1 = histogram(rdir + "/etcd-after.prom", metric)
    n = c1 - c0
    if n <= 0:
        return None
    p99 = next(le for le in sorted(b1) if b1[le] - b0.get(le, 0) >= 0.99 * n)
    return {"mean": (s1 - s0) / n, "p99_le": p99, "syncs": n}


def verdict_of(text_file):
    try:
        lines = [l.strip() for l in open(text_file) if l.strip() in ("PASS", "FAIL")]
    except OSError:
        return "?"
    return lines[-1] if lines else "?"


def spread(values):
    v = sorted(values)
    if not v:
        return "-"
    return f"{statistics.median(v):.2f} [{v[0]:.2f}-{v[-1]:.2f}]"


def us(ns):
    return f"{ns / 1000:.0f} us"


def etcd_table(out, rounds, verbose):
    means, buckets_equal, verdicts_equal, verdicts, unstable, n = [], 0, 0, 0, 0, 0
    for r in range(rounds):
        rdir = f"{out}/r{r}"
        real = etcd_round(rdir)
        doc = load_json(rdir + "/dp-etcd.json")
        # the WAL probe paced at the load's rate: the preset's (150), or the policy's for m, l, xl
        try:
            pace = int(open(rdir + "/pace").read())
        except (OSError, ValueError):
            pace = 150
        wal = next((p for p in (doc or {}).get("targets", [{}])[0].get("probes", [])
                    if (p["primitive"], p["pattern"], p["write_size"], p.get("paced_per_sec", 0))
                    == ("fdatasync", "preallocated", 1392, pace) and p.get("status") == "ok"),
                   None)
        if not real or not wal:
            print(f"  round {r}: missing figures (etcd {bool(real)}, durprobe {bool(wal)})")
            continue
        n += 1
        mean, p99 = sync_stats(wal)
        means.append(mean / (real["mean"] * 1e9))
        # etcd's buckets double from 1 ms: durprobe's p99 is compared by the bucket it falls in.
        dp_bucket = next((le for le in sorted(etcd_buckets()) if p99 is not None and
                          p99 / 1e9 <= le), math.inf)
        buckets_equal += dp_bucket == real["p99_le"]
        dp_verdict = "PASS" if all(c["status"] == "pass" for c in doc["checks"]) else "FAIL"
        rule = "etcd_wal_fsync_p99" if pace == 150 else "etcd_wal_fsync_p99_at_load"
        wal_rule = next(c for c in doc["checks"] if c["rule"] == rule)
        real_verdict = verdict_of(rdir + "/checkperf.txt")  # "?" without check perf (put:N)
        # An unstable rule is neither: the device moved so far during the run that the limit lay
        # within what the value could have been (docs/provisioning.md). It is counted apart.
        if wal_rule["status"] == "unstable":
            unstable += 1
        elif real_verdict != "?":
            verdicts += 1
            verdicts_equal += (wal_rule["status"] == "pass") == (real_verdict == "PASS")
        if verbose:
            print(f"  round {r}: etcd WAL fsync mean {us(real['mean'] * 1e9)} over "
                  f"{real['syncs']:.0f} syncs, p99 <= {real['p99_le'] * 1e3:g} ms, check perf "
                  f"{real_verdict}; durprobe mean {us(mean)}, p99 {us(p99 or 0)}, WAL rule "
                  f"{wal_rule['status']}, preset {dp_verdict}")
            own = probe(doc, "fdatasync", "preallocated", 1392)  # the preset's, at 150/s
            if pace != 150 and own and own.get("paced_per_sec") == 150:
                print(f"    the preset's own WAL probe at 150/s: mean {us(sync_stats(own)[0])}")
    print(f"{'etcd WAL fsync mean, durprobe / etcd':44} {n:3d} {spread(means)}")
    print(f"{'p99 in the same etcd histogram bucket':44} {n:3d} {buckets_equal} of {n}")
    print(f"{'WAL rule pass/fail = check perf PASS/FAIL':44} {verdicts:3d} {verdicts_equal} of "
          f"{verdicts}" + (f" ({unstable} more rounds unstable)" if unstable else ""))


def etcd_buckets():
    return [0.001 * 2 ** i for i in range(14)] + [math.inf]


def pg_stat(name):
    """pgbench's tps and pg_stat_wal's figures of one run."""
    try:
        text = open(name).read()
    except OSError:
        return None
    tps = re.search(r"tps = ([0-9.]+) \(without initial connection time\)", text)
    wal = re.search(r"^wal (\d+) ([0-9.]+) (\d+) ([0-9.]+)$", text, re.M)
    if not tps or not wal:
        return None
    syncs, sync_ms, writes, write_ms = int(wal[1]), float(wal[2]), int(wal[3]), float(wal[4])
    return {"tps": float(tps[1]), "syncs": syncs, "sync_ns": sync_ms * 1e6 / max(syncs, 1),
            "writes": writes, "write_ns": write_ms * 1e6 / max(writes, 1),
            # open_* methods sync inside the write: a flush is then the write's time
            "flush_ns": (sync_ms + write_ms) * 1e6 / max(syncs, writes, 1)}


def chosen_method(doc):
    """The wal_sync_method durprobe's postgres_wal_sync_method check chose, or "none"."""
    for c in (doc or {}).get("checks", []):
        m = re.match(r"wal_sync_method = (\w+)", c.get("message", ""))
        if c.get("rule") == "postgres_wal_sync_method" and m:
            return m[1]
    return "none"


def pg_table(out, rounds, verbose):
    sync_ratio, b2b_ratio, rate_ratio, orders_equal, tops_equal, n = [], [], [], 0, 0, 0
    tps_by_method, choices = {}, []
    for r in range(rounds):
        rdir = f"{out}/r{r}"
        real = pg_stat(rdir + "/pg-fdatasync.txt")
        doc = load_json(rdir + "/dp-pg.json")
        # the preset's one-client commit: 8 KiB fdatasync after the transaction's work
        one = next((p for p in (doc or {}).get("targets", [{}])[0].get("probes", [])
                    if p.get("work_us") and p.get("status") == "ok"), None)
        if not real or not one:
            print(f"  round {r}: missing figures (postgres {bool(real)}, durprobe {bool(one)})")
            continue
        n += 1
        mean, _ = sync_stats(one)
        sync_ratio.append(mean / real["sync_ns"])
        b2b = probe(doc, "fdatasync", "overwrite", 8192)  # pg_test_fsync's, back to back
        if b2b:
            b2b_ratio.append(sync_stats(b2b)[0] / real["sync_ns"])
        rate_ratio.append(one["ops_per_sec"] / real["tps"])
        by_method = {m: pg_stat(f"{rdir}/pg-{m}.txt") for m in METHODS}
        dp_rate = {m: (probe(doc, prim, "overwrite", 8192) or {}).get("ops_per_sec", 0)
                   for m, prim in METHODS.items()}
        pg_order = sorted((m for m in METHODS if by_method[m]), key=lambda m: -by_method[m]["tps"])
        dp_order = sorted(METHODS, key=lambda m: -dp_rate[m])
        orders_equal += pg_order == dp_order
        tops_equal += bool(pg_order) and pg_order[0] == dp_order[0]
        for m in METHODS:
            if by_method[m]:
                tps_by_method.setdefault(m, []).append(by_method[m]["tps"])
        choices.append(chosen_method(doc))
        if verbose:
            print(f"  round {r}: postgres {real['sync_ns'] / 1e3:.0f} us per WAL sync over "
                  f"{real['syncs']} syncs, {real['tps']:.0f} tps; durprobe's one-client commit "
                  f"sync {us(mean)}, {one['ops_per_sec']:.0f} ops/s")
            print("    tps by wal_sync_method: " + ", ".join(
                f"{m} {by_method[m]['tps']:.0f}" for m in pg_order))
            print("    durprobe 1 x 8 KiB ops/s: " + ", ".join(
                f"{m} {dp_rate[m]:.0f}" for m in dp_order) + f"; durprobe chose {choices[-1]}")
    print(f"{'WAL sync time, durprobe / pg_stat_wal':44} {n:3d} {spread(sync_ratio)}")
    print(f"{'  the same, back-to-back 1 x 8 KiB / pg_stat_wal':44} {len(b2b_ratio):3d} "
          f"{spread(b2b_ratio)}")
    print(f"{'commit rate, durprobe one client / pgbench':44} {n:3d} {spread(rate_ratio)}")
    print(f"{'wal_sync_method order equal (by rate)':44} {n:3d} {orders_equal} of {n}")
    print(f"{'wal_sync_method fastest equal':44} {n:3d} {tops_equal} of {n}")
    # PostgreSQL's own answer over all rounds: a method is clearly best when its lowest tps beat
    # every other method's highest; with none, keeping the default fdatasync is the answer.
    best = [m for m, t in tps_by_method.items()
            if all(min(t) > max(o) for k, o in tps_by_method.items() if k != m)]
    pg_says = best[0] if best else "fdatasync"
    print(f"{'  PostgreSQL: clearly fastest over the rounds':44} {n:3d} "
          f"{best[0] if best else 'none (the default stays)'}; tps " + ", ".join(
              f"{m} {min(t):.0f}-{max(t):.0f}" for m, t in tps_by_method.items()))
    agree = sum(c == pg_says for c in choices)
    print(f"{'wal_sync_method choice = PostgreSQL answer':44} {n:3d} {agree} of {len(choices)}")


def main():
    kind = sys.argv[1]
    if kind == "etcd-rate":  # WAL syncs a second between two scrapes SECS apart
        _, c0, _ = histogram(sys.argv[2], "etcd_disk_wal_fsync_duration_seconds")
        _, c1, _ = histogram(sys.argv[3], "etcd_disk_wal_fsync_duration_seconds")
        print(max(1, min(100000, round((c1 - c0) / max(1, int(sys.argv[4]))))))
        return
    if kind == "etcd-metrics":
        total, count, _ = histogram(sys.argv[2], "etcd_disk_wal_fsync_duration_seconds")
        print(f"{total} {count:.0f}")
        return
    out, rounds = sys.argv[2], int(sys.argv[3])
    verbose = "--verbose" in sys.argv[4:]
    print(f"{'comparison':44} rnd median [min-max] of paired ratios (or agreements)")
    (etcd_table if kind == "etcd" else pg_table)(out, rounds, verbose)


main()
