"""The report's safe-bid section: every dealt hand played as the declarer's, by player."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from analysis.advise import SampledAdvice
from analysis.safebids import CLASS_KEYS, SafeBidResult
from sim.cards import cards_of
from sim.i18n import N_, _, cards_text, n_, number, role
from sim.players import PAR, PLAYERS
from sim.players import words as player_words
from views import plots
from views.advise import examples_table
from views.numbers import numbers
from views.pages import Section, Text, fmt_number, mean_interval_column, wilson_column
from views.safebids import bid_chart, defence_caveat

# The further tables of the safe bids (CSV only), by class, in words.
CLASS_WORDS = {
    "by_marriages": N_("by marriages"),
    "by_marriages_aces": N_("by marriages and aces"),
    "by_aces_tens": N_("by aces and tens"),
    "by_points": N_("by card points in bands of 10"),
    "by_position": N_("by the declarer's seat"),
}


def _who(player: str) -> str:
    """Who a player of the players' table is, in the current language."""
    if player in PLAYERS or player == PAR:
        return _(player_words(player))
    return _("`{player}` at every seat").format(player=player)


def examples_shown(examples: Sequence[SampledAdvice]) -> pl.DataFrame:
    """The advisor's worked examples as shown (``safebids_examples.csv`` keeps the data).

    The cards in the language's notation, the numbers as it writes them, the headings
    in words.
    """
    rows = []
    for a in examples:
        at = {r["level"]: r for r in a.levels.iter_rows(named=True)}

        def rate(level: int, at: dict = at) -> str:
            r = at.get(level)
            return "—" if r is None else numbers(r["p"], r["ci_low"], r["ci_high"], 2)

        best = a.best.level if a.best is not None else 0
        choice = a.choices.filter(pl.col("level") == best).row(0, named=True)  # type: ignore[union-attr]
        rows.append(
            {
                N_("hand"): cards_text(cards_of(a.hand)),
                N_("player"): a.player,
                N_("deals"): a.samples,
                N_("P(make 100) [95 % CI]"): rate(100),
                N_("P(make 120) [95 % CI]"): rate(120),
                N_("bid up to (75 %)"): "—" if a.recommended is None else str(a.recommended),
                N_("the choice"): role("pass") if best == 0 else _("up to {level}").format(
                    level=best),
                N_("its margin [95 % CI]"): numbers(choice["mean"], choice["low"],
                                                       choice["high"], 1),
            }
        )  # fmt: skip
    return pl.DataFrame(rows)


def safebids_section(result: SafeBidResult, examples: Sequence[SampledAdvice] = ()) -> Section:
    """Safe bids from the hand before the talon, by player (:mod:`analysis.safebids`).

    ``examples``: the advisor's answers for a few hands (``thousand advise``).
    """
    run = result.run
    t = result.tables
    sec = Section("safebids", _("Safe bids from the hand before the talon"))
    first = run.players[0]
    safe = t["safe_by_marriages"].filter(pl.col("player") == first)
    heart = safe.filter(pl.col("marriages") == "♥").to_dicts()
    none = safe.filter(pl.col("marriages") == "none").to_dicts()
    answer = []
    if heart:
        h = heart[0]
        lvl = h["safe_75"]
        hands = number(h["n"])
        answer.append(
            _(
                "With a ♥ marriage (and nothing else known about the hand) `{player}` makes "
                "up to {level} at least 75 % of the time ({hands} hands)"
            ).format(player=first, level=lvl, hands=hands)
            if lvl
            else _(
                "With a ♥ marriage (and nothing else known about the hand) `{player}` makes "
                "no level 75 % of the time ({hands} hands)"
            ).format(player=first, hands=hands)
        )
    if none:
        r100 = none[0]["rate_100"]
        answer.append(
            _("without a marriage it makes 100 in {share} % of hands").format(
                share=number(100 * r100)
            )
        )
    if answer:
        sec.blocks.append(Text("; ".join(answer) + "."))
    sec.blocks.append(
        Text(
            _(
                "Every dealt hand is played as the declarer's, not only the hands that won "
                "an auction: it takes the talon, gives cards away, names its contract and "
                "plays, against opponents holding the rest of the deal (nothing said in an "
                "auction narrows their hands). A hand makes level L when it may bid L (its "
                "cap), would not concede at L and its deal total reaches L. Every level is "
                "read from the same hands, so a curve falls as L rises; the safe bid at 50 / "
                "75 / 90 % is the highest level whose 95 % Wilson interval's lower end "
                "reaches that rate (— where none does). The players:"
            )
        )
    )
    players = t["players"]
    sec.add_table(
        _("Who played"),
        _(
            "Hands: dealt hands played as the declarer's; the mean total is their mean "
            "deal total (card points and marriages; the par's is its best total). The "
            "par is an upper bound, not a player; `pimc` and the par run on a small "
            "sample by default (`thousand report --safe-sample`, `thousand safebids "
            "--sample`)."
        ),
        players.select(
            pl.col("player").alias(N_("player")),
            pl.col("deals").alias(N_("deals")),
            pl.col("hands").alias(N_("hands")),
            mean_interval_column(players, "mean_total", "se_total", N_("mean total [95 % CI]")),
            pl.Series(
                N_("who"),
                [_who(p) for p in players["player"]],
                dtype=pl.String,
            ),
        ),
        "safebids_players.csv",
        players,
    )
    caveat = defence_caveat(run.players)
    if caveat:
        sec.blocks.append(Text(caveat))
    sec.add_figure(
        "safebids_curves.png",
        plots.plot_safe_curves(t["curve_by_marriages"], run.rules.name),
        _("Make rate by bid level for hands with one marriage or none"),
    )
    sec.add_table(
        _("Bid chart: marriages in hand"),
        _(
            "Each cell: the safe bid at 50 / 75 / 90 % and (in brackets) the hands it "
            "rests on. The cap differs by suit, so the classes are by suit."
        ),
        bid_chart(result),
        "safebids_safe_by_marriages.csv",
        t["safe_by_marriages"],
    )
    sec.add_table(
        _("Bid chart: marriages and aces"),
        _("The same, by marriages and the number of aces in the 7 cards."),
        bid_chart(result, "by_marriages_aces"),
        "safebids_safe_by_marriages_aces.csv",
        t["safe_by_marriages_aces"],
    )
    for name in ("by_aces_tens", "by_points", "by_position"):
        sec.add_csv(
            f"safebids_safe_{name}.csv",
            t[f"safe_{name}"],
            _("safe levels {by}").format(by=_(CLASS_WORDS[name])),
        )
    for name in CLASS_KEYS:
        sec.add_csv(
            f"safebids_curve_{name}.csv",
            t[f"curve_{name}"],
            _("P(make L) at every level, {by}").format(by=_(CLASS_WORDS[name])),
        )
    if examples:
        sec.add_table(
            _("Worked examples: the advisor"),
            _(
                "`thousand advise HAND --seat forehand --player P`: the cards the hand cannot "
                "see dealt at random (as many deals as shown); P(make) when the hand wins the "
                "auction, and the bid up to which the 95 % interval's lower end stays at 75 %; "
                "the choice: each choice in the auction (pass, or bid up to a level) played "
                "out on the same deals by `{player}` at every seat, the one of the best "
                "margin (the hand's deal score minus the others' mean), with that margin."
            ).format(player=examples[0].pass_player),
            examples_shown(examples),
            "safebids_examples.csv",
            examples_table(examples),
        )
    if "calibration_summary" in t:
        summary = t["calibration_summary"]
        rows = summary.to_dicts()
        words = "; ".join(
            n_(
                "`{player}` {share} % of {cells} cell",
                "`{player}` {share} % of {cells} cells",
                int(r["cells"]),
            ).format(
                player=r["player"],
                share=number(100 * r["share_within_2se"]),
                cells=number(r["cells"]),
            )
            for r in rows
        )
        sec.add_figure(
            "safebids_calibration.png",
            plots.plot_calibration(t["calibration_bins"], run.rules.name),
            _("Held-out make rate against the predicted rate"),
        )
        sec.add_table(
            _("Held-out check"),
            _(
                "The tables (by marriages, every level) built on seed {seed}, checked on "
                "the hands of seed {holdout}: the share of cells with 30 or more hands on "
                "both seeds whose rate lies within 1.96 standard errors of the prediction "
                "(about 95 % when the tables are calibrated): {words}."
            ).format(
                seed=run.seed,
                holdout=run.holdout_seed,
                words=words or _("no cell large enough"),
            ),
            summary.select(
                pl.col("player").alias(N_("player")),
                pl.col("cells").alias(N_("cells")),
                wilson_column(summary, "within_2se", "cells", N_("share within 1.96 SE [95 % CI]")),
                pl.Series(
                    N_("largest z (absolute)"), [fmt_number(v, 2) for v in summary["max_abs_z"]]
                ),
            ),
            "safebids_calibration.csv",
            t["calibration"],
        )
    return sec
