"""Hands dealt by class on purpose: every class of the advisor's tables from enough deals.

A hand's *class* is what the tables answer by: the marriages it holds (a suit bitmask,
bit ``s`` for suit ``s``) and its aces. Dealing hands at random leaves the rare
classes (three marriages, four aces, a marriage with four aces) with a handful of
hands; here each class is dealt on purpose, as bridge's dealers deal a hand of a given
shape: the hand is drawn uniformly from every hand of its class (all of them are
listed: :func:`class_hands`), the other cards at random. A rate over all hands is then
a class's rate weighted by its share of all hands, which :func:`class_sizes` counts
exactly.

:func:`play_class` plays such deals for one class and seat: every bid plan of the seat
(:mod:`sim.runs.plans`) and, for the make rates, the hand declaring at its lowest raise
(:func:`sim.runs.declarer.play_as_declarer`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from sim.cards import MARRIAGE_MASK, N_SUITS
from sim.engine.deal import n_hands, place_sizes
from sim.rules import Rules

ACE_BITS = tuple(6 * s + 5 for s in range(N_SUITS))


def marriages_of(masks: np.ndarray) -> np.ndarray:
    """Suit bitmask of the marriages each hand mask holds (any shape)."""
    m = np.asarray(masks, dtype=np.int64)
    out = np.zeros(m.shape, dtype=np.int64)
    for s in range(N_SUITS):
        pair = int(MARRIAGE_MASK[s])
        out |= ((m & pair) == pair).astype(np.int64) << s
    return out


def aces_of(masks: np.ndarray) -> np.ndarray:
    """Aces in each hand mask (any shape)."""
    m = np.asarray(masks, dtype=np.int64)
    out = np.zeros(m.shape, dtype=np.int64)
    for b in ACE_BITS:
        out += (m >> b) & 1
    return out


def hand_class(mask: int) -> tuple[int, int]:
    """``(marriages, aces)`` of one hand."""
    return int(marriages_of(np.array(mask))), int(aces_of(np.array(mask)))


@cache
def _half_masks(k: int) -> np.ndarray:
    """Every 12-bit mask with ``k`` bits set."""
    masks = np.arange(1 << 12, dtype=np.int64)
    count = np.zeros(len(masks), dtype=np.int64)
    for b in range(12):
        count += (masks >> b) & 1
    return masks[count == k]


@cache
def all_hands(size: int) -> np.ndarray:
    """Every hand of ``size`` cards of the 24, as sorted masks (346,104 of 7 cards)."""
    parts = []
    for low in range(max(0, size - 12), min(12, size) + 1):
        a, b = _half_masks(low), _half_masks(size - low) << 12
        parts.append((a[:, None] | b[None, :]).ravel())
    out = np.sort(np.concatenate(parts))
    out.setflags(write=False)
    return out


@cache
def class_hands(size: int) -> dict[tuple[int, int], np.ndarray]:
    """Every hand of ``size`` cards by its class ``(marriages, aces)``."""
    hands = all_hands(size)
    key = marriages_of(hands) * 8 + aces_of(hands)
    order = np.argsort(key, kind="stable")
    keys, starts = np.unique(key[order], return_index=True)
    bounds = [*starts[1:], len(order)]
    out = {}
    for k, a, b in zip(keys, starts, bounds, strict=True):
        members = hands[order[a:b]]
        members.setflags(write=False)
        out[(int(k) // 8, int(k) % 8)] = members
    return out


def class_sizes(size: int) -> dict[tuple[int, int], int]:
    """How many hands of ``size`` cards each class holds (exact: every hand counted)."""
    return {k: len(v) for k, v in class_hands(size).items()}


def deal_class(rules: Rules, marriages: int, aces: int, seat: int, n: int, seed: int) -> np.ndarray:
    """``n`` deals (``(n, 4)`` place masks) with a hand of the class at hand seat ``seat``.

    The hand is uniform over the class's hands; the other cards are dealt at random
    over the other places. Reproducible from ``(seed, marriages, aces, seat)``.

    Raises:
        ValueError: a class no hand of the rules' size has.
    """
    sizes = place_sizes(rules.players)
    members = class_hands(int(sizes[0])).get((marriages, aces))
    if members is None:
        raise ValueError(f"no hand of {sizes[0]} cards holds marriages {marriages}, {aces} aces")
    rng = np.random.default_rng([seed, marriages, aces, seat])
    hands = members[rng.integers(0, len(members), size=n)]
    held = ((hands[:, None] >> np.arange(24)) & 1).astype(bool)
    keys = np.where(held, np.inf, rng.random((n, 24)))
    order = np.argsort(keys, axis=1)  # the other cards first, in random order
    out = np.zeros((n, 4), dtype=np.uint32)
    out[:, seat] = hands
    col = 0
    for q in range(4):
        if q == seat or sizes[q] == 0:
            continue
        cards = order[:, col : col + sizes[q]]
        out[:, q] = (np.int64(1) << cards).sum(axis=1)
        col += sizes[q]
    return out


def play_class(
    rules: Rules,
    marriages: int,
    aces: int,
    seat: int,
    levels: Sequence[int],
    n: int,
    seed: int,
    player: str,
    params: Sequence[str] = (),
) -> dict[str, np.ndarray]:
    """``n`` deals of one class at one seat, every plan and the forced declarer played.

    Returns :func:`sim.runs.plans.plan_columns` of the plans (``margin``, ``own``,
    ``declared``, ``deltas`` ...: ``(len(levels), n)``) and ``total``, ``concede_from``
    (``(n,)``: the hand winning the auction at its lowest raise, as ``thousand
    safebids`` plays an item) and ``dealt`` (the seat's hands).
    """
    from sim.engine.declarer import D_CONCEDE_FROM, D_TOTAL
    from sim.runs.declarer import play_as_declarer
    from sim.runs.plans import plan_columns, play_plans

    if not 0 <= seat < n_hands(rules.players):
        raise ValueError(f"seat must be a hand seat, got {seat}")
    masks = deal_class(rules, marriages, aces, seat, n, seed)
    plays = play_plans(rules, masks, seat, seed, player, params)
    cols = plan_columns(plays, levels)
    rows = play_as_declarer(rules, masks, np.full(n, seat, dtype=np.int64), seed, player, params)
    return {
        **cols,
        "total": rows[:, D_TOTAL],
        "concede_from": rows[:, D_CONCEDE_FROM],
        "dealt": masks[:, seat].astype(np.int64),
    }


__all__ = [
    "aces_of",
    "all_hands",
    "class_hands",
    "class_sizes",
    "deal_class",
    "hand_class",
    "marriages_of",
    "play_class",
]
