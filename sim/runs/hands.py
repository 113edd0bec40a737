"""A ``hands`` run: play N deals in chunks, write ``hands.parquet`` and the trace.

The engine is imported by the functions that play (in the workers), not by this
module: the process that drives a run on worker processes does not load it.

Each chunk of slots is played by the fast engine (on the backend of
:mod:`sim.batch.runner`), turned into tidy rows (one per dealt deal: the redealt ones,
then the played one) and kept as a part file; the parts are joined in chunk order,
so memory stays at a few chunks whatever N is and the file is the same whatever the
workers. ``--aggregate-only`` keeps only the counts the bid tables need.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from sim.batch.runner import (
    ROW_GROUP,
    Chunk,
    Destination,
    PlayJob,
    frame_part,
    json_part,
    run_to,
    traces_part,
)
from sim.schema import BID_KEYS

if TYPE_CHECKING:
    from sim.engine import HandsBatch

CHUNK = 1 << 17

_PLAYED_INT_COLUMNS = [
    "winning_bid",
    "contract",
    "declarer_total",
    "talon_points",
    "talon_marriages",
    "declarer_marriages_after",
    "discard_1",
    "discard_2",
    "trump_named",
    "talon_pick",
]
_PLAYED_BOOL_COLUMNS = ["at_100", "conceded", "made", "talon_shown"]


# the columns before those read from the batch's rows
_FIRST_COLUMNS = (
    "deal_id", "attempt", "dealer", "reshuffled", "reshuffle_seat", "reshuffle_reason",
)  # fmt: skip


@dataclass
class _Layout:
    """Where a batch's deals lie in its tidy rows (:func:`hands_frame`, :func:`hands_part`).

    Rows come in ``(deal_id, attempt)`` order: each slot's redealt deals, then its
    played one. ``from_out`` maps each column read from the batch's rows to its row
    index and dtype; ``order`` is the file's column order (the par's columns apart).
    """

    n: int
    total: int  # rows
    first: np.ndarray  # each slot's first row
    at_played: np.ndarray  # each slot's played row
    is_played: np.ndarray  # by row
    slot: np.ndarray  # each redealt row's slot, and its attempt
    attempt: np.ndarray
    deal_id: np.ndarray  # by row: the deal id, the attempt (int16), the dealer (int32)
    attempt_row: np.ndarray
    dealer_row: np.ndarray
    from_out: dict[str, tuple[int, type]]
    order: list[str]


def _read_columns(players: int) -> tuple[dict[str, tuple[int, type]], list[str]]:
    """The columns read from a batch's rows, and the file's column order.

    Each column read with its row index and the dtype it is written as (a played
    deal's value at its row, null at the redealt rows); the order leaves out the par's
    columns.
    """
    from sim.engine.state import ROW, SEAT_BASES

    assert SEAT_BASES[-1] == "bolt"  # the bolts come after the other per-seat columns
    from_out: dict[str, tuple[int, type]] = {"declarer": (ROW["declarer"], np.int32)}
    for c in _PLAYED_INT_COLUMNS:
        from_out[c] = (ROW[c], np.int32)
    for b in SEAT_BASES[:-1]:
        for s in range(players):
            from_out[f"{b}_{s}"] = (ROW[f"{b}_{s}"], np.int32)
    for c in _PLAYED_BOOL_COLUMNS:
        from_out[c] = (ROW[c], np.bool_)
    for s in range(players):
        from_out[f"bolt_{s}"] = (ROW[f"bolt_{s}"], np.bool_)
    from_out["special"] = (ROW["special"], np.int8)
    if players == 2:
        from_out["last_talon_to"] = (ROW["last_talon_to"], np.int32)
    else:
        del from_out["talon_pick"]
    order = [*_FIRST_COLUMNS, *from_out]
    if players == 2:
        order += [f"{b}_2" for b in SEAT_BASES]
    return from_out, order


def _layout(
    batch: HandsBatch, redeals: np.ndarray | None = None, dealers: np.ndarray | None = None
) -> _Layout:
    """The batch's layout; ``redeals`` and ``dealers`` (by slot) when already read."""
    from sim.engine.columns import slot_rows
    from sim.engine.state import ROW

    out = batch.out
    if redeals is None or dealers is None:  # contiguous, as hands_part passes them
        redeals = np.ascontiguousarray(out[:, ROW["redeals"]])
        dealers = np.ascontiguousarray(out[:, ROW["dealer"]])
    first, slot, attempt, deal_id, attempt_row, dealer_row, is_played = slot_rows(
        redeals, dealers, batch.start
    )
    from_out, order = _read_columns(batch.rules.players)
    return _Layout(
        len(batch), len(is_played), first, first + redeals, is_played, slot, attempt,
        deal_id, attempt_row, dealer_row, from_out, order,
    )  # fmt: skip


def hands_frame(
    batch: HandsBatch,
    columns: Sequence[str] | None = None,
    par: tuple[np.ndarray, np.ndarray] | None = None,
) -> pl.DataFrame:
    """Tidy rows of a batch: one per dealt deal, redealt ones with nulls after the reason.

    Columns: those of docs/cli.md's ``hands.parquet`` plus ``attempt`` (0 for the first
    deal of a slot), ``talon_shown``, ``trump_named`` (-1 none), ``discard_1`` and
    ``discard_2`` (card ids given to the declarer's left and right; -1 none),
    ``talon_marriages`` (suit bitmask), and for 2 players ``talon_pick`` and
    ``last_talon_to``. Per-seat columns run over the game's seats; a 2-player run's
    ``_2`` columns are null; with 4 players the dealer sits out and scores the talon
    (``card_points``, ``marriage_points``, ``delta`` of the dealer's seat).

    Rows come in ``(deal_id, attempt)`` order: each slot's redealt deals, then its
    played one. Each column is laid out in that order at once (a played deal's value
    at its row, null at the redealt rows), so no frame is reordered afterwards: the
    columns of the batch's rows in one compiled pass over them
    (:func:`sim.engine.columns.spread_columns`), their nulls from one mask.
    ``columns`` builds only those (the aggregate of ``--aggregate-only`` needs few).
    ``par`` (``par_total``, ``par_best`` per slot, :func:`sim.solver.deals.par_columns`)
    adds those two columns at the end.
    """
    from sim.engine.columns import spread_columns
    from sim.engine.state import REASONS, SEAT_BASES, SPECIALS

    lay = _layout(batch)
    out = batch.out
    total, first = lay.total, lay.first
    at_played, is_played, slot, attempt = lay.at_played, lay.is_played, lay.slot, lay.attempt
    players = batch.rules.players
    # the columns read from ``out`` in one pass (``spread_columns``)
    from_out = lay.from_out
    names = [*from_out] if columns is None else [c for c in columns if c in from_out]
    spread = spread_columns(
        out, np.array([from_out[c][0] for c in names], dtype=np.int64), at_played, total
    )
    played: dict[str, pl.Series] = {}
    for j, c in enumerate(names):
        values = spread[j] if from_out[c][1] is np.int32 else spread[j].astype(from_out[c][1])
        played[c] = pl.Series(c, values)
    if "special" in played:
        played["special"] = played["special"].replace_strict(
            dict(enumerate(SPECIALS)), return_dtype=pl.String
        )
    if par is not None:
        for c, values in zip(("par_total", "par_best"), par, strict=True):
            full: np.ndarray = np.zeros(total, dtype=np.int32)
            full[at_played] = values
            played[c] = pl.Series(c, full)

    def redealt(name: str, values: np.ndarray, dtype: type) -> pl.Series:
        """A redealt deal's value at its row (null at the played rows, set below)."""
        full: np.ndarray = np.zeros(total, dtype=dtype)
        full[first[slot] + attempt] = values
        return pl.Series(name, full)

    builders: dict[str, Callable[[], pl.Series]] = {
        "deal_id": lambda: pl.Series("deal_id", lay.deal_id),
        "attempt": lambda: pl.Series("attempt", lay.attempt_row),
        "dealer": lambda: pl.Series("dealer", lay.dealer_row.astype(np.int8)),
        "reshuffled": lambda: pl.Series("reshuffled", ~is_played),
        "reshuffle_seat": lambda: redealt(
            "reshuffle_seat", batch.redeal_seat[slot, attempt], np.int8
        ),
        "reshuffle_reason": lambda: redealt(
            "reshuffle_reason", batch.redeal_reason[slot, attempt], np.int8
        ).replace_strict(dict(enumerate(REASONS)), return_dtype=pl.String),
    }
    order = list(lay.order)  # the file's column order
    if players == 2:
        for b in SEAT_BASES:
            kind = pl.Boolean if b == "bolt" else pl.Int32
            builders[f"{b}_2"] = partial(pl.Series, f"{b}_2", [None] * total, kind)
    if par is not None:
        order += ["par_total", "par_best"]
    wanted = order if columns is None else columns
    frame = pl.DataFrame([played[c] if c in played else builders[c]() for c in wanted])
    # the nulls, one mask for every column of a kind (with no deal redealt, the
    # reshuffle's columns are all null)
    mask = pl.Series("", is_played)
    return frame.with_columns(
        *(pl.when(mask).then(pl.col(c)).alias(c) for c in frame.columns if c in played),
        *(
            pl.when(~mask).then(pl.col(c)).alias(c)
            for c in ("reshuffle_seat", "reshuffle_reason")
            if c in frame.columns
        ),
    )


def hands_part(batch: HandsBatch, par: tuple[np.ndarray, np.ndarray] | None = None) -> bytes:
    """The batch's ``hands.parquet`` part: :func:`hands_frame`'s frame as the run writes it.

    The same bytes as :func:`sim.batch.runner.frame_part` of that frame, written without
    building it (:func:`sim.batch.parquet_write.write_columns`): a played deal's values
    are read from the batch's rows as they are, one validity bitmap says which rows
    hold them, and the redealt rows' reasons come from the redeal logs alone.
    """
    from sim.batch.parquet_write import Column, write_columns
    from sim.engine.columns import spread_columns
    from sim.engine.state import REASONS, ROW, SEAT_BASES, SPECIALS

    out = batch.out
    n = len(batch)
    from_out, _ = _read_columns(batch.rules.players)
    names = list(from_out)
    # their columns of the rows in one pass, each contiguous (and the redeals and the
    # dealer, which lay the rows out); each column's row is 24 values longer than the
    # batch (a chunk of 2**17 deals would put every column at a multiple of 4 KiB,
    # where the writes of all columns contend for one cache set)
    read = spread_columns(
        out,
        np.array([from_out[c][0] for c in names] + [ROW["redeals"], ROW["dealer"]], np.int64),
        np.arange(n), n + 24,
    )  # fmt: skip
    lay = _layout(batch, read[-2, :n], read[-1, :n])
    redealt = ~lay.is_played
    dtypes = {np.int32: pl.Int32, np.bool_: pl.Boolean, np.int8: pl.Int8}
    columns = {
        "deal_id": Column("deal_id", pl.Int64, lay.deal_id),
        "attempt": Column("attempt", pl.Int16, lay.attempt_row),
        "dealer": Column("dealer", pl.Int8, lay.dealer_row),
        "reshuffled": Column("reshuffled", pl.Boolean, redealt),
        "reshuffle_seat": Column(
            "reshuffle_seat", pl.Int8, batch.redeal_seat[lay.slot, lay.attempt], redealt
        ),
        "reshuffle_reason": Column(
            "reshuffle_reason", pl.String, batch.redeal_reason[lay.slot, lay.attempt], redealt,
            REASONS,
        ),
    }  # fmt: skip
    for k, name in enumerate(names):
        values = read[k, :n]
        dtype = lay.from_out[name][1]
        if name == "special":  # its first code is none: a null
            valid = np.zeros(lay.total, dtype=bool)
            valid[lay.at_played] = values != 0
            words = tuple(w or "" for w in SPECIALS)
            columns[name] = Column(name, pl.String, values[values != 0], valid, words)
        else:
            columns[name] = Column(name, dtypes[dtype], values, lay.is_played)
    if batch.rules.players == 2:  # the third seat's columns are null
        empty = np.zeros(lay.total, dtype=bool)
        for b in SEAT_BASES:
            kind = pl.Boolean if b == "bolt" else pl.Int32
            columns[f"{b}_2"] = Column(f"{b}_2", kind, np.zeros(0, np.int32), empty)
    order = list(lay.order)
    if par is not None:
        for name, values in zip(("par_total", "par_best"), par, strict=True):
            columns[name] = Column(name, pl.Int32, values, lay.is_played)
            order.append(name)
    return write_columns([columns[c] for c in order], lay.total, ROW_GROUP)


AGG_KEYS = [*BID_KEYS, "declarer_hand_points"]  # what the bid tables count deals by


def aggregate_hands(frame: pl.DataFrame, players: int) -> pl.DataFrame:
    """Counts of deals per combination of the columns the bid tables read.

    The ``--aggregate-only`` form of ``hands.parquet``: one row per distinct
    ``AGG_KEYS`` value (``declarer_hand_points`` is the declarer's dealt hand
    points) with its ``count``; a few thousand rows whatever the number of deals.
    """
    points = pl.lit(None, dtype=pl.Int32)
    for s in reversed(range(players)):
        points = pl.when(pl.col("declarer") == s).then(pl.col(f"hand_points_{s}")).otherwise(points)
    return (
        frame.with_columns(points.alias("declarer_hand_points"))
        .group_by(AGG_KEYS)
        .agg(pl.len().cast(pl.Int64).alias("count"))
    )


def aggregate_columns(players: int) -> list[str]:
    """The columns of the hands frame :func:`aggregate_hands` reads."""
    keys = [k for k in AGG_KEYS if k != "declarer_hand_points"]
    return keys + [f"hand_points_{s}" for s in range(players)]


def aggregate_batch(batch: HandsBatch) -> pl.DataFrame:
    """:func:`aggregate_hands` of the batch's frame, counted without building the frame.

    Each dealt deal's keys are packed into one integer in one compiled pass over the
    batch's rows (:func:`sim.engine.columns.aggregate_codes`), the integers counted,
    and the keys unpacked from the distinct ones: the same rows (in another order)
    at a sixth of the time of the frame and its ``group_by``. A batch with a value too
    wide for its field (none in any preset) is counted through the frame.
    """
    from sim.engine.columns import AGG_FIELD_BITS, aggregate_codes
    from sim.engine.state import ROW

    players = batch.rules.players
    keys = ["dealer", "redeals", *AGG_KEYS[2:8]]
    flags = np.array([k in _PLAYED_BOOL_COLUMNS for k in keys])
    points = np.array([ROW[f"hand_points_{s}"] for s in range(players)], dtype=np.int64)
    cols = np.array([ROW[k] for k in keys], dtype=np.int64)
    codes, fits = aggregate_codes(batch.out, cols, flags, points, players)
    if not fits:
        return aggregate_hands(hands_frame(batch, aggregate_columns(players)), players)
    counted = pl.Series("code", codes).value_counts(name="count")
    code = counted["code"].to_numpy()
    columns: dict[str, pl.Series] = {}
    shift = 0
    for j, (name, width) in enumerate(zip(AGG_KEYS, AGG_FIELD_BITS, strict=True)):
        field = (code >> shift) & ((1 << width) - 1)
        shift += width
        if j == 0:
            columns[name] = pl.Series(name, field, dtype=pl.Int8)
        elif j == 1:
            columns[name] = pl.Series(name, field == 1)
        elif name in _PLAYED_BOOL_COLUMNS:
            columns[name] = _with_nulls(name, field == 2, field == 0)
        else:
            columns[name] = _with_nulls(name, (field - 2).astype(np.int32), field == 0)
    columns["count"] = counted["count"].cast(pl.Int64)
    return pl.DataFrame(list(columns.values()))


def _with_nulls(name: str, values: np.ndarray, nulls: np.ndarray) -> pl.Series:
    """``values`` with a null where ``nulls`` is set.

    Set on the series itself: an Arrow array read back (``pl.from_arrow``) loaded pandas,
    a third of a second of every worker's first chunk.
    """
    return pl.Series(name, values).set(pl.Series(nulls), None)


def merge_aggregates(parts: Sequence[pl.DataFrame]) -> pl.DataFrame:
    """Sum aggregate tables of several chunks; rows sorted by their keys."""
    return (
        pl.concat(parts)
        .group_by(AGG_KEYS)
        .agg(pl.col("count").sum())
        .sort(AGG_KEYS, nulls_last=True)
    )


class _AggregateFold:
    """Sum the aggregate parts of a run, 64 chunks at a time: memory stays small."""

    def __init__(self) -> None:
        self._sum: pl.DataFrame | None = None
        self._batch: list[pl.DataFrame] = []

    def add(self, part: Path) -> None:
        self._batch.append(pl.read_parquet(part))
        if len(self._batch) == 64:
            self._fold()

    def _fold(self) -> None:
        parts = self._batch if self._sum is None else [self._sum, *self._batch]
        self._sum = merge_aggregates(parts)
        self._batch = []

    def total(self) -> pl.DataFrame:
        if self._batch or self._sum is None:
            self._fold()
        assert self._sum is not None
        return self._sum


@dataclass(frozen=True)
class HandsJob(PlayJob):
    """What a worker needs to play a chunk of a hands run (pickled to it)."""

    aggregate_only: bool
    par: bool = False


def hands_chunk(job: HandsJob, chunk: Chunk) -> dict[str, bytes]:
    """Play one chunk of slots; its part files as bytes (sim.batch.runner)."""
    from sim.engine import play_hands
    from sim.engine.state import ROW

    batch = play_hands(
        job.rules, chunk.n, job.seed, job.strategies, job.params, start=chunk.start,
        trace=job.trace or job.par,
    )  # fmt: skip
    par = None
    if job.par:
        from sim.solver.deals import deal_cards, par_columns

        par = par_columns(job.rules, deal_cards(batch))
    out: dict[str, bytes] = {}
    if job.aggregate_only:
        frame = aggregate_batch(batch)
        out["hands_agg.parquet"] = frame_part(frame)
        rows = int(frame["count"].sum())
    else:
        out["hands.parquet"] = hands_part(batch, par)
        rows = len(batch) + int(batch.out[:, ROW["redeals"]].sum())
    if job.trace:
        out["trace.jsonl"] = traces_part(batch.traces())
    out["counts.json"] = json_part({"rows": rows, "played": chunk.n})
    return out


def run_hands(job: HandsJob, deals: int, to: Destination) -> dict[str, Any]:
    """Play ``deals`` slots and write ``hands.parquet`` into ``to.out_dir``; summary counts.

    Chunks run as ``to`` says (:class:`sim.batch.runner.Destination`). With the job's
    ``aggregate_only`` the file is ``hands_agg.parquet`` (:func:`aggregate_batch`); with
    its ``par`` each played deal also gets its open-card par (``par_total``,
    ``par_best``). The job keeps traces when ``to.trace`` takes them.
    """
    job = replace(job, trace=to.trace is not None)
    folded = _AggregateFold() if job.aggregate_only else None
    counts = run_to(
        hands_chunk, job, deals, to, CHUNK,
        parquet=("hands.parquet",) if folded is None else (),
        fold=None if folded is None else ("hands_agg.parquet", folded.add),
    )  # fmt: skip
    if folded is not None:
        folded.total().write_parquet(to.out_dir / "hands_agg.parquet", compression="zstd")
    rows = sum(c["rows"] for c in counts)
    played = sum(c["played"] for c in counts)
    return {"deals": played, "rows": rows, "redealt": rows - played, "chunks": len(counts)}
