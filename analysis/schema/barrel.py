"""The tables of ``thousand barrel``: summary, barrel outcomes, game length, seats."""

from __future__ import annotations

from sim.schema.columns import Column, cols, make_table, same

# --- barrel tables: thousand barrel -----------------------------------------------------------
BARREL_SUMMARY = make_table(
    "barrel/summary.csv",
    "barrel",
    same("rules rules_hash", "String", "the run's rules"),
    same(
        "players target barrel_at barrel_attempts",
        "Int64",
        "players, `game.target`, `barrel.at`, `barrel.attempts` of the run",
    ),
    cols(
        ("games_requested", "Int64", "the games asked for"),
        *(
            (n, "Int64", "games in the file, finished and unfinished")
            for n in ("games", "finished", "unfinished")
        ),
        ("unfinished_share", "Float64", "`unfinished / games`"),
        ("deals", "Int64", "played deals over all games"),
        ("barrel_entries", "Int64", "climbs counted in `games.parquet`"),
        ("stints", "Int64", "rows of `barrel.parquet` (should equal `barrel_entries`)"),
        ("barrel_falls", "Int64", "falls counted in `games.parquet`"),
        ("fall_stints", "Int64", "stints that ended in a fall (should equal `barrel_falls`)"),
    ),
)
BARREL_OUTCOMES = make_table(
    "barrel/barrel_outcomes.csv",
    "barrel",
    cols(
        ("outcome", "String", "how the stint ended (as in `barrel.parquet`)"),
        ("stints", "Int64", "stints ending that way"),
        ("n", "Int64", "all stints"),
    ),
    same("share ci_low ci_high", "Float64", "`stints / n` and its interval"),
    Column("mean_deals_on_barrel", "Float64", "how long those stints lasted, in deals"),
)
BARREL_BARREL_SUMMARY = make_table(
    "barrel/barrel_summary.csv",
    "barrel",
    same(
        "stints won fell game_over",
        "Int64",
        "all stints; won; fell (any cause); cut short by the end of the game",
    ),
    Column("resolved", "Int64", "`won + fell`"),
    same("fall_rate fall_ci_low fall_ci_high", "Float64", "`fell / stints` and its interval"),
    same(
        "win_rate_resolved win_ci_low win_ci_high", "Float64", "`won / resolved` and its interval"
    ),
    same(
        "mean_deals_on_barrel se_deals_on_barrel",
        "Float64",
        "mean stint length in deals and its standard error",
    ),
)
BARREL_ATTEMPTS_USED = make_table(
    "barrel/attempts_used.csv",
    "barrel",
    Column("deals_on_barrel", "Int64", "stint length in deals, every value from 0 to the longest"),
    cols(
        ("stints", "Int64", "stints of that length"),
        ("share", "Float64", "their share of all stints"),
    ),
    same(
        "won fell_attempts knocked_off fell_simultaneous game_over",
        "Int64",
        "those stints by outcome",
    ),
)
BARREL_CLIMB_BACK = make_table(
    "barrel/climb_back.csv",
    "barrel",
    cols(
        (
            "first_fall",
            "String",
            "how the first fall happened: `any` (all), `fell_attempts`, "
            "`knocked_off`, `fell_simultaneous`, or `unrecorded` (falls without a stint row)",
        ),
        ("players_fell", "Int64", "such players"),
        ("climbed_back", "Int64", "of them, those who climbed on again later"),
    ),
    same("share ci_low ci_high", "Float64", "`climbed_back / players_fell` and its interval"),
)
BARREL_GAME_LENGTH = make_table(
    "barrel/game_length.csv",
    "barrel",
    same("games finished unfinished", "Int64", "all games, finished, unfinished"),
    Column("unfinished_share", "Float64", "`unfinished / games`"),
    same(
        "mean se sd",
        "Float64",
        "played deals per finished game: mean, its standard error, standard deviation",
    ),
    same("min max", "Int64", "shortest and longest finished game"),
    same("q05 q25 q50 q75 q95", "Float64", "quantiles (linear interpolation)"),
)
BARREL_LENGTH_HISTOGRAM = make_table(
    "barrel/length_histogram.csv",
    "barrel",
    same("bin_low bin_high", "Int64", "a bin of 5 played deals"),
    cols(
        ("deals", "String", "the bin as text, e.g. `40-44`"),
        ("games", "Int64", "finished games in the bin"),
    ),
    same(
        "share cumulative_share", "Float64", "their share of finished games, and the running total"
    ),
)
BARREL_SEAT_RELATIVE = make_table(
    "barrel/seat_relative.csv",
    "barrel",
    cols(
        (
            "position",
            "String",
            "the winner's place in the game's first deal: `forehand`, `middle`, `rear`, `dealer`",
        ),
        ("offset", "Int64", "(winner − first dealer) mod players"),
    ),
    same("wins games", "Int64", "games won from that place; finished games with a winner"),
    same("rate ci_low ci_high", "Float64", "`wins / games` and its interval"),
    Column("expected", "Float64", "the fair share, 1 / players"),
)
BARREL_SEAT_ABSOLUTE = make_table(
    "barrel/seat_absolute.csv",
    "barrel",
    Column("seat", "Int64", "the winner's seat number"),
    same("wins games", "Int64", "as in `seat_relative.csv`"),
    same("rate ci_low ci_high expected", "Float64", "as in `seat_relative.csv`"),
)
BARREL_SEAT_CHI2 = make_table(
    "barrel/seat_chi2.csv",
    "barrel",
    cols(
        ("test", "String", "`relative to first dealer` or `absolute seat`"),
        ("games", "Int64", "finished games tested"),
        ("statistic", "Float64", "Pearson's chi-square of the win counts against an even split"),
        ("dof", "Int64", "degrees of freedom, players − 1"),
        ("p_value", "Float64", "the chi-square tail probability"),
    ),
)
BARREL_EVENTS_PER_GAME = make_table(
    "barrel/events_per_game.csv",
    "barrel",
    cols(
        (
            "event",
            "String",
            "`bolt_penalties`, `samosvals`, `concessions`, `barrel_entries`, "
            "`barrel_falls`, `golden_resets`, `dark_won`, `dark_lost`",
        ),
        ("source", "String", "the `games.parquet` columns counted"),
        ("meaning", "String", "the event in words"),
        ("games", "Int64", "finished games"),
        ("total", "Int64", "events in them"),
    ),
    same("mean se", "Float64", "events per game and its standard error"),
    cols(
        ("per_100_deals", "Float64", "events per 100 played deals"),
        ("games_with", "Int64", "games with at least one"),
    ),
    same("share_with ci_low ci_high", "Float64", "`games_with / games` and its interval"),
)
