"""Counter-based random numbers on Python integers: the plain twin of :mod:`sim.rng`."""

from __future__ import annotations

from functools import lru_cache

from sim.rng import Stream, stream_key

MASK64 = (1 << 64) - 1
LOW32 = (1 << 32) - 1
GAMMA = 0x9E3779B97F4A7C15
GAMMA2 = 0xD1B54A32D192ED03


def mix64(z: int) -> int:
    """SplitMix64's output function on a 64-bit unsigned integer."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def item_state(key: int, index: int) -> int:
    """Sub-seed of item ``index`` of the stream with 64-bit ``key``."""
    return mix64(int(key) + ((int(index) & MASK64) + 1) * GAMMA2)


def word(state: int, j: int) -> int:
    """The ``j``-th 64-bit random word of an item with sub-seed ``state``."""
    return mix64(state + ((int(j) & MASK64) + 1) * GAMMA)


def bounded(state: int, counter: int, bound: int) -> tuple[int, int]:
    """Uniform integer in ``[0, bound)`` by Lemire's method, as :func:`sim.rng.bounded`.

    Args:
        state: the item's sub-seed.
        counter: number of the next 32-bit half-word of the item.
        bound: exclusive upper bound, ``1 <= bound < 2**32``.

    Returns:
        The value and the next counter.
    """
    while True:
        w = word(state, counter >> 1)
        x = (w >> 32) if counter & 1 else (w & LOW32)
        counter += 1
        m = x * bound
        low = m & LOW32
        if low >= bound or low >= ((1 << 32) - bound) % bound:
            return m >> 32, counter


@lru_cache(maxsize=64)
def _stream_key(seed: int, stream: Stream) -> int:
    """Key of one random stream of a run, as a Python integer."""
    return int(stream_key(seed, stream))
