"""The table of ``thousand compare`` (``compare.csv``)."""

from __future__ import annotations

from sim.schema.columns import cols, make_table, same

# --- house rules compared: thousand compare ---------------------------------------------------
_COMPARED = cols(
    ("metric", "String", "the metric's name"),
    ("meaning", "String", "the metric in words"),
    ("rules", "String", "the base rule set (`--rules`)"),
    ("vs", "String", "the compared rule set"),
)
COMPARE = make_table(
    "compare.csv",
    "compare",
    _COMPARED,
    same(
        "base base_ci_low base_ci_high",
        "Float64",
        "the metric under the base rules and its interval",
    ),
    same("other other_ci_low other_ci_high", "Float64", "the same under the compared rules"),
    same(
        "diff diff_ci_low diff_ci_high",
        "Float64",
        "`other − base` and its interval from the paired games (common random numbers)",
    ),
    cols(
        ("width_crn", "Float64", "the width of that interval"),
        (
            "width_independent",
            "Float64",
            "the width two independent runs of the same size would give",
        ),
        ("games", "Int64", "games per rule set"),
    ),
)
