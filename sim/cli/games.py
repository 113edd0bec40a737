"""``thousand games``: play N whole games; ``games.parquet``, ``barrel.parquet``, ``run.json``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from sim.cli.common import (
    Console,
    common_flags,
    positive_int,
    resumed_text,
    runner_flags,
    seed_value,
    speed_text,
)
from sim.i18n import _
from sim.jobs.runs import RunSpec, play_into
from sim.output import check_out_dir
from sim.rules import load_rules


def cmd_games(args: argparse.Namespace) -> int:
    """``thousand games``: play N whole games; games.parquet, barrel.parquet, run.json."""
    check_out_dir(args.out, args.force)
    spec = RunSpec(
        kind="games", rules=load_rules(args.rules), total=args.games, seed=args.seed,
        strategies=args.strategies, params=tuple(args.param), chunk=args.chunk,
        first_dealer=args.first_dealer, trace=Path(args.trace) if args.trace else None,
        workers=args.workers, scheduler=args.scheduler,
    )  # fmt: skip
    run = play_into(
        spec, args.out, feedback=Console(args.quiet), resume=args.resume, force=args.force
    )
    if not args.quiet:
        print(
            f"{args.games:,} games ({run.counts['unfinished']:,} unfinished"
            f"{resumed_text(run.resumed)}) in {run.seconds:.1f} s"
            f"{speed_text(run.speed(args.games), 'games')} → {args.out}/games.parquet",
            file=sys.stderr,
        )
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``games`` to the ``thousand`` subparsers; return its parser."""
    p_games = subparsers.add_parser(
        "games", help=_("play N whole games; games.parquet + barrel.parquet")
    )
    common_flags(p_games)
    p_games.add_argument(
        "--games", type=positive_int, required=True, help=_("whole games to play to the target")
    )
    p_games.add_argument(
        "--seed",
        type=seed_value,
        default=0,
        help=_("the run's seed: the same seed and sizes give the same results (default 0)"),
    )
    p_games.add_argument(
        "--out", required=True, help=_("folder for the Parquet files and run.json")
    )
    p_games.add_argument(
        "--strategies",
        default="heuristic",
        help=_("one name for every seat or one comma-separated name per seat"),
    )
    p_games.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="STRATEGY.NAME=VALUE",
        help=_("a strategy parameter, e.g. heuristic.aggression=0.3 (repeatable)"),
    )
    p_games.add_argument(
        "--first-dealer",
        type=int,
        default=None,
        help=_("fix the first dealer of every game (default: drawn per game)"),
    )
    p_games.add_argument(
        "--trace",
        default=None,
        metavar="FILE.jsonl",
        help=_("write every game's score history, one JSON object per line"),
    )
    p_games.add_argument(
        "--force",
        action="store_true",
        help=_("write into a non-empty --out; discard an interrupted run's saved chunks"),
    )
    runner_flags(p_games)
    p_games.set_defaults(func=cmd_games)
    return p_games
