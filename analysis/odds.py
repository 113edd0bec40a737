"""Deal odds of an odds run: estimates with Wilson intervals beside the exact values.

An odds run (:func:`sim.runs.odds.run_odds`) counts how many deals met each odds key;
:func:`odds_result` turns it into the table of ``thousand odds`` (estimate, 95 %
Wilson interval, exact probability, z-score) and the ``odds --json`` document;
:func:`views.odds.write_odds_dir` writes them as ``odds.csv``, ``odds.md``,
``odds.json`` and ``run.json``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import polars as pl

from sim.rules import Rules


class OddsCounts(Protocol):
    """What an odds run hands over (:class:`sim.runs.odds.OddsRun` is one)."""

    @property
    def rules(self) -> Rules:
        """The house rules."""

    @property
    def deals(self) -> int:
        """Deals counted."""

    @property
    def seed(self) -> int:
        """The run's seed."""

    @property
    def hits(self) -> Mapping[str, int]:
        """Deals that met each odds key."""

    @property
    def deals_from(self) -> str:
        """How the deals were made, in words."""

    @property
    def strategies(self) -> tuple[str, ...] | None:
        """Who played the deals under a cut deck; None otherwise."""

    @property
    def started(self) -> str:
        """When the run started (UTC, ISO 8601)."""

    @property
    def seconds(self) -> float:
        """How long the run took."""


@dataclass(frozen=True)
class OddsResult:
    """An odds run with its statistics.

    Attributes:
        run: the run (its counts, rules, seed, timing).
        table: one row per odds key, the columns of ``odds.csv``
            (:func:`analysis.tables.odds_table`).
    """

    run: OddsCounts
    table: pl.DataFrame

    @property
    def rules(self) -> Rules:
        """The run's rules."""
        return self.run.rules

    def entries(self) -> dict[str, dict[str, Any]]:
        """``{key: {estimate, ci_low, ci_high, exact, hits, z}}`` in the order of the keys."""
        return {
            row["key"]: {
                "estimate": row["estimate"],
                "ci_low": row["ci_low"],
                "ci_high": row["ci_high"],
                "exact": row["exact"],
                "hits": row["hits"],
                "z": row["z"],
            }
            for row in self.table.iter_rows(named=True)
        }

    def document(self) -> dict[str, Any]:
        """The ``odds --json`` document (docs/cli.md)."""
        run = self.run
        return {
            "rules": run.rules.name,
            "rules_hash": run.rules.rules_hash,
            "players": run.rules.players,
            "deals": run.deals,
            "seed": run.seed,
            "deals_from": run.deals_from,
            "strategies": None if run.strategies is None else list(run.strategies),
            "odds": self.entries(),
        }


def odds_result(run: OddsCounts) -> OddsResult:
    """The statistics of an odds run: estimates, Wilson intervals, exact values, z-scores."""
    from analysis.exact import exact_odds
    from analysis.tables import odds_table

    return OddsResult(run, odds_table(run.deals, run.hits, exact_odds(run.rules)))
