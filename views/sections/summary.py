"""The report's first section: the short answers, each with its interval and its link."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from analysis.odds import OddsResult
from analysis.safebids import SafeBidResult
from analysis.stats import Z95
from sim.i18n import N_, _, n_, number, role
from views.numbers import numbers
from views.pages import Section, Text, pct


def _mean_ci(row: Mapping[str, Any]) -> str:
    """``mean [low, high]`` from a row's ``mean`` and ``se`` (no interval from one game)."""
    mean, se = row["mean"], row.get("se")
    if se is None or not math.isfinite(se):
        return _("{mean} (one game: no interval)").format(mean=number(mean, 1))
    return numbers(mean, mean - Z95 * se, mean + Z95 * se, 1)


def p_value_words(p: float, games: int, gap: float | None = None, fair: float = 0.0) -> str:
    """What a chi-square p-value of equal seat chances means, in one clause.

    ``gap`` (the largest difference of a seat's win share from the ``fair`` one), when
    given, says how large a difference the test found (:data:`views.compare.SIZE_RULE`).
    """
    from analysis.compare import NEGLIGIBLE, SMALL
    from views.compare import SIZES

    runs = n_("runs of {games} game", "runs of {games} games", games).format(games=number(games))
    size = ""
    if gap is not None and fair > 0:
        rel = abs(gap) / fair
        word = "negligible" if rel < NEGLIGIBLE else "small" if rel < SMALL else "large"
        size = _(" by at most {points} points of a fair {fair} % ({size})").format(
            points=number(100 * abs(gap), 1), fair=number(100 * fair, 1), size=_(SIZES[word])
        )
    if p < 0.001:
        return _(
            "p < 0.001: with equal chances a spread this uneven would come by chance in "
            "fewer than 1 in 1,000 {runs}, so the seats differ{size}"
        ).format(runs=runs, size=size)
    if p >= 0.05:
        verdict = _("which is common by chance alone: no seat advantage is shown")
    elif size:
        verdict = _("so the seats very likely differ{size}").format(size=size)
    else:
        verdict = _("so the seats very likely differ, if only a little")
    return _(
        "p = {p}: with equal chances a spread this uneven would come by chance in "
        "{share} % of {runs}, {verdict}"
    ).format(p=number(p, 3), share=number(100 * p, 1), runs=runs, verdict=verdict)


def answers(
    odds: OddsResult,
    safebids: SafeBidResult | None = None,
    games_tables: Mapping[str, pl.DataFrame] | None = None,
    players: Sequence[str] | None = None,
) -> dict[str, str]:
    """One sentence per section anchor: the answer a player came for, with its interval.

    ``players`` (the strategies of the games run, by seat) are named in the sentences
    that played games measure.

    The summary at the top lists them, each linking to its section, and each section
    opens with its own.
    """
    out: dict[str, str] = {}
    e = odds.entries()
    m = e.get("hand.any_marriage")
    if m is not None:
        out["marriages"] = _(
            "Forehand's dealt hand holds a marriage in {share} of deals (exact {exact} %)."
        ).format(
            share=pct(m["estimate"], m["ci_low"], m["ci_high"]), exact=number(100 * m["exact"], 2)
        )
    r = e.get("deal.any_reshuffle")
    if r is not None and r["exact"] and r["exact"] > 0:
        out["odds"] = _(
            "Some hand or the talon meets a reshuffle condition in {share} of deals "
            "(exact {exact} %)."
        ).format(
            share=pct(r["estimate"], r["ci_low"], r["ci_high"]), exact=number(100 * r["exact"], 2)
        )
    elif r is not None:
        out["odds"] = _("No deal can be reshuffled under these rules (no condition is on).")
    if safebids is not None:
        curve = safebids.tables["curve_by_marriages"]
        player = safebids.run.players[0]
        parts = []
        for label in ("♥", "♠"):
            row = curve.filter(
                (pl.col("player") == player) & (pl.col("marriages") == label)
                & (pl.col("level") == 120)
            )  # fmt: skip
            if len(row):
                x = row.row(0, named=True)
                parts.append((label, pct(x["rate"], x["ci_low"], x["ci_high"])))
        if len(parts) == 2:
            out["safebids"] = _(
                "Bidding 120 with the {first} marriage alone, the hand makes it in "
                "{first_share} of deals; with the {second} marriage alone in {second_share} "
                "(every dealt hand played as the declarer's by `{player}`)."
            ).format(
                first=parts[0][0],
                first_share=parts[0][1],
                second=parts[1][0],
                second_share=parts[1][1],
                player=player,
            )
    if games_tables is not None:
        names = ", ".join(dict.fromkeys(players)) if players else None
        who = f"`{names}`" if names else _("the run's players")
        b = games_tables.get("barrel_summary")
        if b is not None and len(b) and b["stints"][0] > 0:
            x = b.row(0, named=True)
            length = games_tables["game_length"].row(0, named=True)
            out["barrel"] = _(
                "{share} of climbs onto the barrel end in a fall; a game lasts {mean} "
                "played deals on average (median {median}; games of {who})."
            ).format(
                share=pct(x["fall_rate"], x["fall_ci_low"], x["fall_ci_high"]),
                mean=_mean_ci(length),
                median=number(length["q50"]),
                who=who,
            )
        elif "game_length" in games_tables:
            length = games_tables["game_length"].row(0, named=True)
            out["barrel"] = _(
                "There is no barrel under these rules; a game lasts {mean} played deals "
                "on average (games of {who})."
            ).format(mean=_mean_ci(length), who=who)
        rel = games_tables.get("seat_relative")
        chi2 = games_tables.get("seat_chi2")
        if rel is not None and chi2 is not None and len(rel) and len(chi2):
            best = rel.sort("rate", descending=True).row(0, named=True)
            worst = rel.sort("rate").row(0, named=True)
            test = chi2.row(0, named=True)
            fair = float(best["expected"])
            gaps = [float(r) - fair for r in rel["rate"].to_list() if r is not None]
            gap = max(gaps, key=abs) if gaps else None
            out["seats"] = _(
                "The player who was {best} in the first deal wins {best_share} of games, "
                "the {worst} {worst_share} (fair {fair} %; games of {who}); {test}."
            ).format(
                best=role(best["position"]),
                best_share=pct(best["rate"], best["ci_low"], best["ci_high"]),
                worst=role(worst["position"]),
                worst_share=pct(worst["rate"], worst["ci_low"], worst["ci_high"]),
                fair=number(100 * fair, 1),
                who=who,
                test=p_value_words(float(test["p_value"]), int(test["games"]), gap, fair),
            )
    return out


SUMMARY_ORDER = (
    ("marriages", N_("How often a marriage comes")),
    ("odds", N_("How often a deal is reshuffled")),
    ("safebids", N_("How safe 120 is with one marriage")),
    ("guide", N_("How high to bid, by the guide")),
    ("barrel", N_("The barrel and the length of a game")),
    ("seats", N_("Seat advantage")),
    ("compare", N_("What the other house rules change")),
    ("ladder", N_("How strong the players behind these numbers play")),
)


def summary_section(found: Mapping[str, str], anchors: Sequence[str]) -> Section:
    """The report's opening: each answer in one sentence, linked to its section."""
    sec = Section("summary", _("In short"))
    more = _("More")
    for anchor, title in SUMMARY_ORDER:
        if anchor in found and anchor in anchors:
            sec.blocks.append(Text(f"**{_(title)}.** {found[anchor]} [{more}](#{anchor})."))
    return sec
