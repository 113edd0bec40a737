"""The atlas of house rules in words: its table, sentences, ``atlas.md`` and the tornado."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis.atlas import MEASURES, Switch
from sim.i18n import N_, _
from sim.option_words import option_name, option_value
from views.compare import interval_text, off_note

TOP = 5  # switches of each measure printed by default


def switch_words(key: str, value: Any) -> str:
    """A switch in the players' words: the option's phrase and its new value."""
    return f"{option_name(key)}: {option_value(key, value)}"


def _value_of(row: dict[str, Any]) -> Any:
    """A row's switched value as the option takes it (``off``, a number or a word)."""
    return None if row["value"] == "off" else row["value"]


def _effect(row: dict[str, Any]) -> str:
    """A row's effect in its unit with its interval, or why it is not one."""
    if not row["ranked"]:
        return off_note(
            {"base_on": True, "other_on": True, "own_switch": True, "rules": "", "vs": ""}
        )
    return interval_text(row["diff"], row["diff_ci_low"], row["diff_ci_high"], row["unit"], True)


STOPPED = 0.01  # a switch under which more games than this never end is said to break the game


def stopped_words(row: dict[str, Any]) -> str:
    """`` (12 % of the games never end)`` where the switch stops games undecided, else ``""``."""
    share = row.get("unfinished")
    if share is None or share <= STOPPED:
        return ""
    return " " + _("({share} of the games never end)").format(
        share=interval_text(share, None, None, "share")
    )


def _verdict(row: dict[str, Any]) -> str:
    if not row["ranked"]:
        return "—"
    return _("real") if row["clear"] else _("none shown")


def atlas_short(table: pl.DataFrame, header: str, top: int = TOP) -> str:
    """What ``thousand atlas`` prints by default: the largest effects of each measure."""
    lines = [header, ""]
    for measure, (_metric, words) in MEASURES.items():
        t = table.filter((pl.col("measure") == measure) & pl.col("ranked"))
        if not t.height:
            continue
        real = int(t["clear"].sum())
        lines.append(
            _("{measure}: {real} of {count} switches change it for real; the largest:").format(
                measure=_(words), real=real, count=t.height
            )
        )
        for r in t.head(top).iter_rows(named=True):
            text = f"{r['rank']}. {switch_words(r['option'], _value_of(r))} — {_effect(r)}"
            if not r["clear"]:
                text += f" ({_('no difference shown')})"
            text += stopped_words(r)
            lines += textwrap.wrap(text, 100, initial_indent="  ", subsequent_indent="     ")
        lines.append("")
    lines.append(_("Every switch: `--full`, `--json`, or `--out DIR` (atlas.csv, atlas.md)."))
    return "\n".join(lines)


ATLAS_COLUMNS = (N_("rank"), N_("switch"), N_("other − base [95 % CI]"), N_("difference"))
"""The headings of :func:`atlas_markdown`'s tables."""


def atlas_markdown(
    table: pl.DataFrame,
    header: str,
    refused: Sequence[tuple[Switch, str]] = (),
    figures: bool = False,
) -> str:
    """The atlas as Markdown: a ranked table per measure, the switches not played."""
    from views.tables import to_markdown

    parts = [
        header,
        "",
        _(
            "Each switch changes one option of the base alone; the games are the same under "
            "every switch (common random numbers). The switches are ranked by the size of "
            "their effect; an effect is real where its 95 % interval excludes 0. A switch "
            "that changes the number of players changes every seat's fair share: its "
            "fairness and skill are not ranked."
        ),
        "",
    ]
    if figures:
        parts += [f"![{_('The largest effects of a single switch')}](atlas.png)", ""]
    for measure, (_metric, words) in MEASURES.items():
        t = table.filter(pl.col("measure") == measure)
        if not t.height:
            continue
        cells = [
            [
                "—" if r["rank"] is None else str(r["rank"]),
                switch_words(r["option"], _value_of(r)) + stopped_words(r),
                _effect(r),
                _verdict(r),
            ]
            for r in t.iter_rows(named=True)
        ]
        shown = pl.DataFrame(cells, schema=[_(c) for c in ATLAS_COLUMNS], orient="row")
        parts += [f"## {_(words)}", "", to_markdown(shown), ""]
    if refused:
        parts += [f"## {_('Switches the rules refuse alone')}", ""]
        parts += [f"- {switch_words(s.key, s.value)}: {why}" for s, why in refused]
        parts.append("")
    return "\n".join(parts)


def tornado_panels(table: pl.DataFrame, top: int) -> list[tuple[str, list[str], np.ndarray]]:
    """:func:`views.plots.plot_tornado`'s panels: each measure's ``top`` ranked effects."""
    panels = []
    for measure, (_metric, words) in MEASURES.items():
        t = table.filter((pl.col("measure") == measure) & pl.col("ranked")).head(top)
        if not t.height:
            continue
        scale = 100.0 if t["unit"][0] == "share" else 1.0
        labels = [switch_words(r["option"], _value_of(r)) for r in t.iter_rows(named=True)]
        values = np.stack(
            [t[c].cast(pl.Float64).fill_null(np.nan).to_numpy() * scale
             for c in ("diff", "diff_ci_low", "diff_ci_high")]
        )  # fmt: skip
        unit = _("percentage points") if scale == 100.0 else _("deals")
        panels.append((f"{_(words)} ({unit})", labels, values))
    return panels


def draw_atlas(table: pl.DataFrame, folder: Path, top: int = 12) -> list[str]:
    """The tornado picture (``atlas.png``): each measure's largest effects with intervals."""
    import matplotlib.pyplot as plt

    from views import plots

    fig = plots.plot_tornado(
        tornado_panels(table, top), _("The largest effects of a single switch")
    )
    fig.savefig(folder / "atlas.png", dpi=90)
    plt.close(fig)
    return ["atlas.png"]
