"""``thousand advise HAND``: how far to bid with a hand, or (``--talon``) what to give away.

The command builds a :class:`sim.jobs.advise.AdviseSpec` and calls
:func:`sim.jobs.advise.advise`, then prints.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from sim.cli.common import (
    Console,
    common_flags,
    emit,
    flags_named,
    lang_flag,
    positive_int,
    seed_value,
    share_value,
)
from sim.i18n import _
from sim.jobs.advise import DEFAULT_BUDGET
from sim.players import DEFAULT
from sim.rules import load_rules


def _budget(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:
        why = _("must be seconds (0: no limit), got {value}")
        raise argparse.ArgumentTypeError(why.format(value=repr(text)))
    return value


def cmd_advise(args: argparse.Namespace) -> int:
    """``thousand advise``: the answer as text or JSON on stdout."""
    from sim.jobs.advise import AdviseSpec, advise

    spec = AdviseSpec(
        rules=load_rules(args.rules),
        hand=args.hand,
        seat=args.seat,
        player=args.player,
        risk=args.risk,
        samples=args.samples,
        budget=args.budget,
        seed=args.seed,
        talon=args.talon,
        bid=args.bid,
        params=tuple(args.param),
        workers=args.workers,
        deal_file=Path(args.deal_file) if args.deal_file else None,
        deal=args.deal,
        auction=args.auction,
        score=args.score,
        barrel=args.barrel,
        talon_shown=args.talon_shown,
    )
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
        help="how far to bid with a hand, or what to give away after the talon",
        description=(
            "Deal the cards the hand cannot see at random, play each deal out with the hand "
            "as the declarer's and print the chance of making every legal bid level with its "
            "95 % interval, the expected score of each contract against passing, and the "
            "highest bid at the chosen risk. With --talon: the best two cards to give and to "
            "whom, and the contract to name."
        ),
    )
    p.add_argument(
        "hand",
        metavar="HAND",
        nargs="?",
        default="",
        help='the 7 cards (10 with two players), e.g. "AH TH KH QH AS 9C JD"',
    )
    common_flags(p)
    p.add_argument(
        "--seat",
        default=None,
        help="forehand, middle or dealer (four players: rear; any language) (default: the one "
        "whose turn it is after --auction, "
        "else forehand)",
    )
    p.add_argument(
        "--player",
        default=DEFAULT,
        help="who plays the samples: strong (default: the fitted player, 4,000 samples), "
        "pimc (the sampling player, 48 within --budget), heuristic, or par (every card "
        "face up)",
    )
    p.add_argument(
        "--risk",
        type=share_value,
        default=0.75,
        help="the make rate a bid must reach (default 0.75)",
    )
    p.add_argument(
        "--samples",
        type=positive_int,
        default=None,
        help="sampled deals (default 48; 4,000 for heuristic and strong)",
    )
    p.add_argument(
        "--budget",
        type=_budget,
        default=DEFAULT_BUDGET,
        help=f"seconds of play before the answer, pimc and par only (default {DEFAULT_BUDGET:g}; "
        "0: play every sample). Samples are played 8 at a time; the answer says how many",
    )
    p.add_argument(
        "--seed",
        type=seed_value,
        default=0,
        help="the run's seed: the same seed and sizes give the same results (default 0)",
    )
    p.add_argument("--talon", default=None, help="the 3 talon cards, after winning the bid")
    p.add_argument("--bid", type=int, default=100, help="with --talon: the bid won (default 100)")
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="STRATEGY.NAME=VALUE",
        help="a parameter of the player, e.g. pimc.worlds=30 (repeatable)",
    )
    p.add_argument(
        "--deal-file",
        metavar="FILE",
        help="take the hand of --seat from a deal in the deal notation (or a hands --trace "
        "file of --rules) instead of HAND",
    )
    p.add_argument("--deal", type=int, metavar="N", help="the deal's number in --deal-file")
    p.add_argument(
        "--auction",
        default=None,
        metavar="BIDS",
        help='the bids so far in turn from forehand, e.g. "100 pass 110": the unseen hands '
        "are dealt as the auction allows (a bid above 120 shows marriages), the other seats' "
        "passes and raises read as the player bids, and the answer says whether to raise; "
        "--seat must be the one to bid next",
    )
    p.add_argument("--json", action="store_true", help="one JSON document on stdout")
    p.add_argument(
        "--score",
        type=int,
        default=None,
        help="the seat's game score: the answer names the contract that takes it onto the "
        "barrel (or wins) and its chance, and says when the score silences the seat",
    )
    p.add_argument(
        "--barrel",
        action="store_true",
        help="the seat sits on the barrel: the answer names the contract that wins the game",
    )
    p.add_argument(
        "--talon-shown",
        default=None,
        metavar="CARDS",
        help="the 3 talon cards shown after the whole --auction, won by another seat: the "
        "declarer's chance to make its bid and the hand's score as a defender",
    )
    lang_flag(p)
    p.set_defaults(func=cmd_advise)
    return p
