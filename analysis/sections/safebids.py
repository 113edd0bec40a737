"""The report's safe-bid section: every dealt hand played as the declarer's, by player."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from analysis import plots
from analysis.advise import Advice, examples_table
from analysis.pages import (
    Section,
    Text,
    mean_interval_column,
    wilson_column,
)
from analysis.safebids import CLASS_KEYS, SafeBidResult, bid_chart, defence_caveat


def safebids_section(result: SafeBidResult, examples: Sequence[Advice] = ()) -> Section:
    """Safe bids from the hand before the talon, by player (:mod:`analysis.safebids`).

    ``examples``: the advisor's answers for a few hands (``thousand advise``).
    """
    run = result.run
    t = result.tables
    sec = Section("safebids", "Safe bids from the hand before the talon")
    first = run.players[0]
    safe = t["safe_by_marriages"].filter(pl.col("player") == first)
    heart = safe.filter(pl.col("marriages") == "♥").to_dicts()
    none = safe.filter(pl.col("marriages") == "none").to_dicts()
    answer = []
    if heart:
        h = heart[0]
        lvl = h["safe_75"]
        answer.append(
            f"With a ♥ marriage (and nothing else known about the hand) `{first}` makes "
            + (f"up to {lvl} at least 75 % of the time" if lvl else "no level 75 % of the time")
            + f" ({h['n']:,} hands)"
        )
    if none:
        r100 = none[0]["rate_100"]
        answer.append(f"without a marriage it makes 100 in {r100:.0%} of hands")
    if answer:
        sec.blocks.append(Text("; ".join(answer) + "."))
    sec.blocks.append(
        Text(
            "Every dealt hand is played as the declarer's, not only the hands that won an "
            "auction: it takes the talon, gives cards away, names its contract and plays, "
            "against opponents holding the rest of the deal (nothing said in an auction "
            "narrows their hands). A hand makes level L when it may bid L (its cap), would "
            "not concede at L and its deal total reaches L. Every level is read from the "
            "same hands, so a curve falls as L rises; the safe bid at 50 / 75 / 90 % is the "
            "highest level whose 95 % Wilson interval's lower end reaches that rate (— "
            "where none does). The players:"
        )
    )
    sec.add_table(
        "Who played",
        "`hands` = dealt hands played as the declarer's; `mean total` their mean deal "
        "total (card points and marriages; the par's is its best total). The par is an "
        "upper bound, not a player; `pimc` and the par run on a small sample by default "
        "(`thousand report --safe-sample`, `thousand safebids --sample`).",
        t["players"].select(
            "player",
            "deals",
            "hands",
            mean_interval_column(t["players"], "mean_total", "se_total", "mean total [95 % CI]"),
            "who",
        ),
        "safebids_players.csv",
        t["players"],
    )
    caveat = defence_caveat(run.players)
    if caveat:
        sec.blocks.append(Text(caveat))
    sec.add_figure(
        "safebids_curves.png",
        plots.plot_safe_curves(t["curve_by_marriages"], run.rules.name),
        "Make rate by bid level for hands with one marriage or none",
    )
    sec.add_table(
        "Bid chart: marriages in hand",
        "Each cell: the safe bid at 50 / 75 / 90 % and (in brackets) the hands it rests "
        "on. The cap differs by suit, so the classes are by suit.",
        bid_chart(result),
        "safebids_safe_by_marriages.csv",
        t["safe_by_marriages"],
    )
    sec.add_table(
        "Bid chart: marriages and aces",
        "The same, by marriages and the number of aces in the 7 cards.",
        bid_chart(result, "by_marriages_aces"),
        "safebids_safe_by_marriages_aces.csv",
        t["safe_by_marriages_aces"],
    )
    for name, what in (
        ("by_aces_tens", "safe levels by aces and tens"),
        ("by_points", "safe levels by card points in bands of 10"),
        ("by_position", "safe levels by the declarer's seat"),
    ):
        sec.add_csv(f"safebids_safe_{name}.csv", t[f"safe_{name}"], what)
    for name in CLASS_KEYS:
        sec.add_csv(
            f"safebids_curve_{name}.csv",
            t[f"curve_{name}"],
            f"P(make L) at every level, {name.removeprefix('by_').replace('_', ' and ')}",
        )
    if examples:
        shown = examples_table(examples)
        sec.add_table(
            "Worked examples: the advisor",
            "`thousand advise HAND --player P`: the cards the hand cannot see dealt at random "
            "(`deals` times), each deal played with the hand as forehand's; the bid up to "
            "which the 95 % interval's lower end stays at 75 %, the contract of the best "
            "expected score if it beats passing, and what the hand scores as a defender when "
            f"it passes (deals played by `{examples[0].pass_player}` at every seat).",
            shown,
            "safebids_examples.csv",
            shown,
        )
    if "calibration_summary" in t:
        summary = t["calibration_summary"]
        rows = summary.to_dicts()
        words = "; ".join(
            f"`{r['player']}` {r['share_within_2se']:.0%} of {r['cells']} cells" for r in rows
        )
        sec.add_figure(
            "safebids_calibration.png",
            plots.plot_calibration(t["calibration_bins"], run.rules.name),
            "Held-out make rate against the predicted rate",
        )
        sec.add_table(
            "Held-out check",
            f"The tables (by marriages, every level) built on seed {run.seed}, checked on "
            f"the hands of seed {run.holdout_seed}: the share of cells with 30 or more "
            "hands on both seeds whose rate lies within 1.96 standard errors of the prediction "
            f"(about 95 % when the tables are calibrated): {words or 'no cell large enough'}.",
            summary.select(
                "player",
                "cells",
                wilson_column(summary, "within_2se", "cells", "share within 1.96 SE [95 % CI]"),
                pl.col("max_abs_z").round(2).alias("largest |z|"),
            ),
            "safebids_calibration.csv",
            t["calibration"],
        )
    return sec
