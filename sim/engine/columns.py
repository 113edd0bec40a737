"""A batch's rows laid out as a frame's columns, compiled (the writer of a hands run).

Kept apart from the engine's modules: nothing the engine compiles imports it, so an
edit here recompiles this kernel alone.
"""

from __future__ import annotations

import numpy as np

from sim.jit import compiled


@compiled
def spread_columns(out: np.ndarray, cols: np.ndarray, at: np.ndarray, total: int) -> np.ndarray:
    """Columns ``cols`` of the rows ``out``, each laid out over ``total`` rows.

    Returns ``(len(cols), total)`` int32: row ``i`` of ``out`` lands at row ``at[i]``
    of every column, the other rows are 0. One pass over ``out`` in row order, so a
    frame's columns come without transposing the whole batch and without a gather
    per column (``sim.runs.hands.hands_frame``: half its time on 2**17 deals).
    """
    k = cols.shape[0]
    full = np.zeros((k, total), dtype=np.int32)
    for i in range(out.shape[0]):
        r = at[i]
        for j in range(k):
            full[j, r] = out[i, cols[j]]
    return full
