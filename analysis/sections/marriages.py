"""The report's marriage section: marriages held, in hand and talon, and declared."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analysis import plots
from analysis.marriages import WHERE, declared_counts, marriage_table
from analysis.odds import OddsResult
from analysis.pages import (
    Section,
    Text,
    interval_column,
    number_column,
)


def marriage_section(odds: OddsResult, hands_dir: Path | None) -> Section:
    """Marriage frequencies by suit: held, in hand plus talon, declared in play.

    Args:
        odds: an odds run with its statistics (the hand+talon counts run over the
            same deals).
        hands_dir: a hands run folder for the declared marriages, or None.
    """
    rules = odds.rules
    deals = odds.run.deals
    declared = declared_counts(hands_dir) if hands_dir is not None else None
    table = marriage_table(odds.document(), declared)
    sec = Section("marriages", "Marriage frequencies")
    played = "" if declared is None else f"; declared: {declared[0]:,} deals played out"
    sec.blocks.append(
        Text(
            "How often a marriage (K+Q of one suit) comes, by suit. `hand`: forehand's "
            "dealt hand holds it; `hand_talon`: forehand's hand plus the talon hold it "
            "(the cards the declarer sees after taking the talon), over the same "
            f"{deals:,} deals as the odds section, exact value beside; `declared`: "
            "some player declared it in a deal played out (neither redealt nor conceded), "
            "under the run's strategies — no closed form, and a selected sample: conceded "
            "deals are left out, and a player who concedes hands without a marriage (as "
            "the first heuristic, `heuristic_v1`, often did) leaves the played-out deals "
            "rich in marriages. "
            "`any` is at least one marriage "
            f"of any suit. Sample sizes (`n`): {deals:,} deals{played}."
        )
    )
    sec.add_figure(
        "marriages.png",
        plots.plot_marriages(table, f"Marriage frequency by suit, {rules.name}"),
        "Marriage frequency by suit: held, in hand + talon, declared",
    )
    shown = table.select(
        pl.col("where").replace_strict(WHERE, default=pl.col("where")).alias("where"),
        "suit",
        "hits",
        "n",
        interval_column(table, "rate", "ci_low", "ci_high", "rate [95 % CI]"),
        number_column(table, "exact"),
    )
    sec.add_table("Marriages by suit", "", shown, "marriages.csv", table)
    return sec
