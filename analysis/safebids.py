"""Safe bids from what the bidder sees: make-rate curves of 7-card hands, every level.

The items come from :mod:`sim.runs.declarer`: every dealt hand played as the declarer's,
not only the hands that won an auction. An item *makes* level ``L`` when

- the hand may bid ``L`` (``L`` at most its cap: 120 + its marriages under
  ``bid.cap_by_marriages``; a hand that may not bid ``L`` does not make it),
- the player would not concede a contract of ``L`` (a concession is a failure), and
- its deal total reaches ``L`` (as the scoring compares: ``score.round_declarer``);

or, for the open-card par, when some talon pick and discard allowed to name ``L``
reaches it with every card face up (:func:`sim.runs.declarer.par_levels`).

Each item's made/failed answers form a staircase in ``L``, so every curve
``P(make | class, L)`` is non-increasing by construction and every level is
estimated from the same hands. Intervals are 95 % Wilson intervals; the *safe level*
at risk ``r`` is the highest ``L`` whose interval's lower end is at least ``r`` (so a
small class gets a cautious answer, never a lucky one).

Classes use only the 7 cards (10 with two players) before the talon: the marriages
by suit (♠ 40, ♣ 60, ♦ 80, ♥ 100 in ``classic``; the cap differs by suit), the aces,
the tens and the card points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from analysis.stats import wilson_interval
from analysis.tables import tables_json
from sim.players import words as player_words
from sim.rules import Rules

SUIT_SYMBOLS = "♠♣♦♥"  # suit ids S C D H = 0..3
PAR = "par"  # the open-card par's name among the players (sim.runs.declarer.PAR)
RISKS = (0.5, 0.75, 0.9)
MIN_CELL = 30  # hands a class needs on each seed to count in the held-out check
# The declarer's hand seat in words, by players (four players: the dealer sits out and
# the third active seat is the one before it).
POSITION_NAMES = {
    2: ("forehand", "dealer"),
    3: ("forehand", "middle", "dealer"),
    4: ("forehand", "middle", "rear"),
}
CLASS_KEYS: dict[str, tuple[str, ...]] = {
    "by_marriages": ("marriages",),
    "by_marriages_aces": ("marriages", "aces"),
    "by_aces_tens": ("aces", "tens"),
    "by_points": ("points_band",),
    "by_position": ("position",),
}


def levels_of(rules: Rules) -> np.ndarray:
    """Every level a bid may name (:meth:`sim.rules.Rules.bid_levels`)."""
    return np.array(rules.bid_levels(), dtype=np.int64)


def count_rank(dealt: np.ndarray, rank: int) -> np.ndarray:
    """Cards of ``rank`` (0 nine .. 5 ace) in each hand mask."""
    bits = np.zeros(dealt.shape, dtype=np.int64)
    for suit in range(4):
        bits += (dealt >> (suit * 6 + rank)) & 1
    return bits


def marriage_mask(dealt: np.ndarray) -> np.ndarray:
    """Suit bitmask (S=1, C=2, D=4, H=8) of the marriages each hand holds."""
    out = np.zeros(dealt.shape, dtype=np.int64)
    for suit in range(4):
        k = (dealt >> (suit * 6 + 3)) & 1
        q = (dealt >> (suit * 6 + 2)) & 1
        out |= (k & q) << suit
    return out


def marriage_label(mask: int) -> str:
    """``"none"``, or the suits' symbols high value first (``"♥♠"``)."""
    if mask == 0:
        return "none"
    return "".join(SUIT_SYMBOLS[s] for s in (3, 2, 1, 0) if mask >> s & 1)


SUIT_ORDER = "♠♣♦♥"
"""The suits from the cheapest marriage to the dearest (classic: 40, 60, 80, 100)."""


def marriage_order(label: str) -> tuple[int, list[int]]:
    """Where a marriage set (:func:`marriage_label`) stands in a glance, a table, a chart.

    None first, then one marriage (♠, ♣, ♦, ♥), then the pairs, then the triples, each
    group from the cheapest suits to the dearest.
    """
    if label == "none":
        return (0, [])
    return (len(label), [SUIT_ORDER.index(ch) for ch in label])


def hand_points(dealt: np.ndarray) -> np.ndarray:
    """Card points of each hand (A 11, 10 10, K 4, Q 3, J 2, 9 0)."""
    points = (0, 2, 3, 4, 10, 11)
    out = np.zeros(dealt.shape, dtype=np.int64)
    for r in range(6):
        out += points[r] * count_rank(dealt, r)
    return out


def bid_caps(rules: Rules, marriages: np.ndarray) -> np.ndarray:
    """The highest bid each hand may make: 120 + its marriages, or uncapped."""
    if not rules.bid.cap_by_marriages:
        return np.full(marriages.shape, int(levels_of(rules)[-1]), dtype=np.int64)
    values = rules.marriage_values
    cap = np.full(marriages.shape, 120, dtype=np.int64)
    for suit in range(4):
        cap += ((marriages >> suit) & 1) * values[suit]
    return cap


def items_frame(
    rules: Rules,
    player: str,
    dealt: np.ndarray,
    decls: np.ndarray,
    deal_ids: np.ndarray,
    total: np.ndarray | None = None,
    concede_from: np.ndarray | None = None,
    par_level: np.ndarray | None = None,
) -> pl.DataFrame:
    """One row per item with the bidder's view and the highest level it makes.

    ``made_to`` is the highest level the item makes (0 when none); the make
    staircase of an item is ``L <= made_to``.
    """
    dealt = np.asarray(dealt, dtype=np.int64)
    marr = marriage_mask(dealt)
    cap = bid_caps(rules, marr)
    levels = levels_of(rules)
    if par_level is not None:
        made_to = np.asarray(par_level, dtype=np.int64)
    else:
        assert total is not None and concede_from is not None
        need = np.array([rules.least_total_making(int(L)) for L in levels])
        # the highest level whose target the total reaches, below the concession and cap
        reach = np.searchsorted(need, np.asarray(total), side="right")  # levels reached
        made_to = np.where(reach > 0, levels[np.maximum(reach - 1, 0)], 0)
        conceded = np.asarray(concede_from) > 0
        made_to = np.where(
            conceded, np.minimum(made_to, np.asarray(concede_from) - rules.bid.step), made_to
        )
        made_to = np.minimum(made_to, cap)
        made_to = np.where(made_to < levels[0], 0, made_to)
    points = hand_points(dealt)
    names = POSITION_NAMES[rules.players]
    return pl.DataFrame(
        {
            "player": [player] * len(dealt),
            "deal": np.asarray(deal_ids, dtype=np.int64),
            "position": [names[int(d)] for d in decls],
            "dealt": dealt,
            "marriages": [marriage_label(int(m)) for m in marr],
            "aces": count_rank(dealt, 5),
            "tens": count_rank(dealt, 4),
            "points": points,
            "points_band": (points // 10) * 10,
            "cap": cap,
            "made_to": made_to,
        }
    )


def curves(items: pl.DataFrame, rules: Rules, by: Sequence[str]) -> pl.DataFrame:
    """``P(make L)`` by player, class and level, for every level up to the class's cap.

    Columns: ``player``, the class keys, ``level``, ``n``, ``made``, ``rate``,
    ``ci_low``, ``ci_high``.
    """
    keys = ["player", *by]
    levels = levels_of(rules)
    groups = items.group_by(keys, maintain_order=True).agg(
        pl.col("made_to"), pl.col("cap").max().alias("top")
    )
    rows: dict[str, list] = {k: [] for k in keys}
    rows.update(level=[], n=[], made=[])
    for g in groups.iter_rows(named=True):
        made_to = np.asarray(g["made_to"])
        for L in levels[levels <= g["top"]]:
            for k in keys:
                rows[k].append(g[k])
            rows["level"].append(int(L))
            rows["n"].append(len(made_to))
            rows["made"].append(int((made_to >= L).sum()))
    n = np.array(rows["n"], dtype=np.float64)
    made = np.array(rows["made"], dtype=np.float64)
    low, high = wilson_interval(made, n)
    schema = {k: items.schema[k] for k in keys}
    out = pl.DataFrame(rows, schema={**schema, "level": pl.Int64, "n": pl.Int64, "made": pl.Int64})
    order = {p: i for i, p in enumerate(dict.fromkeys(items["player"].to_list()))}
    sort_keys = [pl.col("player").replace_strict(order, return_dtype=pl.Int64)]
    for k in by:
        if k == "marriages":
            sort_keys.append(pl.col(k).map_elements(_marriage_rank, return_dtype=pl.Int64))
        else:
            sort_keys.append(pl.col(k))
    return out.with_columns(
        rate=pl.Series(made / np.where(n > 0, n, np.nan)),
        ci_low=pl.Series(low),
        ci_high=pl.Series(high),
    ).sort([*sort_keys, pl.col("level")])


def _marriage_rank(label: str) -> int:
    """Sort order of marriage classes: none, one marriage by value, then two and more."""
    if label == "none":
        return 0
    mask = sum(1 << SUIT_SYMBOLS.index(c) for c in label)
    return 16 * len(label) + mask


def safe_levels(
    curve: pl.DataFrame, by: Sequence[str], risks: Sequence[float] = RISKS
) -> pl.DataFrame:
    """The safe level of every class at each risk: the highest level whose ``ci_low >= r``.

    Null when no level passes. Also ``n`` (hands in the class) and the make rate at
    the lowest level (``rate_100``).
    """
    keys = ["player", *by]
    aggs = [pl.col("n").first(), pl.col("rate").first().alias("rate_100")]
    for r in risks:
        name = f"safe_{round(r * 100)}"
        aggs.append(pl.col("level").filter(pl.col("ci_low") >= r).max().alias(name))
    return curve.group_by(keys, maintain_order=True).agg(aggs)


def safe_tables(items: pl.DataFrame, rules: Rules) -> dict[str, pl.DataFrame]:
    """For each class key set of :data:`CLASS_KEYS`: ``curve_<name>`` and ``safe_<name>``."""
    out: dict[str, pl.DataFrame] = {}
    for name, by in CLASS_KEYS.items():
        curve = curves(items, rules, by)
        out[f"safe_{name}"] = safe_levels(curve, by)
        out[f"curve_{name}"] = curve
    return out


def calibration(
    train: pl.DataFrame, test: pl.DataFrame, rules: Rules, by: Sequence[str] = ("marriages",)
) -> pl.DataFrame:
    """Held-out check: each class-level rate built on ``train`` against ``test``'s hands.

    One row per (player, class, level) present in both, with the predicted rate and
    interval (``train``) and the observed rate (``test``); ``z`` is their difference
    over the combined standard error, ``inside`` whether the observed rate lies in the
    predicted 95 % interval.
    """
    keys = ["player", *by, "level"]
    a = curves(train, rules, by).rename(
        {
            "n": "n_train",
            "made": "made_train",
            "rate": "predicted",
            "ci_low": "pred_low",
            "ci_high": "pred_high",
        }
    )
    b = curves(test, rules, by).select(
        [
            *keys,
            pl.col("n").alias("n_test"),
            pl.col("made").alias("made_test"),
            pl.col("rate").alias("observed"),
        ]
    )
    j = a.join(b, on=keys, how="inner")
    pa, na = j["predicted"].to_numpy(), j["n_train"].to_numpy()
    pb, nb = j["observed"].to_numpy(), j["n_test"].to_numpy()
    pooled = (pa * na + pb * nb) / (na + nb)
    se = np.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb))
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.where(se > 0, (pb - pa) / se, 0.0)
    return j.with_columns(
        z=pl.Series(z),
        inside=(pl.col("observed") >= pl.col("pred_low"))
        & (pl.col("observed") <= pl.col("pred_high")),
    )


def calibration_summary(cal: pl.DataFrame) -> pl.DataFrame:
    """Per player: cells compared, the share with ``|z| <= 1.96`` (about 0.95 if calibrated).

    Only cells with at least :data:`MIN_CELL` hands on both seeds count.
    """
    return (
        cal.filter((pl.col("n_test") >= MIN_CELL) & (pl.col("n_train") >= MIN_CELL))
        .group_by("player", maintain_order=True)
        .agg(
            pl.len().cast(pl.Int64).alias("cells"),
            (pl.col("z").abs() <= 1.96).sum().cast(pl.Int64).alias("within_2se"),
            (pl.col("z").abs() <= 1.96).mean().alias("share_within_2se"),
            pl.col("z").abs().max().alias("max_abs_z"),
        )
    )


def expected_scores(rate: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """The declarer's expected deal score of a contract ``L`` made with probability ``rate``.

    ``+L`` made, ``-L`` failed or conceded (a concession costs the contract too unless
    ``rospis.no_subtract``; the tables count it as a failure).
    """
    return levels * (2.0 * rate - 1.0)


def tables_for(items: Mapping[str, pl.DataFrame], rules: Rules) -> dict[str, pl.DataFrame]:
    """Every table of the players' items stacked (``player`` first)."""
    frame = pl.concat(list(items.values()), how="vertical")
    return safe_tables(frame, rules)


@dataclass
class SafeBidRun:
    """The played items of a ``thousand safebids`` run, by ``(player, seed)``."""

    rules: Rules
    players: list[str]
    params: list[str]
    seed: int
    holdout_seed: int | None
    deals: dict[str, int]
    items: dict[tuple[str, int], dict[str, np.ndarray]]


@dataclass
class SafeBidResult:
    """The tables of a run: ``tables`` by name, the items frames, the run itself."""

    run: SafeBidRun
    items: pl.DataFrame
    holdout: pl.DataFrame | None
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)


def frame_of(rules: Rules, player: str, cols: Mapping[str, np.ndarray]) -> pl.DataFrame:
    """The items frame of one player's run columns (:func:`sim.runs.declarer.run_items`)."""
    if player == PAR:
        return items_frame(
            rules, player, cols["dealt"], cols["decl"], cols["deal"], par_level=cols["par_level"]
        ).with_columns(total=pl.Series(cols["par_best"]))
    return items_frame(
        rules,
        player,
        cols["dealt"],
        cols["decl"],
        cols["deal"],
        cols["total"],
        cols["concede_from"],
    ).with_columns(
        total=pl.Series(cols["total"]),
        concede_from=pl.Series(cols["concede_from"]),
        contract=pl.Series(cols["contract"]),
    )


def _stack(run: SafeBidRun, seed: int) -> pl.DataFrame:
    frames = [frame_of(run.rules, p, run.items[(p, seed)]) for p in run.players]
    return pl.concat(frames, how="diagonal")


def _totals(items: pl.DataFrame, player: str) -> np.ndarray:
    return items.filter(pl.col("player") == player)["total"].cast(pl.Float64).to_numpy()


def build_result(run: SafeBidRun) -> SafeBidResult:
    """Curves, safe levels and (with a held-out seed) the calibration check."""
    items = _stack(run, run.seed)
    holdout = None if run.holdout_seed is None else _stack(run, run.holdout_seed)
    tables: dict[str, pl.DataFrame] = {}
    tables["players"] = pl.DataFrame(
        {
            "player": run.players,
            "deals": [run.deals[p] for p in run.players],
            "hands": [items.filter(pl.col("player") == p).height for p in run.players],
            "mean_total": [float(_totals(items, p).mean()) for p in run.players],
            "se_total": [
                float(_totals(items, p).std(ddof=1)) / max(1, len(_totals(items, p))) ** 0.5
                for p in run.players
            ],
            "who": [player_words(p) for p in run.players],
        }
    )
    tables.update(safe_tables(items, run.rules))
    if holdout is not None:
        cal = calibration(items, holdout, run.rules)
        tables["calibration"] = cal
        tables["calibration_summary"] = calibration_summary(cal)
        tables["calibration_bins"] = calibration_bins(cal)
    return SafeBidResult(run, items, holdout, tables)


def calibration_bins(cal: pl.DataFrame, width: float = 0.1) -> pl.DataFrame:
    """The held-out hands' make rate against the predicted rate, in bins of ``width``.

    Per player and bin: the cells' predicted rate (weighted by held-out hands), the
    held-out hands and how many made it, their rate and 95 % interval. Cells with fewer
    than :data:`MIN_CELL` hands in the run are left out (their prediction is noise).
    """
    binned = cal.filter(pl.col("n_train") >= MIN_CELL).with_columns(
        bin=(pl.col("predicted") / width).floor().clip(0, round(1 / width) - 1) * width
    )
    out = (
        binned.group_by("player", "bin", maintain_order=True)
        .agg(
            ((pl.col("predicted") * pl.col("n_test")).sum() / pl.col("n_test").sum()).alias(
                "predicted"
            ),
            pl.col("n_test").sum().alias("hands"),
            pl.col("made_test").sum().alias("made"),
        )
        .sort("player", "bin")
    )
    low, high = wilson_interval(out["made"].to_numpy(), out["hands"].to_numpy())
    return out.with_columns(
        observed=pl.col("made") / pl.col("hands"), ci_low=pl.Series(low), ci_high=pl.Series(high)
    )


def safebids_json(result: SafeBidResult) -> dict[str, Any]:
    """Every table as JSON rows, with the run's settings."""
    run = result.run
    return {
        "rules": run.rules.name,
        "rules_hash": run.rules.rules_hash,
        "seed": run.seed,
        "holdout_seed": run.holdout_seed,
        "players": run.players,
        "params": run.params,
        "deals": run.deals,
        "tables": tables_json(result.tables),
    }


__all__ = [
    "CLASS_KEYS",
    "MIN_CELL",
    "PAR",
    "POSITION_NAMES",
    "RISKS",
    "SUIT_SYMBOLS",
    "SafeBidResult",
    "SafeBidRun",
    "bid_caps",
    "build_result",
    "calibration",
    "calibration_bins",
    "calibration_summary",
    "count_rank",
    "curves",
    "expected_scores",
    "frame_of",
    "hand_points",
    "items_frame",
    "levels_of",
    "marriage_label",
    "marriage_mask",
    "marriage_order",
    "safe_levels",
    "safe_tables",
    "safebids_json",
    "tables_for",
]
