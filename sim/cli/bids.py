"""``thousand bids DIR``: bid-success tables and safe bid levels of a hands run."""

from __future__ import annotations

import argparse
from typing import Any

from sim.cli.common import emit, lang_flag, positive_int
from sim.i18n import _
from sim.output import check_out_dir


def cmd_bids(args: argparse.Namespace) -> int:
    """``thousand bids DIR``: bid-success tables and safe bid levels of a hands run."""
    from sim.jobs.tables import bids

    if args.out is not None:
        check_out_dir(args.out, args.force)  # before the work, not after
    emit(args, bids(args.dir, args.min_n, args.out))
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``bids`` to the ``thousand`` subparsers; return its parser."""
    p_bids = subparsers.add_parser("bids", help=_("bid-success tables and safe bid levels"))
    p_bids.add_argument("dir", help=_("folder of a hands run"))
    p_bids.add_argument("--json", action="store_true", help=_("one JSON document on stdout"))
    p_bids.add_argument(
        "--full", action="store_true", help=_("print every table (default: a short summary)")
    )
    p_bids.add_argument(
        "--min-n",
        type=positive_int,
        default=30,
        help=_("played contracts a level needs to count as safe (default 30)"),
    )
    p_bids.add_argument("--out", default=None, help=_("also write CSV tables and bids.md here"))
    p_bids.add_argument("--force", action="store_true", help=_("write into a non-empty --out"))
    p_bids.add_argument("--quiet", action="store_true", help=_("no log on stderr"))
    lang_flag(p_bids)
    p_bids.set_defaults(func=cmd_bids)
    return p_bids
