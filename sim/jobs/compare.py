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
from sim.batch.runner import Backend, open_partial, start_workers
from sim.engine.strategies.registry import STRATEGIES, parse_params, parse_strategies
from sim.i18n import N_, _, number
from sim.output import StagedDir, UsageError, json_safe, now_iso, write_json, write_manifest
from sim.players import DEFAULT, SKILL_AGAINST, SKILL_PLAYER
from sim.rules import Rules, did_you_mean, load_rules
from sim.runs.compare import Skill, play_rule_sets
from sim.runs.folder import QUIET, Feedback, backend_for

if TYPE_CHECKING:  # loaded when a comparison runs, not for every command
    import polars as pl

    from analysis.compare import CompareTables

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
        skill_games: the skill index's games per seat of the skilled player (the first
            game ids; None: as many as ``games``; 0: no skill index).
        skill_player: the skilled player.
        skill_against: the player at every other seat of the skill games.
    """

    sets: tuple[tuple[str, Rules], ...]
    games: int
    seed: int = 0
    strategies: str = DEFAULT
    params: tuple[str, ...] = ()
    chunk: int | None = None
    workers: int | None = None
    scheduler: str | None = None
    skill_games: int | None = None
    skill_player: str = SKILL_PLAYER
    skill_against: str = SKILL_AGAINST

    def skill(self) -> Skill:
        """The skill index's games (:class:`sim.runs.compare.Skill`; ``games`` 0: none)."""
        return Skill.of(self.games, self.skill_games, self.skill_player, self.skill_against)

    def check(self) -> None:
        """Refuse a spec that cannot run, before any work.

        Raises:
            UsageError: fewer than two rule sets, or a strategy per seat.
            StrategyError: an unknown strategy or parameter.
        """
        if len(self.sets) < 2:
            raise UsageError(_("--vs: name at least one rule set to compare with --rules"))
        if "," in self.strategies:
            raise UsageError(_("--strategies: compare takes one strategy for every seat"))
        if self.skill_games is not None and self.skill_games < 0:
            raise UsageError(_("--skill-games: a number of games, 0 or more"))
        for flag, name in (("--skill", self.skill_player), ("--skill-against", self.skill_against)):
            if name not in STRATEGIES:
                why = _("{flag}: unknown strategy {name}{hint} (known: {known})")
                raise UsageError(
                    why.format(
                        flag=flag, name=repr(name), hint=did_you_mean(name, STRATEGIES),
                        known=", ".join(STRATEGIES),
                    )
                )  # fmt: skip
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
        if self.skill().games:
            sizes += " " + self.skill().sentence()
        return f"{title}\n\n{sizes}"


@dataclass(frozen=True)
class Comparison:
    """A comparison's effects and how to show them.

    Attributes:
        spec: what the comparison played.
        table: the effects of every other rule set against the base
            (:func:`analysis.compare.compare_folders`).
        seconds: how long the comparison took.
        seats: the games won from each starting seat by rule set, with the test of
            equal shares (:func:`analysis.compare.seat_shares`).
        lengths: the game lengths by rule set (:func:`analysis.compare.length_histograms`).
    """

    spec: CompareSpec
    table: pl.DataFrame
    seconds: float
    seats: pl.DataFrame | None = None
    lengths: pl.DataFrame | None = None

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
            "skill": self.spec.skill().to_json(),
            "effects": self.table.to_dicts(),
            "seats": [] if self.seats is None else self.seats.to_dicts(),
        }

    def markdown(self, figures: bool = False) -> str:
        """Every effect, one table per other rule set, and the seats (``compare.md``, ``--full``).

        ``figures``: link the pictures :meth:`draw` writes beside it.
        """
        from views.compare import compare_markdown

        return compare_markdown(self.table, self.spec.header(), self.seats, figures)

    def short(self) -> str:
        """What differs, then a sentence a metric and the seats (the command's default print)."""
        from views.compare import compare_short

        return compare_short(self.table, list(self.spec.sets), self.spec.header(), self.seats)

    def draw(self, folder: Path) -> list[str]:
        """Write the comparison's pictures into ``folder``; their file names.

        ``compare.png`` (every measure's difference with its interval), ``compare_seats.png``
        (the games won from each seat and the skill index by rule set, against the fair
        share), ``compare_lengths.png`` (the game lengths).
        """
        from views.compare import draw_comparison

        return draw_comparison(self.table, self.seats, self.lengths, folder)


def play_rule_sets_into(
    spec: CompareSpec,
    work: Path,
    backend: Backend,
    feedback: Feedback,
    parts: Path | None,
    label: str = N_("playing the rule sets"),
) -> CompareTables:
    """Play every rule set's games into ``work/runs/NAME``; their tables.

    The skill games too, where ``spec`` asks for them (:meth:`CompareSpec.skill`).
    """
    from analysis.compare import compare_tables

    skill = spec.skill()
    total = spec.games * len(spec.sets) + skill.games * sum(r.players for _n, r in spec.sets)
    with feedback.bar(total, "game", label) as bar:
        runs = play_rule_sets(
            list(spec.sets), spec.games, spec.seed, work, spec.strategies, list(spec.params),
            backend, spec.chunk or CHUNK, bar.update, parts, skill,
        )  # fmt: skip
    return compare_tables(runs)


def compare(
    spec: CompareSpec,
    out: str | Path | None = None,
    *,
    resume: bool = False,
    force: bool = False,
    feedback: Feedback = QUIET,
) -> Comparison:
    """Play every rule set's games on the same deals; the effects with their intervals.

    With ``out`` the folder gets ``compare.csv``, ``compare_seats.csv``,
    ``compare_lengths.csv``, ``compare.md`` with its pictures (:meth:`Comparison.draw`),
    ``compare.json``, ``run.json`` and each rule set's games run in ``runs/NAME/`` (its
    skill games in ``runs/NAME/skill/seat_S/``); the chunks are kept
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
            "skill": [spec.skill().player, spec.skill().against, spec.skill().games],
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
            tables = play_rule_sets_into(spec, staged.path, backend, feedback, parts)
            result = Comparison(
                spec, tables.effects, time.perf_counter() - t0, tables.seats, tables.lengths
            )
            tables.effects.write_csv(staged.path / "compare.csv")
            tables.seats.write_csv(staged.path / "compare_seats.csv")
            tables.lengths.write_csv(staged.path / "compare_lengths.csv")
            figures = out is not None
            if figures:
                result.draw(staged.path)
            text = result.markdown(figures)
            (staged.path / "compare.md").write_text(text + "\n", encoding="utf-8")
            write_json(staged.path / "compare.json", json_safe(result.json()))
            base = spec.sets[0][1]
            write_manifest(
                staged.path, base, spec.seed, {"games": spec.games, "rule_sets": len(spec.sets)},
                command="compare", vs={n: r.to_dict() for n, r in spec.sets[1:]},
                strategies=spec.strategies, params=list(spec.params),
                skill=spec.skill().to_json(),
                **backend.describe(),
                started=started, ended=now_iso(), seconds=result.seconds,
            )  # fmt: skip
    finally:
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
    if parts is not None:
        shutil.rmtree(parts, ignore_errors=True)
    return result
