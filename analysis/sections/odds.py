"""The report's deal-odds section: reshuffle conditions and deal odds, exact beside simulated."""

from __future__ import annotations

import polars as pl

from analysis import plots
from analysis.odds import OddsResult
from analysis.pages import (
    Section,
    Text,
    fmt_interval,
    fmt_number,
    interval_column,
    number_column,
)
from sim.rules import Rules


def _reshuffle_text(rules: Rules) -> str:
    """The rules' reshuffle conditions (docs/rules.md §3) in words."""
    r = rules.reshuffle
    hand = []
    if r.hand_points_below > 0:
        hand.append(f"fewer than {r.hand_points_below} card points")
    if r.hand_nines > 0:
        hand.append(f"{r.hand_nines} or more nines")
    if r.hand_four_jacks:
        hand.append("four jacks")
    talon = []
    if r.talon_points_below > 0:
        talon.append(f"fewer than {r.talon_points_below} card points")
    if r.talon_two_nines:
        talon.append("two nines")
    if r.talon_three_jacks:
        talon.append("three jacks")
    hand_text = " or ".join(hand) if hand else "never"
    talon_text = " or ".join(talon) if talon else "never"
    return f"a hand is redealt on {hand_text}; the talon on {talon_text}"


def odds_section(odds: OddsResult) -> Section:
    """Deal odds: reshuffle conditions, marriages and card counts, simulated vs exact.

    Args:
        odds: an odds run with its statistics (:func:`analysis.odds.odds_result`).
    """
    rules = odds.rules
    table = odds.table
    sec = Section("odds", "Deal odds and reshuffle conditions: exact vs simulated")
    any_resh = odds.entries()["deal.any_reshuffle"]
    sec.blocks.append(
        Text(
            f"Probabilities per deal of the conditions players argue about, over "
            f"{odds.run.deals:,} simulated deals: marriages, reshuffle conditions (docs/rules.md "
            f"§3) and card counts. Under **{rules.name}** {_reshuffle_text(rules)}. A deal "
            f"meets some reshuffle condition with probability "
            f"{fmt_interval(any_resh['estimate'], any_resh['ci_low'], any_resh['ci_high'])} "
            f"(simulated; exact {fmt_number(any_resh['exact'])}). `estimate` is the "
            "share of simulated deals with its 95 % Wilson interval, `exact` the "
            "combinatorial value and `z` = (estimate − exact) / standard error."
        )
    )
    sec.add_figure(
        "odds.png",
        plots.plot_odds(table, f"Deal odds, {rules.name}: simulated vs exact"),
        "Deal odds: simulated vs exact",
    )
    sec.add_figure(
        "odds_z.png",
        plots.plot_odds_z(table, f"Deal odds, {rules.name}: agreement with exact values"),
        "Deal odds: agreement with exact values",
    )
    shown = table.select(
        "key",
        "meaning",
        interval_column(table, "estimate", "ci_low", "ci_high", "estimate [95 % CI]"),
        number_column(table, "exact"),
        pl.Series("z", [fmt_number(z, 2) for z in table["z"]], dtype=pl.String),
    )
    sec.add_table("Every odds key", "", shown, "odds.csv", table)
    return sec
