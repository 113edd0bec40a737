"""The table jobs: bid-success and barrel tables of a run folder.

``thousand bids DIR`` and ``thousand barrel DIR`` call :func:`bids` and :func:`barrel`;
the results print as the commands print them (``short()``, ``markdown()``,
``json()``) and hold the polars frames in ``tables``::

    from sim.jobs.tables import bids

    print(bids("runs/h").tables["summary"])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # loaded when a run folder is read, not for every command
    import polars as pl


@dataclass(frozen=True)
class Tables:
    """Analysis tables of a run folder, with how the commands show and write them."""

    tables: dict[str, pl.DataFrame]
    _json: Callable[[Mapping[str, pl.DataFrame]], dict[str, Any]]
    _markdown: Callable[[Mapping[str, pl.DataFrame]], str]
    _short: Callable[[Mapping[str, pl.DataFrame]], str]

    def json(self) -> dict[str, Any]:
        """Every table as one JSON document (``--json``)."""
        return self._json(self.tables)

    def markdown(self) -> str:
        """Every table in Markdown (``--full``)."""
        return self._markdown(self.tables)

    def short(self) -> str:
        """The summary that fits 100 columns (the commands' default print)."""
        return self._short(self.tables)


def bids(folder: str | Path, min_n: int = 30, out: str | Path | None = None) -> Tables:
    """Bid-success tables and safe bid levels of a hands run; written to ``out`` if given.

    Args:
        folder: a hands run folder (``hands.parquet`` or ``hands_agg.parquet``).
        min_n: played contracts a level needs to count as safe.
        out: a folder for the CSV tables and ``bids.md`` (None: none).
    """
    from analysis import bids as a
    from views import bids as v

    tables = a.bid_tables(Path(folder), min_n=min_n)
    if out is not None:
        v.write_bid_tables(tables, Path(out))
    return Tables(tables, a.bid_tables_json, v.bids_markdown, v.bids_short)


def barrel(folder: str | Path, out: str | Path | None = None) -> Tables:
    """Barrel falls, game length and seat advantage of a games run; written to ``out`` if given."""
    from analysis import barrel as a
    from views import barrel as v

    tables = a.barrel_tables(Path(folder))
    if out is not None:
        v.write_barrel_tables(tables, Path(out))
    return Tables(tables, a.barrel_tables_json, v.barrel_markdown, v.barrel_short)
