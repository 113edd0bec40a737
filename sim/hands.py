"""A ``hands`` run: play N deals in chunks, stream ``hands.parquet`` and the trace.

Each chunk of slots is played by the fast engine, turned into tidy rows (one per
dealt deal: the redealt ones, then the played one) and appended to the Parquet file
as a row group, so memory stays at one chunk whatever N is.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

import numpy as np
import polars as pl
import pyarrow.parquet as pq

from sim.engine import HandsBatch, play_hands
from sim.engine.api import SEAT_BASES, game_seat_columns
from sim.engine.state import OUT, REASONS, SPECIALS
from sim.rules import Rules

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
_SEAT_INT_BASES = [b for b in SEAT_BASES if b != "bolt"]
_SEAT_VALUED = ["declarer", "last_talon_to"]
_PLAYED_BOOL_COLUMNS = ["at_100", "conceded", "made", "talon_shown"]


def hands_frame(batch: HandsBatch) -> pl.DataFrame:
    """Tidy rows of a batch: one per dealt deal, redealt ones with nulls after the reason.

    Columns: those of CLI.md's ``hands.parquet`` plus ``attempt`` (0 for the first
    deal of a slot), ``talon_shown``, ``trump_named`` (-1 none), ``discard_1`` and
    ``discard_2`` (card ids given to the declarer's left and right; -1 none),
    ``talon_marriages`` (suit bitmask), and for 2 players ``talon_pick`` and
    ``last_talon_to``. Per-seat columns run over the game's seats; a 2-player run's
    ``_2`` columns are null; with 4 players the dealer sits out and scores the talon
    (``card_points``, ``marriage_points``, ``delta`` of the dealer's seat).
    """
    out = batch.out
    n = len(batch)
    players = batch.rules.players
    seats = game_seat_columns(batch.rules, out)
    redeals = out[:, OUT["redeals"]].astype(np.int64)
    deal_ids = batch.start + np.arange(n, dtype=np.int64)
    per_seat = [f"{b}_{s}" for b in _SEAT_INT_BASES for s in range(players)]
    bolts = [f"bolt_{s}" for s in range(players)]
    frame = pl.DataFrame(
        {
            "deal_id": deal_ids,
            "attempt": redeals.astype(np.int16),
            "dealer": out[:, OUT["dealer"]].astype(np.int8),
            "reshuffled": np.zeros(n, dtype=bool),
        }
    ).with_columns(
        pl.lit(None, dtype=pl.Int8).alias("reshuffle_seat"),
        pl.lit(None, dtype=pl.String).alias("reshuffle_reason"),
        *[pl.Series(c, seats[c].astype(np.int32)) for c in _SEAT_VALUED[:1]],
        *[pl.Series(c, out[:, OUT[c]].astype(np.int32)) for c in _PLAYED_INT_COLUMNS],
        *[pl.Series(c, seats[c].astype(np.int32)) for c in per_seat],
        *[pl.Series(c, out[:, OUT[c]].astype(bool)) for c in _PLAYED_BOOL_COLUMNS],
        *[pl.Series(c, seats[c].astype(bool)) for c in bolts],
        pl.Series(
            "special",
            np.array(SPECIALS, dtype=object)[out[:, OUT["special"]]].tolist(),
            dtype=pl.String,
        ),
    )
    if players == 2:
        frame = frame.with_columns(
            pl.Series("last_talon_to", seats["last_talon_to"].astype(np.int32)),
            *[pl.lit(None, dtype=pl.Int32).alias(f"{b}_2") for b in _SEAT_INT_BASES],
            pl.lit(None, dtype=pl.Boolean).alias("bolt_2"),
        )
    else:
        frame = frame.drop("talon_pick")
    slot, attempt = np.nonzero(np.arange(batch.redeal_seat.shape[1])[None, :] < redeals[:, None])
    if len(slot) == 0:
        return frame
    reasons = np.array(REASONS, dtype=object)[batch.redeal_reason[slot, attempt]]
    redealt = pl.DataFrame(
        {
            "deal_id": deal_ids[slot],
            "attempt": attempt.astype(np.int16),
            "dealer": out[slot, OUT["dealer"]].astype(np.int8),
            "reshuffled": np.ones(len(slot), dtype=bool),
            "reshuffle_seat": batch.redeal_seats()[slot, attempt].astype(np.int8),
            "reshuffle_reason": pl.Series(reasons.tolist(), dtype=pl.String),
        }
    )
    both = pl.concat([frame, redealt], how="diagonal_relaxed")
    return both.sort("deal_id", "attempt")


def run_hands(
    rules: Rules,
    deals: int,
    seed: int,
    out_dir: Path,
    strategies: Sequence[str],
    params: Sequence[str],
    trace: IO[str] | None = None,
    chunk: int = CHUNK,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``deals`` slots and write ``out_dir/hands.parquet``; return summary counts."""
    writer: pq.ParquetWriter | None = None
    rows = 0
    played = 0
    try:
        for start in range(0, deals, chunk):
            n = min(chunk, deals - start)
            batch = play_hands(
                rules, n, seed, strategies, params, start=start, trace=trace is not None
            )
            table = hands_frame(batch).to_arrow()
            if writer is None:
                writer = pq.ParquetWriter(
                    out_dir / "hands.parquet", table.schema, compression="zstd"
                )
            writer.write_table(table)
            rows += table.num_rows
            played += n
            if trace is not None:
                for doc in batch.traces():
                    trace.write(json.dumps(doc, separators=(",", ":")) + "\n")
            if progress is not None:
                progress(n)
    finally:
        if writer is not None:
            writer.close()
    return {"deals": played, "rows": rows, "redealt": rows - played}
