"""The ``strong`` player's discard: the heuristic's cheapest cards, weighed by a fitted line.

Of the ``DISCARD_CANDIDATES`` cards the heuristic would rather give (its
:func:`~sim.engine.strategies.discard.discard_cost`), the one whose features score
highest under :data:`~sim.engine.strategies.strong_weights.DISCARD_WEIGHTS` is given.
The weights are a least-squares line of the sampling player's expected deal score of
each candidate give (:func:`sim.engine.strategies.pimc.discard_scores`, measured
relative to the decision's mean) on the candidates' features, fitted by
``training/strong_discard_fit.py``. Only the declarer's own hand is read (the talon
it took is in it). Fitted on three hands: with two players the heuristic's card is
given (``strong_choose``).
"""

from __future__ import annotations

import numpy as np

from sim.engine.bits import KQ, SUIT_BITS, mask_points, popcount
from sim.engine.params import P_NP
from sim.engine.state import S_DECL, S_HAND0
from sim.engine.strategies.discard import DISCARD_CANDIDATES, by_cost, discard_cost
from sim.engine.strategies.strong_weights import DISCARD_WEIGHTS
from sim.jit import hot, stack_floats

DISCARD_FEATURE_NAMES = (
    "heuristic_card",  # the heuristic would give it (the cheapest)
    "cost",  # the heuristic's cost of giving it / 100
    "points",  # its card points / 10
    "void",  # the last card of its suit in the hand: giving it leaves a void
    "void_with_marriage",  # a void, and a marriage held in another suit (a trump to ruff)
    "suit_left",  # the hand's cards of its suit after the give / 6
    "master",  # no card outside the hand ranks above it in its suit
    "higher_out",  # cards outside the hand above it in its suit / 6
    "marriage_suit",  # its suit is one of the hand's marriages (a trump suit's length)
    "lone_half",  # a king or queen whose partner is outside the hand
    "bares_ten",  # the give leaves the suit's ten alone, its ace outside
    "ace_in_suit",  # the hand holds its suit's ace
    "suit_points_out",  # card points of its suit outside the hand / 30
    "void_points_out",  # a void times the points of its suit outside / 30
    "suit_points_left",  # card points of its suit in the hand after the give / 30
)
N_DISCARD_FEATURES = len(DISCARD_FEATURE_NAMES)
assert N_DISCARD_FEATURES == 15  # _value writes the sum out
_ALL = np.int64((1 << 24) - 1)


@hot
def discard_view(hand: int, c: int, cheapest: bool, P: np.ndarray) -> tuple:
    """The features of giving card ``c`` from ``hand`` (the declarer's), as a tuple."""
    s = c // 6
    r = c % 6
    suit = SUIT_BITS[s]
    bit = np.int64(1) << c
    outside = _ALL & ~hand
    after = hand & ~bit & suit
    void = popcount(hand & suit) == 1
    other_marriage = False
    for t in range(4):
        if t != s and hand & KQ[t] == KQ[t]:
            other_marriage = True
    above = suit & ~((np.int64(2) << c) - 1)
    pts_out = mask_points(outside & suit) / 30.0
    ace = np.int64(1) << (6 * s + 5)
    married = hand & KQ[s] == KQ[s]
    return (
        1.0 if cheapest else 0.0,
        discard_cost(hand, c, P) / 100.0,
        mask_points(bit) / 10.0,
        1.0 if void else 0.0,
        1.0 if void and other_marriage else 0.0,
        popcount(after) / 6.0,
        1.0 if outside & above == 0 else 0.0,
        popcount(outside & above) / 6.0,
        1.0 if married else 0.0,
        1.0 if (r == 2 or r == 3) and not married else 0.0,
        1.0 if after == np.int64(1) << (6 * s + 4) and outside & ace else 0.0,
        1.0 if hand & ace else 0.0,
        pts_out,
        pts_out if void else 0.0,
        mask_points(after) / 30.0,
    )


@hot
def discard_features(hand: int, c: int, cheapest: bool, P: np.ndarray, out: np.ndarray) -> None:
    """:func:`discard_view` into ``out`` (for the fit)."""
    f = discard_view(hand, c, cheapest, P)
    for k in range(N_DISCARD_FEATURES):
        out[k] = f[k]


@hot
def _value(f: tuple) -> float:
    """The fitted weights times the features ``f``, the sum written out.

    Read at a variable index, the tuple is copied for every read (as in
    :func:`sim.engine.strategies.strong._dot`); the same sum, in the same order.
    """
    w = DISCARD_WEIGHTS
    return (
        w[0] * f[0]
        + w[1] * f[1]
        + w[2] * f[2]
        + w[3] * f[3]
        + w[4] * f[4]
        + w[5] * f[5]
        + w[6] * f[6]
        + w[7] * f[7]
        + w[8] * f[8]
        + w[9] * f[9]
        + w[10] * f[10]
        + w[11] * f[11]
        + w[12] * f[12]
        + w[13] * f[13]
        + w[14] * f[14]
    )


@hot
def fitted_for(P: np.ndarray) -> bool:
    """Whether the line applies: it was fitted on three hands (with two it lost 2.1 a deal)."""
    return bool(P[P_NP] == 3)


@hot
def strong_discard(S: np.ndarray, P: np.ndarray) -> int:
    """The card the declarer gives next: the best fitted score of the heuristic's cheapest.

    The candidates are taken cheapest first, ties by card (the order of
    :func:`~sim.engine.strategies.discard.by_cost`, which it calls).
    """
    hand = S[S_HAND0 + S[S_DECL]]
    cards = stack_floats(24)  # the hand's cards, cheapest first (small integers, exact)
    costs = stack_floats(24)
    by_cost(hand, P, cards, costs)  # each card's cost once
    pick = -1
    best = -np.inf
    for i in range(min(popcount(hand), DISCARD_CANDIDATES)):
        card = int(cards[i])
        value = _value(discard_view(hand, card, i == 0, P))
        if value > best:
            best = value
            pick = card
    return pick


__all__ = [
    "DISCARD_FEATURE_NAMES",
    "N_DISCARD_FEATURES",
    "discard_features",
    "discard_view",
    "fitted_for",
    "strong_discard",
]
