"""The deal-odds job: how often each dealing event happens, simulated beside exact.

``thousand odds`` and the report's odds section call :func:`odds`; a notebook can
too::

    from sim.jobs.odds import OddsSpec, odds
    from sim.rules import load_rules

    result = odds(OddsSpec(rules=load_rules("classic"), deals=200_000))
    print(result.json()["odds"]["hand.any_marriage"])
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.engine.strategies.registry import parse_strategies
from sim.rules import Rules
from sim.runs.folder import QUIET, Feedback, backend_for, compile_notice

if TYPE_CHECKING:  # compiled code, polars and the analysis: loaded when deals are counted
    from analysis.odds import OddsResult
    from sim.runs.odds import OddsRun


@dataclass(frozen=True, kw_only=True)
class OddsSpec:
    """What an odds run deals.

    Attributes:
        rules: the house rules.
        deals: deals to count.
        seed: the run's seed.
        strategies: under ``deal.method = "cut"``, who plays the deals (their play
            makes the next deck); ignored otherwise.
        workers: compiled-code threads (None: every core).
        scheduler: count the chunks on Dask (``"local"`` or ``tcp://HOST:PORT``), or
            None: in this process.
    """

    rules: Rules
    deals: int
    seed: int = 0
    strategies: str | tuple[str, ...] = "heuristic"
    workers: int | None = None
    scheduler: str | None = None


@dataclass(frozen=True)
class Odds:
    """An odds run's statistics."""

    result: OddsResult

    def json(self) -> dict[str, Any]:
        """The ``thousand odds --json`` document."""
        return dict(self.result.document())


def count_odds(
    spec: OddsSpec, feedback: Feedback = QUIET, label: str = "counting deals"
) -> OddsRun:
    """The spec's odds run, counting compiled before the clock."""
    from sim.engine.deal import deal_batch
    from sim.parallel import set_threads
    from sim.runs.odds import count_batch, run_odds

    parse_strategies(spec.strategies, spec.rules.players)  # fail before any work
    set_threads(spec.workers)
    backend = backend_for(spec.workers, spec.scheduler)
    if compile_notice(feedback, "sim.runs.odds._count_kernel"):
        count_batch(deal_batch(8, spec.seed, spec.rules))
    # counting deals returns a few numbers: compiled threads in this process beat worker
    # processes (no start-up, no copies); the counts are the same either way
    with feedback.bar(spec.deals, "deal", label) as bar:
        return run_odds(
            spec.rules,
            spec.deals,
            spec.seed,
            strategies=spec.strategies,
            backend=backend if backend.scheduler else None,
            progress=bar.update,
        )


def odds(spec: OddsSpec, out: str | Path | None = None, *, feedback: Feedback = QUIET) -> Odds:
    """Count the spec's deals; the estimates, intervals, exact values and z-scores.

    With ``out`` the folder gets ``odds.csv``, ``odds.md``, ``odds.json`` and
    ``run.json``.
    """
    from analysis.odds import odds_result
    from views.odds import write_odds_dir

    result = odds_result(count_odds(spec, feedback))
    if out is not None:
        write_odds_dir(result, Path(out))
    return Odds(result)
