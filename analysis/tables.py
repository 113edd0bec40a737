"""Tables built from simulation results (polars), each rate with its interval."""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis.stats import binomial_se, wilson_interval
from sim.odds_keys import ODDS_KEYS
from sim.output import StagedDir


def _as_float(v: Fraction | None) -> float:
    return np.nan if v is None else float(v)


def odds_table(
    deals: int, hits: Mapping[str, int], exact: Mapping[str, Fraction | None]
) -> pl.DataFrame:
    """One row per odds key: estimate, 95 % Wilson interval, exact value, z-score.

    ``z`` is ``(estimate - exact) / se`` with the binomial standard error at the
    exact value; it is null where there is no exact value.
    """
    keys = list(ODDS_KEYS)
    k = np.array([hits[key] for key in keys], dtype=np.int64)
    est = k / deals
    low, high = wilson_interval(k, deals)
    ex = np.array([_as_float(exact.get(key)) for key in keys])
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.where(np.isnan(ex), np.nan, (est - ex) / binomial_se(ex, deals))
    return pl.DataFrame(
        {
            "key": keys,
            "meaning": [ODDS_KEYS[key] for key in keys],
            "hits": k,
            "deals": np.full(len(keys), deals, dtype=np.int64),
            "estimate": est,
            "ci_low": low,
            "ci_high": high,
            "exact": ex,
            "z": z,
        }
    ).with_columns(pl.col("exact", "z").fill_nan(None))


def to_markdown(df: pl.DataFrame, floats: str = "{:.6f}") -> str:
    """A GitHub-flavoured Markdown table of a small frame (nulls shown as an em dash)."""

    def cell(v: object) -> str:
        if v is None:
            return "—"
        if isinstance(v, float):
            return floats.format(v)
        return str(v).replace("|", "\\|")

    head = "| " + " | ".join(df.columns) + " |"
    rule = "| " + " | ".join("---" for _ in df.columns) + " |"
    body = ["| " + " | ".join(cell(v) for v in row) + " |" for row in df.iter_rows()]
    return "\n".join([head, rule, *body]) + "\n"


def tables_markdown(
    tables: Mapping[str, pl.DataFrame],
    title: str,
    intro: str,
    notes: Mapping[str, tuple[str, str]],
) -> str:
    """A Markdown document of several tables.

    The title names the run's rules (from a ``summary`` table when there is one),
    then the intro, then each table under its heading and one-paragraph note
    (``notes[name] = (heading, note)``).
    """
    summary = tables.get("summary")
    info = None if summary is None or summary.is_empty() else summary.row(0, named=True)
    if info is not None and info.get("rules") is not None:
        title += f" — rules `{info['rules']}` (hash {info['rules_hash']})"
    parts = [title, intro]
    for name, table in tables.items():
        heading, note = notes.get(name, (name, ""))
        parts.append(f"## {heading}\n\n{note}".rstrip())
        parts.append(to_markdown(table, floats="{:.4f}").rstrip())
    return "\n\n".join(parts) + "\n"


def write_tables(
    tables: Mapping[str, pl.DataFrame], out_dir: Path, markdown_name: str, markdown: str
) -> None:
    """Write ``NAME.csv`` per table and the Markdown document into ``out_dir``.

    The files are staged and moved into place together, so a failure leaves no
    half-written output; other files in ``out_dir`` are left alone.
    """
    with StagedDir(out_dir) as staged:
        for name, table in tables.items():
            table.write_csv(staged.path / f"{name}.csv")
        (staged.path / markdown_name).write_text(markdown, encoding="utf-8")


def _json_value(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def tables_json(tables: Mapping[str, pl.DataFrame]) -> dict[str, list[dict[str, Any]]]:
    """The tables as JSON-safe lists of row dicts (NaN and infinities become ``None``)."""
    return {
        name: [{k: _json_value(v) for k, v in row.items()} for row in table.iter_rows(named=True)]
        for name, table in tables.items()
    }


def short_rate(p: float | None, lo: float | None, hi: float | None) -> str:
    """A rate for a terminal: ``0.572 [0.565, 0.579]`` (three decimals), ``—`` if none."""
    if p is None or p != p:
        return "—"
    from sim.i18n import interval_separator, number

    low, high = float("nan") if lo is None else lo, float("nan") if hi is None else hi
    return f"{number(p, 3)} [{number(low, 3)}{interval_separator()}{number(high, 3)}]"


def short_table(frame: pl.DataFrame) -> str:
    """A small Markdown table of already formatted (string or integer) columns."""
    return to_markdown(frame).rstrip()
