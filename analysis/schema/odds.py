"""The table of ``thousand odds`` (``odds.csv``)."""

from __future__ import annotations

from sim.schema.columns import cols, make_table

# --- deal odds: thousand odds ------------------------------------------------------------
ODDS = make_table(
    "odds.csv",
    "odds",
    cols(
        ("key", "String", "the odds key, e.g. `hand.any_marriage`"),
        ("meaning", "String", "what it counts, in words"),
        ("hits", "Int64", "simulated deals where it happened"),
        ("deals", "Int64", "simulated deals"),
        ("estimate", "Float64", "`hits / deals`"),
        ("ci_low", "Float64", "its 95 % Wilson interval"),
        ("ci_high", "Float64", "its 95 % Wilson interval"),
        ("exact", "Float64", "the exact probability; empty where none is computed"),
        (
            "z",
            "Float64",
            "`(estimate − exact) / standard error at the exact value`; empty without `exact`",
        ),
    ),
)
