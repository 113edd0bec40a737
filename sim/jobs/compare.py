"""The house-rule comparison job: rule sets side by side on the same deals.

``thousand compare`` and the report's comparison section call :func:`compare`; a
notebook can too::

    from sim.jobs.compare import CompareSpec, compare, rule_sets

    result = compare(CompareSpec(sets=rule_sets("classic", "ukraine_online"), games=2000))
    print(result.markdown())
"""

from __future__ import annotations

import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sim
from sim.i18n import N_, _, number
from sim.output import StagedDir, UsageError, json_safe, now_iso, write_json, write_manifest
from sim.players import DEFAULT
from sim.rules import Rules, load_rules
from sim.runs.folder import QUIET, Feedback, backend_for
from sim.runs.runner import Backend, open_partial, start_workers

if TYPE_CHECKING:  # loaded when a comparison runs, not for every command
    import polars as pl

CHUNK = 4096  # games per chunk of each rule set's run


def rule_sets(base: str, vs: str) -> tuple[tuple[str, Rules], ...]:
    """``(name, rules)`` of the base and every comma-separated ``vs`` entry, names made unique.

    Raises:
        UsageError: when ``vs`` names no rule set.
    """
    specs = [base, *(s.strip() for s in vs.split(",") if s.strip())]
    if len(specs) < 2:
        raise UsageError(_("--vs: name at least one rule set to compare with --rules"))
    out: list[tuple[str, Rules]] = []
    seen: dict[str, int] = {}
    for spec in specs:
        rules = load_rules(spec)
        name = rules.name
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            name = f"{name}_{seen[name]}"
        out.append((name, rules))
    return tuple(out)


@dataclass(frozen=True, kw_only=True)
class CompareSpec:
    """What a comparison plays.

    Attributes:
        sets: ``(name, rules)`` of every rule set, the base first (:func:`rule_sets`).
        games: games per rule set, the same deals under each.
        seed: the run's seed.
        strategies: one strategy for every seat.
        params: ``STRATEGY.NAME=VALUE`` settings of the strategy.
        chunk: games per chunk (None: :data:`CHUNK`).
        workers: worker processes (None: every core).
        scheduler: a Dask scheduler (``"local"`` or ``tcp://HOST:PORT``), or None.
    """

    sets: tuple[tuple[str, Rules], ...]
    games: int
    seed: int = 0
    strategies: str = DEFAULT
    params: tuple[str, ...] = ()
    chunk: int | None = None
    workers: int | None = None
    scheduler: str | None = None

    def check(self) -> None:
        """Refuse a spec that cannot run, before any work.

        Raises:
            UsageError: fewer than two rule sets, or a strategy per seat.
            StrategyError: an unknown strategy or parameter.
        """
        from sim.engine.strategies.registry import parse_params, parse_strategies

        if len(self.sets) < 2:
            raise UsageError(_("--vs: name at least one rule set to compare with --rules"))
        if "," in self.strategies:
            raise UsageError(_("--strategies: compare takes one strategy for every seat"))
        for _name, rules in self.sets:
            parse_params(parse_strategies(self.strategies, rules.players), list(self.params))

    def header(self) -> str:
        """The Markdown heading and sizes line of the comparison (in the current language)."""
        base, others = self.sets[0][0], ", ".join(n for n, _rules in self.sets[1:])
        title = _("# House rules compared — {base} vs {others}").format(base=base, others=others)
        sizes = _(
            "{games} games per rule set on the same deals (seed {seed}), "
            "`{strategies}` at every seat."
        ).format(games=number(self.games), seed=self.seed, strategies=self.strategies)
        return f"{title}\n\n{sizes}"


@dataclass(frozen=True)
class Comparison:
    """A comparison's effects and how to show them.

    Attributes:
        spec: what the comparison played.
        table: the effects of every other rule set against the base
            (:func:`analysis.compare.compare_folders`).
        seconds: how long the comparison took.
    """

    spec: CompareSpec
    table: pl.DataFrame
    seconds: float

    def json(self) -> dict[str, Any]:
        """The ``compare.json`` document (``thousand compare --json``)."""
        sets = self.spec.sets
        return {
            "rules": sets[0][0],
            "vs": [n for n, _ in sets[1:]],
            "rules_hashes": {n: r.rules_hash for n, r in sets},
            "games": self.spec.games,
            "seed": self.spec.seed,
            "strategies": self.spec.strategies,
            "effects": self.table.to_dicts(),
        }

    def markdown(self) -> str:
        """Every effect, one table per other rule set (``compare.md``, ``--full``)."""
        from analysis.compare import compare_markdown

        return compare_markdown(self.table, self.spec.header())

    def short(self) -> str:
        """What differs, then a sentence a metric (the command's default print)."""
        from analysis.compare import compare_short

        return compare_short(self.table, list(self.spec.sets), self.spec.header())


def play_rule_sets_into(
    spec: CompareSpec,
    work: Path,
    backend: Backend,
    feedback: Feedback,
    parts: Path | None,
    label: str = N_("playing the rule sets"),
) -> pl.DataFrame:
    """Play every rule set's games into ``work/runs/NAME``; their effects table."""
    from analysis.compare import compare_folders
    from sim.runs.compare import play_rule_sets

    with feedback.bar(spec.games * len(spec.sets), "game", label) as bar:
        runs = play_rule_sets(
            list(spec.sets), spec.games, spec.seed, work, spec.strategies, list(spec.params),
            backend, spec.chunk or CHUNK, bar.update, parts,
        )  # fmt: skip
    return compare_folders(runs)


def compare(
    spec: CompareSpec,
    out: str | Path | None = None,
    *,
    resume: bool = False,
    force: bool = False,
    feedback: Feedback = QUIET,
) -> Comparison:
    """Play every rule set's games on the same deals; the effects with their intervals.

    With ``out`` the folder gets ``compare.csv``, ``compare.md``, ``compare.json``,
    ``run.json`` and each rule set's games run in ``runs/NAME/``; the chunks are kept
    beside it until the end, so ``resume`` finishes an interrupted comparison
    (``force`` discards its chunks instead).

    Raises:
        UsageError: a spec that cannot run, or ``resume`` without ``out``.
    """
    if out is None and resume:
        raise UsageError(_("--resume: give the --out of the interrupted compare"))
    spec.check()
    from sim.parallel import set_threads

    set_threads(spec.workers)
    backend = backend_for(spec.workers, spec.scheduler)
    start_workers(backend)
    parts = None
    if out is not None:  # each rule set's chunks are kept until the comparison is done
        plan = {
            "command": "compare",
            "rule_sets": [[name, r.rules_hash] for name, r in spec.sets],
            "games": spec.games,
            "seed": spec.seed,
            "strategies": spec.strategies,
            "params": list(spec.params),
            "chunk": spec.chunk or CHUNK,
            "engine_version": sim.ENGINE_VERSION,
        }
        parts = open_partial(Path(out), plan, resume, force).folder
    started = now_iso()
    t0 = time.perf_counter()
    # without out the tables and runs live in a temporary folder, removed at the end
    work = None if out is not None else Path(tempfile.mkdtemp(prefix=".compare-"))
    target = Path(out) if out is not None else Path(str(work)) / "out"
    try:
        with StagedDir(target) as staged:
            table = play_rule_sets_into(spec, staged.path, backend, feedback, parts)
            result = Comparison(spec, table, time.perf_counter() - t0)
            table.write_csv(staged.path / "compare.csv")
            (staged.path / "compare.md").write_text(result.markdown() + "\n", encoding="utf-8")
            write_json(staged.path / "compare.json", json_safe(result.json()))
            base = spec.sets[0][1]
            write_manifest(
                staged.path, base, spec.seed, {"games": spec.games, "rule_sets": len(spec.sets)},
                command="compare", vs={n: r.to_dict() for n, r in spec.sets[1:]},
                strategies=spec.strategies, params=list(spec.params), **backend.describe(),
                started=started, ended=now_iso(), seconds=result.seconds,
            )  # fmt: skip
    finally:
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
    if parts is not None:
        shutil.rmtree(parts, ignore_errors=True)
    return result
