"""Trick play (docs/rules.md §6): legal leads and follows, beating, trick winner.

Hands are masks (bit = card id ``suit * 6 + rank``), so "cards of suit s in H" is
``H & SUIT_BITS[s]`` and the rank order 9 < J < Q < K < 10 < A is the bit order
within a suit. Every function works on one deal's state and is callable on its own
(for the double-dummy solver and sampling players planned later).
"""

from __future__ import annotations

import numpy as np

from sim.engine.actions import DECLARE
from sim.engine.bits import ACES, KQ, SUIT_BITS, lowest, mask_to_list
from sim.engine.params import (
    P_ACE,
    P_FIRST_LEAD,
    P_MUST_BEAT,
    P_MUST_LEAD_TRUMP,
    P_MUST_TRUMP,
    P_NO_LEAD_FOREIGN,
)
from sim.engine.state import (
    NO_SUIT,
    S_BEST,
    S_HAND0,
    S_LED_SUIT,
    S_TRICK_NO,
    S_TRUMP,
    S_TRUMP_SETTER,
)
from sim.jit import hot


@hot
def beats(c: int, best: int, trump: int) -> bool:
    """Whether card ``c`` beats the trick's current best card under ``trump``."""
    sc = c // 6
    sb = best // 6
    if sc == sb:
        return c > best
    return sc == trump


@hot
def lead_masks(S: np.ndarray, P: np.ndarray, seat: int) -> tuple[int, int]:
    """Legal leads of ``seat`` as masks: plain leads, and declaring leads.

    A declaring lead (a K or Q of a held marriage, an ace of four aces) has action
    code ``DECLARE + card id``; with the plain ones in ascending code order this is
    the legal action list of PROTOCOL.md §9.
    """
    hand = S[S_HAND0 + seat]
    trump = S[S_TRUMP]
    base = hand
    if trump != NO_SUIT:
        trumps = hand & SUIT_BITS[trump]
        if P[P_MUST_LEAD_TRUMP] and trumps:
            base = trumps
        elif P[P_NO_LEAD_FOREIGN] and S[S_TRUMP_SETTER] != seat and hand & ~SUIT_BITS[trump]:
            base = hand & ~SUIT_BITS[trump]
    declaring = 0
    if S[S_TRICK_NO] > 0 or P[P_FIRST_LEAD]:  # defenders declare too (only_declarer: for 0)
        for s in range(4):
            if hand & KQ[s] == KQ[s]:
                declaring |= KQ[s]
        if P[P_ACE] and hand & ACES == ACES:
            declaring |= ACES
    return base, declaring


@hot
def follow_mask(S: np.ndarray, P: np.ndarray, seat: int) -> int:
    """Legal cards of a follower as a mask (follow suit, must trump, must beat)."""
    hand = S[S_HAND0 + seat]
    led = S[S_LED_SUIT]
    trump = S[S_TRUMP]
    allowed = hand & SUIT_BITS[led]
    if allowed == 0:
        if P[P_MUST_TRUMP] and trump != NO_SUIT and hand & SUIT_BITS[trump]:
            allowed = hand & SUIT_BITS[trump]
        else:
            allowed = hand
    if P[P_MUST_BEAT]:
        best = S[S_BEST]
        winners = 0
        m = allowed
        while m:
            c = lowest(m)
            if beats(c, best, trump):
                winners |= np.int64(1) << c
            m &= m - 1
        if winners:
            allowed = winners
    return allowed


@hot
def kth_code(plain: int, declaring: int, k: int) -> int:
    """The ``k``-th legal code (ascending) of a play decision given by its masks."""
    m = plain
    while m:
        if k == 0:
            return lowest(m)
        k -= 1
        m &= m - 1
    m = declaring
    while m:
        if k == 0:
            return DECLARE + lowest(m)
        k -= 1
        m &= m - 1
    return -1


@hot
def play_codes(plain: int, declaring: int, out: np.ndarray) -> int:
    """Write the legal codes of a play decision into ``out`` (ascending); how many."""
    n = mask_to_list(plain, out, 0, 0)
    return mask_to_list(declaring, out, n, DECLARE)
