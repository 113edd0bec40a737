"""The report's deal-odds section: reshuffle conditions and deal odds, exact beside simulated."""

from __future__ import annotations

import polars as pl

from analysis.odds import OddsResult
from sim.i18n import N_, _, number
from sim.rules import Rules
from views import plots
from views.odds import odds_words
from views.pages import Section, Text, fmt_interval, fmt_number, interval_column, number_column


def _reshuffle_text(rules: Rules) -> str:
    """The rules' reshuffle conditions (docs/rules.md §3) in words."""
    r = rules.reshuffle
    hand = []
    if r.hand_points_below > 0:
        hand.append(_("fewer than {points} card points").format(points=r.hand_points_below))
    if r.hand_nines > 0:
        hand.append(_("{nines} or more nines").format(nines=r.hand_nines))
    if r.hand_four_jacks:
        hand.append(_("four jacks"))
    talon = []
    if r.talon_points_below > 0:
        talon.append(_("fewer than {points} card points").format(points=r.talon_points_below))
    if r.talon_two_nines:
        talon.append(_("two nines"))
    if r.talon_three_jacks:
        talon.append(_("three jacks"))
    either = _(" or ")
    hand_text = (
        _("a hand is redealt on {conditions}").format(conditions=either.join(hand))
        if hand
        else _("no hand is ever redealt")
    )
    talon_text = (
        _("the talon on {conditions}").format(conditions=either.join(talon))
        if talon
        else _("the talon never")
    )
    return f"{hand_text}; {talon_text}"


def odds_section(odds: OddsResult) -> Section:
    """Deal odds: reshuffle conditions, marriages and card counts, simulated vs exact.

    Args:
        odds: an odds run with its statistics (:func:`analysis.odds.odds_result`).
    """
    rules = odds.rules
    table = odds.table
    sec = Section("odds", _("Deal odds and reshuffle conditions: exact vs simulated"))
    any_resh = odds.entries()["deal.any_reshuffle"]
    sec.blocks.append(
        Text(
            _(
                "Probabilities per deal of the conditions players argue about, over "
                "{deals} simulated deals: marriages, reshuffle conditions (docs/rules.md §3) "
                "and card counts. Under **{rules}** {conditions}. A deal meets some reshuffle "
                "condition with probability {probability} (simulated; exact {exact}). The "
                "simulated value is the share of simulated deals with its 95 % Wilson "
                "interval, the exact one comes from combinatorics, and z = (simulated − "
                "exact) / standard error."
            ).format(
                deals=number(odds.run.deals),
                rules=rules.name,
                conditions=_reshuffle_text(rules),
                probability=fmt_interval(
                    any_resh["estimate"], any_resh["ci_low"], any_resh["ci_high"]
                ),
                exact=fmt_number(any_resh["exact"]),
            )
        )
    )
    # the meanings in the current language: the figures' labels and the shown table
    worded = table.with_columns(
        pl.Series("meaning", [odds_words(k) for k in table["key"]], dtype=pl.String)
    )
    sec.add_figure(
        "odds.png",
        plots.plot_odds(
            worded, _("Deal odds, {rules}: simulated vs exact").format(rules=rules.name)
        ),
        _("Deal odds: simulated vs exact"),
    )
    sec.add_figure(
        "odds_z.png",
        plots.plot_odds_z(
            worded,
            _("Deal odds, {rules}: agreement with exact values").format(rules=rules.name),
        ),
        _("Deal odds: agreement with exact values"),
    )
    shown = worded.select(
        pl.col("meaning").alias(N_("condition")),
        interval_column(table, "estimate", "ci_low", "ci_high", N_("simulated [95 % CI]")),
        number_column(table, "exact", N_("exact")),
        pl.Series(N_("z"), [fmt_number(z, 2) for z in table["z"]], dtype=pl.String),
    )
    sec.add_table(_("Every deal quantity"), "", shown, "odds.csv", table)
    return sec
