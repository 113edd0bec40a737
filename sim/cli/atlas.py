"""``thousand atlas``: every house-rule switch of a base, ranked by its effect.

The command builds a :class:`sim.jobs.atlas.AtlasSpec` and calls
:func:`sim.jobs.atlas.atlas` (the base's and every switch's games in ``runs/NAME/``),
then prints the largest effects of each measure.
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
from sim.rules import load_rules


def cmd_atlas(args: argparse.Namespace) -> int:
    """``thousand atlas``: flip every option of --rules alone and rank the effects."""
    from sim.jobs.atlas import AtlasSpec, atlas

    if args.out is not None:
        check_out_dir(args.out, args.force)
    keys = tuple(k.strip() for k in (args.keys or "").split(",") if k.strip())
    spec = AtlasSpec(
        base=load_rules(args.rules), games=args.games, seed=args.seed,
        strategies=args.strategies, skill_games=args.skill_games, skill_player=args.skill,
        skill_against=args.skill_against, keys=keys, chunk=args.chunk, workers=args.workers,
        scheduler=args.scheduler,
    )  # fmt: skip
    result = atlas(
        spec, args.out, resume=args.resume, force=args.force, feedback=Console(args.quiet)
    )
    emit(args, result)
    if not args.quiet:
        done = _("{switches} switches × {games} games in {seconds} s").format(
            switches=len(result.table["switch"].unique()), games=number(args.games),
            seconds=number(result.seconds, 1),
        )  # fmt: skip
        where = f" → {args.out}" if args.out is not None else ""
        print(done + where, file=sys.stderr)
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``atlas`` to the ``thousand`` subparsers; return its parser."""
    p = subparsers.add_parser(
        "atlas",
        help=_("which house rules matter: every option switched alone, ranked"),
        description=_(
            "Flip every house-rule option of --rules one at a time, play the same games "
            "under each switch and rank the switches by their effect on the game's length, "
            "its fairness and the skill it rewards, each with its interval."
        ),
    )
    common_flags(p)
    p.add_argument(
        "--games", type=positive_int, required=True, help=_("games per switch, on the same deals")
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
        "--keys",
        default=None,
        metavar="KEY,...",
        help=_("switch only these options (default: every one)"),
    )
    skill_flags(p, "--games")
    p.add_argument("--json", action="store_true", help=_("one JSON document on stdout"))
    p.add_argument("--out", default=None, help=_("folder for the tables and every switch's run"))
    p.add_argument(
        "--full", action="store_true", help=_("print every switch (default: the largest effects)")
    )
    p.add_argument(
        "--force",
        action="store_true",
        help=_("write into a non-empty --out; discard an interrupted run's saved chunks"),
    )
    runner_flags(p)
    lang_flag(p)
    p.set_defaults(func=cmd_atlas)
    return p
