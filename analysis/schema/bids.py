"""The tables of ``thousand bids``: the rate columns they share and each table."""

from __future__ import annotations

from sim.schema.columns import Column, Table, cols, make_table, same

# --- bid tables: thousand bids -------------------------------------------------------------
_RATES = "the rate columns"
BID_RATES = make_table(
    "bids:rates",
    "bids",
    cols(
        ("n", "Int64", "contracts played (not conceded)"),
        ("made", "Int64", "contracts made"),
        ("rate", "Float64", "`made / n`: the make rate of played contracts"),
        ("ci_low", "Float64", "its interval"),
        ("ci_high", "Float64", "its interval"),
        ("contracts", "Int64", "all contracts, conceded ones included"),
        ("conceded", "Int64", "contracts conceded"),
        ("concession_rate", "Float64", "`conceded / contracts`"),
        ("concession_ci_low", "Float64", "its interval"),
        ("concession_ci_high", "Float64", "its interval"),
        ("rate_all", "Float64", "`made / contracts`: a concession counted as a failure"),
        ("ci_low_all", "Float64", "its interval"),
        ("ci_high_all", "Float64", "its interval"),
    ),
)
"""The rate columns every bid table but ``safe_bids`` ends with (a shared part, no file)."""

BID_RATE_COLUMNS = tuple(c.name for c in BID_RATES.columns)
"""The names of the rate columns, in order."""


def _with_rates(key: str, *columns: Column | tuple[Column, ...]) -> Table:
    rates = tuple(Column(c.name, c.dtype, c.meaning, group=_RATES) for c in BID_RATES.columns)
    return make_table(key, "bids", *columns, rates)


BIDS_SUMMARY = _with_rates(
    "bids/summary.csv",
    same("rules rules_hash", "String", "the run's rules"),
    cols(
        ("deals", "Int64", "rows of the run (dealt deals, redeals included)"),
        ("reshuffled", "Int64", "redealt deals"),
        ("min_n", "Int64", "the `--min-n` used for `safe_bids`"),
    ),
)
BIDS_BY_CONTRACT = _with_rates(
    "bids/by_contract.csv", Column("contract", "Int64", "the contract level")
)
BIDS_BY_MARRIAGE_COUNT = _with_rates(
    "bids/by_marriage_count.csv",
    Column(
        "marriages",
        "String",
        "marriages in the declarer's cards after the discard: `0`, `1` or `2+`",
    ),
)
BIDS_BY_MARRIAGE_SET = _with_rates(
    "bids/by_marriage_set.csv",
    cols(
        ("marriages", "Int64", "how many marriages the set holds"),
        ("value", "Int64", "their summed values under the run's `marriage.values`"),
        ("mask", "Int64", "the suit bitmask"),
        ("marriage_set", "String", "the suits, e.g. `C+H`, or `none`"),
    ),
)
BIDS_BY_POINTS_BAND = _with_rates(
    "bids/by_points_band.csv",
    cols(
        (
            "band_low",
            "Int64",
            "lower end of a band of 10 card points in the declarer's dealt "
            "hand (talon not included)",
        ),
        ("points_band", "String", "the band as text, e.g. `30-39`"),
    ),
)
BIDS_BY_AT_100 = _with_rates(
    "bids/by_at_100.csv",
    cols(
        ("at_100", "Boolean", "the contract was won at 100 with nobody bidding"),
        ("how_won", "String", "`at 100` or `bid up`"),
    ),
)
BIDS_BY_RELATIVE_SEAT = _with_rates(
    "bids/by_relative_seat.csv",
    cols(
        ("position", "String", "`forehand`, `middle`, `rear` (four players) or `dealer`"),
        ("offset", "Int64", "(declarer − dealer) mod players: 1 forehand … 0 the dealer"),
    ),
)
BIDS_BY_SEAT = _with_rates(
    "bids/by_seat.csv", Column("seat", "Int64", "the declarer's seat number")
)
BIDS_PAR = make_table(
    "bids/par.csv",
    "bids",
    cols(
        ("contract", "Int64", "the contract level"),
        ("contracts", "Int64", "contracts at that level (played or conceded)"),
        ("made", "Int64", "contracts the run's declarers made"),
        ("rate_all", "Float64", "`made / contracts`: a concession counts as a failure"),
        ("ci_low_all", "Float64", "95 % Wilson interval of `rate_all`, lower end"),
        ("ci_high_all", "Float64", "95 % Wilson interval of `rate_all`, upper end"),
        (
            "par_made",
            "Int64",
            "contracts whose `par_total` reaches them: the declarer's own discard, then "
            "best open-card play by both sides",
        ),
        ("par_rate", "Float64", "`par_made / contracts`"),
        ("par_ci_low", "Float64", "its 95 % Wilson interval, lower end"),
        ("par_ci_high", "Float64", "its 95 % Wilson interval, upper end"),
        ("par_best_made", "Int64", "contracts whose `par_best` reaches them (the best discard)"),
        ("par_best_rate", "Float64", "`par_best_made / contracts`"),
        ("par_best_ci_low", "Float64", "its 95 % Wilson interval, lower end"),
        ("par_best_ci_high", "Float64", "its 95 % Wilson interval, upper end"),
    ),
)
BIDS_SAFE_BIDS = make_table(
    "bids/safe_bids.csv",
    "bids",
    cols(
        ("marriages", "String", "`0`, `1` or `2+`"),
        ("band_low", "Int64", "lower end of the points band, as in `by_points_band.csv`"),
        ("points_band", "String", "the points band as text, as in `by_points_band.csv`"),
        ("n_class", "Int64", "played contracts of the class"),
        ("threshold", "Float64", "the make rate asked for: 0.5, 0.75 or 0.9"),
        ("level", "Int64", "the highest contract whose make rate reaches the threshold"),
        ("n", "Int64", "played contracts at that level"),
        ("rate", "Float64", "their make rate"),
        ("ci_low", "Float64", "the lower end of its interval"),
        (
            "level_conservative",
            "Int64",
            "the highest contract whose interval's *lower end* reaches the threshold",
        ),
        ("n_conservative", "Int64", "played contracts at that level"),
        ("rate_conservative", "Float64", "their make rate"),
        ("ci_low_conservative", "Float64", "the lower end of its interval"),
    ),
)
