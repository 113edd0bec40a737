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
from typing import Any

import numpy as np
import polars as pl

from analysis.duel import mean_interval
from analysis.schema.ladder import LADDER_PAIRS, LADDER_RATINGS
from analysis.stats import Z95


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


def ladder_from_json(doc: dict[str, Any]) -> LadderResult:
    """A :func:`ladder_json` document read back (the players' page keeps one)."""
    ratings = pl.DataFrame(doc["ratings"], schema=LADDER_RATINGS.polars_schema())
    pairs = pl.DataFrame(doc["pairs"], schema=LADDER_PAIRS.polars_schema())
    return LadderResult(pairs, ratings, doc["anchor"], float(doc["spread"]))


def ladder_json(result: LadderResult) -> dict[str, Any]:
    """The ``ladder --json`` document."""
    return {
        "anchor": result.anchor,
        "spread": result.spread,
        "ratings": result.ratings.to_dicts(),
        "pairs": result.pairs.to_dicts(),
    }


__all__ = [
    "DIGITS",
    "LadderResult",
    "PairDuel",
    "elo",
    "fit_ratings",
    "ladder_from_json",
    "ladder_json",
    "ladder_result",
]
