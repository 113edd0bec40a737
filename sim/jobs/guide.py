"""The strategy-guide job: what to bid, give away and concede, checked by playing it.

``thousand guide`` and the report's guide section call :func:`build_guide`; a
notebook can too::

    from sim.jobs.guide import GuideSpec, build_guide
    from sim.rules import load_rules

    book = build_guide(GuideSpec(rules=load_rules("classic"), deals=5000, duel_deals=2000))
    print(book.sentence())

It plays in two stages. First the runs (:func:`collect_runs`): the advisor's class
tables (:func:`sim.jobs.advice_tables.load_tables`, built once per rule set and kept),
every dealt hand as the declarer's (:mod:`sim.runs.declarer`), hands in ordinary
auctions, whole games and the odds, all by the guide's player (``strong``). Then the
feedback stage (:func:`check_guide`): the guide's tables (:mod:`analysis.guide`) become
the settings of the ``guide`` player (:mod:`sim.engine.strategies.guide`: its bid chart
the class tables' choices pooled over its classes), which duels the player it measured
on the same deals.
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.i18n import LANGS, _, number, speaking
from sim.output import now_iso
from sim.rules import Rules
from sim.runs.folder import QUIET, Feedback

if TYPE_CHECKING:  # polars and the analysis: loaded when a guide is built, not for every command
    import polars as pl

    from analysis.guide import GuideRuns, GuideTables
    from sim.engine.api import HandsBatch
    from sim.jobs.advice_tables import ClassTables
    from views.pages import Section


SIZES = {"deals": 50_000, "hands": 50_000, "games": 2_000, "odds_deals": 200_000}
"""The guide's default sizes: ``thousand guide``'s and, capped by its own, the report's
guide (:meth:`sim.jobs.report.ReportSpec.guide_spec`), so that with the same rules and seed
both show the same numbers and the same page for players."""
DUEL_DEALS = 20_000
"""Deals of the guide player's duel by default (``thousand guide`` and the report)."""


@dataclass(frozen=True, kw_only=True)
class GuideSpec:
    """What a guide plays.

    Attributes:
        rules: the house rules.
        seed: the run's seed (of every run and of the duel).
        deals: deals whose every hand is played as the declarer's.
        hands: hands in ordinary auctions.
        games: whole games.
        odds_deals: deals for the talon's reshuffle odds.
        risk: the make rate of the guide's safe bids (how safe a bid is, not how high).
        duel_deals: deals of the guide player's duel (None: no duel).
        workers: worker threads (None: every core).
    """

    rules: Rules
    seed: int = 0
    deals: int = SIZES["deals"]
    hands: int = SIZES["hands"]
    games: int = SIZES["games"]
    odds_deals: int = SIZES["odds_deals"]
    risk: float = 0.75
    duel_deals: int | None = DUEL_DEALS
    workers: int | None = None


@dataclass(frozen=True)
class Guide:
    """A guide's tables, its duel and how to show them.

    Attributes:
        spec: what the guide played.
        guide: the guide's tables and the ``guide`` player's parameters.
        duel: the summary of the guide player's duel, or None (no duel).
        seconds: how long the guide took.
    """

    spec: GuideSpec
    guide: GuideTables
    duel: pl.DataFrame | None
    seconds: float

    def json(self) -> dict[str, Any]:
        """Every table of the guide as JSON rows (``thousand guide --json``)."""
        from analysis.guide import guide_json

        return dict(guide_json(self.guide, self.duel))

    def sentence(self) -> str:
        """One sentence on the guide player's duel (empty without a duel)."""
        from views.guide import duel_sentence

        if self.duel is None or self.spec.duel_deals is None:
            return ""
        return str(duel_sentence(self.duel, self.spec.duel_deals, self.spec.seed))

    def written(self, out: str | Path) -> str:
        """The line that says where the pages went (``thousand guide``'s first line)."""
        return _("strategy guide for {rules} written to {where} (and index.html)").format(
            rules=self.spec.rules.name, where=f"{out}/guide.md"
        )

    def section(self) -> Section:
        """The guide as one section of a report (:func:`views.guide.guide_report_section`)."""
        from views.guide import guide_report_section

        return guide_report_section(
            self.guide, self.duel, self.spec.duel_deals or 0, self.spec.seed
        )

    def write(self, out: str | Path, extra: dict[str, Any], player_page: bool = False) -> None:
        """Write ``guide.md``, ``index.html``, the CSVs, figures and ``run.json`` into ``out``.

        With ``player_page`` also ``player.html`` and ``player.md``, the page for players
        (:mod:`views.player`), and ``advisor.html``, the offline page to tap a hand
        (:func:`sim.jobs.advice_tables.write_advisor_pages`).
        """
        from sim.jobs.advice_tables import write_advisor_pages
        from views.guide import write_guide
        from views.player import write_player_page

        def player(folder: Path) -> None:
            write_player_page(folder, self.guide, self.spec.rules.name)
            write_advisor_pages(self.spec.rules, folder, workers=self.spec.workers)

        write_guide(self.guide, Path(out), self.duel, self.spec.duel_deals or 0, self.spec.seed,
                    extra, player if player_page else None)  # fmt: skip

    def player_pages(self, folder: Path) -> None:
        """Write the page for players in every language: ``player-LANG.html`` and ``.md``.

        And the offline page to tap a hand in every language, ``advisor-LANG.html``
        (:func:`sim.jobs.advice_tables.write_advisor_pages`).
        """
        from sim.jobs.advice_tables import write_advisor_pages
        from views.player import write_player_page

        for lang in LANGS:
            with speaking(lang):
                write_player_page(folder, self.guide, self.spec.rules.name, f"player-{lang}")
        write_advisor_pages(self.spec.rules, folder, LANGS, workers=self.spec.workers)

    def player_section(self) -> Section:
        """The page for players as a report section (:func:`views.player.player_section`)."""
        from views.player import player_section

        return player_section(self.guide)


def collect_runs(
    spec: GuideSpec,
    feedback: Feedback = QUIET,
    items: dict[str, Any] | None = None,
    odds: pl.DataFrame | None = None,
    tables: ClassTables | None = None,
) -> GuideRuns:
    """The first stage: the runs of the guide (class tables, declarer items, hands, games, odds).

    ``items`` (the guide player's :func:`sim.runs.declarer.run_items` of the spec's seed and
    ``deals``) and ``odds`` (an odds table of the same rules) are used when given, so
    that a report does not play them twice. The class tables are the guide player's
    (:func:`sim.jobs.advice_tables.load_tables`: kept once built, the same the advisor,
    its pages and the report read), or ``tables`` when given.

    Returns:
        The guide's runs.
    """
    import numpy as np

    from analysis.guide import GUIDE_PLAYER, GuideRuns
    from analysis.odds import odds_result
    from sim.engine import play_hands
    from sim.engine.game import play_games
    from sim.jobs.advice_tables import load_tables
    from sim.parallel import max_threads
    from sim.runs.declarer import run_items
    from sim.runs.games import games_frame
    from sim.runs.odds import run_odds

    rules, seed = spec.rules, spec.seed

    def say(message: str) -> None:
        feedback.say(f"guide: {message}")

    if tables is None:
        tables = load_tables(rules, GUIDE_PLAYER, _Prefixed(feedback), spec.workers)
    if items is None:
        say(
            _("{deals} deals, every hand as the declarer's ({player})").format(
                deals=number(spec.deals), player=GUIDE_PLAYER
            )
        )
        items = run_items(rules, GUIDE_PLAYER, spec.deals, seed,
                          workers=spec.workers or max_threads())  # fmt: skip
    say(_("{hands} hands in ordinary auctions").format(hands=number(spec.hands)))
    batch = play_hands(rules, spec.hands, seed, (GUIDE_PLAYER,), first_deals=True)
    first = batch.column("redeals") == 0  # the first deal was played: its cards are known
    dealt = batch.dealt[:, 0].astype(np.int64)
    cols = {c: np.asarray(batch.column(c))[first] for c in ("declarer", "discard_1", "discard_2")}
    for s in range(min(rules.players, 3)):
        cols[f"declared_{s}"] = np.asarray(batch.column(f"declared_{s}"))[first]
    cols["dealt"] = dealt[first, :3]
    cols["talon"] = dealt[first, 3]
    deals = played_deals(batch, rules.players)
    say(_("{games} games").format(games=number(spec.games)))
    games = games_frame(play_games(rules, spec.games, seed, (GUIDE_PLAYER,)))
    if odds is None:
        say(_("{deals} deals for the talon's odds").format(deals=number(spec.odds_deals)))
        odds = odds_result(run_odds(rules, spec.odds_deals, seed, (GUIDE_PLAYER,))).table
    return GuideRuns(
        rules=rules, seed=seed, risk=spec.risk, items=items, hands=cols, games=games, odds=odds,
        deals=deals, choices=tables.choices, verdicts=tables.verdicts, table_hands=tables.hands,
        table_seed=tables.seed,
    )  # fmt: skip


class _Prefixed(Feedback):
    """``feedback`` with every notice marked as the guide's (``guide: ...``)."""

    def __init__(self, feedback: Feedback) -> None:
        self.inner = feedback

    def bar(self, total: int, unit: str, label: str) -> AbstractContextManager[Any]:
        return self.inner.bar(total, unit, label)

    def say(self, text: str) -> None:
        self.inner.say(f"guide: {text}")


def played_deals(batch: HandsBatch, players: int) -> pl.DataFrame:
    """Every played deal of a hands batch, as :func:`analysis.guide.events_table` reads it.

    Columns: ``at_100`` (forehand plays its forced 100), ``made``, ``declarer_delta``
    (the declarer's deal score) and ``bolts`` (the deal's bolts).
    """
    import numpy as np
    import polars as pl

    decl = np.asarray(batch.column("declarer")).astype(np.int64)
    delta = np.stack([np.asarray(batch.column(f"delta_{s}")) for s in range(players)], axis=1)
    bolts = sum(np.asarray(batch.column(f"bolt_{s}")).astype(np.int64) for s in range(players))
    return pl.DataFrame(
        {
            "at_100": np.asarray(batch.column("at_100")).astype(bool),
            "made": np.asarray(batch.column("made")).astype(bool),
            "declarer_delta": delta[np.arange(len(decl)), decl].astype(np.int64),
            "bolts": np.asarray(bolts, dtype=np.int64),
        }
    )


def check_guide(spec: GuideSpec, runs: GuideRuns) -> tuple[GuideTables, pl.DataFrame | None]:
    """The second stage: the guide's tables, then its player's duel against ``strong``.

    The tables (:func:`analysis.guide.guide_tables`) become the ``guide`` player's
    settings, which plays a duplicate duel of ``duel_deals`` deals against the player
    the tables measured.

    Returns:
        The guide's tables and the duel's summary (None without a duel).
    """
    from analysis.duel import duel_result
    from analysis.guide import GUIDE_PLAYER, guide_tables
    from sim.runs.duel import Contestant, duel_hands

    guide = guide_tables(runs)
    if spec.duel_deals is None:
        return guide, None
    guide_player = Contestant("guide", tuple(guide.params()))
    run = duel_hands(spec.rules, guide_player, Contestant(GUIDE_PLAYER), spec.duel_deals,
                     spec.seed)  # fmt: skip
    return guide, duel_result(run).summary


def build_guide(
    spec: GuideSpec,
    out: str | Path | None = None,
    *,
    feedback: Feedback = QUIET,
    items: dict[str, Any] | None = None,
    odds: pl.DataFrame | None = None,
    player_page: bool = False,
) -> Guide:
    """Play the guide's runs, build its tables and check them by a duel.

    With ``out`` the folder gets ``guide.md``, ``index.html``, the CSVs, figures,
    ``guide_params.txt`` and ``run.json`` (with ``player_page`` also ``player.html``
    and ``player.md``). ``items`` and ``odds`` are runs a report already made
    (:func:`collect_runs`).
    """
    from sim.parallel import set_threads

    set_threads(spec.workers)
    started = now_iso()
    t0 = time.perf_counter()
    runs = collect_runs(spec, feedback, items, odds)
    guide, duel = check_guide(spec, runs)
    result = Guide(spec, guide, duel, time.perf_counter() - t0)
    if out is not None:
        extra = {"started": started, "ended": now_iso(), "seconds": result.seconds}
        result.write(out, extra, player_page)
    return result
