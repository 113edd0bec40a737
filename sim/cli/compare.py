"""``thousand compare``: house rules side by side on the same deals, effects with intervals.

The games are played by :func:`sim.compare.play_rule_sets` (each rule set's run in
``runs/NAME/``); the effects with CRN and independent-run intervals are
:func:`analysis.compare.compare_folders`.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import sim
from sim.cli.common import (
    backend_of,
    common_flags,
    json_safe,
    positive_int,
    progress,
    runner_flags,
    seed_value,
    set_workers,
)
from sim.output import UsageError, check_out_dir, now_iso
from sim.rules import Rules, load_rules
from sim.runner import open_partial, start_workers


def rule_sets(base: str, vs: str) -> list[tuple[str, Rules]]:
    """``(name, rules)`` of the base and every ``--vs`` entry, names made unique.

    Raises:
        UsageError: when ``vs`` names no rule set.
    """
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


def cmd_compare(args: argparse.Namespace) -> int:
    """``thousand compare``: effects of house rules with CRN and independent intervals."""
    from analysis.compare import compare_folders, compare_markdown, compare_short
    from sim.compare import play_rule_sets
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
    set_workers(args.workers)
    backend = backend_of(args)
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
        with progress(args.games * len(sets), args.quiet, "game", "playing the rule sets") as bar:
            runs = play_rule_sets(
                sets, args.games, args.seed, staged.path, args.strategies, list(args.param),
                backend, chunk, bar.update, parts,
            )  # fmt: skip
        table = compare_folders(runs)
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
            "strategies": args.strategies,
            "effects": table.to_dicts(),
        }
        write_json(staged.path / "compare.json", json_safe(doc))
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
        print(json.dumps(json_safe(doc)))
    elif args.full:
        print(md)
    else:
        print(compare_short(table, sets, header))
    if not args.quiet:
        where = f" → {args.out}" if args.out is not None else ""
        print(f"{len(sets)} rule sets × {args.games:,} games in {seconds:.1f} s{where}",
              file=sys.stderr)  # fmt: skip
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``compare`` to the ``thousand`` subparsers; return its parser."""
    p = subparsers.add_parser(
        "compare",
        help="house-rule balance: the same deals under every rule set",
        description=(
            "Play N games under --rules and every --vs rule set on the same deals and "
            "random numbers; print each effect with its interval."
        ),
    )
    common_flags(p)
    p.add_argument("--vs", required=True, help="rule sets to compare with --rules, comma-separated")
    p.add_argument(
        "--games", type=positive_int, required=True, help="games per rule set, on the same deals"
    )
    p.add_argument(
        "--seed",
        type=seed_value,
        default=0,
        help="the run's seed: the same seed and sizes give the same results (default 0)",
    )
    p.add_argument(
        "--strategies", default="strong", help="one name for every seat (default strong)"
    )
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="STRATEGY.NAME=VALUE",
        help="a strategy parameter, e.g. heuristic.aggression=0.3 (repeatable)",
    )
    p.add_argument("--json", action="store_true", help="one JSON document on stdout")
    p.add_argument("--out", default=None, help="folder for the tables and each rule set's run")
    p.add_argument(
        "--full", action="store_true", help="print the whole table (default: a short summary)"
    )
    p.add_argument("--force", action="store_true", help="write into a non-empty --out")
    runner_flags(p)
    p.set_defaults(func=cmd_compare)
    return p
