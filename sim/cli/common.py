"""What the commands of ``thousand`` share: flags, value parsers, progress, output helpers.

Every name here is public: the command modules of :mod:`sim.cli` import them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn, Protocol

from sim.i18n import (
    LANGS,
    N_,
    LanguageError,
    _,
    check_language,
    language,
    number,
    set_language,
    speaking,
)
from sim.jobs.runs import Feedback
from sim.output import FieldError, UsageError, json_safe
from sim.players import SKILL_AGAINST, SKILL_PLAYER

ERROR = N_("{prog}: error: {message}")
"""The one line of a refused command (``thousand compare: error: ...``)."""

# argparse's own messages and headings, as Python 3.11's argparse spells them: it looks
# each up with the ``_`` and ``ngettext`` of its module, which :func:`argparse_speaking`
# points at the catalogue while a command line is parsed and while a parser is built
# or its help written (the headings of ``--help``).
ARGPARSE_MESSAGES = (
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("expected %s argument"),
    N_("expected %s arguments"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
)

# A value argparse converts with ``int`` or ``float`` that is not one: the line says in
# words what was expected (argparse's own names the type: "invalid int value").
TYPE_WORDS = {
    int: N_("invalid int value: %(value)r"),
    float: N_("invalid float value: %(value)r"),
}
UNKNOWN_COMMAND = N_("unknown command {value} (did you mean {match}?)")
UNKNOWN_FLAG = N_("unrecognized arguments: {arguments} (did you mean {match}?)")


def _ngettext(singular: str, plural: str, n: int) -> str:
    """The plural lookup of argparse: the catalogue's translation of the form ``n`` takes."""
    return _(singular) if n == 1 else _(plural)


@contextmanager
def argparse_speaking() -> Iterator[None]:
    """Have argparse write its own messages in the current language inside the block.

    argparse translates through the ``_`` and ``ngettext`` it imported from
    :mod:`gettext`, which read the process's locale and a text domain of their own;
    inside the block they are the catalogue's, so the messages follow ``--lang``.
    """
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._, argparse.ngettext = _, _ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


def _language_or_english() -> str:
    """The current language; English where ``$THOUSAND_LANG`` names one it does not speak."""
    try:
        return language()
    except LanguageError:
        return "en"


def asked_language(argv: Sequence[str]) -> str | None:
    """The value of the last ``--lang X`` (or ``--lang=X``) of ``argv``, if any."""
    asked = None
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            asked = argv[i + 1]
        elif arg.startswith("--lang="):
            asked = arg.partition("=")[2]
    return asked


def help_language(argv: Sequence[str]) -> str:
    """The language ``--help`` is written in: ``--lang``'s, else the environment's.

    ``--lang`` may stand before the command or after it, before ``--help`` or after
    it; a language the toolkit does not speak counts as none given (the parse refuses
    it). Every command's help follows it, whether or not its answers do yet.
    """
    asked = asked_language(argv)
    try:
        if asked is not None:
            return check_language(asked)
    except LanguageError:
        pass
    with speaking("en"):  # the environment's language, or English
        try:
            return set_language(None)
        except LanguageError:  # $THOUSAND_LANG names a language it does not speak
            return "en"


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2.

    A flag must be written whole: ``--deal 5`` is not taken for ``--deals 5``, it is
    refused with a suggestion (``did you mean --deals?``), as a mistyped command is.
    The help is written in the language the parser was built in (its texts are
    translated as they are added: build it inside :func:`sim.i18n.speaking`).

    Attributes:
        speaks: whether the command answers in the user's language (it has
            ``--lang``, :func:`lang_flag`); its error lines follow that language too.
        commands: ``thousand``'s commands by name (empty for a command's own parser).
        lang: the language of its help.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        self.lang = _language_or_english()
        with argparse_speaking():  # the headings and -h's help in that language
            super().__init__(*args, **kwargs)
        self.speaks = False
        self.commands: dict[str, Parser] = {}

    def format_help(self) -> str:
        """The help, headings and all, in the parser's language."""
        with speaking(self.lang), argparse_speaking():
            return super().format_help()

    def format_usage(self) -> str:
        """The usage line in the parser's language."""
        with speaking(self.lang), argparse_speaking():
            return super().format_usage()

    def error(self, message: str) -> NoReturn:
        """Print ``PROG: error: MESSAGE`` on stderr and exit with code 2."""
        self.exit(2, _(ERROR).format(prog=self.prog, message=message) + "\n")

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        """Parse ``args``; an unknown flag is refused naming the flag it is closest to."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            command = self.commands.get(getattr(parsed, "command", None) or "")
            (command or self).unrecognized(extras, self)
        return parsed

    def unrecognized(self, extras: Sequence[str], top: argparse.ArgumentParser) -> NoReturn:
        """Refuse the arguments ``extras`` nobody took, with the nearest flag if one is near.

        ``top``: the command line's own parser, whose flags count too.
        """
        from difflib import get_close_matches

        # by their names: the dashes every flag has would make any two look alike
        flags = {
            s.lstrip("-"): s for p in (self, top) for a in p._actions for s in a.option_strings
        }
        for arg in extras:
            if arg.startswith("-"):
                match = get_close_matches(arg.partition("=")[0].lstrip("-"), list(flags), n=1)
                if match:
                    said = _(UNKNOWN_FLAG).format(arguments=" ".join(extras), match=flags[match[0]])
                    self.error(said)
        self.error(_("unrecognized arguments: %s") % " ".join(extras))

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """Refuse a value not among ``action``'s choices; a mistyped command gets a suggestion."""
        from difflib import get_close_matches

        if (
            isinstance(action, argparse._SubParsersAction)
            and action.choices is not None
            and value not in action.choices
        ):
            match = get_close_matches(str(value), list(action.choices), n=1)
            if match:
                message = _(UNKNOWN_COMMAND).format(value=repr(value), match=repr(match[0]))
                raise argparse.ArgumentError(None, message)
        super()._check_value(action, value)

    def _get_value(self, action: argparse.Action, arg_string: str) -> Any:
        """``arg_string`` converted by ``action``'s type; a bad number is refused in words."""
        if action.type in TYPE_WORDS:
            try:
                return action.type(arg_string)
            except ValueError:
                message = _(TYPE_WORDS[action.type]) % {"value": arg_string}
                raise argparse.ArgumentError(action, message) from None
        return super()._get_value(action, arg_string)


def help_count(n: int) -> str:
    """A count in a help text, as the help's language writes it.

    English writes it as its help always did (``50000``); the other languages group its
    digits as they write numbers (``50 000``, :func:`sim.i18n.number`).
    """
    return str(n) if language() == "en" else number(n)


def flag_of(field: str, positional: Sequence[str] = ()) -> str:
    """How the command line names a field of a job's spec.

    A flag (``--talon-shown`` for ``talon_shown``), or for a field in ``positional``
    the argument's metavar (``HAND`` for ``hand``).
    """
    return field.upper() if field in positional else "--" + field.replace("_", "-")


@contextmanager
def flags_named(*positional: str) -> Iterator[None]:
    """Word the job's refusals of its spec's fields with the command line's names.

    Inside the block a :class:`sim.output.FieldError` (``auction: a bid or 'pass', got
    'foo'``) becomes a :class:`sim.output.UsageError` that names the flags instead
    (``--auction: a bid or 'pass', got 'foo'``); ``positional``: the fields given as
    positional arguments (:func:`flag_of`).
    """
    try:
        yield
    except FieldError as exc:
        raise UsageError(exc.worded(lambda field: flag_of(field, positional))) from None


def positive_int(text: str) -> int:
    """An argument that must be a positive integer."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        why = _("must be a positive integer, got {value}")
        raise argparse.ArgumentTypeError(why.format(value=repr(text)))
    return value


def share_value(text: str) -> float:
    """A rate argument (``--risk``): a number strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < 1:
        why = _("must be a share between 0 and 1, got {value}")
        raise argparse.ArgumentTypeError(why.format(value=repr(text)))
    return value


def seed_value(text: str) -> int:
    """A ``--seed``: a non-negative integer."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        why = _("must be a non-negative integer, got {value}")
        raise argparse.ArgumentTypeError(why.format(value=repr(text)))
    return value


def skill_flags(p: argparse.ArgumentParser, games: str) -> None:
    """Add the skill index's ``--skill``, ``--skill-against`` and ``--skill-games``.

    ``games`` names the flag whose count ``--skill-games`` defaults to.
    """
    p.add_argument(
        "--skill",
        default=SKILL_PLAYER,
        metavar="PLAYER",
        help=_(
            "the skill index's player, one seat against --skill-against (default {player})"
        ).format(player=SKILL_PLAYER),
    )
    p.add_argument(
        "--skill-against",
        default=SKILL_AGAINST,
        metavar="PLAYER",
        help=_("the players at the skill games' other seats (default {players})").format(
            players=SKILL_AGAINST
        ),
    )
    p.add_argument(
        "--skill-games",
        type=int,
        default=None,
        metavar="N",
        help=_("skill games per seat of --skill (default: {games}; 0: no skill index)").format(
            games=games
        ),
    )


def common_flags(p: argparse.ArgumentParser, rules: bool = True) -> None:
    """Add ``--rules`` (unless ``rules`` is false), ``--workers`` and ``--quiet``."""
    if rules:
        p.add_argument(
            "--rules",
            default="classic",
            help=_("preset name or path to a TOML rules file (default: classic)"),
        )
    p.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        help=_("worker processes (Dask workers with --scheduler local; default: all cores)"),
    )
    p.add_argument("--quiet", action="store_true", help=_("no progress bar or log on stderr"))


def lang_flag(p: argparse.ArgumentParser) -> None:
    """Add ``--lang`` (en, ru, uk, pl; default ``$THOUSAND_LANG``, then the locale)."""
    p.add_argument(
        "--lang",
        default=None,
        choices=LANGS,
        help=_(
            "the language of the answer: en, ru, uk or pl (default: $THOUSAND_LANG, "
            "then the locale, then en); cards in that language's notation"
        ),
    )
    if isinstance(p, Parser):
        p.speaks = True


def runner_flags(p: argparse.ArgumentParser, chunk: bool = True) -> None:
    """Add ``--chunk`` (unless ``chunk`` is false), ``--scheduler`` and ``--resume``."""
    if chunk:
        p.add_argument(
            "--chunk",
            type=positive_int,
            default=None,
            metavar="N",
            help=_("items per chunk (memory per worker; changes only the row groups, never a row)"),
        )
    p.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDR",
        help=_("run the chunks on Dask: 'local' starts a LocalCluster, or tcp://HOST:PORT"),
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help=_("finish an interrupted run of the same command and --out (chunks kept)"),
    )


# A phase's lines by the unit its job counts (a line each for the start, the end and
# an end too quick to time), in the current language; other units' lines are English.
PHASE_LINES = {
    "game": (
        N_("{label}: {total} games ..."),
        N_("{label}: done in {seconds} s, {rate} games/s"),
    ),
    "deal": (
        N_("{label}: {total} deals ..."),
        N_("{label}: done in {seconds} s, {rate} deals/s"),
    ),
    "hand": (
        N_("{label}: {total} hands ..."),
        N_("{label}: done in {seconds} s, {rate} hands/s"),
    ),
}
QUICK = N_("{label}: done in {seconds} s")


class _PhaseLines:
    """Progress without a terminal: one line when a phase starts and one when it ends.

    The phase's label is translated where the job marked it (``N_``).
    """

    def __init__(self, total: int, unit: str, label: str) -> None:
        self.total, self.unit, self.label = total, unit, _(label)
        self.start, self.end = PHASE_LINES.get(
            unit,
            (
                f"{{label}}: {{total}} {unit}s ...",
                f"{{label}}: done in {{seconds}} s, {{rate}} {unit}s/s",
            ),
        )
        self.n = 0
        self.t0 = 0.0

    def update(self, k: int = 1) -> None:
        self.n += k

    def __enter__(self) -> _PhaseLines:
        line = _(self.start).format(label=self.label, total=number(self.total))
        print(line, file=sys.stderr, flush=True)
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, kind: object, *rest: object) -> None:
        if kind is None:
            dt = time.perf_counter() - self.t0
            seconds = number(dt, 1)
            if dt > 0:
                line = _(self.end).format(
                    label=self.label, seconds=seconds, rate=number(self.n / dt)
                )
            else:
                line = _(QUICK).format(label=self.label, seconds=seconds)
            print(line, file=sys.stderr, flush=True)


class Console(Feedback):
    """A job's feedback on stderr: :func:`progress` bars and notices; nothing when quiet."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet

    def bar(self, total: int, unit: str, label: str) -> Any:
        """A :func:`progress` bar."""
        return progress(total, self.quiet, unit, label)

    def say(self, text: str) -> None:
        """Print ``text`` on stderr unless quiet."""
        if not self.quiet:
            print(text, file=sys.stderr, flush=True)


def progress(total: int, quiet: bool, unit: str, label: str = "") -> Any:
    """A phase's progress on stderr, named ``label`` (default: the unit, plural).

    On a terminal a tqdm bar; otherwise one line as the phase starts and one as it
    ends (with its speed); nothing with ``--quiet``.
    """
    from tqdm import tqdm

    label = label or f"{unit}s"
    if not quiet and not sys.stderr.isatty():
        return _PhaseLines(total, unit, label)
    return tqdm(
        total=total,
        unit=unit,
        unit_scale=True,
        desc=_(label),
        file=sys.stderr,
        dynamic_ncols=True,
        disable=quiet or not sys.stderr.isatty(),
    )


class Shown(Protocol):
    """A job's result as the commands print it."""

    def json(self) -> dict[str, Any]:
        """One JSON document (``--json``)."""
        ...

    def markdown(self) -> str:
        """Every table in Markdown (``--full``)."""
        ...


def emit(args: argparse.Namespace, result: Shown, ensure_ascii: bool = True) -> None:
    """Print a job's result on stdout.

    ``--json``: one JSON document; ``--full``: every table in Markdown; otherwise the
    result's ``short()`` summary that fits 100 columns (the Markdown where it has none).
    """
    if args.json:
        print(json.dumps(json_safe(result.json()), ensure_ascii=ensure_ascii))
    elif hasattr(result, "short") and not getattr(args, "full", False):
        print(result.short())
    else:
        print(result.markdown())


def speed_text(rate: float | None, unit: str) -> str:
    """`` (123,456 deals/s)`` for a run's end line, or nothing for a run too short to time."""
    return "" if rate is None else f" ({rate:,.0f} {unit}/s)"


def resumed_text(resumed: int) -> str:
    """``, 4,000 resumed`` for a run that finished an interrupted one, else nothing."""
    return f", {resumed:,} resumed" if resumed else ""
