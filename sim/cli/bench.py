"""``thousand bench``: throughput of this machine."""

from __future__ import annotations

import argparse
import json
from typing import Any

from sim.i18n import _


def cmd_bench(args: argparse.Namespace) -> int:
    """``thousand bench``: throughput of this machine (deals/s per core and all cores)."""
    from sim.jobs.bench import bench, bench_lines

    doc = bench(args.quick)
    if args.json:
        print(json.dumps(doc))
        return 0
    print("\n".join(bench_lines(doc)))
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``bench`` to the ``thousand`` subparsers; return its parser."""
    p_bench = subparsers.add_parser("bench", help=_("throughput on this machine"))
    p_bench.add_argument("--json", action="store_true", help=_("one JSON document on stdout"))
    p_bench.add_argument(
        "--quick",
        action="store_true",
        help=_("tiny workloads: checks that every benchmark runs (not this machine's figures)"),
    )
    p_bench.set_defaults(func=cmd_bench)
    return p_bench
