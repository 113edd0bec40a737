"""Counter-based random numbers for compiled code.

Results must depend only on ``(seed, rules, strategies, n)``, never on how the
work is chunked or how many threads or workers run it. So no compiled loop draws
from a stateful generator: every random word is a pure function of ``(stream key,
item index, word number)``.

The mixer is SplitMix64's output function. For item ``i`` the words are
``mix(s_i + (j + 1) * GAMMA)`` with ``s_i = mix(key + (i + 1) * GAMMA2)``: the
SplitMix64 sequence seeded at ``s_i``, which passes BigCrush as a stream.
Stream keys come from :class:`numpy.random.SeedSequence` with a spawn key naming the
stream, so different purposes (deals, strategy choices, tie-breaks) never share
words.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from numba import njit

import sim.jit  # noqa: F401  (the compiled-code cache: sim.cache)

GAMMA = np.uint64(0x9E3779B97F4A7C15)
GAMMA2 = np.uint64(0xD1B54A32D192ED03)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)
_ONE = np.uint64(1)


class Stream(IntEnum):
    """Independent random streams of one run."""

    DEALS = 0
    STRATEGY = 1
    TIEBREAK = 2
    GAME = 3  # per-game draws (the first dealer)
    GAME_DEALS = 4  # the cards of whole games' deals
    CUT = 5  # the cut, the talon's deal positions and the bottom-card ritual (docs/rules.md §2)


def stream_key(seed: int, stream: Stream | int) -> np.uint64:
    """The 64-bit key of one stream of a run seeded with ``seed``."""
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or int(seed) < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    ss = np.random.SeedSequence(int(seed), spawn_key=(int(stream),))
    return np.uint64(ss.generate_state(1, dtype=np.uint64)[0])


@njit(cache=True, inline="always")
def mix64(z: np.uint64) -> np.uint64:
    """SplitMix64 output function: a bijective 64-bit mixer."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True, inline="always")
def item_state(key: np.uint64, index: int) -> np.uint64:
    """Per-item sub-seed ``s_i`` of a stream."""
    return mix64(key + (np.uint64(index) + _ONE) * GAMMA2)


@njit(cache=True, inline="always")
def word(state: np.uint64, j: int) -> np.uint64:
    """The ``j``-th 64-bit random word of an item whose sub-seed is ``state``."""
    return mix64(state + (np.uint64(j) + _ONE) * GAMMA)


@njit(cache=True, inline="always")
def bounded(state: np.uint64, counter: int, bound: int) -> tuple[int, int]:
    """Uniform integer in ``[0, bound)`` (``bound < 2**32``) by Lemire's method.

    ``counter`` numbers 32-bit half-words of the item; returns the value and the
    next counter. Rejection makes the result exactly uniform; it consumes extra
    half-words with probability below ``bound / 2**32``.
    """
    s = np.uint64(bound)
    while True:
        w = word(state, counter >> 1)
        x = (w >> _S32) if (counter & 1) else (w & _LOW32)
        counter += 1
        m = x * s
        low = m & _LOW32
        if low >= s:
            return np.int64(m >> _S32), counter
        threshold = ((_LOW32 + _ONE) - s) % s
        if low >= threshold:
            return np.int64(m >> _S32), counter


@njit(cache=True, inline="always")
def bounded_next(
    state: np.uint64, counter: int, bound: int, w: np.uint64
) -> tuple[int, int, np.uint64]:
    """:func:`bounded`, the same numbers, for callers that draw many in a row.

    ``w`` is the word of the last half-word drawn (anything before the first draw):
    an odd ``counter`` reads its high half instead of mixing the word again, so a
    run of draws costs one mix per two. Returns the value, the next counter and the
    word to pass on.
    """
    s = np.uint64(bound)
    while True:
        if counter & 1:
            x = w >> _S32
        else:
            w = word(state, counter >> 1)
            x = w & _LOW32
        counter += 1
        m = x * s
        low = m & _LOW32
        if low >= s:
            return np.int64(m >> _S32), counter, w
        threshold = ((_LOW32 + _ONE) - s) % s
        if low >= threshold:
            return np.int64(m >> _S32), counter, w
