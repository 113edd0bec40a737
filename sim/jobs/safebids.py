"""The safe-bid job: every dealt hand played as the declarer's, by each player, and the tables.

``thousand safebids`` and the report's safe-bid section build a :class:`SafeBidsSpec`
and call :func:`safebids`; a notebook can do the same::

    from sim.jobs.safebids import SafeBidsSpec, safebids
    from sim.rules import load_rules

    spec = SafeBidsSpec(rules=load_rules("classic"), players=("strong", "par"), deals=2000,
                        sample=20)
    result = safebids(spec)
    print(result.markdown())
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.engine.strategies.registry import STRATEGIES, parse_params
from sim.output import UsageError, now_iso
from sim.players import ADVISORS, PLAYERS, fast
from sim.rules import Rules, did_you_mean
from sim.runs.folder import QUIET, Feedback, compile_notice

if TYPE_CHECKING:  # polars and the analysis: loaded when the hands are played
    from analysis.safebids import SafeBidResult

DEFAULT_PLAYERS = ADVISORS  # the tables of every player an advice may rest on
DEFAULT_PLAYERS_TEXT = ",".join(DEFAULT_PLAYERS)  # as the commands' --players take them
# players run on the spec's ``deals`` (their records' speed ``fast``); the others (the
# sampling players, the par) on its ``sample``
FAST = tuple(name for name in PLAYERS if fast(name))


@dataclass(frozen=True, kw_only=True)
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

    def check(self) -> None:
        """Refuse a spec that cannot run, before any work.

        Raises:
            UsageError: a held-out seed equal to the seed.
            StrategyError: an unknown parameter of the strategies.
        """
        strategies = [p for p in self.players if p != "par"]
        if strategies:
            parse_params(strategies, list(self.params))
        if self.holdout_seed is not None and self.holdout_seed == self.seed:
            raise UsageError("--holdout-seed: must differ from --seed")


@dataclass(frozen=True)
class SafeBids:
    """A safe-bid run's tables and how to show them.

    Attributes:
        result: the tables, curves and held-out check.
        seconds: how long the hands took to play.
    """

    result: SafeBidResult
    seconds: float

    def json(self) -> dict[str, Any]:
        """Every table as one JSON document (``thousand safebids --json``)."""
        from analysis.safebids import safebids_json

        return dict(safebids_json(self.result))

    def markdown(self) -> str:
        """The tables in Markdown (what the command prints)."""
        from views.safebids import safebids_markdown

        return str(safebids_markdown(self.result))


def parse_players(text: str) -> list[str]:
    """``"heuristic,pimc,par"`` → the names, checked (a strategy or ``par``).

    Raises:
        UsageError: an unknown or repeated name.
    """
    from sim.runs.declarer import PAR

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


def safebids(
    spec: SafeBidsSpec,
    out: str | Path | None = None,
    *,
    feedback: Feedback = QUIET,
    label: str = "hands declared",
) -> SafeBids:
    """Play every player's hands on the spec's seeds; the safe-bid tables.

    With ``out`` the folder gets the tables (CSV, Markdown, Parquet), the figures and
    ``run.json``.

    Returns:
        The tables, curves and held-out check (:class:`analysis.safebids.SafeBidResult`)
        and the seconds they took.
    """
    from analysis.safebids import SafeBidRun, build_result
    from sim.engine.deal import n_hands
    from sim.parallel import max_threads, set_threads
    from sim.runs.declarer import PAR, declarer_functions, run_items, warm_declarer
    from views.safebids import write_safebids

    spec.check()
    set_threads(spec.workers)
    if compile_notice(feedback, *declarer_functions(spec.players)):
        warm_declarer(spec.rules, spec.players, spec.params)  # before the clock starts
    workers = spec.workers or max_threads()
    seeds = spec.seeds()
    sizes = spec.sizes()
    total = sum(sizes[p] * n_hands(spec.rules.players) * len(seeds) for p in spec.players)
    items: dict[tuple[str, int], dict] = {}
    started = now_iso()
    t0 = time.perf_counter()
    with feedback.bar(total, "hand", label) as bar:
        for seed in seeds:
            for p in spec.players:
                params = spec.params if p != PAR else ()
                items[(p, seed)] = run_items(
                    spec.rules, p, sizes[p], seed, params, workers=workers, progress=bar.update
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
    result = SafeBids(build_result(run), time.perf_counter() - t0)
    if out is not None:
        extra = {"started": started, "ended": now_iso(), "seconds": result.seconds}
        write_safebids(result.result, Path(out), extra)
    return result


__all__ = [
    "DEFAULT_PLAYERS",
    "DEFAULT_PLAYERS_TEXT",
    "FAST",
    "SafeBids",
    "SafeBidsSpec",
    "parse_players",
    "safebids",
]
