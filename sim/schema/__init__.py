"""Every column of every table the toolkit writes: name, type and meaning, declared once.

The Parquet files of the runs (``hands.parquet``, ``hands_agg.parquet``,
``games.parquet``, ``barrel.parquet``, the duel's per-item files) and the keys of
``run.json`` are declared here, in the base (:mod:`sim.schema.runs`); the CSV tables of
``odds``, ``bids``, ``barrel``, ``safebids``, ``compare``, ``duel``, ``guide`` and
``report`` beside the analysis that makes them (:mod:`analysis.schema`, which also
holds :data:`analysis.schema.TABLES`, every table by key). Each is a :class:`Table` of
:class:`Column` declarations (:mod:`sim.schema.columns`). ``docs/data.md`` shows them
(``make docs`` writes its column tables from them), the readers in :mod:`analysis`
take the columns they need from them, and a test checks every column of real outputs
against its declaration, type included.
"""

from __future__ import annotations

from sim.schema.columns import SEAT, Column, Table, cols, make_table, same
from sim.schema.runs import (
    BARREL,
    BID_KEYS,
    DUEL_DEALS,
    DUEL_GAMES,
    GAMES,
    HANDS,
    HANDS_AGG,
    RUN_JSON,
    RUN_TABLES,
    check_run_json,
)

__all__ = [
    "BARREL",
    "BID_KEYS",
    "DUEL_DEALS",
    "DUEL_GAMES",
    "GAMES",
    "HANDS",
    "HANDS_AGG",
    "RUN_JSON",
    "RUN_TABLES",
    "SEAT",
    "Column",
    "Table",
    "check_run_json",
    "cols",
    "make_table",
    "same",
]
