"""Where a hand's time goes: each phase of the hand engine timed alone (issue 39).

The hand engine's phases are inlined into one compiled loop, so a sampling profiler
sees one function. This benchmark instead plays the same seeded deals on one thread
with the engine stopped after phase ``k`` (the deal dealt and set up; the dark offer
and hand reshuffle; the bidding; the talon and the discard; the contract and
concession; the tricks; the scoring; the output row), for ``k`` = 0, 1, ...; the
difference between consecutive stops is what that phase costs. Each stop is the
median of alternating repeats. A second column plays the same phases with every
decision made by ``first`` (the lowest legal code): what is left is the engine's own
bookkeeping, and the difference is the players' decisions.

Run: ``python benchmarks/profile_phases.py [--deals N] [--players heuristic,strong]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numba
import numpy as np
from numba import njit

from sim.engine.actions import MAX_REDEALS
from sim.engine.driver import (
    H_PLAY_BLOCK,
    after_discard_reshuffle,
    begin_deal,
    bidding,
    concession,
    contract,
    dark_offer,
    deal_hand,
    discard,
    game_row,
    hand_reshuffle,
    hand_seats,
    named_trump,
    talon,
    tricks,
    undarkening,
    workspace,
)
from sim.engine.params import rules_vector
from sim.engine.scoring import score_played
from sim.engine.state import N_ROW
from sim.engine.strategies.addresses import hooks_for
from sim.engine.strategies.registry import seat_lineup, strategy_ids
from sim.rng import Stream, item_state, stream_key
from sim.rules import load_rules

STOPS = (
    "deal and set-up",
    "dark offer, hand reshuffle",
    "bidding",
    "talon, discard, after-discard reshuffle",
    "contract, concession, named trump",
    "tricks",
    "scoring",
    "output row",
)


@njit(cache=True)
def _stop_after(upto, n, keys, P, strategies, SP, scores, W, players, row):
    """Play deals ``0 .. n-1`` (first attempt only) up to stop ``upto``; a checksum."""
    check = 0
    for i in range(n):
        dealer = i % players
        hd = hand_seats(players, dealer, strategies, SP, scores, W)
        deal_hand(keys[0], keys[1], i, players, hd, P, False, W.deck, W.cards, W.masks)
        begin_deal(P, W, W.masks, hd, True, 0, item_state(keys[2], i), item_state(keys[3], i))
        if upto >= 1:
            dark_offer(P, W)
            if hand_reshuffle(P, W):
                continue
            if upto >= 2:
                undark = undarkening(P, W)
                bidding(P, W, undark)
                if upto >= 3:
                    if talon(P, W, W.masks):
                        continue
                    discard(P, W)
                    if after_discard_reshuffle(P, W):
                        continue
                    if upto >= 4:
                        contract(P, W)
                        if concession(P, W):
                            continue
                        named_trump(P, W)
                        if upto >= 5:
                            tricks(P, W)
                            if upto >= 6:
                                score_played(W.S, P, W.out)
                                if upto >= 7:
                                    game_row(P, W, row, dealer, players)
                                    check += row[0]
        check += W.S[0]
    return check


def profile(player: str, deals: int, repeats: int, rules_name: str = "classic") -> list[float]:
    """Nanoseconds per deal at each stop of :data:`STOPS` (medians of ``repeats``)."""
    rules = load_rules(rules_name)
    players = rules.players
    names, sp = seat_lineup(players, (player,), (), None)
    ids = strategy_ids(names)
    hooks = hooks_for(ids, (H_PLAY_BLOCK, "sim.engine.driver", "play_block_entry"))
    W = workspace(sp, ids, hooks)
    keys = np.array(
        [stream_key(1, s) for s in (Stream.DEALS, Stream.CUT, Stream.STRATEGY, Stream.TIEBREAK)],
        dtype=np.uint64,
    )
    P = rules_vector(rules)
    scores = np.zeros(players, dtype=np.int64)
    row = np.zeros(N_ROW, dtype=np.int32)
    args = (keys, P, ids, sp, scores, W, players, row)
    _stop_after(len(STOPS) - 1, 1000, *args)  # compile / load, warm
    times: list[list[float]] = [[] for _ in STOPS]
    for _ in range(repeats):  # alternating: every stop once per round
        for k in range(len(STOPS)):
            t0 = time.perf_counter()
            _stop_after(k, deals, *args)
            times[k].append((time.perf_counter() - t0) / deals * 1e9)
    assert MAX_REDEALS > 0
    return [statistics.median(t) for t in times]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--players", default="first,heuristic,strong")
    args = ap.parse_args()
    numba.set_num_threads(1)
    names = args.players.split(",")
    cum = {p: profile(p, args.deals, args.repeats) for p in names}
    print(f"ns per deal, one thread, {args.deals:,} classic deals, medians of {args.repeats}")
    print(f"{'phase':<44}" + "".join(f"{p:>12}" for p in names))
    for k, stop in enumerate(STOPS):
        cells = "".join(f"{cum[p][k] - (cum[p][k - 1] if k else 0):12.0f}" for p in names)
        print(f"{stop:<44}{cells}")
    print(f"{'whole hand':<44}" + "".join(f"{cum[p][-1]:12.0f}" for p in names))


if __name__ == "__main__":
    main()
