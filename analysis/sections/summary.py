"""The report's first section: the short answers, each with its interval and its link."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from analysis.odds import OddsResult
from analysis.pages import (
    Section,
    Text,
    pct,
)
from analysis.safebids import SafeBidResult
from analysis.stats import Z95


def _mean_ci(row: Mapping[str, Any]) -> str:
    """``mean [low, high]`` from a row's ``mean`` and ``se`` (no interval from one game)."""
    mean, se = row["mean"], row.get("se")
    if se is None or not math.isfinite(se):
        return f"{mean:.1f} (one game: no interval)"
    return f"{mean:.1f} [{mean - Z95 * se:.1f}, {mean + Z95 * se:.1f}]"


def p_value_words(p: float, games: int, gap: float | None = None, fair: float = 0.0) -> str:
    """What a chi-square p-value of equal seat chances means, in one clause.

    ``gap`` (the largest difference of a seat's win share from the ``fair`` one), when
    given, says how large a difference the test found (:data:`analysis.compare.SIZE_RULE`).
    """
    from analysis.compare import NEGLIGIBLE, SMALL

    runs = f"runs of {games:,} game{'' if games == 1 else 's'}"
    size = ""
    if gap is not None and fair > 0:
        rel = abs(gap) / fair
        word = "negligible" if rel < NEGLIGIBLE else "small" if rel < SMALL else "large"
        size = f" by at most {100 * abs(gap):.1f} points of a fair {100 * fair:.1f} % ({word})"
    if p < 0.001:
        return (
            f"p < 0.001: with equal chances a spread this uneven would come by chance in "
            f"fewer than 1 in 1,000 {runs}, so the seats differ{size}"
        )
    verdict = (
        f"so the seats very likely differ{size or ', if only a little'}"
        if p < 0.05
        else "which is common by chance alone: no seat advantage is shown"
    )
    return (
        f"p = {p:.3f}: with equal chances a spread this uneven would come by chance in "
        f"{100 * p:.1f} % of {runs}, {verdict}"
    )


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
        share = pct(m["estimate"], m["ci_low"], m["ci_high"])
        out["marriages"] = (
            f"Forehand's dealt hand holds a marriage in {share} of deals "
            f"(exact {100 * m['exact']:.2f} %)."
        )
    r = e.get("deal.any_reshuffle")
    if r is not None and r["exact"] and r["exact"] > 0:
        out["odds"] = (
            f"Some hand or the talon meets a reshuffle condition in "
            f"{pct(r['estimate'], r['ci_low'], r['ci_high'])} of deals (exact "
            f"{100 * r['exact']:.2f} %)."
        )
    elif r is not None:
        out["odds"] = "No deal can be reshuffled under these rules (no condition is on)."
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
            out["safebids"] = (
                f"Bidding 120 with the {parts[0][0]} marriage alone, the hand makes it in "
                f"{parts[0][1]} of deals; with the {parts[1][0]} marriage alone in {parts[1][1]} "
                f"(every dealt hand played as the declarer's by `{player}`)."
            )
    if games_tables is not None:
        who = ", ".join(dict.fromkeys(players)) if players else "the run's players"
        b = games_tables.get("barrel_summary")
        if b is not None and len(b) and b["stints"][0] > 0:
            x = b.row(0, named=True)
            length = games_tables["game_length"].row(0, named=True)
            out["barrel"] = (
                f"{pct(x['fall_rate'], x['fall_ci_low'], x['fall_ci_high'])} of climbs onto "
                f"the barrel end in a fall; a game lasts {_mean_ci(length)} played deals on "
                f"average (median {length['q50']:.0f}; games of `{who}`)."
            )
        elif "game_length" in games_tables:
            length = games_tables["game_length"].row(0, named=True)
            out["barrel"] = (
                f"There is no barrel under these rules; a game lasts {_mean_ci(length)} "
                f"played deals on average (games of `{who}`)."
            )
        rel = games_tables.get("seat_relative")
        chi2 = games_tables.get("seat_chi2")
        if rel is not None and chi2 is not None and len(rel) and len(chi2):
            best = rel.sort("rate", descending=True).row(0, named=True)
            worst = rel.sort("rate").row(0, named=True)
            test = chi2.row(0, named=True)
            fair = float(best["expected"])
            gaps = [float(r) - fair for r in rel["rate"].to_list() if r is not None]
            gap = max(gaps, key=abs) if gaps else None
            out["seats"] = (
                f"The player who was {best['position']} in the first deal wins "
                f"{pct(best['rate'], best['ci_low'], best['ci_high'])} of games, the "
                f"{worst['position']} {pct(worst['rate'], worst['ci_low'], worst['ci_high'])} "
                f"(fair {100 * best['expected']:.1f} %; games of `{who}`); "
                f"{p_value_words(float(test['p_value']), int(test['games']), gap, fair)}."
            )
    return out


SUMMARY_ORDER = (
    ("marriages", "How often a marriage comes"),
    ("odds", "How often a deal is reshuffled"),
    ("safebids", "How safe 120 is with one marriage"),
    ("guide", "How high to bid, by the guide"),
    ("barrel", "The barrel and the length of a game"),
    ("seats", "Seat advantage"),
    ("compare", "What the other house rules change"),
)


def summary_section(found: Mapping[str, str], anchors: Sequence[str]) -> Section:
    """The report's opening: each answer in one sentence, linked to its section."""
    sec = Section("summary", "In short")
    for anchor, title in SUMMARY_ORDER:
        if anchor in found and anchor in anchors:
            sec.blocks.append(Text(f"**{title}.** {found[anchor]} [More](#{anchor})."))
    return sec
