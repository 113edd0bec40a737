"""`make bench` (advisor part): how long `thousand advise --auction` takes, warm.

Each case is an auction of issue 38 (item 4: an answer in at most 3 s warm on two
cores, for any legal auction, jump bids included): the README's example (the middle's
160 read as `strong` bids) and jump bids, one seat's and two seats'. Each is timed two
ways, medians of ``--rounds`` rounds after one warm-up round:

* *command*: the whole ``python -m sim advise ... --quiet`` in a child process
  (start-up, imports, loading the compiled code and the cached tables, the answer);
* *job*: :func:`sim.jobs.advise.advise` alone, in a child process that answered the same
  case once before the clock starts.

``--old DIR`` times another checkout (an earlier version: ``git archive COMMIT | tar
-x -C DIR``) alternately with this one, round by round, so that a slow spell of the
machine hits both alike, and prints the ratio of the medians. The compiled code and the
class tables are cached by content and shared, so the old checkout is warm too. The
figures go to ``benchmarks/results_advise.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = Path(__file__).with_name("results_advise.json")
HAND = "AS TS AC TC KD JH 9H"
CASES = {  # name: (seat, auction)
    "readme 100 160 (dealer)": ("dealer", "100 160"),
    "jump 100 120 (dealer)": ("dealer", "100 120"),
    "jump 100 pass 150 (forehand)": ("forehand", "100 pass 150"),
    "jumps 100 120 150 (forehand)": ("forehand", "100 120 150"),
}
# a child process: answers every case once (warm-up), then prints each one's seconds
JOB = """
import json, sys, time
from sim.jobs.advise import AdviseSpec, advise
from sim.rules import load_rules
hand, cases = json.loads(sys.argv[1])
rules = load_rules("classic")
out = {}
for name, (seat, auction) in cases.items():
    spec = AdviseSpec(rules=rules, hand=hand, seat=seat, auction=auction)
    advise(spec)
    t0 = time.perf_counter()
    advise(spec)
    out[name] = time.perf_counter() - t0
print(json.dumps(out))
"""


def command_seconds(tree: Path, seat: str, auction: str) -> float:
    """Wall seconds of one whole ``advise`` command run in ``tree``."""
    args = ["advise", HAND, "--seat", seat, "--auction", auction, "--quiet"]
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sim", *args], cwd=tree, check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    return time.perf_counter() - t0


def job_seconds(tree: Path) -> dict[str, float]:
    """Seconds of each case's job, warm, in one child process run in ``tree``."""
    cases = json.dumps([HAND, CASES])
    done = subprocess.run([sys.executable, "-c", JOB, cases], cwd=tree, check=True,
                          capture_output=True, text=True)  # fmt: skip
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds (medians)")
    parser.add_argument("--old", type=Path, help="another checkout, timed alternately")
    args = parser.parse_args()
    trees = {"new": ROOT} | ({"old": args.old.resolve()} if args.old else {})
    command: dict[str, dict[str, list[float]]] = {t: {c: [] for c in CASES} for t in trees}
    job: dict[str, dict[str, list[float]]] = {t: {c: [] for c in CASES} for t in trees}
    for r in range(args.rounds + 1):  # round 0 warms every cache up and is not counted
        for tree, where in trees.items():
            for case, (seat, auction) in CASES.items():
                seconds = command_seconds(where, seat, auction)
                if r:
                    command[tree][case].append(seconds)
            if r:
                for case, seconds in job_seconds(where).items():
                    job[tree][case].append(seconds)
        print(f"round {r} of {args.rounds} done", file=sys.stderr)
    doc: dict[str, dict[str, float]] = {}
    for case in CASES:
        row = {"rounds": args.rounds}
        for tree in trees:
            row[f"{tree}_command_s"] = statistics.median(command[tree][case])
            row[f"{tree}_job_s"] = statistics.median(job[tree][case])
        line = f"{case:<30} command {row['new_command_s']:5.2f} s  job {row['new_job_s']:5.2f} s"
        if "old" in trees:
            ratio = row["old_command_s"] / row["new_command_s"]
            line += f"  | old: command {row['old_command_s']:5.2f} s  job {row['old_job_s']:5.2f} s"
            line += f"  (command x{ratio:.1f})"
        print(line)
        doc[case] = row
    OUT.write_text(json.dumps(doc, indent=2) + "\n")
    print(f"saved {OUT}")


if __name__ == "__main__":
    main()
