"""``thousand solve``: the open-card value of a deal or of a play position.

The command builds a :class:`sim.jobs.solve.SolveSpec` from its arguments and calls
:func:`sim.jobs.solve.solve` (three ways to give the cards: a deal before the talon,
a deal of a run, a play position; see there), then prints.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from sim.cli.common import lang_flag
from sim.i18n import _
from sim.jobs import solve as job
from sim.output import json_safe
from sim.rules import load_rules


def cmd_solve(args: argparse.Namespace) -> int:
    """Solve a deal or a play position with every card face up."""
    spec = job.SolveSpec(
        rules=load_rules(args.rules) if args.run is None else None,
        hands=tuple(args.hands or ()),
        talon=args.talon,
        declarer=args.declarer,
        leader=args.leader,
        trump=args.trump,
        trump_setter=args.trump_setter,
        marriage_allowed=args.marriage_allowed,
        set_aside=args.set_aside,
        run=Path(args.run) if args.run is not None else None,
        deal=args.deal,
        deal_file=Path(args.deal_file) if args.deal_file is not None else None,
    )
    answer = job.solve(spec)
    if args.json:
        print(json.dumps(json_safe(answer.json()), ensure_ascii=False))
    else:
        print(answer.text())
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``solve`` to the ``thousand`` subparsers."""
    p = subparsers.add_parser(
        "solve",
        help=_("open-card value of a deal or a play position (every card face up)"),
        description=_("The open-card value of a deal or of a play position."),
    )
    p.add_argument("--rules", default="classic", help=_("preset name or path to a TOML rules file"))
    p.add_argument(
        "--hands",
        nargs="+",
        metavar="CARDS",
        help=_('each hand seat\'s cards, from forehand, e.g. "AH TH KH QH AS 9C JD"'),
    )
    p.add_argument("--talon", metavar="CARDS", help=_("the talon: 3 cards (two players: 4)"))
    p.add_argument("--run", metavar="DIR", help=_("a hands run folder (with --deal)"))
    p.add_argument(
        "--deal-file",
        metavar="FILE",
        help=_("a deal in the deal notation, or a hands --trace file (its --rules), with --deal"),
    )
    p.add_argument("--deal", type=int, metavar="N", help=_("the deal id in --run or --deal-file"))
    p.add_argument("--declarer", metavar="S", help=_("the declarer's hand seat (default 0)"))
    p.add_argument("--leader", metavar="S", help=_("play position: who leads (default: declarer)"))
    p.add_argument("--trump", metavar="SUIT", help=_("play position: S, C, D, H or none (default)"))
    p.add_argument(
        "--trump-setter",
        metavar="S",
        help=_("play position: who set the trump (default: declarer)"),
    )
    p.add_argument(
        "--marriage-allowed",
        action="store_true",
        help=_("play position: marriages may be declared (past the first trick)"),
    )
    p.add_argument(
        "--set-aside", metavar="CARDS", help=_("play position, two players: the talon set aside")
    )
    p.add_argument("--json", action="store_true", help=_("print one JSON document"))
    lang_flag(p)
    p.set_defaults(func=cmd_solve)
    return p
