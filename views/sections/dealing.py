"""The report's "Shuffled or cut?" section: the same rules dealt both ways."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

import polars as pl

from analysis.compare import compare_rates
from analysis.odds import OddsCounts
from sim.i18n import N_, _, number
from sim.odds_keys import ODDS_KEYS
from views import plots
from views.numbers import interval
from views.pages import Section, Text, interval_column, is_missing
from views.sections.compare import measure_words

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
    scale, unit = (100.0, " %") if percent else (1.0, "")

    def one(v: float, signed: bool) -> str:
        return ("+" if signed and v >= 0 else "") + number(scale * v, 1)

    def value(
        est: float | None, low: float | None, high: float | None, unit: str, signed: bool = False
    ) -> str:
        if est is None or is_missing(est):
            return "—"
        text = one(est, signed) + unit
        if low is None or high is None or is_missing(low) or is_missing(high):
            return text
        return interval(text, one(low, signed), one(high, signed))

    other = value(row["other"], row["other_ci_low"], row["other_ci_high"], unit)
    base = value(row["base"], row["base_ci_low"], row["base_ci_high"], unit)
    diff = value(row["diff"], row["diff_ci_low"], row["diff_ci_high"], "", signed=True)
    if percent:
        return _("{other} against {base} ({diff} points)").format(other=other, base=base, diff=diff)
    return _("{other} against {base} ({diff})").format(other=other, base=base, diff=diff)


class DealingPlay(Protocol):
    """The runs of "Shuffled or cut?" (:class:`sim.runs.compare.DealingRuns` is one)."""

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
        odds: their odds runs (:func:`sim.runs.odds.run_odds`), shuffled first.
        games: the :func:`analysis.compare.compare_games` table of their games runs
            (base: shuffled).
        strategies: who played (under the cut their play makes the next deck).
    """
    shuffled, cut = names
    rules_name = odds[0].rules.name
    shown_names = {  # the runs' labels as shown
        shuffled: _("{rules} (shuffled)").format(rules=rules_name),
        cut: _("{rules} (cut)").format(rules=rules_name),
    }
    rates = compare_rates(
        shuffled, (odds[0].deals, odds[0].hits), cut, (odds[1].deals, odds[1].hits), ODDS_KEYS
    )
    by_key = {r["metric"]: r for r in rates.iter_rows(named=True)}
    by_metric = {r["metric"]: r for r in games.iter_rows(named=True)}
    differing = sum(_excludes_zero(r) for r in by_key.values())
    game_diffs = sum(_excludes_zero(r) for r in by_metric.values())
    changed = differing + game_diffs > 0
    verdict = (
        _("**Not shuffling changes the game.**")
        if changed
        else _("**At these sample sizes, not shuffling does not measurably change the game.**")
    )
    sec = Section("dealing", _("Shuffled or cut?"))
    share = {k: _gap(by_key[k], percent=True) for k in DEALING_HEADLINES if k in by_key}
    sec.blocks.append(
        Text(
            _(
                "{verdict} Dealt from the previous deal's cards as they lie (cut once, dealt "
                "one card at a time), a deal meets some reshuffle condition in {reshuffle} of "
                "deals, cut against shuffled; forehand holds a marriage in {marriage}; "
                "forehand's hand and the talon hold one in {talon}. {differing} of {keys} "
                "deal quantities and {game_diffs} of {measures} game measures differ by more "
                "than their 95 % interval. In whole games, games last {length} played deals "
                "and declarers made {made} of played contracts."
            ).format(
                verdict=verdict,
                reshuffle=share["deal.any_reshuffle"],
                marriage=share["hand.any_marriage"],
                talon=share["hand_talon.any_marriage"],
                differing=differing,
                keys=len(by_key),
                game_diffs=game_diffs,
                measures=len(by_metric),
                length=_gap(by_metric["game_length"]),
                made=_gap(by_metric["declarer_make_rate"], percent=True),
            )
        )
    )
    sec.blocks.append(
        Text(
            _(
                "How it was measured: the same rules, seed and sizes under "
                '`deal.method = "shuffle"` ({shuffled}) and `deal.method = "cut"` ({cut}); '
                "every deal played by **{strategies}** on every seat — under the cut their "
                "play decides the next deck, so the cut numbers describe this player's "
                "games. The deal odds count {deals} deals each way (under the cut: chains "
                "of {chain} deals from one shuffle, as `thousand odds` deals them); their "
                "differences carry the interval of two independent samples, which is "
                "conservative (the two runs share every chain's first deal). The game "
                "measures are those of `thousand compare` on the same games (common random "
                "numbers: each game's first deal is the same)."
            ).format(
                shuffled=shown_names[shuffled],
                cut=shown_names[cut],
                strategies=strategies,
                deals=number(odds[0].deals),
                chain=odds[1].rules.deal.cut_chain,
            )
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
    figure_rows = figure_rows.with_columns(
        pl.Series(
            "meaning",
            [measure_words(m, w) for m, w in figure_rows.select("metric", "meaning").iter_rows()],
            dtype=pl.String,
        ),
        pl.col("rules").replace(shown_names),
        pl.col("vs").replace(shown_names),
    )
    sec.add_figure(
        "dealing.png",
        plots.plot_compare(
            figure_rows,
            _("Cut against shuffled deck: {cut} − {shuffled}").format(
                cut=shown_names[cut], shuffled=shown_names[shuffled]
            ),
        ),
        _("Cut against shuffled deck: differences with 95 % intervals"),
    )

    def shown(t: pl.DataFrame, *more: pl.Series) -> pl.DataFrame:
        words = [measure_words(m, w) for m, w in zip(t["metric"], t["meaning"], strict=True)]
        return pl.DataFrame(
            [
                pl.Series(N_("measure"), words, dtype=pl.String),
                interval_column(t, "base", "base_ci_low", "base_ci_high", N_("shuffled [95 % CI]")),
                interval_column(t, "other", "other_ci_low", "other_ci_high", N_("cut [95 % CI]")),
                interval_column(
                    t, "diff", "diff_ci_low", "diff_ci_high", N_("cut − shuffled [95 % CI]")
                ),
                *more,
            ]
        )

    sec.add_table(_("Deal odds, shuffled against cut"), "", shown(rates), "dealing_odds.csv", rates)
    sec.add_table(
        _("Whole games, shuffled against cut"),
        "",
        shown(games, games["games"].alias(N_("games"))),
        "dealing_games.csv",
        games,
    )
    return sec
