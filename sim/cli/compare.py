"""``thousand compare``: house rules side by side on the same deals, effects with intervals.

The command builds a :class:`sim.jobs.compare.CompareSpec` and calls
:func:`sim.jobs.compare.compare` (each rule set's games in ``runs/NAME/``; the
effects with CRN and independent-run intervals), then prints.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from sim.cli.common import (
    Console,
    common_flags,
    emit,
    lang_flag,
    positive_int,
    runner_flags,
    seed_value,
    skill_flags,
)
from sim.i18n import _, number
from sim.output import check_out_dir
from sim.players import DEFAULT


def cmd_compare(args: argparse.Namespace) -> int:
    """``thousand compare``: effects of house rules with CRN and independent intervals."""
    from sim.jobs.compare import CompareSpec, compare, rule_sets

    if args.out is not None:
        check_out_dir(args.out, args.force)
    spec = CompareSpec(
        sets=rule_sets(args.rules, args.vs), games=args.games, seed=args.seed,
        strategies=args.strategies, params=tuple(args.param), chunk=args.chunk,
        workers=args.workers, scheduler=args.scheduler, skill_games=args.skill_games,
        skill_player=args.skill, skill_against=args.skill_against,
    )  # fmt: skip
    result = compare(
        spec, args.out, resume=args.resume, force=args.force, feedback=Console(args.quiet)
    )
    emit(args, result)
    if not args.quiet:
        done = _("{sets} rule sets × {games} games in {seconds} s").format(
            sets=len(spec.sets), games=number(args.games), seconds=number(result.seconds, 1)
        )
        where = f" → {args.out}" if args.out is not None else ""
        print(done + where, file=sys.stderr)
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``compare`` to the ``thousand`` subparsers; return its parser."""
    p = subparsers.add_parser(
        "compare",
        help=_("house-rule balance: the same deals under every rule set"),
        description=_(
            "Play N games under --rules and every --vs rule set on the same deals and "
            "random numbers; print each effect with its interval."
        ),
    )
    common_flags(p)
    p.add_argument(
        "--vs", required=True, help=_("rule sets to compare with --rules, comma-separated")
    )
    p.add_argument(
        "--games", type=positive_int, required=True, help=_("games per rule set, on the same deals")
    )
    p.add_argument(
        "--seed",
        type=seed_value,
        default=0,
        help=_("the run's seed: the same seed and sizes give the same results (default 0)"),
    )
    p.add_argument(
        "--strategies",
        default=DEFAULT,
        help=_("one name for every seat (default {players})").format(players=DEFAULT),
    )
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="STRATEGY.NAME=VALUE",
        help=_("a strategy parameter, e.g. heuristic.aggression=0.3 (repeatable)"),
    )
    skill_flags(p, "--games")
    p.add_argument("--json", action="store_true", help=_("one JSON document on stdout"))
    p.add_argument("--out", default=None, help=_("folder for the tables and each rule set's run"))
    p.add_argument(
        "--full", action="store_true", help=_("print the whole table (default: a short summary)")
    )
    p.add_argument(
        "--force",
        action="store_true",
        help=_("write into a non-empty --out; discard an interrupted run's saved chunks"),
    )
    runner_flags(p)
    lang_flag(p)
    p.set_defaults(func=cmd_compare)
    return p
