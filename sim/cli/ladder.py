"""``thousand ladder``: every player against every other in duplicate, and their ratings.

The command builds a :class:`sim.jobs.ladder.LadderSpec` and calls
:func:`sim.jobs.ladder.ladder`, then prints.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from sim.cli.common import Console, common_flags, emit, positive_int, seed_value
from sim.i18n import _
from sim.jobs.ladder import LadderSpec, every_player, ladder
from sim.output import check_out_dir
from sim.rules import load_rules


def cmd_ladder(args: argparse.Namespace) -> int:
    """``thousand ladder``: the ratings and the duels' table; Markdown or JSON on stdout."""
    if args.out is not None:
        check_out_dir(args.out, args.force)
    names = tuple(p.strip() for p in args.players.split(",")) if args.players else every_player()
    spec = LadderSpec(
        rules=load_rules(args.rules), players=names, deals=args.deals,
        sampling_deals=args.sampling_deals, seed=args.seed, workers=args.workers,
    )  # fmt: skip
    result = ladder(spec, args.out, feedback=Console(args.quiet))
    if args.json:
        emit(args, result)
    else:
        print(result.markdown(), end="")
    if not args.quiet and args.out is not None:
        print(f"ladder written to {args.out}/ladder.md", file=sys.stderr)
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``ladder`` to the ``thousand`` subparsers; return its parser."""
    p = subparsers.add_parser(
        "ladder",
        help=_("every player against every other in duplicate duels; ratings"),
        description=_(
            "Play a duplicate duel of single deals for every pair of players (the first "
            "at each seat in turn, the second at the others) and fit each player a rating "
            "in points per deal against the heuristic, with intervals."
        ),
    )
    common_flags(p)
    p.add_argument(
        "--players",
        default=None,
        metavar="P1,P2,...",
        help=_("the players, comma-separated (default: every registered player)"),
    )
    p.add_argument(
        "--deals", type=positive_int, default=2000, help=_("deals per duel of two fast players")
    )
    p.add_argument(
        "--sampling-deals",
        type=positive_int,
        default=200,
        help=_("deals per duel with a sampling player (pimc, cheater) in it"),
    )
    p.add_argument(
        "--seed",
        type=seed_value,
        default=0,
        help=_("the run's seed: the same seed and sizes give the same results (default 0)"),
    )
    p.add_argument("--json", action="store_true", help=_("one JSON document on stdout"))
    p.add_argument("--out", default=None, help=_("folder for the CSV, Markdown, JSON and run.json"))
    p.add_argument("--force", action="store_true", help=_("write into a non-empty --out"))
    p.set_defaults(func=cmd_ladder)
    return p
