"""``thousand teach``: decisions of played deals labelled by the sampling player's search.

The command builds a :class:`sim.jobs.teach.TeachSpec` and calls
:func:`sim.jobs.teach.teach_into`, then prints the decisions labelled and their speed.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from sim.cli.common import Console, common_flags, positive_int, runner_flags, seed_value
from sim.i18n import _
from sim.output import check_out_dir
from sim.rules import load_rules


def cmd_teach(args: argparse.Namespace) -> int:
    """``thousand teach``: write KIND.parquet per decision kind and run.json."""
    from sim.jobs.teach import TeachSpec, teach_into

    check_out_dir(args.out, args.force)
    spec = TeachSpec(
        rules=load_rules(args.rules), deals=args.deals, seed=args.seed, player=args.player,
        params=tuple(args.param), worlds=args.worlds,
        kinds=tuple(k.strip() for k in args.kinds.split(",") if k.strip()), chunk=args.chunk,
        workers=args.workers, scheduler=args.scheduler,
    )  # fmt: skip
    result = teach_into(
        spec, args.out, feedback=Console(args.quiet), resume=args.resume, force=args.force
    )
    if not args.quiet:
        rates = result.per_core()
        for kind, n in result.decisions.items():
            print(
                f"{kind:<8} {n:>9,} decisions  {rates[kind]:>9,.1f} decisions/s per core",
                file=sys.stderr,
            )
        print(f"{args.deals:,} deals in {result.seconds:.1f} s → {args.out}", file=sys.stderr)
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``teach`` to the ``thousand`` subparsers; return its parser."""
    p = subparsers.add_parser(
        "teach",
        help=_("label decisions of played deals by the sampling player's search (Parquet)"),
        description=_(
            "Play deals with one player at every seat and, at each decision of the given "
            "kinds, value every choice over the worlds the sampling player (pimc) would "
            "sample, every card face up: the data the learned players are fitted on."
        ),
    )
    common_flags(p)
    p.add_argument("--deals", type=positive_int, required=True, help=_("deals to play"))
    p.add_argument(
        "--seed",
        type=seed_value,
        default=0,
        help=_("the run's seed: the same seed and sizes give the same files (default 0)"),
    )
    p.add_argument("--out", required=True, help=_("folder for KIND.parquet and run.json"))
    p.add_argument(
        "--player",
        default="strong",
        help=_("the player at every seat whose decisions are labelled (default: strong)"),
    )
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="STRATEGY.NAME=VALUE",
        help=_("the player's parameter (repeatable)"),
    )
    p.add_argument(
        "--worlds",
        type=positive_int,
        default=10,
        help=_("sampled worlds per label (default 10)"),
    )
    p.add_argument(
        "--kinds",
        default="contract,bid,discard,play",
        help=_(
            "the decisions labelled, comma-separated: contract, bid, discard, play (by "
            "search), outcome (the deal played on, no search) (default: contract,bid,discard,play)"
        ),
    )
    p.add_argument(
        "--force",
        action="store_true",
        help=_("write into a non-empty --out; discard an interrupted run's saved chunks"),
    )
    runner_flags(p)
    p.set_defaults(func=cmd_teach)
    return p
