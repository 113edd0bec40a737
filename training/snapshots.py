"""The decision states of seeded deals, the raw material of the fits (and of a benchmark).

``benchmarks/pimc_decisions.py`` times the sampling player on the same states.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sim.engine import decision_snapshots
from sim.engine.actions import Decision
from sim.rules import Rules

KINDS = (Decision.PLAY, Decision.DISCARD, Decision.CONTRACT, Decision.CONCEDE)
"""The decisions collected: card play, the discard, the contract and the concession."""


def snapshots(
    rules: Rules,
    deals: int,
    seed: int,
    strategies: tuple[str, ...] = ("heuristic",) * 3,
    params: tuple[str, ...] = (),
) -> Iterator[Any]:
    """The decision states of ``deals`` deals played by ``strategies``, of the :data:`KINDS`.

    Deal ``k`` plays on the random stream of seed ``seed * 1_000_003 + k``; ``params``:
    the players' ``STRATEGY.NAME=VALUE`` settings.
    """
    for _k, snap in decision_snapshots(
        rules, deals, seed, strategies, KINDS, seed * 1_000_003, params=params
    ):
        yield snap
