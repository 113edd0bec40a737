"""The heuristic's hand model: the expected deal total of a hand as the declarer's.

A linear model of the declarer's deal total in features of the hand (aces, tens,
marriages and the trump length they give, voids, card points), one fit for the
dealt hand (bids) and one for the hand kept after the discard (contract,
concession), with a spread that grows with the estimate; fitted by
``training/heuristic_fit.py``. In a module of its own so that the sampling player,
which reads the auction by it (a heuristic bidder's raises and passes), does not
compile against the rest of the heuristic (:mod:`sim.cache`).
"""

from __future__ import annotations

import math

import numpy as np

from sim.cards import CARD_POINTS
from sim.engine.params import P_MV_S, P_NP
from sim.jit import hot

# --- the hand model ----------------------------------------------------------------------
N_FEATURES = 13
FEATURE_NAMES = (
    "intercept",
    "aces",
    "tens_with_ace",
    "tens_guarded",
    "tens_bare",
    "best_marriage",
    "best_marriage_with_entry",
    "other_marriages",
    "other_marriages_with_entries",
    "trump_length",
    "lone_kings_queens",
    "voids",
    "card_points",
)
# Weights and spread (sigma = a + b * mu) measured by training/heuristic_fit.py.
# Rows: the dealt hand (bids), the hand kept after the discard (contract, concession);
# three players, then two.
WEIGHTS = np.array(
    [
        [
            15.527,
            18.664,
            8.418,
            1.748,
            1.394,
            0.480,
            0.447,
            0.436,
            0.049,
            5.082,
            6.504,
            2.941,
            0.195,
        ],
        [
            -40.338,
            11.079,
            6.022,
            -2.931,
            -4.495,
            -0.073,
            1.131,
            0.397,
            0.147,
            9.187,
            -1.493,
            8.263,
            0.892,
        ],
        [
            12.702,
            7.231,
            5.606,
            3.364,
            4.380,
            0.641,
            0.320,
            0.628,
            0.074,
            2.899,
            7.409,
            2.549,
            0.577,
        ],
        [
            -11.463,
            8.147,
            7.249,
            4.889,
            4.579,
            0.462,
            0.593,
            0.560,
            0.150,
            3.295,
            -0.564,
            2.287,
            0.583,
        ],
    ]
)
SPREAD = np.array(
    [
        [58.093, -0.1172],
        [16.334, 0.0592],
        [50.665, -0.0737],
        [14.650, 0.0816],
    ]
)
DEALT, KEPT = 0, 1  # which fit: the hand before the talon, or after the discard


def _suit_table() -> np.ndarray:
    """What the model reads of each 6-bit suit pattern, one row per pattern.

    Columns: cards, ace, ten class (1 with its ace, 2 guarded, 3 bare), marriage (1
    both, 2 a lone king or queen), card points.
    """
    t = np.zeros((64, 5), dtype=np.int64)
    for m in range(64):
        n = bin(m).count("1")
        ace, ten = m >> 5 & 1, m >> 4 & 1
        t[m, 0] = n
        t[m, 1] = ace
        t[m, 2] = 0 if not ten else (1 if ace else (2 if n >= 2 else 3))
        t[m, 3] = 1 if m & 0b1100 == 0b1100 else (2 if m & 0b1100 else 0)
        t[m, 4] = sum(int(CARD_POINTS[r]) for r in range(6) if m >> r & 1)
    return t


_SUIT = _suit_table()  # built once at import; numba freezes it into the code


@hot
def hand_features(hand: int, P: np.ndarray) -> tuple:
    """The model's features of a hand (:data:`FEATURE_NAMES`), as floats."""
    aces = 0
    tens_a = 0
    tens_g = 0
    tens_bare = 0
    best_mv = 0
    other_mv = 0
    trump_len = 0
    longest = 0
    lone = 0
    voids = 0
    points = 0
    for s in range(4):
        m = (hand >> (6 * s)) & 63
        n = _SUIT[m, 0]
        longest = max(longest, n)
        if n == 0:
            voids += 1
        aces += _SUIT[m, 1]
        ten = _SUIT[m, 2]
        if ten == 1:
            tens_a += 1
        elif ten == 2:
            tens_g += 1
        elif ten == 3:
            tens_bare += 1
        pair = _SUIT[m, 3]
        if pair == 1:
            v = P[P_MV_S + s]
            if v > best_mv:
                other_mv += best_mv
                best_mv = v
                trump_len = n
            else:
                other_mv += v
        elif pair == 2:
            lone += 1
        points += _SUIT[m, 4]
    if best_mv == 0:
        trump_len = longest
    entry = 1 if aces >= 1 else 0
    entries = 1 if aces + tens_a >= 2 else 0
    return (
        1.0,
        float(aces),
        float(tens_a),
        float(tens_g),
        float(tens_bare),
        float(best_mv),
        float(best_mv * entry),
        float(other_mv),
        float(other_mv * entries),
        float(trump_len),
        float(lone),
        float(voids),
        float(points),
    )


def _suit_values() -> np.ndarray:
    """Per model row and 6-bit suit pattern: the weighted features one suit adds alone.

    Aces, tens by class, lone kings and queens, voids and card points add up suit by
    suit; the marriage and trump-length terms need the whole hand
    (:func:`hand_model`). Built from :data:`WEIGHTS` at import.
    """
    t = np.zeros((WEIGHTS.shape[0], 64))
    for row in range(WEIGHTS.shape[0]):
        w = WEIGHTS[row]
        for m in range(64):
            n, ace, ten, pair, points = _SUIT[m]
            v = w[1] * ace + w[12] * points + w[11] * (n == 0) + w[10] * (pair == 2)
            v += w[2] * (ten == 1) + w[3] * (ten == 2) + w[4] * (ten == 3)
            t[row, m] = v
    return t


_SUIT_VALUE = _suit_values()
_ROOT2 = math.sqrt(2.0)
# Phi's upper tail 1 - Phi(z) at z = -8 .. 8 in steps of 1/64 (linear in between: the
# error is below 1e-5), so that a probability costs a table read, not an erfc.
_Z_STEPS = 64
_TAIL = np.array(
    [0.5 * math.erfc(k / _Z_STEPS / _ROOT2) for k in range(-8 * _Z_STEPS, 8 * _Z_STEPS + 1)]
)


@hot
def hand_model(hand: int, P: np.ndarray, which: int) -> tuple[float, float]:
    """The expected deal total of ``hand`` as the declarer, and its spread.

    ``which`` is :data:`DEALT` (before the talon) or :data:`KEPT` (after the discard).
    The same value as the weights times :func:`hand_features`, summed suit by suit.
    """
    row = which + (2 if P[P_NP] == 2 else 0)
    mu = WEIGHTS[row, 0]
    aces = 0
    tens_a = 0
    best_mv = 0
    other_mv = 0
    trump_len = 0
    longest = 0
    for s in range(4):
        m = (hand >> (6 * s)) & 63
        mu += _SUIT_VALUE[row, m]
        n = _SUIT[m, 0]
        longest = max(longest, n)
        aces += _SUIT[m, 1]
        tens_a += _SUIT[m, 2] == 1
        if _SUIT[m, 3] == 1:
            v = P[P_MV_S + s]
            if v > best_mv:
                other_mv += best_mv
                best_mv = v
                trump_len = n
            else:
                other_mv += v
    if best_mv == 0:
        trump_len = longest
    mu += WEIGHTS[row, 5] * best_mv + WEIGHTS[row, 7] * other_mv + WEIGHTS[row, 9] * trump_len
    if aces >= 1:
        mu += WEIGHTS[row, 6] * best_mv
    if aces + tens_a >= 2:
        mu += WEIGHTS[row, 8] * other_mv
    sigma = max(5.0, SPREAD[row, 0] + SPREAD[row, 1] * mu)
    return mu, sigma


@hot
def p_make(mu: float, sigma: float, level: int) -> float:
    """P(total >= level) under the model: ``1 - Phi((level - 0.5 - mu) / sigma)``."""
    x = (level - 0.5 - mu) / sigma * _Z_STEPS
    if x <= -8 * _Z_STEPS:
        return 1.0
    if x >= 8 * _Z_STEPS:
        return 0.0
    x += 8 * _Z_STEPS
    k = int(x)
    f = x - k
    return _TAIL[k] * (1.0 - f) + _TAIL[k + 1] * f


@hot
def declaring_value(mu: float, sigma: float, level: int) -> float:
    """The model's expected deal score of declaring ``level``: ``level (2 p - 1)``.

    ``p`` is :func:`p_make`: the contract's ``level`` points made, or as many lost. The
    heuristic raises when this reaches its ``bid_margin``.
    """
    return level * (2.0 * p_make(mu, sigma, level) - 1.0)


__all__ = [
    "DEALT",
    "FEATURE_NAMES",
    "KEPT",
    "N_FEATURES",
    "SPREAD",
    "WEIGHTS",
    "declaring_value",
    "hand_features",
    "hand_model",
    "p_make",
]
