"""The report's house-rule comparison (``thousand compare`` on the same deals)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from analysis.compare import COLUMNS as COMPARE_TABLE_COLUMNS
from analysis.compare import clear, ranked, rule_differences, shown_rows, size_word
from sim.i18n import N_, _, number
from sim.option_words import option_name, option_value
from sim.rules import Rules
from views import plots
from views.compare import SIZES, compare_sentence, interval_text, off_note, size_rule
from views.odds import ODDS_WORDS, odds_words
from views.pages import Section, Text, is_missing

# Columns of the house-rule comparison table (``thousand compare``), in this order.
COMPARE_COLUMNS = COMPARE_TABLE_COLUMNS


def measure_words(metric: str, meaning: str) -> str:
    """A compared measure's meaning in the current language (as written if unknown).

    The odds keys' meanings are :data:`views.odds.ODDS_WORDS`, the games' those of
    :data:`analysis.compare.METRICS` (both marked for the catalogues).
    """
    return odds_words(metric) if metric in ODDS_WORDS else _(meaning)


def _change(base: float | None, diff: float | None) -> str | None:
    """The difference in percent of the base (``+1.2 %``), None without a base."""
    if base is None or diff is None or is_missing(base) or is_missing(diff) or base == 0:
        return None
    change = 100 * diff / abs(base)
    return ("+" if change >= 0 else "") + number(change, 1) + " %"


def compare_answer(compare: pl.DataFrame, who: str | None = None) -> str:
    """The comparison in one sentence: how many measures differ for real, the largest.

    ``who`` names the players of the games compared.
    """
    # a counter one rule set lacks or counts otherwise (555 resets with 555 off) is no effect
    rows = [r for r in shown_rows(compare.select(COMPARE_COLUMNS)).to_dicts() if ranked(r)]
    others = ", ".join(dict.fromkeys(compare["vs"].to_list()))
    games = _(" (games of `{players}`)").format(players=who) if who else ""
    real = [r for r in rows if clear(r)]
    if not real:
        return _(
            "Against {others}, none of the {count} measures shows a real difference "
            "(every interval holds 0){games}."
        ).format(others=others, count=len(rows), games=games)
    top = max(real, key=lambda r: abs(r["diff"] / r["base"]) if r["base"] else 0.0)
    size = size_word(top)
    return _(
        "Against {others}, {real} of {count} measures differ for real; the largest: "
        "{measure}, {diff}, {change}{size}{games}."
    ).format(
        others=others,
        real=len(real),
        count=len(rows),
        measure=measure_words(top["metric"], top["meaning"]),
        diff=interval_text(
            top["diff"], top["diff_ci_low"], top["diff_ci_high"], top.get("unit"), signed=True
        ),
        change=_change(top["base"], top["diff"]) or _("a change"),
        size=f" ({_(SIZES[size])})" if size in SIZES else "",
        games=games,
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
    t = shown_rows(compare.select(COMPARE_COLUMNS))
    base = ", ".join(dict.fromkeys(t["rules"].cast(pl.String).to_list()))
    others = ", ".join(dict.fromkeys(t["vs"].cast(pl.String).to_list()))
    sec = Section("compare", _("House-rule comparison"), answer=compare_answer(compare, who))
    sec.blocks.append(
        Text(
            _(
                "Base rules **{base}** against **{others}**, the same deals for every rule "
                "set (common random numbers). Each difference is other − base with its 95 % "
                "interval, and the change in percent of the base value. The rates count the "
                "contracts of whole games (barrel and game end included), so they differ "
                'from the same-named rates of the hands run in "{bids}", which counts single '
                "deals. {size_rule}"
            ).format(
                base=base,
                others=others,
                bids=_("Contracts as the hands run played them"),
                size_rule=size_rule(),
            )
        )
    )
    if len(rule_sets) > 1:
        diffs = rule_differences(rule_sets)
        long = diffs.unpivot(index="option", variable_name="rules", value_name="value")
        names = [n for n, _r in rule_sets]
        shown = pl.DataFrame(
            {
                N_("option"): [option_name(k) for k in diffs["option"]],
                **{
                    n: [option_value(k, v) for k, v in zip(diffs["option"], diffs[n], strict=True)]
                    for n in names
                },
            },
            schema={N_("option"): pl.String, **dict.fromkeys(names, pl.String)},
        )
        title = (
            _("What differs: one option")
            if len(diffs) == 1
            else _("What differs: {count} options").format(count=len(diffs))
        )
        sec.add_table(
            title,
            _("Every other option is the same in all rule sets (docs/rules.md explains each)."),
            shown,
            "compare_rules.csv",
            long,
        )
    worded = t.with_columns(
        pl.Series(
            "meaning",
            [measure_words(m, w) for m, w in zip(t["metric"], t["meaning"], strict=True)],
            dtype=pl.String,
        )
    )
    for row in worded.iter_rows(named=True):
        sec.blocks.append(Text(compare_sentence(row)))
    sec.add_figure(
        "compare.png",
        plots.plot_compare(
            worded, _("House rules: {others} against {base}").format(others=others, base=base)
        ),
        _("House-rule comparison: differences with 95 % intervals"),
    )

    def change(row: Mapping[str, Any]) -> str:
        return _change(row["base"], row["diff"]) or "—"

    shown = pl.DataFrame(
        {
            N_("measure"): worded["meaning"],
            N_("rules"): t["vs"],
            N_("base [95 % CI]"): [
                interval_text(r["base"], r["base_ci_low"], r["base_ci_high"], r["unit"])
                for r in t.iter_rows(named=True)
            ],
            N_("other [95 % CI]"): [
                interval_text(r["other"], r["other_ci_low"], r["other_ci_high"], r["unit"])
                for r in t.iter_rows(named=True)
            ],
            N_("other − base [95 % CI]"): [
                interval_text(r["diff"], r["diff_ci_low"], r["diff_ci_high"], r["unit"], True)
                if ranked(r)
                else off_note(r)
                for r in t.iter_rows(named=True)
            ],
            N_("change"): [change(r) if ranked(r) else "—" for r in t.iter_rows(named=True)],
        }
    )
    sec.add_table(
        _("Measures by rule set"),
        _(
            "The CSV adds the interval widths with and without common random numbers, "
            "and the games."
        ),
        shown,
        "compare.csv",
        t,
    )
    return sec
