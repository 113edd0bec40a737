"""The ladder job: every player against every other, duplicate style, and their ratings.

``thousand ladder`` builds a :class:`LadderSpec` and calls :func:`ladder`; the players'
page (``make players``) shows one::

    from sim.jobs.ladder import LadderSpec, ladder
    from sim.rules import load_rules

    spec = LadderSpec(rules=load_rules("classic"), players=("heuristic", "strong", "pimc"),
                      deals=2000, sampling_deals=200)
    print(ladder(spec).markdown())

Each pair plays one duplicate duel of single deals (:func:`sim.runs.duel.duel_hands`:
the first of the pair at each seat in turn, the second at the others, on the same
deals): ``deals`` of them, or ``sampling_deals`` when a sampling player (``pimc``,
``cheater``) is in the pair. :mod:`analysis.ladder` turns the duels into the table
and the ratings.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.output import StagedDir, UsageError, now_iso, write_manifest
from sim.players import PLAYERS, fast
from sim.rules import Rules
from sim.runs.folder import QUIET, Feedback

if TYPE_CHECKING:
    from analysis.ladder import LadderResult


def every_player() -> tuple[str, ...]:
    """Every registered player, in the records' order."""
    return tuple(PLAYERS)


@dataclass(frozen=True, kw_only=True)
class LadderSpec:
    """What a ladder plays.

    Attributes:
        rules: the house rules.
        players: the players (default: every registered one), at least two.
        deals: the deals of a duel between two fast players.
        sampling_deals: the deals of a duel with a sampling player in it.
        seed: the run's seed (every duel plays the same deals).
        workers: compiled-code threads (None: every core).
    """

    rules: Rules
    players: tuple[str, ...] = field(default_factory=every_player)
    deals: int = 2000
    sampling_deals: int = 200
    seed: int = 0
    workers: int | None = None

    def check(self) -> None:
        """Refuse a ladder that cannot run, before any work.

        Raises:
            UsageError: an unknown or repeated player, or fewer than two.
        """
        unknown = [p for p in self.players if p not in PLAYERS]
        if unknown:
            raise UsageError(
                f"--players: unknown player {unknown[0]} (known: {', '.join(PLAYERS)})"
            )
        if len(set(self.players)) != len(self.players):
            raise UsageError("--players: a player named twice")
        if len(self.players) < 2:
            raise UsageError("--players: a ladder needs at least two players")

    def deals_of(self, a: str, b: str) -> int:
        """The deals of the duel of ``a`` against ``b``."""
        return self.deals if fast(a) and fast(b) else self.sampling_deals


@dataclass(frozen=True)
class Ladder:
    """A ladder played: its tables and how long it took."""

    result: LadderResult
    seconds: float

    def markdown(self) -> str:
        """The ratings and the matrix of duels in Markdown (what the command prints)."""
        from views.ladder import ladder_markdown

        return ladder_markdown(self.result)

    def json(self) -> dict[str, Any]:
        """The ``ladder --json`` document."""
        from analysis.ladder import ladder_json

        return ladder_json(self.result)


def ladder(
    spec: LadderSpec, out: str | Path | None = None, *, feedback: Feedback = QUIET
) -> Ladder:
    """Play a duel for every pair of ``spec.players``; the ratings and the table.

    With ``out`` the folder gets ``ladder_pairs.csv``, ``ladder_ratings.csv``,
    ``ladder.md``, ``ladder.json`` and ``run.json``.
    """
    from analysis.ladder import PairDuel, ladder_result
    from sim.parallel import set_threads
    from sim.runs.duel import Contestant, duel_hands
    from views.ladder import write_ladder_tables

    spec.check()
    set_threads(spec.workers)
    pairs = list(itertools.combinations(spec.players, 2))
    total = sum((spec.rules.players + 1) * spec.deals_of(a, b) for a, b in pairs)
    started = now_iso()
    t0 = time.perf_counter()
    duels = []
    with feedback.bar(total, "deal", "ladder deals") as bar:
        for a, b in pairs:
            run = duel_hands(spec.rules, Contestant(a), Contestant(b), spec.deals_of(a, b),
                             spec.seed, progress=bar.update)  # fmt: skip
            items = run.items
            duels.append(PairDuel(a, b, items["score_diff"].to_numpy(),
                                  items["margin_diff"].to_numpy()))  # fmt: skip
    result = Ladder(ladder_result(spec.players, duels), time.perf_counter() - t0)
    if out is not None:
        with StagedDir(Path(out)) as staged:
            write_ladder_tables(result.result, staged.path)
            write_manifest(
                staged.path, spec.rules, spec.seed,
                {"deals": spec.deals, "sampling_deals": spec.sampling_deals,
                 "pairs": len(pairs)},
                command="ladder", players=list(spec.players), started=started,
                ended=now_iso(), seconds=result.seconds,
            )  # fmt: skip
    return result


__all__ = ["Ladder", "LadderSpec", "every_player", "ladder"]
