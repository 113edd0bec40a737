"""A ``games`` run: play N whole games in chunks; ``games.parquet`` and ``barrel.parquet``.

The run's driver, on the side of the process that starts it: it imports no compiled
code (the workers play the chunks with :mod:`sim.engine.game`), so a run on worker
processes does not spend its own time loading the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from sim.rules import Rules
from sim.runs.runner import (
    Backend,
    Chunk,
    PartStore,
    frame_part,
    json_part,
    plan_chunks,
    run_joined,
    traces_part,
)

CHUNK = 4096  # games per chunk by default


@dataclass(frozen=True)
class GamesJob:
    """What a worker needs to play a chunk of a games run (pickled to it)."""

    rules: Rules
    seed: int
    strategies: tuple[str, ...]
    params: tuple[str, ...]
    trace: bool
    first_dealer: int | None


def games_chunk(job: GamesJob, chunk: Chunk) -> dict[str, bytes]:
    """Play one chunk of games; its part files as bytes (sim.runs.runner)."""
    import numpy as np

    from sim.engine.game import MAX_STINTS, games_frame, play_games, stints_frame

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


def run_games(
    rules: Rules,
    games: int,
    seed: int,
    out_dir: Path,
    strategies: Sequence[str],
    params: Sequence[str],
    trace: IO[str] | None = None,
    chunk: int = CHUNK,
    progress: Callable[[int], None] | None = None,
    first_dealer: int | None = None,
    *,
    backend: Backend | None = None,
    store: PartStore | None = None,
) -> dict[str, int]:
    """Play ``games`` games; write ``games.parquet`` and ``barrel.parquet`` into ``out_dir``.

    Chunks of ``chunk`` games run on ``backend`` (this process by default) and are
    kept in ``store`` until the end (see :func:`sim.runs.hands.run_hands`).
    """
    chunks = plan_chunks(games, chunk)
    job = GamesJob(rules, seed, tuple(strategies), tuple(params), trace is not None, first_dealer)
    parts = run_joined(
        games_chunk, job, chunks, out_dir, parquet=("games.parquet", "barrel.parquet"),
        trace=trace, backend=backend, store=store, progress=progress,
    )  # fmt: skip
    counts = {k: sum(c[k] for c in parts) for k in ("games", "stints", "unfinished")}
    counts["chunks"] = len(chunks)
    return counts
