"""The tables of ``thousand ladder`` (``ladder_pairs.csv``, ``ladder_ratings.csv``)."""

from __future__ import annotations

from sim.schema.columns import cols, make_table, same

LADDER_PAIRS = make_table(
    "ladder_pairs.csv",
    "ladder",
    cols(
        ("a", "String", "the player at one seat (the row)"),
        ("b", "String", "the player at the other seats (the column)"),
        ("deals", "Int64", "the deals of their duplicate duel"),
    ),
    same(
        "score_diff ci_low ci_high",
        "Float64",
        "points per deal of A's seat with A there − with B, and its 95 % interval",
    ),
    same(
        "margin_diff margin_ci_low margin_ci_high",
        "Float64",
        "the same for A's seat minus the mean of the other seats (a better defence counts)",
    ),
)
LADDER_RATINGS = make_table(
    "ladder_ratings.csv",
    "ladder",
    cols(
        ("rank", "Int64", "1 for the highest rating"),
        ("player", "String", "the player"),
    ),
    same(
        "rating ci_low ci_high",
        "Float64",
        "points per deal against the anchor player (0), fitted to every duel's "
        "`score_diff` by least squares weighted by its precision, and its 95 % interval",
    ),
    same(
        "margin_rating margin_ci_low margin_ci_high",
        "Float64",
        "the same fitted to `margin_diff` (defence counts)",
    ),
    cols(
        (
            "elo",
            "Float64",
            "the rating on an Elo-like scale: 1500 + 400 log10 of the odds "
            "that the player's seat outscores the anchor's, a deal's spread taken as "
            "logistic",
        ),
        ("duels", "Int64", "the duels the player took part in"),
    ),
)
