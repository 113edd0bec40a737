"""House-rule comparisons on common random numbers: effects with intervals.

The games of a comparison are played under every rule set with the same seed, so
game ``g`` of each set is dealt from the same cards and random streams (common
random numbers, CRN). Each metric is a ratio of per-game sums,
``r = Σ num_g / Σ den_g`` (a mean when ``den_g = 1``); its standard error comes from
the linearisation ``z_g = (num_g − r · den_g) / mean(den)`` (the delta method). The
effect of a rule set against the base is ``r_vs − r_base`` with

* the **CRN** standard error ``sd(z_vs,g − z_base,g) / √n`` — paired by game id;
* the **independent** standard error ``√(var z_vs / n + var z_base / n)`` — what
  two runs with unrelated random numbers would give.

Both interval widths are reported, so the gain of pairing is visible. What is shown
(the Markdown, the sentences) is in the current language (:mod:`sim.i18n`); the
tables' data keep their English code names and meanings.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis.glossary import CONCEDED_ALL, MADE_PLAYED
from analysis.schema.compare import COMPARE
from analysis.schema.report import DEALING_ODDS
from analysis.stats import Z95, wilson_interval
from sim.i18n import N_, _, interval_separator, number
from sim.rules import Rules
from sim.schema import GAMES

COLUMNS = tuple(COMPARE.names())
"""The columns of a comparison table (``compare.csv``), in order."""


@dataclass(frozen=True)
class Metric:
    """A per-game ratio: ``num(games)`` over ``den(games)`` (numpy arrays per game)."""

    name: str
    meaning: str
    num: Callable[[pl.DataFrame, int], np.ndarray]
    den: Callable[[pl.DataFrame, int], np.ndarray]


def _col(name: str) -> Callable[[pl.DataFrame, int], np.ndarray]:
    return lambda g, n: g[name].cast(pl.Float64).to_numpy()


def _seat_sum(stem: str) -> Callable[[pl.DataFrame, int], np.ndarray]:
    def total(g: pl.DataFrame, n: int) -> np.ndarray:
        out = np.zeros(g.height)
        for s in range(n):
            out += g[f"{stem}_{s}"].cast(pl.Float64).to_numpy()
        return out

    return total


def _ones(g: pl.DataFrame, n: int) -> np.ndarray:
    return np.ones(g.height)


def _finished(g: pl.DataFrame, n: int) -> np.ndarray:
    return (g["winner"].to_numpy() >= 0).astype(np.float64)


def _won_at(offset: int) -> Callable[[pl.DataFrame, int], np.ndarray]:
    def won(g: pl.DataFrame, n: int) -> np.ndarray:
        w = g["winner"].to_numpy().astype(np.int64)
        first = g["first_dealer"].to_numpy().astype(np.int64)
        return ((w >= 0) & ((w - first) % n == offset)).astype(np.float64)

    return won


METRICS: tuple[Metric, ...] = (
    Metric("game_length", N_("played deals per game (mean)"), _col("n_deals"), _ones),
    Metric(
        "first_dealer_wins",
        N_("share of finished games won by the first dealer's seat"),
        _won_at(0),
        _finished,
    ),
    Metric(
        "forehand_wins",
        N_("share of finished games won by the first forehand's seat"),
        _won_at(1),
        _finished,
    ),
    Metric(
        "barrel_fall_rate",
        N_("barrel entries that ended in a fall"),
        _seat_sum("barrel_falls"),
        _seat_sum("barrel_entries"),
    ),
    Metric(
        "declarer_make_rate",
        MADE_PLAYED.words,
        _col("contracts_made"),
        lambda g, n: _col("contracts")(g, n) - _col("contracts_conceded")(g, n),
    ),
    Metric(
        "concession_rate",
        CONCEDED_ALL.words,
        _col("contracts_conceded"),
        _col("contracts"),
    ),
    Metric(
        "average_contract", N_("mean contract (points)"), _col("contract_sum"), _col("contracts")
    ),
    Metric("bolt_penalties", N_("bolt penalties per game"), _seat_sum("bolt_penalties"), _ones),
    Metric("samosvals", N_("555 resets per game"), _seat_sum("samosvals"), _ones),
)
"""The metrics of a comparison; each ``meaning`` is marked (``N_``) and shown translated."""


def _linearised(num: np.ndarray, den: np.ndarray) -> tuple[float, np.ndarray]:
    """The ratio ``Σnum / Σden`` and its per-game influence values ``z_g``."""
    total = den.sum()
    if total <= 0:
        return float("nan"), np.full(len(num), np.nan)
    r = float(num.sum() / total)
    return r, (num - r * den) / den.mean()


def _se(z: np.ndarray) -> float:
    n = len(z)
    return float(np.std(z, ddof=1) / np.sqrt(n)) if n > 1 else float("nan")


def compare_games(
    base_name: str,
    base: pl.DataFrame,
    others: Sequence[tuple[str, pl.DataFrame]],
    players: dict[str, int],
) -> pl.DataFrame:
    """Effects of each rule set in ``others`` against ``base`` (same game ids).

    Args:
        base_name: the base rule set's name.
        base: its ``games.parquet`` rows.
        others: ``(name, games rows)`` of every other rule set, played on the same
            seed and game ids.
        players: players of every rule set by name.

    Returns:
        One row per (metric, other rule set) with the columns :data:`COLUMNS`.
    """
    base = base.sort("game_id")
    rows = []
    for name, frame in others:
        frame = frame.sort("game_id")
        if not np.array_equal(frame["game_id"].to_numpy(), base["game_id"].to_numpy()):
            raise ValueError(f"{name}: not the same games as {base_name}")
        n = base.height
        for m in METRICS:
            r0, z0 = _linearised(m.num(base, players[base_name]), m.den(base, players[base_name]))
            r1, z1 = _linearised(m.num(frame, players[name]), m.den(frame, players[name]))
            se0, se1 = _se(z0), _se(z1)
            se_crn = _se(z1 - z0)
            se_ind = float(np.sqrt(se0**2 + se1**2))
            diff = r1 - r0
            rows.append(
                {
                    "metric": m.name,
                    "meaning": m.meaning,
                    "rules": base_name,
                    "vs": name,
                    "base": r0,
                    "base_ci_low": r0 - Z95 * se0,
                    "base_ci_high": r0 + Z95 * se0,
                    "other": r1,
                    "other_ci_low": r1 - Z95 * se1,
                    "other_ci_high": r1 + Z95 * se1,
                    "diff": diff,
                    "diff_ci_low": diff - Z95 * se_crn,
                    "diff_ci_high": diff + Z95 * se_crn,
                    "width_crn": 2 * Z95 * se_crn,
                    "width_independent": 2 * Z95 * se_ind,
                    "games": n,
                }
            )
    frame_out = pl.DataFrame(rows, schema_overrides={"games": pl.Int64})
    return frame_out.select(COLUMNS).with_columns(pl.col(pl.Float64).fill_nan(None))


# Columns of games.parquet the comparison's metrics read; those of COMPARE_SEAT_COLUMNS as
# STEM_{seat}, one per seat.
COMPARE_GAME_COLUMNS = GAMES.pick(
    "game_id",
    "n_deals",
    "winner",
    "first_dealer",
    "contracts",
    "contracts_made",
    "contracts_conceded",
    "contract_sum",
)
COMPARE_SEAT_COLUMNS = ("barrel_falls", "barrel_entries", "bolt_penalties", "samosvals")


def compare_folders(runs: Sequence[tuple[str, Path]]) -> pl.DataFrame:
    """Effects of every games run against the first, from their run folders.

    Args:
        runs: ``(name, folder)`` of ``thousand games`` runs of the same size and seed
            (the games of a comparison, :func:`sim.runs.compare.play_rule_sets`), the
            base first. Each folder holds ``games.parquet`` and ``run.json`` (for the
            number of players).

    Returns:
        :func:`compare_games` of the base against every other run.

    Raises:
        UsageError: a missing or unreadable ``games.parquet`` or a missing column.
    """
    from analysis.runs import read_manifest, scan_checked

    frames: list[tuple[str, pl.DataFrame]] = []
    players: dict[str, int] = {}
    for name, folder in runs:
        players[name] = int((read_manifest(folder).get("rules") or {}).get("players", 3))
        needed = [
            *COMPARE_GAME_COLUMNS,
            *(c for stem in COMPARE_SEAT_COLUMNS for c in GAMES.seat_columns(stem, players[name])),
        ]
        frame, _schema = scan_checked(folder / "games.parquet", needed, "games")
        frames.append((name, frame.collect()))
    (base_name, base), others = frames[0], frames[1:]
    return compare_games(base_name, base, others, players)


# The headings of :func:`compare_markdown`'s tables, each a column of ``compare.csv``
# (or two or three of them) in words.
SHOWN_COLUMNS = (
    N_("measure"),
    N_("base [95 % CI]"),
    N_("other [95 % CI]"),
    N_("other − base [95 % CI]"),
    N_("change"),
    N_("difference"),
    N_("CI width, same deals"),
    N_("CI width, independent"),
)


def compare_markdown(table: pl.DataFrame, header: str) -> str:
    """The comparison as Markdown: a header and one table per other rule set.

    The tables show every column of ``compare.csv`` but the code names, in words and
    in the current language; the widths are those of the difference's interval.
    """
    from analysis.tables import to_markdown

    parts = [
        header,
        "",
        _(
            "Each measure under the base rules and under the other ones with its 95 % "
            "interval; other − base with its 95 % interval from common random numbers "
            "(the same deals under both), and the change in percent of the base value. "
            "The two widths are that interval's and the one independent runs of the same "
            "size would give."
        )
        + " "
        + size_rule(),
        "",
    ]
    for vs in table["vs"].unique(maintain_order=True):
        rows = table.filter(pl.col("vs") == vs).to_dicts()
        cells = [
            [
                _(r["meaning"]),
                _interval(r["base"], r["base_ci_low"], r["base_ci_high"]),
                _interval(r["other"], r["other_ci_low"], r["other_ci_high"]),
                _interval(r["diff"], r["diff_ci_low"], r["diff_ci_high"], 3),
                change_text(r),
                difference_word(r),
                sig(r["width_crn"], 3),
                sig(r["width_independent"], 3),
            ]
            for r in rows
        ]
        shown = pl.DataFrame(cells, schema=[_(c) for c in SHOWN_COLUMNS], orient="row").cast(
            pl.String
        )
        parts += [f"## {table['rules'][0]} → {vs}", "", to_markdown(shown), ""]
    return "\n".join(parts)


# The columns of :func:`compare_rates` (``dealing_odds.csv``): those of a games
# comparison up to the difference, then the two sample sizes.
RATE_COLUMNS = tuple(DEALING_ODDS.names())


def compare_rates(
    base_name: str,
    base: tuple[int, Mapping[str, int]],
    other_name: str,
    other: tuple[int, Mapping[str, int]],
    meanings: Mapping[str, str],
) -> pl.DataFrame:
    """Per-deal rates of two runs side by side: each with its Wilson interval, and the gap.

    ``base`` and ``other`` are ``(deals, hits by key)`` (an odds run's counts). The
    difference ``other − base`` has the normal interval of two independent samples,
    ``±1.96 √(p₀(1−p₀)/n₀ + p₁(1−p₁)/n₁)``; where the runs share some deals (the
    same seed) the true interval is narrower, so this one is conservative.

    Args:
        base_name: the base run's label.
        base: its deals and hits by key.
        other_name: the other run's label.
        other: its deals and hits by key.
        meanings: the keys to compare, in order, each with its meaning.

    Returns:
        One row per key, columns :data:`RATE_COLUMNS`.
    """
    keys = list(meanings)
    n0, n1 = base[0], other[0]
    k0 = np.array([base[1][k] for k in keys], dtype=np.float64)
    k1 = np.array([other[1][k] for k in keys], dtype=np.float64)
    p0, p1 = k0 / n0, k1 / n1
    lo0, hi0 = wilson_interval(k0, n0)
    lo1, hi1 = wilson_interval(k1, n1)
    se = np.sqrt(p0 * (1 - p0) / n0 + p1 * (1 - p1) / n1)
    diff = p1 - p0
    return pl.DataFrame(
        {
            "metric": keys,
            "meaning": [meanings[k] for k in keys],
            "rules": [base_name] * len(keys),
            "vs": [other_name] * len(keys),
            "base": p0,
            "base_ci_low": lo0,
            "base_ci_high": hi0,
            "other": p1,
            "other_ci_low": lo1,
            "other_ci_high": hi1,
            "diff": diff,
            "diff_ci_low": diff - Z95 * se,
            "diff_ci_high": diff + Z95 * se,
            "n_base": np.full(len(keys), n0, dtype=np.int64),
            "n_other": np.full(len(keys), n1, dtype=np.int64),
        }
    ).select(RATE_COLUMNS)


def _is_missing(v: float | None) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def clear(row: Mapping[str, Any]) -> bool:
    """Whether the difference's interval excludes 0 (a real difference)."""
    low, high = row["diff_ci_low"], row["diff_ci_high"]
    return not (_is_missing(low) or _is_missing(high)) and (low > 0 or high < 0)


NEGLIGIBLE = 0.02  # a change under 2 % of the base value
SMALL = 0.10  # under 10 %; from 10 % on, large
SIZE_RULE = N_(
    "A difference whose 95 % interval excludes 0 is real; its size is called negligible "
    "under 2 % of the base value, small under 10 % and large from 10 %."
)
"""The thresholds of :func:`size_word`, stated once where the effects are shown.

Marked for the catalogues: show it as :func:`size_rule` (``_(SIZE_RULE)``).
"""

SIZES = {"negligible": N_("negligible"), "small": N_("small"), "large": N_("large")}
"""The sizes of :func:`size_word` (code words), to translate when shown."""

# What a difference is, as a sentence ends (:func:`compare_sentence`) and in a
# table's cell (:func:`difference_word`): none shown, real (no base to size it), or
# real and of a size.
_VERDICTS = {
    "none": N_("no difference shown (the interval holds 0)"),
    "real": N_("a real difference (the interval excludes 0)"),
    "large": N_("a real and large difference (the interval excludes 0)"),
    "small": N_("real but small (the interval excludes 0)"),
    "negligible": N_("real but negligible (the interval excludes 0)"),
}
_DIFFERENCES = {"none": N_("none shown"), "real": N_("real"), **SIZES}


def size_rule() -> str:
    """:data:`SIZE_RULE` in the current language."""
    return _(SIZE_RULE)


def size_word(row: Mapping[str, Any]) -> str | None:
    """``negligible``, ``small`` or ``large``: the change relative to the base (None: no base).

    A code word; :data:`SIZES` has it in words to translate when shown.
    """
    base, diff = row["base"], row["diff"]
    if base is None or diff is None or _is_missing(base) or _is_missing(diff) or base == 0:
        return None
    change = abs(diff / base)
    return "negligible" if change < NEGLIGIBLE else "small" if change < SMALL else "large"


def _verdict(row: Mapping[str, Any]) -> str:
    """The key of :data:`_VERDICTS` of a row whose difference has an interval."""
    return "none" if not clear(row) else size_word(row) or "real"


def difference_word(row: Mapping[str, Any]) -> str:
    """The difference in a word or two: none shown, real, or its size (``—``: no interval)."""
    if _is_missing(row["diff_ci_low"]) or _is_missing(row["diff_ci_high"]):
        return "—"
    return _(_DIFFERENCES[_verdict(row)])


def _point(text: str) -> str:
    """A number as Python wrote it (``-0.5``) with the current language's decimal mark."""
    return text.replace(".", number(0.5, 1)[1])


def sig(v: float | None, digits: int = 4) -> str:
    """A number with at most ``digits`` significant digits (``—`` if missing).

    The decimal mark is the current language's (``0.3167``, ``0,3167``).
    """
    if v is None or _is_missing(v):
        return "—"
    if v != 0 and abs(v) < 1e-3:
        return _point(f"{v:.5f}".rstrip("0"))
    return _point(f"{v:.{digits}g}")


def _interval(v: float | None, low: float | None, high: float | None, digits: int = 4) -> str:
    """``v [low, high]`` of :func:`sig` numbers (``[low; high]`` where the mark is a comma)."""
    if v is None or _is_missing(v):
        return "—"
    if _is_missing(low) or _is_missing(high):
        return sig(v, digits)
    return f"{sig(v, digits)} [{sig(low, digits)}{interval_separator()}{sig(high, digits)}]"


def change_text(row: Mapping[str, Any]) -> str:
    """The difference in percent of the base value, signed (``+5.6 %``; ``—`` with no base)."""
    base, diff = row["base"], row["diff"]
    if base is None or _is_missing(base) or base == 0 or diff is None or _is_missing(diff):
        return "—"
    change = 100 * diff / abs(base)
    return _point(f"{change:+.1f} %" if abs(change) < 10 else f"{change:+.0f} %")


def rule_differences(rule_sets: Sequence[tuple[str, Rules]]) -> pl.DataFrame:
    """The options whose values differ between named rule sets: a row per key, a column per set.

    The values are as ``str`` writes them (``3``, ``True``, ``one_falls``; ``off`` for
    an option switched off): data, shown in words by :func:`option_text`.
    """
    flats = [r.to_dict() for _name, r in rule_sets]
    keys = [k for k in flats[0] if len({repr(f.get(k)) for f in flats}) > 1]
    data: dict[str, list[str]] = {"option": keys}
    for (name, _rules), f in zip(rule_sets, flats, strict=True):
        data[name] = ["off" if f.get(k) is None else str(f.get(k)) for k in keys]
    return pl.DataFrame(data, schema=dict.fromkeys(data, pl.String))


OPTION_WORDS = {"True": N_("yes"), "False": N_("no"), "off": N_("off")}
"""The option values of :func:`rule_differences` that are words, to translate when shown."""


def option_text(value: str) -> str:
    """A value of :func:`rule_differences` as shown.

    ``yes``, ``no`` and ``off`` in the current language, a number as it is, a
    choice's code name (``one_falls``) as code (in backticks).
    """
    if value in OPTION_WORDS:
        return _(OPTION_WORDS[value])
    try:
        float(value)
    except ValueError:
        return f"`{value}`"
    return value


def compare_sentence(row: Mapping[str, Any]) -> str:
    """One metric of the comparison in words: both values, the change and its interval."""
    base, other, diff = row["base"], row["other"], row["diff"]
    change = change_text(row)
    fields = {
        "meaning": _(row["meaning"]),
        "other": sig(other),
        "vs": row["vs"],
        "base": sig(base),
        "rules": row["rules"],
        "change": "" if change == "—" else f", {change}",
    }
    low, high = row["diff_ci_low"], row["diff_ci_high"]
    if _is_missing(low) or _is_missing(high):
        return _(
            "**{meaning}**: {other} under {vs} against {base} under {rules} — "
            "{diff}{change}; no interval (too few games)."
        ).format(diff=sig(diff, 3), **fields)
    return _(
        "**{meaning}**: {other} under {vs} against {base} under {rules} — "
        "{diff}{change}; {verdict}."
    ).format(diff=_interval(diff, low, high, 3), verdict=_(_VERDICTS[_verdict(row)]), **fields)


def compare_short(
    table: pl.DataFrame, rule_sets: Sequence[tuple[str, Rules]], header: str, width: int = 100
) -> str:
    """What ``thousand compare`` prints by default: what differs, then a sentence a metric."""
    import textwrap

    lines = [header, ""]
    diffs = rule_differences(rule_sets)
    names = [n for n, _rules in rule_sets]
    lines.append(_("Options that differ ({count}):").format(count=len(diffs)))
    for row in diffs.iter_rows(named=True):
        values = " / ".join(f"{n} {option_text(row[n])}" for n in names)
        lines.append(f"- `{row['option']}`: {values}")
    lines += ["", *textwrap.wrap(size_rule(), width), ""]
    for row in table.iter_rows(named=True):
        text = compare_sentence(row).replace("**", "")
        lines += textwrap.wrap(text, width, initial_indent="- ", subsequent_indent="  ")
    every = _("Every column: `--full`, `--json`, or `--out DIR` (compare.csv, compare.md).")
    lines += ["", every]
    return "\n".join(lines)
