"""Reading a run folder (``run.json`` and Parquet tables) with one-line errors."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl

from sim.output import UsageError
from sim.reading import TEXT_MOST, read_text

RUN_FILE = "run.json"


def read_manifest(run_dir: Path) -> dict[str, Any]:
    """The run's ``run.json``, or ``{}`` when the folder has none.

    Raises:
        UsageError: when the file is not a readable JSON object.
    """
    path = run_dir / RUN_FILE
    if not path.is_file():
        return {}
    try:
        doc = json.loads(read_text(path, TEXT_MOST))
    except (OSError, ValueError):
        raise UsageError("{path}: not a readable JSON document", path=path) from None
    if not isinstance(doc, dict):
        raise UsageError("{path}: not a JSON object", path=path)
    return doc


def scan_checked(path: Path, needed: Sequence[str], command: str) -> tuple[pl.LazyFrame, pl.Schema]:
    """Lazily scan a Parquet file of a run, checking that every ``needed`` column is there.

    ``command`` names the ``thousand`` command whose run folder holds the file.

    Raises:
        UsageError: when the file is missing, unreadable or lacks a column.
    """
    if not path.is_file():
        raise UsageError(
            "{path}: not found (a `thousand {command}` run folder holds it)",
            path=path,
            command=command,
        )
    frame = pl.scan_parquet(path)
    try:
        schema = frame.collect_schema()
    except (pl.exceptions.PolarsError, OSError):
        raise UsageError("{path}: not a readable Parquet file", path=path) from None
    for column in needed:
        if column not in schema:
            raise UsageError("{path}: missing column {column}", path=path, column=repr(column))
    return frame, schema
