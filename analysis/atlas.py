"""The atlas of house-rule switches: each option's effect on length, fairness and skill.

:func:`atlas_table` takes the comparison of a base rule set with every switch of it
(:func:`analysis.compare.compare_tables` of the runs of :func:`sim.jobs.atlas.atlas`:
``compare.csv``'s rows, one per metric and switch) and keeps three measures:

* **length**: ``game_length``, the played deals per game;
* **fairness**: ``seat_imbalance``, the largest gap between a seat's share of the games
  won and the fair share;
* **skill**: ``skill_index``, the share of games one skilled player wins against the
  others.

Within each measure the switches are ranked by the size of their effect, ``|other −
base|``; a switch whose change of a measure is the switch itself (a table of another
size: other fair shares, :func:`analysis.compare.ranked`) is kept but not ranked.
What is shown (:mod:`views.atlas`) is in the current language, the options in the
players' words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import polars as pl

from analysis.compare import clear, ranked
from analysis.schema.atlas import ATLAS
from sim.marks import N_


class Switch(Protocol):
    """A switch as :class:`sim.jobs.atlas.Switch` holds it: an option, its new value, a name."""

    @property
    def key(self) -> str: ...  # noqa: D102

    @property
    def value(self) -> Any: ...  # noqa: D102

    @property
    def name(self) -> str: ...  # noqa: D102


MEASURES = {
    "length": ("game_length", N_("game length (played deals per game)")),
    "fairness": ("seat_imbalance", N_("fairness (the largest gap of a seat from its fair share)")),
    "skill": ("skill_index", N_("skill (games one skilled player wins against the others)")),
}
"""The atlas's measures: ``{measure: (metric of compare.csv, words)}``."""


def atlas_table(effects: pl.DataFrame, switches: Sequence[Switch]) -> pl.DataFrame:
    """A row per switch and measure, ranked within each measure by the size of its effect.

    Args:
        effects: the comparison of the base (``rules``) with every switch (``vs``: the
            switch's name), as :func:`analysis.compare.compare_games` makes it.
        switches: the switches, in the order they were played.

    Returns:
        The columns of :data:`analysis.schema.atlas.ATLAS`: ``rank`` is 1 for the
        largest ``|diff|`` of a measure among the ranked rows, null for a row not ranked
        (no such metric under that switch, or its change is the switch itself).
    """
    by_name = {s.name: s for s in switches}
    stopped = {
        r["vs"]: r["other"]
        for r in effects.filter(pl.col("metric") == "unfinished_rate").iter_rows(named=True)
    }
    rows = []
    for measure, (metric, _words) in MEASURES.items():
        picked = effects.filter(pl.col("metric") == metric)
        for r in picked.iter_rows(named=True):
            s = by_name.get(r["vs"])
            if s is None:
                continue
            rows.append(
                {
                    "measure": measure,
                    "metric": metric,
                    "switch": s.name,
                    "option": s.key,
                    "value": "off" if s.value is None else str(s.value),
                    "base": r["base"],
                    "other": r["other"],
                    "diff": r["diff"],
                    "diff_ci_low": r["diff_ci_low"],
                    "diff_ci_high": r["diff_ci_high"],
                    "unit": r["unit"],
                    "ranked": ranked(r) and r["diff"] is not None,
                    "clear": clear(r),
                    "unfinished": stopped.get(r["vs"]),
                    "games": r["games"],
                }
            )
    frame = pl.DataFrame(
        rows, schema={k: v for k, v in ATLAS.polars_schema().items() if k != "rank"}
    )
    size = pl.when(pl.col("ranked")).then(pl.col("diff").abs())
    frame = frame.with_columns(
        size.rank(method="ordinal", descending=True).over("measure").cast(pl.Int64).alias("rank")
    )
    order = {m: k for k, m in enumerate(MEASURES)}
    return (
        frame.with_columns(
            pl.col("measure").replace_strict(order, return_dtype=pl.Int64).alias("_m")
        )
        .sort("_m", pl.col("rank").is_null(), "rank", "switch")
        .drop("_m")
        .select(ATLAS.names())
    )
