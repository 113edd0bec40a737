"""``thousand duel``: two strategies (or settings) against each other, duplicate style.

The duel is played by :mod:`sim.duel` (which also writes its Parquet file and
``run.json``); its statistics and tables are :mod:`analysis.duel`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.cli.common import (
    check_first_dealer,
    common_flags,
    json_safe,
    positive_int,
    progress,
    seed_value,
    set_workers,
)
from sim.engine.strategies.registry import StrategyError
from sim.output import StagedDir, UsageError, check_out_dir, now_iso
from sim.rules import load_rules

if TYPE_CHECKING:  # sim.duel imports polars: loaded when a duel runs, not for every command
    from sim.duel import Contestant


def contestant(flag: str, strategy: str, params: Sequence[str]) -> Contestant:
    """A validated contestant; errors name the flag.

    Raises:
        StrategyError: an unknown strategy or parameter, prefixed with ``--FLAG``.
    """
    from sim.duel import Contestant

    c = Contestant(strategy.strip(), tuple(params))
    try:
        c.row()
    except StrategyError as exc:
        raise StrategyError(f"--{flag}: {exc}") from None
    return c


def cmd_duel(args: argparse.Namespace) -> int:
    """``thousand duel``: A against B in duplicate format; Markdown or JSON on stdout."""
    from analysis.duel import duel_json, duel_markdown, duel_result, write_duel_tables
    from sim.duel import duel_games, duel_hands, write_duel_run

    if args.out is not None:
        check_out_dir(args.out, args.force)
    rules = load_rules(args.rules)
    a = contestant("a", args.a, args.a_param)
    b = contestant("b", args.b, args.b_param)
    first = args.first_dealer
    if first is not None and args.games is None:
        raise UsageError("--first-dealer: only with --games")
    check_first_dealer(first, rules.players)
    set_workers(args.workers)
    started = now_iso()
    t0 = time.perf_counter()
    if args.deals is not None:
        with progress((rules.players + 1) * args.deals, args.quiet, "deal", "duel deals") as bar:
            run = duel_hands(rules, a, b, args.deals, args.seed, progress=bar.update)
    else:
        with progress(rules.players * args.games, args.quiet, "game", "duel games") as bar:
            run = duel_games(
                rules, a, b, args.games, args.seed, first_dealer=first, progress=bar.update
            )
    result = duel_result(run)
    seconds = time.perf_counter() - t0
    if args.out is not None:
        extra = {"started": started, "ended": now_iso(), "seconds": seconds}
        with StagedDir(Path(args.out)) as staged:
            write_duel_tables(result, staged.path)
            write_duel_run(run, staged.path, extra)
    if args.json:
        print(json.dumps(json_safe(duel_json(result))))
    else:
        print(duel_markdown(result), end="")
    if not args.quiet and args.out is not None:
        print(f"duel written to {args.out}/duel.md", file=sys.stderr)
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``duel`` to the ``thousand`` subparsers; return its parser."""
    p = subparsers.add_parser(
        "duel",
        help="compare two strategies or settings in duplicate format",
        description=(
            "Play the same deals or games with contestant A at each seat in turn and B at "
            "the others; report the score difference per deal and A's game win rate."
        ),
    )
    common_flags(p)
    p.add_argument("--a", required=True, metavar="STRATEGY", help="contestant A's strategy")
    p.add_argument(
        "--a-param",
        action="append",
        default=[],
        metavar="[STRATEGY.]NAME=VALUE",
        help="A's parameter, e.g. heuristic.aggression=0.3 (repeatable)",
    )
    p.add_argument(
        "--b", default="heuristic", metavar="STRATEGY", help="contestant B (default: heuristic)"
    )
    p.add_argument(
        "--b-param",
        action="append",
        default=[],
        metavar="[STRATEGY.]NAME=VALUE",
        help="B's parameter (repeatable)",
    )
    size = p.add_mutually_exclusive_group(required=True)
    size.add_argument("--deals", type=positive_int, help="duel on N single deals")
    size.add_argument("--games", type=positive_int, help="duel on N whole games")
    p.add_argument(
        "--seed",
        type=seed_value,
        default=0,
        help="the run's seed: the same seed and sizes give the same results (default 0)",
    )
    p.add_argument(
        "--first-dealer",
        type=int,
        default=None,
        help="games: fix the first dealer of every game (default: drawn per game)",
    )
    p.add_argument("--json", action="store_true", help="one JSON document on stdout")
    p.add_argument("--out", default=None, help="folder for CSV, Markdown, JSON and run.json")
    p.add_argument("--force", action="store_true", help="write into a non-empty --out")
    p.set_defaults(func=cmd_duel)
    return p
