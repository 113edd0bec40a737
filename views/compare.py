"""A house-rule comparison in words: sentences, verdicts, ``compare.md`` and its figures."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from analysis.compare import (
    clear,
    is_missing,
    ranked,
    rule_differences,
    shown_rows,
    size_word,
    skill_table,
)
from sim.i18n import N_, _, number, role
from sim.option_words import option_name, option_value
from sim.rules import Rules
from views.numbers import interval

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


def compare_markdown(
    table: pl.DataFrame, header: str, seats: pl.DataFrame | None = None, figures: bool = False
) -> str:
    """The comparison as Markdown: a header, one table per other rule set, the seats.

    The tables show every column of ``compare.csv`` but the code names, in words and
    in the current language, each value in its unit (shares in %, their differences
    in percentage points); the widths are those of the difference's interval. With
    ``figures`` the pictures of :func:`draw_comparison` are linked.
    """
    from views.tables import to_markdown

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
    if figures:
        parts += [
            f"![{_('House-rule comparison: differences with 95 % intervals')}](compare.png)",
            "",
        ]
    shown_table = shown_rows(table)
    for vs in shown_table["vs"].unique(maintain_order=True):
        rows = shown_table.filter(pl.col("vs") == vs).to_dicts()
        cells = [
            [
                _(r["meaning"]),
                interval_text(r["base"], r["base_ci_low"], r["base_ci_high"], r.get("unit")),
                interval_text(r["other"], r["other_ci_low"], r["other_ci_high"], r.get("unit")),
                interval_text(
                    r["diff"], r["diff_ci_low"], r["diff_ci_high"], r.get("unit"), signed=True
                ),
                change_text(r),
                difference_word(r) if ranked(r) else off_note(r),
                value_text(r["width_crn"], r.get("unit")),
                value_text(r["width_independent"], r.get("unit")),
            ]
            for r in rows
        ]
        shown = pl.DataFrame(cells, schema=[_(c) for c in SHOWN_COLUMNS], orient="row").cast(
            pl.String
        )
        parts += [f"## {table['rules'][0]} → {vs}", "", to_markdown(shown), ""]
    if seats is not None:
        parts += [f"## {_('Who wins from each seat')}", ""]
        parts += [
            _(
                "Finished games won from each seat by its place after the first dealer, with "
                "95 % intervals, against the fair share; the test asks whether the seats' "
                "shares are equal (Pearson's chi-square)."
            ),
            "",
        ]
        parts += [f"- {line}" for line in seat_lines(seats)] + [""]
        if figures:
            parts += [
                f"![{_('Who wins: each starting seat, and the skill index')}](compare_seats.png)",
                "",
            ]
    if figures:
        parts += [f"## {_('How long a game lasts')}", ""]
        parts += [f"![{_('How long a game lasts, by rule set')}](compare_lengths.png)", ""]
    return "\n".join(parts)


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


def _verdict(row: Mapping[str, Any]) -> str:
    """The key of :data:`_VERDICTS` of a row whose difference has an interval."""
    return "none" if not clear(row) else size_word(row) or "real"


def difference_word(row: Mapping[str, Any]) -> str:
    """The difference in a word or two: none shown, real, or its size (``—``: no interval)."""
    if is_missing(row["diff_ci_low"]) or is_missing(row["diff_ci_high"]):
        return "—"
    return _(_DIFFERENCES[_verdict(row)])


def _point(text: str) -> str:
    """A number as Python wrote it (``-0.5``) with the current language's decimal mark."""
    return text.replace(".", number(0.5, 1)[1])


def sig(v: float | None, digits: int = 4) -> str:
    """A number with at most ``digits`` significant digits (``—`` if missing).

    The decimal mark is the current language's (``0.3167``, ``0,3167``).
    """
    if v is None or is_missing(v):
        return "—"
    if v != 0 and abs(v) < 1e-3:
        return _point(f"{v:.5f}".rstrip("0"))
    return _point(f"{v:.{digits}g}")


def _interval(v: float | None, low: float | None, high: float | None, digits: int = 4) -> str:
    """``v [low, high]`` of :func:`sig` numbers (``[low; high]`` where the mark is a comma)."""
    if v is None or is_missing(v):
        return "—"
    if is_missing(low) or is_missing(high):
        return sig(v, digits)
    return interval(sig(v, digits), sig(low, digits), sig(high, digits))


def change_text(row: Mapping[str, Any]) -> str:
    """The difference in percent of the base value, signed (``+5.6 %``; ``—`` with no base)."""
    base, diff = row["base"], row["diff"]
    if base is None or is_missing(base) or base == 0 or diff is None or is_missing(diff):
        return "—"
    change = 100 * diff / abs(base)
    text = f"{change:+.1f} %" if abs(change) < 10 else f"{change:+.0f} %"
    return _point(text).replace("-", "−")


PLACES = {"share": 1, "points": 1, "deals": 1, "count": 2}
"""Decimals of each unit as shown: shares in % with one, points and deals one, counts two."""


def _places(v: float, unit: str) -> int:
    """Decimals of a value of ``unit``: :data:`PLACES`, two for a share under 1 %."""
    return 2 if unit == "share" and abs(v) < 0.01 else PLACES.get(unit, 2)


def value_text(
    v: float | None, unit: str | None, signed: bool = False, places: int | None = None
) -> str:
    """A metric's value in its unit as shown (``33.4 %``, ``41.2``; ``—`` if missing).

    A share is shown in percent and a difference of shares (``signed``) in percentage
    points; without a unit (a table of rates), as :func:`sig` writes it. ``places``:
    the decimals (default :func:`_places` of ``v``).
    """
    if v is None or is_missing(v):
        return "—"
    if unit is None:
        return sig(v, 3 if signed else 4)
    scale = 100.0 if unit == "share" else 1.0
    text = number(v * scale, _places(v, unit) if places is None else places)
    if signed and v * scale >= 0 and not text.startswith("-"):
        text = "+" + text
    text = text.replace("-", "−")
    if unit == "share":
        text += " " + (_("pp") if signed else "%")
    return text


def interval_text(
    v: float | None, low: float | None, high: float | None, unit: str | None, signed: bool = False
) -> str:
    """``value [low, high]`` in the metric's unit (``33.4 [32.1, 34.6] %``)."""
    if v is None or is_missing(v):
        return "—"
    if unit is None:
        return _interval(v, low, high, 3 if signed else 4)
    if low is None or high is None or is_missing(low) or is_missing(high):
        return value_text(v, unit, signed)
    # the numbers alone, as many decimals as the value's, the unit once at the end
    places = _places(v, unit)
    scale = 100.0 if unit == "share" else 1.0
    low_text, high_text = (value_text(x * scale, "points", signed, places) for x in (low, high))
    middle = value_text(v * scale, "points", signed, places)
    tail = (" " + (_("pp") if signed else "%")) if unit == "share" else ""
    return interval(middle, low_text, high_text) + tail


def off_note(row: Mapping[str, Any]) -> str:
    """Why a row is not an effect of the rules (:func:`ranked`), in words; ``""`` if it is."""
    if ranked(row):
        return ""
    if not row.get("base_on", True):
        return _("not counted under {rules}: its change is the switch itself").format(
            rules=row["rules"]
        )
    if not row.get("other_on", True):
        return _("not counted under {vs}: its change is the switch itself").format(vs=row["vs"])
    return _("the two count different things (another trigger, another number of players)")


def compare_sentence(row: Mapping[str, Any]) -> str:
    """One metric of the comparison in words: both values, the change and its interval.

    In the metric's unit where the row has one (shares in %, their differences in
    percentage points); a row that is no effect (:func:`ranked`) says why.
    """
    base, other, diff = row["base"], row["other"], row["diff"]
    unit = row.get("unit")
    change = change_text(row)
    fields = {
        "meaning": _(row["meaning"]),
        "other": value_text(other, unit),
        "vs": row["vs"],
        "base": value_text(base, unit),
        "rules": row["rules"],
        "change": "" if change == "—" or unit == "share" else f", {change}",
    }
    low, high = row["diff_ci_low"], row["diff_ci_high"]
    if not ranked(row):
        return _("**{meaning}**: {other} under {vs} against {base} under {rules} — {note}.").format(
            note=off_note(row), **fields
        )
    if is_missing(low) or is_missing(high):
        return _(
            "**{meaning}**: {other} under {vs} against {base} under {rules} — "
            "{diff}{change}; no interval (too few games)."
        ).format(diff=value_text(diff, unit, True), **fields)
    return _(
        "**{meaning}**: {other} under {vs} against {base} under {rules} — "
        "{diff}{change}; {verdict}."
    ).format(
        diff=interval_text(diff, low, high, unit, True),
        verdict=_(_VERDICTS[_verdict(row)]),
        **fields,
    )


def seat_lines(seats: pl.DataFrame) -> list[str]:
    """A sentence per rule set: the games won from each seat, the fair share, the test."""
    lines = []
    for name in dict.fromkeys(seats["rules"].to_list()):
        t = seats.filter(pl.col("rules") == name).sort("offset")
        shares = ", ".join(
            f"{role(r['position'])} {interval_text(r['share'], r['ci_low'], r['ci_high'], 'share')}"
            for r in t.iter_rows(named=True)
        )
        p = t["p_value"][0]
        verdict = (
            _("the seats differ for real (p = {p})")
            if p is not None and p < 0.05
            else _("no difference between the seats shown (p = {p})")
        ).format(p="—" if p is None else sig(p, 2))
        lines.append(
            _("{rules}: games won from each seat: {shares} (fair {fair}); {verdict}.").format(
                rules=name,
                shares=shares,
                fair=value_text(float(t["fair"][0]), "share"),
                verdict=verdict,
            )
        )
    return lines


def draw_comparison(
    effects: pl.DataFrame, seats: pl.DataFrame | None, lengths: pl.DataFrame | None, folder: Path
) -> list[str]:
    """The comparison's pictures into ``folder`` (PNG); their file names.

    ``compare.png``: every shown measure's difference with its interval;
    ``compare_seats.png``: the seats and the skill index by rule set;
    ``compare_lengths.png``: the game lengths.
    """
    import matplotlib.pyplot as plt

    from views import plots

    rows = effects.filter(
        pl.Series([ranked(r) for r in effects.iter_rows(named=True)], dtype=pl.Boolean)
    )
    worded = rows.with_columns(
        pl.Series("meaning", [_(m) for m in rows["meaning"]], dtype=pl.String),
        *(
            (pl.when(pl.col("unit") == "share").then(pl.col(c) * 100).otherwise(pl.col(c)))
            for c in ("diff", "diff_ci_low", "diff_ci_high")
        ),
    )
    base = str(effects["rules"][0])
    others = ", ".join(dict.fromkeys(effects["vs"].to_list()))
    figures = {
        "compare.png": plots.plot_compare(
            worded,
            _("House rules: {others} against {base} (shares in percentage points)").format(
                others=others, base=base
            ),
        )
    }
    if seats is not None:
        skill = skill_table(effects)
        if skill.height:
            fair = seats.group_by("rules").agg(pl.col("fair").first())
            skill = skill.drop("fair").join(fair, on="rules", how="left", maintain_order="left")
        figures["compare_seats.png"] = plots.plot_compare_seats(
            seats, skill, _("Who wins: each starting seat, and the skill index")
        )
    if lengths is not None:
        figures["compare_lengths.png"] = plots.plot_compare_lengths(
            lengths, _("How long a game lasts, by rule set")
        )
    for name, fig in figures.items():
        fig.savefig(folder / name, dpi=90)
        plt.close(fig)
    return list(figures)


def compare_short(
    table: pl.DataFrame,
    rule_sets: Sequence[tuple[str, Rules]],
    header: str,
    seats: pl.DataFrame | None = None,
    width: int = 100,
) -> str:
    """What ``thousand compare`` prints by default.

    What differs, a sentence a metric (not those no rule set counts), then the seats.
    """
    lines = [header, ""]
    diffs = rule_differences(rule_sets)
    names = [n for n, _rules in rule_sets]
    lines.append(_("Options that differ ({count}):").format(count=len(diffs)))
    for row in diffs.iter_rows(named=True):
        key = row["option"]
        values = " / ".join(f"{n} {option_value(key, row[n])}" for n in names)
        lines.append(f"- {option_name(key)}: {values}")
    lines += ["", *textwrap.wrap(size_rule(), width), ""]
    for row in shown_rows(table).iter_rows(named=True):
        text = compare_sentence(row).replace("**", "")
        lines += textwrap.wrap(text, width, initial_indent="- ", subsequent_indent="  ")
    if seats is not None:
        lines.append("")
        for text in seat_lines(seats):
            lines += textwrap.wrap(text, width, initial_indent="- ", subsequent_indent="  ")
    every = _("Every column: `--full`, `--json`, or `--out DIR` (compare.csv, compare.md).")
    lines += ["", every]
    return "\n".join(lines)
