"""Phases 1, 3, 5: the reshuffle conditions (docs/rules.md §3)."""

from __future__ import annotations

from collections.abc import Sequence

from sim.cards import Rank
from sim.engine.reshuffle import HAND_REASONS, TALON_REASONS
from sim.reference.bits import count_rank, points
from sim.rules import Rules

AFTER_DISCARD_REASONS = ("after_discard_four_nines", "after_discard_points_below")


def _lowest_reason(bits: int, names: Sequence[str]) -> str | None:
    """Name of the lowest set bit of ``bits`` (``None`` when no bit is set)."""
    for i, name in enumerate(names):
        if bits >> i & 1:
            return name
    return None


def hand_reshuffle_reason(rules: Rules, hand: Sequence[int]) -> str | None:
    """The reshuffle condition a dealt 7-card hand meets (docs/rules.md §3), or ``None``."""
    r = rules.reshuffle
    bits = 0
    if r.hand_points_below > 0 and points(hand) < r.hand_points_below:
        bits |= 1
    if r.hand_nines > 0 and count_rank(hand, Rank.NINE) >= r.hand_nines:
        bits |= 2
    if r.hand_four_jacks and count_rank(hand, Rank.JACK) == 4:
        bits |= 4
    return _lowest_reason(bits, HAND_REASONS)


def talon_reshuffle_reason(rules: Rules, talon: Sequence[int]) -> str | None:
    """The reshuffle condition the talon meets (docs/rules.md §3), or ``None``."""
    r = rules.reshuffle
    bits = 0
    if r.talon_points_below > 0 and points(talon) < r.talon_points_below:
        bits |= 1
    if r.talon_two_nines and count_rank(talon, Rank.NINE) >= 2:
        bits |= 2
    if r.talon_three_jacks and count_rank(talon, Rank.JACK) >= 3:
        bits |= 4
    return _lowest_reason(bits, TALON_REASONS)


def after_discard_reshuffle_reason(rules: Rules, hand: Sequence[int]) -> str | None:
    """The after-discard condition an 8-card hand meets (docs/rules.md §3), or ``None``."""
    r = rules.reshuffle
    bits = 0
    if r.after_discard_four_nines and count_rank(hand, Rank.NINE) == 4:
        bits |= 1
    if r.after_discard_points_below > 0 and points(hand) < r.after_discard_points_below:
        bits |= 2
    return _lowest_reason(bits, AFTER_DISCARD_REASONS)
