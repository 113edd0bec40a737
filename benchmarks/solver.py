"""`make bench` (solver part): open-card solve and probe times per core, and the check.

Positions: the play positions of classic deals the `heuristic` players bid and
discarded (seed 0, the first N played deals; conceded ones included, as played), each
solved exactly (``value``) and probed against its contract (``probe``), on one core
after a warm-up. Also random 8-card deals (the declarer leading, no trump yet).
Printed: median, 90th and 99th percentile and mean in milliseconds, nodes per solve.

The par of a deal (every talon pick, discard and trump the declarer could choose,
each solved: ``--par N`` of the same played deals, default 100).

Then the sampling player: classic deals per second on one core with one ``pimc``
seat (two ``heuristic``) and with three, default ``worlds`` (``--pimc N`` deals each,
seed 0; the compile is done before the clock starts).

``--check N`` also compares the solver with the unpruned compiled search
(:func:`sim.engine.search.exhaustive`) on N full random deals: seconds for most, but
some deals have millions of trick starts and take minutes (one took 300 s).
``--check-bits B`` caps the unpruned search's memo at 2**B trick starts: a deal that
needs more is counted as skipped, not checked (the default grows the memo until the
deal fits). ``--check-only`` skips the timings; ``--check-from K`` starts at deal K
(to split the check over processes).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from sim.engine import search
from sim.engine.api import play_hands
from sim.engine.bidding import bid_cap
from sim.engine.params import rules_vector
from sim.rules import Rules, load_rules
from sim.solver.deals import deal_cards
from sim.solver.position import OpenCardSolver, Position, play_state
from sim.solver.talon import par_summary, solve_par

OUT = Path(__file__).with_name("results_solver.json")


def _stats(ms: list[float]) -> dict[str, float]:
    a = np.array(ms)
    return {
        "median_ms": float(np.median(a)),
        "p90_ms": float(np.percentile(a, 90)),
        "p99_ms": float(np.percentile(a, 99)),
        "mean_ms": float(a.mean()),
        "n": len(a),
    }


def timed(positions: list[tuple], solver: OpenCardSolver) -> dict[str, dict[str, float]]:
    value_ms, probe_ms, nodes = [], [], []
    for S, P, target in positions:
        n0 = solver.nodes
        t = time.perf_counter()
        solver.value(S, P)
        value_ms.append((time.perf_counter() - t) * 1e3)
        nodes.append(solver.nodes - n0)
        t = time.perf_counter()
        solver.probe(S, P, target)
        probe_ms.append((time.perf_counter() - t) * 1e3)
    return {
        "value": _stats(value_ms),
        "probe": _stats(probe_ms),
        "nodes": {"median": float(np.median(nodes)), "mean": float(np.mean(nodes))},
    }


def par_times(
    rules: Rules, deals: list, solver: OpenCardSolver
) -> tuple[dict[str, float], dict[str, float]]:
    """Milliseconds to solve each deal's par: the whole of it (:func:`sim.solver.talon.
    solve_par`, every bid cap's best discard), and the two numbers the safe-bid tables
    keep (:func:`sim.solver.talon.par_summary`), deal by deal alternately."""
    P = rules_vector(rules)
    full, summary = [], []
    for d in deals:
        t = time.perf_counter()
        solve_par(rules, d.hands, d.talons, d.declarer, solver)
        full.append((time.perf_counter() - t) * 1e3)
        cap = int(bid_cap(d.hands[d.declarer], P))
        t = time.perf_counter()
        par_summary(rules, d.hands, d.talons, d.declarer, cap, solver)
        summary.append((time.perf_counter() - t) * 1e3)
    return _stats(full), _stats(summary)


def pimc_rates(rules: Rules, deals: int) -> dict[str, float]:
    """Deals per second on one core: one ``pimc`` seat, then three."""
    from sim.parallel import set_threads

    set_threads(1)  # a sampling player's deals are spread over the threads in blocks of 8
    out = {}
    for name, seats in (
        ("one seat (A,heuristic x2)", ("pimc", "heuristic", "heuristic")),
        ("three seats", ("pimc",) * 3),
    ):
        play_hands(rules, 2, 99, seats)  # compile / load
        t = time.perf_counter()
        play_hands(rules, deals, 0, seats)
        out[name] = deals / (time.perf_counter() - t)
    return out


def check(solver: OpenCardSolver, deals: list, args: argparse.Namespace) -> dict:
    """The solver's exact value against the unpruned search's, deal by deal."""
    bad = skipped = 0
    t = time.perf_counter()
    for i, (S, P, _) in enumerate(deals, args.check_from):
        bits = args.check_bits or 23
        t0 = time.perf_counter()
        while True:  # a few deals have more trick starts than 2**23: a bigger memo
            memo_keys = np.zeros((1 << bits, 4), dtype=np.int64)
            memo_vals = np.zeros(1 << bits, dtype=np.int64)
            try:
                want = search.exhaustive(solver.ws, P, S, memo_keys, memo_vals)
                break
            except MemoryError:
                if args.check_bits:
                    want = None
                    break
                bits += 1
        if want is None:
            skipped += 1
            verdict = "skipped (memo full)"
        else:
            got = solver.value(S, P)
            bad += got != want
            verdict = f"{want} {'ok' if got == want else f'MISMATCH solver {got}'}"
        print(f"deal {i}: {verdict}  {time.perf_counter() - t0:.1f} s", flush=True)
    out = {
        "deals": len(deals),
        "checked": len(deals) - skipped,
        "skipped": skipped,
        "mismatches": bad,
        "seconds": time.perf_counter() - t,
    }
    print(
        f"check against the unpruned search: {out['checked']} full deals checked, "
        f"{skipped} skipped, {bad} mismatches"
    )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--check", type=int, default=0, metavar="N")
    ap.add_argument("--pimc", type=int, default=100, metavar="N")
    ap.add_argument("--par", type=int, default=100, metavar="N")
    ap.add_argument("--check-bits", type=int, default=0, metavar="B")
    ap.add_argument("--check-from", type=int, default=0, metavar="K")
    ap.add_argument("--check-only", action="store_true")
    args = ap.parse_args()
    rules = load_rules("classic")
    solver = OpenCardSolver()
    batch = play_hands(rules, args.deals, 0, trace=True)
    played = []
    cards = deal_cards(batch)
    for d in cards:
        S, P = play_state(d.played_position(), rules)
        played.append((S, P, rules.least_total_making(d.contract)))
    rng = np.random.default_rng(0)
    random_deals = []
    for _ in range(max(args.deals, args.check_from + args.check)):
        deck = rng.permutation(24)
        hands = tuple(sum(1 << int(c) for c in deck[i * 8 : (i + 1) * 8]) for i in range(3))
        S, P = play_state(Position(hands), rules)
        random_deals.append((S, P, 60))
    to_check = random_deals[args.check_from : args.check_from + args.check]
    if args.check_only:
        out = check(solver, to_check, args)
        print(json.dumps(out))
        return
    timed(played[:5], solver)  # compile
    doc = {
        "heuristic_deals": timed(played, solver),
        "random_deals": timed(random_deals, solver),
    }
    for name, part in doc.items():
        for kind in ("value", "probe"):
            s = part[kind]
            print(
                f"{name:<16} {kind:<6} median {s['median_ms']:7.3f} ms  p90 {s['p90_ms']:7.2f}"
                f"  p99 {s['p99_ms']:7.2f}  mean {s['mean_ms']:6.2f}  (n={s['n']})"
            )
        print(f"{name:<16} nodes per exact solve: median {part['nodes']['median']:.0f}")
    if args.par:
        par_times(rules, cards[:2], solver)  # compile
        doc["par"], doc["par_summary"] = par_times(rules, cards[: args.par], solver)
        for label, key in (("par of a deal", "par"), ("its best and level", "par_summary")):
            s = doc[key]
            print(
                f"{label:<23} median {s['median_ms']:7.3f} ms  p90 {s['p90_ms']:7.2f}"
                f"  p99 {s['p99_ms']:7.2f}  mean {s['mean_ms']:6.2f}  (n={s['n']})"
            )
    if args.pimc:
        doc["pimc"] = pimc_rates(rules, args.pimc)
        for name, rate in doc["pimc"].items():
            print(f"pimc {name:<24} {rate:6.1f} deals/s per core")
    if args.check:
        doc["check"] = check(solver, to_check, args)
    OUT.write_text(json.dumps(doc, indent=2) + "\n")
    print(f"saved {OUT}")


if __name__ == "__main__":
    main()
