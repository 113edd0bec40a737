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
        (
            "unit",
            "String",
            "how the metric is counted: `share` (0 to 1, shown in %), `points`, `deals`, "
            "`count` (events per game)",
        ),
        ("base_on", "Boolean", "the base rules have the metric's counter (false: switched off)"),
        ("other_on", "Boolean", "the compared rules have it"),
        (
            "own_switch",
            "Boolean",
            "the two count different things (a counter switched on or off, 555 resets "
            "with one of 555 and −555 off, a seat only one table has): the change is the "
            "switch itself, not an effect",
        ),
    ),
)

COMPARE_SEATS = make_table(
    "compare_seats.csv",
    "compare",
    cols(
        ("rules", "String", "the rule set"),
        ("players", "Int64", "its players"),
        (
            "position",
            "String",
            "the seat by place after the first dealer: `dealer`, `forehand`, `middle`, `rear`",
        ),
        ("offset", "Int64", "places after the first dealer (0: the first dealer)"),
        ("wins", "Int64", "finished games the seat won"),
        ("finished", "Int64", "finished games"),
    ),
    same("share ci_low ci_high", "Float64", "wins / finished and its 95 % Wilson interval"),
    cols(
        ("fair", "Float64", "the fair share, 1 / players"),
        ("chi2", "Float64", "the rule set's Pearson statistic of equal shares over its seats"),
        ("dof", "Int64", "its degrees of freedom (players − 1)"),
        ("p_value", "Float64", "its p-value: small where the seats are not equal"),
    ),
)
"""``thousand compare``'s seats: the games won from each starting seat, by rule set."""

COMPARE_LENGTHS = make_table(
    "compare_lengths.csv",
    "compare",
    cols(
        ("rules", "String", "the rule set"),
        ("bin_low", "Int64", "the bin's fewest played deals"),
        ("bin_high", "Int64", "its most"),
        ("games", "Int64", "games (finished or not) of that length"),
        ("share", "Float64", "games / all the rule set's games"),
    ),
)
"""``thousand compare``'s game lengths: a histogram per rule set on common bins."""
