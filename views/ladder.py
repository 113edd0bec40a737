"""The ladder in words: its Markdown tables and the folder of ``thousand ladder``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from analysis.ladder import LadderResult, ladder_json
from analysis.schema.ladder import LADDER_PAIRS, LADDER_RATINGS
from sim.output import write_json
from views.tables import to_markdown


def ladder_markdown(result: LadderResult) -> str:
    """The ladder as Markdown: the ratings, then the matrix of duels."""
    lines = [
        "# Ladder: every player against every other, duplicate style",
        "",
        f"Ratings in points per deal against `{result.anchor}` (0), fitted to every duel "
        "by weighted least squares, with 95 % intervals; Elo-like: 1500 + 400 log10 of "
        f"the odds that a deal goes the player's way (a deal's spread {result.spread:.1f} "
        "points).",
        "",
    ]
    return "\n".join(lines) + ladder_tables_markdown(result)


def ladder_tables_markdown(result: LadderResult) -> str:
    """The ratings table and the matrix of duels in Markdown (the command's, the page's)."""
    r = result.ratings
    table = r.select(
        pl.col("rank"),
        pl.col("player").map_elements(lambda p: f"`{p}`", return_dtype=pl.Utf8),
        *(_cell(name, lo, hi) for name, lo, hi in (
            ("rating", "ci_low", "ci_high"),
            ("margin_rating", "margin_ci_low", "margin_ci_high"),
        )),
        pl.col("elo").round(0).cast(pl.Int64),
        pl.col("duels"),
    )  # fmt: skip
    lines = [to_markdown(table), ""]
    players = r["player"].to_list()
    lines += [
        "Points per deal of the row's seat with the row's player there minus with the "
        "column's (the row's player at one seat, the column's at the others); a cell "
        "mirrored from the other duel of the pair is the negated value, in parentheses.",
        "",
        "| | " + " | ".join(f"`{p}`" for p in players) + " |",
        "| --- |" + " --- |" * len(players),
    ]
    cell = {(a, b): (v, False) for a, b, v in result.pairs.select("a", "b", "score_diff").rows()}
    for (a, b), (v, _) in list(cell.items()):
        cell.setdefault((b, a), (-v, True))
    for a in players:
        row = []
        for b in players:
            if a == b or (a, b) not in cell:
                row.append("—")
            else:
                v, mirrored = cell[(a, b)]
                row.append(f"({v:+.2f})" if mirrored else f"{v:+.2f}")
        lines.append(f"| `{a}` | " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def _cell(name: str, lo: str, hi: str) -> Any:
    """A value with its interval in one cell."""
    return pl.format(
        "{} [{}, {}]", pl.col(name).round(2), pl.col(lo).round(2), pl.col(hi).round(2)
    ).alias(name)


def write_ladder_tables(result: LadderResult, out: Path) -> None:
    """``ladder_pairs.csv``, ``ladder_ratings.csv``, ``ladder.md`` and ``ladder.json``."""
    result.pairs.write_csv(out / LADDER_PAIRS.file)
    result.ratings.write_csv(out / LADDER_RATINGS.file)
    (out / "ladder.md").write_text(ladder_markdown(result), encoding="utf-8")
    write_json(out / "ladder.json", ladder_json(result))


__all__ = ["ladder_markdown", "ladder_tables_markdown", "write_ladder_tables"]
