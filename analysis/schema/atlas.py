"""The table of ``thousand atlas`` (``atlas.csv``)."""

from __future__ import annotations

from sim.schema.columns import cols, make_table, same

ATLAS = make_table(
    "atlas.csv",
    "atlas",
    cols(
        (
            "measure",
            "String",
            "`length` (`game_length`), `fairness` (`seat_imbalance`) or `skill` (`skill_index`)",
        ),
        ("metric", "String", "the metric of `compare.csv` it reads"),
        ("switch", "String", "the switch, `option=value` (a run folder's name)"),
        ("option", "String", "the option switched (its key)"),
        ("value", "String", "its value under the switch (`off`: switched off)"),
        ("base", "Float64", "the measure under the base rules"),
        ("other", "Float64", "under the switch"),
    ),
    same(
        "diff diff_ci_low diff_ci_high",
        "Float64",
        "`other − base` and its 95 % interval from the paired games",
    ),
    cols(
        ("unit", "String", "`share` (0 to 1) or `deals`"),
        (
            "ranked",
            "Boolean",
            "the effect is ranked: false where it is the switch itself (another number of "
            "players: other fair shares) or missing",
        ),
        ("clear", "Boolean", "the interval excludes 0"),
        (
            "unfinished",
            "Float64",
            "the share of the switch's games stopped undecided after 1000 played deals "
            "(a switch that breaks the game)",
        ),
        ("games", "Int64", "games under the base and the switch"),
        ("rank", "Int64", "1 for the largest `|diff|` of the measure among the ranked rows"),
    ),
)
"""``thousand atlas``: every switch of a base rule set, ranked by measure."""
