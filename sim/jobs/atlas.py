"""The atlas of house-rule switches: every option flipped alone from a base, ranked.

``thousand atlas`` (and the report's "Which house rules matter") flips each option of a
base rule set one at a time (:func:`switches`: a yes/no option to the other answer, a
choice to each other value, a number to a low and a high value a table would play),
plays the same games under every switch (common random numbers, as ``thousand
compare``) and ranks the switches by their effect on the game's length, its fairness
and the skill it rewards (:mod:`analysis.atlas`). A notebook can call it::

    from sim.jobs.atlas import AtlasSpec, atlas
    from sim.rules import load_rules

    result = atlas(AtlasSpec(base=load_rules("classic"), games=1000))
    print(result.short())
"""

from __future__ import annotations

import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sim
from sim.batch.runner import Backend, open_partial, start_workers
from sim.engine.strategies.registry import parse_strategies
from sim.i18n import N_, _, number
from sim.output import StagedDir, UsageError, json_safe, now_iso, write_json, write_manifest
from sim.players import DEFAULT, SKILL_AGAINST, SKILL_PLAYER
from sim.rules import _FIELD_META, RULE_KEYS, Rules, RulesError, did_you_mean
from sim.runs.compare import Skill, play_rule_sets
from sim.runs.folder import QUIET, Feedback, backend_for

if TYPE_CHECKING:  # loaded when an atlas runs, not for every command
    import polars as pl

CHUNK = 2048  # games per chunk of each switch's run

# The values a number option is switched to (a low and a high one a table plays); a
# number option not listed stays as it is (its own table of values would be a guess).
NUMBER_VALUES: dict[str, tuple[int, ...]] = {
    "deal.nine_cut_penalty": (120,),
    "reshuffle.hand_points_below": (0, 20),
    "reshuffle.hand_nines": (0, 4),
    "reshuffle.talon_points_below": (0, 10),
    "reshuffle.after_discard_points_below": (20,),
    "reshuffle.dealer_penalty": (120,),
    "bid.silence_below": (0,),
    "rospis.max_per_game": (2,),
    "rospis.third_penalty": (120,),
    "bonus.four_nines": (120,),
    "bolt.count": (2, 4),
    "bolt.penalty": (0, 200),
    "game.target": (
        950,
        1050,
    ),  # (above the barrel's 880 + 170, a barrel win needs a rare contract)
    "game.bank": (100,),
    "barrel.at": (0, 800),
    "barrel.attempts": (1, 5),
    "barrel.fall_penalty": (0, 200),
    "barrel.bid_from": (120,),
    "score.lock_at": (800,),  # the Polish 800 rule
}

# Options that act only at one player count (docs/rules.md §12): not switched elsewhere.
ONLY_WITH_PLAYERS: dict[str, int] = {"talon.two_players": 2, "talon.sitter_scores": 4}


@dataclass(frozen=True)
class Switch:
    """One option of the base switched to another value.

    Attributes:
        key: the option's key (``barrel.at``).
        value: its value under the switch (None: the option switched off).
        name: the switch's name, ``key=value`` (a run folder's name too).
    """

    key: str
    value: Any
    name: str


def _value_text(value: Any) -> str:
    return "off" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def switches(base: Rules) -> tuple[list[tuple[Switch, Rules]], list[tuple[Switch, str]]]:
    """Every switch of ``base`` with its rules, and those the rules refuse with the reason.

    Each option once (:data:`sim.rules.RULE_KEYS`): a yes/no option to the other answer;
    a choice to each other value; an option that may be off (``game.bank``,
    ``bid.silence_below``) on at its :data:`NUMBER_VALUES` or off; a number to each of its
    :data:`NUMBER_VALUES` other than its own. A switch the rules refuse alone (an
    option that needs another, ``marriage.ace_sets_trump`` without ``marriage.ace``) is
    listed with the refusal, not played. An option of another player count
    (:data:`ONLY_WITH_PLAYERS`) is not switched at all: it would change nothing.
    """
    current = base.to_dict()
    played: list[tuple[Switch, Rules]] = []
    refused: list[tuple[Switch, str]] = []
    for key in RULE_KEYS:
        if ONLY_WITH_PLAYERS.get(key, base.players) != base.players:
            continue
        meta = _FIELD_META[key]
        now = current.get(key)
        if meta["type"] is bool:
            values: tuple[Any, ...] = (not now,)
        elif "choices" in meta:
            values = tuple(v for v in meta["choices"] if v != now)
        else:
            values = tuple(v for v in NUMBER_VALUES.get(key, ()) if v != now)
            if meta.get("optional") and now is not None:
                values = (None, *values)
        for value in values:
            switch = Switch(key, value, f"{key}={_value_text(value)}")
            try:
                rules = base.replace(**{key.replace(".", "__"): value})
            except RulesError as why:
                refused.append((switch, str(why)))
                continue
            played.append((switch, rules))
    return played, refused


@dataclass(frozen=True, kw_only=True)
class AtlasSpec:
    """What an atlas plays.

    Attributes:
        base: the base rule set.
        games: games under the base and under every switch, the same deals.
        seed: the run's seed.
        strategies: one strategy for every seat.
        skill_games: the skill index's games per seat (None: as many as ``games``; 0:
            no skill index), as ``thousand compare``.
        skill_player: the skilled player.
        skill_against: the player at every other seat of the skill games.
        keys: the options to switch (empty: every one).
        chunk: games per chunk (None: :data:`CHUNK`).
        workers: worker processes (None: every core).
        scheduler: a Dask scheduler (``"local"`` or ``tcp://HOST:PORT``), or None.
    """

    base: Rules
    games: int
    seed: int = 0
    strategies: str = DEFAULT
    skill_games: int | None = None
    skill_player: str = SKILL_PLAYER
    skill_against: str = SKILL_AGAINST
    keys: tuple[str, ...] = ()
    chunk: int | None = None
    workers: int | None = None
    scheduler: str | None = None

    def skill(self) -> Skill:
        """The skill index's games (``games`` 0: none)."""
        return Skill.of(self.games, self.skill_games, self.skill_player, self.skill_against)

    def switches(self) -> tuple[list[tuple[Switch, Rules]], list[tuple[Switch, str]]]:
        """:func:`switches` of the base, only those of :attr:`keys` where given."""
        played, refused = switches(self.base)
        if self.keys:
            played = [(s, r) for s, r in played if s.key in self.keys]
            refused = [(s, why) for s, why in refused if s.key in self.keys]
        return played, refused

    def check(self) -> None:
        """Refuse a spec that cannot run, before any work.

        Raises:
            UsageError: an unknown key, a strategy per seat, a bad skill setting.
            StrategyError: an unknown strategy.
        """
        from sim.jobs.compare import CompareSpec

        for key in self.keys:
            if key not in RULE_KEYS:
                why = _("--keys: unknown option {key}{hint}")
                raise UsageError(why.format(key=repr(key), hint=did_you_mean(key, RULE_KEYS)))
        if "," in self.strategies:
            raise UsageError(_("--strategies: the atlas takes one strategy for every seat"))
        parse_strategies(self.strategies, self.base.players)
        CompareSpec(
            sets=(("base", self.base), ("base_2", self.base)), games=self.games,
            skill_games=self.skill_games, skill_player=self.skill_player,
            skill_against=self.skill_against,
        ).check()  # fmt: skip
        if not self.switches()[0]:
            raise UsageError(_("--keys: no switch of these options can be played alone"))

    def plan(self) -> dict[str, Any]:
        """What an interrupted atlas must match to be resumed."""
        return {
            "command": "atlas",
            "rules_hash": self.base.rules_hash,
            "games": self.games,
            "seed": self.seed,
            "strategies": self.strategies,
            "skill": [self.skill().player, self.skill().against, self.skill().games],
            "keys": list(self.keys),
            "chunk": self.chunk or CHUNK,
            "engine_version": sim.ENGINE_VERSION,
        }

    def header(self) -> str:
        """The Markdown heading and sizes line of the atlas (in the current language)."""
        played = self.switches()[0]
        title = _("# Which house rules matter — every switch of {base}").format(base=self.base.name)
        sizes = _(
            "{switches} switches, each one option changed alone, {games} games each on the "
            "same deals (seed {seed}), `{strategies}` at every seat."
        ).format(
            switches=len(played), games=number(self.games), seed=self.seed,
            strategies=self.strategies,
        )  # fmt: skip
        if self.skill().games:
            sizes += " " + self.skill().sentence()
        return f"{title}\n\n{sizes}"


@dataclass(frozen=True)
class Atlas:
    """An atlas's effects and ranking, and how to show them.

    Attributes:
        spec: what it played.
        effects: every switch's comparison with the base (``compare.csv``'s columns, a
            row per metric and switch).
        table: the atlas (:func:`analysis.atlas.atlas_table`): a row per switch and measure.
        refused: the switches the rules refuse alone, with the reason.
        seconds: how long it took.
    """

    spec: AtlasSpec
    effects: pl.DataFrame
    table: pl.DataFrame
    refused: list[tuple[Switch, str]] = field(default_factory=list)
    seconds: float = 0.0

    def json(self) -> dict[str, Any]:
        """The ``atlas.json`` document (``thousand atlas --json``)."""
        return {
            "rules": self.spec.base.name,
            "rules_hash": self.spec.base.rules_hash,
            "games": self.spec.games,
            "seed": self.spec.seed,
            "strategies": self.spec.strategies,
            "skill": self.spec.skill().to_json(),
            "atlas": self.table.to_dicts(),
            "refused": [{"switch": s.name, "why": why} for s, why in self.refused],
        }

    def markdown(self, figures: bool = False) -> str:
        """The atlas as Markdown: the ranking of each measure (``atlas.md``, ``--full``)."""
        from views.atlas import atlas_markdown

        return atlas_markdown(self.table, self.spec.header(), self.refused, figures)

    def short(self) -> str:
        """The top switches of each measure (the command's default print)."""
        from views.atlas import atlas_short

        return atlas_short(self.table, self.spec.header())

    def draw(self, folder: Path) -> list[str]:
        """The tornado picture of the atlas (``atlas.png``) into ``folder``; its file names."""
        from views.atlas import draw_atlas

        return draw_atlas(self.table, folder)


def play_atlas(
    spec: AtlasSpec,
    work: Path,
    backend: Backend,
    feedback: Feedback,
    parts: Path | None,
    label: str = N_("playing every switch"),
) -> tuple[pl.DataFrame, pl.DataFrame, list[tuple[Switch, str]]]:
    """Play the base and every switch into ``work/runs/NAME``: the effects, the atlas, the refused.

    The chunks are kept in ``parts`` (None: not kept), so an interrupted atlas resumes.
    """
    from analysis.atlas import atlas_table
    from analysis.compare import compare_tables

    played, refused = spec.switches()
    sets = [("base", spec.base), *((s.name, r) for s, r in played)]
    skill = spec.skill()
    total = len(sets) * spec.games + skill.games * sum(r.players for _n, r in sets)
    with feedback.bar(total, "game", label) as bar:
        runs = play_rule_sets(
            sets, spec.games, spec.seed, work, spec.strategies, [], backend,
            spec.chunk or CHUNK, bar.update, parts, skill,
        )  # fmt: skip
    effects = compare_tables(runs).effects
    return effects, atlas_table(effects, [s for s, _r in played]), refused


def atlas(
    spec: AtlasSpec,
    out: str | Path | None = None,
    *,
    resume: bool = False,
    force: bool = False,
    feedback: Feedback = QUIET,
) -> Atlas:
    """Play the base and every switch on the same games; the atlas of their effects.

    With ``out`` the folder gets ``atlas.csv``, ``atlas_effects.csv``, ``atlas.md`` with
    ``atlas.png``, ``atlas.json``, ``run.json`` and the games of the base and every
    switch in ``runs/NAME/``; the chunks are kept until the end, so ``resume`` finishes
    an interrupted atlas (``force`` discards them instead).

    Raises:
        UsageError: a spec that cannot run, or ``resume`` without ``out``.
    """
    from sim.parallel import set_threads

    if out is None and resume:
        raise UsageError(_("--resume: give the --out of the interrupted atlas"))
    spec.check()
    set_threads(spec.workers)
    backend = backend_for(spec.workers, spec.scheduler)
    start_workers(backend)
    parts = open_partial(Path(out), spec.plan(), resume, force).folder if out is not None else None
    skill = spec.skill()
    started = now_iso()
    t0 = time.perf_counter()
    work = None if out is not None else Path(tempfile.mkdtemp(prefix=".atlas-"))
    target = Path(out) if out is not None else Path(str(work)) / "out"
    try:
        with StagedDir(target) as staged:
            effects, table, refused = play_atlas(spec, staged.path, backend, feedback, parts)
            result = Atlas(spec, effects, table, refused, time.perf_counter() - t0)
            effects.write_csv(staged.path / "atlas_effects.csv")
            table.write_csv(staged.path / "atlas.csv")
            figures = out is not None
            if figures:
                result.draw(staged.path)
            (staged.path / "atlas.md").write_text(result.markdown(figures) + "\n", encoding="utf-8")
            write_json(staged.path / "atlas.json", json_safe(result.json()))
            write_manifest(
                staged.path, spec.base, spec.seed,
                {"games": spec.games, "rule_sets": table["switch"].n_unique() + 1},
                command="atlas", strategies=spec.strategies,
                skill=skill.to_json(),
                **backend.describe(), started=started, ended=now_iso(), seconds=result.seconds,
            )  # fmt: skip
    finally:
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
    if parts is not None:
        shutil.rmtree(parts, ignore_errors=True)
    return result
