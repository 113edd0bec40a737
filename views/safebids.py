"""Safe bids in words: the headings of the classes, the bid chart, ``safebids.md``, the folder."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from analysis.safebids import CLASS_KEYS, RISKS, SafeBidResult
from sim.i18n import N_, _
from sim.output import StagedDir, write_manifest
from sim.players import RECORDS
from views.tables import to_markdown

# The class keys as the bid charts' headings (translated where a page shows them).
CLASS_HEADINGS = {
    "marriages": N_("marriages"),
    "aces": N_("aces"),
    "tens": N_("tens"),
    "points_band": N_("card points"),
    "position": N_("seat"),
}


# Who played, in words: the ``who`` column of the players' table (English in its CSV;
# a page shows ``_(word)``): each player's record's ``words`` (sim.players.words).
# Players whose own defence is weaker than pimc's (their records say so): their make
# rates run a little high.
FAST_DEFENCE = tuple(p.name for p in RECORDS if p.defends_weaker)


def defence_caveat(players: Sequence[str]) -> str | None:
    """Why the fast players' columns are upper estimates (None when none of them played)."""
    fast = [p for p in players if p in FAST_DEFENCE]
    if not fast:
        return None
    names = _(" and ").join(f"`{p}`" for p in fast)
    return _(
        "How far to trust the columns: each player's rates are measured against its own "
        "defenders, and those of {names} defend less well than `pimc`'s, so against "
        "competent opponents their rates run a few points high (`docs/players.md` gives the "
        "measurement); `pimc`'s column, on its smaller sample, is the closer one."
    ).format(names=names)


def class_words(label: str) -> str:
    """A marriage class in words: ``"none"`` → ``"no marriage"``, ``"♥"`` → ``"♥ marriage"``.

    In the current language (:mod:`sim.i18n`).
    """
    if label == "none":
        return _("no marriage")
    if len(label) > 1:
        return _("{suits} marriages").format(suits=label)
    return _("{suits} marriage").format(suits=label)


def bid_chart(result: SafeBidResult, by: str = "by_marriages", min_n: int = 30) -> pl.DataFrame:
    """One row per class, one column per player: ``safe 50/75/90 (hands)``.

    Classes with fewer than ``min_n`` hands for the first player are left out (their
    rows are in the CSV tables). The classes are in words and their columns headed in
    words (:data:`CLASS_HEADINGS`, translated by the page that shows them).
    """
    safe = result.tables[f"safe_{by}"]
    keys = list(CLASS_KEYS[by])
    first = result.run.players[0]
    classes = safe.filter((pl.col("player") == first) & (pl.col("n") >= min_n)).select(keys)
    out = classes
    for player in result.run.players:
        t = safe.filter(pl.col("player") == player)

        def cell(row: dict[str, Any]) -> str:
            levels = [row[f"safe_{round(r * 100)}"] for r in RISKS]
            text = " / ".join("—" if v is None else str(v) for v in levels)
            return f"{text} ({row['n']})"

        cells = t.select(
            [*keys, pl.struct(pl.all()).map_elements(cell, return_dtype=pl.String).alias(player)]
        )
        out = out.join(cells, on=keys, how="left")
    if "marriages" in keys:
        out = out.with_columns(
            pl.col("marriages").map_elements(class_words, return_dtype=pl.String)
        )
    return out.fill_null(_("no hands")).rename({k: CLASS_HEADINGS[k] for k in keys})


def safebids_markdown(result: SafeBidResult) -> str:
    """A short Markdown summary: who played, the safe bids by marriages, the check."""
    run = result.run
    players = result.tables["players"]
    who = [
        f"- `{r['player']}`: {r['who']}; {r['hands']} hands of {r['deals']} deals."
        for r in players.iter_rows(named=True)
    ]
    lines = [
        f"# Safe bids from the hand before the talon — rules `{run.rules.name}`",
        "",
        "Every dealt hand played as the declarer's. A cell gives the safe bid at 50 / 75 / "
        "90 %: the highest level whose 95 % interval's lower end reaches that make rate "
        "(— where none does), and the hands it rests on. A concession is a failure.",
        "",
        *who,
        *(["", caveat] if (caveat := defence_caveat(run.players)) else []),
        "",
        "## Safe bid by the marriages in hand",
        "",
        to_markdown(bid_chart(result)).rstrip(),
    ]
    if "calibration_summary" in result.tables:
        lines += [
            "",
            f"## Held-out check (seed {run.holdout_seed})",
            "",
            "Rates by marriage class and level built on this run, against other hands: "
            "the cells with 30 or more hands on both seeds, and the share whose difference is "
            "within 1.96 standard errors (about 0.95 when the tables are calibrated).",
            "",
            to_markdown(result.tables["calibration_summary"], floats="{:.3f}").rstrip(),
        ]
    return "\n".join(lines) + "\n"


def write_safebids(result: SafeBidResult, out: Path, extra: Mapping[str, Any]) -> None:
    """Write a run's files into ``out``, moved into place together.

    ``items.parquet`` (and ``holdout_items.parquet``), a CSV per table, the plots,
    ``safebids.md`` and ``run.json``.
    """
    from views.plots import plot_calibration, plot_safe_curves

    run = result.run
    with StagedDir(out) as staged:
        result.items.write_parquet(staged.path / "items.parquet")
        if result.holdout is not None:
            result.holdout.write_parquet(staged.path / "holdout_items.parquet")
        for name, table in result.tables.items():
            table.write_csv(staged.path / f"{name}.csv")
        (staged.path / "safebids.md").write_text(safebids_markdown(result), encoding="utf-8")
        fig = plot_safe_curves(result.tables["curve_by_marriages"], run.rules.name)
        fig.savefig(staged.path / "safe_curves.png", dpi=110)
        if "calibration_bins" in result.tables:
            fig = plot_calibration(result.tables["calibration_bins"], run.rules.name)
            fig.savefig(staged.path / "calibration.png", dpi=110)
        write_manifest(
            staged.path,
            run.rules,
            run.seed,
            {f"deals_{p}": d for p, d in run.deals.items()},
            command="safebids",
            players=run.players,
            params=run.params,
            holdout_seed=run.holdout_seed,
            **extra,
        )


__all__ = [
    "CLASS_HEADINGS",
    "FAST_DEFENCE",
    "bid_chart",
    "class_words",
    "defence_caveat",
    "safebids_markdown",
    "write_safebids",
]
