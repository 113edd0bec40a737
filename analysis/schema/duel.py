"""The tables of ``thousand duel``: ``duel_summary.csv``, ``duel_seats.csv``, ``duel_split.csv``."""

from __future__ import annotations

from sim.schema.columns import Column, cols, make_table, same

# --- strategy duels: thousand duel -------------------------------------------------------------
DUEL_SUMMARY = make_table(
    "duel_summary.csv",
    "duel",
    cols(
        ("measure", "String", "the measure's name"),
        ("value", "Float64", "its value"),
        ("ci_low", "Float64", "its interval"),
        ("ci_high", "Float64", "its interval"),
        ("n", "Int64", "the items it is computed over (deals, seat-deals, contracts, games)"),
        (
            "reference",
            "Float64",
            "what it is compared with (0 for a difference, 1 / players "
            "for the win rate); empty if nothing",
        ),
        ("difference", "Float64", "`value − reference`"),
        ("excludes_reference", "Boolean", "the interval does not contain the reference"),
        ("meaning", "String", "the measure in words"),
    ),
)
DUEL_SEATS = make_table(
    "duel_seats.csv",
    "duel",
    Column("seat", "Int64", "A's seat", "both"),
    same(
        "score_diff ci_low ci_high",
        "Float64",
        "the score difference when A sits there, with its interval",
        "both",
    ),
    same("a_declared a_made", "Int64", "contracts A declared and made from this seat", "deals"),
    same("a_make_rate a_ci_low a_ci_high", "Float64", "A's make rate and its interval", "deals"),
    same("b_declared b_made", "Int64", "the same for B at this seat", "deals"),
    same("b_make_rate b_ci_low b_ci_high", "Float64", "B's make rate and its interval", "deals"),
    same(
        "margin_diff margin_ci_low margin_ci_high",
        "Float64",
        "the margin difference when A sits there (A's seat minus the mean of the other "
        "seats, with A there minus with B), with its interval",
        "deals",
    ),
    same("games finished", "Int64", "games played with A here; of them finished", "games"),
    Column("a_wins", "Int64", "games A won from this seat", "games"),
    Column(
        "a_win_rate",
        "Float64",
        "`a_wins / finished` (its interval is `ci_low`, `ci_high`)",
        "games",
    ),
    same(
        "score_ci_low score_ci_high",
        "Float64",
        "the interval of `score_diff` (games format)",
        "games",
    ),
    extra="format",
)
DUEL_SPLIT = make_table(
    "duel_split.csv",
    "duel",
    cols(
        (
            "decision",
            "String",
            "the first decision where A's seat-deal differs from B's (`duel_deals.parquet`'s "
            "`decision_{s}`: none, reshuffle, auction, discard, trump, contract_lower, "
            "contract_higher, concession, declarer_play, defence)",
        ),
        ("seat_deals", "Int64", "the seat-deals (deal and seat of A) put down to it"),
        (
            "score_diff",
            "Float64",
            "its part of the duel's score difference per deal (the parts add up to it)",
        ),
        ("ci_low", "Float64", "its interval (normal, over deals)"),
        ("ci_high", "Float64", "its interval"),
        ("margin_diff", "Float64", "its part of the margin difference per deal"),
        ("margin_ci_low", "Float64", "its interval"),
        ("margin_ci_high", "Float64", "its interval"),
        (
            "margin_per_seat_deal",
            "Float64",
            "the margin difference per seat-deal put down to it (empty where none)",
        ),
    ),
)
