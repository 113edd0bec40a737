"""Reshuffle conditions (docs/rules.md §3): when a player may demand a new deal.

Each check returns a bitmask of reasons; the lowest set bit names the reason a redeal
records (``sim.engine.state.REASONS``: the hand reasons, then the talon's, then the
after-discard ones). Conditions read their thresholds from the rules vector.
"""

from __future__ import annotations

import numpy as np

from sim.engine.bits import NINE, mask_points, rank_count
from sim.engine.params import (
    P_AFTER_FOUR_NINES,
    P_AFTER_POINTS_BELOW,
    P_HAND_FOUR_JACKS,
    P_HAND_NINES,
    P_HAND_POINTS_BELOW,
    P_TALON_POINTS_BELOW,
    P_TALON_THREE_JACKS,
    P_TALON_TWO_NINES,
)
from sim.engine.state import S_REDEAL_REASON, S_REDEAL_SEAT
from sim.jit import hot

HAND_REASONS = ("hand_points_below", "hand_nines", "hand_four_jacks")
TALON_REASONS = ("talon_points_below", "talon_two_nines", "talon_three_jacks")
AFTER_REASONS = ("after_discard_four_nines", "after_discard_points_below")


@hot
def hand_reshuffle_bits(points: int, nines: int, jacks: int, P: np.ndarray) -> int:
    """Bitmask of :data:`HAND_REASONS` met by a dealt hand."""
    bits = 0
    if P[P_HAND_POINTS_BELOW] > 0 and points < P[P_HAND_POINTS_BELOW]:
        bits |= 1
    if P[P_HAND_NINES] > 0 and nines >= P[P_HAND_NINES]:
        bits |= 2
    if P[P_HAND_FOUR_JACKS] != 0 and jacks == 4:
        bits |= 4
    return bits


@hot
def talon_reshuffle_bits(points: int, nines: int, jacks: int, P: np.ndarray) -> int:
    """Bitmask of :data:`TALON_REASONS` met by a talon."""
    bits = 0
    if P[P_TALON_POINTS_BELOW] > 0 and points < P[P_TALON_POINTS_BELOW]:
        bits |= 1
    if P[P_TALON_TWO_NINES] != 0 and nines >= 2:
        bits |= 2
    if P[P_TALON_THREE_JACKS] != 0 and jacks >= 3:
        bits |= 4
    return bits


@hot
def after_discard_bits(hand: int, P: np.ndarray) -> int:
    """Bitmask of :data:`AFTER_REASONS` met by a hand of 8 cards after the discard."""
    bits = 0
    if P[P_AFTER_FOUR_NINES] and rank_count(hand, NINE) == 4:
        bits |= 1
    if P[P_AFTER_POINTS_BELOW] > 0 and mask_points(hand) < P[P_AFTER_POINTS_BELOW]:
        bits |= 2
    return bits


@hot
def apply_redeal(S: np.ndarray, seat: int, reason: int) -> None:
    """``seat`` demands a new deal for ``reason`` (a code of ``REASONS``): the deal ends."""
    S[S_REDEAL_SEAT] = seat
    S[S_REDEAL_REASON] = reason
