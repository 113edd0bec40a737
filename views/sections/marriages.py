"""The report's marriage section: marriages held, in hand and talon, and declared."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analysis.marriages import declared_counts, marriage_table
from analysis.odds import OddsResult
from sim.i18n import N_, _, number
from views import plots
from views.marriages import WHERE, suit_words
from views.pages import Section, Text, interval_column, number_column


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
    sec = Section("marriages", _("Marriage frequencies"))
    sizes = _("{deals} deals").format(deals=number(deals))
    if declared is not None:
        sizes += _("; declared: {deals} deals played out").format(deals=number(declared[0]))
    sec.blocks.append(
        Text(
            _(
                "How often a marriage (K+Q of one suit) comes, by suit: held in forehand's "
                "dealt hand; in forehand's hand plus the talon (the cards the declarer sees "
                "after taking the talon), over the same {deals} deals as the odds section, "
                "exact value beside; and declared by some player in a deal played out "
                "(neither redealt nor conceded), under the run's strategies — no closed "
                "form, and a selected sample: conceded deals are left out, and a player who "
                "concedes hands without a marriage (as the first heuristic, `heuristic_v1`, "
                "often did) leaves the played-out deals rich in marriages. *Any suit* is at "
                "least one marriage of any suit. Sample sizes: {sizes}."
            ).format(deals=number(deals), sizes=sizes)
        )
    )
    worded = table.with_columns(
        pl.Series("suit", [suit_words(s) for s in table["suit"]], dtype=pl.String)
    )
    views = {where: _(words) for where, words in WHERE.items()}
    sec.add_figure(
        "marriages.png",
        plots.plot_marriages(
            table, _("Marriage frequency by suit, {rules}").format(rules=rules.name)
        ),
        _("Marriage frequency by suit: held, in hand + talon, declared"),
    )
    shown = worded.select(
        pl.col("where").replace_strict(views, default=pl.col("where")).alias(N_("where")),
        pl.col("suit").alias(N_("suit")),
        pl.col("hits").alias(N_("with it")),
        pl.col("n").alias(N_("deals")),
        interval_column(table, "rate", "ci_low", "ci_high", N_("rate [95 % CI]")),
        number_column(table, "exact", N_("exact")),
    )
    sec.add_table(_("Marriages by suit"), "", shown, "marriages.csv", table)
    return sec
