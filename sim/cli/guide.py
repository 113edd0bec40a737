"""``thousand guide``: a strategy guide for a rules set, in player words, checked by playing it.

The runs are :mod:`sim.declarer` (every dealt hand as the declarer's), the hands and
games engines and the odds; the tables and pages are :mod:`analysis.guide`; the
``guide`` player (:mod:`sim.engine.strategies.guide`) plays the guide's tables in a
duplicate duel against the player it measured (``strong``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from sim.cli.common import (
    common_flags,
    json_safe,
    positive_int,
    seed_value,
    set_workers,
    share_value,
)
from sim.output import check_out_dir, now_iso
from sim.rules import load_rules


def collect_runs(
    rules: Any,
    seed: int,
    *,
    deals: int,
    hands: int,
    games: int,
    odds_deals: int,
    risk: float,
    workers: int,
    quiet: bool,
    items: dict[str, Any] | None = None,
    odds: Any = None,
) -> Any:
    """The four runs of the guide (declarer items, hands, games, odds).

    ``items`` (the guide player's :func:`sim.declarer.run_items` of ``seed``) and ``odds``
    (an odds table of the same rules) are used when given, so that ``thousand report``
    does not play them twice.
    """
    import numpy as np
    import polars as pl

    from analysis.guide import GUIDE_PLAYER, GuideRuns
    from analysis.odds import odds_result
    from sim.declarer import run_items
    from sim.engine import play_hands
    from sim.engine.game import GAME_COLUMNS, play_games
    from sim.odds import run_odds

    def say(message: str) -> None:
        if not quiet:
            print(f"guide: {message}", file=sys.stderr)

    if items is None:
        say(f"{deals:,} deals, every hand as the declarer's ({GUIDE_PLAYER})")
        items = run_items(rules, GUIDE_PLAYER, deals, seed, workers=workers)
    say(f"{hands:,} hands in ordinary auctions")
    batch = play_hands(rules, hands, seed, (GUIDE_PLAYER,), first_deals=True)
    first = batch.column("redeals") == 0  # the first deal was played: its cards are known
    dealt = batch.dealt[:, 0].astype(np.int64)
    cols = {c: np.asarray(batch.column(c))[first] for c in ("declarer", "discard_1", "discard_2")}
    for s in range(min(rules.players, 3)):
        cols[f"declared_{s}"] = np.asarray(batch.column(f"declared_{s}"))[first]
    cols["dealt"] = dealt[first, :3]
    cols["talon"] = dealt[first, 3]
    say(f"{games:,} games")
    batch_games = play_games(rules, games, seed, (GUIDE_PLAYER,))
    frame = pl.DataFrame(batch_games.out, schema=list(GAME_COLUMNS), orient="row")
    if odds is None:
        say(f"{odds_deals:,} deals for the talon's odds")
        odds = odds_result(run_odds(rules, odds_deals, seed, (GUIDE_PLAYER,))).table
    return GuideRuns(
        rules=rules, seed=seed, risk=risk, items=items, hands=cols, games=frame, odds=odds
    )


def guide_duel(rules: Any, guide: Any, deals: int, seed: int) -> Any:
    """The ``guide`` player (this guide's settings) against the guide's player: the summary."""
    from analysis.duel import duel_result
    from analysis.guide import GUIDE_PLAYER
    from sim.duel import Contestant, duel_hands

    run = duel_hands(rules, Contestant("guide", tuple(guide.params())), Contestant(GUIDE_PLAYER),
                     deals, seed)  # fmt: skip
    return duel_result(run).summary


def cmd_guide(args: argparse.Namespace) -> int:
    """``thousand guide``: the guide's pages into ``--out``; a summary on stdout."""
    from analysis.guide import build_guide, guide_json, write_guide

    check_out_dir(args.out, args.force)
    rules = load_rules(args.rules)
    set_workers(args.workers)
    started = now_iso()
    t0 = time.perf_counter()
    from sim.parallel import max_threads

    runs = collect_runs(
        rules,
        args.seed,
        deals=args.deals,
        hands=args.hands,
        games=args.games,
        odds_deals=args.odds_deals,
        risk=args.risk,
        workers=args.workers or max_threads(),
        quiet=args.quiet,
    )
    guide = build_guide(runs)
    duel = None
    if not args.no_duel:
        duel = guide_duel(rules, guide, args.duel_deals, args.seed)
    extra = {"started": started, "ended": now_iso(), "seconds": time.perf_counter() - t0}
    write_guide(guide, Path(args.out), duel, args.duel_deals, args.seed, extra)
    if args.json:
        print(json.dumps(json_safe(guide_json(guide, duel))))
    else:
        print(f"strategy guide for {rules.name} written to {args.out}/guide.md (and index.html)")
        if duel is not None:
            from analysis.guide import duel_sentence

            print(duel_sentence(duel, args.duel_deals, args.seed))
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``guide`` to the ``thousand`` subparsers; return its parser."""
    p = subparsers.add_parser(
        "guide",
        help="a strategy guide for a rules set: bids, talon, discards, concessions, barrel",
        description=(
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
    p.add_argument("--out", required=True, help="folder for guide.md, index.html, CSVs, run.json")
    p.add_argument(
        "--deals",
        type=positive_int,
        default=50000,
        help="deals whose every hand is played as the declarer's (default 50000)",
    )
    p.add_argument(
        "--hands",
        type=positive_int,
        default=50000,
        help="hands in ordinary auctions (default 50000)",
    )
    p.add_argument("--games", type=positive_int, default=2000, help="whole games (default 2000)")
    p.add_argument(
        "--odds-deals",
        type=positive_int,
        default=200000,
        help="deals for the talon's reshuffle odds (default 200000)",
    )
    p.add_argument(
        "--risk",
        type=share_value,
        default=0.75,
        help="the make rate the guide player's bid chart needs (default 0.75)",
    )
    p.add_argument(
        "--duel-deals",
        type=positive_int,
        default=20000,
        help="deals of the guide player's duel against strong (default 20000)",
    )
    p.add_argument("--no-duel", action="store_true", help="skip the guide player's duel")
    p.add_argument(
        "--seed",
        type=seed_value,
        default=0,
        help="the run's seed: the same seed and sizes give the same results (default 0)",
    )
    p.add_argument("--json", action="store_true", help="every table as one JSON document")
    p.add_argument("--force", action="store_true", help="write into a non-empty --out")
    p.set_defaults(func=cmd_guide)
    return p
