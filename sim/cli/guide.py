"""``thousand guide``: a strategy guide for a rules set, in player words, checked by playing it.

The command builds a :class:`sim.jobs.guide.GuideSpec` and calls
:func:`sim.jobs.guide.build_guide` (the runs, the tables of :mod:`analysis.guide`,
and the ``guide`` player's duplicate duel against the player it measured), then
prints.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from sim.cli.common import (
    Console,
    common_flags,
    help_count,
    lang_flag,
    positive_int,
    seed_value,
    share_value,
)
from sim.i18n import _
from sim.jobs.guide import DUEL_DEALS, SIZES, GuideSpec, build_guide
from sim.output import check_out_dir, json_safe
from sim.rules import load_rules


def cmd_guide(args: argparse.Namespace) -> int:
    """``thousand guide``: the guide's pages into ``--out``; a summary on stdout."""
    check_out_dir(args.out, args.force)
    spec = GuideSpec(
        rules=load_rules(args.rules), seed=args.seed, deals=args.deals, hands=args.hands,
        games=args.games, odds_deals=args.odds_deals, risk=args.risk,
        duel_deals=None if args.no_duel else args.duel_deals, workers=args.workers,
    )  # fmt: skip
    book = build_guide(spec, args.out, feedback=Console(args.quiet), player_page=args.player_page)
    if args.json:
        print(json.dumps(json_safe(book.json())))
    else:
        print(book.written(args.out))
        if book.duel is not None:
            print(book.sentence())
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``guide`` to the ``thousand`` subparsers; return its parser."""
    p = subparsers.add_parser(
        "guide",
        help=_("a strategy guide for a rules set: bids, talon, discards, concessions, barrel"),
        description=_(
            "Play every dealt hand as the declarer's, ordinary hands, whole games and the "
            "odds under one rules set with the fitted player (strong), and write a guide in "
            "player words: "
            "a bid chart, what the talon brings, what giving a lone king or queen costs, when "
            "to concede, the barrel, golden and dark deals and seats, every number with its "
            "interval. A duplicate duel of the guide player (bidding and conceding only by "
            "the guide's tables) against strong checks the advice."
        ),
    )
    common_flags(p)
    p.add_argument(
        "--out", required=True, help=_("folder for guide.md, index.html, CSVs, run.json")
    )
    p.add_argument(
        "--deals",
        type=positive_int,
        default=SIZES["deals"],
        help=_("deals whose every hand is played as the declarer's (default {deals})").format(
            deals=help_count(SIZES["deals"])
        ),
    )
    p.add_argument(
        "--hands",
        type=positive_int,
        default=SIZES["hands"],
        help=_("hands in ordinary auctions (default {hands})").format(
            hands=help_count(SIZES["hands"])
        ),
    )
    p.add_argument(
        "--games",
        type=positive_int,
        default=SIZES["games"],
        help=_("whole games (default {games})").format(games=help_count(SIZES["games"])),
    )
    p.add_argument(
        "--odds-deals",
        type=positive_int,
        default=SIZES["odds_deals"],
        help=_("deals for the talon's reshuffle odds (default {deals})").format(
            deals=help_count(SIZES["odds_deals"])
        ),
    )
    p.add_argument(
        "--risk",
        type=share_value,
        default=0.75,
        help=_("the make rate of the guide's safe bids: how safe, not how high (default 0.75)"),
    )
    p.add_argument(
        "--duel-deals",
        type=positive_int,
        default=DUEL_DEALS,
        help=_("deals of the guide player's duel against strong (default {deals})").format(
            deals=help_count(DUEL_DEALS)
        ),
    )
    p.add_argument("--no-duel", action="store_true", help=_("skip the guide player's duel"))
    p.add_argument(
        "--player-page",
        action="store_true",
        help=_(
            "also write player.html and player.md: the answers for players on one printable "
            "page (in --lang)"
        ),
    )
    lang_flag(p)
    p.add_argument(
        "--seed",
        type=seed_value,
        default=0,
        help=_("the run's seed: the same seed and sizes give the same results (default 0)"),
    )
    p.add_argument("--json", action="store_true", help=_("every table as one JSON document"))
    p.add_argument("--force", action="store_true", help=_("write into a non-empty --out"))
    p.set_defaults(func=cmd_guide)
    return p
