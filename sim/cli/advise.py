"""``thousand advise HAND``: how far to bid with a hand, or (``--talon``) what to give away.

The command's flags are the advisor's question (:data:`sim.jobs.advise.QUESTION`), one
per field (``--talon-shown`` for ``talon_shown``; the hand is the positional ``HAND``);
it builds a :class:`sim.jobs.advise.AdviseSpec`, calls :func:`sim.jobs.advise.advise`
(which checks every field) and prints.
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path
from typing import Any

from sim.cli.common import Console, common_flags, emit, flag_of, flags_named, lang_flag
from sim.i18n import _
from sim.jobs.advise import DEFAULT_BUDGET, QUESTION, AdviseSpec, advise
from sim.rules import load_rules


def cmd_advise(args: argparse.Namespace) -> int:
    """``thousand advise``: the answer as text or JSON on stdout."""
    values = {f.name: getattr(args, f.name) for f in QUESTION}
    values["params"] = tuple(values["params"])
    values["deal_file"] = Path(args.deal_file) if args.deal_file else None
    spec = AdviseSpec(rules=load_rules(args.rules), workers=args.workers, **values)
    with flags_named("hand"):
        result = advise(spec, feedback=Console(args.quiet))
    if args.json:
        emit(args, result, ensure_ascii=False)
    else:
        print(result.markdown(), end="")
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``advise`` to the ``thousand`` subparsers; return its parser."""
    p = subparsers.add_parser(
        "advise",
        help=_("how far to bid with a hand, or what to give away after the talon"),
        description=_(
            "Deal the cards the hand cannot see at random and play each deal out once per "
            "choice open to the hand in the auction (pass, or bid up to each level): the "
            "verdict is the choice of the best margin (the hand's deal score minus the "
            "others' mean), or from a game score the best chance to win the game; beside it "
            "P(make) of every level with its 95 % interval. With --talon: the best two cards "
            "to give and to whom, and the contract to name."
        ),
    )
    defaults = {f.name: f.default for f in dataclasses.fields(AdviseSpec)}
    for field in QUESTION:
        default, flag = defaults[field.name], flag_of(field.flag or field.name)
        said = _(field.help).format(budget=f"{DEFAULT_BUDGET:g}")
        if field.name == "hand":
            p.add_argument("hand", metavar="HAND", nargs="?", default="", help=said)
        elif field.kind is bool:
            p.add_argument(flag, dest=field.name, action="store_true", help=said)
        elif field.kind is list:
            p.add_argument(flag, dest=field.name, action="append", default=[],
                           metavar=field.metavar, help=said)  # fmt: skip
        else:
            kind = str if field.kind is Path else field.kind
            p.add_argument(flag, dest=field.name, type=kind, default=default,
                           metavar=field.metavar, help=said)  # fmt: skip
    common_flags(p)
    p.add_argument("--json", action="store_true", help=_("one JSON document on stdout"))
    lang_flag(p)
    p.set_defaults(func=cmd_advise)
    return p
