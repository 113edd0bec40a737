"""``thousand barrel DIR``: barrel falls, game length, seat advantage of a games run."""

from __future__ import annotations

import argparse
from typing import Any

from sim.cli.common import emit, lang_flag
from sim.i18n import _
from sim.output import check_out_dir


def cmd_barrel(args: argparse.Namespace) -> int:
    """``thousand barrel DIR``: barrel falls, game length, seat advantage of a games run."""
    from sim.jobs.tables import barrel

    if args.out is not None:
        check_out_dir(args.out, args.force)  # before the work, not after
    emit(args, barrel(args.dir, args.out))
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``barrel`` to the ``thousand`` subparsers; return its parser."""
    p_barrel = subparsers.add_parser("barrel", help=_("barrel falls, game length, seat advantage"))
    p_barrel.add_argument("dir", help=_("folder of a games run"))
    p_barrel.add_argument("--json", action="store_true", help=_("one JSON document on stdout"))
    p_barrel.add_argument(
        "--full", action="store_true", help=_("print every table (default: a short summary)")
    )
    p_barrel.add_argument("--out", default=None, help=_("also write CSV tables and barrel.md here"))
    p_barrel.add_argument("--force", action="store_true", help=_("write into a non-empty --out"))
    p_barrel.add_argument("--quiet", action="store_true", help=_("no log on stderr"))
    lang_flag(p_barrel)
    p_barrel.set_defaults(func=cmd_barrel)
    return p_barrel
