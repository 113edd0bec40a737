"""Play a hands or games run into a folder, as ``thousand hands``/``games`` lay it out.

:func:`play_into` writes the Parquet files and ``run.json`` (the resolved rules and
their hash, seed, sizes, strategies, backend, versions and times), so notebooks,
reports and comparisons make run folders that ``thousand bids`` and ``thousand
barrel`` (and :mod:`analysis`) read like the command's own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
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
    from sim.games import run_games
    from sim.hands import run_hands

    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    names = parse_strategies(strategies, rules.players)
    backend = backend or Backend()
    play = run_hands if kind == "hands" else run_games
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
            chunks=counts.get("chunks"),
            started=started,
            ended=now_iso(),
            seconds=seconds,
        ),
    )
    return counts
