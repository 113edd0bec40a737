"""The report's bid section: contracts as the hands run played them.

From the tables of :func:`analysis.bids.bid_tables`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import polars as pl

from analysis import plots
from analysis.bids import bid_tables
from analysis.glossary import CONCEDED_ALL, MADE_ALL, MADE_PLAYED
from analysis.pages import (
    Section,
    Text,
    interval_column,
    pct,
)


def _par_display(t: pl.DataFrame) -> pl.DataFrame:
    """The par table as shown: each rate as ``estimate [low, high]``."""
    return t.select(
        "contract",
        "contracts",
        interval_column(t, "rate_all", "ci_low_all", "ci_high_all", f"{MADE_ALL.label} [95 % CI]"),
        interval_column(t, "par_rate", "par_ci_low", "par_ci_high", "par, own discard"),
        interval_column(
            t, "par_best_rate", "par_best_ci_low", "par_best_ci_high", "par, best discard"
        ),
    )


def _rate_display(t: pl.DataFrame, keys: Sequence[str]) -> pl.DataFrame:
    """Key columns and the bid-table rates as ``estimate [low, high]`` strings."""
    return t.select(
        *keys,
        "contracts",
        "n",
        "made",
        interval_column(t, "rate", "ci_low", "ci_high", f"{MADE_PLAYED.label} [95 % CI]"),
        "conceded",
        interval_column(
            t,
            "concession_rate",
            "concession_ci_low",
            "concession_ci_high",
            f"{CONCEDED_ALL.label} [95 % CI]",
        ),
        interval_column(t, "rate_all", "ci_low_all", "ci_high_all", f"{MADE_ALL.label} [95 % CI]"),
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
    sec = Section("bids", "Contracts as the hands run played them")
    made = pct(info["rate"], info["ci_low"], info["ci_high"])
    conceded = pct(info["concession_rate"], info["concession_ci_low"], info["concession_ci_high"])
    sec.blocks.append(
        Text(
            f"**In short:** the run's declarers made {made} of the contracts they played "
            f"and conceded {conceded} of all their contracts."
        )
    )
    sec.blocks.append(
        Text(
            f"From {info['contracts']:,} contracts ({info['reshuffled']:,} redeals on the way). "
            "A *contract* is a deal that was not redealt; the declarer either "
            "conceded it (роспись) or played it. `made / played` is the make rate among "
            "played contracts, `made / contracts` counts a concession as a failure; all "
            "with 95 % Wilson intervals. These rates describe the run's players (see the "
            "top) and the contracts *they* chose after the talon: a level is made more "
            "often when only strong hands name it, so read safe bids from the section "
            "above, which plays every hand at every level."
        )
    )
    sec.add_figure(
        "bids_make_rate.png",
        plots.plot_make_rate(
            tables["by_contract"],
            f"Make rate against contract, {info['rules']} (levels with ≥ {min_n} played)",
            min_n,
        ),
        "Make rate against contract level",
    )
    sec.add_table(
        "All contracts",
        "",
        _rate_display(summary, []),
        "bids_summary.csv",
        summary,
    )
    for name, keys, title, note in (
        ("by_contract", ["contract"], "By contract level", "The contract named after the discard."),
        (
            "by_marriage_count",
            ["marriages"],
            "By marriages held after the discard",
            "Marriages in the declarer's 8 cards after giving one card to each opponent.",
        ),
        (
            "by_points_band",
            ["points_band"],
            "By the declarer's hand points",
            "Card points of the declarer's dealt 7-card hand (talon not included).",
        ),
        (
            "by_relative_seat",
            ["position"],
            "By the declarer's seat relative to the dealer",
            "Forehand bids first; the dealer last.",
        ),
        ("by_at_100", ["how_won"], "Won at 100 versus bid up", ""),
    ):
        t = tables[name]
        sec.add_table(title, note, _rate_display(t, keys), f"bids_{name}.csv", t)
    if "par" in tables:  # a run played with the open-card par (--par)
        par = tables["par"]
        sec.add_table(
            "Made against the open-card par",
            "By contract level: how often the run's declarers made it (`rate_all`, a "
            "concession counting as a failure) beside how often the open-card par reaches "
            "it: `par_rate` after the declarer's own discard, `par_best_rate` after the best "
            "one, with every card face up and both sides playing best. The par is what the "
            "declarer can force against a defence that sees every card, so it bounds what "
            "a declarer can be sure of; defenders who cannot see the cards may give more, "
            "and the played rate can then exceed the par.",
            _par_display(par),
            "bids_par.csv",
            par,
        )
    sec.add_csv(
        "bids_by_marriage_set.csv",
        tables["by_marriage_set"],
        "rates by the set of marriages held after the discard",
    )
    sec.add_csv("bids_by_seat.csv", tables["by_seat"], "rates by the declarer's absolute seat")
    return sec
