"""Chunked runs on local processes or a Dask cluster, resumable, byte-identical.

A run of ``total`` items (deals, slots, games) is cut into chunks of a fixed size
that does not depend on the number of workers; chunk ``k`` covers items
``k * size .. (k + 1) * size - 1``. Every item's randomness is keyed by its own
number (:mod:`sim.rng`), so a chunk's result depends only on the run's parameters
and the chunk's range: the same seed gives the same chunks whoever computes them.

Chunks run

* in this process (``workers == 1``, no scheduler),
* on ``workers`` local processes (joblib's ``loky`` executor), each with one
  compiled-code thread,
* or on Dask distributed: ``scheduler="local"`` starts a ``LocalCluster`` on the
  loopback interface for the run, ``scheduler="tcp://host:port"`` uses a running
  cluster.

A worker writes its chunk's outputs as part files into the run's *partial folder*
(or, on a cluster that cannot see that folder, returns them as bytes for this process
to write); this process appends a line to the folder's manifest for each finished
chunk, so a killed run can be resumed (:func:`run_chunks` after
:func:`open_partial` with ``resume=True``): chunks in the manifest are not computed
again, the others are. At the end the parts are joined in chunk order, so the final
files are byte-identical across worker counts, backends and interruptions (for one
chunk size). A chunk whose worker dies is retried (``retries``).
"""

from __future__ import annotations

import atexit
import hashlib
import importlib
import json
import logging
import os
import shutil
import sys
import tempfile
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from sim.i18n import _
from sim.output import UsageError, os_reason
from sim.reading import TEXT_MOST, read_text
from sim.rules import Rules

Outputs = dict[str, bytes]  # part name (with extension) -> content
ChunkFn = Callable[[Any, "Chunk"], Outputs]

MANIFEST = "manifest.jsonl"
ROW_GROUP = 1 << 18  # most rows per Parquet row group of a part (a chunk's frame)
PLAN = "plan.json"
TOKEN = "token"  # a random name of the part folder, see Sink


@dataclass(frozen=True)
class Chunk:
    """Items ``start .. start + n - 1`` of a run, its ``index``-th chunk."""

    index: int
    start: int
    n: int


def plan_chunks(total: int, size: int) -> list[Chunk]:
    """The chunks of a run of ``total`` items, ``size`` items each (the last may be short)."""
    if total < 1 or size < 1:
        raise ValueError(f"total and chunk size must be positive, got {total}, {size}")
    return [Chunk(k, s, min(size, total - s)) for k, s in enumerate(range(0, total, size))]


@dataclass(frozen=True)
class Backend:
    """Where chunks run: ``workers`` local processes, or a Dask ``scheduler``."""

    workers: int = 1
    scheduler: str | None = None

    def describe(self) -> dict[str, Any]:
        """The backend as recorded in ``run.json``."""
        if self.scheduler is not None:
            return {"backend": "dask", "scheduler": self.scheduler, "workers": self.workers}
        return {"backend": "local" if self.workers > 1 else "serial", "workers": self.workers}


# --- the partial folder ---------------------------------------------------------------
def partial_dir(out: Path) -> Path:
    """Where the parts of the run writing ``out`` live until it finishes."""
    return out.parent / f".{out.name}.partial"


class PartStore:
    """Part files of finished chunks and the manifest that lists them.

    A part is written to a temporary name and renamed (by the worker that computed
    it, see :class:`Sink`), then this process appends its manifest line; a chunk
    counts as done only when its line is complete and every file it names exists
    with the recorded size and digest.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        token = self.folder / TOKEN
        if not token.exists():
            token.write_text(uuid.uuid4().hex, encoding="utf-8")
        self.sink = Sink(str(self.folder), token.read_text(encoding="utf-8"))

    def done(self) -> dict[int, dict[str, Any]]:
        """Manifest entries of the chunks whose parts are complete, by chunk index."""
        path = self.folder / MANIFEST
        if not path.exists():
            return {}
        entries: dict[int, dict[str, Any]] = {}
        # a line cut by a kill (or garbled, not even UTF-8): that chunk is redone
        for line in path.read_bytes().decode("utf-8", errors="replace").splitlines():
            try:
                entry = json.loads(line)
                if all(self._intact(name, meta) for name, meta in entry["parts"].items()):
                    entries[int(entry["chunk"])] = entry
            except (ValueError, TypeError, KeyError, AttributeError):
                continue
        return entries

    def _intact(self, name: str, meta: dict[str, Any]) -> bool:
        path = self.folder / name
        if not path.exists() or path.stat().st_size != meta["bytes"]:
            return False
        return hashlib.sha256(path.read_bytes()).hexdigest() == meta["sha256"]

    def write(self, chunk: Chunk, outputs: Outputs) -> dict[str, Any]:
        """Store a finished chunk's outputs here; return its manifest entry."""
        return self.record(write_parts(self.folder, chunk, outputs))

    def record(self, entry: dict[str, Any]) -> dict[str, Any]:
        """Append the manifest line of a chunk whose parts are written; return it.

        The line goes out in one write; a kill can cut it short, and :meth:`done`
        skips a cut line (the chunk is computed again).
        """
        with (self.folder / MANIFEST).open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry, separators=(",", ":")) + "\n")
        return entry

    def part(self, name: str, index: int) -> Path:
        """The file of part ``name`` (e.g. ``hands.parquet``) of chunk ``index``."""
        return self.folder / _part_name(name, index)


def _part_name(name: str, index: int) -> str:
    stem, _, ext = name.partition(".")
    return f"{stem}-{index:06d}.{ext}"


def write_parts(folder: Path, chunk: Chunk, outputs: Outputs) -> dict[str, Any]:
    """Write a chunk's outputs into ``folder`` (temporary name, then rename); its entry."""
    parts: dict[str, Any] = {}
    for name, data in sorted(outputs.items()):
        fname = _part_name(name, chunk.index)
        tmp = folder / f".{fname}.{os.getpid()}.tmp"
        tmp.write_bytes(data)
        os.replace(tmp, folder / fname)
        parts[fname] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    return {"chunk": chunk.index, "start": chunk.start, "n": chunk.n, "parts": parts}


@dataclass(frozen=True)
class Sink:
    """Where a worker puts a finished chunk: the part folder, when it can see it.

    A worker on this machine, or on one sharing its file system, finds the folder's
    token file with this run's token and writes the parts itself, so that only a
    short manifest entry travels back and this process copies no bytes. A worker
    elsewhere sends the bytes back for this process to write.
    """

    folder: str
    token: str

    def reachable(self) -> bool:
        """Whether this process sees the part folder of this run."""
        try:
            return (Path(self.folder) / TOKEN).read_text(encoding="utf-8") == self.token
        except OSError:
            return False


@dataclass(frozen=True)
class PlayJob:
    """What a worker needs to play a chunk of a run (pickled to it): who plays, by what.

    The hands and games runs' jobs add their own settings
    (:class:`sim.runs.hands.HandsJob`, :class:`sim.runs.games.GamesJob`).
    """

    rules: Rules
    seed: int
    strategies: tuple[str, ...]
    params: tuple[str, ...]
    trace: bool


@dataclass(frozen=True)
class Destination:
    """Where a hands or games run puts what it plays, and how it plays its chunks.

    Attributes:
        out_dir: the folder of the run's Parquet files.
        trace: where the traces go (None: no trace).
        chunk: items per chunk (None: the run's default).
        progress: called with the number of items each finished chunk played.
        backend: the worker processes or cluster (None: this process).
        store: where finished chunks are kept until the end (None: a temporary folder;
            the CLI passes the run's partial folder, so that ``--resume`` can finish an
            interrupted run).
    """

    out_dir: Path
    trace: IO[str] | None = None
    chunk: int | None = None
    progress: Callable[[int], None] | None = None
    backend: Backend | None = None
    store: PartStore | None = None


def saved_chunks(out: Path) -> bool:
    """Whether an interrupted run writing ``out`` left finished chunks behind."""
    folder = partial_dir(out)
    return folder.is_dir() and any(p.stat().st_size > 0 for p in folder.rglob(MANIFEST))


def _read_plan(path: Path, out: Path) -> dict[str, Any]:
    """The plan an interrupted run left in its partial folder.

    Raises:
        UsageError: a plan that cannot be read, is not UTF-8 or is not a JSON object
            (the folder was tampered with): ``--force`` starts the run over.
    """
    why = _("--resume: the plan of the interrupted run of --out {out} cannot be read "
            "({path}: {reason}); --force instead of --resume starts the run over")  # fmt: skip
    try:
        plan = json.loads(read_text(path, TEXT_MOST))
    except json.JSONDecodeError as exc:
        reason = _("malformed JSON at line {line}, column {column}")
        reason = reason.format(line=exc.lineno, column=exc.colno)
        raise UsageError(why.format(out=out, path=path, reason=reason)) from None
    except (OSError, ValueError) as exc:  # unreadable, larger than it may be, not UTF-8
        raise UsageError(why.format(out=out, path=path, reason=os_reason(exc))) from None
    if not isinstance(plan, dict):
        why_not = _("not a JSON object")
        raise UsageError(why.format(out=out, path=path, reason=why_not))
    return plan


def open_partial(out: Path, plan: dict[str, Any], resume: bool, force: bool = False) -> PartStore:
    """The part store of the run writing ``out``.

    With ``resume`` the folder's plan must be this run's (same rules, seed, sizes,
    chunking). Without it an earlier partial folder is discarded, but one holding
    finished chunks only with ``force``: they are an interrupted run's work.

    Raises:
        UsageError: ``resume`` with no interrupted run, or one of another plan;
            finished chunks of an interrupted run without ``resume`` or ``force``.
    """
    folder = partial_dir(out)
    plan_path = folder / PLAN
    if resume:
        if not plan_path.exists():
            raise UsageError(
                _("--resume: no interrupted run to resume for --out {out}").format(out=out)
            )
        old = _read_plan(plan_path, out)
        if old != plan:
            diff = sorted(k for k in set(old) | set(plan) if old.get(k) != plan.get(k))
            raise UsageError(
                _("--resume: the interrupted run of --out {out} differs in {keys}").format(
                    out=out, keys=", ".join(diff)
                )
            )
        _remove_stale_staging(out)
        return PartStore(folder)
    if saved_chunks(out) and not force:
        raise UsageError(
            _(
                "--out {out}: an interrupted run left its finished chunks in {folder}; "
                "add --resume to finish it, or --force to discard them"
            ).format(out=out, folder=folder)
        )
    shutil.rmtree(folder, ignore_errors=True)
    _remove_stale_staging(out)
    store = PartStore(folder)
    plan_path.write_text(json.dumps(plan, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return store


def _remove_stale_staging(out: Path) -> None:
    """Staging folders (:class:`sim.output.StagedDir`) left by a killed run of ``out``."""
    for path in out.parent.glob(f".{out.name}.*"):
        if (
            path.is_dir()
            and path.name != partial_dir(out).name
            and len(path.name) == len(f".{out.name}.12345678")
        ):
            shutil.rmtree(path, ignore_errors=True)


# --- executing chunks -------------------------------------------------------------------
def _init_worker(ours: bool = True) -> None:  # pragma: no cover - runs in worker processes
    """One compiled-code thread per worker; the simulating modules imported up front.

    In a worker process the run started itself (``ours``), freed memory is also kept
    for the next chunk (:func:`sim.parallel.keep_freed_memory`); the workers of a
    cluster given with ``tcp://`` keep their own allocator settings.
    """
    import numba

    from sim.parallel import keep_freed_memory

    if ours:
        keep_freed_memory(one_arena=True)
        _exit_without_teardown()
        _no_leak_restarts()
    numba.set_num_threads(1)
    for module in ("sim.runs.hands", "sim.engine.game"):
        importlib.import_module(module)


# Each worker process computes on one thread: the workers fill the cores, and idle
# threads of polars' or numba's pools would only contend with the other workers. So
# would OpenBLAS's, which numpy (and scipy, which numba loads) start at import and which
# spin there for about 0.1 s of CPU each, though nothing here multiplies matrices.
WORKER_ENV = {"POLARS_MAX_THREADS": "1", "NUMBA_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}

# The LocalCluster of a run is ours: its workers run a few long tasks each, so the
# statistical profiler (a stack sample every 10 ms), the event-loop health tick
# (every 20 ms) and frequent memory and system polls would only take time from them.
LOCAL_CLUSTER_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.admin.tick.interval": "500ms",
}

# A local worker left idle this long ends (loky's default is 10 s): a command may
# compute in its own process for longer between two runs (a report's odds, compiling
# from an empty cache), and :func:`stop_workers` ends them when the command ends.
IDLE_WORKER_S = 300

_POOL: Any = None  # the loky executor of this process's local runs, once started


def _pool(workers: int) -> Any:
    """The reusable executor of ``workers`` local processes (started on first use)."""
    global _POOL
    from joblib.externals.loky import get_reusable_executor

    _POOL = get_reusable_executor(
        max_workers=workers, initializer=_init_worker, env=WORKER_ENV, timeout=IDLE_WORKER_S
    )
    return _POOL


def _no_leak_restarts() -> None:  # pragma: no cover - runs in worker processes
    """Keep loky from replacing a worker whose memory grew by 300 MB since its first task.

    A worker's memory grows by design after its first task (here a start-up ping):
    the compiled engine loads (compiling, from an empty cache, takes hundreds of
    MB) and a chunk's arrays are kept for the next chunk (keep_freed_memory). Loky
    read that as a leak, ended the worker mid-run and started another, which had to
    load everything again. A chunk's memory is bounded by the chunk size instead.
    """
    executor = sys.modules.get("joblib.externals.loky.process_executor")
    if executor is not None:
        executor._MAX_MEMORY_LEAK_SIZE = 1 << 62  # type: ignore[attr-defined]


def _exit_without_teardown() -> None:  # pragma: no cover - runs in worker processes
    """End this worker process, once closed, without Python's teardown.

    For the worker processes a run starts and closes itself: the finalizers of the
    loaded engine and polars took a third of a second at every close, and a closed
    worker has nothing left to write (its parts are renamed into place before it
    reports a chunk done).
    """
    atexit.register(os._exit, 0)  # registered last, so it runs first at exit


def _ping() -> int:  # pragma: no cover - runs in worker processes
    return os.getpid()


def start_workers(backend: Backend) -> None:
    """Start ``backend``'s local worker processes now.

    They import the engine while this process still prepares the run (a no-op for
    serial and Dask runs).
    """
    if backend.scheduler is None and backend.workers > 1:
        pool = _pool(backend.workers)
        for _ in range(backend.workers):
            pool.submit(_ping)


def stop_workers() -> None:
    """End the local worker processes (at the end of a command; they are idle)."""
    global _POOL
    if _POOL is not None:
        _POOL.shutdown(wait=True)
        _POOL = None


def local_map(fn: Callable[[Any], Any], items: Sequence[Any], workers: int) -> Iterator[Any]:
    """``fn(item)`` of each item, in order, on the local worker processes.

    In this process for one worker or one item. ``fn`` must be a module-level
    function (it is pickled to the workers).
    """
    if workers <= 1 or len(items) <= 1:
        for item in items:
            yield fn(item)
        return
    pool = _pool(workers)
    futures = [pool.submit(fn, item) for item in items]
    for fut in futures:
        yield fut.result()


def run_on_workers(backend: Backend, fn: Callable[..., Any], *args: Any) -> list[Any]:
    """``fn(*args)`` on every worker of ``backend`` before a run; the results.

    Used to compile the engine before a run's clock starts. Serial: in this process.
    Local worker processes: one call per worker. A Dask cluster given as
    ``tcp://HOST:PORT``: on every worker (they outlive the run). ``scheduler="local"``:
    the run starts its own cluster, whose workers load the compiled code from the
    on-disk cache, so one local worker process runs it and fills that cache.
    ``fn`` must be a module-level function (it is pickled to the workers).
    """
    if backend.scheduler is None and backend.workers == 1:
        return [fn(*args)]
    if backend.scheduler is None:
        pool = _pool(backend.workers)
        return [f.result() for f in [pool.submit(fn, *args) for _ in range(backend.workers)]]
    if backend.scheduler == "local":
        return [_pool(1).submit(fn, *args).result()]
    from distributed import Client

    client = Client(backend.scheduler, timeout="10s")
    try:
        client.run(_init_worker, False)
        return list(client.run(fn, *args).values())
    finally:
        client.close()


Done = tuple[Chunk, dict[str, Any] | None, Outputs | None]  # entry, or bytes to write


def _call(fn: ChunkFn, payload: Any, chunk: Chunk, sink: Sink) -> Done:
    """Compute a chunk in a worker; write its parts where ``sink`` is reachable."""
    outputs = fn(payload, chunk)
    if sink.reachable():
        return chunk, write_parts(Path(sink.folder), chunk, outputs), None
    return chunk, None, outputs


def _serial(fn: ChunkFn, payload: Any, todo: Sequence[Chunk], sink: Sink) -> Iterator[Done]:
    for chunk in todo:
        yield _call(fn, payload, chunk, sink)


def _loky(
    fn: ChunkFn, payload: Any, todo: Sequence[Chunk], sink: Sink, workers: int, retries: int
) -> Iterator[Done]:
    from joblib.externals.loky.process_executor import BrokenProcessPool, TerminatedWorkerError

    tries = dict.fromkeys((c.index for c in todo), 0)
    pending = list(todo)
    while pending:
        executor = _pool(workers)
        futures: dict[Future[Done], Chunk] = {
            executor.submit(_call, fn, payload, c, sink): c for c in pending
        }
        pending = []
        broken = False
        while futures:
            finished, _ = wait(list(futures), return_when=FIRST_COMPLETED)
            for fut in finished:
                chunk = futures.pop(fut)
                try:
                    yield fut.result()
                except (BrokenProcessPool, TerminatedWorkerError):
                    tries[chunk.index] += 1
                    if tries[chunk.index] > retries:
                        raise
                    pending.append(chunk)
                    broken = True
            if broken:  # the pool is gone: every unfinished chunk goes round again
                for fut, chunk in futures.items():
                    fut.cancel()
                    pending.append(chunk)
                futures = {}
        pending.sort(key=lambda c: c.index)


def _dask(
    fn: ChunkFn, payload: Any, todo: Sequence[Chunk], sink: Sink, backend: Backend, retries: int
) -> Iterator[Done]:
    import dask
    from distributed import Client, LocalCluster, as_completed

    cluster = None
    if backend.scheduler == "local":
        with dask.config.set(LOCAL_CLUSTER_CONFIG):
            cluster = LocalCluster(
                n_workers=backend.workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
                silence_logs=logging.CRITICAL,  # shutdown chatter is not the user's business
                env=WORKER_ENV,
            )
        client = Client(cluster)
    else:
        client = Client(backend.scheduler, timeout="10s")
    try:
        client.run(_init_worker, cluster is not None)
        futures = [
            client.submit(
                _call, fn, payload, c, sink, retries=retries, pure=False, key=f"chunk-{c.index}"
            )
            for c in todo
        ]
        for fut in as_completed(futures):
            yield fut.result()
    finally:
        quiet = logging.getLogger("distributed")
        level = quiet.level
        quiet.setLevel(logging.CRITICAL)
        try:
            client.close()
            if cluster is not None:
                cluster.close()
        finally:
            quiet.setLevel(level)


def run_chunks(
    fn: ChunkFn,
    payload: Any,
    chunks: Sequence[Chunk],
    store: PartStore,
    backend: Backend,
    progress: Callable[[int], None] | None = None,
    retries: int = 2,
    on_ready: Callable[[Chunk], None] | None = None,
) -> list[dict[str, Any]]:
    """Compute every chunk not yet in ``store`` and store it as it finishes.

    ``fn(payload, chunk)`` must be a module-level function (it is pickled to the
    workers) returning the chunk's outputs as bytes. ``on_ready(chunk)`` is called
    for every chunk in chunk order, as soon as it and all chunks before it are
    stored (a :class:`Joiner` builds the final files meanwhile). Returns the
    manifest entries of all chunks in chunk order.
    """
    done = store.done()
    if progress is not None and done:
        progress(sum(e["n"] for e in done.values()))
    todo = [c for c in chunks if c.index not in done]
    ready = 0  # chunks[:ready] have been handed to on_ready

    def hand_on() -> None:
        nonlocal ready
        while ready < len(chunks) and chunks[ready].index in done:
            if on_ready is not None:
                on_ready(chunks[ready])
            ready += 1

    hand_on()
    sink = store.sink
    if not todo:
        results: Iterator[Done] = iter(())
    elif backend.scheduler is not None:
        results = _dask(fn, payload, todo, sink, backend, retries)
    elif backend.workers > 1 and len(todo) > 1:
        results = _loky(fn, payload, todo, sink, backend.workers, retries)
    else:
        results = _serial(fn, payload, todo, sink)
    for chunk, entry, outputs in results:
        if entry is None:
            assert outputs is not None
            done[chunk.index] = store.write(chunk, outputs)
        else:
            done[chunk.index] = store.record(entry)
        if progress is not None:
            progress(chunk.n)
        hand_on()
    return [done[c.index] for c in chunks]


class Joiner:
    """The run's final files, built from the chunks' parts in chunk order.

    Pass it as ``on_ready`` to :func:`run_chunks`: each chunk's parts are appended
    as soon as every earlier chunk is in, so the join overlaps the computing and
    little is left when the last chunk arrives. Used as a context manager: the
    Parquet files are finished when the block ends, or dropped if it raises.
    """

    def __init__(self, store: PartStore) -> None:
        self.store = store
        self._steps: list[tuple[str, Callable[[Path], Any]]] = []  # (part name, use of it)
        self._joins: list[Any] = []

    def parquet(self, name: str, dest: Path) -> None:
        """Join the Parquet parts ``name`` into ``dest`` (:mod:`sim.batch.parquet_concat`)."""
        from sim.batch.parquet_concat import ParquetJoin

        join = ParquetJoin(dest)
        self._joins.append(join)
        self._steps.append((name, join.append))

    def text(self, name: str, dest: IO[str]) -> None:
        """Append the text parts ``name`` to the open file ``dest``."""
        self._steps.append((name, lambda path: dest.write(path.read_text(encoding="utf-8"))))

    def each(self, name: str, step: Callable[[Path], Any]) -> None:
        """Call ``step(path)`` with every part ``name`` in order (e.g. to fold counts)."""
        self._steps.append((name, step))

    def __call__(self, chunk: Chunk) -> None:
        """Append ``chunk``'s parts (the next chunk in order)."""
        for name, step in self._steps:
            step(self.store.part(name, chunk.index))

    def __enter__(self) -> Joiner:
        return self

    def __exit__(self, exc_type: object, *_: object) -> None:
        for join in self._joins:
            if exc_type is None:
                join.close()
            else:
                join.abandon()


def run_joined(
    fn: ChunkFn,
    payload: Any,
    chunks: Sequence[Chunk],
    out_dir: Path,
    *,
    parquet: Sequence[str] = (),
    trace: IO[str] | None = None,
    fold: tuple[str, Callable[[Path], Any]] | None = None,
    backend: Backend | None = None,
    store: PartStore | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Any]:
    """Run ``chunks`` and join their parts; return every chunk's ``counts.json``.

    The shared body of a hands and a games run: the Parquet parts named in
    ``parquet`` become ``out_dir/NAME``, the ``trace.jsonl`` parts go to ``trace``,
    and ``fold = (name, step)`` hands each chunk's part ``name`` to ``step``, all in
    chunk order while later chunks compute. Chunks run on ``backend`` (this process
    by default) and are kept in ``store`` until the end (a temporary one by default;
    the CLI passes the run's partial folder so that ``--resume`` can finish an
    interrupted run).
    """
    with parts_in(store, out_dir) as part_store:
        with Joiner(part_store) as joiner:
            for name in parquet:
                joiner.parquet(name, out_dir / name)
            if trace is not None:
                joiner.text("trace.jsonl", trace)
            if fold is not None:
                joiner.each(*fold)
            run_chunks(
                fn, payload, chunks, part_store, backend or Backend(), progress, on_ready=joiner
            )
        return read_json_parts(part_store, "counts.json", chunks)


def run_to(
    fn: ChunkFn,
    job: Any,
    total: int,
    to: Destination,
    chunk: int,
    *,
    parquet: Sequence[str] = (),
    fold: tuple[str, Callable[[Path], Any]] | None = None,
) -> list[Any]:
    """Play ``total`` items as ``to`` says; every chunk's ``counts.json``.

    :func:`run_joined` in chunks of ``to.chunk`` items (``chunk`` when it says none).
    """
    chunks = plan_chunks(total, to.chunk or chunk)
    return run_joined(
        fn, job, chunks, to.out_dir, parquet=parquet, trace=to.trace, fold=fold,
        backend=to.backend, store=to.store, progress=to.progress,
    )  # fmt: skip


def frame_part(frame: Any) -> bytes:
    """A polars frame as a part: a Parquet file of its own (zstd), written by the worker.

    By :func:`sim.batch.parquet_write.write_frame`, a third of the time of polars'
    writer on a hands chunk.
    """
    from sim.batch.parquet_write import write_frame

    return write_frame(frame, ROW_GROUP)


@contextmanager
def parts_in(store: PartStore | None, near: Path | None = None) -> Iterator[PartStore]:
    """``store``, or a temporary one (beside ``near``) removed when the block ends."""
    if store is not None:
        yield store
        return
    own = PartStore(Path(tempfile.mkdtemp(prefix=".parts-", dir=near)))
    try:
        yield own
    finally:
        shutil.rmtree(own.folder, ignore_errors=True)


def json_part(doc: Any) -> bytes:
    """A small JSON document (a chunk's counts) as a part."""
    return json.dumps(doc).encode()


def traces_part(docs: Iterable[dict[str, Any]]) -> bytes:
    """Trace objects as a JSON Lines part."""
    return "".join(json.dumps(d, separators=(",", ":")) + "\n" for d in docs).encode("utf-8")


def read_json_parts(store: PartStore, name: str, chunks: Sequence[Chunk]) -> list[Any]:
    """The JSON parts ``name`` of ``chunks``, in chunk order."""
    return [json.loads(store.part(name, c.index).read_text()) for c in chunks]
