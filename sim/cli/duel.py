"""``thousand duel``: two strategies (or settings) against each other, duplicate style.

The command builds a :class:`sim.jobs.duel.DuelSpec` and calls
:func:`sim.jobs.duel.duel` (played by :mod:`sim.runs.duel`, the statistics of
:mod:`analysis.duel`), then prints.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from sim.cli.common import Console, common_flags, emit, lang_flag, positive_int, seed_value
from sim.i18n import _
from sim.output import check_out_dir
from sim.rules import load_rules


def cmd_duel(args: argparse.Namespace) -> int:
    """``thousand duel``: A against B in duplicate format; Markdown or JSON on stdout."""
    from sim.jobs.duel import DuelSpec, contestant, duel

    if args.out is not None:
        check_out_dir(args.out, args.force)
    spec = DuelSpec(
        rules=load_rules(args.rules), a=contestant("a", args.a, args.a_param),
        b=contestant("b", args.b, args.b_param), deals=args.deals, games=args.games,
        seed=args.seed, first_dealer=args.first_dealer, workers=args.workers,
    )  # fmt: skip
    result = duel(spec, args.out, feedback=Console(args.quiet))
    if args.json:
        emit(args, result)
    else:
        print(result.markdown(), end="")
    if not args.quiet and args.out is not None:
        print(_("duel written to {path}").format(path=f"{args.out}/duel.md"), file=sys.stderr)
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``duel`` to the ``thousand`` subparsers; return its parser."""
    p = subparsers.add_parser(
        "duel",
        help=_("compare two strategies or settings in duplicate format"),
        description=_(
            "Play the same deals or games with contestant A at each seat in turn and B at "
            "the others; report the score difference per deal and A's game win rate."
        ),
    )
    common_flags(p)
    p.add_argument("--a", required=True, metavar="STRATEGY", help=_("contestant A's strategy"))
    p.add_argument(
        "--a-param",
        action="append",
        default=[],
        metavar="[STRATEGY.]NAME=VALUE",
        help=_("A's parameter, e.g. heuristic.aggression=0.3 (repeatable)"),
    )
    p.add_argument(
        "--b", default="heuristic", metavar="STRATEGY", help=_("contestant B (default: heuristic)")
    )
    p.add_argument(
        "--b-param",
        action="append",
        default=[],
        metavar="[STRATEGY.]NAME=VALUE",
        help=_("B's parameter (repeatable)"),
    )
    size = p.add_mutually_exclusive_group(required=True)
    size.add_argument("--deals", type=positive_int, help=_("duel on N single deals"))
    size.add_argument("--games", type=positive_int, help=_("duel on N whole games"))
    p.add_argument(
        "--seed",
        type=seed_value,
        default=0,
        help=_("the run's seed: the same seed and sizes give the same results (default 0)"),
    )
    p.add_argument(
        "--first-dealer",
        type=int,
        default=None,
        help=_("games: fix the first dealer of every game (default: drawn per game)"),
    )
    p.add_argument("--json", action="store_true", help=_("one JSON document on stdout"))
    p.add_argument("--out", default=None, help=_("folder for CSV, Markdown, JSON and run.json"))
    p.add_argument("--force", action="store_true", help=_("write into a non-empty --out"))
    lang_flag(p)
    p.set_defaults(func=cmd_duel)
    return p
