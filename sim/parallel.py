"""Thread settings of the compiled kernels (numba's thread pool)."""

from __future__ import annotations

import numba


def max_threads() -> int:
    """Threads numba was started with (all cores unless NUMBA_NUM_THREADS says less)."""
    return int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]


def set_threads(workers: int | None) -> int:
    """Use ``workers`` threads (capped at :func:`max_threads`; None: all); return the count."""
    n = max_threads() if workers is None else max(1, min(int(workers), max_threads()))
    numba.set_num_threads(n)
    return n
