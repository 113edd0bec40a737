"""Play a hands or games run into a folder, as ``thousand hands``/``games`` lay it out.

:func:`play_into` writes the Parquet files and ``run.json`` (the resolved rules and
their hash, seed, sizes, strategies, backend, versions and times), so notebooks,
reports and comparisons make run folders that ``thousand bids`` and ``thousand
barrel`` (and :mod:`analysis`) read like the command's own. :func:`simulate_report`
plays the hands and games runs a report reads.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.engine.strategies.registry import parse_strategies
from sim.output import now_iso, run_manifest, write_json
from sim.rules import Rules
from sim.runner import Backend

KINDS = ("hands", "games")


def play_into(
    kind: str,
    rules: Rules,
    total: int,
    seed: int,
    out_dir: str | Path,
    strategies: str | Sequence[str] = "heuristic",
    params: Sequence[str] = (),
    *,
    backend: Backend | None = None,
    progress: Callable[[int], None] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Play ``total`` deals (``kind="hands"``) or games (``"games"``) into ``out_dir``.

    Args:
        kind: ``"hands"`` or ``"games"``.
        rules: the house rules.
        total: deals or games.
        seed: the run's seed.
        out_dir: the run folder (created).
        strategies: one name for every seat, or one per seat.
        params: ``STRATEGY.NAME=VALUE`` settings.
        backend: where the chunks run (:class:`sim.runner.Backend`; this process by
            default).
        progress: called with the items finished after each chunk.
        **options: passed to :func:`sim.hands.run_hands` or :func:`sim.games.run_games`
            (``aggregate_only``, ``first_dealer``, ``chunk``, ``trace``, ...).

    Returns:
        The run's counts (rows, redeals; or stints, unfinished games; and chunks).
    """
    from sim.games import CHUNK as GAMES_CHUNK
    from sim.games import run_games
    from sim.hands import CHUNK as HANDS_CHUNK
    from sim.hands import run_hands

    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    names = parse_strategies(strategies, rules.players)
    backend = backend or Backend()
    play = run_hands if kind == "hands" else run_games
    # recorded in run.json as the hands and games commands record theirs
    chunk = options.setdefault("chunk", HANDS_CHUNK if kind == "hands" else GAMES_CHUNK)
    started = now_iso()
    t0 = time.perf_counter()
    counts = play(
        rules, total, seed, out, names, list(params), progress=progress, backend=backend, **options
    )
    seconds = time.perf_counter() - t0
    if kind == "hands":
        sizes = {"deals": total, "rows": int(counts["rows"])}
    else:
        sizes = {
            "games": total,
            "stints": int(counts["stints"]),
            "unfinished": int(counts["unfinished"]),
        }
    extra = {k: v for k, v in options.items() if k in ("first_dealer", "aggregate_only")}
    if options.get("par"):
        extra["par"] = True  # present only when the par columns were added
    write_json(
        out / "run.json",
        run_manifest(
            rules,
            seed,
            sizes,
            command=kind,
            strategies=names,
            params=list(params),
            **extra,
            **backend.describe(),
            chunk_size=chunk,
            chunks=counts.get("chunks"),
            started=started,
            ended=now_iso(),
            seconds=seconds,
        ),
    )
    return counts


# A progress bar factory: (total, unit) -> a context manager whose value has .update(n).
Progress = Callable[[int, str], AbstractContextManager[Any]]


@dataclass(frozen=True)
class ReportRuns:
    """Where the runs of a report lie, and how long each took (seconds)."""

    hands_dir: Path
    games_dir: Path
    seconds: dict[str, float]


def _play_timed(
    kind: str,
    rules: Rules,
    total: int,
    seed: int,
    out_dir: Path,
    strategies: list[str],
    params: Sequence[str],
    progress: Progress | None,
    backend: Backend | None,
    parts: Path | None,
    **options: Any,
) -> float:
    """Play one run into ``out_dir`` with its ``run.json``; return its seconds."""
    from sim.runner import PartStore

    t0 = time.perf_counter()
    store = PartStore(parts / kind) if parts is not None else None
    unit = "deal" if kind == "hands" else "game"
    with progress(total, unit) if progress is not None else nullcontext() as bar:
        play_into(
            kind, rules, total, seed, out_dir, strategies, params, backend=backend,
            progress=bar.update if bar is not None else None, store=store, **options,
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
    params: Sequence[str] = (),
    par: bool = False,
) -> ReportRuns:
    """Play the hands and games runs of a report into ``work_dir/hands`` and ``/games``.

    The folders are laid out as the ``thousand hands`` and ``thousand games`` commands
    lay out theirs (Parquet files plus ``run.json``), so the report reads them with
    the same pipelines as ``thousand bids`` and ``thousand barrel``.

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
        params: ``STRATEGY.NAME=VALUE`` settings of the strategies.
        par: add the open-card par columns to the hands run (``thousand hands --par``).

    Returns:
        The run folders and their durations.
    """
    names = parse_strategies(strategies, rules.players)
    hands_dir, games_dir = work_dir / "hands", work_dir / "games"
    seconds = {}
    for kind, total in (("hands", hands), ("games", games)):
        options = {"par": True} if par and kind == "hands" else {}
        seconds[kind] = _play_timed(
            kind, rules, total, seed, work_dir / kind, names, params, progress, backend, parts,
            **options,
        )  # fmt: skip
    return ReportRuns(hands_dir, games_dir, seconds)
