"""``thousand compare``: house rules side by side on the same deals.

Every rule set plays games ``0 .. N-1`` with the same seed and strategies, so game
``g`` deals the same cards and draws the same random numbers under each (common
random numbers); :mod:`analysis.compare` turns the games into effects with CRN and
independent-run intervals. Each rule set's run is kept under ``--out`` as
``runs/NAME/`` (``games.parquet``, ``barrel.parquet``, ``run.json``), so
``thousand barrel --out/runs/NAME`` works on it.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

import sim
from sim.output import UsageError, check_out_dir, now_iso
from sim.rules import Rules, load_rules
from sim.runner import Backend, open_partial, start_workers


def rule_sets(base: str, vs: str) -> list[tuple[str, Rules]]:
    """``(name, rules)`` of the base and every ``--vs`` entry, names made unique."""
    specs = [base, *(s.strip() for s in vs.split(",") if s.strip())]
    if len(specs) < 2:
        raise UsageError("--vs: name at least one rule set to compare with --rules")
    out: list[tuple[str, Rules]] = []
    seen: dict[str, int] = {}
    for spec in specs:
        rules = load_rules(spec)
        name = rules.name
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            name = f"{name}_{seen[name]}"
        out.append((name, rules))
    return out


def play_rule_sets(
    sets: list[tuple[str, Rules]],
    games: int,
    seed: int,
    work_dir: Path,
    strategies: str = "heuristic",
    params: list[str] | None = None,
    backend: Backend | None = None,
    chunk: int = 4096,
    progress: Callable[[int], None] | None = None,
    parts: Path | None = None,
) -> pl.DataFrame:
    """Play every rule set's games into ``work_dir/runs/NAME``; return the effects table.

    The first rule set is the base (:func:`analysis.compare.compare_games`). With
    ``parts`` (a run's partial folder, :func:`sim.runner.open_partial`) each rule
    set keeps its finished chunks in ``parts/NAME``, so an interrupted comparison
    resumes where it stopped.
    """
    from analysis.compare import compare_games
    from sim.runfolder import play_into
    from sim.runner import PartStore

    frames: dict[str, pl.DataFrame] = {}
    for name, rules in sets:
        run_dir = work_dir / "runs" / name
        store = PartStore(parts / name) if parts is not None else None
        play_into(
            "games", rules, games, seed, run_dir, strategies, params or [], backend=backend,
            progress=progress, chunk=chunk, store=store,
        )  # fmt: skip
        frames[name] = pl.read_parquet(run_dir / "games.parquet")
    base_name = sets[0][0]
    return compare_games(
        base_name,
        frames[base_name],
        [(name, frames[name]) for name, _ in sets[1:]],
        {name: r.players for name, r in sets},
    )


@dataclass(frozen=True)
class DealingComparison:
    """The same rules dealt from a shuffled and from a cut deck (docs/rules.md §2).

    ``odds`` are the two :func:`sim.cli.run_odds` documents (shuffled first), ``games``
    the :func:`analysis.compare.compare_games` table of the two games runs (base: the
    shuffled deal), ``names`` their labels.
    """

    names: tuple[str, str]
    odds: tuple[dict[str, Any], dict[str, Any]]
    games: pl.DataFrame
    strategies: str


def dealing_comparison(
    rules: Rules,
    odds: dict[str, Any],
    games_dir: Path,
    games: int,
    seed: int,
    work_dir: Path,
    odds_of: Callable[[Rules], dict[str, Any]],
    strategies: str = "heuristic",
    backend: Backend | None = None,
    progress: Callable[[int], None] | None = None,
    parts: Path | None = None,
) -> DealingComparison:
    """Shuffled or cut? The rules' own runs beside the same rules with the other method.

    ``odds`` and ``games_dir`` are the runs already made under ``rules`` (a games run
    of ``games`` games, ``seed``, ``strategies``); the other method's odds come from
    ``odds_of`` and its games are played into ``work_dir`` (chunks kept in ``parts``).
    The same seed deals the same first deal of every game and chain under both, so
    ``thousand compare --rules R --vs R_cut.toml`` with these sizes shows the same
    game effects.
    """
    from analysis.compare import compare_games
    from sim.runfolder import play_into
    from sim.runner import PartStore

    other_method = "shuffle" if rules.deal.method == "cut" else "cut"
    other = rules.replace(deal__method=other_method)
    other_odds = odds_of(other)
    store = PartStore(parts) if parts is not None else None
    play_into(
        "games", other, games, seed, work_dir, strategies, backend=backend,
        progress=progress, store=store,
    )  # fmt: skip
    mine = pl.read_parquet(games_dir / "games.parquet")
    theirs = pl.read_parquet(work_dir / "games.parquet")
    names = (f"{rules.name} (shuffled)", f"{rules.name} (cut)")
    if other_method == "cut":
        pair, frames = (odds, other_odds), (mine, theirs)
    else:
        pair, frames = (other_odds, odds), (theirs, mine)
    table = compare_games(
        names[0], frames[0], [(names[1], frames[1])], dict.fromkeys(names, rules.players)
    )
    return DealingComparison(names, pair, table, strategies)


def add_compare_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``compare`` subcommand to the ``thousand`` subparsers; return its parser."""
    from sim.cli import _common, _positive_int, _runner_flags, _seed

    p = subparsers.add_parser(
        "compare",
        help="house-rule balance: the same deals under every rule set",
        description=(
            "Play N games under --rules and every --vs rule set on the same deals and "
            "random numbers; print each effect with its interval."
        ),
    )
    _common(p)
    p.add_argument("--vs", required=True, help="rule sets to compare with --rules, comma-separated")
    p.add_argument("--games", type=_positive_int, required=True)
    p.add_argument("--seed", type=_seed, default=0)
    p.add_argument("--strategies", default="heuristic", help="one name for every seat")
    p.add_argument("--param", action="append", default=[], metavar="STRATEGY.NAME=VALUE")
    p.add_argument("--json", action="store_true", help="one JSON document on stdout")
    p.add_argument("--out", default=None, help="folder for the tables and each rule set's run")
    p.add_argument("--force", action="store_true", help="write into a non-empty --out")
    _runner_flags(p)
    p.set_defaults(func=cmd_compare)
    return p


def cmd_compare(args: argparse.Namespace) -> int:
    """``thousand compare``: effects of house rules with CRN and independent intervals."""
    from analysis.compare import compare_markdown
    from sim.cli import _backend, _json_safe, _progress, _set_workers
    from sim.engine.strategies.registry import parse_params, parse_strategies
    from sim.output import StagedDir, run_manifest, write_json

    if args.out is not None:
        check_out_dir(args.out, args.force)
    elif args.resume:
        raise UsageError("--resume: give the --out of the interrupted compare")
    sets = rule_sets(args.rules, args.vs)
    if "," in args.strategies:
        raise UsageError("--strategies: compare takes one strategy for every seat")
    lineups = {name: parse_strategies(args.strategies, r.players) for name, r in sets}
    for names in lineups.values():
        parse_params(names, args.param)
    _set_workers(args.workers)
    backend = _backend(args)
    start_workers(backend)
    chunk = args.chunk or 4096
    parts = None
    if args.out is not None:  # each rule set's chunks are kept until the comparison is done
        plan = {
            "command": "compare",
            "rule_sets": [[name, r.rules_hash] for name, r in sets],
            "games": args.games,
            "seed": args.seed,
            "strategies": args.strategies,
            "params": list(args.param),
            "chunk": chunk,
            "engine_version": sim.ENGINE_VERSION,
        }
        parts = open_partial(Path(args.out), plan, args.resume).folder
    started = now_iso()
    t0 = time.perf_counter()
    # without --out the tables and runs live in a temporary folder, removed at the end
    work = None if args.out is not None else Path(tempfile.mkdtemp(prefix=".compare-"))
    target = Path(args.out) if work is None else work / "out"
    with StagedDir(target) as staged:
        with _progress(args.games * len(sets), args.quiet, "game") as bar:
            table = play_rule_sets(
                sets, args.games, args.seed, staged.path, args.strategies, list(args.param),
                backend, chunk, bar.update, parts,
            )  # fmt: skip
        base_name = sets[0][0]
        seconds = time.perf_counter() - t0
        header = (
            f"# House rules compared — {base_name} vs {', '.join(n for n, _ in sets[1:])}\n\n"
            f"{args.games:,} games per rule set on the same deals (seed {args.seed}), "
            f"strategies {args.strategies}."
        )
        md = compare_markdown(table, header)
        table.write_csv(staged.path / "compare.csv")
        (staged.path / "compare.md").write_text(md + "\n", encoding="utf-8")
        doc = {
            "rules": base_name,
            "vs": [n for n, _ in sets[1:]],
            "rules_hashes": {n: r.rules_hash for n, r in sets},
            "games": args.games,
            "seed": args.seed,
            "effects": table.to_dicts(),
        }
        write_json(staged.path / "compare.json", _json_safe(doc))
        write_json(
            staged.path / "run.json",
            run_manifest(
                sets[0][1], args.seed, {"games": args.games, "rule_sets": len(sets)},
                command="compare", vs={n: r.to_dict() for n, r in sets[1:]},
                strategies=args.strategies, params=list(args.param), **backend.describe(),
                started=started, ended=now_iso(), seconds=seconds,
            ),
        )  # fmt: skip
    if work is not None:
        shutil.rmtree(work, ignore_errors=True)
    if parts is not None:
        shutil.rmtree(parts, ignore_errors=True)
    if args.json:
        print(json.dumps(_json_safe(doc)))
    else:
        print(md)
    if not args.quiet:
        where = f" → {args.out}" if args.out is not None else ""
        print(f"{len(sets)} rule sets × {args.games:,} games in {seconds:.1f} s{where}",
              file=sys.stderr)  # fmt: skip
    return 0
