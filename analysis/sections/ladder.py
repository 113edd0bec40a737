"""The report's ladder section: the players behind its numbers, each against every other."""

from __future__ import annotations

import polars as pl

from analysis.ladder import LadderResult
from analysis.pages import Section, Text, interval_column
from sim.i18n import N_, _, number
from sim.players import PLAYERS
from sim.players import words as player_words


def _who(player: str) -> str:
    """A ladder player in words, its code name kept (the tables name it)."""
    if player in PLAYERS:
        return f"`{player}`: {_(player_words(player))}"
    return f"`{player}`"


def _signed(v: float) -> str:
    return ("+" if v > 0 else "") + number(v, 2)


def ladder_section(result: LadderResult, deals: int, sampling_deals: int, seed: int) -> Section:
    """Every player of the ladder against every other in duplicate: ratings and duels.

    Args:
        result: :func:`analysis.ladder.ladder_result` of the report's ladder.
        deals: the deals of a duel between two fast players.
        sampling_deals: the deals of a duel with a sampling player in it.
        seed: the duels' seed.
    """
    sec = Section("ladder", _("Ladder: the players against each other"))
    r = result.ratings
    sec.blocks.append(
        Text(
            _(
                "Which player produced which number, and how strong each plays. Every pair "
                "plays a duplicate duel on the same deals (seed {seed}): the first at each "
                "seat in turn and the second at the others, {deals} deals between two fast "
                "players, {sampling} with a sampling player. A rating is points per deal "
                "against `{anchor}` (0), fitted to every duel by least squares weighted by "
                "its precision, with its 95 % interval; the margin counts the defence too "
                "(a seat's score minus the mean of the others'). Elo-like: 1500 + 400 times "
                "the decimal logarithm of the odds that a deal goes the player's way (a "
                "deal's spread {spread} points)."
            ).format(
                seed=seed,
                deals=number(deals),
                sampling=number(sampling_deals),
                anchor=result.anchor,
                spread=number(result.spread, 1),
            )
        )
    )
    sec.add_table(
        _("Ratings, best first"),
        "",
        r.select(
            pl.col("rank").alias(N_("rank")),
            pl.Series(N_("player"), [_who(p) for p in r["player"]]),
            interval_column(r, "rating", "ci_low", "ci_high", N_("points per deal [95 % CI]")),
            interval_column(
                r, "margin_rating", "margin_ci_low", "margin_ci_high", N_("margin [95 % CI]")
            ),
            pl.col("elo").round(0).cast(pl.Int64).alias(N_("Elo-like")),
        ),
        "ladder_ratings.csv",
        r,
    )
    p = result.pairs
    sec.add_table(
        _("Every duel"),
        _("Points per deal of A's seat with A there minus with B there."),
        p.select(
            pl.format("`{}`", "a").alias(N_("A")),
            pl.format("`{}`", "b").alias(N_("B")),
            pl.col("deals").alias(N_("deals")),
            interval_column(p, "score_diff", "ci_low", "ci_high", N_("A − B [95 % CI]")),
            interval_column(
                p, "margin_diff", "margin_ci_low", "margin_ci_high", N_("margin [95 % CI]")
            ),
        ),
        "ladder_pairs.csv",
        p,
    )
    ranked = ", ".join(
        f"`{row['player']}` {'+' if row['rating'] > 0 else ''}{number(row['rating'], 2)}"
        for row in r.iter_rows(named=True)
    )
    sec.answer = _("Points per deal against `{anchor}`, best first: {ranked}.").format(
        anchor=result.anchor, ranked=ranked
    )
    return sec
