"""Whether each repeated run's between-run range holds the other runs' medians (issue 34's
done-when for --repeat): reads reports written by `durprobe probe PATH --repeat N --json FILE`,
takes one probe's p50 (or --figure p99_ns, ops_per_sec) from probes[].repeats, and prints per
report its median, min-max and next-run interval (the range the console prints), and how many of
the other reports' medians lie inside each; then, where
the reports found the device in two states (targets[].states), that probe's p50 per state in each
report and the spread of each state's p50 over the reports, and, from runs with --repeat, whether
each state's own range between repeats holds the other reports' medians of that state.
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
held_all = next_held_all = next_given = 0
for i, (name, s) in enumerate(zip(args, spreads)):
    others = [o["median"] for j, o in enumerate(spreads) if j != i]
    inside = sum(s["min"] <= m <= s["max"] for m in others)
    held_all += inside == len(others)
    line = (f"{name}: {figure} {show(s['median'])} (least-greatest {show(s['min'])}-"
            f"{show(s['max'])}, n={s['n']}) holds {inside} of the {len(others)} other medians")
    nxt = s.get("next_run")
    if nxt:
        next_given += 1
        inside = sum(nxt["low"] <= m <= nxt["high"] for m in others)
        next_held_all += inside == len(others)
        line += f"; next run {show(nxt['low'])}-{show(nxt['high'])} holds {inside}"
    print(line)
print(f"{held_all} of {len(args)} least-greatest ranges hold every other run's median")
print(f"{next_held_all} of {next_given} next-run intervals (the console's brackets) hold every "
      f"other run's median")


# The same probe per device state (probes[].states), where the device showed two.
def states(name):
    report = json.load(open(name))
    for p in report["targets"][0]["probes"]:
        if (p["primitive"], p["pattern"], str(p["write_size"])) == (primitive, pattern, size):
            return {s["state"]: s for s in p.get("states", [])}
    return {}


per_state = {"fast": [], "slow": []}
ranges = {"fast": [], "slow": []}  # (report, {median, min, max, n}) per state, with --repeat
for name in args:
    found = states(name)
    if not found:
        print(f"{name}: no device states")
        continue
    print(f"{name}: " + "; ".join(
        f"{st} p50 {s['p50_ns'] / 1e3:.0f} us over {s['ops']} ops ({s['time_share']:.0%} of its time)"
        + (f", {s['repeats']['p50_ns']['min'] / 1e3:.0f}-{s['repeats']['p50_ns']['max'] / 1e3:.0f} us"
           f" over {s['repeats']['p50_ns']['n']} repeats" if s.get("repeats") else "")
        for st, s in sorted(found.items())))
    for st, s in found.items():
        per_state[st].append(s["p50_ns"])
        if s.get("repeats"):
            ranges[st].append((name, s["repeats"]["p50_ns"]))
for st, values in per_state.items():
    if values:
        print(f"{st} state p50 over {len(values)} reports: {min(values) / 1e3:.0f}-"
              f"{max(values) / 1e3:.0f} us ({max(values) / min(values):.2f}x)")
# Each state's own between-run range (probes[].states[].repeats): whether it holds the other
# reports' medians of the same state.
for st, spans in ranges.items():
    if len(spans) < 2:
        continue
    held = 0
    for i, (name, s) in enumerate(spans):
        others = [o["median"] for j, (_, o) in enumerate(spans) if j != i]
        inside = sum(s["min"] <= m <= s["max"] for m in others)
        held += inside == len(others)
        print(f"{name}: {st} state p50 {s['median'] / 1e3:.0f} us ({s['min'] / 1e3:.0f}-"
              f"{s['max'] / 1e3:.0f} us, n={s['n']}); holds {inside} of the {len(others)} other "
              f"{st} medians")
    print(f"{st} state: {held} of {len(spans)} ranges hold every other run's {st} median")
