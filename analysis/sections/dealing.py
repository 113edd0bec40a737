"""The report's "Shuffled or cut?" section: the same rules dealt both ways."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

import polars as pl

from analysis import plots
from analysis.compare import (
    compare_rates,
)
from analysis.odds import OddsCounts
from analysis.pages import (
    Section,
    Text,
    interval_column,
    is_missing,
)
from sim.odds_keys import ODDS_KEYS

# The deal odds and game metrics the "Shuffled or cut?" figure shows, in this order.
DEALING_HEADLINES = (
    "hand.any_marriage",
    "hand_talon.any_marriage",
    "hand.reshuffle",
    "talon.reshuffle",
    "deal.any_reshuffle",
    "game_length",
    "declarer_make_rate",
    "concession_rate",
)


def _excludes_zero(row: Mapping[str, Any]) -> bool:
    low, high = row["diff_ci_low"], row["diff_ci_high"]
    return not (is_missing(low) or is_missing(high)) and (low > 0 or high < 0)


def _gap(row: Mapping[str, Any], percent: bool = False) -> str:
    """``other against base (diff [low, high])`` for one compared row.

    ``percent``: the row is a share, shown in percent with its difference in points.
    A value without an interval (from one game) is shown alone.
    """
    scale, unit, points = (100.0, " %", " points") if percent else (1.0, "", "")

    def value(
        est: float | None, low: float | None, high: float | None, unit: str, sign: str = ""
    ) -> str:
        if est is None or is_missing(est):
            return "—"
        text = f"{scale * est:{sign}.1f}{unit}"
        if low is None or high is None or is_missing(low) or is_missing(high):
            return text
        return f"{text} [{scale * low:{sign}.1f}, {scale * high:{sign}.1f}]"

    other = value(row["other"], row["other_ci_low"], row["other_ci_high"], unit)
    base = value(row["base"], row["base_ci_low"], row["base_ci_high"], unit)
    diff = value(row["diff"], row["diff_ci_low"], row["diff_ci_high"], points, "+")
    return f"{other} against {base} ({diff})"


class DealingPlay(Protocol):
    """The runs of "Shuffled or cut?" (:class:`sim.compare.DealingRuns` is one)."""

    @property
    def names(self) -> tuple[str, str]:
        """The labels of the shuffled and the cut run."""

    @property
    def odds(self) -> tuple[OddsCounts, OddsCounts]:
        """Their odds runs, shuffled first."""

    @property
    def games_dirs(self) -> tuple[Path, Path]:
        """Their games run folders, shuffled first."""

    @property
    def strategies(self) -> str:
        """Who played."""


def dealing_section(
    names: tuple[str, str],
    odds: tuple[OddsCounts, OddsCounts],
    games: pl.DataFrame,
    strategies: str,
) -> Section:
    """Shuffled or cut? The same rules dealt from a shuffled and from a cut deck.

    Args:
        names: labels of the shuffled and the cut run.
        odds: their odds runs (:func:`sim.odds.run_odds`), shuffled first.
        games: the :func:`analysis.compare.compare_games` table of their games runs
            (base: shuffled).
        strategies: who played (under the cut their play makes the next deck).
    """
    shuffled, cut = names
    rates = compare_rates(
        shuffled, (odds[0].deals, odds[0].hits), cut, (odds[1].deals, odds[1].hits), ODDS_KEYS
    )
    by_key = {r["metric"]: r for r in rates.iter_rows(named=True)}
    by_metric = {r["metric"]: r for r in games.iter_rows(named=True)}
    differing = sum(_excludes_zero(r) for r in by_key.values())
    game_diffs = sum(_excludes_zero(r) for r in by_metric.values())
    changed = differing + game_diffs > 0
    verdict = (
        "**Not shuffling changes the game.**"
        if changed
        else "**At these sample sizes, not shuffling does not measurably change the game.**"
    )
    sec = Section("dealing", "Shuffled or cut?")
    share = {k: _gap(by_key[k], percent=True) for k in DEALING_HEADLINES if k in by_key}
    sec.blocks.append(
        Text(
            f"{verdict} Dealt from the previous deal's cards as they lie (cut once, dealt one "
            f"card at a time), a deal meets some reshuffle condition in "
            f"{share['deal.any_reshuffle']} of deals, cut against shuffled; forehand holds a "
            f"marriage in {share['hand.any_marriage']}; forehand's hand and the talon hold one "
            f"in {share['hand_talon.any_marriage']}. {differing} of {len(by_key)} deal "
            f"quantities and {game_diffs} of {len(by_metric)} game measures differ by more "
            f"than their 95 % interval. In whole games, games last "
            f"{_gap(by_metric['game_length'])} played deals and declarers made "
            f"{_gap(by_metric['declarer_make_rate'], percent=True)} of played contracts."
        )
    )
    sec.blocks.append(
        Text(
            f"How it was measured: the same rules, seed and sizes under `deal.method = "
            f'"shuffle"` ({shuffled}) and `"cut"` ({cut}); every deal played by '
            f"**{strategies}** on every seat — under the cut their play decides the next "
            "deck, so the cut numbers describe this player's games. Deal odds count each "
            f"deal of {odds[0].deals:,} (under the cut: chains of "
            f"{odds[1].rules.deal.cut_chain} deals from one shuffle, as `thousand "
            "odds` deals them); their differences carry the interval of two independent "
            "samples, which is conservative (the two runs share every chain's first deal). "
            "The game measures are those of `thousand compare` on the same games (common "
            "random numbers: each game's first deal is the same)."
        )
    )
    figure_rows = pl.concat(
        [
            rates.filter(pl.col("metric").is_in(DEALING_HEADLINES)).select(
                "metric", "meaning", "rules", "vs", "diff", "diff_ci_low", "diff_ci_high"
            ),
            games.filter(pl.col("metric").is_in(DEALING_HEADLINES)).select(
                "metric", "meaning", "rules", "vs", "diff", "diff_ci_low", "diff_ci_high"
            ),
        ]
    )
    order = {m: i for i, m in enumerate(DEALING_HEADLINES)}
    figure_rows = figure_rows.sort(pl.col("metric").replace_strict(order, return_dtype=pl.Int64))
    sec.add_figure(
        "dealing.png",
        plots.plot_compare(figure_rows, f"Cut against shuffled deck: {cut} − {shuffled}"),
        "Cut against shuffled deck: differences with 95 % intervals",
    )
    odds_shown = rates.select(
        "metric",
        "meaning",
        interval_column(rates, "base", "base_ci_low", "base_ci_high", "shuffled [95 % CI]"),
        interval_column(rates, "other", "other_ci_low", "other_ci_high", "cut [95 % CI]"),
        interval_column(rates, "diff", "diff_ci_low", "diff_ci_high", "cut − shuffled [95 % CI]"),
    )
    sec.add_table("Deal odds, shuffled against cut", "", odds_shown, "dealing_odds.csv", rates)
    games_shown = games.select(
        "metric",
        "meaning",
        interval_column(games, "base", "base_ci_low", "base_ci_high", "shuffled [95 % CI]"),
        interval_column(games, "other", "other_ci_low", "other_ci_high", "cut [95 % CI]"),
        interval_column(games, "diff", "diff_ci_low", "diff_ci_high", "cut − shuffled [95 % CI]"),
        "games",
    )
    sec.add_table("Whole games, shuffled against cut", "", games_shown, "dealing_games.csv", games)
    return sec
