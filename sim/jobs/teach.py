"""The teacher's job: decisions of played deals labelled by the sampling player's search.

``thousand teach`` builds a :class:`TeachSpec` and calls :func:`teach_into`; the fits of
the learned players (``make weights``) read its folder::

    from sim.jobs.teach import TeachSpec, teach_into
    from sim.rules import load_rules

    spec = TeachSpec(rules=load_rules("classic"), deals=1000, seed=7, kinds=("contract",))
    result = teach_into(spec, "runs/teach")

The folder holds one Parquet file per decision kind (``contract.parquet``,
``bid.parquet``, ``discard.parquet``, ``play.parquet``; columns in docs/data.md) and
``run.json``. Like every run it is chunked, resumable and the same whatever the
workers (:mod:`sim.batch.runner`).
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import sim
from sim.batch.runner import Destination, open_partial, start_workers
from sim.engine.strategies.registry import parse_params
from sim.output import StagedDir, UsageError, now_iso, write_manifest
from sim.players import PLAYERS
from sim.rules import Rules
from sim.runs.folder import QUIET, Feedback, backend_for, warm_up

MAX_WORLDS = 200  # the engine's most sampled worlds (sim.engine.arena.MAX_WORLDS)


@dataclass(frozen=True, kw_only=True)
class TeachSpec:
    """What a teacher's run labels.

    Attributes:
        rules: the house rules.
        deals: deals played (deal ``0 .. deals-1`` of the seed).
        seed: the run's seed.
        player: the player at every seat, whose decisions are labelled (default
            ``strong``: the states the learned player meets).
        params: its ``STRATEGY.NAME=VALUE`` settings.
        worlds: the sampled worlds each label is counted over (10, as the weights were fitted).
        kinds: the decisions labelled: some of ``contract``, ``bid``, ``discard``, ``play``,
            ``outcome``.
        chunk: deals per chunk (None: 20).
        workers: worker processes (None: every core).
        scheduler: a Dask scheduler (``"local"`` or ``tcp://HOST:PORT``), or None.
    """

    rules: Rules
    deals: int
    seed: int = 0
    player: str = "strong"
    params: tuple[str, ...] = ()
    worlds: int = 10
    kinds: tuple[str, ...] = ("contract", "bid", "discard", "play")
    chunk: int | None = None
    workers: int | None = None
    scheduler: str | None = None

    def checked(self) -> TeachSpec:
        """The spec with its kinds in order, refused when it cannot run.

        Raises:
            UsageError: an unknown kind or player, or worlds out of range.
            StrategyError: an unknown parameter.
        """
        from sim.runs.teach import check_kinds

        try:
            kinds = check_kinds(self.kinds)
        except ValueError as exc:
            raise UsageError(f"--kinds: {exc}") from None
        if self.player not in PLAYERS:
            raise UsageError(f"--player {self.player}: not a player ({', '.join(PLAYERS)})")
        if not 1 <= self.worlds <= MAX_WORLDS:
            raise UsageError(f"--worlds {self.worlds}: 1 to {MAX_WORLDS}")
        parse_params([self.player] * self.rules.players, list(self.params))
        return replace(self, kinds=kinds)

    def plan(self) -> dict[str, Any]:
        """What a resumed run must share with the interrupted one."""
        from sim.runs.teach import CHUNK

        return {
            "command": "teach",
            "rules_hash": self.rules.rules_hash,
            "seed": self.seed,
            "total": self.deals,
            "chunk": self.chunk or CHUNK,
            "strategies": [self.player],
            "params": list(self.params),
            "worlds": self.worlds,
            "kinds": list(self.kinds),
            "engine_version": sim.ENGINE_VERSION,
        }


@dataclass(frozen=True)
class TeachResult:
    """A teacher's folder written: where, its decisions by kind and the search's time.

    ``seconds`` is the run's wall-clock time; ``search_seconds`` the time the search
    took per kind, summed over the workers (so decisions per second per core).
    """

    folder: Path
    decisions: dict[str, int]
    search_seconds: dict[str, float]
    seconds: float

    def per_core(self) -> dict[str, float]:
        """Decisions per second of one core, by kind."""
        return {
            k: (n / self.search_seconds[k] if self.search_seconds[k] > 0 else 0.0)
            for k, n in self.decisions.items()
        }


def teach_into(
    spec: TeachSpec,
    out: str | Path,
    *,
    feedback: Feedback = QUIET,
    resume: bool = False,
    force: bool = False,
) -> TeachResult:
    """Label ``spec``'s decisions into the folder ``out`` (written whole, or not at all).

    ``resume`` finishes an interrupted run of the same spec; ``force`` discards its
    saved chunks instead.

    Raises:
        UsageError: a spec that cannot run, or a partial folder that does not fit.
    """
    from sim.parallel import set_threads
    from sim.runs.teach import CHUNK, TeachJob, run_teach

    spec = spec.checked()
    out = Path(out)
    backend = backend_for(spec.workers, spec.scheduler)
    serial = backend.scheduler is None and backend.workers == 1
    threads = set_threads(1) if serial else None
    try:
        start_workers(backend)
        store = open_partial(out, spec.plan(), resume, force)
        names = [spec.player] * spec.rules.players
        warm_up(["hands"], spec.rules, names, spec.params, backend, feedback)
        job = TeachJob(rules=spec.rules, seed=spec.seed, player=spec.player,
                       params=spec.params, worlds=spec.worlds, kinds=spec.kinds)  # fmt: skip
        started = now_iso()
        t0 = time.perf_counter()
        with StagedDir(out) as staged:
            with feedback.bar(spec.deals, "deal", "labelling deals") as bar:
                to = Destination(staged.path, None, spec.chunk or CHUNK, bar.update, backend, store)
                counts = run_teach(job, spec.deals, to)
            seconds = time.perf_counter() - t0
            sizes = {f"decisions_{k}": n for k, n in counts["decisions"].items()}
            write_manifest(
                staged.path, spec.rules, spec.seed, {"deals": spec.deals, **sizes},
                command="teach", strategies=names, params=list(spec.params), worlds=spec.worlds,
                kinds=list(spec.kinds), **backend.describe(), chunk_size=spec.chunk or CHUNK,
                chunks=counts["chunks"], started=started, ended=now_iso(), seconds=seconds,
            )  # fmt: skip
        shutil.rmtree(store.folder, ignore_errors=True)
    finally:
        if threads is not None:
            set_threads(None)
    return TeachResult(out, counts["decisions"], counts["seconds"], seconds)


__all__ = ["TeachResult", "TeachSpec", "teach_into"]
