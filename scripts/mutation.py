#!/usr/bin/env python3
"""Mutation run: each small plausible bug in scripts/mutations.txt is applied alone, the tree is
rebuilt, the tests are run, and the mutants no test fails (survivors) are printed with the score.

  python3 scripts/mutation.py [--build build] [--integration] [--only N,M] [--tests REGEX]
                              [--list]

The unit set runs by default (seconds per mutant after the rebuild); --integration adds the
integration set (minutes per mutant). The source is restored after each mutant, also on Ctrl-C.
A mutation whose text is not found exactly once is reported as stale, not counted.
"""
import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(path):
    mutants, block = [], {}
    with open(path) as f:
        lines = f.read().split("\n") + [""]
    for number, line in enumerate(lines, 1):
        if line.startswith("#"):
            continue
        if not line.strip():
            if block:
                if set(block) != {"file", "old", "new", "effect"}:
                    sys.exit(f"{path}:{number}: a block needs file, old, new and effect")
                mutants.append(block)
            block = {}
            continue
        key, _, value = line.partition(": ")
        block[key] = value.replace("\\n", "\n")
    return mutants


def run(cmd, cwd):
    done = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return done.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--integration", action="store_true", help="also run the integration set")
    ap.add_argument("--only", default="", help="comma-separated mutant numbers (1-based)")
    ap.add_argument("--list", action="store_true", help="print the mutants and exit")
    ap.add_argument("--jobs", default="2")
    ap.add_argument("--tests", default="", help="run only the ctest tests matching this regex "
                    "(with --integration, both sets' binaries are rebuilt)")
    args = ap.parse_args()
    mutants = load(os.path.join(ROOT, "scripts", "mutations.txt"))
    if args.list:
        for i, m in enumerate(mutants, 1):
            print(f"{i:3} {m['file']}: {m['effect']}")
        return 0
    chosen = {int(n) for n in args.only.split(",") if n} or set(range(1, len(mutants) + 1))
    labels = ["unit", "integration"] if args.integration else ["unit"]
    # Only what the chosen sets run is rebuilt: the unit set needs no binary or fault layer.
    targets = ["durprobe_unit_tests"]
    if args.integration:
        targets += ["durprobe", "durprobe_integration_tests", "durprobe_faultlib"]
    build = ["cmake", "--build", args.build, "-j", args.jobs, "--target"] + targets
    killed, survived, stale = [], [], []
    for i, m in enumerate(mutants, 1):
        if i not in chosen:
            continue
        path = os.path.join(ROOT, m["file"])
        original = open(path).read()
        if original.count(m["old"]) != 1:
            stale.append((i, m))
            print(f"[{i}] stale: text not found once in {m['file']}", flush=True)
            continue
        try:
            with open(path, "w") as f:
                f.write(original.replace(m["old"], m["new"]))
            if run(build, ROOT) != 0:
                killed.append((i, m, "build"))  # a mutant that does not compile is no survivor
                print(f"[{i}] killed (does not build): {m['effect']}", flush=True)
                continue
            caught_by = None
            chosen_run = ["ctest", "-R", args.tests, "-j", args.jobs, "--timeout", "300"]
            if args.tests and run(chosen_run, args.build):
                caught_by = "chosen"
            for label in [] if args.tests else labels:
                if run(["ctest", "-L", label, "-j", args.jobs, "--timeout", "300"], args.build):
                    caught_by = label
                    break
            if caught_by:
                killed.append((i, m, caught_by))
                print(f"[{i}] killed by the {caught_by} tests: {m['effect']}", flush=True)
            else:
                survived.append((i, m))
                print(f"[{i}] SURVIVED: {m['effect']}", flush=True)
        finally:
            with open(path, "w") as f:
                f.write(original)
    run(["cmake", "--build", args.build, "-j", args.jobs], ROOT)  # back to the real tree
    counted = len(killed) + len(survived)
    scope = f"tests matching {args.tests}" if args.tests else "+".join(labels)
    print(f"\nscore ({scope}): {len(killed)} of {counted} mutants killed"
          + (f"; {len(stale)} stale" if stale else ""))
    for i, m in survived:
        print(f"  survivor {i}: {m['file']}: {m['effect']}")
    return 1 if survived or stale else 0


if __name__ == "__main__":
    sys.exit(main())
