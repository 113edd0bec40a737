"""Cards as ids and lists: suit, rank, points, marriages (the twin of ``sim/engine/bits.py``)."""

from __future__ import annotations

from collections.abc import Sequence

from sim.cards import N_RANKS, N_SUITS, RANK_POINTS, Rank
from sim.rules import Rules

ACE_BIT = 16  # bit of the ace marriage in a player's ``declared`` mask


def suit(card: int) -> int:
    """Suit id of a card id."""
    return card // N_RANKS


def rank(card: int) -> int:
    """Rank id of a card id (9 < J < Q < K < 10 < A)."""
    return card % N_RANKS


def points(cards: Sequence[int]) -> int:
    """Card points of some cards."""
    return sum(RANK_POINTS[rank(c)] for c in cards)


def count_rank(cards: Sequence[int], r: int) -> int:
    """How many cards of rank ``r``."""
    return sum(1 for c in cards if rank(c) == r)


def marriages_held(cards: Sequence[int]) -> list[int]:
    """Suits of which both the king and the queen are among ``cards``, ascending."""
    held = set(cards)
    return [
        s
        for s in range(N_SUITS)
        if s * N_RANKS + Rank.KING in held and s * N_RANKS + Rank.QUEEN in held
    ]


def marriage_sum(rules: Rules, cards: Sequence[int]) -> int:
    """Sum of the values of the marriages held in ``cards``."""
    return sum(rules.marriage_values[s] for s in marriages_held(cards))
