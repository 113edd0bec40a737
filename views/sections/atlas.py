"""The report's "Which house rules matter": the largest effects of the atlas of switches."""

from __future__ import annotations

import polars as pl

from analysis.atlas import MEASURES
from sim.i18n import N_, _, number
from views import plots
from views.atlas import stopped_words, switch_words, tornado_panels
from views.compare import interval_text
from views.pages import Section, Text

TOP = 5  # switches of each measure in the report's table


def atlas_answer(table: pl.DataFrame) -> str:
    """The atlas in one sentence: the switch of the largest effect on each measure."""
    parts = []
    for measure, (_metric, words) in MEASURES.items():
        t = table.filter((pl.col("measure") == measure) & pl.col("ranked") & pl.col("clear"))
        if t.height:
            r = t.row(0, named=True)
            parts.append(
                _("{measure}: {switch} ({effect})").format(
                    measure=_(words).split(" (")[0],
                    switch=switch_words(r["option"], None if r["value"] == "off" else r["value"])
                    + stopped_words(r),
                    effect=interval_text(
                        r["diff"], r["diff_ci_low"], r["diff_ci_high"], r["unit"], True
                    ),
                )
            )
    if not parts:
        return _("No single switch changes the length, the fairness or the skill for real.")
    return _("The switch that matters most — {parts}.").format(parts="; ".join(parts))


def atlas_section(
    table: pl.DataFrame,
    rules: str,
    games: int,
    strategies: str,
    skill: tuple[str, str] = ("strong", "heuristic"),
) -> Section:
    """Which house rules matter: each measure's largest effects of one switch, and the picture.

    Args:
        table: :func:`analysis.atlas.atlas_table` of the report's rules.
        rules: their name.
        games: games under the base and each switch.
        strategies: who played them.
        skill: the skill index's player and the players against it.
    """
    sec = Section("atlas", _("Which house rules matter"), answer=atlas_answer(table))
    sec.blocks.append(
        Text(
            _(
                "Every option of these rules switched alone ({switches} switches), the same "
                "{games} games under each (`{strategies}` at every seat), ranked by the size of "
                "the effect on the game's length, its fairness (the largest gap of a seat's "
                "share of games won from the fair share) and its skill (the games one "
                "`{player}` seat wins against `{against}` ones). An effect is real where its "
                "95 % interval excludes 0; a run this size separates only the large ones: "
                "`thousand atlas --rules {rules} --games 4000` gives the full atlas."
            ).format(
                switches=table["switch"].n_unique(),
                games=number(games),
                strategies=strategies,
                player=skill[0],
                against=skill[1],
                rules=rules,
            )
        )
    )
    rows = []
    for measure, (_metric, words) in MEASURES.items():
        t = table.filter((pl.col("measure") == measure) & pl.col("ranked")).head(TOP)
        for r in t.iter_rows(named=True):
            rows.append(
                {
                    N_("measure"): _(words).split(" (")[0],
                    N_("switch"): switch_words(
                        r["option"], None if r["value"] == "off" else r["value"]
                    )
                    + stopped_words(r),
                    N_("other − base [95 % CI]"): interval_text(
                        r["diff"], r["diff_ci_low"], r["diff_ci_high"], r["unit"], True
                    ),
                    N_("difference"): _("real") if r["clear"] else _("none shown"),
                }
            )
    shown = pl.DataFrame(rows, schema=dict.fromkeys(rows[0] if rows else (), pl.String))
    sec.add_table(
        _("The largest effects of a single switch"),
        _("The CSV holds every switch and measure (the atlas's `atlas.csv`)."),
        shown,
        "atlas.csv",
        table,
    )
    sec.add_figure(
        "atlas.png",
        plots.plot_tornado(tornado_panels(table, 8), _("The largest effects of a single switch")),
        _("The largest effects of a single switch, with 95 % intervals"),
    )
    return sec
