"""``thousand show FILE``: a deal, or the deals of a trace, as a player reads them.

The command calls :mod:`sim.jobs.show` (the deal notation of :mod:`sim.notation`, or
the JSON lines of ``hands --trace``) and prints each deal laid out, or (``--tdn``) in
the deal notation.
"""

from __future__ import annotations

import argparse
from typing import Any

from sim.cli.common import lang_flag
from sim.i18n import _, n_
from sim.jobs.show import check_file, deal_text, pick, read_deals
from sim.notation import format_deal


def cmd_show(args: argparse.Namespace) -> int:
    """``thousand show``: the deals of ``FILE``, laid out or in the deal notation."""
    if args.check:
        count, problems = check_file(args.file, args.rules)
        for line in problems:
            print(line)
        if problems:
            return 2
        print(
            n_("{count} deal, no problem", "{count} deals, no problem", count).format(count=count)
        )
        return 0
    deals = pick(read_deals(args.file, args.rules), args.deal)
    shown = [format_deal(d) if args.tdn else deal_text(d, r) for d, r in deals]
    print("\n".join(shown), end="")
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``show`` to the ``thousand`` subparsers; return its parser."""
    p = subparsers.add_parser(
        "show",
        help=_("a deal (deal notation or a hands --trace file) as a player reads it"),
        description=_(
            "Print the deals of FILE as a player lays them out: the hands by suit from "
            "forehand, the talon, the auction, the declarer's discard, the tricks and the "
            "score. FILE holds deals in the deal notation (docs/cli.md) or the JSON lines "
            "of hands --trace; --tdn prints the notation instead (a trace converted)."
        ),
    )
    p.add_argument("file", metavar="FILE", help=_("a deal-notation file or a hands --trace file"))
    p.add_argument(
        "--deal",
        type=int,
        default=None,
        metavar="N",
        help=_(
            "only deal N (its DealId, a trace's deal_id; else its place from 0): every "
            "attempt of a redealt deal"
        ),
    )
    p.add_argument(
        "--rules",
        default="classic",
        help=_("the rules of a trace file (a deal in the notation names its own)"),
    )
    p.add_argument("--tdn", action="store_true", help=_("print the deal notation"))
    p.add_argument(
        "--check",
        action="store_true",
        help=_(
            "replay every deal under its rules and list every problem, one line each "
            "(exit 2 if any)"
        ),
    )
    lang_flag(p)
    p.set_defaults(func=cmd_show)
    return p
