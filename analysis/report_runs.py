"""The simulation runs behind a report: odds, a hands run and a games run.

:func:`simulate_report` plays them into a work folder laid out as the ``thousand
hands`` and ``thousand games`` commands lay out theirs (Parquet files plus
``run.json``), so the report reads them with the same pipelines as ``thousand
bids`` and ``thousand barrel``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.engine.strategies.registry import parse_strategies
from sim.rules import Rules
from sim.runner import Backend

# A progress bar factory: (total, unit) -> a context manager whose value has .update(n).
Progress = Callable[[int, str], AbstractContextManager[Any]]


@dataclass(frozen=True)
class ReportRuns:
    """Where the runs of a report lie, and how long each took (seconds)."""

    hands_dir: Path
    games_dir: Path
    seconds: dict[str, float]


def _play(
    kind: str,
    rules: Rules,
    total: int,
    seed: int,
    out_dir: Path,
    strategies: list[str],
    progress: Progress | None,
    backend: Backend | None,
    parts: Path | None,
) -> float:
    """Play one run into ``out_dir`` with its ``run.json``; return its seconds."""
    from sim.runfolder import play_into
    from sim.runner import PartStore

    t0 = time.perf_counter()
    store = PartStore(parts / kind) if parts is not None else None
    unit = "deal" if kind == "hands" else "game"
    with progress(total, unit) if progress is not None else nullcontext() as bar:
        play_into(
            kind, rules, total, seed, out_dir, strategies, backend=backend,
            progress=bar.update if bar is not None else None, store=store,
        )  # fmt: skip
    return time.perf_counter() - t0


def simulate_report(
    rules: Rules,
    hands: int,
    games: int,
    seed: int,
    work_dir: Path,
    strategies: str = "heuristic",
    progress: Progress | None = None,
    backend: Backend | None = None,
    parts: Path | None = None,
) -> ReportRuns:
    """Play the hands and games runs of a report into ``work_dir/hands`` and ``/games``.

    Args:
        rules: the house rules.
        hands: deals of the hands run (bid tables, declared marriages).
        games: whole games of the games run (barrel, game length, seats).
        seed: the seed of both runs.
        work_dir: an existing folder for the two run folders.
        strategies: one strategy for every seat, or one per seat comma-separated.
        progress: a progress bar factory, or None for none.
        backend: where the chunks run (this process by default).
        parts: a partial folder (:func:`sim.runner.open_partial`) that keeps each
            run's finished chunks, so that an interrupted report resumes; None: none.

    Returns:
        The run folders and their durations.
    """
    names = parse_strategies(strategies, rules.players)
    hands_dir, games_dir = work_dir / "hands", work_dir / "games"
    seconds = {
        kind: _play(kind, rules, total, seed, work_dir / kind, names, progress, backend, parts)
        for kind, total in (("hands", hands), ("games", games))
    }
    return ReportRuns(hands_dir, games_dir, seconds)
