"""The strategy guide: what a player should bid, expect, give away and concede.

Every table comes from one of five runs of the same rules (``thousand guide``), and
each says which player produced it:

* the advisor's class tables of ``strong`` (:func:`sim.jobs.advice_tables.load_tables`:
  every class of hand, its marriages and aces, dealt on purpose at every seat and
  every choice in the auction played out): how high to bid, by the one rule
  (:func:`analysis.choices.best_choice`), and the ``guide`` player's bid chart, the
  same rule over its coarser classes (:func:`pooled_choices`);
* every dealt hand played as the declarer's by ``strong`` (the ``safebids``
  items): how safe a bid is (the make-rate charts), the talon's measured side and the
  concession table;
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
    marriage_label,
    marriage_mask,
    marriage_order,
    safe_levels,
)
from analysis.stats import Z95, wilson_interval
from analysis.tables import tables_json
from sim.players import DEFAULT
from sim.rules import Rules, hand_roles

GUIDE_PLAYER = DEFAULT  # who plays every run of the guide (and its duel's opponent)
# The guide player's classes (sim.engine.strategies.guide; a test checks they agree).
MARRIAGE_CLASSES = ("none", "spades", "clubs", "diamonds", "hearts", "two")
ACE_CLASSES = (0, 1, 2)
SUITS = ("♠", "♣", "♦", "♥")


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
    items: dict[str, np.ndarray]  # sim.runs.declarer.run_items of GUIDE_PLAYER
    hands: Mapping[str, np.ndarray]  # hands columns: see discard_table
    games: pl.DataFrame  # one row per game, as games.parquet (sim.runs.games.games_frame)
    odds: pl.DataFrame  # the odds table (analysis.tables.odds_table)
    deals: pl.DataFrame  # every played deal of the hands run: see events_table
    # the class tables of GUIDE_PLAYER (sim.jobs.advice_tables.ClassTables): one row per
    # class, seat and plan level, one row per class and seat, the hands dealt per cell
    # and their seed
    choices: pl.DataFrame
    verdicts: pl.DataFrame
    table_hands: int
    table_seed: int


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


BID_CLASS_COLUMNS = (
    "marriage", "aces", "n", "level", "rate", "ci_low", "ci_high",
    "next_level", "next_rate", "next_low", "next_high",
)  # fmt: skip


def class_curve(frame: pl.DataFrame, rules: Rules) -> pl.DataFrame:
    """``P(make L)`` by the guide player's classes: marriages (:data:`MARRIAGE_CLASSES`) × aces."""
    return curves(frame, rules, ["guide_marriage", "guide_aces"])


def bid_classes_table(curve: pl.DataFrame, risk: float) -> pl.DataFrame:
    """The safe-bid chart by marriage and aces at ``risk``, each level with its make rate.

    How safe a bid is, not how high to bid: the level the class's hands make often
    enough, whatever passing or a lower bid would score (:func:`bid_choices_table`
    weighs that).

    ``level`` is the highest level whose 95 % Wilson lower bound reaches ``risk`` (null:
    none, pass), as :func:`analysis.safebids.safe_levels` reads it; ``rate``, ``ci_low``
    and ``ci_high`` are the make rate at that level; ``next_*`` the same at the first
    level above it (at the lowest level when none passes; null when the hand's cap
    allows no higher bid), the level that falls short: the threshold with both sides.
    Every class of :data:`MARRIAGE_CLASSES` × :data:`ACE_CLASSES` has a row (``n`` 0
    when no hand fell in it).
    """
    rows = []
    for m in MARRIAGE_CLASSES:
        for a in ACE_CLASSES:
            c = curve.filter((pl.col("guide_marriage") == m) & (pl.col("guide_aces") == a))
            c = c.sort("level")
            n = int(c["n"][0]) if len(c) else 0
            passing = c.filter(pl.col("ci_low") >= risk)
            level = int(passing["level"].max()) if len(passing) else None  # type: ignore[arg-type]
            hit = c.filter(pl.col("level") == level).rows(named=True) if level else []
            above = c.filter(pl.col("level") > (level or 0)).head(1).rows(named=True)
            at: dict[str, Any] = hit[0] if hit else {}
            nxt: dict[str, Any] = above[0] if above else {}
            rows.append(
                {
                    "marriage": m, "aces": a, "n": n, "level": level,
                    "rate": at.get("rate"), "ci_low": at.get("ci_low"),
                    "ci_high": at.get("ci_high"), "next_level": nxt.get("level"),
                    "next_rate": nxt.get("rate"), "next_low": nxt.get("ci_low"),
                    "next_high": nxt.get("ci_high"),
                }
            )  # fmt: skip
    ints = ("aces", "n", "level", "next_level")
    schema = {k: pl.Int64 if k in ints else pl.Float64 for k in BID_CLASS_COLUMNS}
    return pl.DataFrame(rows, schema={**schema, "marriage": pl.String})


# --- how high to bid: the class tables, read by the one rule ------------------------------
BID_CHOICE_COLUMNS = (
    "marriages", "aces", "seat", "hands", "class_hands", "share", "choice", "choice_low",
    "choice_high", "margin", "margin_low", "margin_high", "p_make", "p_low", "p_high",
)  # fmt: skip
_CELL = ("marriages", "aces", "seat")


def bid_choices_table(runs: GuideRuns) -> pl.DataFrame:
    """How high to bid: the class tables' choice of every class of hand at every seat.

    One row per class (``marriages``: its marriage set as
    :func:`analysis.safebids.marriage_label` writes it; ``aces``) and seat (its name):
    ``hands`` dealt there on purpose, ``class_hands`` (hands of the deck in the class)
    and ``share``, the ``choice`` (0: pass) of :func:`analysis.choices.best_choice` with
    ``choice_low`` and ``choice_high`` (the levels as good as it), the choice's mean
    margin with its 95 % interval, and P(make) of the choice's level when the hand wins
    the auction there, with its Wilson interval (empty for a pass). Ordered as every
    glance shows them (:func:`analysis.safebids.marriage_order`), then aces, seats.
    """
    seats = hand_roles(runs.rules.players)
    at = runs.choices.select(
        *_CELL, pl.col("level").alias("best"), pl.col("mean").alias("margin"),
        pl.col("low").alias("margin_low"), pl.col("high").alias("margin_high"),
        pl.col("p").alias("p_make"), pl.col("ci_low").alias("p_low"),
        pl.col("ci_high").alias("p_high"),
    )  # fmt: skip
    cells = runs.verdicts.join(at, on=[*_CELL, "best"], how="left")
    labels = [marriage_label(int(m)) for m in cells["marriages"]]
    order = sorted(
        range(cells.height),
        key=lambda k: (marriage_order(labels[k]), cells["aces"][k], cells["seat"][k]),
    )
    out = cells.with_columns(
        marriages=pl.Series(labels, dtype=pl.String),
        seat=pl.Series([seats[int(s)] for s in cells["seat"]], dtype=pl.String),
        hands=pl.col("n").cast(pl.Int64),
        choice=pl.col("best").cast(pl.Int64),
        choice_low=pl.col("low").cast(pl.Int64),
        choice_high=pl.col("high").cast(pl.Int64),
    )
    return out[order].select(BID_CHOICE_COLUMNS)


def choice_levels(bid_choices: pl.DataFrame) -> dict[tuple[str, int], list[int]]:
    """Each class's choice at every seat in turn (:func:`views.advisor_page.glance_grid`)."""
    out: dict[tuple[str, int], list[int]] = {}
    for r in bid_choices.iter_rows(named=True):  # the seats in order (bid_choices_table)
        out.setdefault((r["marriages"], int(r["aces"])), []).append(int(r["choice"]))
    return out


def guide_class(marriages: int, aces: int) -> tuple[str, int]:
    """The ``guide`` player's class of a class of the tables: marriage class, aces 0/1/2+."""
    count = bin(marriages).count("1")
    if count == 0:
        return "none", min(aces, 2)
    if count > 1:
        return "two", min(aces, 2)
    return MARRIAGE_CLASSES[marriages.bit_length()], min(aces, 2)


POOLED_COLUMNS = (
    "marriage", "aces", "level", "n", "class_hands", "mean", "low", "high", "diff",
    "diff_low", "diff_high", "gain", "gain_low", "gain_high",
)  # fmt: skip


def _pool(cells: list[tuple[float, pl.DataFrame]]) -> dict[str, np.ndarray]:
    """One guide class's plans: the cells' rows pooled level by level (:func:`pooled_choices`)."""
    levels = np.unique(np.concatenate([rows["level"].to_numpy() for _w, rows in cells]))
    k = len(levels)
    mean = np.zeros(k)
    var = np.zeros(k)
    gain = np.zeros(k)
    gain_var = np.zeros(k)
    n = 0
    picked = []  # per cell: its row for each pooled level (above its cap: the cap's)
    for w, rows in cells:
        own = rows["level"].to_numpy()
        at = np.searchsorted(own, levels, side="right") - 1
        se = (rows["high"].to_numpy() - rows["low"].to_numpy()) / (2 * Z95)
        g = rows["gain"].fill_null(0.0).to_numpy()
        sg = (rows["gain_high"] - rows["gain_low"]).fill_null(0.0).to_numpy() / (2 * Z95)
        sd = (rows["diff_high"].to_numpy() - rows["diff_low"].to_numpy()) / (2 * Z95)
        mean += w * rows["mean"].to_numpy()[at]
        var += (w * se[at]) ** 2
        gain += w * g[at]
        gain_var += (w * sg[at]) ** 2
        n += int(rows["n"][0])
        picked.append((w, at, rows["mean"].to_numpy(), sd, sg))
    best = int(np.argmax(mean))  # the first of the highest: a tie keeps the lowest level
    diff = np.zeros(k)
    diff_var = np.zeros(k)
    for w, at, m, sd, sg in picked:
        b = at[best]
        diff += w * (m[at] - m[b])
        # the paired s.e. of (plan - best) in one cell: exact where the cell's best is one
        # of the two (its own diff is against it), else bounded by the sum of the two it
        # holds, against its best or against passing (sd(X - Y) <= sd(X) + sd(Y))
        s = np.minimum(sd[at] + sd[b], sg[at] + sg[b])
        diff_var += (w * np.where(at == b, 0.0, s)) ** 2
    half = Z95 * np.sqrt(var)
    diff_half = Z95 * np.sqrt(diff_var)
    gain_half = Z95 * np.sqrt(gain_var)
    return {
        "level": levels.astype(np.int64), "n": np.full(k, n, dtype=np.int64),
        "mean": mean, "low": mean - half, "high": mean + half,
        "diff": diff, "diff_low": diff - diff_half, "diff_high": diff + diff_half,
        "gain": gain, "gain_low": gain - gain_half, "gain_high": gain + gain_half,
    }  # fmt: skip


def pooled_choices(choices: pl.DataFrame, verdicts: pl.DataFrame) -> pl.DataFrame:
    """The plans of the ``guide`` player's classes: the class tables' plans pooled.

    A guide class (:data:`MARRIAGE_CLASSES` × aces 0, 1, 2+) holds several classes of
    the tables (``two``: every pair and triple of marriages; ``2`` aces: two, three or
    four) at every seat. Its plan ``L`` is valued by the mean of theirs: each member
    class weighted by the hands of the deck it holds (``class_hands``), the seats
    equally, a member's plan above its cap counted as its cap's (it cannot bid higher).
    The mean and its interval, and the gain over passing, are exact (the cells are
    independent deals; each cell's own intervals are paired). The difference from the
    pooled best plan is exact too, its interval approximated: in a cell whose own best is
    neither plan, its paired standard error is bounded by the sum of the two the cell
    holds (against its best, or against passing: the smaller), so the interval is never
    narrower than the paired one. Columns :data:`POOLED_COLUMNS`, one row per guide
    class and level; :func:`analysis.choices.best_choice` of a class's rows is its chart.
    """
    cells: dict[tuple[str, int], list[tuple[int, int, pl.DataFrame]]] = {}
    for (mask, aces, _seat), rows in choices.sort([*_CELL, "level"]).group_by(
        list(_CELL), maintain_order=True
    ):
        cells.setdefault(guide_class(int(mask), int(aces)), []).append((int(mask), int(aces), rows))
    hands = {(int(r["marriages"]), int(r["aces"])): int(r["class_hands"])
             for r in verdicts.iter_rows(named=True)}  # fmt: skip
    parts = []
    for m in MARRIAGE_CLASSES:
        for a in ACE_CLASSES:
            members = cells.get((m, a), [])
            if not members:
                continue
            total = sum(hands[k] for k in {(mask, aces) for mask, aces, _r in members})
            seats = len({int(r["seat"][0]) for _m, _a, r in members})
            pooled = _pool([(hands[(mask, aces)] / total / seats, rows)
                            for mask, aces, rows in members])  # fmt: skip
            parts.append(pl.DataFrame({
                "marriage": m, "aces": a, **pooled, "class_hands": total,
            }).with_columns(pl.col("aces", "class_hands").cast(pl.Int64)))  # fmt: skip
    return pl.concat(parts).select(POOLED_COLUMNS)


GUIDE_PLAYER_COLUMNS = (
    "marriage", "aces", "n", "class_hands", "level", "low", "high", "margin", "margin_low",
    "margin_high",
)  # fmt: skip


def guide_bids(pooled: pl.DataFrame) -> pl.DataFrame:
    """The ``guide`` player's bid chart: :func:`analysis.choices.best_choice` of each class.

    ``pooled``: :func:`pooled_choices`. One row per guide class (:data:`MARRIAGE_CLASSES`
    × :data:`ACE_CLASSES`): ``n`` (hands played for it: its members' cells × hands each),
    ``class_hands``, the ``level`` to bid up to (0: pass), ``low`` and ``high`` (the
    levels as good as it) and the level's pooled margin with its interval.
    """
    from analysis.choices import best_choice

    rows = []
    for m in MARRIAGE_CLASSES:
        for a in ACE_CLASSES:
            table = pooled.filter((pl.col("marriage") == m) & (pl.col("aces") == a))
            if table.is_empty():  # no hand of the rules' size is of this class
                rows.append({"marriage": m, "aces": a, "n": 0, "class_hands": 0, "level": 0,
                             "low": 0, "high": 0})  # fmt: skip
                continue
            best = best_choice(table)
            at = table.filter(pl.col("level") == best.level).row(0, named=True)
            rows.append({
                "marriage": m, "aces": a, "n": at["n"], "class_hands": at["class_hands"],
                "level": best.level, "low": best.low, "high": best.high, "margin": at["mean"],
                "margin_low": at["low"], "margin_high": at["high"],
            })  # fmt: skip
    schema = {c: pl.Float64 if c.startswith("margin") else pl.Int64 for c in GUIDE_PLAYER_COLUMNS}
    return pl.DataFrame(rows, schema={**schema, "marriage": pl.String})


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


TALON_RESHUFFLE_KEYS = (
    "talon.points_below_5",
    "talon.nines_ge_2",
    "talon.jacks_eq_3",
    "talon.reshuffle",
)
"""The odds keys of the talon's reshuffle conditions (:data:`sim.odds_keys.ODDS_KEYS`)."""

MUSIK_KEYS = (
    "talon.aces_ge_1",
    "talon.aces_ge_2",
    "talon.any_marriage",
    "talon.completes_marriage",
)
"""The odds keys of what the talon (the musik) holds."""


def odds_rows(odds: pl.DataFrame, keys: tuple[str, ...]) -> pl.DataFrame:
    """The rows of ``keys`` from the odds run, each beside its exact value.

    The guide's talon reshuffle conditions (:data:`TALON_RESHUFFLE_KEYS`) and what the
    talon holds (:data:`MUSIK_KEYS`).
    """
    keep = odds.filter(pl.col("key").is_in(keys))
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
            concede = rules.rospis.declarer_gets(L) - rules.rospis.each_opponent_gets(L)
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


EVENTS = {
    "forehand_100": "share of deals in which forehand plays its forced 100 (nobody bid)",
    "forehand_100_made": "share of those deals in which forehand makes its contract",
    "forehand_100_score": "forehand's mean deal score in those deals",
    "bolt_share": "share of the players of a deal who take no trick (a bolt)",
    "bolt_penalties_per_game": "bolt penalties per game, all players together",
    "bolt_points_per_game": "points lost to bolt penalties per game, all players together",
    "samosvals_per_game": "555 resets (samosval) per game, all players together",
    "games_with_samosval": "share of games with at least one 555 reset",
}
"""The measures of :func:`events_table`, with what each is (``guide_events.csv``)."""


def _share_row(key: str, hits: int, n: int) -> dict[str, Any]:
    """A rate ``hits / n`` with its Wilson interval, as a row of :func:`events_table`."""
    low, high = wilson_interval(np.array([hits]), np.array([max(n, 1)]))
    ok = n > 0
    return {
        "measure": key,
        "value": hits / n if ok else None,
        "ci_low": float(low[0]) if ok else None,
        "ci_high": float(high[0]) if ok else None,
        "n": n,
        "meaning": EVENTS[key],
    }


def _mean_row(key: str, values: np.ndarray) -> dict[str, Any]:
    """A mean with its 95 % interval (mean ± 1.96 standard errors), as a row."""
    v = np.asarray(values, dtype=np.float64)
    n = len(v)
    mean = float(v.mean()) if n else None
    half = Z95 * float(v.std(ddof=1)) / n**0.5 if n > 1 else 0.0
    return {
        "measure": key,
        "value": mean,
        "ci_low": None if mean is None else mean - half,
        "ci_high": None if mean is None else mean + half,
        "n": n,
        "meaning": EVENTS[key],
    }


def events_table(runs: GuideRuns) -> pl.DataFrame:
    """Forehand's forced 100, bolts and 555 resets: how often, and what they cost.

    From every played deal of the hands run (ordinary auctions, everybody at 0): how
    often forehand plays its compulsory opening 100 because nobody bid (docs/rules.md
    §4), how often it makes it and its mean deal score then, and the share of a deal's
    players who take no trick. From the games: bolt penalties per game and the points
    they cost, 555 resets per game and the share of games that have one. Shares carry
    their Wilson interval, means mean ± 1.96 standard errors; ``n`` is the deals, the
    forced-100 deals or the games each is measured over. Columns: ``measure`` (a key of
    :data:`EVENTS`), ``value``, ``ci_low``, ``ci_high``, ``n``, ``meaning``.
    """
    rules, d, games = runs.rules, runs.deals, runs.games
    at100 = d.filter(pl.col("at_100"))
    seats = range(rules.players)
    active = 2 if rules.players == 2 else 3
    penalties = sum(games[f"bolt_penalties_{s}"].to_numpy().astype(np.int64) for s in seats)
    resets = sum(games[f"samosvals_{s}"].to_numpy().astype(np.int64) for s in seats)
    rows = [
        _share_row("forehand_100", len(at100), len(d)),
        _share_row("forehand_100_made", int(at100["made"].sum()), len(at100)),
        _mean_row("forehand_100_score", at100["declarer_delta"].to_numpy()),
        _mean_row("bolt_share", d["bolts"].to_numpy() / active),
        _mean_row("bolt_penalties_per_game", np.asarray(penalties)),
        _mean_row("bolt_points_per_game", np.asarray(penalties) * rules.bolt.penalty),
        _mean_row("samosvals_per_game", np.asarray(resets)),
        _share_row("games_with_samosval", int((np.asarray(resets) > 0).sum()), len(games)),
    ]
    schema = {
        "measure": pl.String, "value": pl.Float64, "ci_low": pl.Float64,
        "ci_high": pl.Float64, "n": pl.Int64, "meaning": pl.String,
    }  # fmt: skip
    return pl.DataFrame(rows, schema=schema)


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
class GuideTables:
    """Every table of the guide, and the ``guide`` player's parameters.

    How high to bid: ``bid_choices`` (:func:`bid_choices_table`: the class tables'
    choice of every class at every seat), ``guide_choices`` (:func:`pooled_choices`: the
    same plans pooled over the ``guide`` player's classes) and ``guide_bids`` (its chart,
    :func:`guide_bids`). How safe a bid is: ``bid_curve``, ``bid_chart`` and
    ``bid_classes`` (make rates of the declarer items).
    """

    runs: GuideRuns
    bid_curve: pl.DataFrame
    bid_chart: pl.DataFrame
    bid_classes: pl.DataFrame
    bid_choices: pl.DataFrame
    guide_choices: pl.DataFrame
    guide_bids: pl.DataFrame
    talon_points: pl.DataFrame
    completion: pl.DataFrame
    talon_reshuffle: pl.DataFrame
    musik: pl.DataFrame
    discards: pl.DataFrame
    concede: pl.DataFrame
    concede_above: dict[str, int]
    barrel: pl.DataFrame
    seats: pl.DataFrame
    specials: pl.DataFrame
    events: pl.DataFrame

    def params(self) -> list[str]:
        """``guide.NAME=VALUE`` settings that make the ``guide`` player follow this guide."""
        out = [
            f"guide.bid_{r['marriage']}_{r['aces']}={r['level']}"
            for r in self.guide_bids.iter_rows(named=True)
        ]
        out += [f"guide.concede_above_{m}={v}" for m, v in self.concede_above.items()]
        return out


def guide_tables(runs: GuideRuns) -> GuideTables:
    """Every table of the guide from its runs."""
    rules = runs.rules
    frame = _class_frame(runs)
    levels = [int(x) for x in rules.bid_levels() if x <= 200]
    curve = curves(frame, rules, ["marriages"])
    chart = safe_levels(curve, ["marriages"], RISKS)
    concede = concede_table(frame, rules, levels)
    classes = bid_classes_table(class_curve(frame, rules), runs.risk)
    pooled = pooled_choices(runs.choices, runs.verdicts)
    return GuideTables(
        runs=runs,
        bid_curve=curve,
        bid_chart=chart,
        bid_classes=classes,
        bid_choices=bid_choices_table(runs),
        guide_choices=pooled,
        guide_bids=guide_bids(pooled),
        talon_points=talon_points_table(frame, runs),
        completion=completion_table(runs),
        talon_reshuffle=odds_rows(runs.odds, TALON_RESHUFFLE_KEYS),
        musik=odds_rows(runs.odds, MUSIK_KEYS),
        discards=discard_table(runs),
        concede=concede,
        concede_above=concede_above(concede),
        barrel=barrel_table(runs.games, rules),
        seats=seat_table(runs.games, rules),
        specials=special_table(runs.games, rules),
        events=events_table(runs),
    )


# the order of the chart's rows: the strongest marriages first, then by aces
CHART_ORDER = ("two", "hearts", "diamonds", "clubs", "spades", "none")


def chart_rows(guide: GuideTables) -> list[dict[str, Any]]:
    """The rows of :func:`bid_classes_table` (the safe bids) in :data:`CHART_ORDER`."""
    order = {m: k for k, m in enumerate(CHART_ORDER)}
    rows = guide.bid_classes.rows(named=True)
    return sorted(rows, key=lambda r: (order[r["marriage"]], r["aces"]))


def guide_json(guide: GuideTables, duel: pl.DataFrame | None = None) -> dict[str, Any]:
    """Every table of the guide as JSON rows."""
    runs = guide.runs
    tables = {
        "bid_chart": guide.bid_chart,
        "talon_points": guide.talon_points,
        "completion": guide.completion,
        "talon_reshuffle": guide.talon_reshuffle,
        "musik": guide.musik,
        "discards": guide.discards,
        "concede": guide.concede,
        "barrel": guide.barrel,
        "seats": guide.seats,
        "specials": guide.specials,
        "guide_player": guide.guide_bids,
        "bid_classes": guide.bid_classes,
        "bid_choices": guide.bid_choices,
        "events": guide.events,
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
