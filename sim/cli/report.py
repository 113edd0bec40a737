"""``thousand report``: odds, a hands run and a games run, then the report folder.

The runs are played by the runs layer (:func:`sim.odds.run_odds`,
:func:`sim.runfolder.simulate_report`, :func:`sim.compare.dealing_comparison`,
:func:`sim.compare.play_rule_sets`); the report is built from them by
:func:`analysis.report.build_report`.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from typing import TYPE_CHECKING, Any

import sim
from sim.cli.common import (
    ENGINE_FUNCTIONS,
    backend_of,
    common_flags,
    compile_notice,
    positive_int,
    progress,
    runner_flags,
    seed_value,
    set_workers,
    warm_engine,
)
from sim.cli.compare import rule_sets
from sim.engine.strategies.addresses import entry_names
from sim.engine.strategies.registry import parse_params, parse_strategies
from sim.jobs.safebids import DEFAULT_PLAYERS_TEXT as DEFAULT_PLAYERS
from sim.jobs.safebids import FAST, SafeBidsSpec, parse_players, safebids
from sim.output import check_out_dir
from sim.rules import Rules, load_rules
from sim.runner import open_partial, run_on_workers, start_workers

if TYPE_CHECKING:
    from sim.odds import OddsRun


def cmd_report(args: argparse.Namespace) -> int:
    """``thousand report``: odds, a hands run and a games run, then the report folder.

    The hands and games runs are played into the run's partial folder beside
    ``--out`` (with their chunks, for ``--resume``; removed afterwards); the report
    folder is written only when everything worked.
    """
    from analysis.compare import compare_folders
    from analysis.odds import odds_result
    from analysis.report import build_report
    from sim.compare import dealing_comparison, play_rule_sets
    from sim.odds import run_odds
    from sim.runfolder import simulate_report

    out = check_out_dir(args.out, args.force)
    rules = load_rules(args.rules)
    sets = rule_sets(args.rules, args.vs) if args.vs is not None else None
    for r in [rules] + [r for _, r in sets or ()]:  # checked before anything runs
        parse_params(parse_strategies(args.strategies, r.players), args.param)
    if not args.no_safe_bids:
        parse_players(args.safe_players)
    set_workers(args.workers)
    backend = backend_of(args)
    plan = {
        "command": "report",
        "rules_hash": rules.rules_hash,
        "vs": [[name, r.rules_hash] for name, r in sets] if sets else None,
        "deals": args.deals,
        "hands": args.hands,
        "games": args.games,
        "seed": args.seed,
        "strategies": args.strategies,
        "params": args.param,
        "par": args.par,
        "safe": [args.safe_players, args.safe_deals, args.safe_sample, args.no_safe_bids],
        "guide": [args.no_guide, args.guide_duel_deals],
        "engine_version": sim.ENGINE_VERSION,
    }
    parts = open_partial(out, plan, args.resume).folder  # each run's chunks, for --resume
    t0 = time.perf_counter()

    def odds_of(r: Rules) -> OddsRun:
        with progress(args.deals, args.quiet, "deal", f"odds of {r.name}") as bar:
            return run_odds(r, args.deals, args.seed, progress=bar.update)

    compiling = compile_notice(
        args.quiet,
        "sim.odds._count_kernel",
        *ENGINE_FUNCTIONS["hands"],
        *ENGINE_FUNCTIONS["games"],
        *ENGINE_FUNCTIONS["declarer"],
        *entry_names(parse_strategies(args.strategies, rules.players)),
    )
    if compiling:  # compiled before the phases' clocks start: their speeds leave it out
        from sim.engine.deal import deal_batch
        from sim.odds import count_batch

        count_batch(deal_batch(8, args.seed, rules))
    odds = odds_of(rules)
    start_workers(backend)
    if compiling:
        names = parse_strategies(args.strategies, rules.players)
        for command in ("hands", "games"):
            run_on_workers(backend, warm_engine, (command, rules, names, args.param))
    work = parts / "runs"  # the joined run folders, made again from the chunks on --resume
    work.mkdir(exist_ok=True)
    runs = simulate_report(
        rules,
        args.hands,
        args.games,
        args.seed,
        work,
        strategies=args.strategies,
        params=args.param,
        par=args.par,
        progress=lambda total, unit: progress(total, args.quiet, unit, f"playing {unit}s"),
        backend=backend,
        parts=parts,
    )
    with progress(args.games, args.quiet, "game", "shuffled or cut: games") as bar:
        dealing = dealing_comparison(
            rules, odds, runs.games_dir, args.games, args.seed, work / "dealing",
            odds_of=odds_of, strategies=args.strategies, params=args.param, backend=backend,
            progress=bar.update, parts=parts / "dealing",
        )  # fmt: skip
    safebids, examples = None, []
    if not args.no_safe_bids:
        safebids = safe_bids_run(rules, args)
        examples = advice_examples(rules, args)
    guide = None if args.no_guide else guide_section(rules, args, odds, safebids)
    compare = None
    if sets is not None:  # the house-rule comparison on the same deals
        with progress(args.games * len(sets), args.quiet, "game", "house rules: games") as bar:
            compared = play_rule_sets(
                sets, args.games, args.seed, work / "compare", strategies=args.strategies,
                params=args.param, backend=backend, progress=bar.update,
                parts=parts / "compare",
            )  # fmt: skip
        compare = compare_folders(compared)
    build_report(
        out,
        odds=odds_result(odds),
        hands_dir=runs.hands_dir,
        games_dir=runs.games_dir,
        compare=compare,
        dealing=dealing,
        safebids=safebids,
        examples=examples,
        guide=guide,
        rule_sets=sets or (),
    )
    shutil.rmtree(parts, ignore_errors=True)
    if not args.quiet:
        print(
            f"report written to {out}/index.html in {time.perf_counter() - t0:.1f} s",
            file=sys.stderr,
        )
    return 0


def safe_bids_run(rules: Rules, args: argparse.Namespace) -> Any:
    """The safe-bid tables of the report (``thousand safebids`` at the report's sizes)."""
    spec = SafeBidsSpec(
        rules,
        tuple(parse_players(args.safe_players)),
        deals=args.safe_deals,
        sample=args.safe_sample,
        seed=args.seed,
        holdout_seed=args.seed + 1,
        params=tuple(args.param),
        workers=args.workers,
    )
    return safebids(
        spec, lambda total, unit: progress(total, args.quiet, unit, "safe bids: hands declared")
    )


def guide_section(rules: Rules, args: argparse.Namespace, odds: Any, safebids: Any) -> Any:
    """The strategy guide as a report section (``thousand guide`` on the report's runs).

    The guide player's (``strong``'s) safe-bid items and the odds run are the report's
    own; hands and games are played again with it (the report's runs may use other
    strategies), and the ``guide`` player duels it on ``--guide-duel-deals``.
    """
    from analysis.guide import GUIDE_PLAYER, build_guide, guide_report_section
    from analysis.odds import odds_result
    from sim.cli.guide import collect_runs, guide_duel
    from sim.parallel import max_threads

    items = None
    if safebids is not None and GUIDE_PLAYER in safebids.run.players:
        items = safebids.run.items[(GUIDE_PLAYER, args.seed)]
    runs = collect_runs(
        rules,
        args.seed,
        deals=args.safe_deals,
        hands=min(args.hands, 50_000),
        games=args.games,
        odds_deals=args.deals,
        risk=0.75,
        workers=args.workers or max_threads(),
        quiet=args.quiet,
        items=items,
        odds=odds_result(odds).table,
    )
    guide = build_guide(runs)
    duel = guide_duel(rules, guide, args.guide_duel_deals, args.seed)
    return guide_report_section(guide, duel, args.guide_duel_deals, args.seed)


def advice_examples(rules: Rules, args: argparse.Namespace) -> list[Any]:
    """The advisor on the report's example hands: the fast players (2,000 deals), the par."""
    from analysis.advise import EXAMPLE_HANDS, advise
    from sim.advise import PASS_PLAYER, bid_samples
    from sim.cards import hand_mask
    from sim.engine.deal import place_sizes

    if place_sizes(rules.players)[0] != 7:  # the examples are 7-card hands
        return []
    players = [p for p in parse_players(args.safe_players) if p in (*FAST, "par")]
    out = []
    for text in EXAMPLE_HANDS:
        hand = hand_mask(text)
        for p in players:
            n = 2000 if p in FAST else max(1, args.safe_sample // 2)
            cols = bid_samples(rules, hand, 0, p, n, args.seed, pass_samples=1000)
            out.append(advise(rules, hand, "forehand", p, 0.75, cols, pass_player=PASS_PLAYER))
    return out


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``report`` to the ``thousand`` subparsers; return its parser."""
    p_rep = subparsers.add_parser("report", help="the full report: HTML + Markdown + PNG + CSV")
    common_flags(p_rep)
    p_rep.add_argument("--out", required=True, help="the report folder")
    p_rep.add_argument(
        "--deals",
        type=positive_int,
        default=2_000_000,
        help="simulated deals for the deal odds and marriages (default 2,000,000)",
    )
    p_rep.add_argument(
        "--hands",
        type=positive_int,
        default=1_000_000,
        help="deals played for the bid tables and declared marriages (default 1,000,000)",
    )
    p_rep.add_argument(
        "--games",
        type=positive_int,
        default=50_000,
        help="whole games for the barrel, game length and seat tables (default 50,000)",
    )
    p_rep.add_argument(
        "--seed",
        type=seed_value,
        default=0,
        help="the run's seed: the same seed and sizes give the same results (default 0)",
    )
    p_rep.add_argument("--force", action="store_true", help="write into a non-empty --out")
    p_rep.add_argument(
        "--strategies",
        default="strong",
        help="who plays the hands and games runs: one name for every seat, or one per seat "
        "comma-separated (default strong; random, first, heuristic, strong, pimc, cheater)",
    )
    p_rep.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="STRATEGY.NAME=VALUE",
        help="strategy parameter, e.g. pimc.worlds=30",
    )
    p_rep.add_argument(
        "--par",
        action="store_true",
        help="play the hands run with the open-card par of every deal (thousand hands --par) "
        "and show the made rates beside it",
    )
    p_rep.add_argument(
        "--safe-players",
        default=DEFAULT_PLAYERS,
        help=f"players of the safe-bid section (thousand safebids; default {DEFAULT_PLAYERS})",
    )
    p_rep.add_argument(
        "--safe-deals",
        type=positive_int,
        default=100_000,
        help="deals whose hands the fast players (strong, heuristic) play as the declarer's "
        "(default 100,000)",
    )
    p_rep.add_argument(
        "--safe-sample",
        type=positive_int,
        default=100,
        help="deals whose hands pimc and the par play as the declarer's (default 100)",
    )
    p_rep.add_argument("--no-safe-bids", action="store_true", help="leave the safe-bid section out")
    p_rep.add_argument(
        "--no-guide", action="store_true", help="leave the strategy guide section out"
    )
    p_rep.add_argument(
        "--guide-duel-deals",
        type=positive_int,
        default=20_000,
        help="deals of the guide player's duel against strong (default 20,000)",
    )
    runner_flags(p_rep, chunk=False)
    p_rep.add_argument(
        "--vs",
        default=None,
        metavar="R2[,R3...]",
        help="add the house-rule comparison with these rule sets (--games each, same deals)",
    )
    p_rep.set_defaults(func=cmd_report)
    return p_rep
