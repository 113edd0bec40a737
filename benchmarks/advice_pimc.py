"""Does the sampling player's advice agree with the default's? (issue 61, item 4): a benchmark.

On ``--hands`` hands (a hand of every class of the tables, the rare ones too, at a seat
drawn for each, then random hands), the default advisor (``strong``: the class tables'
choice unless the hand's own 4,000 deals show it worse) against ``pimc``'s at a large
budget (``--samples`` deals, every one played: ``--budget 0``). Both play every choice
out (pass, or bid up to each level), ``pimc`` at every seat for its own. Agreement: the
same pass or bid, and the level within one bid step; beside it, whether the default's
level lies within ``pimc``'s as-good range (its interval). ``pimc``'s own choice is its
sampled one (``sampled_best``): its final answer keeps the tables' level unless its
deals show it worse, which on a hundred deals they seldom can.

    python benchmarks/advice_pimc.py [--hands 300] [--samples 96] [--seed 41]

Writes ``benchmarks/results_advice_pimc.json`` (every hand) and prints the shares and
every disagreement.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

OUT = Path(__file__).with_name("results_advice_pimc.json")
SEATS = ("forehand", "middle", "dealer")


def hands_to_ask(n: int, seed: int) -> list[tuple[int, str]]:
    from sim.runs.classes import class_hands

    rng = np.random.default_rng(seed)
    out = [(int(m[rng.integers(len(m))]), SEATS[int(rng.integers(3))])
           for m in class_hands(7).values()]  # fmt: skip
    while len(out) < n:
        out.append((sum(1 << int(c) for c in rng.choice(24, 7, replace=False)),
                    SEATS[int(rng.integers(3))]))  # fmt: skip
    return out[:n]


def answer(rules, hand: int, seat: str, player: str, samples: int | None) -> dict:
    from sim.cards import cards_str
    from sim.jobs.advise import AdviseSpec, advise

    text = cards_str([c for c in range(24) if hand >> c & 1])
    doc = advise(AdviseSpec(rules=rules, hand=text, seat=seat, player=player, samples=samples,
                            budget=0.0)).json()  # fmt: skip
    return {
        "hand": text, "seat": seat, "class": doc["table"]["class"], "best": doc["best"],
        "low": doc["best_low"], "high": doc["best_high"], "sampled": doc["sampled_best"],
        "table": doc["table"]["best"], "samples": doc["samples"],
    }  # fmt: skip


def agree(a: int, b: int, step: int) -> bool:
    """The same pass or bid, and the level within one step."""
    return (a == 0) == (b == 0) and abs(a - b) <= step


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=300)
    p.add_argument("--samples", type=int, default=96, help="pimc's deals a hand (default 96)")
    p.add_argument("--seed", type=int, default=41)
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args()
    from sim.rules import load_rules

    rules = load_rules("classic")
    step = rules.bid.step
    rows = []
    t0 = time.perf_counter()
    for k, (hand, seat) in enumerate(hands_to_ask(args.hands, args.seed)):
        default = answer(rules, hand, seat, "strong", None)
        pimc = answer(rules, hand, seat, "pimc", args.samples)
        rows.append({
            "default": default, "pimc": pimc,
            "agree_final": agree(default["best"], pimc["best"], step),
            "agree_sampled": agree(default["best"], pimc["sampled"], step),
            "within_pimc": pimc["low"] <= default["best"] <= pimc["high"],
        })  # fmt: skip
        if (k + 1) % 25 == 0:
            print(f"{k + 1} hands, {time.perf_counter() - t0:.0f} s", flush=True)
            args.out.write_text(json.dumps(rows, ensure_ascii=False, indent=1) + "\n")
    args.out.write_text(json.dumps(rows, ensure_ascii=False, indent=1) + "\n")
    n = len(rows)
    for key in ("agree_final", "agree_sampled", "within_pimc"):
        k = sum(r[key] for r in rows)
        print(f"{key}: {k} of {n} ({k / n:.1%})")
    print("\n| hand | seat | class | default (its range) | pimc's own (its range) |")
    print("| --- | --- | --- | --- | --- |")
    for r in rows:
        if r["agree_sampled"]:
            continue
        d, q = r["default"], r["pimc"]
        print(f"| {d['hand']} | {d['seat']} | {d['class']} | {d['best']} ({d['low']}-{d['high']}) "
              f"| {q['sampled']} ({q['low']}-{q['high']}) |")  # fmt: skip
    print(f"\n{time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
