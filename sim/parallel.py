"""Process settings of a run: compiled-code threads and how memory is kept."""

from __future__ import annotations

import ctypes
import os
import sys


def max_threads() -> int:
    """Threads numba starts with: NUMBA_NUM_THREADS, else the cores this process may use.

    Computed as numba computes it, without importing numba (a process that only
    drives worker processes never loads the compiled engine).
    """
    if "numba" in sys.modules:
        return int(sys.modules["numba"].config.NUMBA_NUM_THREADS)
    if os.environ.get("NUMBA_NUM_THREADS"):
        return max(1, int(os.environ["NUMBA_NUM_THREADS"]))
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def set_threads(workers: int | None) -> int:
    """Use ``workers`` threads (capped at :func:`max_threads`; None: all); return the count."""
    import numba

    n = max_threads() if workers is None else max(1, min(int(workers), max_threads()))
    numba.set_num_threads(n)
    return n


def threads_now() -> int:
    """The threads a parallel kernel called now runs on (:func:`set_threads`)."""
    import numba

    return int(numba.get_num_threads())


# glibc mallopt parameters
_M_TRIM_THRESHOLD, _M_TOP_PAD, _M_MMAP_THRESHOLD, _M_ARENA_MAX = -1, -2, -3, -8


def keep_freed_memory(one_arena: bool = False) -> bool:
    """Let this process reuse the memory it frees instead of handing it back (glibc).

    A run allocates the same large arrays chunk after chunk. By default glibc maps
    every block over 128 KiB afresh and unmaps it when freed, so each chunk faults its
    memory back in page by page: about a tenth of a hands run went to the kernel.
    With higher mmap and trim thresholds the blocks stay in the heap for the next
    chunk; the peak memory is the same. Returns whether the settings took (False on
    a C library without ``mallopt``).

    ``one_arena`` (for worker processes, which compute on one thread) makes every
    thread allocate from the main heap: a Dask worker computes on a thread of its
    own, whose separate heap is capped at 64 MiB and kept mapping and unmapping a
    chunk's arrays whatever the thresholds.
    """
    try:
        mallopt = ctypes.CDLL(None).mallopt  # the C library this process runs on
    except (OSError, AttributeError):
        return False
    settings = [
        (_M_MMAP_THRESHOLD, 32 << 20),  # glibc's largest: blocks up to 32 MiB
        (_M_TRIM_THRESHOLD, 256 << 20),
        (_M_TOP_PAD, 16 << 20),
    ]
    if one_arena:
        settings.append((_M_ARENA_MAX, 1))
    return all(mallopt(param, value) == 1 for param, value in settings)
