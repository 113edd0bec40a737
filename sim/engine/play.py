"""Trick play (docs/rules.md §6): legal leads and follows, beating, trick winner.

Hands are masks (bit = card id ``suit * 6 + rank``), so "cards of suit s in H" is
``H & SUIT_BITS[s]`` and the rank order 9 < J < Q < K < 10 < A is the bit order
within a suit. Every function works on one deal's state and is callable on its own
(for the double-dummy solver and sampling players planned later).
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from sim.cards import SUIT_MASK
from sim.engine.actions import DECLARE
from sim.engine.state import (
    NO_SUIT,
    P_ACE,
    P_FIRST_LEAD,
    P_MUST_BEAT,
    P_MUST_LEAD_TRUMP,
    P_MUST_TRUMP,
    P_NO_LEAD_FOREIGN,
    S_BEST,
    S_HAND0,
    S_LED_SUIT,
    S_TRICK_NO,
    S_TRUMP,
    S_TRUMP_SETTER,
)
from sim.jit import hot

SUIT_BITS = SUIT_MASK.astype(np.int64)
ACES = np.int64(sum(1 << (6 * s + 5) for s in range(4)))
KQ = np.array([(1 << (6 * s + 2)) | (1 << (6 * s + 3)) for s in range(4)], dtype=np.int64)


@hot
def lowest(mask: int) -> int:
    """Lowest card id in a non-empty mask."""
    return np.int64(trailing_zeros(np.uint64(mask)))  # type: ignore[call-arg]


@hot
def highest(mask: int) -> int:
    """Highest card id in a non-empty mask."""
    return 63 - np.int64(leading_zeros(np.uint64(mask)))  # type: ignore[call-arg]


@hot
def popcount(x: int) -> int:
    """Number of set bits of a 24-bit mask."""
    x = x - ((x >> 1) & 0x555555)
    x = (x & 0x333333) + ((x >> 2) & 0x333333)
    x = (x + (x >> 4)) & 0x0F0F0F
    return int((x * 0x010101) >> 16) & 0xFF


@hot
def beats(c: int, best: int, trump: int) -> bool:
    """Whether card ``c`` beats the trick's current best card under ``trump``."""
    sc = c // 6
    sb = best // 6
    if sc == sb:
        return c > best
    return sc == trump


@hot
def mask_to_list(mask: int, out: np.ndarray, start: int, offset: int) -> int:
    """Append the card ids of ``mask`` (plus ``offset``) to ``out`` ascending; new length."""
    n = start
    m = mask
    while m:
        c = lowest(m)
        out[n] = c + offset
        n += 1
        m &= m - 1
    return n


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
