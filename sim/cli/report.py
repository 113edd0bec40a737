"""``thousand report``: odds, a hands run and a games run, safe bids, the guide, the report folder.

The command builds a :class:`sim.jobs.report.ReportSpec` from its arguments and calls
:func:`sim.jobs.report.build_report` (every run first, then the guide's duel, then
the report folder), then says where the report went.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from sim.cli.common import Console, common_flags, lang_flag, positive_int, runner_flags, seed_value
from sim.i18n import _, number
from sim.jobs.report import (
    ATLAS_GAMES,
    LADDER_DEALS,
    LADDER_PLAYERS,
    LADDER_SAMPLE,
    ReportSpec,
    build_report,
)
from sim.jobs.safebids import DEFAULT_PLAYERS_TEXT as DEFAULT_PLAYERS
from sim.jobs.safebids import parse_players
from sim.output import check_out_dir
from sim.players import DEFAULT
from sim.rules import load_rules


def cmd_report(args: argparse.Namespace) -> int:
    """``thousand report``: odds, a hands run and a games run, then the report folder.

    The runs are played into the report's partial folder beside ``--out`` (with their
    chunks, for ``--resume``; removed afterwards); the report folder is written only
    when everything worked.
    """
    from sim.jobs.compare import rule_sets

    out = check_out_dir(args.out, args.force)
    spec = ReportSpec(
        rules=load_rules(args.rules),
        deals=args.deals,
        hands=args.hands,
        games=args.games,
        seed=args.seed,
        strategies=args.strategies,
        params=tuple(args.param),
        par=args.par,
        safe_players=None if args.no_safe_bids else tuple(parse_players(args.safe_players)),
        safe_deals=args.safe_deals,
        safe_sample=args.safe_sample,
        guide=not args.no_guide,
        guide_duel_deals=args.guide_duel_deals,
        ladder_players=None if args.no_ladder else tuple(args.ladder_players.split(",")),
        ladder_deals=args.ladder_deals,
        ladder_sample=args.ladder_sample,
        vs=rule_sets(args.rules, args.vs) if args.vs is not None else None,
        atlas_games=args.atlas_games,
        workers=args.workers,
        scheduler=args.scheduler,
    )
    t0 = time.perf_counter()
    build_report(spec, out, resume=args.resume, force=args.force, feedback=Console(args.quiet))
    if not args.quiet:
        done = _("report written to {path} in {seconds} s").format(
            path=f"{out}/index.html", seconds=number(time.perf_counter() - t0, 1)
        )
        print(done, file=sys.stderr)
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``report`` to the ``thousand`` subparsers; return its parser."""
    p_rep = subparsers.add_parser("report", help=_("the full report: HTML + Markdown + PNG + CSV"))
    common_flags(p_rep)
    p_rep.add_argument("--out", required=True, help=_("the report folder"))
    p_rep.add_argument(
        "--deals",
        type=positive_int,
        default=2_000_000,
        help=_("simulated deals for the deal odds and marriages (default 2,000,000)"),
    )
    p_rep.add_argument(
        "--hands",
        type=positive_int,
        default=1_000_000,
        help=_("deals played for the bid tables and declared marriages (default 1,000,000)"),
    )
    p_rep.add_argument(
        "--games",
        type=positive_int,
        default=50_000,
        help=_("whole games for the barrel, game length and seat tables (default 50,000)"),
    )
    p_rep.add_argument(
        "--seed",
        type=seed_value,
        default=0,
        help=_("the run's seed: the same seed and sizes give the same results (default 0)"),
    )
    p_rep.add_argument(
        "--force",
        action="store_true",
        help=_("write into a non-empty --out; discard an interrupted run's saved chunks"),
    )
    p_rep.add_argument(
        "--strategies",
        default=DEFAULT,
        help=_(
            "who plays the hands and games runs: one name for every seat, or one per seat "
            "comma-separated (default strong; random, first, heuristic, strong, pimc, cheater)"
        ),
    )
    p_rep.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="STRATEGY.NAME=VALUE",
        help=_("strategy parameter, e.g. pimc.worlds=30"),
    )
    p_rep.add_argument(
        "--par",
        action="store_true",
        help=_(
            "play the hands run with the open-card par of every deal (thousand hands --par) "
            "and show the made rates beside it"
        ),
    )
    p_rep.add_argument(
        "--safe-players",
        default=DEFAULT_PLAYERS,
        help=_("players of the safe-bid section (thousand safebids; default {players})").format(
            players=DEFAULT_PLAYERS
        ),
    )
    p_rep.add_argument(
        "--safe-deals",
        type=positive_int,
        default=100_000,
        help=_(
            "deals whose hands the fast players (strong, heuristic) play as the declarer's "
            "(default 100,000)"
        ),
    )
    p_rep.add_argument(
        "--safe-sample",
        type=positive_int,
        default=1_000,
        help=_(
            "deals whose hands pimc and the par play as the declarer's (default 1,000: "
            "3,000 hands with three players)"
        ),
    )
    p_rep.add_argument(
        "--no-safe-bids", action="store_true", help=_("leave the safe-bid section out")
    )
    p_rep.add_argument(
        "--no-guide", action="store_true", help=_("leave the strategy guide section out")
    )
    p_rep.add_argument(
        "--guide-duel-deals",
        type=positive_int,
        default=20_000,
        help=_("deals of the guide player's duel against strong (default 20,000)"),
    )
    p_rep.add_argument(
        "--ladder-players",
        default=",".join(LADDER_PLAYERS),
        help=_(
            "players of the ladder in the analysts' appendix (thousand ladder; default {players})"
        ).format(players=",".join(LADDER_PLAYERS)),
    )
    p_rep.add_argument(
        "--ladder-deals",
        type=positive_int,
        default=None,
        help=_(
            "deals of a ladder duel between fast players (default {deals}, at most --hands)"
        ).format(deals=number(LADDER_DEALS)),
    )
    p_rep.add_argument(
        "--ladder-sample",
        type=positive_int,
        default=None,
        help=_(
            "deals of a ladder duel with pimc (default {deals}, at most --hands and --safe-sample)"
        ).format(deals=number(LADDER_SAMPLE)),
    )
    p_rep.add_argument("--no-ladder", action="store_true", help=_("leave the ladder out"))
    runner_flags(p_rep, chunk=False)
    p_rep.add_argument(
        "--vs",
        default=None,
        metavar="R2[,R3...]",
        help=_("add the house-rule comparison with these rule sets (--games each, same deals)"),
    )
    p_rep.add_argument(
        "--atlas-games",
        type=int,
        default=ATLAS_GAMES,
        metavar="N",
        help=_(
            'games under each switch of one option for "Which house rules matter" (default '
            "{games}; 0: leave it out)"
        ).format(games=ATLAS_GAMES),
    )
    lang_flag(p_rep)
    p_rep.set_defaults(func=cmd_report)
    return p_rep
