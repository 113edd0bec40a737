"""The strategy guide: what a player should bid, expect, give away and concede.

Every table comes from one of four runs of the same rules (``thousand guide``), and
each says which player produced it:

* every dealt hand played as the declarer's by ``strong`` (the ``safebids``
  items): the bid chart, the talon's measured side, the concession table and the
  ``guide`` player's bid chart;
* hands played by ``strong`` in ordinary auctions: the cost of giving a lone king
  or queen away;
* games to the target by ``strong``: the barrel, golden and dark deals, seats;
* the odds run: the talon's reshuffle conditions beside their exact values.

Exact values stand beside the measured ones where a closed form exists (the talon's
expected points, completing a half-marriage, the chance the other half of a given
card sits with its receiver).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np
import polars as pl

from analysis.safebids import (
    RISKS,
    count_rank,
    curves,
    frame_of,
    hand_points,
    marriage_mask,
    safe_levels,
)
from analysis.stats import wilson_interval
from analysis.tables import short_rate
from sim.rules import Rules

GUIDE_PLAYER = "strong"  # who plays every run of the guide (and its duel's opponent)
# The guide player's classes (sim.engine.strategies.guide; a test checks they agree).
MARRIAGE_CLASSES = ("none", "spades", "clubs", "diamonds", "hearts", "two")
ACE_CLASSES = (0, 1, 2)
SUITS = ("♠", "♣", "♦", "♥")
MARRIAGE_WORDS = {
    "none": "no marriage",
    "spades": "♠ marriage",
    "clubs": "♣ marriage",
    "diamonds": "♦ marriage",
    "hearts": "♥ marriage",
    "two": "two marriages or more",
}


# --- hand classes (numpy twins of sim.engine.strategies.guide) ---------------------------
def _suit_bits(masks: np.ndarray, s: int) -> np.ndarray:
    return (np.asarray(masks, dtype=np.int64) >> (6 * s)) & 63


def marriage_classes(masks: np.ndarray) -> np.ndarray:
    """0 none, 1 + suit for one marriage, 5 for two or more (as the guide player counts)."""
    mask = marriage_mask(np.asarray(masks, dtype=np.int64))  # suit bits S=1 C=2 D=4 H=8
    count = sum((mask >> s) & 1 for s in range(4))
    one = 1 + np.log2(np.maximum(mask, 1)).astype(np.int64)
    return np.where(count == 0, 0, np.where(count > 1, 5, one))


def ace_classes(masks: np.ndarray) -> np.ndarray:
    """Aces held, 2 for two or more."""
    return np.minimum(count_rank(np.asarray(masks, dtype=np.int64), 5), 2)


def lone_halves(masks: np.ndarray) -> np.ndarray:
    """Kings and queens held without their partner."""
    out = np.zeros(len(masks), dtype=np.int64)
    for s in range(4):
        kq = _suit_bits(masks, s) & 0b1100
        out += (kq == 0b0100) | (kq == 0b1000)
    return out


# --- the guide's tables ---------------------------------------------------------------------
@dataclass
class GuideRuns:
    """What the guide is built from (all of one rules set and seed)."""

    rules: Rules
    seed: int
    risk: float
    items: dict[str, np.ndarray]  # sim.declarer.run_items of GUIDE_PLAYER
    hands: Mapping[str, np.ndarray]  # hands columns: see discard_table
    games: pl.DataFrame  # one row per game, as games.parquet (sim.engine.game.games_frame)
    odds: pl.DataFrame  # the odds table (analysis.tables.odds_table)


def _class_frame(runs: GuideRuns) -> pl.DataFrame:
    items = frame_of(runs.rules, GUIDE_PLAYER, runs.items)
    dealt = runs.items["dealt"]
    kept = runs.items["kept"]
    return items.with_columns(
        guide_marriage=pl.Series([MARRIAGE_CLASSES[k] for k in marriage_classes(dealt)]),
        guide_aces=pl.Series(ace_classes(dealt)),
        kept_marriage=pl.Series([MARRIAGE_CLASSES[k] for k in marriage_classes(kept)]),
        opp_delta=pl.Series(runs.items["opp_delta"]),
    )


def guide_bids(frame: pl.DataFrame, rules: Rules, risk: float, min_n: int = 30) -> pl.DataFrame:
    """The guide player's bid chart: the safe level at ``risk`` by marriage and aces.

    A class with fewer than ``min_n`` hands takes its marriage's level over all aces.
    Columns: ``marriage``, ``aces``, ``n``, ``level`` (0: pass).
    """
    fine = safe_levels(
        curves(frame, rules, ["guide_marriage", "guide_aces"]),
        ["guide_marriage", "guide_aces"],
        [risk],
    )
    coarse = safe_levels(curves(frame, rules, ["guide_marriage"]), ["guide_marriage"], [risk])
    col = f"safe_{round(risk * 100)}"
    rows = []
    for m in MARRIAGE_CLASSES:
        c = coarse.filter(pl.col("guide_marriage") == m)
        fallback = c[col][0] if len(c) and c[col][0] is not None else 0
        for a in ACE_CLASSES:
            f = fine.filter((pl.col("guide_marriage") == m) & (pl.col("guide_aces") == a))
            n = int(f["n"][0]) if len(f) else 0
            level = f[col][0] if n >= min_n else fallback
            rows.append({"marriage": m, "aces": a, "n": n, "level": int(level or 0)})
    return pl.DataFrame(rows)


def talon_points_table(frame: pl.DataFrame, runs: GuideRuns) -> pl.DataFrame:
    """Expected talon points by the hand's points band: measured beside exact.

    The talon is ``t`` cards drawn from the ``u`` the bidder cannot see, so its expected
    points are exactly ``t (120 - hand points) / u`` for each hand.
    """
    hand = 10 if runs.rules.players == 2 else 7
    t = 2 if runs.rules.players == 2 else 3
    unseen = 24 - hand
    talon_pts = hand_points(np.asarray(runs.items["talon"], dtype=np.int64))
    exact = t * (120 - frame["points"].to_numpy()) / unseen
    f = frame.select("points_band").with_columns(
        measured=pl.Series(talon_pts.astype(np.float64)), exact=pl.Series(exact)
    )
    out = f.group_by("points_band").agg(
        n=pl.len().cast(pl.Int64),
        measured=pl.col("measured").mean(),
        se=pl.col("measured").std() / pl.len().sqrt(),
        exact=pl.col("exact").mean(),
    )
    return (
        out.sort("points_band")
        .with_columns(
            ci_low=pl.col("measured") - 1.96 * pl.col("se"),
            ci_high=pl.col("measured") + 1.96 * pl.col("se"),
        )
        .drop("se")
    )


def completion_table(runs: GuideRuns) -> pl.DataFrame:
    """P(the talon completes a half-marriage) by the lone kings and queens held.

    Exact: the partners lie among the ``u`` unseen cards, so none of ``h`` of them is in a
    talon of ``t`` with probability ``C(u - h, t) / C(u, t)``.
    """
    players = runs.rules.players
    hand = 10 if players == 2 else 7
    t = 2 if players == 2 else 3
    unseen = 24 - hand
    dealt = runs.items["dealt"]
    talon = runs.items["talon"]
    h = lone_halves(dealt)
    done = np.zeros(len(dealt), dtype=bool)
    for s in range(4):
        kq = _suit_bits(dealt, s) & 0b1100
        lone = (kq == 0b0100) | (kq == 0b1000)
        partner = np.where(kq == 0b0100, 0b1000, 0b0100)
        done |= lone & ((_suit_bits(talon, s) & partner) != 0)
    rows = []
    for k in range(0, 5):
        sel = h == k
        n = int(sel.sum())
        if n == 0:
            continue
        hits = int(done[sel].sum())
        low, high = wilson_interval(np.array([hits]), np.array([n]))
        exact = 1 - comb(unseen - k, t) / comb(unseen, t)
        rows.append(
            {
                "lone_halves": k,
                "n": n,
                "measured": hits / n,
                "ci_low": float(low[0]),
                "ci_high": float(high[0]),
                "exact": exact,
            }
        )
    return pl.DataFrame(rows)


def talon_reshuffle_table(odds: pl.DataFrame) -> pl.DataFrame:
    """The talon's reshuffle conditions from the odds run, each beside its exact value."""
    keep = odds.filter(pl.col("key").str.starts_with("talon."))
    return keep.select("key", "meaning", "estimate", "ci_low", "ci_high", "exact")


def discard_table(runs: GuideRuns) -> pl.DataFrame:
    """What giving a lone king or queen away cost, by suit (hands of the guide's player).

    A give counts when the card's partner was not among the declarer's 10 cards, so an
    opponent held it: the receiver, exactly half the time with three players (the 14
    cards the declarer cannot see are dealt 7 and 7). Measured: how often the receiver
    held it and then declared that marriage; the cost is the marriage's value times
    that rate (points the opponents gained, on average per such give).
    """
    h = runs.hands
    decl = np.asarray(h["declarer"])
    rows = []
    players = runs.rules.players
    if players == 2:
        return pl.DataFrame()
    values = runs.rules.marriage_values
    gives = {s: [0, 0, 0] for s in range(4)}  # gives, receiver held, receiver declared
    dealt = np.asarray(h["dealt"])  # (n, 3) dealt hands by hand seat
    talon = np.asarray(h["talon"])
    for slot, offset in (("discard_1", 1), ("discard_2", 2)):
        card = np.asarray(h[slot])
        ok = card >= 0
        rank = card % 6
        kq = ok & ((rank == 2) | (rank == 3))
        idx = np.nonzero(kq)[0]
        for i in idx:
            c = int(card[i])
            s, partner = c // 6, (c // 6) * 6 + (5 - c % 6)  # Q (2) <-> K (3)
            d = int(decl[i])
            ten = int(dealt[i, d]) | int(talon[i])
            if ten >> partner & 1:
                continue  # a card of its own marriage: not a lone half
            receiver = (d + offset) % 3
            gives[s][0] += 1
            if int(dealt[i, receiver]) >> partner & 1:
                gives[s][1] += 1
                if int(h[f"declared_{receiver}"][i]) >> s & 1:
                    gives[s][2] += 1
    for s in range(4):
        n, held, declared = gives[s]
        if n == 0:
            continue
        lo_h, hi_h = wilson_interval(np.array([held]), np.array([n]))
        lo_d, hi_d = wilson_interval(np.array([declared]), np.array([n]))
        rows.append(
            {
                "suit": SUITS[s],
                "gives": n,
                "receiver_held": held / n,
                "held_low": float(lo_h[0]),
                "held_high": float(hi_h[0]),
                "exact_held": 0.5,
                "declared": declared / n,
                "declared_low": float(lo_d[0]),
                "declared_high": float(hi_d[0]),
                "cost": values[s] * declared / n,
                "cost_low": values[s] * float(lo_d[0]),
                "cost_high": values[s] * float(hi_d[0]),
            }
        )
    return pl.DataFrame(rows)


def _opp_get(rules: Rules, level: np.ndarray) -> np.ndarray:
    if rules.rospis.opponents_get == "sixty":
        return np.full(len(level), 60.0)
    return ((level // 2 + 4) // 5 * 5).astype(np.float64)


def concede_table(frame: pl.DataFrame, rules: Rules, levels: Sequence[int]) -> pl.DataFrame:
    """Expected score of playing against conceding, by the marriages kept and contract.

    Both relative to the two opponents: the declarer's score minus their mean score.
    Playing: ``L (2p - 1)`` minus the opponents' mean measured score (their card
    points and marriages as they played them); conceding: minus ``L`` (0 with
    ``rospis.no_subtract``) minus what each opponent is given. ``p`` is the share of the
    class's hands whose total reaches ``L`` when played.
    """
    rows = []
    need = {int(L): rules.least_total_making(int(L)) for L in levels}
    values = rules.marriage_values
    for k, m in enumerate(MARRIAGE_CLASSES):
        sub = frame.filter(pl.col("kept_marriage") == m)
        n = len(sub)
        if n == 0:
            continue
        total = sub["total"].to_numpy()
        opp = float(sub["opp_delta"].mean())  # type: ignore[arg-type]
        # the contracts the class may name: 120 plus its marriage (two: every level)
        top = 120 + (values[k - 1] if 1 <= k <= 4 else (0 if k == 0 else 10**6))
        if not rules.bid.cap_by_marriages:
            top = 10**6
        for L in levels:
            if L > top:
                break
            made = int((total >= need[int(L)]).sum())
            p = made / n
            low, high = wilson_interval(np.array([made]), np.array([n]))
            play = L * (2 * p - 1) - opp
            lose = 0.0 if rules.rospis.no_subtract else -float(L)
            concede = lose - float(_opp_get(rules, np.array([L]))[0])
            rows.append(
                {
                    "kept": m,
                    "contract": int(L),
                    "n": n,
                    "p_make": p,
                    "ci_low": float(low[0]),
                    "ci_high": float(high[0]),
                    "play": play,
                    "concede": concede,
                    "better": "play" if play >= concede else "concede",
                }
            )
    return pl.DataFrame(rows)


def concede_above(table: pl.DataFrame, top: int = 400) -> dict[str, int]:
    """The guide player's table: the highest contract still played, by marriages kept.

    The first contract at which conceding scores more marks the limit; ``top`` when
    playing is better at every contract in the table.
    """
    out: dict[str, int] = {}
    for m in MARRIAGE_CLASSES:
        t = table.filter(pl.col("kept") == m).sort("contract")
        limit = top
        for row in t.iter_rows(named=True):
            if row["better"] == "concede":
                limit = row["contract"] - 5
                break
        out[m] = limit
    return out


def barrel_table(games: pl.DataFrame, rules: Rules) -> pl.DataFrame:
    """Climbs onto the barrel and falls off it, over all seats (games of the guide's player)."""
    players = rules.players
    seats = range(players)
    entries = sum(int(games[f"barrel_entries_{s}"].sum()) for s in seats)
    falls = sum(int(games[f"barrel_falls_{s}"].sum()) for s in seats)
    n = len(games)
    low, high = wilson_interval(np.array([falls]), np.array([max(entries, 1)]))
    return pl.DataFrame(
        {
            "games": [n],
            "climbs_per_game": [entries / n if n else 0.0],
            "climbs": [entries],
            "falls": [falls],
            "fall_share": [falls / entries if entries else None],
            "ci_low": [float(low[0]) if entries else None],
            "ci_high": [float(high[0]) if entries else None],
        }
    )


def seat_table(games: pl.DataFrame, rules: Rules) -> pl.DataFrame:
    """Who wins, by seat relative to the first dealer (the first dealer's left is 1)."""
    players = rules.players
    finished = games.filter(~pl.col("unfinished"))
    pos = ((finished["winner"] - finished["first_dealer"]) % players).to_numpy()
    n = len(pos)
    rows = []
    for k in range(players):
        hits = int((pos == k).sum())
        low, high = wilson_interval(np.array([hits]), np.array([max(n, 1)]))
        name = "first dealer" if k == 0 else f"{k} to the first dealer's left"
        rows.append(
            {
                "seat": name,
                "games": n,
                "wins": hits,
                "share": hits / n if n else None,
                "ci_low": float(low[0]),
                "ci_high": float(high[0]),
                "fair": 1 / players,
            }
        )
    return pl.DataFrame(rows)


def special_table(games: pl.DataFrame, rules: Rules) -> pl.DataFrame:
    """Golden and dark deals per game, or that they are off under these rules."""
    n = len(games)
    rows: list[dict[str, Any]] = []
    for name, on, col in (
        ("golden deals", rules.golden.enabled, "golden_deals"),
        ("dark deals", rules.dark.enabled, "dark_deals"),
    ):
        if not on:
            rows.append({"deal": name, "per_game": None, "note": "off under these rules"})
        else:
            rows.append(
                {
                    "deal": name,
                    "per_game": float(games[col].sum()) / n if n else None,
                    "note": f"{int(games[col].sum())} in {n} games",
                }
            )
    return pl.DataFrame(rows, schema={"deal": pl.String, "per_game": pl.Float64, "note": pl.String})


@dataclass
class Guide:
    """Every table of the guide, and the ``guide`` player's parameters."""

    runs: GuideRuns
    bid_curve: pl.DataFrame
    bid_chart: pl.DataFrame
    guide_bids: pl.DataFrame
    talon_points: pl.DataFrame
    completion: pl.DataFrame
    talon_reshuffle: pl.DataFrame
    discards: pl.DataFrame
    concede: pl.DataFrame
    concede_above: dict[str, int]
    barrel: pl.DataFrame
    seats: pl.DataFrame
    specials: pl.DataFrame

    def params(self) -> list[str]:
        """``guide.NAME=VALUE`` settings that make the ``guide`` player follow this guide."""
        out = [
            f"guide.bid_{r['marriage']}_{r['aces']}={r['level']}"
            for r in self.guide_bids.iter_rows(named=True)
        ]
        out += [f"guide.concede_above_{m}={v}" for m, v in self.concede_above.items()]
        return out


def build_guide(runs: GuideRuns) -> Guide:
    """Every table of the guide from its runs."""
    rules = runs.rules
    frame = _class_frame(runs)
    levels = [int(x) for x in rules.bid_levels() if x <= 200]
    curve = curves(frame, rules, ["marriages"])
    chart = safe_levels(curve, ["marriages"], RISKS)
    concede = concede_table(frame, rules, levels)
    return Guide(
        runs=runs,
        bid_curve=curve,
        bid_chart=chart,
        guide_bids=guide_bids(frame, rules, runs.risk),
        talon_points=talon_points_table(frame, runs),
        completion=completion_table(runs),
        talon_reshuffle=talon_reshuffle_table(runs.odds),
        discards=discard_table(runs),
        concede=concede,
        concede_above=concede_above(concede),
        barrel=barrel_table(runs.games, rules),
        seats=seat_table(runs.games, rules),
        specials=special_table(runs.games, rules),
    )


# --- the pages ----------------------------------------------------------------------------
def _chart_display(guide: Guide) -> pl.DataFrame:
    from analysis.safebids import class_words

    t = guide.bid_chart.filter(pl.col("player") == GUIDE_PLAYER).filter(pl.col("n") >= 30)

    def level(v: Any) -> str:
        return "—" if v is None else str(v)

    return pl.DataFrame(
        {
            "hand before the talon": [class_words(m) for m in t["marriages"]],
            "hands": t["n"],
            **{
                f"safe at {round(r * 100)} %": [level(v) for v in t[f"safe_{round(r * 100)}"]]
                for r in RISKS
            },
        }
    )


def duel_sentence(summary: pl.DataFrame, deals: int, seed: int) -> str:
    """One sentence on the guide player's duplicate duel against :data:`GUIDE_PLAYER`."""
    row = summary.filter(pl.col("measure") == "score_diff").row(0, named=True)
    d, lo, hi = row["value"], row["ci_low"], row["ci_high"]
    verdict = "at least as well as" if lo > 0 or (lo <= 0 <= hi) else "worse than"
    return (
        f"Played by these tables alone (the `guide` player: it bids by the chart below at "
        f"the guide's risk and concedes by the concession table; its card play and discards "
        f"are `{GUIDE_PLAYER}`'s), a duplicate duel against `{GUIDE_PLAYER}` over {deals:,} "
        f"deals (seed {seed}) gives {d:+.2f} [{lo:+.2f}, {hi:+.2f}] points per deal: the guide "
        f"does {verdict} `{GUIDE_PLAYER}`{'' if lo > 0 or hi < 0 else ' (the interval holds 0)'}."
    )


def guide_answer(guide: Guide, duel: pl.DataFrame | None = None) -> str:
    """The guide in one sentence: the safe bids at 75 % by marriage, concessions, its duel."""
    chart = guide.bid_chart.filter(pl.col("player") == GUIDE_PLAYER)
    levels = {r["marriages"]: r["safe_75"] for r in chart.iter_rows(named=True)}
    single = [m for m in ("♥", "♦", "♣", "♠") if m in levels]
    bids = [f"{levels[m]} holding the {m} marriage alone" for m in single if levels[m]]
    unsafe = [f"the {m} marriage" for m in single if levels[m] is None]
    if "none" in levels and levels["none"] is None:
        unsafe.append("no marriage")
    parts = []
    if bids:
        parts.append("the guide bids up to " + " and ".join(bids))
    if unsafe:
        parts.append("with only " + " or ".join(unsafe) + " not even 100 is made that often")
    rule = "at a 75 % make rate " + "; ".join(parts) if parts else "no bid is safe at 75 %"
    conceding = guide.concede.filter(pl.col("better") == "concede")
    concede = (
        "conceding never scores more than playing"
        if conceding.is_empty()
        else f"conceding scores more than playing in {len(conceding)} of "
        f"{len(guide.concede)} cases of the concession table"
    )
    text = f"Measured with `{GUIDE_PLAYER}` at every seat: {rule}; {concede}"
    if duel is not None:
        row = duel.filter(pl.col("measure") == "score_diff").row(0, named=True)
        text += (
            f"; played by these tables alone it scores {row['value']:+.2f} "
            f"[{row['ci_low']:+.2f}, {row['ci_high']:+.2f}] points per deal against "
            f"`{GUIDE_PLAYER}`"
        )
    return text + "."


def guide_sections(
    guide: Guide, duel: pl.DataFrame | None = None, duel_deals: int = 0, duel_seed: int = 0
) -> list[Any]:
    """The guide's sections (:class:`analysis.pages.Section`), in reading order."""
    from analysis.pages import Section, Text, interval_column
    from analysis.plots import plot_safe_curves

    runs = guide.runs
    rules = runs.rules
    deals = len(np.unique(runs.items["deal"]))
    who = f"`{GUIDE_PLAYER}` at every seat"
    need = rules.game.target - rules.barrel.at + (1 if rules.game.target_strict else 0)

    bid = Section("guide-bids", "How high to bid")
    bid.blocks.append(
        Text(
            f"Every dealt hand of {deals:,} deals (seed {runs.seed}) played as the declarer's "
            f"by {who}: talon, discard, its own contract and the play. A hand makes a level "
            "when its deal total reaches it and the player would not concede it; the safe "
            "bid is the highest level whose 95 % lower bound reaches the risk (— none)."
        )
    )
    bid.add_table(
        "Bid chart: safe bid at 50 / 75 / 90 %",
        f"Measured with {who}. Full curves with intervals: `guide_bid_curve.csv`.",
        _chart_display(guide),
        "guide_bid_chart.csv",
        guide.bid_chart,
    )
    bid.csvs["guide_bid_curve.csv"] = guide.bid_curve
    bid.add_figure(
        "guide_bid_curves.png",
        plot_safe_curves(guide.bid_curve, rules.name),
        "P(make L) by bid level and marriage, 95 % bands",
    )

    talon = Section("guide-talon", "What the talon brings")
    talon.blocks.append(
        Text(
            "The talon's cards are drawn from the cards the bidder cannot see, so some of "
            "its value is exact: expected points are `talon size × (120 − hand points) / "
            "unseen cards`, and each lone king or queen finds its partner in the talon with "
            "a fixed chance. Measured columns: the talons of the same deals."
        )
    )
    tp = guide.talon_points.with_columns(
        interval_column(guide.talon_points, "measured", "ci_low", "ci_high", "measured [95 %]")
    ).select(
        pl.col("points_band").alias("hand points"),
        pl.col("n").alias("hands"),
        "measured [95 %]",
        pl.col("exact").map_elements(lambda v: f"{v:.2f}", return_dtype=pl.String),
    )
    talon.add_table(
        "Talon points by the hand's points", "", tp, "guide_talon_points.csv", guide.talon_points
    )
    if len(guide.completion):
        comp = guide.completion.with_columns(
            interval_column(guide.completion, "measured", "ci_low", "ci_high", "measured [95 %]")
        ).select(
            pl.col("lone_halves").alias("lone kings and queens"),
            pl.col("n").alias("hands"),
            "measured [95 %]",
            pl.col("exact").map_elements(lambda v: f"{v:.4f}", return_dtype=pl.String),
        )
        talon.add_table(
            "Chance the talon completes a half-marriage",
            "",
            comp,
            "guide_completion.csv",
            guide.completion,
        )
    if len(guide.talon_reshuffle):
        rs = guide.talon_reshuffle.with_columns(
            interval_column(
                guide.talon_reshuffle, "estimate", "ci_low", "ci_high", "simulated [95 %]"
            )
        ).select("meaning", "simulated [95 %]", "exact")
        talon.add_table(
            "The talon's reshuffle conditions",
            "From the odds run of the same rules.",
            rs,
            "guide_talon_reshuffle.csv",
            guide.talon_reshuffle,
        )

    give = Section("guide-discards", "What to give away")
    if len(guide.discards):
        d = guide.discards
        shown = pl.DataFrame(
            {
                "suit": d["suit"],
                "gives": d["gives"],
                "receiver held the other half": [
                    short_rate(*r)
                    for r in zip(d["receiver_held"], d["held_low"], d["held_high"], strict=True)
                ],
                "exact": d["exact_held"],
                "receiver declared it": [
                    short_rate(*r)
                    for r in zip(d["declared"], d["declared_low"], d["declared_high"], strict=True)
                ],
                "cost per give (points)": [
                    f"{c:.1f} [{lo:.1f}, {hi:.1f}]"
                    for c, lo, hi in zip(d["cost"], d["cost_low"], d["cost_high"], strict=True)
                ],
            }
        )
        give.blocks.append(
            Text(
                "Giving a king or queen whose partner you do not hold hands an opponent half "
                "a marriage: the partner is with the receiver exactly half the time (the 14 "
                "cards you cannot see are split 7 and 7). The table measures how often the "
                f"receiver then declared it, in hands played by {who} in ordinary auctions, "
                "and what that cost on average per such give (the marriage's value times the "
                "rate). Keep marriages together, and give lone kings and queens of cheap "
                "suits before dear ones."
            )
        )
        give.add_table("Giving a lone king or queen", "", shown, "guide_discards.csv", d)
    else:
        give.blocks.append(Text("No such gives in these hands (or not three players)."))

    concede = Section("guide-concede", "When to concede")
    c = guide.concede
    limits = ", ".join(
        f"{MARRIAGE_WORDS[m]}: {'never' if v >= 400 else f'above {v}'}"
        for m, v in guide.concede_above.items()
    )
    concede.blocks.append(
        Text(
            "Expected score of playing against conceding, relative to the opponents (your "
            "score minus their mean), by the marriages kept after the discard and the "
            f"contract, from the same hands played by {who}. Playing scores "
            "`L (2p − 1)` minus the opponents' measured points; conceding scores "
            f"{'0' if rules.rospis.no_subtract else '−L'} minus what each opponent is given "
            f"({'60' if rules.rospis.opponents_get == 'sixty' else 'half the contract'}). "
            f"Concede only where conceding is better: {limits}."
        )
    )
    shown_c = (
        c.with_columns(interval_column(c, "p_make", "ci_low", "ci_high", "P(make) [95 %]"))
        .select(
            pl.col("kept").replace_strict(MARRIAGE_WORDS, return_dtype=pl.String).alias("kept"),
            "contract",
            "n",
            "P(make) [95 %]",
            pl.col("play").map_elements(lambda v: f"{v:+.1f}", return_dtype=pl.String),
            pl.col("concede").map_elements(lambda v: f"{v:+.1f}", return_dtype=pl.String),
            "better",
        )
        .filter(pl.col("contract") % 20 == 0)
    )
    concede.add_table(
        "Playing or conceding",
        "Every 20 points shown; all levels in the CSV.",
        shown_c,
        "guide_concede.csv",
        c,
    )

    table = Section("guide-barrel", "The barrel, golden and dark deals, seats")
    b = guide.barrel.row(0, named=True)
    barrel_words = "There is no barrel under these rules."
    if rules.barrel.at > 0:
        barrel_words = (
            f"On the barrel only a made contract of {need} or more wins, and a failed "
            "contract costs nothing there: bid and name at least that much whenever your "
            "cap allows. In "
            f"{b['games']:,} games of {who}, players climbed onto the barrel "
            f"{b['climbs_per_game']:.2f} times a game and "
            f"{short_rate(b['fall_share'], b['ci_low'], b['ci_high'])} of the climbs ended "
            "in a fall."
        )
    table.blocks.append(Text(barrel_words))
    table.add_table(
        "Golden and dark deals", "", guide.specials, "guide_specials.csv", guide.specials
    )
    seats = guide.seats.with_columns(
        interval_column(guide.seats, "share", "ci_low", "ci_high", "wins [95 %]")
    ).select(
        "seat",
        "games",
        "wins [95 %]",
        pl.col("fair").map_elements(lambda v: f"{v:.3f}", return_dtype=pl.String),
    )
    table.add_table("Who wins, by seat", f"Games of {who}.", seats, "guide_seats.csv", guide.seats)

    check = Section("guide-check", "The guide, played")
    params = " ".join(guide.params())
    if duel is not None:
        check.blocks.append(Text(duel_sentence(duel, duel_deals, duel_seed)))
        check.add_csv("guide_duel.csv", duel, "the duel's summary")
    check.blocks.append(
        Text(
            f"The `guide` player's bid chart at risk {runs.risk:g} (the highest level each "
            "class of dealt hand makes with that chance; a class under 30 hands takes its "
            "marriage's level) and its concession limits, as `--param` settings: "
            f"`{params}`."
        )
    )
    check.add_csv("guide_player.csv", guide.guide_bids, "the guide player's bid chart")
    return [bid, talon, give, concede, table, check]


def guide_json(guide: Guide, duel: pl.DataFrame | None = None) -> dict[str, Any]:
    """Every table of the guide as JSON rows."""
    from analysis.tables import tables_json

    runs = guide.runs
    tables = {
        "bid_chart": guide.bid_chart,
        "talon_points": guide.talon_points,
        "completion": guide.completion,
        "talon_reshuffle": guide.talon_reshuffle,
        "discards": guide.discards,
        "concede": guide.concede,
        "barrel": guide.barrel,
        "seats": guide.seats,
        "specials": guide.specials,
        "guide_player": guide.guide_bids,
    }
    if duel is not None:
        tables["duel"] = duel
    return {
        "rules": runs.rules.name,
        "rules_hash": runs.rules.rules_hash,
        "seed": runs.seed,
        "risk": runs.risk,
        "player": GUIDE_PLAYER,
        "guide_params": guide.params(),
        "tables": tables_json(tables),
    }


def guide_header(guide: Guide) -> str:
    """The page's opening line: rules, sizes and who played."""
    runs = guide.runs
    rules = runs.rules
    deals = len(np.unique(runs.items["deal"]))
    return (
        f"Rules **{rules.name}** (`rules_hash` {rules.rules_hash}, {rules.players} players) — "
        f"seed {runs.seed}; {deals:,} deals with every hand played as the declarer's, "
        f"{len(runs.hands['declarer']):,} hands, {len(runs.games):,} games, all played by "
        f"`{GUIDE_PLAYER}` at every seat. Every number carries its 95 % interval or says it "
        "is exact."
    )


def write_guide(
    guide: Guide,
    out: Any,
    duel: pl.DataFrame | None,
    duel_deals: int,
    duel_seed: int,
    extra: Mapping[str, Any],
    more: Any = None,
) -> list[Any]:
    """Write ``guide.md``, ``index.html``, the CSVs, figures and ``run.json`` into ``out``.

    ``more``, when given, is called with the staging folder to write further pages
    (the page for players) that land with the rest or not at all.
    """
    from pathlib import Path

    from analysis.pages import Section, Text, write_pages
    from sim.output import StagedDir, write_manifest

    runs = guide.runs
    summary = Section("summary", "In short", [Text(guide_answer(guide, duel))])
    sections = [summary, *guide_sections(guide, duel, duel_deals, duel_seed)]
    title = f"Thousand strategy guide — {runs.rules.name}"
    with StagedDir(Path(out)) as staged:
        d = staged.path
        write_pages(d, title, guide_header(guide), sections, "guide.md")
        if more is not None:
            more(d)
        (d / "guide_params.txt").write_text("\n".join(guide.params()) + "\n", encoding="utf-8")
        write_manifest(
            d,
            runs.rules,
            runs.seed,
            {
                "deals": len(np.unique(runs.items["deal"])),
                "hands": len(runs.hands["declarer"]),
                "games": len(runs.games),
                "duel_deals": duel_deals if duel is not None else 0,
            },
            command="guide",
            players=[GUIDE_PLAYER],
            risk=runs.risk,
            **extra,
        )
    return sections


def guide_report_section(
    guide: Guide, duel: pl.DataFrame | None, duel_deals: int, duel_seed: int
) -> Any:
    """The guide as one section of ``thousand report`` (its sections as sub-headings)."""
    from analysis.pages import Section, Text

    out = Section("guide", "Strategy guide", answer=guide_answer(guide, duel))
    out.blocks.append(
        Text(
            "What to bid, what the talon brings, what to give away, when to concede and how "
            f"the barrel and the seats play, measured with `{GUIDE_PLAYER}` at every seat "
            "(`thousand guide` writes it as its own page)."
        )
    )
    for sec in guide_sections(guide, duel, duel_deals, duel_seed):
        out.blocks.append(Text(f"**{sec.title}.**"))
        out.blocks.extend(sec.blocks)
        out.figures.update(sec.figures)
        out.csvs.update(sec.csvs)
    return out
