"""``thousand odds``: deal-level odds, simulated beside exact (docs/cli.md)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from sim.cli.common import Console, common_flags, positive_int, seed_value
from sim.i18n import _
from sim.output import check_out_dir, json_safe
from sim.rules import load_rules


def cmd_odds(args: argparse.Namespace) -> int:
    """``thousand odds``: deal-level odds, simulated beside exact."""
    from sim.jobs.odds import OddsSpec, odds

    if args.out is not None:
        check_out_dir(args.out, args.force)
    spec = OddsSpec(
        rules=load_rules(args.rules), deals=args.deals, seed=args.seed,
        strategies=args.strategies, workers=args.workers, scheduler=args.scheduler,
    )  # fmt: skip
    doc = odds(spec, args.out, feedback=Console(args.quiet)).json()
    if args.json:
        print(json.dumps(json_safe(doc)))
    else:
        print_odds(doc)
    return 0


def print_odds(doc: dict[str, Any]) -> None:
    """The ``odds --json`` document as a table on stdout."""
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


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``odds`` to the ``thousand`` subparsers; return its parser."""
    p_odds = subparsers.add_parser("odds", help=_("deal-level odds, exact beside simulated"))
    common_flags(p_odds)
    p_odds.add_argument(
        "--deals",
        type=positive_int,
        default=1_000_000,
        help=_("deals to count (default 1,000,000)"),
    )
    p_odds.add_argument(
        "--seed",
        type=seed_value,
        default=0,
        help=_("the run's seed: the same seed and sizes give the same results (default 0)"),
    )
    p_odds.add_argument("--json", action="store_true", help=_("one JSON document on stdout"))
    p_odds.add_argument("--out", default=None, help=_("folder for odds.csv, odds.md, run.json"))
    p_odds.add_argument("--force", action="store_true", help=_("write into a non-empty --out"))
    p_odds.add_argument(
        "--strategies",
        default="heuristic",
        help=_(
            "under deal.method = cut, who plays the deals (their play makes the next deck):"
            " one name for every seat, or one per seat comma-separated; ignored otherwise"
        ),
    )
    p_odds.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDR",
        help=_("count the chunks on Dask: 'local' starts a LocalCluster, or tcp://HOST:PORT"),
    )
    p_odds.set_defaults(func=cmd_odds)
    return p_odds
