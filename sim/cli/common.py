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
from sim.output import UsageError, check_out_dir, check_writable, now_iso
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


# The compiled functions a run needs besides its players' callbacks: the kernel and
# the deal engine's callback it calls.
ENGINE_FUNCTIONS = {
    "hands": ("sim.engine.driver.slots_kernel", "sim.engine.driver.play_block_entry"),
    "games": ("sim.engine.game.games_kernel", "sim.engine.game.play_game_entry"),
    "declarer": ("sim.engine.declarer.declarer_kernel", "sim.engine.declarer.play_items_entry"),
}


def compile_notice(quiet: bool, *functions: str) -> bool:
    """Say so on stderr when a compiled function is not cached yet; True when one is not.

    ``functions`` are ``module.function`` names (``sim.engine.driver.slots_kernel``, a
    player's ``sim.engine.strategies.guide.guide_entry``). A function compiles
    on its first run after an install or an edit of the sources its compiled code
    depends on; later runs load it from the cache (:mod:`sim.cache`), whose index
    files are looked up here without importing numba (a process that drives worker
    processes never loads the engine).
    """
    from sim.cache import is_cached

    missing = not all(is_cached(*name.rsplit(".", 1)) for name in functions)
    if missing and not quiet:
        print(
            "compiling the engine (first run after an install or an edit, about a minute) ...",
            file=sys.stderr,
        )
    return missing


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


# A run of scripted players this small plays in the driving process when --workers is
# not given: starting worker processes and loading the engine into each takes longer
# than playing it (about 0.4 s of one core for either size). The rows are the same.
SMALL_RUN = {"hands": 250_000, "games": 10_000}
_SLOW_PLAYERS = frozenset({"pimc", "cheater"})


def small_run(command: str, total: int, names: list[str]) -> bool:
    """Whether a ``hands`` or ``games`` run is small enough to play in this process."""
    return total <= SMALL_RUN[command] and not _SLOW_PLAYERS & set(names)


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
    short: Callable[[Any], str] | None = None,
) -> None:
    """Print analysis tables; also write ``--out``.

    ``--json``: one JSON document; ``--full``: every table in Markdown; otherwise the
    ``short`` summary that fits 100 columns (every table where there is none).
    """
    if args.out is not None:
        check_out_dir(args.out, args.force)
        write(tables, Path(args.out))
    if args.json:
        print(json.dumps(json_safe(to_json(tables))))
    elif short is not None and not getattr(args, "full", False):
        print(short(tables))
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


def warm_engine(job: tuple[str, Any, list[str], list[str]]) -> bool:
    """Play one tiny hands or games batch, so that this process has the kernel compiled."""
    command, rules, names, params = job
    if command == "hands":
        from sim.engine.api import play_hands

        play_hands(rules, 2, 0, names, params)
    else:
        from sim.engine.game import play_games

        play_games(rules, 1, 0, names, params)
    return True


def _warm_up(
    command: str,
    rules: Any,
    names: list[str],
    params: list[str],
    quiet: bool,
    backend: Backend,
) -> None:
    """Say when the run's kernel must be compiled, and compile it before the clock starts.

    A serial run compiles in this process; a run on local worker processes has every
    worker compile (or load) it first, so this process still never loads the engine.
    On Dask, the workers of a ``tcp://`` cluster each compile it; a ``local`` cluster
    starts with the run and its workers load what one local process compiled into the
    on-disk cache. The run's speed then leaves the one-off compile out.
    """
    from sim.engine.strategies.addresses import entry_names

    if not compile_notice(quiet, *ENGINE_FUNCTIONS[command], *entry_names(names)):
        return
    from sim.runner import run_on_workers

    run_on_workers(backend, warm_engine, (command, rules, names, params))


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
    if trace_path is not None and not (trace_path.exists() and not trace_path.is_file()):
        check_writable(trace_path, "--trace", folder=False)  # a device (/dev/null) is fine
    backend = backend_of(args)
    if (
        args.workers is None
        and backend.scheduler is None
        and not extra.get("par")
        and small_run(command, total, names)
    ):
        backend = Backend(workers=1, scheduler=None)
    if backend.scheduler is None and backend.workers == 1:
        set_workers(1)  # the chunks run in this process, on one compiled-code thread
    start_workers(backend)
    from sim.games import CHUNK as GAMES_CHUNK
    from sim.hands import CHUNK as HANDS_CHUNK

    default = {"hands": HANDS_CHUNK, "games": GAMES_CHUNK}[command]
    # open-card par columns cost milliseconds a deal: smaller chunks keep the bar moving
    chunk = args.chunk or (256 if extra.get("par") else default)
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
    _warm_up(command, rules, names, args.param, args.quiet, backend)
    started = now_iso()
    t0 = time.perf_counter()
    with StagedDir(args.out) as staged, staged_file(trace_path) as trace:
        with progress(total, args.quiet, unit, f"playing {unit}s") as bar:
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
