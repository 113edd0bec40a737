"""The duel job: two strategies (or settings) against each other, duplicate style.

``thousand duel`` and the guide's check call :func:`duel`; a notebook can too::

    from sim.jobs.duel import DuelSpec, contestant, duel
    from sim.rules import load_rules

    spec = DuelSpec(rules=load_rules("classic"), a=contestant("a", "strong"),
                    b=contestant("b", "heuristic"), deals=20_000)
    print(duel(spec).markdown())
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.engine.strategies.registry import StrategyError
from sim.i18n import N_, _
from sim.output import StagedDir, UsageError, now_iso
from sim.rules import Rules
from sim.runs.folder import QUIET, Feedback, check_first_dealer

if TYPE_CHECKING:  # both import polars: loaded when a duel runs, not for every command
    from analysis.duel import DuelResult
    from sim.runs.duel import Contestant, DuelRun


def contestant(flag: str, strategy: str, params: Sequence[str] = ()) -> Contestant:
    """A validated contestant; errors name the flag (``a`` or ``b``).

    Raises:
        StrategyError: an unknown strategy or parameter, prefixed with ``--FLAG``.
    """
    from sim.runs.duel import Contestant

    c = Contestant(strategy.strip(), tuple(params))
    try:
        c.row()
    except StrategyError as exc:
        raise StrategyError(f"--{flag}: {exc}") from None
    return c


@dataclass(frozen=True, kw_only=True)
class DuelSpec:
    """What a duel plays: ``deals`` single deals or ``games`` whole games (one of them).

    Attributes:
        rules: the house rules.
        a: contestant A (:func:`contestant`), at each seat in turn.
        b: contestant B, at the other seats.
        deals: single deals of the hands format.
        games: whole games of the games format.
        seed: the run's seed.
        first_dealer: games: the first dealer of every game (None: drawn per game).
        workers: compiled-code threads (None: every core).
    """

    rules: Rules
    a: Contestant
    b: Contestant
    deals: int | None = None
    games: int | None = None
    seed: int = 0
    first_dealer: int | None = None
    workers: int | None = None

    def check(self) -> None:
        """Refuse a spec that cannot run, before any work.

        Raises:
            UsageError: neither or both sizes, or a first dealer without games.
        """
        if (self.deals is None) == (self.games is None):
            raise UsageError(_("a duel plays either --deals or --games"))
        if self.first_dealer is not None and self.games is None:
            raise UsageError(_("--first-dealer: only with --games"))
        check_first_dealer(self.first_dealer, self.rules.players)


@dataclass(frozen=True)
class Duel:
    """A duel's run, its statistics and how to show them."""

    run: DuelRun
    result: DuelResult
    seconds: float

    def json(self) -> dict[str, Any]:
        """The ``duel.json`` document (``thousand duel --json``)."""
        from analysis.duel import duel_json

        return dict(duel_json(self.result))

    def markdown(self) -> str:
        """The duel's tables in Markdown (what the command prints)."""
        from views.duel import duel_markdown

        return str(duel_markdown(self.result))


def duel(spec: DuelSpec, out: str | Path | None = None, *, feedback: Feedback = QUIET) -> Duel:
    """Play the duel; its summary, per-seat tables and intervals.

    With ``out`` the folder gets the CSV tables, ``duel.md``, ``duel.json``, the
    per-item Parquet file and ``run.json``.
    """
    from analysis.duel import duel_result
    from sim.parallel import set_threads
    from sim.runs.duel import duel_games, duel_hands, write_duel_run
    from views.duel import write_duel_tables

    spec.check()
    set_threads(spec.workers)
    rules = spec.rules
    started = now_iso()
    t0 = time.perf_counter()
    if spec.deals is not None:
        with feedback.bar((rules.players + 1) * spec.deals, "deal", N_("duel deals")) as bar:
            run = duel_hands(rules, spec.a, spec.b, spec.deals, spec.seed, progress=bar.update)
    else:
        assert spec.games is not None
        with feedback.bar(rules.players * spec.games, "game", N_("duel games")) as bar:
            run = duel_games(
                rules, spec.a, spec.b, spec.games, spec.seed, first_dealer=spec.first_dealer,
                progress=bar.update,
            )  # fmt: skip
    result = Duel(run, duel_result(run), time.perf_counter() - t0)
    if out is not None:
        extra = {"started": started, "ended": now_iso(), "seconds": result.seconds}
        with StagedDir(Path(out)) as staged:
            write_duel_tables(result.result, staged.path)
            write_duel_run(run, staged.path, extra)
    return result
