"""``thousand safebids``: safe bids from the 7 cards a bidder sees, for several players.

The command builds a :class:`sim.jobs.safebids.SafeBidsSpec` from its arguments and
calls the job (every dealt hand played as the declarer's, :mod:`sim.runs.declarer`; the
tables and the held-out check of :mod:`analysis.safebids`), then prints and writes.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from sim.cli.common import Console, common_flags, positive_int, seed_value
from sim.i18n import _
from sim.jobs import safebids as jobs
from sim.output import UsageError, check_out_dir, json_safe
from sim.rules import load_rules


def cmd_safebids(args: argparse.Namespace) -> int:
    """``thousand safebids``: tables on stdout (Markdown or JSON), files in ``--out``."""
    if args.out is not None:
        check_out_dir(args.out, args.force)
    rules = load_rules(args.rules)
    players = tuple(jobs.parse_players(args.players))
    if args.holdout_seed is not None and args.holdout_seed == args.seed:
        raise UsageError("--holdout-seed: must differ from --seed")
    holdout = args.seed + 1 if args.holdout_seed is None else args.holdout_seed
    spec = jobs.SafeBidsSpec(
        rules=rules,
        players=players,
        deals=args.deals,
        sample=min(args.sample, args.deals),
        seed=args.seed,
        holdout_seed=None if args.no_holdout else holdout,
        params=tuple(args.param),
        workers=args.workers,
    )
    result = jobs.safebids(spec, args.out, feedback=Console(args.quiet))
    if args.json:
        print(json.dumps(json_safe(result.json())))
    else:
        print(result.markdown(), end="")
    if not args.quiet and args.out is not None:
        print(f"safe bids written to {args.out}/safebids.md", file=sys.stderr)
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``safebids`` to the ``thousand`` subparsers; return its parser."""
    p = subparsers.add_parser(
        "safebids",
        help=_("safe bid levels of 7-card hands, played out as the declarer's"),
        description=_(
            "Deal random hands and play every dealt hand as the declarer's (talon, "
            "discard, contract, concession, play) with each player; print the chance "
            "of making every bid level by hand class (marriages by suit, aces, tens, "
            "points, seat), with 95 % intervals, and the safe bid at 50/75/90 %. A "
            "second seed checks the tables on hands they were not built on."
        ),
    )
    common_flags(p)
    p.add_argument(
        "--players",
        default=jobs.DEFAULT_PLAYERS_TEXT,
        help=_(
            "comma-separated players: strategies (strong, heuristic, pimc, ...) and par, the "
            "open-card upper bound (default: {players})"
        ).format(players=jobs.DEFAULT_PLAYERS_TEXT),
    )
    p.add_argument(
        "--deals",
        type=positive_int,
        default=40000,
        help=_(
            "deals for the fast players (strong, heuristic, heuristic_v1, random, first) per "
            "seed: each deal gives every hand its turn as the declarer's (default 40000)"
        ),
    )
    p.add_argument(
        "--sample",
        type=positive_int,
        default=100,
        help=_("deals for pimc, cheater and par per seed, the first of the same run (default 100)"),
    )
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="STRATEGY.NAME=VALUE",
        help=_("a strategy parameter, e.g. pimc.worlds=30 (repeatable)"),
    )
    p.add_argument(
        "--seed",
        type=seed_value,
        default=0,
        help=_("the run's seed: the same seed and sizes give the same results (default 0)"),
    )
    p.add_argument(
        "--holdout-seed",
        type=seed_value,
        default=None,
        help=_("seed of the held-out hands the tables are checked on (default: --seed + 1)"),
    )
    p.add_argument("--no-holdout", action="store_true", help=_("skip the held-out check"))
    p.add_argument("--json", action="store_true", help=_("one JSON document on stdout"))
    p.add_argument("--out", default=None, help=_("folder for CSV, Markdown, Parquet and run.json"))
    p.add_argument("--force", action="store_true", help=_("write into a non-empty --out"))
    p.set_defaults(func=cmd_safebids)
    return p
