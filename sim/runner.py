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

Workers return a chunk's outputs as bytes; this process writes each finished chunk
as part files into the run's *partial folder* and appends a line to its manifest,
so a killed run can be resumed (:func:`run_chunks` with ``resume=True``): chunks in
the manifest are not computed again, the others are. At the end the parts are
joined in chunk order, so the final files are byte-identical across worker counts,
backends and interruptions (for one chunk size). A chunk whose worker dies is retried
(``retries``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.output import UsageError

Outputs = dict[str, bytes]  # part name (with extension) -> content
ChunkFn = Callable[[Any, "Chunk"], Outputs]

MANIFEST = "manifest.jsonl"
ROW_GROUP = 1 << 18  # most rows per Parquet row group of a part (a chunk's frame)
PLAN = "plan.json"


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

    A part is written to a temporary name and renamed, then its manifest line is
    appended and flushed; a chunk counts as done only when its line is complete and
    every file it names exists with the recorded size and digest.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)

    def done(self) -> dict[int, dict[str, Any]]:
        """Manifest entries of the chunks whose parts are complete, by chunk index."""
        path = self.folder / MANIFEST
        if not path.exists():
            return {}
        entries: dict[int, dict[str, Any]] = {}
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:  # a line cut by a kill: that chunk is redone
                continue
            if all(self._intact(name, meta) for name, meta in entry["parts"].items()):
                entries[int(entry["chunk"])] = entry
        return entries

    def _intact(self, name: str, meta: dict[str, Any]) -> bool:
        path = self.folder / name
        if not path.exists() or path.stat().st_size != meta["bytes"]:
            return False
        return hashlib.sha256(path.read_bytes()).hexdigest() == meta["sha256"]

    def write(self, chunk: Chunk, outputs: Outputs) -> dict[str, Any]:
        """Store a finished chunk's outputs; return its manifest entry."""
        parts: dict[str, Any] = {}
        for name, data in sorted(outputs.items()):
            stem, _, ext = name.partition(".")
            fname = f"{stem}-{chunk.index:06d}.{ext}"
            tmp = self.folder / f".{fname}.tmp"
            tmp.write_bytes(data)
            os.replace(tmp, self.folder / fname)
            parts[fname] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        entry = {"chunk": chunk.index, "start": chunk.start, "n": chunk.n, "parts": parts}
        with (self.folder / MANIFEST).open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry, separators=(",", ":")) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        return entry

    def part(self, name: str, index: int) -> Path:
        """The file of part ``name`` (e.g. ``hands.parquet``) of chunk ``index``."""
        stem, _, ext = name.partition(".")
        return self.folder / f"{stem}-{index:06d}.{ext}"


def open_partial(out: Path, plan: dict[str, Any], resume: bool) -> PartStore:
    """The part store of the run writing ``out``.

    Without ``resume`` any earlier partial folder is discarded. With ``resume`` the
    folder's plan must be this run's (same rules, seed, sizes, chunking).

    Raises:
        UsageError: ``resume`` with no interrupted run, or one of another plan.
    """
    folder = partial_dir(out)
    plan_path = folder / PLAN
    if resume:
        if not plan_path.exists():
            raise UsageError(f"--resume: no interrupted run to resume for --out {out}")
        old = json.loads(plan_path.read_text(encoding="utf-8"))
        if old != plan:
            diff = sorted(k for k in set(old) | set(plan) if old.get(k) != plan.get(k))
            raise UsageError(
                f"--resume: the interrupted run of --out {out} differs in {', '.join(diff)}"
            )
        _remove_stale_staging(out)
        return PartStore(folder)
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
def _init_worker() -> None:  # pragma: no cover - runs in worker processes
    import numba

    numba.set_num_threads(1)


def _call(fn: ChunkFn, payload: Any, chunk: Chunk) -> tuple[Chunk, Outputs]:
    return chunk, fn(payload, chunk)


def _serial(fn: ChunkFn, payload: Any, todo: Sequence[Chunk]) -> Iterator[tuple[Chunk, Outputs]]:
    for chunk in todo:
        yield chunk, fn(payload, chunk)


def _loky(
    fn: ChunkFn, payload: Any, todo: Sequence[Chunk], workers: int, retries: int
) -> Iterator[tuple[Chunk, Outputs]]:
    from joblib.externals.loky import get_reusable_executor
    from joblib.externals.loky.process_executor import BrokenProcessPool, TerminatedWorkerError

    tries = dict.fromkeys((c.index for c in todo), 0)
    pending = list(todo)
    while pending:
        executor = get_reusable_executor(max_workers=workers, initializer=_init_worker)
        futures: dict[Future[tuple[Chunk, Outputs]], Chunk] = {
            executor.submit(_call, fn, payload, c): c for c in pending
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
    fn: ChunkFn, payload: Any, todo: Sequence[Chunk], backend: Backend, retries: int
) -> Iterator[tuple[Chunk, Outputs]]:
    from distributed import Client, LocalCluster, as_completed

    cluster = None
    if backend.scheduler == "local":
        cluster = LocalCluster(
            n_workers=backend.workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            silence_logs=logging.CRITICAL,  # shutdown chatter is not the user's business
        )
        client = Client(cluster)
    else:
        client = Client(backend.scheduler, timeout="10s")
    try:
        client.run(_init_worker)
        futures = [
            client.submit(
                _call, fn, payload, c, retries=retries, pure=False, key=f"chunk-{c.index}"
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
) -> list[dict[str, Any]]:
    """Compute every chunk not yet in ``store`` and store it as it finishes.

    ``fn(payload, chunk)`` must be a module-level function (it is pickled to the
    workers) returning the chunk's outputs as bytes. Returns the manifest entries
    of all chunks in chunk order.
    """
    done = store.done()
    if progress is not None and done:
        progress(sum(e["n"] for e in done.values()))
    todo = [c for c in chunks if c.index not in done]
    if not todo:
        results: Iterator[tuple[Chunk, Outputs]] = iter(())
    elif backend.scheduler is not None:
        results = _dask(fn, payload, todo, backend, retries)
    elif backend.workers > 1 and len(todo) > 1:
        results = _loky(fn, payload, todo, backend.workers, retries)
    else:
        results = _serial(fn, payload, todo)
    for chunk, outputs in results:
        done[chunk.index] = store.write(chunk, outputs)
        if progress is not None:
            progress(chunk.n)
    return [done[c.index] for c in chunks]


def frame_part(frame: Any) -> bytes:
    """A polars frame as a part: a Parquet file of its own (zstd), written by the worker."""
    import io

    buf = io.BytesIO()
    frame.write_parquet(buf, compression="zstd", row_group_size=ROW_GROUP)
    return buf.getvalue()


def join_parquet(store: PartStore, name: str, chunks: Sequence[Chunk], dest: Path) -> int:
    """Join the Parquet parts ``name`` (e.g. ``hands.parquet``) of ``chunks`` into ``dest``.

    The parts' bytes are copied in chunk order under one rewritten footer
    (:mod:`sim.parquet_concat`): nothing is encoded again, so the join is a copy and
    the workers do all the encoding. Returns the number of rows.
    """
    from sim.parquet_concat import concat_parquet

    return concat_parquet([store.part(name, c.index) for c in chunks], dest)


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


def join_text(store: PartStore, name: str, chunks: Sequence[Chunk], dest: Any) -> None:
    """Append the text parts ``name`` of ``chunks`` to the open file ``dest`` in order."""
    for c in chunks:
        dest.write(store.part(name, c.index).read_text(encoding="utf-8"))
