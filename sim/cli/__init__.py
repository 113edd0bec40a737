"""The ``thousand`` command line (contract: docs/cli.md).

Thin by design: parse the arguments, build a job's spec, call the job (:mod:`sim.jobs`),
print. Bad input exits with code 2 and one line on stderr naming the culprit, in the
language the command answers in (:func:`parse_language`; argparse's own messages too),
so a command without ``--lang`` refuses in English as it answers; a mistyped command
or flag is refused naming the nearest one. ``--help`` is written in the language of
``--lang`` (before the command or after it) or the user's, every command's: the parser
is built once that language is known, its help texts translated as they are added.

One module per command (:mod:`sim.cli.rules`, :mod:`sim.cli.odds`,
:mod:`sim.cli.hands`, :mod:`sim.cli.bids`, :mod:`sim.cli.games`,
:mod:`sim.cli.barrel`, :mod:`sim.cli.report`, :mod:`sim.cli.bench`,
:mod:`sim.cli.compare`, :mod:`sim.cli.atlas`, :mod:`sim.cli.duel`, :mod:`sim.cli.solve`,
:mod:`sim.cli.serve`, ...), each with its ``add_parser`` and command function; what
they share is :mod:`sim.cli.common`. The command line sits on top of every other layer
(tests/test_layers.py): it imports the jobs (:mod:`sim.jobs`) and the base modules only
(``serve`` the web app, :mod:`sim.web`), no command imports another, and nothing
imports it.
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Callable, Sequence

from sim.cli import (
    advise,
    atlas,
    barrel,
    bench,
    bids,
    compare,
    duel,
    games,
    guide,
    hands,
    ladder,
    odds,
    report,
    rules,
    safebids,
    serve,
    show,
    solve,
    teach,
)
from sim.cli.common import ERROR, Parser, argparse_speaking, asked_language, help_language
from sim.i18n import (
    LANGS,
    LanguageError,
    _,
    check_language,
    language,
    set_language,
    speaking,
)
from sim.jobs import BAD_INPUT, saved_chunks, stop_workers
from sim.parallel import keep_freed_memory

# The commands, in the order ``thousand --help`` lists them.
COMMANDS = (
    rules, odds, hands, bids, safebids, advise, serve, guide, games, barrel, report, bench,
    compare, atlas, duel, ladder, solve, show, teach,
)  # fmt: skip


def build_parser() -> Parser:
    """The ``thousand`` argument parser, its help in the current language.

    Every help text is translated as it is added: :func:`main` builds the parser once
    it knows the language (:func:`sim.cli.common.help_language`).
    """
    parser = Parser(
        prog="thousand",
        description=_(
            "Simulate and analyse the card game Thousand: deal odds, played hands "
            "and games, safe bids, a bid advisor, a strategy guide, reports. Every command "
            "and file: docs/cli.md and docs/data.md."
        ),
    )
    from sim import __version__

    parser.add_argument(
        "--version",
        action="version",
        version=f"thousand {__version__}",
        help=_("show program's version number and exit"),
    )
    parser.add_argument(
        "--lang",
        dest="main_lang",
        default=None,
        choices=LANGS,
        help=_(
            "the language of the help and, for a command with --lang, of its answer: en, "
            "ru, uk or pl (default: $THOUSAND_LANG, then the locale, then en)"
        ),
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in COMMANDS:
        p = command.add_parser(sub)
        assert isinstance(p, Parser)
        parser.commands[p.prog.rpartition(" ")[2]] = p
    return parser


def parse_language(parser: Parser, argv: Sequence[str]) -> str:
    """The language of the error lines of parsing ``argv``, known before it is parsed.

    A command that speaks languages (it has ``--lang``) refuses its arguments in the
    ``--lang`` of ``argv`` (before the command or after it), else in ``$THOUSAND_LANG``'s
    or the locale's language, as it would answer; any other command in English, as it
    answers. Without a known command only a ``--lang`` given says the language. A
    language the toolkit does not speak counts as none given (the parse or the command
    refuses it after).
    """
    words = [a for i, a in enumerate(argv) if i == 0 or argv[i - 1] != "--lang"]
    name = next((a for a in words if not a.startswith("-")), None)
    command = parser.commands.get(name) if name is not None else None
    asked = asked_language(argv)
    if command is not None and not command.speaks:
        return "en"
    try:
        if asked is not None:
            return check_language(asked)
    except LanguageError:
        pass
    if command is None:
        return "en"
    try:
        set_language(None)
        return language()
    except LanguageError:
        return "en"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``thousand``; returns the exit code.

    The language the command speaks is set for the call only: afterwards this
    process speaks as it did before (a notebook or a test calling ``main``).
    """
    with speaking("en"):
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    with speaking(help_language(argv)):  # --help in the language asked, or the user's
        parser = build_parser()
    if not argv:  # `thousand` alone: what it can do, not an error
        parser.print_help()
        return 0
    # argparse's refusals in the command's language
    set_language(parse_language(parser, argv))
    with argparse_speaking():
        args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    prog = f"thousand {args.command}"
    keep_freed_memory()
    try:
        # a command speaks the chosen language only once it is translated (it has
        # --lang); the others stay in English, never half translated
        set_language((args.lang or args.main_lang) if hasattr(args, "lang") else "en")
        return func(args)
    except LanguageError as exc:  # no language to say it in: English
        set_language("en")
        print(ERROR.format(prog=prog, message=exc), file=sys.stderr)
        return 2
    except BAD_INPUT as exc:  # one line on stderr, exit code 2
        print(_(ERROR).format(prog=prog, message=exc), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        out = getattr(args, "out", None)
        kept = hasattr(args, "resume") and out is not None and saved_chunks(out)
        line = (
            _("{prog}: interrupted; its finished chunks are kept: rerun it with --resume to finish")
            if kept
            else _("{prog}: interrupted")
        )
        print(line.format(prog=prog), file=sys.stderr)
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
