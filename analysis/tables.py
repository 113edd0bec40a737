"""Tables built from simulation results (polars), each rate with its interval."""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

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
