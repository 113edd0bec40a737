"""``thousand hands``: play N deals; ``hands.parquet`` (or ``hands_agg.parquet``) + ``run.json``."""

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


def cmd_hands(args: argparse.Namespace) -> int:
    """``thousand hands``: play N deals, write hands.parquet + run.json (+ trace)."""
    check_out_dir(args.out, args.force)
    spec = RunSpec(
        kind="hands", rules=load_rules(args.rules), total=args.deals, seed=args.seed,
        strategies=args.strategies, params=tuple(args.param), chunk=args.chunk,
        aggregate_only=args.aggregate_only, par=args.par,
        trace=Path(args.trace) if args.trace else None, workers=args.workers,
        scheduler=args.scheduler,
    )  # fmt: skip
    run = play_into(
        spec, args.out, feedback=Console(args.quiet), resume=args.resume, force=args.force
    )
    if not args.quiet:
        name = "hands_agg.parquet" if args.aggregate_only else "hands.parquet"
        print(
            f"{args.deals:,} deals ({run.counts['redealt']:,} redealt"
            f"{resumed_text(run.resumed)}) in {run.seconds:.1f} s"
            f"{speed_text(run.speed(args.deals), 'deals')} → {args.out}/{name}",
            file=sys.stderr,
        )
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``hands`` to the ``thousand`` subparsers; return its parser."""
    p_hands = subparsers.add_parser("hands", help=_("play N deals; write hands.parquet + run.json"))
    common_flags(p_hands)
    p_hands.add_argument(
        "--deals",
        type=positive_int,
        required=True,
        help=_("deals to play (each redealt until played)"),
    )
    p_hands.add_argument(
        "--seed",
        type=seed_value,
        default=0,
        help=_("the run's seed: the same seed and sizes give the same results (default 0)"),
    )
    p_hands.add_argument("--out", required=True, help=_("folder for hands.parquet and run.json"))
    p_hands.add_argument(
        "--strategies",
        default="heuristic",
        help=_(
            "one name for every seat, or one per seat comma-separated "
            "(random, first, heuristic, pimc)"
        ),
    )
    p_hands.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="STRATEGY.NAME=VALUE",
        help=_("strategy parameter, e.g. heuristic.aggression=0.3"),
    )
    p_hands.add_argument(
        "--trace",
        default=None,
        metavar="FILE.jsonl",
        help=_("write every deal as one JSON object per line"),
    )
    p_hands.add_argument(
        "--force",
        action="store_true",
        help=_("write into a non-empty --out; discard an interrupted run's saved chunks"),
    )
    p_hands.add_argument(
        "--aggregate-only",
        action="store_true",
        help=_("keep only the counts the bid tables need (hands_agg.parquet), for huge runs"),
    )
    p_hands.add_argument(
        "--par",
        action="store_true",
        help=_(
            "add each deal's open-card par: par_total (the declarer's own discard) and "
            "par_best (the best discard): what the declarer can force with every card face up"
        ),
    )
    runner_flags(p_hands)
    p_hands.set_defaults(func=cmd_hands)
    return p_hands
