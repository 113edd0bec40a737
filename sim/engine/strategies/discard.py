"""The card a player gives away in the discard: the heuristic's cost of each card.

With two players laying two cards away (``talon.two_players = "discard"``, docs/rules.md
§12) the same cost chooses the cards laid away (:func:`give_cost`): low cards of short
suits go, marriages, aces and guarded tens stay; a ten without its ace goes cheaply
(its points are banked for the declarer), and a lone king or queen costs no half
marriage (laid away, it completes no opponent's marriage).

Shared by ``heuristic`` (its discard) and the sampling player (its candidate gives and
the gives it expects of the others), in a module of its own so that the sampling
player's compiled code does not depend on the rest of the heuristic.
"""

from __future__ import annotations

import numpy as np

from sim.engine.bits import KQ, SUIT_BITS, lowest, popcount
from sim.engine.params import P_MV_S
from sim.engine.strategies.basics import POINTS
from sim.engine.talon import lays_away
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
def give_cost(hand: int, c: int, P: np.ndarray) -> int:
    """:func:`discard_cost`, or what laying ``c`` away costs (§12, two cards laid away).

    A card laid away counts for the declarer and completes no opponent's marriage: a
    lone king or queen costs no half marriage, and a ten without its ace 10 less (its
    points are banked; played, the opponent's ace often takes it). Measured on
    ``polish_two``, the heuristic against itself, the declarer's margin (its deal score
    less the opponent's) a deal: no half marriage +5.66 ± 0.41 over
    :func:`discard_cost` (20,000 deals, seed 515); the ten's rule +2.79 ± 0.42 more on
    the same deals, and on held-out ones (seed 616) +2.01 ± 0.40.
    """
    v = discard_cost(hand, c, P)
    if lays_away(P):
        s = c // 6
        r = c % 6
        if (r == 2 or r == 3) and hand & KQ[s] != KQ[s]:
            v -= P[P_MV_S + s] // 2
        elif r == 4 and not hand >> (6 * s + 5) & 1:
            v -= 10
    return v


def _suit_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`discard_cost`'s cheapest card of each pattern of one suit's cards.

    For each 6-bit pattern ``m`` of a suit (bit ``r``: rank ``r`` held): the cheapest
    card's cost and rank among those whose cost does not depend on the rules
    (``BASE``, ``BASE_RANK``), and the cost and rank of a lone king or queen
    (``LONE``, ``LONE_RANK``) less its half marriage, which depends on the suit's
    marriage value (:func:`cheapest_of_hand` adds it). Each is :func:`discard_cost`
    itself, of suit 0 with the marriage values 0; a cost does not depend on the suit's
    other cards outside it, and the suit's place only in the marriage value.
    """
    no_marriages = np.zeros(P_MV_S + 4, dtype=np.int64)
    base = np.full(64, 1 << 30, dtype=np.int64)
    base_rank = np.full(64, -1, dtype=np.int64)
    lone = np.full(64, 1 << 30, dtype=np.int64)
    lone_rank = np.full(64, -1, dtype=np.int64)
    for m in range(64):
        for r in range(6):  # ascending: a tie keeps the lower rank
            if not m >> r & 1:
                continue
            v = int(discard_cost(m, r, no_marriages))
            if r in (2, 3) and m & KQ[0] != KQ[0]:
                if v < lone[m]:
                    lone[m], lone_rank[m] = v, r
            elif v < base[m]:
                base[m], base_rank[m] = v, r
    return base, base_rank, lone, lone_rank


_BASE, _BASE_RANK, _LONE, _LONE_RANK = _suit_tables()


@hot
def cheapest_of_hand(hand: int, P: np.ndarray) -> int:
    """The card of ``hand`` with the lowest :func:`discard_cost`, the lowest card on a tie.

    The card a player gives away in the discard (every card of the hand may go; laying
    away, :func:`give_cost`'s cheapest), by the suits' tables: four lookups in place of
    a cost per card (17 ns against 81 a call).
    """
    best = 1 << 30
    card = -1
    if lays_away(P):  # laying away: the costs of :func:`give_cost`, card by card
        m = hand
        while m:
            c = lowest(m)
            m &= m - 1
            v = give_cost(hand, c, P)
            if v < best:  # ascending: a tie keeps the lower card
                best = v
                card = c
        return int(card)
    for s in range(4):
        m = (hand >> (6 * s)) & 63
        if m == 0:
            continue
        v = _BASE[m]
        r = _BASE_RANK[m]
        w = _LONE[m] + P[P_MV_S + s] // 2
        if w < v or (w == v and _LONE_RANK[m] < r):
            v = w
            r = _LONE_RANK[m]
        if v < best:  # a lower suit's cards are the lower ones: it keeps a tie
            best = v
            card = 6 * s + r
    return int(card)


@hot
def by_cost(hand: int, P: np.ndarray, cards: np.ndarray, costs: np.ndarray) -> int:
    """``hand``'s cards into ``cards``, cheapest :func:`give_cost` first (stable); their count.

    ``costs`` receives the costs in the same order.
    """
    n = 0
    m = hand
    while m:
        c = lowest(m)
        m &= m - 1
        v = give_cost(hand, c, P)
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
        v = give_cost(hand, c, P)
        later = v > after_cost or (v == after_cost and c > after_card)
        if later and v < cost:
            cost = v
            card = c
    return cost, card


__all__ = [
    "DISCARD_CANDIDATES",
    "by_cost",
    "cheapest_of_hand",
    "discard_cost",
    "give_cost",
    "next_cheapest",
]
