"""The one writer of hands and games run folders: :class:`RunSpec` in, a folder out.

:func:`play_into` plays a run as ``thousand hands`` and ``thousand games`` do: it
checks the spec, picks where the chunks run, compiles the engine before the clock
starts, keeps finished chunks in a partial folder (``resume`` finishes an
interrupted run), stages the folder and its trace so that a failure leaves nothing
half-written, and writes ``run.json`` through :func:`sim.output.write_manifest`. The
commands, the report, the comparisons and notebooks all write their runs with it::

    from sim.rules import load_rules
    from sim.runs.folder import RunSpec, play_into

    spec = RunSpec(kind="hands", rules=load_rules("classic"), total=10_000, seed=1)
    play_into(spec, "runs/h")

:class:`Feedback` is how a job tells its user what it does (progress bars and
one-line notices); the default says nothing, the command line's prints on stderr.
:func:`simulate_report` plays the hands and games runs a report reads.
"""

from __future__ import annotations

import contextlib
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import sim
from sim.batch.runner import (
    Backend,
    Destination,
    PartStore,
    open_partial,
    run_on_workers,
    start_workers,
)
from sim.i18n import N_, _
from sim.output import StagedDir, UsageError, check_writable, now_iso, write_manifest
from sim.players import fast
from sim.rules import Rules

KINDS = ("hands", "games")
UNITS = {"hands": "deal", "games": "game"}


class _NoBar:
    """A progress bar that shows nothing."""

    def update(self, n: int = 1) -> None:
        """Count ``n`` finished items (ignored)."""

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


class Feedback:
    """What a job tells its user while it works; this one says nothing.

    The command line's :class:`sim.cli.common.Console` shows the bars and notices on
    stderr; a notebook may pass its own subclass.
    """

    def bar(self, total: int, unit: str, label: str) -> AbstractContextManager[Any]:
        """A progress bar of ``total`` items (``unit``) named ``label``; it has ``update(n)``."""
        return _NoBar()

    def say(self, text: str) -> None:
        """A one-line notice (a phase started, the engine compiles, where a folder went)."""


QUIET = Feedback()


@dataclass(frozen=True, kw_only=True)
class RunSpec:
    """What a hands or games run plays.

    Attributes:
        kind: ``"hands"`` (deals) or ``"games"`` (whole games).
        rules: the house rules.
        total: deals or games.
        seed: the run's seed.
        strategies: one name for every seat, or one per seat (a tuple, or text
            comma-separated).
        params: ``STRATEGY.NAME=VALUE`` settings of the strategies.
        chunk: items per chunk (None: the kind's default; 256 with ``par``).
        first_dealer: games: the first dealer of every game (None: drawn per game).
        aggregate_only: hands: keep only ``hands_agg.parquet``.
        par: hands: add the open-card par columns.
        trace: a JSON-lines file for every deal's trace (None: none).
        workers: worker processes (None: every core, or this process for a run too
            small to gain from them, :func:`small_run`).
        scheduler: a Dask scheduler (``"local"`` or ``tcp://HOST:PORT``), or None.
    """

    kind: str
    rules: Rules
    total: int
    seed: int = 0
    strategies: str | tuple[str, ...] = "heuristic"
    params: tuple[str, ...] = ()
    chunk: int | None = None
    first_dealer: int | None = None
    aggregate_only: bool = False
    par: bool = False
    trace: Path | None = None
    workers: int | None = None
    scheduler: str | None = None

    def names(self) -> list[str]:
        """The strategy of every seat, checked.

        Raises:
            StrategyError: an unknown strategy, or the wrong number of them.
        """
        from sim.engine.strategies.registry import parse_strategies

        return parse_strategies(self.strategies, self.rules.players)

    def chunk_size(self) -> int:
        """Items per chunk: the spec's, else the kind's default (256 with the par)."""
        from sim.runs.games import CHUNK as GAMES_CHUNK
        from sim.runs.hands import CHUNK as HANDS_CHUNK

        if self.chunk is not None:
            return self.chunk
        if self.par:  # open-card par columns cost milliseconds a deal: smaller chunks
            return 256
        return HANDS_CHUNK if self.kind == "hands" else GAMES_CHUNK

    def options(self) -> dict[str, Any]:
        """The kind's own settings, as ``run.json`` records them."""
        if self.kind == "hands":
            return {"aggregate_only": self.aggregate_only, **({"par": True} if self.par else {})}
        return {"first_dealer": self.first_dealer}

    def check(self) -> None:
        """Refuse a spec that cannot run, before any work: one line naming the culprit.

        Raises:
            UsageError: a bad kind, first dealer, trace path or option pair.
            StrategyError: an unknown strategy or parameter.
        """
        from sim.engine.strategies.registry import parse_params

        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        if self.par and self.aggregate_only:
            raise UsageError("--par needs hands.parquet; it cannot go with --aggregate-only")
        check_first_dealer(self.first_dealer, self.rules.players)
        parse_params(self.names(), list(self.params))
        if self.trace is not None:
            if self.trace.is_dir():
                raise UsageError(f"--trace {self.trace}: is a folder")
            if not (self.trace.exists() and not self.trace.is_file()):  # a device is fine
                check_writable(self.trace, "--trace", folder=False)

    def plan(self) -> dict[str, Any]:
        """What a resumed run must share with the interrupted one."""
        return {
            "command": self.kind,
            "rules_hash": self.rules.rules_hash,
            "seed": self.seed,
            "total": self.total,
            "chunk": self.chunk_size(),
            "strategies": self.names(),
            "params": list(self.params),
            "trace": self.trace is not None,
            "engine_version": sim.ENGINE_VERSION,
            **self.options(),
        }


@dataclass(frozen=True)
class RunResult:
    """A run written: its folder, counts (rows, redeals; or stints, unfinished) and time.

    ``resumed``: the deals or games taken from an interrupted run's finished chunks
    (``--resume``), not played in ``seconds``.
    """

    folder: Path
    counts: dict[str, Any]
    seconds: float
    resumed: int = 0

    def speed(self, total: int) -> float | None:
        """Deals or games a second played in this process (None: not worth printing).

        None for a run too short to time (under :data:`TIMED_SECONDS`: the writer and
        the workers' start would be most of it) or with nothing played.
        """
        played = total - self.resumed
        if self.seconds < TIMED_SECONDS or played <= 0:
            return None
        return played / self.seconds


TIMED_SECONDS = 2.0  # a run shorter than this prints no speed


def check_first_dealer(first: int | None, players: int) -> None:
    """Refuse a ``--first-dealer`` that is not a seat of ``players`` players.

    Raises:
        UsageError: when ``first`` is given and not in ``0 .. players-1``.
    """
    if first is not None and first not in range(players):
        why = _("--first-dealer {first}: a seat 0..{last} of {players} players")
        raise UsageError(why.format(first=first, last=players - 1, players=players))


def backend_for(workers: int | None, scheduler: str | None) -> Backend:
    """Where chunks run: ``workers`` processes (None: every core), or a Dask ``scheduler``.

    Raises:
        UsageError: a ``scheduler`` that is neither ``local`` nor ``tcp://...``.
    """
    from sim.parallel import max_threads

    if scheduler is not None and scheduler != "local" and not scheduler.startswith("tcp://"):
        why = _("--scheduler {scheduler}: expected 'local' or tcp://HOST:PORT")
        raise UsageError(why.format(scheduler=scheduler))
    return Backend(workers=workers or max_threads(), scheduler=scheduler)


# A run of scripted players this small plays in the driving process when the workers
# are not given: starting worker processes and loading the engine into each takes
# longer than playing it (about 0.4 s of one core for either size). The rows are the same.
SMALL_RUN = {"hands": 250_000, "games": 10_000}


def small_run(command: str, total: int, names: Sequence[str]) -> bool:
    """Whether a ``hands`` or ``games`` run is small enough to play in this process."""
    return total <= SMALL_RUN[command] and all(fast(name) for name in names)


def run_backend(spec: RunSpec) -> Backend:
    """The backend of a spec run on its own (the ``hands`` and ``games`` commands)."""
    backend = backend_for(spec.workers, spec.scheduler)
    if (
        spec.workers is None
        and spec.scheduler is None
        and not spec.par
        and small_run(spec.kind, spec.total, spec.names())
    ):
        backend = Backend(workers=1, scheduler=None)
    return backend


# The compiled functions a run needs besides its players' callbacks: the kernel and
# the deal engine's callback it calls.
ENGINE_FUNCTIONS = {
    "hands": ("sim.engine.driver.slots_kernel", "sim.engine.driver.play_block_entry"),
    "games": ("sim.engine.game.games_kernel", "sim.engine.game.play_game_entry"),
    "declarer": ("sim.engine.declarer.declarer_kernel", "sim.engine.declarer.play_items_entry"),
}

COMPILING = N_("compiling the engine (first run after an install or an edit, about a minute) ...")
"""The notice of a compile (in the command's language: ``_(COMPILING)``)."""


def compile_notice(feedback: Feedback, *functions: str) -> bool:
    """Say so when a compiled function is not cached yet; True when one is not.

    ``functions`` are ``module.function`` names (``sim.engine.driver.slots_kernel``, a
    player's ``sim.engine.strategies.guide.guide_entry``). A function compiles
    on its first run after an install or an edit of the sources its compiled code
    depends on; later runs load it from the cache (:mod:`sim.cache`), whose index
    files are looked up here without importing numba (a process that drives worker
    processes never loads the engine).
    """
    from sim.cache import is_cached

    missing = not all(is_cached(*name.rsplit(".", 1)) for name in functions)
    if missing:
        feedback.say(_(COMPILING))
    return missing


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


def warm_up(
    kinds: Sequence[str],
    rules: Rules,
    names: list[str],
    params: Sequence[str],
    backend: Backend,
    feedback: Feedback,
    *more: str,
) -> bool:
    """Say when the runs' kernels must be compiled, and compile them before the clock starts.

    A serial run compiles in this process; a run on local worker processes has every
    worker compile (or load) it first, so this process still never loads the engine.
    On Dask, the workers of a ``tcp://`` cluster each compile it; a ``local`` cluster
    starts with the run and its workers load what one local process compiled into the
    on-disk cache. The run's speed then leaves the one-off compile out. ``more`` are
    further compiled functions the caller compiles itself when this returns True.
    """
    from sim.engine.strategies.addresses import entry_names

    functions = [f for kind in kinds for f in ENGINE_FUNCTIONS[kind]]
    if not compile_notice(feedback, *functions, *more, *entry_names(names)):
        return False
    for kind in kinds:
        run_on_workers(backend, warm_engine, (kind, rules, names, list(params)))
    return True


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


def play_into(
    spec: RunSpec,
    out: str | Path,
    *,
    feedback: Feedback = QUIET,
    progress: Callable[[int], None] | None = None,
    backend: Backend | None = None,
    store: PartStore | None = None,
    resume: bool = False,
    force: bool = False,
) -> RunResult:
    """Play ``spec`` into the folder ``out``: its Parquet files, trace and ``run.json``.

    Args:
        spec: the run.
        out: the run folder; written in full on success, left untouched on a failure.
        feedback: progress bar and notices (silent by default).
        progress: called with the items finished after each chunk, instead of a bar
            of ``feedback`` (a caller showing one bar over several runs).
        backend: where the chunks run, already started (a caller running several
            runs); by default :func:`run_backend` of the spec, started here.
        store: where finished chunks are kept (a caller's partial folder, left in
            place); by default the partial folder beside ``out``, removed at the end.
        resume: finish an interrupted run of the same spec into ``out`` (the chunks
            in its partial folder are not played again).
        force: discard the finished chunks of an interrupted run instead (without
            ``resume`` or ``force`` they are refused, not lost).

    Returns:
        The folder, the run's counts and its seconds.

    Raises:
        UsageError: a spec that cannot run (:meth:`RunSpec.check`), ``resume``
            without an interrupted run of the same plan, or an interrupted run's
            chunks without ``resume`` or ``force``.
    """
    from sim.parallel import set_threads

    spec.check()
    out = Path(out)
    names = spec.names()
    threads = None
    if backend is None:
        backend = run_backend(spec)
        if backend.scheduler is None and backend.workers == 1:
            threads = set_threads(1)  # the chunks run here, on one compiled-code thread
        start_workers(backend)
    try:
        return _play(spec, out, names, backend, store, resume, force, feedback, progress)
    finally:
        if threads is not None:
            set_threads(None)  # the caller's process has every core again


def _play(
    spec: RunSpec,
    out: Path,
    names: list[str],
    backend: Backend,
    store: PartStore | None,
    resume: bool,
    force: bool,
    feedback: Feedback,
    progress: Callable[[int], None] | None,
) -> RunResult:
    """The body of :func:`play_into` once the backend is chosen and started."""
    chunk = spec.chunk_size()  # imports the runs' modules once the workers are starting
    own_store = store is None
    if store is None:
        store = open_partial(out, spec.plan(), resume, force)
    resumed = sum(int(e["n"]) for e in store.done().values())  # played before, kept
    warm_up([spec.kind], spec.rules, names, spec.params, backend, feedback)
    play: Callable[..., dict[str, Any]]
    job_of: Callable[..., Any]
    if spec.kind == "hands":
        from sim.runs.hands import HandsJob as job_of
        from sim.runs.hands import run_hands as play
    else:
        from sim.runs.games import GamesJob as job_of
        from sim.runs.games import run_games as play
    job = job_of(spec.rules, spec.seed, tuple(names), tuple(spec.params), spec.trace is not None,
                 **spec.options())  # fmt: skip
    unit = UNITS[spec.kind]
    bar: Any = feedback.bar(spec.total, unit, f"playing {unit}s") if progress is None else _NoBar()
    started = now_iso()
    t0 = time.perf_counter()
    with StagedDir(out) as staged, staged_file(spec.trace) as trace:
        with bar:
            to = Destination(staged.path, trace, chunk, progress or bar.update, backend, store)
            counts = play(job, spec.total, to)
        seconds = time.perf_counter() - t0
        if spec.kind == "hands":
            sizes = {"deals": spec.total, "rows": int(counts["rows"])}
        else:
            sizes = {
                "games": spec.total,
                "stints": int(counts["stints"]),
                "unfinished": int(counts["unfinished"]),
            }
        write_manifest(
            staged.path, spec.rules, spec.seed, sizes, command=spec.kind, strategies=names,
            params=list(spec.params), **spec.options(), **backend.describe(), chunk_size=chunk,
            chunks=counts.get("chunks"), started=started, ended=now_iso(), seconds=seconds,
        )  # fmt: skip
    if own_store:
        shutil.rmtree(store.folder, ignore_errors=True)
    return RunResult(out, counts, seconds, resumed)


@dataclass(frozen=True)
class HandsGamesFolders:
    """The hands and games run folders of a report, and how long each took (seconds)."""

    hands_dir: Path
    games_dir: Path
    seconds: dict[str, float]


def simulate_report(
    rules: Rules,
    hands: int,
    games: int,
    seed: int,
    work_dir: Path,
    strategies: str = "heuristic",
    feedback: Feedback = QUIET,
    backend: Backend | None = None,
    parts: Path | None = None,
    params: Sequence[str] = (),
    par: bool = False,
) -> HandsGamesFolders:
    """Play the hands and games runs of a report into ``work_dir/hands`` and ``/games``.

    The folders are laid out as the ``thousand hands`` and ``thousand games`` commands
    lay out theirs (Parquet files plus ``run.json``), so the report reads them with
    the same pipelines as ``thousand bids`` and ``thousand barrel``.

    Args:
        rules: the house rules.
        hands: deals of the hands run (bid tables, declared marriages).
        games: whole games of the games run (barrel, game length, seats).
        seed: the seed of both runs.
        work_dir: an existing folder for the two run folders.
        strategies: one strategy for every seat, or one per seat comma-separated.
        feedback: progress bars and notices (silent by default).
        backend: where the chunks run (this process by default).
        parts: a partial folder (:func:`sim.batch.runner.open_partial`) that keeps each
            run's finished chunks, so that an interrupted report resumes; None: none.
        params: ``STRATEGY.NAME=VALUE`` settings of the strategies.
        par: add the open-card par columns to the hands run (``thousand hands --par``).

    Returns:
        The run folders and their durations.
    """
    seconds = {}
    for kind, total in (("hands", hands), ("games", games)):
        spec = RunSpec(
            kind=kind, rules=rules, total=total, seed=seed, strategies=strategies,
            params=tuple(params), par=par and kind == "hands",
        )  # fmt: skip
        store = PartStore(parts / kind) if parts is not None else None
        result = play_into(
            spec, work_dir / kind, feedback=feedback, backend=backend or Backend(), store=store
        )
        seconds[kind] = result.seconds
    return HandsGamesFolders(work_dir / "hands", work_dir / "games", seconds)
