"""Whether each repeated run's between-run range holds the other runs' medians (issue 34's
done-when for --repeat): reads reports written by `durprobe probe PATH --repeat N --json FILE`,
takes one probe's p50 (or --figure p99_ns, ops_per_sec) from probes[].repeats, and prints per
report its median and min-max, and how many of the other reports' medians lie inside.
usage: repeat_ranges.py REPORT.json... [--probe fdatasync,overwrite,4096] [--figure p50_ns]"""
import json
import sys

args = [a for a in sys.argv[1:]]
probe, figure = "fdatasync,overwrite,4096", "p50_ns"
if "--probe" in args:
    i = args.index("--probe")
    probe = args[i + 1]
    del args[i:i + 2]
if "--figure" in args:
    i = args.index("--figure")
    figure = args[i + 1]
    del args[i:i + 2]
primitive, pattern, size = probe.split(",")


def spread(name):
    report = json.load(open(name))
    for p in report["targets"][0]["probes"]:
        if (p["primitive"], p["pattern"], str(p["write_size"])) == (primitive, pattern, size):
            s = (p.get("repeats") or {}).get(figure)
            if s:
                return s
    sys.exit(f"{name}: no {figure} over repeats for {probe}")


def show(v):
    return f"{v / 1e3:.0f} us" if figure.endswith("_ns") else f"{v:,.0f}"


spreads = [spread(name) for name in args]
held_all = 0
for i, (name, s) in enumerate(zip(args, spreads)):
    others = [o["median"] for j, o in enumerate(spreads) if j != i]
    inside = sum(s["min"] <= m <= s["max"] for m in others)
    held_all += inside == len(others)
    print(f"{name}: {figure} {show(s['median'])} ({show(s['min'])}-{show(s['max'])}, "
          f"n={s['n']}); holds {inside} of the {len(others)} other medians")
print(f"{held_all} of {len(args)} ranges hold every other run's median")
