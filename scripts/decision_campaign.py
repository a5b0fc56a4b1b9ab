"""Judges the decision campaign's runs (scripts/decision-campaign.sh): each answer right, "cannot
tell", or wrong, from the JSON each command wrote; one line per answer, then the tally.
usage: decision_campaign.py RUNS_DIR   (RUNS_DIR/{quiet,neighbour}-N/*.json)"""
import json
import pathlib
import sys

RIGHT, OPEN, WRONG, MISSING = "right", "cannot tell", "WRONG", "no answer"


def load(path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def verdict_for(doc, suffix):
    for v in (doc or {}).get("verdicts", []):
        if v.get("path", "").endswith(suffix):
            return v
    return None


def bind_penalty(d):
    """compare --quick --no-sqlite ext4 bind overlay: a bind mount of the same filesystem has no
    penalty; a penalty claimed for it is wrong."""
    v = verdict_for(load(d / "compare3.json"), "/bind")
    if v is None:
        return MISSING, "no verdict for bind"
    dom = v.get("dominant")
    if dom == "none":
        return RIGHT, "bind: none"
    if dom == "undecided":
        return OPEN, "bind: undecided"
    return WRONG, f"bind: {dom} ({v.get('ratio')})"


def diff_cause(d):
    """diff of ext4 and bindfs reports: the leading cause is fuse, never drift."""
    doc = load(d / "diff.json")
    if doc is None:
        return MISSING, "no diff"
    causes = doc.get("causes", [])
    if not causes:
        return OPEN, "no cause ranked"
    lead = causes[0].get("key")
    if lead == "fuse":
        return RIGHT, "leads with fuse"
    return WRONG, f"leads with {lead} ({causes[0].get('score')})"


def check_status(d):
    """check --preset etcd --quick: the gate's verdict (judged across runs for flips)."""
    doc = load(d / "check.json")
    if doc is None:
        return MISSING, "no check"
    statuses = [c.get("status") for c in doc.get("checks", [])]
    if "error" in statuses:
        return MISSING, "error"
    if "fail" in statuses:
        return "FAIL", "fail"
    if "unstable" in statuses:
        return "UNSTABLE", "unstable"
    return "PASS", "pass"


def tmpfs_drift(d):
    """compare /var/tmp /dev/shm --quick: drift never leads (a disk's reference probe is not
    comparable with tmpfs's)."""
    v = verdict_for(load(d / "tmpfs.json"), "/dev/shm")
    if v is None:
        return MISSING, "no verdict"
    causes = v.get("causes", [])
    lead = causes[0].get("key") if causes else None
    if lead == "drift":
        return WRONG, "drift leads"
    if any(c.get("key") == "drift" for c in causes):
        return WRONG, f"drift ranked ({lead} leads)"
    return RIGHT, f"{lead} leads, no drift"


def bindfs_words(d):
    """compare ext4 bindfs --quick: never "keeps nothing" (bindfs syncs file data), never
    "faster" unless its commits are."""
    v = verdict_for(load(d / "bindfs-compare.json"), "/bindfs")
    if v is None:
        return MISSING, "no verdict"
    message = v.get("message", "")
    if "keeps nothing" in message:
        return WRONG, "says keeps nothing"
    if v.get("dominant") == "undecided":
        return OPEN, "undecided"
    return RIGHT, f"{v.get('dominant')} ({v.get('ratio')})"


def drop_verdict(d):
    """probe --quick on a FUSE server that drops every sync: not_durable."""
    doc = load(d / "drop.json")
    if doc is None or not doc.get("targets"):
        return MISSING, "no report"
    verdict = (doc["targets"][0].get("durability") or {}).get("verdict")
    if verdict == "not_durable":
        return RIGHT, "not_durable"
    if verdict == "unproven":
        return OPEN, "unproven"
    return WRONG, str(verdict)


def run_headline(d):
    """run --quick: where the device alternated, the summary gives the slow state."""
    doc = load(d / "ext4.json")
    if doc is None or not doc.get("targets"):
        return MISSING, "no report"
    t = doc["targets"][0]
    sync = (t.get("summary") or {}).get("sync") or {}
    if not t.get("states"):
        return RIGHT, "one state"
    if sync.get("slow_state"):
        return RIGHT, "slow state given"
    return WRONG, "two states, headline without the slow state"


JUDGES = [("compare bind", bind_penalty), ("diff ext4/bindfs", diff_cause),
          ("check etcd", check_status), ("compare tmpfs", tmpfs_drift),
          ("compare bindfs words", bindfs_words), ("probe dropper", drop_verdict),
          ("run headline", run_headline)]


def main(runs):
    tally = {}
    gate = {}
    for d in sorted(pathlib.Path(runs).iterdir()):
        if not d.is_dir():
            continue
        condition = d.name.rsplit("-", 1)[0]
        for name, judge in JUDGES:
            outcome, why = judge(d)
            if name == "check etcd":
                gate.setdefault(condition, []).append(outcome)
                print(f"{d.name:14} {name:22} {outcome:12} {why}")
                continue
            tally.setdefault((name, condition), {}).setdefault(outcome, 0)
            tally[(name, condition)][outcome] += 1
            print(f"{d.name:14} {name:22} {outcome:12} {why}")
    print()
    for (name, condition), counts in sorted(tally.items()):
        print(f"{name:22} {condition:10} " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    for condition, outcomes in sorted(gate.items()):
        flips = "PASS" in outcomes and "FAIL" in outcomes
        print(f"{'check etcd':22} {condition:10} " + " ".join(outcomes) +
              ("  (WRONG: flips between PASS and FAIL)" if flips else "  (no flip)"))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
