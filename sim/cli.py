"""The ``thousand`` command line (contract: docs/cli.md).

Thin by design: parse and validate, call library functions, print or write.
Bad input exits with code 2 and one line on stderr naming the culprit.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import math
import shutil
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, NoReturn

import sim
from sim.cards import CardParseError
from sim.engine.strategies.registry import StrategyError
from sim.output import UsageError, check_out_dir, now_iso
from sim.parallel import keep_freed_memory
from sim.rules import Rules, RulesError, load_rules, preset_names
from sim.runner import Backend, open_partial, start_workers


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {text!r}")
    return value


def _progress(total: int, quiet: bool, unit: str) -> Any:
    """A tqdm bar on stderr, silent when stderr is not a terminal or with --quiet."""
    from tqdm import tqdm

    return tqdm(
        total=total,
        unit=unit,
        unit_scale=True,
        file=sys.stderr,
        dynamic_ncols=True,
        disable=quiet or not sys.stderr.isatty(),
    )


def _set_workers(workers: int | None) -> None:
    from sim.parallel import set_threads

    set_threads(workers)


# --- rules ------------------------------------------------------------------------
def cmd_rules_list(args: argparse.Namespace) -> int:
    """Print the shipped presets with their descriptions."""
    for name in preset_names():
        print(f"{name:<18} {load_rules(name).description}")
    return 0


def cmd_rules_show(args: argparse.Namespace) -> int:
    """Print the fully resolved TOML of a preset or file."""
    sys.stdout.write(load_rules(args.rules).to_toml())
    return 0


# --- odds -------------------------------------------------------------------------
def run_odds(
    rules_spec: str | Rules,
    deals: int,
    seed: int,
    quiet: bool = True,
    backend: Backend | None = None,
    strategies: Sequence[str] = ("heuristic",),
) -> dict[str, Any]:
    """Simulate and compute exactly every odds key; return the ``odds --json`` document.

    Deals are independent shuffles, unless the rules cut the deck (``deal.method =
    "cut"``: each slot's first deal comes from the previous deal as ``strategies``
    played it, in chains of ``deal.cut_chain``) or hold the bottom-card ritual; the
    document's ``deals_from`` says which. ``exact`` values are those of shuffled deals.

    Without ``backend`` the deals are counted in this process (compiled threads);
    with one, in chunks on its workers (:mod:`sim.runner`); the counts are the same.
    """
    from analysis.exact import exact_odds
    from analysis.tables import odds_table
    from sim.deal import dealt_by_play
    from sim.engine.strategies.registry import parse_strategies
    from sim.odds import run_odds_chunks, simulate_odds

    rules = load_rules(rules_spec)
    names = parse_strategies(",".join(strategies), rules.players)
    started = now_iso()
    t0 = time.perf_counter()
    with _progress(deals, quiet, "deal") as bar:
        if backend is None:
            counts = simulate_odds(rules, deals, seed, progress=bar.update, strategies=names)
        else:
            counts = run_odds_chunks(
                rules, deals, seed, backend, progress=bar.update, strategies=names
            )
    seconds = time.perf_counter() - t0
    exact = exact_odds(rules)
    table = odds_table(counts.deals, counts.hits, exact)
    odds = {
        row["key"]: {
            "estimate": row["estimate"],
            "ci_low": row["ci_low"],
            "ci_high": row["ci_high"],
            "exact": row["exact"],
            "hits": row["hits"],
            "z": row["z"],
        }
        for row in table.iter_rows(named=True)
    }
    if rules.deal.method == "cut":
        deals_from = (
            f"cut deck: each deal dealt from the previous one as {','.join(names)} played it,"
            f" in chains of {rules.deal.cut_chain} deals from one shuffle"
        )
    elif dealt_by_play(rules):
        deals_from = "shuffled deck with the bottom-card ritual"
    else:
        deals_from = "independently shuffled deals"
    return {
        "rules": rules.name,
        "rules_hash": rules.rules_hash,
        "players": rules.players,
        "deals": deals,
        "seed": seed,
        "deals_from": deals_from,
        "strategies": names if rules.deal.method == "cut" else None,
        "odds": odds,
        "_table": table,
        "_rules": rules,
        "_timing": {"started": started, "seconds": seconds},
    }


def public(doc: dict[str, Any]) -> dict[str, Any]:
    """The document without the private ``_`` entries (objects for writers)."""
    return {k: v for k, v in doc.items() if not k.startswith("_")}


def write_odds_dir(doc: dict[str, Any], out: Path) -> None:
    """Write ``odds.csv``, ``odds.md``, ``odds.json`` and ``run.json`` into ``out``."""
    from analysis.tables import to_markdown
    from sim.output import StagedDir, run_manifest, write_json

    rules = doc["_rules"]
    table = doc["_table"]
    with StagedDir(out) as staged:
        table.write_csv(staged.path / "odds.csv")
        title = (
            f"# Deal odds — rules `{rules.name}` (hash {rules.rules_hash})\n\n"
            f"{doc['deals']:,} simulated deals ({doc['deals_from']}), seed {doc['seed']}; "
            "95 % Wilson intervals; `exact` by combinatorics for independently shuffled "
            "deals; `z` = (estimate − exact) / standard error.\n\n"
        )
        (staged.path / "odds.md").write_text(title + to_markdown(table), encoding="utf-8")
        write_json(staged.path / "odds.json", public(doc))
        write_json(
            staged.path / "run.json",
            run_manifest(
                rules,
                doc["seed"],
                {"deals": doc["deals"]},
                command="odds",
                started=doc["_timing"]["started"],
                seconds=doc["_timing"]["seconds"],
                ended=now_iso(),
            ),
        )


def cmd_odds(args: argparse.Namespace) -> int:
    """``thousand odds``: deal-level odds, simulated beside exact."""
    if args.out is not None:
        check_out_dir(args.out, args.force)
    from sim.engine.strategies.registry import parse_strategies

    rules = load_rules(args.rules)  # fail on bad rules and strategies before any work
    parse_strategies(args.strategies, rules.players)
    _set_workers(args.workers)
    backend = _backend(args)
    # counting deals returns a few numbers: compiled threads in this process beat worker
    # processes (no start-up, no copies); the counts are the same either way
    doc = run_odds(
        args.rules,
        args.deals,
        args.seed,
        args.quiet,
        backend if backend.scheduler else None,
        strategies=args.strategies.split(","),
    )
    if args.out is not None:
        write_odds_dir(doc, Path(args.out))
    if args.json:
        print(json.dumps(_json_safe(public(doc))))
    else:
        _print_odds(doc)
    return 0


def _json_safe(obj: Any) -> Any:
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: _json_safe(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_json_safe(v) for v in obj]
    return obj


def _print_odds(doc: dict[str, Any]) -> None:
    print(f"rules {doc['rules']} ({doc['rules_hash']}), {doc['deals']:,} deals, seed {doc['seed']}")
    print(f"deals: {doc['deals_from']}; exact values are those of independently shuffled deals")
    print(f"{'key':<32} {'estimate':>9} {'95% interval':>21} {'exact':>9} {'z':>6}")
    for key, v in doc["odds"].items():
        exact = "—" if v["exact"] is None else f"{v['exact']:.6f}"
        z = "—" if v["z"] is None else f"{v['z']:+.2f}"
        print(
            f"{key:<32} {v['estimate']:>9.6f} [{v['ci_low']:.6f}, {v['ci_high']:.6f}] "
            f"{exact:>9} {z:>6}"
        )


# --- hands and bids ------------------------------------------------------------------
def _simulate(
    args: argparse.Namespace,
    command: str,
    total: int,
    unit: str,
    play: Callable[..., dict[str, int]],
    sizes: Callable[[dict[str, int]], dict[str, int]],
    **extra: Any,
) -> tuple[dict[str, int], float]:
    """The shared body of ``hands`` and ``games``.

    Validates the input, plays into a staged ``--out`` (and ``--trace``), writes
    ``run.json``; returns the run's counts and seconds.
    """
    from sim.engine.strategies.registry import parse_params, parse_strategies
    from sim.output import StagedDir, run_manifest, write_json

    check_out_dir(args.out, args.force)
    rules = load_rules(args.rules)
    names = parse_strategies(args.strategies, rules.players)
    first = getattr(args, "first_dealer", None)
    if first is not None and first not in range(rules.players):
        raise UsageError(
            f"--first-dealer {first}: a seat 0..{rules.players - 1} of {rules.players} players"
        )
    parse_params(names, args.param)  # validate before any work
    trace_path = Path(args.trace) if args.trace else None
    if trace_path is not None and trace_path.is_dir():
        raise UsageError(f"--trace {trace_path}: is a folder")
    backend = _backend(args)
    if backend.scheduler is None and backend.workers == 1:
        _set_workers(1)  # the chunks run in this process, on one compiled-code thread
    start_workers(backend)
    chunk = args.chunk or {"hands": 1 << 17, "games": 4096}[command]
    plan = {
        "command": command,
        "rules_hash": rules.rules_hash,
        "seed": args.seed,
        "total": total,
        "chunk": chunk,
        "strategies": names,
        "params": list(args.param),
        "trace": trace_path is not None,
        "engine_version": sim.ENGINE_VERSION,
        **{k: v for k, v in extra.items()},
    }
    store = open_partial(Path(args.out), plan, args.resume)
    started = now_iso()
    t0 = time.perf_counter()
    with StagedDir(args.out) as staged, _staged_file(trace_path) as trace:
        with _progress(total, args.quiet, unit) as bar:
            counts = play(
                rules,
                total,
                args.seed,
                staged.path,
                names,
                args.param,
                trace=trace,
                progress=bar.update,
                chunk=chunk,
                backend=backend,
                store=store,
                **extra,
            )
        seconds = time.perf_counter() - t0
        manifest = run_manifest(
            rules,
            args.seed,
            sizes(counts),
            command=command,
            strategies=names,
            params=list(args.param),
            **extra,
            **backend.describe(),
            chunk_size=chunk,
            chunks=counts.get("chunks"),
            started=started,
            ended=now_iso(),
            seconds=seconds,
        )
        write_json(staged.path / "run.json", manifest)
    shutil.rmtree(store.folder, ignore_errors=True)
    return counts, seconds


def _lazy(module: str, name: str) -> Callable[..., Any]:
    """``module.name``, imported when first called.

    A run on worker processes then never imports the engine here, and a serial run
    imports it after :func:`start_workers` had its say.
    """

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    return call


def _backend(args: argparse.Namespace) -> Backend:
    """The runner backend of ``--workers`` and ``--scheduler``."""
    from sim.parallel import max_threads

    workers = args.workers or max_threads()
    scheduler = getattr(args, "scheduler", None)
    if scheduler is not None and scheduler != "local" and not scheduler.startswith("tcp://"):
        raise UsageError(f"--scheduler {scheduler}: expected 'local' or tcp://HOST:PORT")
    return Backend(workers=workers, scheduler=scheduler)


def cmd_hands(args: argparse.Namespace) -> int:
    """``thousand hands``: play N deals, write hands.parquet + run.json (+ trace)."""
    counts, seconds = _simulate(
        args,
        "hands",
        args.deals,
        "deal",
        _lazy("sim.hands", "run_hands"),
        lambda c: {"deals": args.deals, "rows": c["rows"]},
        aggregate_only=args.aggregate_only,
    )
    if not args.quiet:
        rate = args.deals / seconds if seconds > 0 else float("inf")
        name = "hands_agg.parquet" if args.aggregate_only else "hands.parquet"
        print(
            f"{args.deals:,} deals ({counts['redealt']:,} redealt) in {seconds:.1f} s "
            f"({rate:,.0f} deals/s) → {args.out}/{name}",
            file=sys.stderr,
        )
    return 0


@contextlib.contextmanager
def _staged_file(path: Path | None) -> Iterator[IO[str] | None]:
    """A text file written beside ``path`` and moved into place only on success."""
    if path is None:
        yield None
        return
    if path.exists() and not path.is_file():  # a device such as /dev/null: write through
        with path.open("w", encoding="utf-8") as fh:
            yield fh
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.partial")
    try:
        with tmp.open("w", encoding="utf-8") as fh:
            yield fh
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


def cmd_bids(args: argparse.Namespace) -> int:
    """``thousand bids DIR``: bid-success tables and safe bid levels of a hands run."""
    from analysis.bids import bid_tables, bid_tables_json, bids_markdown, write_bid_tables

    tables = bid_tables(Path(args.dir), min_n=args.min_n)
    _emit_tables(args, tables, write_bid_tables, bid_tables_json, bids_markdown)
    return 0


def _emit_tables(
    args: argparse.Namespace,
    tables: Any,
    write: Callable[[Any, Path], None],
    to_json: Callable[[Any], dict[str, Any]],
    to_markdown: Callable[[Any], str],
) -> None:
    """Print analysis tables as JSON (``--json``) or Markdown; also write ``--out``."""
    if args.out is not None:
        check_out_dir(args.out, args.force)
        write(tables, Path(args.out))
    if args.json:
        print(json.dumps(_json_safe(to_json(tables))))
    else:
        print(to_markdown(tables))


# --- games and barrel -------------------------------------------------------------------
def cmd_games(args: argparse.Namespace) -> int:
    """``thousand games``: play N whole games; games.parquet, barrel.parquet, run.json."""
    counts, seconds = _simulate(
        args,
        "games",
        args.games,
        "game",
        _lazy("sim.games", "run_games"),
        lambda c: {"games": args.games, "stints": c["stints"], "unfinished": c["unfinished"]},
        first_dealer=args.first_dealer,
    )
    if not args.quiet:
        rate = args.games / seconds if seconds > 0 else float("inf")
        print(
            f"{args.games:,} games ({counts['unfinished']:,} unfinished) in {seconds:.1f} s "
            f"({rate:,.0f} games/s) → {args.out}/games.parquet",
            file=sys.stderr,
        )
    return 0


def cmd_barrel(args: argparse.Namespace) -> int:
    """``thousand barrel DIR``: barrel falls, game length, seat advantage of a games run."""
    from analysis.barrel import (
        barrel_markdown,
        barrel_tables,
        barrel_tables_json,
        write_barrel_tables,
    )

    tables = barrel_tables(Path(args.dir))
    _emit_tables(args, tables, write_barrel_tables, barrel_tables_json, barrel_markdown)
    return 0


# --- report -----------------------------------------------------------------------
def cmd_report(args: argparse.Namespace) -> int:
    """``thousand report``: odds, a hands run and a games run, then the report folder.

    The hands and games runs are played into the run's partial folder beside
    ``--out`` (with their chunks, for ``--resume``; removed afterwards); the report
    folder is written only when everything worked.
    """
    from analysis.report import build_report
    from analysis.report_runs import simulate_report

    out = check_out_dir(args.out, args.force)
    rules = load_rules(args.rules)
    sets = None
    if args.vs is not None:
        from sim.compare import rule_sets

        sets = rule_sets(args.rules, args.vs)
    _set_workers(args.workers)
    backend = _backend(args)
    plan = {
        "command": "report",
        "rules_hash": rules.rules_hash,
        "vs": [[name, r.rules_hash] for name, r in sets] if sets else None,
        "deals": args.deals,
        "hands": args.hands,
        "games": args.games,
        "seed": args.seed,
        "engine_version": sim.ENGINE_VERSION,
    }
    parts = open_partial(out, plan, args.resume).folder  # each run's chunks, for --resume
    t0 = time.perf_counter()
    doc = run_odds(args.rules, args.deals, args.seed, quiet=args.quiet)
    start_workers(backend)
    work = parts / "runs"  # the joined run folders, made again from the chunks on --resume
    work.mkdir(exist_ok=True)
    runs = simulate_report(
        rules,
        args.hands,
        args.games,
        args.seed,
        work,
        progress=lambda total, unit: _progress(total, args.quiet, unit),
        backend=backend,
        parts=parts,
    )
    from sim.compare import dealing_comparison

    with _progress(args.games, args.quiet, "game") as bar:
        dealing = dealing_comparison(
            rules, doc, runs.games_dir, args.games, args.seed, work / "dealing",
            odds_of=lambda r: run_odds(r, args.deals, args.seed, quiet=args.quiet),
            backend=backend, progress=bar.update, parts=parts / "dealing",
        )  # fmt: skip
    compare = None
    if sets is not None:  # the house-rule comparison on the same deals
        from sim.compare import play_rule_sets

        with _progress(args.games * len(sets), args.quiet, "game") as bar:
            compare = play_rule_sets(
                sets, args.games, args.seed, work / "compare", backend=backend,
                progress=bar.update, parts=parts / "compare",
            )  # fmt: skip
    build_report(
        out,
        odds=doc,
        hands_dir=runs.hands_dir,
        games_dir=runs.games_dir,
        compare=compare,
        dealing=dealing,
    )
    shutil.rmtree(parts, ignore_errors=True)
    if not args.quiet:
        print(
            f"report written to {out}/index.html in {time.perf_counter() - t0:.1f} s",
            file=sys.stderr,
        )
    return 0


# --- bench ------------------------------------------------------------------------
def cmd_bench(args: argparse.Namespace) -> int:
    """``thousand bench``: throughput of this machine (deals/s per core and all cores)."""
    from sim.bench import format_bench, run_all

    doc = run_all()
    if args.json:
        print(json.dumps(doc))
        return 0
    print("\n".join(format_bench(doc)))
    return 0


# --- parser -----------------------------------------------------------------------
def _runner_flags(p: argparse.ArgumentParser, chunk: bool = True) -> None:
    if chunk:
        p.add_argument(
            "--chunk",
            type=_positive_int,
            default=None,
            metavar="N",
            help="items per chunk (memory per worker; changes only the row groups, never a row)",
        )
    p.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDR",
        help="run the chunks on Dask: 'local' starts a LocalCluster, or tcp://HOST:PORT",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="finish an interrupted run of the same command and --out (chunks kept)",
    )


def _common(p: argparse.ArgumentParser, rules: bool = True) -> None:
    if rules:
        p.add_argument(
            "--rules",
            default="classic",
            help="preset name or path to a TOML rules file (default: classic)",
        )
    p.add_argument(
        "--workers",
        type=_positive_int,
        default=None,
        help="worker processes (Dask workers with --scheduler local; default: all cores)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar or log on stderr")


def build_parser() -> argparse.ArgumentParser:
    """The ``thousand`` argument parser."""
    parser = _Parser(prog="thousand", description=__doc__.splitlines()[0])
    from sim import __version__

    parser.add_argument("--version", action="version", version=f"thousand {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p_rules = sub.add_parser("rules", help="list presets or show resolved rules")
    rules_sub = p_rules.add_subparsers(dest="rules_command", required=True, parser_class=_Parser)
    rules_sub.add_parser("list", help="list the shipped presets").set_defaults(func=cmd_rules_list)
    p_show = rules_sub.add_parser("show", help="print the fully resolved TOML of R")
    p_show.add_argument("rules", help="preset name or TOML path")
    p_show.set_defaults(func=cmd_rules_show)

    p_odds = sub.add_parser("odds", help="deal-level odds, exact beside simulated")
    _common(p_odds)
    p_odds.add_argument("--deals", type=_positive_int, default=1_000_000)
    p_odds.add_argument("--seed", type=_seed, default=0)
    p_odds.add_argument("--json", action="store_true", help="one JSON document on stdout")
    p_odds.add_argument("--out", default=None, help="folder for odds.csv, odds.md, run.json")
    p_odds.add_argument("--force", action="store_true", help="write into a non-empty --out")
    p_odds.add_argument(
        "--strategies",
        default="heuristic",
        help="under deal.method = cut, who plays the deals (their play makes the next deck):"
        " one name for every seat, or one per seat comma-separated; ignored otherwise",
    )
    p_odds.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDR",
        help="count the chunks on Dask: 'local' starts a LocalCluster, or tcp://HOST:PORT",
    )
    p_odds.set_defaults(func=cmd_odds)

    p_hands = sub.add_parser("hands", help="play N deals; write hands.parquet + run.json")
    _common(p_hands)
    p_hands.add_argument("--deals", type=_positive_int, required=True)
    p_hands.add_argument("--seed", type=_seed, default=0)
    p_hands.add_argument("--out", required=True, help="folder for hands.parquet and run.json")
    p_hands.add_argument(
        "--strategies",
        default="heuristic",
        help="one name for every seat, or one per seat comma-separated (random, first, heuristic)",
    )
    p_hands.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="STRATEGY.NAME=VALUE",
        help="strategy parameter, e.g. heuristic.aggression=0.3",
    )
    p_hands.add_argument(
        "--trace",
        default=None,
        metavar="FILE.jsonl",
        help="write every deal as one JSON object per line",
    )
    p_hands.add_argument("--force", action="store_true", help="write into a non-empty --out")
    p_hands.add_argument(
        "--aggregate-only",
        action="store_true",
        help="keep only the counts the bid tables need (hands_agg.parquet), for huge runs",
    )
    _runner_flags(p_hands)
    p_hands.set_defaults(func=cmd_hands)

    p_bids = sub.add_parser("bids", help="bid-success tables and safe bid levels")
    p_bids.add_argument("dir", help="folder of a hands run")
    p_bids.add_argument("--json", action="store_true", help="one JSON document on stdout")
    p_bids.add_argument(
        "--min-n",
        type=_positive_int,
        default=30,
        help="played contracts a level needs to count as safe (default 30)",
    )
    p_bids.add_argument("--out", default=None, help="also write CSV tables and bids.md here")
    p_bids.add_argument("--force", action="store_true", help="write into a non-empty --out")
    p_bids.add_argument("--quiet", action="store_true")
    p_bids.set_defaults(func=cmd_bids)

    p_games = sub.add_parser("games", help="play N whole games; games.parquet + barrel.parquet")
    _common(p_games)
    p_games.add_argument("--games", type=_positive_int, required=True)
    p_games.add_argument("--seed", type=_seed, default=0)
    p_games.add_argument("--out", required=True, help="folder for the Parquet files and run.json")
    p_games.add_argument(
        "--strategies",
        default="heuristic",
        help="one name for every seat or one comma-separated name per seat",
    )
    p_games.add_argument("--param", action="append", default=[], metavar="STRATEGY.NAME=VALUE")
    p_games.add_argument(
        "--first-dealer",
        type=int,
        default=None,
        help="fix the first dealer of every game (default: drawn per game)",
    )
    p_games.add_argument(
        "--trace",
        default=None,
        metavar="FILE.jsonl",
        help="write every game's score history, one JSON object per line",
    )
    p_games.add_argument("--force", action="store_true", help="write into a non-empty --out")
    _runner_flags(p_games)
    p_games.set_defaults(func=cmd_games)

    p_barrel = sub.add_parser("barrel", help="barrel falls, game length, seat advantage")
    p_barrel.add_argument("dir", help="folder of a games run")
    p_barrel.add_argument("--json", action="store_true", help="one JSON document on stdout")
    p_barrel.add_argument("--out", default=None, help="also write CSV tables and barrel.md here")
    p_barrel.add_argument("--force", action="store_true", help="write into a non-empty --out")
    p_barrel.add_argument("--quiet", action="store_true")
    p_barrel.set_defaults(func=cmd_barrel)

    p_rep = sub.add_parser("report", help="the full report: HTML + Markdown + PNG + CSV")
    _common(p_rep)
    p_rep.add_argument("--out", required=True, help="the report folder")
    p_rep.add_argument(
        "--deals",
        type=_positive_int,
        default=2_000_000,
        help="simulated deals for the deal odds and marriages (default 2,000,000)",
    )
    p_rep.add_argument(
        "--hands",
        type=_positive_int,
        default=1_000_000,
        help="deals played for the bid tables and declared marriages (default 1,000,000)",
    )
    p_rep.add_argument(
        "--games",
        type=_positive_int,
        default=50_000,
        help="whole games for the barrel, game length and seat tables (default 50,000)",
    )
    p_rep.add_argument("--seed", type=_seed, default=0)
    p_rep.add_argument("--force", action="store_true", help="write into a non-empty --out")
    _runner_flags(p_rep, chunk=False)
    p_rep.add_argument(
        "--vs",
        default=None,
        metavar="R2[,R3...]",
        help="add the house-rule comparison with these rule sets (--games each, same deals)",
    )
    p_rep.set_defaults(func=cmd_report)
    p_bench = sub.add_parser("bench", help="throughput on this machine")
    p_bench.add_argument("--json", action="store_true", help="one JSON document on stdout")
    p_bench.set_defaults(func=cmd_bench)

    from sim.compare import add_compare_parser
    from sim.duel import add_duel_parser

    add_compare_parser(sub)
    add_duel_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``thousand``; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    keep_freed_memory()
    try:
        return func(args)
    except (RulesError, CardParseError, UsageError, StrategyError) as exc:
        print(f"thousand {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"thousand {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    finally:
        from sim.runner import stop_workers

        stop_workers()
