"""House rules side by side on the same deals: the runs of ``thousand compare``.

Every rule set plays games ``0 .. N-1`` with the same seed and strategies, so game
``g`` deals the same cards and draws the same random numbers under each (common
random numbers). :func:`play_rule_sets` plays each rule set's run into
``runs/NAME/`` (``games.parquet``, ``barrel.parquet``, ``run.json``), so ``thousand
barrel --out/runs/NAME`` works on it; :func:`analysis.compare.compare_folders` turns
the folders into effects with CRN and independent-run intervals.
:func:`dealing_comparison` plays the report's "Shuffled or cut?" runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.batch.runner import Backend, PartStore
from sim.i18n import _, number
from sim.rules import Rules
from sim.runs.folder import RunSpec, play_into

if TYPE_CHECKING:  # sim.runs.odds loads compiled code: not at import time of a comparison
    from sim.runs.odds import OddsRun


@dataclass(frozen=True)
class Skill:
    """The skill index's games: one ``player`` against ``against`` at every other seat.

    Attributes:
        player: the skilled player (a strategy name).
        against: the player at every other seat.
        games: games per seat of the skilled player (the first game ids of the comparison).
    """

    player: str = "strong"
    against: str = "heuristic"
    games: int = 0

    @classmethod
    def of(cls, games: int, skill_games: int | None, player: str, against: str) -> Skill:
        """The skill games of a run of ``games``: ``skill_games`` of them (None: all)."""
        return cls(player, against, games if skill_games is None else min(skill_games, games))

    def seats(self, players: int, seat: int) -> tuple[str, ...]:
        """The strategies by seat with the skilled player at ``seat``."""
        return tuple(self.player if s == seat else self.against for s in range(players))

    def to_json(self) -> dict[str, Any]:
        """``{"player", "against", "games"}`` (``run.json``'s and the JSON documents' ``skill``)."""
        return {"player": self.player, "against": self.against, "games": self.games}

    def sentence(self) -> str:
        """What the skill games are, a sentence in the current language (``""``: none)."""
        if not self.games:
            return ""
        return _(
            "Skill index: {games} games for each seat of one `{player}` against "
            "`{against}` at the others."
        ).format(games=number(self.games), player=self.player, against=self.against)


def play_rule_sets(
    sets: list[tuple[str, Rules]],
    games: int,
    seed: int,
    work_dir: Path,
    strategies: str = "heuristic",
    params: list[str] | None = None,
    backend: Backend | None = None,
    chunk: int = 4096,
    progress: Callable[[int], None] | None = None,
    parts: Path | None = None,
    skill: Skill | None = None,
) -> list[tuple[str, Path]]:
    """Play every rule set's games into ``work_dir/runs/NAME``; return ``(name, folder)``.

    The first rule set is the base of the comparison
    (:func:`analysis.compare.compare_folders` takes the returned list as it is). With
    ``parts`` (a run's partial folder, :func:`sim.batch.runner.open_partial`) each rule set
    keeps its finished chunks in ``parts/NAME``, so an interrupted comparison resumes
    where it stopped. With ``skill`` each rule set also plays ``skill.games`` games once
    for every seat of the skilled player (``runs/NAME/skill/seat_S``, chunks in
    ``parts/NAME.skill_S``), the same seed: the same deals under every rule set and seat.
    """
    runs: list[tuple[str, Path]] = []
    for name, rules in sets:
        run_dir = work_dir / "runs" / name
        store = PartStore(parts / name) if parts is not None else None
        spec = RunSpec(
            kind="games", rules=rules, total=games, seed=seed, strategies=strategies,
            params=tuple(params or ()), chunk=chunk,
        )  # fmt: skip
        play_into(spec, run_dir, backend=backend or Backend(), progress=progress, store=store)
        if skill is not None and skill.games > 0:
            for s in range(rules.players):
                store = PartStore(parts / f"{name}.skill_{s}") if parts is not None else None
                spec = RunSpec(
                    kind="games", rules=rules, total=skill.games, seed=seed,
                    strategies=skill.seats(rules.players, s), chunk=chunk,
                )  # fmt: skip
                folder = run_dir / "skill" / f"seat_{s}"
                play_into(
                    spec, folder, backend=backend or Backend(), progress=progress, store=store
                )
        runs.append((name, run_dir))
    return runs


@dataclass(frozen=True)
class DealingRuns:
    """The same rules dealt from a shuffled and from a cut deck (docs/rules.md §2).

    Attributes:
        names: the labels of the shuffled and the cut runs.
        odds: their odds runs (:func:`sim.runs.odds.run_odds`), shuffled first.
        games_dirs: their games run folders, shuffled first.
        strategies: who played (under the cut their play makes the next deck).
    """

    names: tuple[str, str]
    odds: tuple[OddsRun, OddsRun]
    games_dirs: tuple[Path, Path]
    strategies: str


def dealing_comparison(
    rules: Rules,
    odds: OddsRun,
    games_dir: Path,
    games: int,
    seed: int,
    work_dir: Path,
    odds_of: Callable[[Rules], OddsRun],
    strategies: str = "heuristic",
    params: Sequence[str] = (),
    backend: Backend | None = None,
    progress: Callable[[int], None] | None = None,
    parts: Path | None = None,
) -> DealingRuns:
    """Shuffled or cut? The rules' own runs beside the same rules with the other method.

    ``odds`` and ``games_dir`` are the runs already made under ``rules`` (a games run
    of ``games`` games, ``seed``, ``strategies``); the other method's odds come from
    ``odds_of`` and its games are played into ``work_dir`` (chunks kept in ``parts``).
    The same seed deals the same first deal of every game and chain under both, so
    ``thousand compare --rules R --vs R_cut.toml`` with these sizes shows the same
    game effects.
    """
    other_method = "shuffle" if rules.deal.method == "cut" else "cut"
    other = rules.replace(deal__method=other_method)
    other_odds = odds_of(other)
    store = PartStore(parts) if parts is not None else None
    spec = RunSpec(
        kind="games", rules=other, total=games, seed=seed, strategies=strategies,
        params=tuple(params),
    )  # fmt: skip
    play_into(spec, work_dir, backend=backend or Backend(), progress=progress, store=store)
    names = (f"{rules.name} (shuffled)", f"{rules.name} (cut)")
    if other_method == "cut":
        return DealingRuns(names, (odds, other_odds), (games_dir, work_dir), strategies)
    return DealingRuns(names, (other_odds, odds), (work_dir, games_dir), strategies)
