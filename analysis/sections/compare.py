"""The report's house-rule comparison (``thousand compare`` on the same deals)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from analysis import plots
from analysis.compare import COLUMNS as COMPARE_TABLE_COLUMNS
from analysis.compare import (
    SIZE_RULE,
    clear,
    compare_sentence,
    rule_differences,
    sig,
    size_word,
)
from analysis.pages import Section, Text, is_missing
from sim.rules import Rules

# Columns of the house-rule comparison table (``thousand compare``), in this order.
COMPARE_COLUMNS = COMPARE_TABLE_COLUMNS


def compare_answer(compare: pl.DataFrame, who: str | None = None) -> str:
    """The comparison in one sentence: how many measures differ for real, the largest.

    ``who`` names the players of the games compared.
    """
    rows = compare.select(COMPARE_COLUMNS).to_dicts()
    others = ", ".join(dict.fromkeys(r["vs"] for r in rows))
    games = f" (games of `{who}`)" if who else ""
    real = [r for r in rows if clear(r)]
    if not real:
        return (
            f"Against {others}, none of the {len(rows)} measures shows a real difference "
            f"(every interval holds 0){games}."
        )
    top = max(real, key=lambda r: abs(r["diff"] / r["base"]) if r["base"] else 0.0)
    size = size_word(top)
    change = f"{100 * top['diff'] / abs(top['base']):+.1f} %" if top["base"] else "a change"
    diff = f"{sig(top['diff'], 3)} [{sig(top['diff_ci_low'], 3)}, {sig(top['diff_ci_high'], 3)}]"
    return (
        f"Against {others}, {len(real)} of {len(rows)} measures differ for real; the "
        f"largest: {top['meaning']}, {diff}, {change}"
        + (f" ({size})" if size else "")
        + f"{games}."
    )


def compare_section(
    compare: pl.DataFrame, rule_sets: Sequence[tuple[str, Rules]] = (), who: str | None = None
) -> Section:
    """House-rule comparison: base vs other rule sets per metric, differences with intervals.

    Args:
        compare: the ``thousand compare`` table, with the columns of
            :data:`COMPARE_COLUMNS` (one row per metric and compared rule set).
        rule_sets: ``(name, rules)`` of the base first, then the others; their
            differing options are listed (none listed when empty).
        who: the players of the games compared, named in the section's answer.

    Raises:
        ValueError: when a column is missing.
    """
    missing = [c for c in COMPARE_COLUMNS if c not in compare.columns]
    if missing:
        raise ValueError(f"compare table lacks columns {missing}")
    t = compare.select(COMPARE_COLUMNS)
    base = ", ".join(dict.fromkeys(t["rules"].cast(pl.String).to_list()))
    others = ", ".join(dict.fromkeys(t["vs"].cast(pl.String).to_list()))
    sec = Section("compare", "House-rule comparison", answer=compare_answer(compare, who))
    sec.blocks.append(
        Text(
            f"Base rules **{base}** against **{others}**, the same deals for every rule set "
            "(common random numbers). Each difference is other − base with its 95 % "
            "interval, and the change in percent of the base value. The rates count the "
            "contracts of whole games (barrel and game end included), so they differ "
            'from the same-named rates of the hands run in "Contracts as the hands run '
            f'played them", which counts single deals. {SIZE_RULE}'
        )
    )
    if len(rule_sets) > 1:
        diffs = rule_differences(rule_sets)
        long = diffs.unpivot(index="option", variable_name="rules", value_name="value")
        sec.add_table(
            f"What differs: {len(diffs)} option{'s' if len(diffs) != 1 else ''}",
            "Every other option is the same in all rule sets (docs/rules.md explains each).",
            diffs,
            "compare_rules.csv",
            long,
        )
    for row in t.iter_rows(named=True):
        sec.blocks.append(Text(compare_sentence(row)))
    sec.add_figure(
        "compare.png",
        plots.plot_compare(t, f"House rules: {others} against {base}"),
        "House-rule comparison: differences with 95 % intervals",
    )

    def pct(row: Mapping[str, Any]) -> str:
        b, d = row["base"], row["diff"]
        if b is None or d is None or is_missing(b) or is_missing(d) or b == 0:
            return "—"
        return f"{100 * d / abs(b):+.1f} %"

    shown = pl.DataFrame(
        {
            "measure": t["meaning"],
            "rules": t["vs"],
            "base [95 % CI]": [
                f"{sig(v)} [{sig(lo)}, {sig(hi)}]"
                for v, lo, hi in zip(t["base"], t["base_ci_low"], t["base_ci_high"], strict=True)
            ],
            "other [95 % CI]": [
                f"{sig(v)} [{sig(lo)}, {sig(hi)}]"
                for v, lo, hi in zip(t["other"], t["other_ci_low"], t["other_ci_high"], strict=True)
            ],
            "other − base [95 % CI]": [
                f"{sig(d, 3)} [{sig(lo, 3)}, {sig(hi, 3)}]"
                for d, lo, hi in zip(t["diff"], t["diff_ci_low"], t["diff_ci_high"], strict=True)
            ],
            "change": [pct(r) for r in t.iter_rows(named=True)],
        }
    )
    sec.add_table(
        "Metrics by rule set",
        "The CSV adds the interval widths with and without common random numbers, and the games.",
        shown,
        "compare.csv",
        t,
    )
    return sec
