"""Tables for people: Markdown tables and documents of tables, rates for a terminal."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import polars as pl

from sim.output import StagedDir
from views.numbers import numbers


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


def short_rate(p: float | None, lo: float | None, hi: float | None) -> str:
    """A rate for a terminal: ``0.572 [0.565, 0.579]`` (three decimals), ``—`` if none."""
    if p is None or p != p:
        return "—"

    low, high = float("nan") if lo is None else lo, float("nan") if hi is None else hi
    return numbers(p, low, high, 3)


def short_table(frame: pl.DataFrame) -> str:
    """A small Markdown table of already formatted (string or integer) columns."""
    return to_markdown(frame).rstrip()
