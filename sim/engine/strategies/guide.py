"""The ``guide`` strategy: bids and concedes only by the strategy guide's tables.

``thousand guide`` writes a guide for a rules set: a bid chart (for each hand class
below, the level to bid up to: the advisor's class tables' choice of the best margin,
their plans pooled over the class's hands and the seats,
:func:`analysis.guide.pooled_choices`) and a concession table (the highest contract
at which playing is expected to score more than conceding, by the marriages kept).
This player follows those two tables and nothing else when it bids, names its
contract and concedes, so that a duplicate duel against the player whose play the
guide measured (``strong``) checks the guide's advice by playing it. Everything else
is ``strong``'s (its fitted card play and discard; reshuffle demands and dark play the
heuristic's), with the heuristic's parameters in the same slots.

Hand classes, as a player counts them on the 7 dealt cards (10 with two players):
the marriage (none, ♠, ♣, ♦, ♥ alone, or two or more) and the aces (0, 1, 2 or more).
The concession table's classes are the marriages kept after the discard.

Parameters (``--param guide.NAME=VALUE``; the defaults are an earlier classic guide's,
the safe bid at 0.75 of each class; ``thousand guide --rules classic`` prints the
current guide's):

* ``bid_<marriage>_<aces>``: raise to a level only when it is at most this
  (``marriage`` one of ``none, spades, clubs, diamonds, hearts, two``; ``aces`` 0, 1,
  2); 0 never raises.
* ``concede_above_<marriage>``: concede a contract above this (0: always concede,
  a large number: never).

It names the winning bid as its contract (on the barrel at least what wins there),
and never concedes on the barrel.
"""

from __future__ import annotations

import numpy as np
from numba import carray

from sim.engine.actions import PASS, Decision
from sim.engine.bidding import on_barrel
from sim.engine.bits import KQ
from sim.engine.params import N_PARAMS
from sim.engine.state import N_STATE, S_CONTRACT, S_HAND0
from sim.engine.strategies.barrel import barrel_contract, barrel_raise
from sim.engine.strategies.hook import MASKS, N_LEGAL, RANGE, f64_ptr, i64_ptr
from sim.engine.strategies.registry import N_STRATEGY_PARAMS
from sim.engine.strategies.strong import strong_choose, strong_play
from sim.jit import hot, hot_call

MARRIAGE_CLASSES = ("none", "spades", "clubs", "diamonds", "hearts", "two")
ACE_CLASSES = (0, 1, 2)
N_HEURISTIC = 6  # the heuristic's parameters come first (the same slots)
BID0 = N_HEURISTIC  # guide.bid_<marriage>_<aces>: BID0 + 3 * marriage + aces
CONCEDE0 = BID0 + len(MARRIAGE_CLASSES) * len(ACE_CLASSES)  # guide.concede_above_<marriage>
N_GUIDE = CONCEDE0 + len(MARRIAGE_CLASSES)


@hot
def marriage_class(hand: int) -> int:
    """0 none, 1 + suit (♠ ♣ ♦ ♥) for one marriage, 5 for two or more."""
    found = -1
    count = 0
    for s in range(4):
        if hand & KQ[s] == KQ[s]:
            count += 1
            found = s
    if count == 0:
        return 0
    return 5 if count > 1 else 1 + found


@hot
def ace_class(hand: int) -> int:
    """Aces held, 2 for two or more."""
    aces = 0
    for s in range(4):
        aces += hand >> (6 * s + 5) & 1
    return min(aces, 2)


@hot
def _bid(seat: int, S: np.ndarray, P: np.ndarray, lo: int, count: int, params: np.ndarray) -> int:
    if count == 0:
        return PASS
    hand = S[S_HAND0 + seat]
    if barrel_raise(seat, S, P, lo):
        return lo
    limit = params[BID0 + 3 * marriage_class(hand) + ace_class(hand)]
    return lo if lo <= limit else PASS


@hot
def _contract(seat: int, S: np.ndarray, P: np.ndarray, lo: int, count: int) -> int:
    return barrel_contract(seat, S, P, lo, count) or lo


@hot_call
def guide_range(
    kind: int,
    seat: int,
    S: np.ndarray,
    P: np.ndarray,
    lo: int,
    count: int,
    params: np.ndarray,
) -> int:
    """The guide player's BID or CONTRACT: amounts ``lo, lo + step, ...`` (``count``)."""
    if kind == Decision.BID:
        return _bid(seat, S, P, lo, count, params)
    return _contract(seat, S, P, lo, count)


@hot_call
def guide_choose(
    kind: int,
    seat: int,
    S: np.ndarray,
    P: np.ndarray,
    legal: np.ndarray,
    n: int,
    params: np.ndarray,
    tiebreak: np.uint64,
) -> int:
    """The guide player's action for one decision (``legal[:n]`` ascending)."""
    if kind == Decision.BID:
        return _bid(seat, S, P, legal[1], n - 1, params)
    if kind == Decision.CONTRACT:
        return _contract(seat, S, P, legal[0], n)
    if kind == Decision.CONCEDE:
        if on_barrel(S, seat):
            return 0
        kept = marriage_class(S[S_HAND0 + seat])
        return int(S[S_CONTRACT] > params[CONCEDE0 + kept])
    return strong_choose(kind, seat, S, P, legal, n, params, tiebreak)


__all__ = [
    "ACE_CLASSES",
    "MARRIAGE_CLASSES",
    "ace_class",
    "guide_choose",
    "guide_range",
    "marriage_class",
]


def guide_entry(  # type: ignore[no-untyped-def]
    kind, seat, s_addr, p_addr, legal_addr, arena_addr, arena_len, sp_addr, form, a, b, c, tiebreak
):
    """The guide player's decisions behind the players' C signature (:mod:`.hook`).

    Compiled as a callback by :mod:`sim.engine.strategies.addresses`; ``choose`` calls it.
    """
    S = carray(i64_ptr(s_addr), (N_STATE,))
    P = carray(i64_ptr(p_addr), (N_PARAMS,))
    params = carray(f64_ptr(sp_addr), (N_STRATEGY_PARAMS,))
    if form == MASKS:
        return strong_play(seat, S, P, a, b)
    if form == RANGE:
        return guide_range(kind, seat, S, P, b, c, params)
    legal = carray(i64_ptr(legal_addr), (N_LEGAL,))
    return guide_choose(kind, seat, S, P, legal, a, params, np.uint64(tiebreak))
