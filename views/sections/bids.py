"""The report's bid section: contracts as the hands run played them.

From the tables of :func:`analysis.bids.bid_tables`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import polars as pl

from analysis.bids import bid_tables
from sim.i18n import N_, _, number, role
from views import plots
from views.pages import Section, Text, interval_column, pct

# The shown headings of the bid tables' key columns, and the words of their values.
KEY_HEADINGS = {
    "contract": N_("contract"),
    "marriages": N_("marriages"),
    "points_band": N_("hand points"),
    "position": N_("seat"),
    "how_won": N_("how it was won"),
}
HOW_WON = {"at 100": N_("at 100, nobody bidding"), "bid up": N_("in the auction")}


def _key_column(t: pl.DataFrame, key: str) -> pl.Series:
    """A key column as shown: its values in words (seat roles, how it was won)."""
    values = t[key]
    if key == "position":
        values = pl.Series([role(v) for v in values], dtype=pl.String)
    elif key == "how_won":
        values = pl.Series([_(HOW_WON[v]) if v in HOW_WON else v for v in values])
    return values.alias(KEY_HEADINGS.get(key, key))


def _par_display(t: pl.DataFrame) -> pl.DataFrame:
    """The par table as shown: each rate as ``estimate [low, high]``."""
    return t.select(
        pl.col("contract").alias(N_("contract")),
        pl.col("contracts").alias(N_("contracts")),
        interval_column(
            t, "rate_all", "ci_low_all", "ci_high_all", N_("made / contracts [95 % CI]")
        ),
        interval_column(t, "par_rate", "par_ci_low", "par_ci_high", N_("par, own discard")),
        interval_column(
            t, "par_best_rate", "par_best_ci_low", "par_best_ci_high", N_("par, best discard")
        ),
    )


def _rate_display(t: pl.DataFrame, keys: Sequence[str]) -> pl.DataFrame:
    """Key columns and the bid-table rates as ``estimate [low, high]`` strings.

    The rates' headings are the labels of :mod:`analysis.glossary`'s definitions.
    """
    return t.select(
        *[_key_column(t, k) for k in keys],
        pl.col("contracts").alias(N_("contracts")),
        pl.col("n").alias(N_("played")),
        pl.col("made").alias(N_("made")),
        interval_column(t, "rate", "ci_low", "ci_high", N_("made / played [95 % CI]")),
        pl.col("conceded").alias(N_("conceded")),
        interval_column(
            t,
            "concession_rate",
            "concession_ci_low",
            "concession_ci_high",
            N_("conceded / contracts [95 % CI]"),
        ),
        interval_column(
            t, "rate_all", "ci_low_all", "ci_high_all", N_("made / contracts [95 % CI]")
        ),
    )


def bids_section(hands_dir: Path) -> Section:
    """Bid success by contract and hand class, and safe bid levels, from a hands run.

    Args:
        hands_dir: a ``thousand hands`` run folder.
    """
    tables = bid_tables(hands_dir)
    summary = tables["summary"]
    info = summary.row(0, named=True)
    min_n = int(info["min_n"])
    sec = Section("bids", _("Contracts as the hands run played them"))
    made = pct(info["rate"], info["ci_low"], info["ci_high"])
    conceded = pct(info["concession_rate"], info["concession_ci_low"], info["concession_ci_high"])
    sec.blocks.append(
        Text(
            _(
                "**In short:** the run's declarers made {made} of the contracts they played "
                "and conceded {conceded} of all their contracts."
            ).format(made=made, conceded=conceded)
        )
    )
    sec.blocks.append(
        Text(
            _(
                "From {contracts} contracts ({redeals} redeals on the way). A *contract* is "
                "a deal that was not redealt; the declarer either conceded it or played it. "
                "*Made / played* is the make rate among played contracts, *made / "
                "contracts* counts a concession as a failure; all with 95 % Wilson "
                "intervals. These rates describe the run's players (see the top) and the "
                "contracts *they* chose after the talon: a level is made more often when "
                "only strong hands name it, so read safe bids from the section above, which "
                "plays every hand at every level."
            ).format(contracts=number(info["contracts"]), redeals=number(info["reshuffled"]))
        )
    )
    sec.add_figure(
        "bids_make_rate.png",
        plots.plot_make_rate(
            tables["by_contract"],
            _("Make rate against contract, {rules} (levels with ≥ {min_n} played)").format(
                rules=info["rules"], min_n=min_n
            ),
            min_n,
        ),
        _("Make rate against contract level"),
    )
    sec.add_table(
        _("All contracts"),
        "",
        _rate_display(summary, []),
        "bids_summary.csv",
        summary,
    )
    for name, keys, title, note in (
        (
            "by_contract",
            ["contract"],
            _("By contract level"),
            _("The contract named after the discard."),
        ),
        (
            "by_marriage_count",
            ["marriages"],
            _("By marriages held after the discard"),
            _("Marriages in the declarer's 8 cards after giving one card to each opponent."),
        ),
        (
            "by_points_band",
            ["points_band"],
            _("By the declarer's hand points"),
            _("Card points of the declarer's dealt 7-card hand (talon not included)."),
        ),
        (
            "by_relative_seat",
            ["position"],
            _("By the declarer's seat relative to the dealer"),
            _("Forehand bids first; the dealer last."),
        ),
        (
            "by_at_100",
            ["how_won"],
            _("Won at 100 versus bid up"),
            _("At 100, nobody bidding: every other player passed and forehand plays 100."),
        ),
    ):
        t = tables[name]
        sec.add_table(title, note, _rate_display(t, keys), f"bids_{name}.csv", t)
    if "par" in tables:  # a run played with the open-card par (--par)
        par = tables["par"]
        sec.add_table(
            _("Made against the open-card par"),
            _(
                "By contract level: how often the run's declarers made it (a concession "
                "counting as a failure) beside how often the open-card par reaches it after "
                "the declarer's own discard and after the best one, with every card face "
                "up and both sides playing best. The par is what the declarer can force "
                "against a defence that sees every card, so it bounds what a declarer can "
                "be sure of; defenders who cannot see the cards may give more, and the "
                "played rate can then exceed the par."
            ),
            _par_display(par),
            "bids_par.csv",
            par,
        )
    sec.add_csv(
        "bids_by_marriage_set.csv",
        tables["by_marriage_set"],
        _("rates by the set of marriages held after the discard"),
    )
    sec.add_csv("bids_by_seat.csv", tables["by_seat"], _("rates by the declarer's absolute seat"))
    return sec
