"""Every mask helper and card table of the compiled code, in one place.

A hand is a mask: bit ``suit * 6 + rank`` is set when the card is held (ranks 9 J Q
K 10 A = 0..5, suits S C D H = 0..3), so "the cards of suit s in H" is
``H & SUIT_BITS[s]`` and the rank order within a suit is the bit order. The tables
are built once at import; numba freezes them into the compiled code.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic

from sim.cards import MARRIAGE_MASK, RANK_MASK, RANK_POINTS, SUIT_MASK
from sim.engine.actions import DECLARE
from sim.jit import hot

SUIT_BITS = SUIT_MASK.astype(np.int64)  # SUIT_BITS[s]: the six cards of suit s
RANK_BITS = RANK_MASK.astype(np.int64)  # RANK_BITS[r]: the four cards of rank r
KQ = MARRIAGE_MASK.astype(np.int64)  # KQ[s]: the king and queen of suit s (a marriage)
ACES = np.int64(RANK_MASK[5])  # the four aces (the ace marriage)
ALL_CARDS = np.int64((1 << 24) - 1)
NINE, JACK, QUEEN, KING, TEN, ACE = range(6)  # ranks
# Points of every 6-bit suit pattern (bit r = rank r held).
_SUIT_POINTS = np.array(
    [sum(RANK_POINTS[r] for r in range(6) if p >> r & 1) for p in range(64)], dtype=np.int64
)


@hot
def lowest(mask: int) -> int:
    """Lowest card id in a non-empty mask."""
    return np.int64(trailing_zeros(np.uint64(mask)))  # type: ignore[call-arg]


@hot
def highest(mask: int) -> int:
    """Highest card id in a non-empty mask."""
    return 63 - np.int64(leading_zeros(np.uint64(mask)))  # type: ignore[call-arg]


@intrinsic
def _ctpop(typingctx, x):  # type: ignore[no-untyped-def]
    """LLVM's population count of an ``int64`` (one ``popcnt`` where the processor has it)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return sig, codegen


@hot
def popcount(x: int) -> int:
    """Number of set bits of a mask (cards, seats, suits: never negative)."""
    return _ctpop(np.int64(x))  # type: ignore[call-arg]


@hot
def suit_of(card: int) -> int:
    """``card // 6`` for a card id (0 to 23): a multiply and a shift.

    ``//`` on a signed integer of unknown sign compiles to a longer floor division.
    """
    return (card * 43) >> 8


@hot
def seat_after(seat: int, k: int, n: int) -> int:
    """``(seat + k) % n`` for ``0 <= seat + k < 2 n``: the seat ``k`` places on, clockwise.

    Without the division (``n`` is the rules' player count, not a constant), which took
    a few percent of a hand's time where the trick loop computed each follower's seat.
    """
    x = seat + k
    return x - n if x >= n else x


@hot
def rank_count(mask: int, rank: int) -> int:
    """Number of cards of one rank in a mask (the bits of a rank are 6 apart)."""
    x = (int(mask) & int(RANK_BITS[rank])) >> rank
    return int((x * 0x41041 >> 18) & 7)


@hot
def mask_points(mask: int) -> int:
    """Card points of a mask."""
    m = int(mask)
    return int(
        _SUIT_POINTS[m & 63]
        + _SUIT_POINTS[(m >> 6) & 63]
        + _SUIT_POINTS[(m >> 12) & 63]
        + _SUIT_POINTS[(m >> 18) & 63]
    )


@hot
def marriages_of(mask: int) -> int:
    """Suit bitmask of the marriages (K+Q of one suit) in a mask."""
    m = int(mask)
    out = 0
    for s in range(4):
        if m & KQ[s] == KQ[s]:
            out |= 1 << s
    return out


@hot
def mask_to_list(mask: int, out: np.ndarray, start: int, offset: int) -> int:
    """Append the card ids of ``mask`` (plus ``offset``) to ``out`` ascending; new length."""
    n = start
    m = mask
    while m:
        out[n] = lowest(m) + offset
        n += 1
        m &= m - 1
    return n


@hot
def play_masks(legal: np.ndarray, n: int) -> tuple[int, int]:
    """A card decision's legal codes ``legal[:n]`` as masks: plain cards, declaring leads.

    The inverse of :func:`mask_to_list` for the PLAY codes of ``PROTOCOL.md`` (a
    declaring lead is ``DECLARE`` + its card).
    """
    plain = np.int64(0)
    declaring = np.int64(0)
    for k in range(n):
        if legal[k] >= DECLARE:
            declaring |= np.int64(1) << (legal[k] - DECLARE)
        else:
            plain |= np.int64(1) << legal[k]
    return plain, declaring
