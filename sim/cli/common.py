"""What the commands of ``thousand`` share: flags, value parsers, progress, output helpers.

Every name here is public: the command modules of :mod:`sim.cli` import them.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import math
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, NoReturn

import sim
from sim.output import UsageError, check_out_dir, now_iso
from sim.rules import load_rules
from sim.runner import Backend, open_partial, start_workers


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2."""

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


def progress(total: int, quiet: bool, unit: str) -> Any:
    """A tqdm bar on stderr, silent when stderr is not a terminal or with --quiet."""
    from tqdm import tqdm

    return tqdm(
        total=total,
        unit=unit,
        unit_scale=True,
        file=sys.stderr,
        dynamic_ncols=True,
        disable=quiet or not sys.stderr.isatty(),
    )


def set_workers(workers: int | None) -> None:
    """Use ``workers`` compiled-code threads in this process (None: every core)."""
    from sim.parallel import set_threads

    set_threads(workers)


def backend_of(args: argparse.Namespace) -> Backend:
    """The runner backend of ``--workers`` and ``--scheduler``.

    Raises:
        UsageError: a ``--scheduler`` that is neither ``local`` nor ``tcp://...``.
    """
    from sim.parallel import max_threads

    workers = args.workers or max_threads()
    scheduler = getattr(args, "scheduler", None)
    if scheduler is not None and scheduler != "local" and not scheduler.startswith("tcp://"):
        raise UsageError(f"--scheduler {scheduler}: expected 'local' or tcp://HOST:PORT")
    return Backend(workers=workers, scheduler=scheduler)


def check_first_dealer(first: int | None, players: int) -> None:
    """Refuse a ``--first-dealer`` that is not a seat of ``players`` players.

    Raises:
        UsageError: when ``first`` is given and not in ``0 .. players-1``.
    """
    if first is not None and first not in range(players):
        raise UsageError(f"--first-dealer {first}: a seat 0..{players - 1} of {players} players")


def json_safe(obj: Any) -> Any:
    """``obj`` with every float that is not finite replaced by None (for ``--json``)."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [json_safe(v) for v in obj]
    return obj


def emit_tables(
    args: argparse.Namespace,
    tables: Any,
    write: Callable[[Any, Path], None],
    to_json: Callable[[Any], dict[str, Any]],
    to_markdown: Callable[[Any], str],
) -> None:
    """Print analysis tables as JSON (``--json``) or Markdown; also write ``--out``."""
    if args.out is not None:
        check_out_dir(args.out, args.force)
        write(tables, Path(args.out))
    if args.json:
        print(json.dumps(json_safe(to_json(tables))))
    else:
        print(to_markdown(tables))


@contextlib.contextmanager
def staged_file(path: Path | None) -> Iterator[IO[str] | None]:
    """A text file written beside ``path`` and moved into place only on success."""
    if path is None:
        yield None
        return
    if path.exists() and not path.is_file():  # a device such as /dev/null: write through
        with path.open("w", encoding="utf-8") as fh:
            yield fh
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.partial")
    try:
        with tmp.open("w", encoding="utf-8") as fh:
            yield fh
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


def lazy(module: str, name: str) -> Callable[..., Any]:
    """``module.name``, imported when first called.

    A run on worker processes then never imports the engine here, and a serial run
    imports it after :func:`sim.runner.start_workers` had its say.
    """

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    return call


def play_run(
    args: argparse.Namespace,
    command: str,
    total: int,
    unit: str,
    play: Callable[..., dict[str, int]],
    sizes: Callable[[dict[str, int]], dict[str, int]],
    **extra: Any,
) -> tuple[dict[str, int], float]:
    """The shared body of ``hands`` and ``games``.

    Validates the input, plays into a staged ``--out`` (and ``--trace``), writes
    ``run.json``; returns the run's counts and seconds.
    """
    from sim.engine.strategies.registry import parse_params, parse_strategies
    from sim.output import StagedDir, run_manifest, write_json

    check_out_dir(args.out, args.force)
    rules = load_rules(args.rules)
    names = parse_strategies(args.strategies, rules.players)
    check_first_dealer(getattr(args, "first_dealer", None), rules.players)
    parse_params(names, args.param)  # validate before any work
    trace_path = Path(args.trace) if args.trace else None
    if trace_path is not None and trace_path.is_dir():
        raise UsageError(f"--trace {trace_path}: is a folder")
    backend = backend_of(args)
    if backend.scheduler is None and backend.workers == 1:
        set_workers(1)  # the chunks run in this process, on one compiled-code thread
    start_workers(backend)
    # open-card par columns cost milliseconds a deal: smaller chunks keep the bar moving
    chunk = args.chunk or (256 if extra.get("par") else {"hands": 1 << 17, "games": 4096}[command])
    plan = {
        "command": command,
        "rules_hash": rules.rules_hash,
        "seed": args.seed,
        "total": total,
        "chunk": chunk,
        "strategies": names,
        "params": list(args.param),
        "trace": trace_path is not None,
        "engine_version": sim.ENGINE_VERSION,
        **{k: v for k, v in extra.items()},
    }
    store = open_partial(Path(args.out), plan, args.resume)
    started = now_iso()
    t0 = time.perf_counter()
    with StagedDir(args.out) as staged, staged_file(trace_path) as trace:
        with progress(total, args.quiet, unit) as bar:
            counts = play(
                rules,
                total,
                args.seed,
                staged.path,
                names,
                args.param,
                trace=trace,
                progress=bar.update,
                chunk=chunk,
                backend=backend,
                store=store,
                **extra,
            )
        seconds = time.perf_counter() - t0
        manifest = run_manifest(
            rules,
            args.seed,
            sizes(counts),
            command=command,
            strategies=names,
            params=list(args.param),
            **extra,
            **backend.describe(),
            chunk_size=chunk,
            chunks=counts.get("chunks"),
            started=started,
            ended=now_iso(),
            seconds=seconds,
        )
        write_json(staged.path / "run.json", manifest)
    shutil.rmtree(store.folder, ignore_errors=True)
    return counts, seconds
