"""What the commands of ``thousand`` share: flags, value parsers, progress, output helpers.

Every name here is public: the command modules of :mod:`sim.cli` import them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, NoReturn, Protocol

from sim.jobs.runs import Feedback
from sim.output import json_safe


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2.

    A flag must be written whole: ``--deal 5`` is not taken for ``--deals 5``.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        """Print ``PROG: error: MESSAGE`` on stderr and exit with code 2."""
        self.exit(2, f"{self.prog}: error: {message}\n")


def positive_int(text: str) -> int:
    """An argument that must be a positive integer."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value


def share_value(text: str) -> float:
    """A rate argument (``--risk``): a number strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a share between 0 and 1, got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be a share between 0 and 1, got {text!r}")
    return value


def seed_value(text: str) -> int:
    """A ``--seed``: a non-negative integer."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {text!r}")
    return value


def common_flags(p: argparse.ArgumentParser, rules: bool = True) -> None:
    """Add ``--rules`` (unless ``rules`` is false), ``--workers`` and ``--quiet``."""
    if rules:
        p.add_argument(
            "--rules",
            default="classic",
            help="preset name or path to a TOML rules file (default: classic)",
        )
    p.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        help="worker processes (Dask workers with --scheduler local; default: all cores)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar or log on stderr")


def lang_flag(p: argparse.ArgumentParser) -> None:
    """Add ``--lang`` (en, ru, uk, pl; default ``$THOUSAND_LANG``, then the locale)."""
    from sim.i18n import LANGS

    p.add_argument(
        "--lang",
        default=None,
        choices=LANGS,
        help="the language of the answer: en, ru, uk or pl (default: $THOUSAND_LANG, "
        "then the locale, then en); cards in that language's notation",
    )


def runner_flags(p: argparse.ArgumentParser, chunk: bool = True) -> None:
    """Add ``--chunk`` (unless ``chunk`` is false), ``--scheduler`` and ``--resume``."""
    if chunk:
        p.add_argument(
            "--chunk",
            type=positive_int,
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


class _PhaseLines:
    """Progress without a terminal: one line when a phase starts and one when it ends."""

    def __init__(self, total: int, unit: str, label: str) -> None:
        self.total, self.unit, self.label = total, unit, label
        self.n = 0
        self.t0 = 0.0

    def update(self, k: int = 1) -> None:
        self.n += k

    def __enter__(self) -> _PhaseLines:
        print(f"{self.label}: {self.total:,} {self.unit}s ...", file=sys.stderr, flush=True)
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, kind: object, *rest: object) -> None:
        if kind is None:
            dt = time.perf_counter() - self.t0
            rate = f", {self.n / dt:,.0f} {self.unit}s/s" if dt > 0 else ""
            print(f"{self.label}: done in {dt:.1f} s{rate}", file=sys.stderr, flush=True)


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
        desc=label,
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
