"""The ``thousand`` command line (contract: docs/cli.md).

Thin by design: parse the arguments, build a job's spec, call the job (:mod:`sim.jobs`),
print. Bad input exits with code 2 and one line on stderr naming the culprit.

One module per command (:mod:`sim.cli.rules`, :mod:`sim.cli.odds`,
:mod:`sim.cli.hands`, :mod:`sim.cli.bids`, :mod:`sim.cli.games`,
:mod:`sim.cli.barrel`, :mod:`sim.cli.report`, :mod:`sim.cli.bench`,
:mod:`sim.cli.compare`, :mod:`sim.cli.duel`, :mod:`sim.cli.solve`, ...), each with its
``add_parser`` and command function; what they share is :mod:`sim.cli.common`. The
command line sits on top of every other layer (tests/test_layers.py): it imports the
jobs (:mod:`sim.jobs`) and the base modules only, no command imports another, and
nothing imports it.
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Callable, Sequence

from sim.cli import (
    advise,
    barrel,
    bench,
    bids,
    compare,
    duel,
    games,
    guide,
    hands,
    odds,
    report,
    rules,
    safebids,
    show,
    solve,
)
from sim.cli.common import Parser
from sim.i18n import LanguageError, set_language
from sim.jobs import BAD_INPUT, saved_chunks, stop_workers
from sim.parallel import keep_freed_memory

# The commands, in the order ``thousand --help`` lists them.
COMMANDS = (
    rules, odds, hands, bids, safebids, advise, guide, games, barrel, report, bench, compare,
    duel, solve, show,
)  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    """The ``thousand`` argument parser."""
    parser = Parser(
        prog="thousand",
        description="Simulate and analyse the card game Thousand: deal odds, played hands "
        "and games, safe bids, a bid advisor, a strategy guide, reports. Every command and "
        "file: docs/cli.md and docs/data.md.",
    )
    from sim import __version__

    parser.add_argument("--version", action="version", version=f"thousand {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``thousand``; returns the exit code."""
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:  # `thousand` alone: what it can do, not an error
        parser.print_help()
        return 0
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    keep_freed_memory()
    try:
        # a command speaks the chosen language only once it is translated (it has
        # --lang); the others stay in English, never half translated
        set_language(args.lang if hasattr(args, "lang") else "en")
        return func(args)
    except (*BAD_INPUT, LanguageError) as exc:  # one line on stderr, exit code 2
        print(f"thousand {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        out = getattr(args, "out", None)
        kept = hasattr(args, "resume") and out is not None and saved_chunks(out)
        hint = "; its finished chunks are kept: rerun it with --resume to finish" if kept else ""
        print(f"thousand {args.command}: interrupted{hint}", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    finally:
        stop_workers()


def run() -> int:
    """The ``thousand`` console script and ``python -m sim``: :func:`main`, then exit.

    Loading the compiled engine leaves millions of Python objects (numba's types and
    registries); the interpreter's last garbage collections would walk them all, a
    quarter to half a second at every exit. Freezing them first skips those walks;
    the rest of the exit (atexit handlers, flushing, stopping workers) is as usual.
    """
    try:
        return main()
    finally:
        gc.freeze()
