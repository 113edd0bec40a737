"""Matplotlib figures of the report; each function returns a Figure, never shows it.

Their titles, labels and legends are in the current language (:mod:`sim.i18n`); a
title or label longer than its figure is wide is wrapped onto more lines.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

import matplotlib
from matplotlib.patches import Patch

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from matplotlib.figure import Figure
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.ticker import ScalarFormatter

from sim.i18n import _, number, role

# Room between the canvas edge and what is drawn (inches; matplotlib's default is
# 3/72): the layout is made at the screen's resolution and the PNG drawn at 90 dpi,
# where a long label (a tick label in words) comes out a few pixels wider.
PAD = 0.08


def _layout() -> ConstrainedLayoutEngine:
    """A constrained layout with :data:`PAD` around the figure (one per figure)."""
    return ConstrainedLayoutEngine(w_pad=PAD, h_pad=PAD)


class _DecimalComma(ScalarFormatter):
    """Tick numbers with a decimal comma (``0,25``), as Russian, Ukrainian and Polish write."""

    def __call__(self, x: float, pos: int | None = None) -> str:
        return super().__call__(x, pos).replace(".", ",")


def _numbers_in_language(fig: Figure) -> Figure:
    """``fig`` with its axes' plain tick numbers written as the current language writes them."""
    if number(0.5, 1) == "0.5":
        return fig
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if type(axis.get_major_formatter()) is ScalarFormatter:
                axis.set_major_formatter(_DecimalComma())
    return fig


def _wrap(text: str, inches: float, fontsize: float = 10.0) -> str:
    """``text`` broken onto lines that fit ``inches`` at ``fontsize`` points."""
    width = max(20, int(inches * 72 / (0.6 * fontsize)))
    return "\n".join(textwrap.wrap(text, width)) if len(text) > width else text


def _key_words(table: pl.DataFrame, width: int = 64) -> list[str]:
    """The odds keys in words (their ``meaning``), shortened to ``width`` characters."""
    if "meaning" not in table.columns:
        return [str(k) for k in table["key"]]
    out = []
    for m in table["meaning"]:
        text = str(m)
        out.append(text if len(text) <= width else text[: width - 1].rstrip() + "…")
    return out


def plot_odds(table: pl.DataFrame, title: str) -> Figure:
    """Simulated probability with its 95 % interval beside the exact value, per key.

    The x axis is logarithmic: the keys span rare events (four aces, about 1 in
    1,500) and common ones (a marriage in hand plus talon, about 1 in 2).
    """
    keys = table["key"].to_list()
    labels = _key_words(table)
    est = table["estimate"].to_numpy()
    low = table["ci_low"].to_numpy()
    high = table["ci_high"].to_numpy()
    exact = table["exact"].fill_null(np.nan).to_numpy()
    y = np.arange(len(keys))[::-1]
    fig, ax = plt.subplots(figsize=(8.5, 0.32 * len(keys) + 1.6), layout=_layout())
    ax.errorbar(
        est,
        y,
        xerr=[est - low, high - est],
        fmt="o",
        ms=4,
        capsize=3,
        color="tab:blue",
        label=_("simulated (95 % Wilson interval)"),
    )
    ax.plot(exact, y, "x", ms=7, color="tab:red", label=_("exact (combinatorics)"))
    ax.set_yticks(y, labels, fontsize=7)
    ax.set_xscale("log")
    ax.set_xlabel(_("probability per deal (log scale)"))
    ax.set_title(_wrap(title, 6.0), fontsize=10)
    ax.grid(axis="x", which="both", alpha=0.3)
    ax.legend(
        loc="upper center",
        bbox_to_anchor=(0.5, -0.06 - 1.2 / len(keys)),
        ncol=2,
        fontsize=8,
        frameon=False,
    )
    return _numbers_in_language(fig)


def plot_odds_z(table: pl.DataFrame, title: str) -> Figure:
    """Standardised difference (estimate − exact) / SE per key, with ±2 and ±4.5 bands."""
    t = table.filter(pl.col("z").is_not_null())
    keys = t["key"].to_list()
    z = t["z"].to_numpy()
    y = np.arange(len(keys))[::-1]
    fig, ax = plt.subplots(figsize=(8.5, 0.32 * len(keys) + 1.6), layout=_layout())
    ax.axvspan(-2, 2, color="tab:green", alpha=0.12, label="|z| < 2")
    ax.axvline(
        -4.5,
        color="tab:red",
        lw=0.8,
        ls="--",
        label=_("the tests' tolerance: ±4.5 standard errors"),
    )
    ax.axvline(4.5, color="tab:red", lw=0.8, ls="--")
    ax.plot(z, y, "o", ms=4, color="tab:blue")
    ax.set_yticks(y, _key_words(t), fontsize=7)
    ax.set_xlabel(_wrap(_("(simulated − exact) / standard error"), 6.0))
    ax.set_xlim(-6, 6)
    ax.set_title(_wrap(title, 6.0), fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    return _numbers_in_language(fig)


def _errorbar_args(est: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Non-negative error-bar lengths ``[est - low, high - est]`` (NaN where unknown)."""
    return np.vstack([np.clip(est - low, 0, None), np.clip(high - est, 0, None)])


def _nums(frame: pl.DataFrame, column: str) -> np.ndarray:
    return frame[column].cast(pl.Float64).fill_null(np.nan).to_numpy()


def plot_marriages(table: pl.DataFrame, title: str) -> Figure:
    """Marriage frequency by suit: held, in hand plus talon, declared; exact values marked.

    Args:
        table: :func:`analysis.marriages.marriage_table` (``where, suit, rate, ci_*, exact``).
        title: the figure's title.
    """
    from views.marriages import WHERE, suit_words

    views = [
        ("hand", _(WHERE["hand"]), "tab:blue"),
        ("hand_talon", _(WHERE["hand_talon"]), "tab:orange"),
        ("declared", _(WHERE["declared"]), "tab:green"),
    ]
    views = [v for v in views if table.filter(pl.col("where") == v[0]).height]
    suits = list(dict.fromkeys(table["suit"].to_list()))
    x = np.arange(len(suits), dtype=np.float64)
    width = 0.8 / max(len(views), 1)
    fig, ax = plt.subplots(figsize=(7.5, 3.8), layout=_layout())
    for i, (where, label, color) in enumerate(views):
        t = pl.DataFrame({"suit": suits}).join(
            table.filter(pl.col("where") == where), on="suit", how="left"
        )
        est, low, high = _nums(t, "rate"), _nums(t, "ci_low"), _nums(t, "ci_high")
        pos = x + (i - (len(views) - 1) / 2) * width
        ax.bar(
            pos,
            est,
            width * 0.95,
            color=color,
            alpha=0.75,
            label=_("{what} (95 % CI)").format(what=label),
        )
        ax.errorbar(pos, est, yerr=_errorbar_args(est, low, high), fmt="none", ecolor="k", lw=1)
        exact = _nums(t, "exact")
        if np.isfinite(exact).any():
            ax.plot(pos, exact, "_", ms=14, mew=2, color="tab:red")
    ax.plot([], [], "_", ms=14, mew=2, color="tab:red", label=_("exact (combinatorics)"))
    ax.set_xticks(x, [suit_words(s) for s in suits])
    ax.set_xlabel(_("marriage suit"))
    ax.set_ylabel(_("probability per deal"))
    ax.set_title(_wrap(title, 7.0), fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    return _numbers_in_language(fig)


def plot_make_rate(by_contract: pl.DataFrame, title: str, min_n: int) -> Figure:
    """Make rate against contract level with 95 % intervals, and contracts per level.

    Top: the share of played contracts made, and the share of all contracts made
    (a concession counting as a failure), for levels with at least ``min_n``
    played contracts. Bottom: contracts per level, played and conceded.

    Args:
        by_contract: the ``by_contract`` table of :func:`analysis.bids.bid_tables`.
        title: the figure's title.
        min_n: levels with fewer played contracts are left out of the top panel.
    """
    t = by_contract.sort("contract")
    shown = t.filter(pl.col("n") >= min_n)
    fig, (ax, ax_n) = plt.subplots(
        2,
        1,
        figsize=(8.0, 5.4),
        sharex=True,
        height_ratios=(3, 1.3),
        layout=_layout(),
    )
    x = _nums(shown, "contract")
    for rate, low, high, label, color, dx in (
        ("rate", "ci_low", "ci_high", _("made / played contracts"), "tab:blue", -0.6),
        (
            "rate_all",
            "ci_low_all",
            "ci_high_all",
            _("made / all contracts (a concession fails)"),
            "tab:gray",
            0.6,
        ),
    ):
        est = _nums(shown, rate)
        ax.errorbar(
            x + dx,
            est,
            yerr=_errorbar_args(est, _nums(shown, low), _nums(shown, high)),
            fmt="o-",
            ms=3.5,
            lw=1,
            capsize=2,
            color=color,
            label=_("{what} (95 % Wilson interval)").format(what=label),
        )
    ax.set_ylim(0, 1.02)
    ax.set_ylabel(_("make rate (share of contracts)"))
    ax.set_title(_wrap(title, 7.5), fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower left")
    xa = _nums(t, "contract")
    played = _nums(t, "n")
    conceded = _nums(t, "conceded")
    ax_n.bar(xa, played, width=3.5, color="tab:blue", alpha=0.6, label=_("played"))
    ax_n.bar(
        xa, conceded, width=3.5, bottom=played, color="tab:red", alpha=0.6, label=_("conceded")
    )
    ax_n.set_yscale("log")
    ax_n.set_ylabel(_("contracts (log scale)"))
    ax_n.set_xlabel(_("contract (points)"))
    ax_n.legend(fontsize=8, loc="upper right")
    ax_n.grid(axis="y", alpha=0.3)
    return _numbers_in_language(fig)


def plot_safe_bids(safe: pl.DataFrame, title: str) -> Figure:
    """Safe bid level against the declarer's hand points, one line per marriage count.

    Args:
        safe: the ``safe_bids`` table of :func:`analysis.bids.bid_tables`.
        title: the figure's title.
    """
    thresholds = sorted(set(safe["threshold"].to_list()))
    fig, axes = plt.subplots(
        1,
        len(thresholds),
        figsize=(3.0 * len(thresholds) + 1.0, 3.6),
        sharex=True,
        sharey=True,
        layout=_layout(),
    )
    axes = np.atleast_1d(axes)
    colors = {"0": "tab:gray", "1": "tab:blue", "2+": "tab:green"}
    names = {"0": _("no marriage"), "1": _("1 marriage"), "2+": _("2+ marriages")}
    for ax, threshold in zip(axes, thresholds, strict=True):
        t = safe.filter(pl.col("threshold") == threshold)
        for marriages in sorted(set(t["marriages"].to_list())):
            m = t.filter(pl.col("marriages") == marriages).sort("band_low")
            ax.plot(
                _nums(m, "band_low") + 4.5,
                _nums(m, "level"),
                "o-",
                ms=3.5,
                color=colors.get(str(marriages)),
                label=names.get(str(marriages), str(marriages)),
            )
        share = number(100 * threshold)
        ax.set_title(_("make rate ≥ {share} %").format(share=share), fontsize=9)
        ax.set_xlabel(_wrap(_("declarer's hand points (band centre)"), 2.8, 10))
        ax.grid(alpha=0.3)
    axes[0].set_ylabel(_("highest safe contract (points)"))
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=3, fontsize=8, frameon=False)
    fig.suptitle(_wrap(title, 3.0 * len(thresholds) + 0.8), fontsize=10)
    return _numbers_in_language(fig)


def plot_game_length(histogram: pl.DataFrame, mean: float | None, title: str) -> Figure:
    """Histogram of game length (played deals per finished game), mean marked.

    Args:
        histogram: the ``length_histogram`` table of :func:`analysis.barrel.barrel_tables`.
        mean: mean length in deals (a vertical line), or None.
        title: the figure's title.
    """
    low = _nums(histogram, "bin_low")
    high = _nums(histogram, "bin_high")
    share = _nums(histogram, "share")
    fig, ax = plt.subplots(figsize=(7.5, 3.4), layout=_layout())
    ax.bar(
        low,
        share * 100,
        width=high - low + 1,
        align="edge",
        color="tab:blue",
        alpha=0.7,
        edgecolor="white",
    )
    if mean is not None and np.isfinite(mean):
        ax.axvline(
            mean,
            color="tab:red",
            lw=1.2,
            ls="--",
            label=_("mean: {mean} deals").format(mean=number(mean, 1)),
        )
        ax.legend(fontsize=8)
    ax.set_xlabel(_("game length (played deals, redeals excluded)"))
    ax.set_ylabel(_("finished games (%)"))
    ax.set_title(_wrap(title, 7.0), fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    return _numbers_in_language(fig)


def plot_barrel_outcomes(
    outcomes: pl.DataFrame, title: str, words: dict[str, str] | None = None
) -> Figure:
    """How barrel stints end: share of stints per outcome with 95 % intervals.

    Args:
        outcomes: the ``barrel_outcomes`` table of :func:`analysis.barrel.barrel_tables`.
        title: the figure's title.
        words: each outcome's label (default: its name).
    """
    t = outcomes.filter(pl.col("outcome").is_not_null())
    names = t["outcome"].to_list()
    est, low, high = _nums(t, "share"), _nums(t, "ci_low"), _nums(t, "ci_high")
    y = np.arange(len(names))[::-1]
    fig, ax = plt.subplots(figsize=(7.0, 0.4 * len(names) + 1.4), layout=_layout())
    colors = [
        "tab:green" if n == "won" else "tab:gray" if n == "game_over" else "tab:red" for n in names
    ]
    ax.barh(y, est, color=colors, alpha=0.7)
    ax.errorbar(
        est, y, xerr=_errorbar_args(est, low, high), fmt="none", ecolor="k", capsize=3, lw=1
    )
    ax.set_yticks(y, [(words or {}).get(n, n) for n in names], fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_xlabel(_("share of barrel stints (95 % Wilson interval)"))
    ax.set_title(_wrap(title, 5.0), fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    return _numbers_in_language(fig)


def plot_seat_advantage(
    relative: pl.DataFrame, absolute: pl.DataFrame, players: int, title: str
) -> Figure:
    """Win rate by seat with 95 % intervals and the even share 1 / players.

    Args:
        relative: ``seat_relative`` of :func:`analysis.barrel.barrel_tables`.
        absolute: ``seat_absolute`` of the same.
        players: number of players (the even share is drawn at 1 / players).
        title: the figure's title.
    """
    fig, axes = plt.subplots(1, 2, figsize=(8.0, 3.4), sharey=True, layout=_layout())
    panels = (
        (
            relative,
            [
                f"{role(p)} ({o})"
                for p, o in zip(relative["position"], relative["offset"], strict=True)
            ],
            _("winner's place in the first deal (seats after the dealer)"),
        ),
        (absolute, [str(s) for s in absolute["seat"]], _("winner's absolute seat")),
    )
    for ax, (t, labels, xlabel) in zip(axes, panels, strict=True):
        est, low, high = _nums(t, "rate"), _nums(t, "ci_low"), _nums(t, "ci_high")
        x = np.arange(len(labels))
        ax.bar(x, est, 0.6, color="tab:blue", alpha=0.7)
        ax.errorbar(
            x, est, yerr=_errorbar_args(est, low, high), fmt="none", ecolor="k", capsize=4, lw=1
        )
        ax.axhline(
            1 / players,
            color="tab:red",
            ls="--",
            lw=1,
            label=_("even share 1/{players}").format(players=players),
        )
        ax.set_xticks(x, labels, fontsize=8)
        ax.set_xlabel(_wrap(xlabel, 3.6, 10))
        ax.grid(axis="y", alpha=0.3)
    top = max(
        float(np.nanmax(_nums(t, "ci_high"))) if t.height else 0.0 for t in (relative, absolute)
    )
    axes[0].set_ylim(0, max(top * 1.15, 1.5 / players))
    axes[0].set_ylabel(_wrap(_("win rate (share of finished games)"), 3.0, 10))
    axes[0].legend(fontsize=8, loc="lower left")
    fig.suptitle(_wrap(title, 7.5), fontsize=10)
    return _numbers_in_language(fig)


def plot_compare(compare: pl.DataFrame, title: str) -> Figure:
    """Forest plot: each metric's difference (other − base) with its 95 % interval.

    One panel per metric (metrics have their own units), one row per compared
    rule set; the dashed line is no difference.

    Args:
        compare: rows ``metric, meaning, rules, vs, diff, diff_ci_low, diff_ci_high, ...``.
        title: the figure's title.
    """
    metrics = list(dict.fromkeys(compare["metric"].to_list()))
    rows = [compare.filter(pl.col("metric") == m) for m in metrics]
    heights = [max(t.height, 1) * 0.35 + 0.55 for t in rows]
    fig, axes = plt.subplots(
        len(metrics),
        1,
        figsize=(7.5, sum(heights) + 0.8),
        height_ratios=heights,
        layout=_layout(),
    )
    axes = np.atleast_1d(axes)
    labels = [[f"{v} − {b}" for v, b in zip(t["vs"], t["rules"], strict=True)] for t in rows]
    # a panel's title starts where its axes do, right of the widest row label
    room = 7.0 - 0.6 * 8 / 72 * max((len(lab) for each in labels for lab in each), default=0)
    for ax, metric, t, names in zip(axes, metrics, rows, labels, strict=True):
        est, low, high = _nums(t, "diff"), _nums(t, "diff_ci_low"), _nums(t, "diff_ci_high")
        y = np.arange(t.height)[::-1]
        ax.axvline(0, color="k", ls="--", lw=0.8)
        ax.errorbar(
            est, y, xerr=_errorbar_args(est, low, high), fmt="o", ms=4, capsize=3, color="tab:blue"
        )
        ax.set_yticks(y, names, fontsize=8)
        ax.set_ylim(-0.6, t.height - 0.4)
        meaning = str(t["meaning"][0]) if t.height else metric
        ax.set_title(_wrap(meaning, room, 8), fontsize=8, loc="left")
        ax.set_xlabel(_("other − base"), fontsize=8)
        ax.set_ylabel(_("rule sets"), fontsize=8)
        ax.tick_params(axis="x", labelsize=8)
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle(_wrap(title, 7.0), fontsize=10)
    return _numbers_in_language(fig)


def plot_compare_seats(seats: pl.DataFrame, skill: pl.DataFrame, title: str) -> Figure:
    """Games won from each starting seat by rule set, and each rule set's skill index.

    Left: a group of bars per seat (by place after the first dealer), one bar per rule
    set, with 95 % intervals, and each table's fair share. Right (where ``skill`` has
    rows): the share of games one skilled player wins, by rule set, with its interval
    and the fair share.

    Args:
        seats: :func:`analysis.compare.seat_shares`.
        skill: ``rules, share, ci_low, ci_high, fair`` by rule set (may be empty).
        title: the figure's title.
    """
    names = list(dict.fromkeys(seats["rules"].to_list()))
    positions = list(dict.fromkeys(seats.sort("offset")["position"].to_list()))
    panels = 2 if skill.height else 1
    fig, axes = plt.subplots(
        1, panels, figsize=(8.0, 3.6), layout=_layout(), width_ratios=[3, 1.3][:panels]
    )
    axes = np.atleast_1d(axes)
    ax = axes[0]
    width = 0.8 / max(len(names), 1)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, name in enumerate(names):
        t = seats.filter(pl.col("rules") == name).sort("offset")
        x = t["offset"].to_numpy() + (k - (len(names) - 1) / 2) * width
        est, low, high = _nums(t, "share"), _nums(t, "ci_low"), _nums(t, "ci_high")
        color = colors[k % len(colors)]
        ax.bar(x, est * 100, width, color=color, alpha=0.75, label=name)
        ax.errorbar(
            x, est * 100, yerr=_errorbar_args(est, low, high) * 100, fmt="none", ecolor="k",
            capsize=2, lw=0.8,
        )  # fmt: skip
        fair = float(t["fair"][0]) * 100
        ax.hlines(fair, x.min() - width / 2, x.max() + width / 2, colors=color, ls="--", lw=1)
    ax.set_xticks(range(len(positions)), [role(p) for p in positions], fontsize=8)
    ax.set_ylabel(_wrap(_("finished games won (%); dashed: the fair share"), 3.2, 9), fontsize=9)
    ax.set_xlabel(_("the seat by place after the first dealer"), fontsize=9)
    ax.legend(fontsize=8, loc="lower left")
    ax.grid(axis="y", alpha=0.3)
    if panels == 2:
        ax = axes[1]
        est, low, high = _nums(skill, "share"), _nums(skill, "ci_low"), _nums(skill, "ci_high")
        bars = np.arange(skill.height)
        ax.bar(bars, est * 100, 0.6, color=[colors[k % len(colors)] for k in bars], alpha=0.75)
        ax.errorbar(
            bars, est * 100, yerr=_errorbar_args(est, low, high) * 100, fmt="none", ecolor="k",
            capsize=3, lw=0.8,
        )  # fmt: skip
        for k, fair in enumerate(_nums(skill, "fair")):
            ax.hlines(fair * 100, k - 0.35, k + 0.35, colors="tab:red", ls="--", lw=1)
        ax.set_xticks(bars, skill["rules"].to_list(), fontsize=8, rotation=20)
        ax.set_title(
            _wrap(_("skill index: games won by the skilled player (%)"), 2.4, 8), fontsize=8
        )
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle(_wrap(title, 7.5), fontsize=10)
    return _numbers_in_language(fig)


def plot_compare_lengths(lengths: pl.DataFrame, title: str) -> Figure:
    """Game lengths by rule set: each set's histogram as a line over the same bins.

    Args:
        lengths: :func:`analysis.compare.length_histograms`.
        title: the figure's title.
    """
    fig, ax = plt.subplots(figsize=(7.5, 3.4), layout=_layout())
    for name in dict.fromkeys(lengths["rules"].to_list()):
        t = lengths.filter(pl.col("rules") == name)
        low, high = _nums(t, "bin_low"), _nums(t, "bin_high")
        edges = np.append(low, high[-1] + 1) if len(low) else low
        share = _nums(t, "share") * 100
        ax.stairs(share, edges, label=name, lw=1.5)
    ax.set_xlabel(_("game length (played deals, redeals excluded)"))
    ax.set_ylabel(_("games (%)"))
    ax.legend(fontsize=8)
    ax.set_title(_wrap(title, 7.0), fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    return _numbers_in_language(fig)


def plot_tornado(panels: Sequence[tuple[str, Sequence[str], np.ndarray]], title: str) -> Figure:
    """Tornado panels: each one's largest effects as bars with their 95 % intervals.

    Args:
        panels: ``(title, labels, values)`` per panel, ``values`` of shape ``(3, rows)``:
            the effect, its interval's low and high end, largest first.
        title: the figure's title.
    """
    heights = [max(len(labels), 1) * 0.32 + 0.9 for _t, labels, _v in panels]
    fig, axes = plt.subplots(
        max(len(panels), 1), 1, figsize=(8.0, sum(heights) + 0.6),
        height_ratios=heights or [1], layout=_layout(),
    )  # fmt: skip
    axes = np.atleast_1d(axes)
    for ax, (name, labels, values) in zip(axes, panels, strict=False):
        est, low, high = values
        y = np.arange(len(labels))[::-1]
        colors = ["tab:red" if v < 0 else "tab:blue" for v in est]
        ax.barh(y, est, color=colors, alpha=0.7)
        ax.errorbar(
            est, y, xerr=_errorbar_args(est, low, high), fmt="none", ecolor="k", capsize=2, lw=0.8
        )
        ax.axvline(0, color="k", lw=0.8)
        ax.set_yticks(y, [_wrap(lab, 3.6, 7) for lab in labels], fontsize=7)
        ax.set_title(_wrap(name, 4.0, 9), fontsize=9, loc="left")
        ax.tick_params(axis="x", labelsize=8)
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle(_wrap(title, 7.5), fontsize=10)
    return _numbers_in_language(fig)


def plot_safe_curves(curve: pl.DataFrame, rules_name: str, min_n: int = 30) -> Figure:
    """P(make L) against the bid level L, one panel per player, a line per marriage class.

    Classes with fewer than ``min_n`` hands are left out (their intervals span most of
    the axis); the shaded band is the 95 % Wilson interval.
    """
    players = list(dict.fromkeys(curve["player"].to_list()))
    fig, axes = plt.subplots(
        1,
        len(players),
        figsize=(max(3.4 * len(players) + 1.0, 6.4), 3.8),
        sharey=True,
        layout=_layout(),
        squeeze=False,
    )
    classes = ["none", "♠", "♣", "♦", "♥"]
    colors = dict(
        zip(classes, ("tab:gray", "tab:blue", "tab:green", "tab:orange", "tab:red"), strict=True)
    )
    for ax, player in zip(axes[0], players, strict=True):
        t = curve.filter((pl.col("player") == player) & (pl.col("n") >= min_n))
        for cls in classes:
            m = t.filter(pl.col("marriages") == cls).sort("level")
            if m.is_empty():
                continue
            x = _nums(m, "level")
            label = _("no marriage") if cls == "none" else _("{suits} marriage").format(suits=cls)
            ax.plot(x, _nums(m, "rate"), "-", color=colors[cls], label=label, lw=1.4)
            ax.fill_between(
                x, _nums(m, "ci_low"), _nums(m, "ci_high"), color=colors[cls], alpha=0.2
            )
        ax.set_title(player, fontsize=9)
        ax.set_xlabel(_("bid level"))
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel(_("P(the hand makes it)"))
    handles, labels = axes[0][0].get_legend_handles_labels()
    for ax in axes[0][1:]:
        for h, lab in zip(*ax.get_legend_handles_labels(), strict=True):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    fig.legend(handles, labels, loc="outside lower center", ncol=5, fontsize=8, frameon=False)
    title = _("Make rate by bid level and marriage ({rules})").format(rules=rules_name)
    fig.suptitle(_wrap(title, max(3.4 * len(players) + 1.0, 6.4) - 0.4), fontsize=10)
    return _numbers_in_language(fig)


def plot_calibration(bins: pl.DataFrame, rules_name: str) -> Figure:
    """Held-out make rate (95 % interval) against the rate the tables predicted."""
    fig, ax = plt.subplots(figsize=(4.8, 4.4), layout=_layout())
    ax.plot([0, 1], [0, 1], "--", color="gray", lw=1, label=_("perfect calibration"))
    for k, player in enumerate(dict.fromkeys(bins["player"].to_list())):
        t = bins.filter(pl.col("player") == player)
        x = _nums(t, "predicted") + 0.006 * k
        est = _nums(t, "observed")
        ax.errorbar(
            x,
            est,
            yerr=_errorbar_args(est, _nums(t, "ci_low"), _nums(t, "ci_high")),
            fmt="o",
            ms=4,
            capsize=2,
            label=player,
        )
    ax.set_xlabel(_wrap(_("make rate predicted by the tables (run seed)"), 4.2))
    ax.set_ylabel(_wrap(_("make rate of held-out hands"), 3.8))
    title = _("Held-out check of the safe-bid tables ({rules})").format(rules=rules_name)
    ax.set_title(_wrap(title, 4.2), fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return _numbers_in_language(fig)


LEVEL_BANDS = (120, 140, 160, 180, 200)
"""The upper ends of the bid grid's colour bands (a level above the last: its own band)."""


def plot_bid_grid(choices: pl.DataFrame, seats: Sequence[str]) -> Figure:
    """How high to bid as a picture: marriages down, aces across, a stripe per seat.

    ``choices`` is :func:`analysis.guide.bid_choices_table` (the class tables' choice of
    every class at every seat); ``seats`` the hand seats' names in turn. Each cell is cut
    into one stripe per seat (forehand first), coloured by the level to bid up to (greener
    the higher, by bands of 20: :data:`LEVEL_BANDS`), grey where the choice is to pass; a
    dash where no hand is of the class. The rows and columns are the grid's
    (:func:`views.advisor_page.glance_grid`, in the order of ``choices``), whose table
    gives the levels themselves. Small enough for a 390 px phone (about 310 px wide at the
    pages' resolution).
    """
    cell: dict[tuple[str, int], list[int]] = {}
    for r in choices.iter_rows(named=True):
        cell.setdefault((r["marriages"], int(r["aces"])), []).append(int(r["choice"]))
    rows = list(dict.fromkeys(m for m, _a in cell))  # bid_choices_table's order: the grid's
    aces = sorted({a for _m, a in cell})
    bands = len(LEVEL_BANDS) + 1
    greens = plt.get_cmap("Greens")
    palette: list[Any] = ["#d9d9d9"]
    palette += [greens(0.3 + 0.65 * k / (bands - 1)) for k in range(bands)]

    def band(level: int) -> int:  # 0: pass; 1...: the level's band
        return 0 if level == 0 else 1 + int(np.searchsorted(LEVEL_BANDS, level))

    fig, ax = plt.subplots(figsize=(3.45, 1.7 + 0.24 * len(rows)), layout=_layout())
    for i, m in enumerate(rows):
        for j, a in enumerate(aces):
            levels = cell.get((m, a))
            if levels is None:
                ax.text(j + 0.5, i + 0.5, "—", ha="center", va="center", fontsize=9,
                        color="#999")  # fmt: skip
                continue
            width = 0.92 / len(levels)
            for k, level in enumerate(levels):
                ax.add_patch(plt.Rectangle((j + 0.04 + k * width, i + 0.06), width, 0.88,
                                           facecolor=palette[band(level)], edgecolor="white",
                                           lw=0.6))  # fmt: skip
    ax.set_xlim(0, len(aces))
    ax.set_ylim(len(rows), 0)
    ax.set_xticks([j + 0.5 for j in range(len(aces))], [str(a) for a in aces])
    names = [_("none") if m == "none" else m for m in rows]
    ax.set_yticks([i + 0.5 for i in range(len(rows))], names)
    ax.tick_params(length=0, labelsize=9)
    for label, m in zip(ax.get_yticklabels(), rows, strict=True):
        if m != "none":
            label.set_fontsize(11)
            if m in ("♥", "♦"):  # a red suit alone: red
                label.set_color("#c0392b")
    ax.xaxis.set_ticks_position("top")
    ax.xaxis.set_label_position("top")
    ax.set_xlabel(_("aces"), fontsize=9)
    ax.set_ylabel(_("marriages"), fontsize=9)
    for side in ax.spines.values():
        side.set_visible(False)
    edges = [101, *(e + 5 for e in LEVEL_BANDS)]
    words = [role("pass")]
    words += [f"{lo}–{hi}" for lo, hi in zip(edges, LEVEL_BANDS, strict=False)]
    words[1] = f"≤{LEVEL_BANDS[0]}"
    words.append(f"{edges[-1]}+")
    handles = [Patch(facecolor=c, edgecolor="none") for c in palette]
    fig.legend(handles, words, loc="outside lower center", ncol=4, fontsize=8, frameon=False,
               handlelength=1.2, columnspacing=0.8)  # fmt: skip
    title = _("Bid up to: the level of the best margin; each cell's stripes: {seats}").format(
        seats=" | ".join(role(seat) for seat in seats)
    )
    fig.suptitle(_wrap(title, 3.2, 9), fontsize=9)
    return fig
