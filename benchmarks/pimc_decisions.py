"""Where the sampling player's time goes: milliseconds and solver nodes per decision.

Classic deals bid and played by ``heuristic`` (``--deals N``, seed ``--seed``); at every
card-play, discard, contract and concession decision of those deals, ``pimc`` (its
defaults, or the settings of ``--param``, one core) decides from the same state, as its
entry decides (the learned contract with ``pimc.contract=1``, the fitted discard with
``pimc.discard=2``), and the time and the solver's nodes are tallied by kind: the
discard, the contract, the concession, card play by trick and by seat (declarer or
defender). The first decision of each kind is made once before the clock (compiling or
loading the code). Used to choose where the solver and the player are made faster
(issue notes quote it); ``make bench`` times whole runs instead.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict

import numpy as np

from sim.engine.actions import DECLARE, Decision
from sim.engine.arena import arena_size
from sim.engine.params import rules_vector
from sim.engine.search import M_NODES, solver_view
from sim.engine.state import (
    N_STATE,
    S_DECL,
    S_TRICK_NO,
    SNAP_KIND,
    SNAP_LEGAL,
    SNAP_N,
    SNAP_SEAT,
)
from sim.engine.strategies.learned import NOT_FITTED, learned_concede, learned_contract
from sim.engine.strategies.pimc import pimc_concede, pimc_contract, pimc_give, pimc_play
from sim.engine.strategies.registry import CONTRACT_BY, parse_params
from sim.rules import load_rules
from training.snapshots import snapshots


def decide(snap, P, params, arena) -> None:
    """``pimc``'s decision at a snapshot (on a copy of its state)."""
    S = snap[:N_STATE].copy()
    kind, seat, n = int(snap[SNAP_KIND]), int(snap[SNAP_SEAT]), int(snap[SNAP_N])
    legal = snap[SNAP_LEGAL : SNAP_LEGAL + n]
    if kind == Decision.PLAY:
        plain = sum(1 << int(c) for c in legal if c < DECLARE)
        declaring = sum(1 << int(c - DECLARE) for c in legal if c >= DECLARE)
        pimc_play(seat, S, P, plain, declaring, arena, params)
    elif kind == Decision.DISCARD:
        pimc_give(S, P, arena, params)  # by pimc.discard, as the player gives
    elif kind == Decision.CONTRACT:  # by pimc.contract, as the player's entry decides
        if params[CONTRACT_BY] == 0 or learned_contract(S, P, int(legal[0]), n) == NOT_FITTED:
            pimc_contract(S, P, arena, int(legal[0]), n, params)
    elif params[CONTRACT_BY] == 0 or learned_concede(S, P, 0.0) == NOT_FITTED:
        pimc_concede(S, P, arena, params)


def label(snap) -> str:
    kind = int(snap[SNAP_KIND])
    if kind != Decision.PLAY:
        return Decision(kind).name.lower()
    S = snap[:N_STATE]
    side = "declarer" if int(snap[SNAP_SEAT]) == S[S_DECL] else "defender"
    return f"trick {int(S[S_TRICK_NO]) + 1} {side}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument(
        "--param", action="append", default=[], help="a pimc setting, e.g. pimc.contract=1"
    )
    args = ap.parse_args()
    rules = load_rules("classic")
    P = rules_vector(rules)
    params = parse_params(["pimc"] * 3, args.param)[0]
    arena = np.zeros(arena_size(18), dtype=np.int64)
    C = solver_view(arena)
    warm: set[int] = set()
    tally: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0])
    for snap in snapshots(rules, args.deals, args.seed):
        kind = int(snap[SNAP_KIND])
        if kind not in warm:
            decide(snap, P, params, arena)
            warm.add(kind)
        nodes = int(C.meta[M_NODES])
        t = time.perf_counter()
        decide(snap, P, params, arena)
        row = tally[label(snap)]
        row[0] += 1
        row[1] += time.perf_counter() - t
        row[2] += int(C.meta[M_NODES]) - nodes
    total = sum(r[1] for r in tally.values())
    print(f"pimc decisions of {args.deals} classic deals (heuristic bids), seed {args.seed}")
    for name, (n, secs, nodes) in sorted(tally.items(), key=lambda kv: -kv[1][1]):
        print(
            f"{name:<20} {n:4d} decisions  {1e3 * secs / n:8.1f} ms each  "
            f"{100 * secs / total:4.0f} %  {nodes / n:10.0f} nodes each"
        )
    print(f"{'all':<20} {sum(r[0] for r in tally.values()):4d} decisions  {total:8.2f} s")


if __name__ == "__main__":
    main()
