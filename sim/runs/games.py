"""A ``games`` run: play N whole games in chunks; ``games.parquet`` and ``barrel.parquet``.

The run's driver, on the side of the process that starts it: it imports no compiled
code (the workers play the chunks with :mod:`sim.engine.game`), so a run on worker
processes does not spend its own time loading the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import polars as pl

    from sim.engine.game import GamesBatch
from sim.batch.runner import Chunk, Destination, PlayJob, frame_part, json_part, run_to, traces_part

CHUNK = 4096  # games per chunk by default


# --- the tables of a games run (polars; the engine's batches are numpy arrays) ---------
def games_frame(batch: GamesBatch) -> pl.DataFrame:
    """One row per game with the columns of docs/cli.md's ``games.parquet`` (and a few more).

    Per-seat columns run over the game's seats (a 2-player game's ``_2`` columns are
    null, a 4-player game adds ``_3``); ``bank_{s}`` are the payoffs of GAME_PROTOCOL.md.
    """
    import polars as pl

    from sim.engine.game import GAME_COLUMNS, SEAT_STATS, bank_payoffs

    n = batch.players
    cols: dict[str, Any] = {"game_id": batch.start + np.arange(len(batch), dtype=np.int64)}
    for name in GAME_COLUMNS:
        stat, _, seat = name.rpartition("_")
        if stat in SEAT_STATS and int(seat) >= n:
            continue
        col = batch.column(name)
        if name in ("unfinished", "golden_reset"):
            cols[name] = col.astype(bool)
        elif name in ("first_dealer", "winner"):
            cols[name] = col.astype(np.int8)
        else:
            cols[name] = col.astype(np.int32)
    for s, pay in enumerate(bank_payoffs(batch)):
        cols[f"bank_{s}"] = pay
    frame = pl.DataFrame(cols)
    if n == 2:
        frame = frame.with_columns(
            *[pl.lit(None, dtype=pl.Int32).alias(f"{stat}_2") for stat in SEAT_STATS],
            pl.lit(None, dtype=pl.Float64).alias("bank_2"),
        )
    return frame


def stints_frame(batch: GamesBatch) -> pl.DataFrame:
    """One row per barrel stint: ``game_id, seat, entered_deal, deals_on_barrel, outcome``."""
    import polars as pl

    from sim.engine.game import MAX_STINTS, OUTCOMES

    n_stints = np.minimum(batch.column("n_stints"), MAX_STINTS)
    game, k = np.nonzero(np.arange(MAX_STINTS)[None, :] < n_stints[:, None])
    rows = batch.stints[game, k]
    return pl.DataFrame(
        {
            "game_id": batch.start + game.astype(np.int64),
            "seat": rows[:, 0].astype(np.int8),
            "entered_deal": rows[:, 1].astype(np.int32),
            "deals_on_barrel": rows[:, 2].astype(np.int32),
            "outcome": pl.Series(
                np.array(OUTCOMES, dtype=object)[rows[:, 3]].tolist(), dtype=pl.String
            ),
        }
    )


@dataclass(frozen=True)
class GamesJob(PlayJob):
    """What a worker needs to play a chunk of a games run (pickled to it)."""

    first_dealer: int | None


def games_chunk(job: GamesJob, chunk: Chunk) -> dict[str, bytes]:
    """Play one chunk of games; its part files as bytes (sim.batch.runner)."""
    from sim.engine.game import MAX_STINTS, play_games

    batch = play_games(
        job.rules, chunk.n, job.seed, job.strategies, job.params, start=chunk.start,
        trace=job.trace, first_dealer=job.first_dealer,
    )  # fmt: skip
    out = {
        "games.parquet": frame_part(games_frame(batch)),
        "barrel.parquet": frame_part(stints_frame(batch)),
    }
    if job.trace:
        out["trace.jsonl"] = traces_part(batch.traces())
    counts = {
        "games": chunk.n,
        "stints": int(np.minimum(batch.column("n_stints"), MAX_STINTS).sum()),
        "unfinished": int(batch.column("unfinished").sum()),
    }
    out["counts.json"] = json_part(counts)
    return out


def run_games(job: GamesJob, games: int, to: Destination) -> dict[str, int]:
    """Play ``games`` games; write ``games.parquet`` and ``barrel.parquet`` into ``to.out_dir``.

    Chunks run as ``to`` says (:class:`sim.batch.runner.Destination`); the job keeps
    traces when ``to.trace`` takes them.
    """
    job = replace(job, trace=to.trace is not None)
    parts = run_to(games_chunk, job, games, to, CHUNK, parquet=("games.parquet", "barrel.parquet"))
    counts = {k: sum(c[k] for c in parts) for k in ("games", "stints", "unfinished")}
    counts["chunks"] = len(parts)
    return counts
