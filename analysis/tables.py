"""Tables built from simulation results (polars), each rate with its interval."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import numpy as np
import polars as pl

from analysis.stats import binomial_se, wilson_interval
from sim.odds_keys import ODDS_KEYS


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
