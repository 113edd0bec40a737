"""Every declared table by its key, and the tables of each command's folder.

The analysis tables are declared beside the analysis, one module per command
(:mod:`analysis.schema.odds`, ``bids``, ``safebids``, ``barrel``, ``compare``,
``duel``, ``report``, ``guide``); the run tables in the base (:mod:`sim.schema`).
:data:`TABLES` holds them all in the order of ``docs/data.md``; :func:`table_of`
finds the table of a file a command wrote.
"""

from __future__ import annotations

from analysis.schema.atlas import ATLAS
from analysis.schema.barrel import (
    BARREL_ATTEMPTS_USED,
    BARREL_BARREL_SUMMARY,
    BARREL_CLIMB_BACK,
    BARREL_EVENTS_PER_GAME,
    BARREL_GAME_LENGTH,
    BARREL_LENGTH_HISTOGRAM,
    BARREL_OUTCOMES,
    BARREL_SEAT_ABSOLUTE,
    BARREL_SEAT_CHI2,
    BARREL_SEAT_RELATIVE,
    BARREL_SUMMARY,
)
from analysis.schema.bids import (
    BID_RATES,
    BIDS_BY_AT_100,
    BIDS_BY_CONTRACT,
    BIDS_BY_MARRIAGE_COUNT,
    BIDS_BY_MARRIAGE_SET,
    BIDS_BY_POINTS_BAND,
    BIDS_BY_RELATIVE_SEAT,
    BIDS_BY_SEAT,
    BIDS_PAR,
    BIDS_SAFE_BIDS,
    BIDS_SUMMARY,
)
from analysis.schema.compare import (
    COMPARE,
    COMPARE_LENGTHS,
    COMPARE_SEATS,
)
from analysis.schema.duel import (
    DUEL_SEATS,
    DUEL_SPLIT,
    DUEL_SUMMARY,
)
from analysis.schema.guide import (
    GUIDE_TABLES,
)
from analysis.schema.ladder import LADDER_PAIRS, LADDER_RATINGS
from analysis.schema.odds import (
    ODDS,
)
from analysis.schema.report import (
    COMPARE_RULES,
    DEALING_ODDS,
    EQUITY_CALIBRATION,
    EQUITY_TABLE,
    MARRIAGES,
)
from analysis.schema.safebids import (
    SAFEBIDS_CALIBRATION,
    SAFEBIDS_CALIBRATION_BINS,
    SAFEBIDS_CALIBRATION_SUMMARY,
    SAFEBIDS_CURVES,
    SAFEBIDS_EXAMPLES,
    SAFEBIDS_HOLDOUT,
    SAFEBIDS_ITEMS,
    SAFEBIDS_PLAYERS,
    SAFEBIDS_SAFE,
)
from sim.schema import BARREL, DUEL_DEALS, DUEL_GAMES, GAMES, HANDS, HANDS_AGG, RUN_JSON, Table
from sim.schema.runs import TEACH_TABLES

TABLES: dict[str, Table] = {
    t.key: t
    for t in (
        HANDS,
        HANDS_AGG,
        GAMES,
        BARREL,
        RUN_JSON,
        ODDS,
        BID_RATES,
        BIDS_SUMMARY,
        BIDS_BY_CONTRACT,
        BIDS_BY_MARRIAGE_COUNT,
        BIDS_BY_MARRIAGE_SET,
        BIDS_BY_POINTS_BAND,
        BIDS_BY_AT_100,
        BIDS_BY_RELATIVE_SEAT,
        BIDS_BY_SEAT,
        BIDS_SAFE_BIDS,
        BIDS_PAR,
        SAFEBIDS_ITEMS,
        SAFEBIDS_HOLDOUT,
        SAFEBIDS_PLAYERS,
        *SAFEBIDS_SAFE.values(),
        *SAFEBIDS_CURVES.values(),
        SAFEBIDS_CALIBRATION,
        SAFEBIDS_CALIBRATION_SUMMARY,
        SAFEBIDS_CALIBRATION_BINS,
        SAFEBIDS_EXAMPLES,
        BARREL_SUMMARY,
        BARREL_OUTCOMES,
        BARREL_BARREL_SUMMARY,
        BARREL_ATTEMPTS_USED,
        BARREL_CLIMB_BACK,
        BARREL_GAME_LENGTH,
        BARREL_LENGTH_HISTOGRAM,
        BARREL_SEAT_RELATIVE,
        BARREL_SEAT_ABSOLUTE,
        BARREL_SEAT_CHI2,
        BARREL_EVENTS_PER_GAME,
        COMPARE,
        COMPARE_SEATS,
        COMPARE_LENGTHS,
        ATLAS,
        DUEL_SUMMARY,
        DUEL_SEATS,
        DUEL_SPLIT,
        DUEL_DEALS,
        DUEL_GAMES,
        LADDER_PAIRS,
        LADDER_RATINGS,
        MARRIAGES,
        DEALING_ODDS,
        EQUITY_TABLE,
        EQUITY_CALIBRATION,
        *GUIDE_TABLES,
        COMPARE_RULES,
        *TEACH_TABLES,
    )
}
"""Every declared table by its key, in the order of docs/data.md."""

BID_TABLES = {t.file.removesuffix(".csv"): t for t in TABLES.values() if t.key.startswith("bids/")}
"""The tables of ``thousand bids`` by table name (``summary``, ``by_contract`` …)."""

BARREL_TABLES = {
    t.file.removesuffix(".csv"): t for t in TABLES.values() if t.key.startswith("barrel/")
}
"""The tables of ``thousand barrel`` by table name (``summary``, ``barrel_outcomes`` …)."""

# The files of a report folder whose table is declared under another name.
REPORT_FILES: dict[str, Table] = {
    "odds.csv": ODDS,
    "marriages.csv": MARRIAGES,
    "compare.csv": COMPARE,
    "atlas.csv": ATLAS,
    "dealing_games.csv": COMPARE,
    "dealing_odds.csv": DEALING_ODDS,
    "equity_table.csv": EQUITY_TABLE,
    "equity_calibration.csv": EQUITY_CALIBRATION,
    **{f"bids_{name}.csv": t for name, t in BID_TABLES.items()},
    **{f"games_{name}.csv": t for name, t in BARREL_TABLES.items() if name != "summary"},
    "safebids_players.csv": SAFEBIDS_PLAYERS,
    "safebids_calibration.csv": SAFEBIDS_CALIBRATION,
    "safebids_examples.csv": SAFEBIDS_EXAMPLES,
    **{f"safebids_safe_{name}.csv": t for name, t in SAFEBIDS_SAFE.items()},
    **{f"safebids_curve_{name}.csv": t for name, t in SAFEBIDS_CURVES.items()},
    **{t.file: t for t in GUIDE_TABLES},
    "compare_rules.csv": COMPARE_RULES,
    "ladder_pairs.csv": LADDER_PAIRS,
    "ladder_ratings.csv": LADDER_RATINGS,
}


def table_of(command: str, file: str) -> Table:
    """The declared table of a file written by ``thousand COMMAND`` (``run.json`` by any).

    ``report`` names its files after the tables of the other commands
    (:data:`REPORT_FILES`); a ``compare`` folder keeps each rule set's games run in
    ``runs/NAME/`` (pass ``command="games"`` for those).

    Raises:
        KeyError: when no table is declared for the file.
    """
    if file == RUN_JSON.file:
        return RUN_JSON
    if command == "report":
        return REPORT_FILES[file]
    if command in ("bids", "barrel"):
        return TABLES[f"{command}/{file}"]
    for t in TABLES.values():
        if t.command == command and t.file == file:
            return t
    raise KeyError(f"no table declared for {file!r} of `thousand {command}`")
