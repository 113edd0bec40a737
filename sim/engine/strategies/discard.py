"""The card a player gives away in the discard: the heuristic's cost of each card.

Shared by ``heuristic`` (its discard) and the sampling player (its candidate gives and
the gives it expects of the others), in a module of its own so that the sampling
player's compiled code does not depend on the rest of the heuristic.
"""

from __future__ import annotations

import numpy as np

from sim.engine.bits import KQ, SUIT_BITS, lowest, popcount
from sim.engine.params import P_MV_S
from sim.engine.strategies.basics import POINTS
from sim.jit import hot

DISCARD_CANDIDATES = 5  # the cards the sampling player (and strong) weigh: the cheapest


@hot
def discard_cost(hand: int, c: int, P: np.ndarray) -> int:
    """How much giving card ``c`` of ``hand`` away costs the heuristic (lowest goes).

    Its points plus three per card of its suit held (a long suit's card goes first);
    a paired marriage card, an ace, a ten guarded by its ace cost far more; a lone
    king or queen costs half its marriage's value on top: an opponent holds the other
    half (the rest of the deck is theirs), and the card may complete their marriage.
    """
    s = c // 6
    r = c % 6
    v = POINTS[c] + 3 * popcount(hand & SUIT_BITS[s])
    if r == 2 or r == 3:
        if hand & KQ[s] == KQ[s]:
            v += 100
        else:
            v += P[P_MV_S + s] // 2
    elif r == 5:
        v += 50
    elif r == 4 and hand >> (6 * s + 5) & 1:
        v += 30
    return int(v)


@hot
def cheapest_discard(hand: int, legal: np.ndarray, n: int, P: np.ndarray) -> int:
    """The card to give away in the discard: the lowest :func:`discard_cost`."""
    pick = legal[0]
    pick_value = 1 << 30
    for k in range(n):
        v = discard_cost(hand, legal[k], P)
        if v < pick_value:
            pick_value = v
            pick = legal[k]
    return int(pick)


@hot
def by_cost(hand: int, P: np.ndarray, cards: np.ndarray, costs: np.ndarray) -> int:
    """``hand``'s cards into ``cards``, cheapest :func:`discard_cost` first (stable); their count.

    ``costs`` receives the costs in the same order.
    """
    n = 0
    m = hand
    while m:
        c = lowest(m)
        m &= m - 1
        v = discard_cost(hand, c, P)
        i = n
        while i > 0 and costs[i - 1] > v:
            costs[i] = costs[i - 1]
            cards[i] = cards[i - 1]
            i -= 1
        costs[i] = v
        cards[i] = c
        n += 1
    return n


@hot
def next_cheapest(hand: int, after_cost: int, after_card: int, P: np.ndarray) -> tuple[int, int]:
    """``(cost, card)`` of the cheapest card of ``hand`` after ``(after_cost, after_card)``.

    In :func:`by_cost`'s order (cost, then card), without an array: from ``(-1, -1)``
    the cheapest card, then each call with the last answer the next one; ``(1 << 30,
    -1)`` past the last card.
    """
    card = -1
    cost = 1 << 30
    m = hand
    while m:
        c = lowest(m)
        m &= m - 1
        v = discard_cost(hand, c, P)
        later = v > after_cost or (v == after_cost and c > after_card)
        if later and v < cost:
            cost = v
            card = c
    return cost, card


__all__ = ["DISCARD_CANDIDATES", "by_cost", "cheapest_discard", "discard_cost", "next_cheapest"]
