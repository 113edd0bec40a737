"""The report's ladder section: the players behind its numbers, each against every other."""

from __future__ import annotations

import math

import polars as pl

from analysis.ladder import LadderResult
from sim.i18n import N_, _, number
from views.numbers import interval
from views.pages import Section, Text


def _interval(df: pl.DataFrame, est: str, low: str, high: str, name: str) -> pl.Series:
    """``estimate [low, high]`` with two decimals, as the language writes numbers."""
    return pl.Series(
        name,
        [
            interval(_signed(e), _signed(lo), _signed(hi))
            for e, lo, hi in zip(df[est], df[low], df[high], strict=True)
        ],
        dtype=pl.String,
    )


def _signed(v: float | None) -> str:
    """Two decimals with the sign; — where there is no number (a one-deal interval)."""
    if v is None or not math.isfinite(v):
        return "—"
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
            pl.format("`{}`", "player").alias(N_("player")),
            _interval(r, "rating", "ci_low", "ci_high", N_("points per deal [95 % CI]")),
            _interval(
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
            _interval(p, "score_diff", "ci_low", "ci_high", N_("A − B [95 % CI]")),
            _interval(p, "margin_diff", "margin_ci_low", "margin_ci_high", N_("margin [95 % CI]")),
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
