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
    per column (``sim.runs.hands.hands_frame``: half its time on 2**17 deals). Only
    the rows no deal lands at are zeroed, not the whole array first (a sixth of the
    pass on 2**17 deals).
    """
    k = cols.shape[0]
    full = np.empty((k, total), dtype=np.int32)
    landed = np.zeros(total, dtype=np.bool_)
    for i in range(out.shape[0]):
        r = at[i]
        landed[r] = True
        for j in range(k):
            full[j, r] = out[i, cols[j]]
    for r in range(total):
        if not landed[r]:
            for j in range(k):
                full[j, r] = 0
    return full


@compiled
def slot_rows(
    redeals: np.ndarray, dealers: np.ndarray, start: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Where each slot's deals lie among a batch's tidy rows, in one pass over its slots.

    A slot of ``r`` redeals (``redeals``, by slot) has ``r + 1`` rows: its redealt
    deals (attempts ``0 .. r-1``), then its played one. Returns, by slot, its first
    row; by redealt deal, its slot and its attempt; and by row, the deal id (``start``
    + slot), the attempt (int16), the dealer (``dealers``, by slot; int32) and whether
    the row is the slot's played deal (``sim.runs.hands.hands_part``).
    """
    n = redeals.shape[0]
    total = n
    for i in range(n):
        total += np.int64(redeals[i])
    first = np.empty(n, dtype=np.int64)
    slot = np.empty(total - n, dtype=np.int64)
    attempt = np.empty(total - n, dtype=np.int64)
    deal_id = np.empty(total, dtype=np.int64)
    attempt_row = np.empty(total, dtype=np.int16)
    dealer = np.empty(total, dtype=np.int32)
    played = np.empty(total, dtype=np.bool_)
    row = 0
    k = 0
    for i in range(n):
        r = np.int64(redeals[i])
        first[i] = row
        for a in range(r + 1):
            deal_id[row] = start + i
            attempt_row[row] = a
            dealer[row] = dealers[i]
            played[row] = a == r
            row += 1
        for a in range(r):
            slot[k] = i
            attempt[k] = a
            k += 1
    return first, slot, attempt, deal_id, attempt_row, dealer, played


# The fields of an aggregate row's code (:func:`aggregate_codes`), lowest bits first:
# the dealer, whether redealt, then 0 for a null, else a flag as 1 (False) or 2 (True)
# and a number as its value plus 2 (-1 is "none" in some columns).
AGG_FIELD_BITS = (3, 1, 4, 2, 12, 2, 2, 6, 9)


@compiled
def aggregate_codes(
    out: np.ndarray, cols: np.ndarray, flags: np.ndarray, points: np.ndarray, players: int
) -> tuple[np.ndarray, bool]:
    """Every dealt deal's aggregate row as one integer, its fields by ``AGG_FIELD_BITS``.

    The fields are those of ``sim.runs.hands.AGG_KEYS``: the dealer (column
    ``cols[0]`` of ``out``), whether the deal was redealt (the slot's redeals are at
    ``cols[1]``), then for a played deal the columns ``cols[2:8]`` (``flags[j]``: column
    ``cols[j]`` is a flag) and the declarer's dealt hand points (column ``points[s]``
    for seat ``s``; null when the declarer is no seat), all null for a redealt deal. A
    slot's redealt deals come first (the order does not matter to the counts). The
    flag returned is False when a value does not fit its field.
    """
    n = out.shape[0]
    total = 0
    for i in range(n):
        total += out[i, cols[1]] + 1
    codes = np.empty(total, dtype=np.int64)
    fits = True
    r = 0
    for i in range(n):
        dealer = np.int64(out[i, cols[0]])
        fits = fits and 0 <= dealer < 1 << AGG_FIELD_BITS[0]
        for _ in range(out[i, cols[1]]):
            codes[r] = dealer | 1 << AGG_FIELD_BITS[0]  # redealt: the rest null
            r += 1
        code = dealer
        shift = AGG_FIELD_BITS[0] + AGG_FIELD_BITS[1]
        for j in range(2, 8):
            v = np.int64(out[i, cols[j]])
            stored = (2 if v != 0 else 1) if flags[j] else v + 2
            fits = fits and 1 <= stored < 1 << AGG_FIELD_BITS[j]
            code |= stored << shift
            shift += AGG_FIELD_BITS[j]
        decl = out[i, cols[2]]
        if 0 <= decl < players:
            stored = np.int64(out[i, points[decl]]) + 2
            fits = fits and 1 <= stored < 1 << AGG_FIELD_BITS[8]
            code |= stored << shift
        codes[r] = code
        r += 1
    return codes, fits
