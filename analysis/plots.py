"""Matplotlib figures of the report; each function returns a Figure, never shows it."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from matplotlib.figure import Figure


def plot_odds(table: pl.DataFrame, title: str) -> Figure:
    """Simulated probability with its 95 % interval beside the exact value, per key.

    The x axis is logarithmic: the keys span rare events (four aces, about 1 in
    1,500) and common ones (a marriage in hand plus talon, about 1 in 2).
    """
    keys = table["key"].to_list()
    est = table["estimate"].to_numpy()
    low = table["ci_low"].to_numpy()
    high = table["ci_high"].to_numpy()
    exact = table["exact"].fill_null(np.nan).to_numpy()
    y = np.arange(len(keys))[::-1]
    fig, ax = plt.subplots(figsize=(8.5, 0.32 * len(keys) + 1.6), layout="constrained")
    ax.errorbar(
        est,
        y,
        xerr=[est - low, high - est],
        fmt="o",
        ms=4,
        capsize=3,
        color="tab:blue",
        label="simulated (95 % Wilson interval)",
    )
    ax.plot(exact, y, "x", ms=7, color="tab:red", label="exact (combinatorics)")
    ax.set_yticks(y, keys, fontsize=8)
    ax.set_xscale("log")
    ax.set_xlabel("probability per deal (log scale)")
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", which="both", alpha=0.3)
    ax.legend(
        loc="upper center",
        bbox_to_anchor=(0.5, -0.06 - 1.2 / len(keys)),
        ncol=2,
        fontsize=8,
        frameon=False,
    )
    return fig


def plot_odds_z(table: pl.DataFrame, title: str) -> Figure:
    """Standardised difference (estimate − exact) / SE per key, with ±2 and ±4.5 bands."""
    t = table.filter(pl.col("z").is_not_null())
    keys = t["key"].to_list()
    z = t["z"].to_numpy()
    y = np.arange(len(keys))[::-1]
    fig, ax = plt.subplots(figsize=(8.5, 0.32 * len(keys) + 1.6), layout="constrained")
    ax.axvspan(-2, 2, color="tab:green", alpha=0.12, label="|z| < 2")
    ax.axvline(-4.5, color="tab:red", lw=0.8, ls="--", label="test tolerance ±4.5 SE")
    ax.axvline(4.5, color="tab:red", lw=0.8, ls="--")
    ax.plot(z, y, "o", ms=4, color="tab:blue")
    ax.set_yticks(y, keys, fontsize=8)
    ax.set_xlabel("(simulated − exact) / standard error  [standard errors]")
    ax.set_xlim(-6, 6)
    ax.set_title(title, fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    return fig
