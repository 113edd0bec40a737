"""The report's own tables: marriages, shuffled or cut, the options compared."""

from __future__ import annotations

from sim.schema.columns import Column, cols, make_table, same

# --- the report: thousand report ----------------------------------------------------------------
MARRIAGES = make_table(
    "marriages.csv",
    "report",
    cols(
        (
            "where",
            "String",
            "`hand` (forehand's dealt hand holds it), `hand_talon` "
            "(forehand's hand plus the talon hold it), `declared` (some player declared it in a "
            "deal played out)",
        ),
        (
            "suit",
            "String",
            "`S`, `C`, `D`, `H`, `A` (the ace marriage, when the rules have it) or `any`",
        ),
        ("hits", "Int64", "deals where it happened"),
        (
            "n",
            "Int64",
            "deals looked at (for `declared`: deals played out, neither redealt nor conceded)",
        ),
    ),
    same("rate ci_low ci_high", "Float64", "`hits / n` and its interval"),
    Column("exact", "Float64", "the exact probability; empty for `declared`"),
)
DEALING_ODDS = make_table(
    "dealing_odds.csv",
    "report",
    cols(
        ("metric", "String", "the odds key (`odds.csv`)"),
        ("meaning", "String", "the key in words"),
        ("rules", "String", "the shuffled run's label, e.g. `classic (shuffled)`"),
        ("vs", "String", "the cut run's label, e.g. `classic (cut)`"),
    ),
    same(
        "base base_ci_low base_ci_high",
        "Float64",
        "the share of shuffled deals and its Wilson interval",
    ),
    same("other other_ci_low other_ci_high", "Float64", "the same for cut deals"),
    same(
        "diff diff_ci_low diff_ci_high",
        "Float64",
        "`other − base` with the interval of two independent samples (conservative: the "
        "runs share every chain's first deal)",
    ),
    cols(
        ("n_base", "Int64", "deals counted with the shuffled deck"),
        ("n_other", "Int64", "deals counted with the cut deck"),
    ),
)


COMPARE_RULES = make_table(
    "report/compare_rules.csv",
    "report",
    cols(
        ("option", "String", "an option whose value differs between the compared rule sets"),
        ("rules", "String", "a compared rule set (the base first)"),
        ("value", "String", "the option's value in it (`off` for off)"),
    ),
)
EQUITY_TABLE = make_table(
    "equity_table.csv",
    "report",
    cols(
        ("own", "Int64", "the seat's game score before the deal"),
        ("on_barrel", "Boolean", "the seat sits on the barrel (before its first deal there)"),
    ),
    same(
        "others_0 others_300 others_600",
        "Float64",
        "its chance to win the game with both other seats at that score (just below the "
        "barrel when that is lower), the mean over its seat in the coming deal: the equity "
        "table the advisor reads from a game score",
    ),
)
EQUITY_CALIBRATION = make_table(
    "equity_calibration.csv",
    "report",
    cols(
        ("p_low", "Float64", "the bin's lower end of the predicted chance"),
        ("p_high", "Float64", "its upper end"),
        ("rows", "Int64", "seats of held-out deals in the bin (one deal drawn a game)"),
        ("games", "Int64", "the games they come from"),
        ("predicted", "Float64", "their mean predicted chance to win"),
        ("observed", "Float64", "the share of them that won the game"),
        ("low", "Float64", "95 % Wilson interval of `observed`, lower end"),
        ("high", "Float64", "upper end"),
        ("effective", "Float64", "the rows the interval counts (one game's seats are not "
         "independent)"),
        ("z", "Float64", "`observed − predicted` over its game-clustered standard error"),
    ),
)  # fmt: skip
