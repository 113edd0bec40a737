"""The report's seat section: who wins, by seat relative to the first dealer."""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from sim.i18n import N_, _, number, role
from views import plots
from views.pages import Section, Text, fmt_number, interval_column, number_column

# The seat tests of analysis.barrel (``seat_chi2``'s ``test``) in words.
TEST_WORDS = {
    "relative to first dealer": N_("place relative to the first dealer"),
    "absolute seat": N_("absolute seat"),
}


def seat_section(tables: Mapping[str, pl.DataFrame]) -> Section:
    """Seat advantage: wins by seat relative to the first dealer and absolute, chi-square.

    Args:
        tables: :func:`analysis.barrel.barrel_tables` of a ``thousand games`` run.
    """
    info = tables["summary"].row(0, named=True)
    players = int(info["players"])
    rel, ab, chi2 = tables["seat_relative"], tables["seat_absolute"], tables["seat_chi2"]
    sec = Section("seats", _("Seat advantage"))
    sec.blocks.append(
        Text(
            _(
                "Who wins the finished games, by the winner's place in the game's first "
                "deal (forehand bids first) and by absolute seat; a fair game gives each "
                "seat 1/{players} = {share}. Win rates with 95 % Wilson intervals; the "
                "chi-square test compares the win counts with an even split."
            ).format(players=players, share=number(1 / players, 4))
        )
    )
    sec.add_figure(
        "seat_advantage.png",
        plots.plot_seat_advantage(
            rel, ab, players, _("Win rate by seat, {rules}").format(rules=info["rules"])
        ),
        _("Win rate by seat with the even share 1/players"),
    )
    sec.add_table(
        _("Winner's seat relative to the first dealer"),
        "",
        rel.select(
            pl.Series(N_("place in the first deal"), [role(p) for p in rel["position"]]),
            pl.col("wins").alias(N_("wins")),
            pl.col("games").alias(N_("games")),
            interval_column(rel, "rate", "ci_low", "ci_high", N_("win rate [95 % CI]")),
            number_column(rel, "expected", N_("fair")),
        ),
        "games_seat_relative.csv",
        rel,
    )
    sec.add_table(
        _("Winner's absolute seat"),
        "",
        ab.select(
            pl.col("seat").alias(N_("seat")),
            pl.col("wins").alias(N_("wins")),
            pl.col("games").alias(N_("games")),
            interval_column(ab, "rate", "ci_low", "ci_high", N_("win rate [95 % CI]")),
            number_column(ab, "expected", N_("fair")),
        ),
        "games_seat_absolute.csv",
        ab,
    )
    sec.add_table(
        _("Seat uniformity tests"),
        _("Pearson chi-square of the win counts against 1/players per seat."),
        chi2.select(
            pl.Series(
                N_("test"),
                [_(TEST_WORDS[t]) if t in TEST_WORDS else t for t in chi2["test"]],
                dtype=pl.String,
            ),
            pl.col("games").alias(N_("games")),
            pl.Series(N_("chi-square"), [fmt_number(v, 3) for v in chi2["statistic"]]),
            pl.col("dof").alias(N_("degrees of freedom")),
            pl.Series(N_("p-value"), [fmt_number(v, 4) for v in chi2["p_value"]]),
        ),
        "games_seat_chi2.csv",
        chi2,
    )
    return sec
