"""The safe-bid job: every dealt hand played as the declarer's, by each player, and the tables.

``thousand safebids`` and the report's safe-bid section build a :class:`SafeBidsSpec`
and call :func:`safebids`; a notebook can do the same::

    from sim.jobs.safebids import SafeBidsSpec, safebids
    from sim.rules import load_rules

    result = safebids(SafeBidsSpec(load_rules("classic"), ("strong", "par"), 2000, 20))
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from sim.output import UsageError
from sim.rules import Rules, did_you_mean
from sim.runfolder import Progress

DEFAULT_PLAYERS = ("strong", "heuristic", "pimc", "par")
DEFAULT_PLAYERS_TEXT = ",".join(DEFAULT_PLAYERS)  # as the commands' --players take them
# players run on the spec's ``deals``; the others (pimc, the par) on its ``sample``
FAST = ("strong", "heuristic", "heuristic_v1", "random", "first")


@dataclass(frozen=True)
class SafeBidsSpec:
    """What a safe-bid run plays.

    Attributes:
        rules: the house rules.
        players: strategy names and ``"par"`` (the open-card par), each a column.
        deals: deals of the fast players (:data:`FAST`), per seed.
        sample: deals of the slow ones (``pimc``, the par), per seed.
        seed: the run's seed (the tables).
        holdout_seed: the held-out check's seed (None: none).
        params: ``STRATEGY.NAME=VALUE`` settings of the strategies (not of the par).
        workers: worker threads (None: every core).
    """

    rules: Rules
    players: tuple[str, ...] = DEFAULT_PLAYERS
    deals: int = 40_000
    sample: int = 100
    seed: int = 0
    holdout_seed: int | None = 1
    params: tuple[str, ...] = ()
    workers: int | None = None

    def sizes(self) -> dict[str, int]:
        """Deals per seed of each player."""
        return {p: self.deals if p in FAST else self.sample for p in self.players}

    def seeds(self) -> list[int]:
        """The seeds played: the run's, then the held-out one."""
        return [self.seed] if self.holdout_seed is None else [self.seed, self.holdout_seed]


def parse_players(text: str) -> list[str]:
    """``"heuristic,pimc,par"`` → the names, checked (a strategy or ``par``).

    Raises:
        UsageError: an unknown or repeated name.
    """
    from sim.declarer import PAR
    from sim.engine.strategies.registry import STRATEGIES

    names = [t.strip() for t in text.split(",") if t.strip()]
    if not names:
        raise UsageError("--players: give at least one player")
    for name in names:
        if name != PAR and name not in STRATEGIES:
            known = ", ".join([*STRATEGIES, PAR])
            hint = did_you_mean(name, [*STRATEGIES, PAR])
            raise UsageError(f"--players: unknown player {name!r}{hint} (known: {known})")
    if len(set(names)) != len(names):
        raise UsageError(f"--players: a player is named twice in {text!r}")
    return names


def safebids(spec: SafeBidsSpec, progress: Progress | None = None) -> Any:
    """Play every player's hands on the spec's seeds; the safe-bid result.

    Returns:
        :class:`analysis.safebids.SafeBidResult` (tables, curves, the held-out check).
    """
    from analysis.safebids import SafeBidRun, build_result
    from sim.declarer import PAR, run_items
    from sim.engine.deal import n_hands
    from sim.parallel import max_threads

    workers = spec.workers or max_threads()
    seeds = spec.seeds()
    sizes = spec.sizes()
    total = sum(sizes[p] * n_hands(spec.rules.players) * len(seeds) for p in spec.players)
    items: dict[tuple[str, int], dict] = {}
    with progress(total, "hand") if progress is not None else nullcontext() as bar:
        update = bar.update if bar is not None else None
        for seed in seeds:
            for p in spec.players:
                params = spec.params if p != PAR else ()
                items[(p, seed)] = run_items(
                    spec.rules, p, sizes[p], seed, params, workers=workers, progress=update
                )
    run = SafeBidRun(
        rules=spec.rules,
        players=list(spec.players),
        params=list(spec.params),
        seed=spec.seed,
        holdout_seed=spec.holdout_seed,
        deals=sizes,
        items=items,
    )
    return build_result(run)


__all__ = [
    "DEFAULT_PLAYERS",
    "DEFAULT_PLAYERS_TEXT",
    "FAST",
    "SafeBidsSpec",
    "parse_players",
    "safebids",
]
