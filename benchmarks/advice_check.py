"""The advisor's verdicts checked by playing them (issue 61, item 4): a benchmark, not a test.

For hands of chosen classes dealt on purpose (monsters, three marriages, four aces,
borderline hands) at every seat, with and without an auction so far and a game score,
the advisor's verdict (the choice it gives: pass, or bid up to a level) is played on
**fresh deals it never saw** (another seed), each deal twice or more on the same cards:
the seat following the verdict, and the seat following each rejected choice (passing
instead of bidding, the next level up and down, the make-rate answer). Every other seat
and decision is the table's player's (``strong``), each declarer that went down
conceding where that cost it less: the table the advisor assumes
(:func:`analysis.choices.conceding_columns`); and again at two other tables:

* *as played*: the same deals as ``strong`` plays them, every lost contract played out;
* *heuristic*: the other seats played by ``heuristic`` (which concedes by its own
  estimate of what the defenders take), the seat itself by ``strong``.

It reports, per case, the verdict's mean margin a deal (with a score: its chance to win
the game after the deal, from the equity table) and its paired difference from each
alternative with a 95 % interval, and flags a verdict that loses to an alternative
beyond those intervals: the paired interval below 0, and by more than the verdict's own
95 % interval (within it, the rule counts a choice as good as the best). Class cases
take the class tables' verdict (what every page shows); auction and score cases the
command's own answer for one hand of the class.

    python benchmarks/advice_check.py [--deals 4000] [--seed 7] [--out FILE]

Writes ``benchmarks/results_advice_check.json`` and prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = Path(__file__).with_name("results_advice_check.json")
Z95 = 1.959963984540054

# (marriages bitmask, aces): the classes of the check
CLASSES = {
    "♥ marriage, four aces (a monster)": (8, 4),
    "♣ marriage, four aces": (2, 4),
    "♠ marriage, three aces": (1, 3),
    "no marriage, four aces": (0, 4),
    "♥♦♣ marriages, one ace": (14, 1),
    "♥♦♠ marriages, no ace": (13, 0),
    "♥♣ marriages, two aces": (10, 2),
    "♠ marriage, one ace (borderline)": (1, 1),
    "♦ marriage, one ace (borderline)": (4, 1),
    "♥ marriage, no ace (borderline)": (8, 0),
}
SEATS = ("forehand", "middle", "dealer")
TABLES = ("conceding", "as played", "heuristic")  # the advisor's table first
# (seat, auction so far, score, barrel) for one hand of a class: the command's answer
SITUATIONS = (
    ("dealer", "100 pass", None, False),
    ("dealer", "100 120", None, False),
    ("middle", "100", None, False),
    ("forehand", None, 700, False),
    ("dealer", None, 880, True),
)


def interval(d: np.ndarray) -> tuple[float, float, float]:
    """Mean and its 95 % interval."""
    m = float(d.mean())
    h = Z95 * float(d.std(ddof=1)) / np.sqrt(len(d)) if len(d) > 1 else float("nan")
    return m, m - h, m + h


def alternatives(verdict: int, levels: list[int], safe: int | None) -> list[int]:
    """The choices the verdict rejects: passing (or bidding), one level up and down, the
    make-rate answer."""
    bids = [L for L in levels if L]
    out = {0} if verdict else ({bids[0]} if bids else set())
    if verdict:
        i = bids.index(verdict)
        out |= {bids[j] for j in (i - 1, i + 1) if 0 <= j < len(bids)}
    if safe and safe in bids:
        out.add(safe)
    out.discard(verdict)
    return sorted(out)


def values(rules, plays, levels, seat, table, scores=None, barrel=False):
    """Per plan level and deal, the seat's value at ``table`` (margin, or win chance)."""
    from analysis.choices import conceding_columns
    from sim.jobs.advise import win_chances
    from sim.runs.folder import QUIET
    from sim.runs.plans import plan_columns

    cols = plan_columns(plays, levels)
    if table == "conceding":
        cols = conceding_columns(rules, cols, seat, barrel)
    if scores is None:
        return cols["margin"]
    win, _before = win_chances(rules, cols, scores, seat, barrel, "strong", QUIET)
    return win


def check(rules, masks, seat, verdict, others, seed, prefix=(), scores=None, barrel=False):
    """The verdict against each alternative on ``masks``, at the three tables."""
    from sim.engine.api import seat_flags
    from sim.runs.plans import play_plans

    levels = sorted({0, verdict, *others})
    flags = 0
    if barrel:
        flags = seat_flags(rules, True, [False] * 3, [s == seat for s in range(3)])
    out = {}
    for table in TABLES:
        lineup = ["heuristic"] * 3 if table == "heuristic" else ["strong"] * 3
        lineup[seat] = "strong"
        plays = play_plans(rules, masks, seat, seed, "strong", prefix=prefix,
                           scores=None if scores is None else scores[:3], flags=flags,
                           seat_players=lineup)  # fmt: skip
        v = values(rules, plays, levels, seat, table, scores, barrel)
        base = v[levels.index(verdict)]
        row = {"verdict": interval(base)}
        half = row["verdict"][0] - row["verdict"][1]
        for alt in others:
            row[str(alt)] = interval(base - v[levels.index(alt)])
        # beaten: deal by deal (the paired interval below 0), and by more than the
        # verdict's own interval (the rule's "as good": within the best's interval)
        row["loses"] = [a for a in others if row[str(a)][2] < 0 and -row[str(a)][0] > half]
        out[table] = row
    return out


def class_cases(rules, tables, deals: int, seed: int) -> list[dict]:
    from sim.runs.classes import deal_class

    rows = tables.choices
    out = []
    for name, (marr, aces) in CLASSES.items():
        for seat in range(3):
            cell = tables.verdicts.filter(
                (tables.verdicts["marriages"] == marr) & (tables.verdicts["aces"] == aces)
                & (tables.verdicts["seat"] == seat)
            ).row(0, named=True)  # fmt: skip
            levels = rows.filter(
                (rows["marriages"] == marr) & (rows["aces"] == aces) & (rows["seat"] == seat)
            )["level"].to_list()  # fmt: skip
            made = rows.filter(
                (rows["marriages"] == marr) & (rows["aces"] == aces) & (rows["seat"] == seat)
                & (rows["ci_low"] >= 0.75)
            )["level"].to_list()  # fmt: skip
            safe = max(made) if made else None
            verdict = int(cell["best"])
            others = alternatives(verdict, levels, safe)
            masks = deal_class(rules, marr, aces, seat, deals, seed)
            out.append({"case": name, "seat": SEATS[seat], "auction": None, "score": None,
                        "verdict": verdict, "safe": safe, "source": "class tables",
                        **check(rules, masks, seat, verdict, others, seed)})  # fmt: skip
    return out


def situation_cases(rules, deals: int, seed: int) -> list[dict]:
    from sim.cards import cards_str
    from sim.jobs.advice_tables import bidding_policy
    from sim.jobs.advise import AdviseSpec, advise, game_scores
    from sim.runs.advise import sample_deals
    from sim.runs.classes import class_hands
    from sim.table_text import read_auction

    out = []
    picks = ("♥ marriage, four aces (a monster)", "♥♣ marriages, two aces",
             "♦ marriage, one ace (borderline)")  # fmt: skip
    for name in picks:
        members = class_hands(7)[CLASSES[name]]
        hand = int(members[len(members) // 3])
        for seat_name, auction, score, barrel in SITUATIONS:
            seat = SEATS.index(seat_name)
            text = cards_str([c for c in range(24) if hand >> c & 1])
            spec = AdviseSpec(
                rules=rules, hand=text, seat=seat_name, auction=auction, score=score, barrel=barrel
            )
            try:
                answer = advise(spec).answer
            except Exception as exc:  # an auction this hand cannot meet: say so
                out.append({"case": name, "seat": seat_name, "auction": auction, "score": score,
                            "skipped": str(exc)})  # fmt: skip
                continue
            verdict = 0 if answer.best.level == 0 else answer.best.level
            levels = answer.choices["level"].to_list()
            others = alternatives(verdict, levels, answer.recommended)
            bids, acted, prefix, policy = [], [], [], None
            if auction:
                a = read_auction(rules, auction, 3)
                bids = [(s, b) for s, b in a.highest() if s != seat]
                acted = [x for x in a.acted() if x[0] != seat]
                prefix = [0 if b is None else b for _s, b in a.bids[1:]]
                policy = bidding_policy(rules, "strong") if acted else None
            masks = sample_deals(rules, hand, seat, deals, seed, bids=bids, policy=policy,
                                 acted=acted)  # fmt: skip
            scores = game_scores(rules, spec, seat)
            out.append({"case": name, "seat": seat_name, "auction": auction, "score": score,
                        "barrel": barrel, "hand": spec.hand, "verdict": verdict,
                        "safe": answer.recommended, "source": "the command's answer",
                        **check(rules, masks, seat, verdict, others, seed, prefix, scores,
                                barrel)})  # fmt: skip
    return out


def markdown(rows: list[dict]) -> str:
    head = (
        "| case | seat | auction / score | verdict | table | its value | against (verdict − "
        "alternative) | loses to |\n| --- | --- | --- | --- | --- | --- | --- | --- |"
    )
    lines = [head]
    for r in rows:
        if "skipped" in r:
            continue
        where = r["auction"] or (f"score {r['score']}" if r["score"] is not None else "—")
        if r.get("barrel"):
            where += " (barrel)"
        win = r["score"] is not None
        for table in TABLES:
            t = r[table]
            m, lo, hi = t["verdict"]
            value = (f"{100 * m:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]" if win
                     else f"{m:+.1f} [{lo:+.1f}, {hi:+.1f}]")  # fmt: skip
            parts = []
            for alt, d in t.items():
                if alt in ("verdict", "loses"):
                    continue
                k = 100 if win else 1
                name = "pass" if alt == "0" else alt
                parts.append(f"{name}: {k * d[0]:+.1f} [{k * d[1]:+.1f}, {k * d[2]:+.1f}]")
            loses = ", ".join("pass" if x == 0 else str(x) for x in t["loses"]) or "—"
            verdict = "pass" if r["verdict"] == 0 else f"up to {r['verdict']}"
            lines.append(f"| {r['case']} | {r['seat']} | {where} | {verdict} | {table} | {value} "
                         f"| {'; '.join(parts)} | {loses} |")  # fmt: skip
    return "\n".join(lines)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=4000, help="fresh deals per case (default 4000)")
    p.add_argument("--seed", type=int, default=7, help="their seed (the advisor's is 0, the "
                   "tables' 1000)")  # fmt: skip
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args()
    from sim.jobs.advice_tables import load_tables
    from sim.rules import load_rules

    rules = load_rules("classic")
    t0 = time.perf_counter()
    tables = load_tables(rules, "strong")
    rows = class_cases(rules, tables, args.deals, args.seed)
    rows += situation_cases(rules, args.deals, args.seed)
    args.out.write_text(json.dumps({"deals": args.deals, "seed": args.seed, "rows": rows,
                                    "seconds": time.perf_counter() - t0}, indent=1,
                                   ensure_ascii=False) + "\n")  # fmt: skip
    print(markdown(rows))
    losing = [(r["case"], r["seat"], r.get("auction"), r.get("score"))
              for r in rows if "skipped" not in r and r["conceding"]["loses"]]  # fmt: skip
    print(f"\n{len(rows)} cases, {time.perf_counter() - t0:.0f} s; the verdict loses beyond its "
          f"interval at the table it assumes in {len(losing)}: {losing}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
