"""The report's seat section: who wins, by seat relative to the first dealer."""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from analysis import plots
from analysis.pages import (
    Section,
    Text,
    interval_column,
)


def seat_section(tables: Mapping[str, pl.DataFrame]) -> Section:
    """Seat advantage: wins by seat relative to the first dealer and absolute, chi-square.

    Args:
        tables: :func:`analysis.barrel.barrel_tables` of a ``thousand games`` run.
    """
    info = tables["summary"].row(0, named=True)
    players = int(info["players"])
    rel, ab, chi2 = tables["seat_relative"], tables["seat_absolute"], tables["seat_chi2"]
    sec = Section("seats", "Seat advantage")
    sec.blocks.append(
        Text(
            f"Who wins the finished games, by the winner's place in the game's first deal "
            f"(forehand bids first) and by absolute seat; a fair game gives each seat "
            f"1/{players} = {1 / players:.4f}. Win rates with 95 % Wilson intervals; the "
            "chi-square test compares the win counts with an even split."
        )
    )
    sec.add_figure(
        "seat_advantage.png",
        plots.plot_seat_advantage(rel, ab, players, f"Win rate by seat, {info['rules']}"),
        "Win rate by seat with the even share 1/players",
    )
    sec.add_table(
        "Winner's seat relative to the first dealer",
        "",
        rel.select(
            "position",
            "offset",
            "wins",
            "games",
            interval_column(rel, "rate", "ci_low", "ci_high", "win rate [95 % CI]"),
            "expected",
        ),
        "games_seat_relative.csv",
        rel,
    )
    sec.add_table(
        "Winner's absolute seat",
        "",
        ab.select(
            "seat",
            "wins",
            "games",
            interval_column(ab, "rate", "ci_low", "ci_high", "win rate [95 % CI]"),
            "expected",
        ),
        "games_seat_absolute.csv",
        ab,
    )
    sec.add_table(
        "Seat uniformity tests",
        "Pearson chi-square of the win counts against 1/players per seat.",
        chi2,
        "games_seat_chi2.csv",
        chi2,
    )
    return sec
