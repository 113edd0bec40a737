"""Every player against every other in duplicate: the ladder's table and ratings.

``thousand ladder`` plays one duplicate duel per pair of players (the first of the
pair at one seat, the second at the others: :mod:`sim.runs.duel`). Here each duel's
two differences (points per deal of A's seat, and of its margin over the other
seats) become a row of ``ladder_pairs.csv``, and every player gets a *rating*: the
numbers ``r`` that make ``r_a − r_b`` fit every duel's difference best, by least
squares weighted by each difference's precision (``1 / se²``), with the anchor
player (``heuristic`` when it plays, else the first) at 0; their intervals come from
the fit's covariance. The Elo-like column puts a rating on the familiar scale: it
takes a deal's score difference as logistic with the spread the duels measured, so
that ``400 log10(p / (1 − p))`` with ``p`` the chance a deal goes the player's way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis.duel import mean_interval
from analysis.schema.ladder import LADDER_PAIRS, LADDER_RATINGS
from analysis.stats import Z95
from analysis.tables import to_markdown
from sim.output import write_json


@dataclass(frozen=True)
class PairDuel:
    """One duel of the ladder: ``a`` at one seat, ``b`` at the others; per-deal differences."""

    a: str
    b: str
    score: np.ndarray  # per deal: A's seat with A there − with B
    margin: np.ndarray  # per deal: the same for A's margin over the other seats


@dataclass(frozen=True)
class LadderResult:
    """The ladder's tables: one row per duel, one per player (best first), and the anchor."""

    pairs: pl.DataFrame
    ratings: pl.DataFrame
    anchor: str
    spread: float  # the standard deviation of a deal's score difference, over every duel


def _interval(values: np.ndarray) -> tuple[float, float, float, float]:
    """:func:`analysis.duel.mean_interval`, and the standard error it rests on."""
    m, lo, hi = mean_interval(values)
    if m is None or lo is None or hi is None:
        return float(m or 0.0), math.nan, math.nan, math.inf
    return m, lo, hi, (hi - m) / Z95


DIGITS = 9  # decimals of a fitted rating and its standard error (see fit_ratings)


def fit_ratings(
    players: Sequence[str], pairs: Sequence[tuple[str, str, float, float]], anchor: str
) -> tuple[np.ndarray, np.ndarray]:
    """Ratings and their standard errors from ``(a, b, difference, se)`` duels.

    Weighted least squares of ``r_a - r_b = difference`` with the anchor's rating
    fixed at 0. A player linked to the anchor by no chain of duels gets NaN. Both are
    rounded to :data:`DIGITS` decimals: the pseudo-inverse's last digits differ between
    machines' linear-algebra libraries, and the same duels must write the same files.
    """
    index = {p: i for i, p in enumerate(players)}
    free = [p for p in players if p != anchor]
    col = {p: j for j, p in enumerate(free)}
    A = np.zeros((len(pairs), len(free)))
    y = np.zeros(len(pairs))
    w = np.zeros(len(pairs))
    for k, (a, b, diff, err) in enumerate(pairs):
        if a in col:
            A[k, col[a]] += 1.0
        if b in col:
            A[k, col[b]] -= 1.0
        y[k] = diff
        w[k] = 1.0 / max(err, 1e-9) ** 2
    M = A.T @ (w[:, None] * A)
    rating = np.full(len(players), math.nan)
    se = np.full(len(players), math.nan)
    rating[index[anchor]] = 0.0
    se[index[anchor]] = 0.0
    if not free:
        return rating, se
    cov = np.linalg.pinv(M)
    r = cov @ (A.T @ (w * y))
    reach = np.abs(M).sum(axis=1) > 0
    for p, j in col.items():
        if reach[j]:
            rating[index[p]] = round(float(r[j]), DIGITS)
            se[index[p]] = round(math.sqrt(max(cov[j, j], 0.0)), DIGITS)
    return rating, se


def elo(rating: float, spread: float) -> float:
    """A rating (points per deal) on the Elo-like scale, a deal's difference logistic."""
    if not math.isfinite(rating) or spread <= 0:
        return math.nan
    s = spread * math.sqrt(3) / math.pi  # the logistic scale of that standard deviation
    p = 1.0 / (1.0 + math.exp(-rating / s))
    p = min(max(p, 1e-12), 1 - 1e-12)
    return 1500.0 + 400.0 * math.log10(p / (1.0 - p))


def ladder_result(players: Sequence[str], duels: Sequence[PairDuel]) -> LadderResult:
    """The ladder's pair table and ratings (anchor: ``heuristic`` if it plays)."""
    anchor = "heuristic" if "heuristic" in players else players[0]
    rows = []
    score_pairs, margin_pairs = [], []
    for d in duels:
        m, lo, hi, err = _interval(d.score)
        mm, mlo, mhi, merr = _interval(d.margin)
        rows.append({"a": d.a, "b": d.b, "deals": len(d.score), "score_diff": m, "ci_low": lo,
                     "ci_high": hi, "margin_diff": mm, "margin_ci_low": mlo,
                     "margin_ci_high": mhi})  # fmt: skip
        score_pairs.append((d.a, d.b, m, err))
        margin_pairs.append((d.a, d.b, mm, merr))
    r, se = fit_ratings(players, score_pairs, anchor)
    mr, mse_ = fit_ratings(players, margin_pairs, anchor)
    spread = float(np.concatenate([d.score for d in duels]).std()) if duels else 0.0
    count = {p: sum(p in (d.a, d.b) for d in duels) for p in players}
    ratings = pl.DataFrame(
        {
            "player": list(players),
            "rating": r,
            "ci_low": r - Z95 * se,
            "ci_high": r + Z95 * se,
            "margin_rating": mr,
            "margin_ci_low": mr - Z95 * mse_,
            "margin_ci_high": mr + Z95 * mse_,
            "elo": [elo(float(x), spread) for x in r],
            "duels": [count[p] for p in players],
        }
    ).sort("rating", descending=True, nulls_last=True)
    ratings = ratings.with_columns(pl.int_range(1, ratings.height + 1).alias("rank"))
    ratings = ratings.select(LADDER_RATINGS.names())
    pairs = pl.DataFrame(rows, schema=LADDER_PAIRS.polars_schema())
    return LadderResult(pairs, ratings, anchor, spread)


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


def ladder_from_json(doc: dict[str, Any]) -> LadderResult:
    """A :func:`ladder_json` document read back (the players' page keeps one)."""
    ratings = pl.DataFrame(doc["ratings"], schema=LADDER_RATINGS.polars_schema())
    pairs = pl.DataFrame(doc["pairs"], schema=LADDER_PAIRS.polars_schema())
    return LadderResult(pairs, ratings, doc["anchor"], float(doc["spread"]))


def _cell(name: str, lo: str, hi: str) -> Any:
    """A value with its interval in one cell."""
    return pl.format(
        "{} [{}, {}]", pl.col(name).round(2), pl.col(lo).round(2), pl.col(hi).round(2)
    ).alias(name)


def ladder_json(result: LadderResult) -> dict[str, Any]:
    """The ``ladder --json`` document."""
    return {
        "anchor": result.anchor,
        "spread": result.spread,
        "ratings": result.ratings.to_dicts(),
        "pairs": result.pairs.to_dicts(),
    }


def write_ladder_tables(result: LadderResult, out: Path) -> None:
    """``ladder_pairs.csv``, ``ladder_ratings.csv``, ``ladder.md`` and ``ladder.json``."""
    result.pairs.write_csv(out / LADDER_PAIRS.file)
    result.ratings.write_csv(out / LADDER_RATINGS.file)
    (out / "ladder.md").write_text(ladder_markdown(result), encoding="utf-8")
    write_json(out / "ladder.json", ladder_json(result))


__all__ = [
    "LadderResult",
    "PairDuel",
    "elo",
    "fit_ratings",
    "ladder_from_json",
    "ladder_json",
    "ladder_markdown",
    "ladder_result",
    "ladder_tables_markdown",
    "write_ladder_tables",
]
