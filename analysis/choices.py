"""A seat's choices in the auction, valued by playing them: the one rule every answer uses.

Each choice is a bid *plan* (pass, or raise up to a level, :mod:`sim.runs.plans`)
played on the same deals, so every deal gives each plan a value: its *margin* (the
seat's deal score minus the others' mean, the measure the duels use) or, from a game
score, the seat's chance to win the game after the deal. :func:`choice_table` gives
each plan's mean with its 95 % interval and its paired difference from the best
plan; :func:`best_choice` is the rule: the plan of the highest mean (among bids as
good as it, the highest the hand makes at the risk), and the range of plan levels as
good as it. The
advisor, its class tables, the pages and the guide all choose by this one function.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from analysis.stats import Z95
from sim.rules import Rules

PASS = 0
"""A plan's level meaning: pass at the first turn."""
TABLE_RISK = 0.75
"""The make rate the class tables' choice leans to where bids score alike
(:func:`best_choice`'s ``safe`` at this risk): the advisor's default risk."""


@dataclass(frozen=True)
class Best:
    """The rule's choice among plans.

    Attributes:
        level: the plan chosen (:data:`PASS`, or the level bid up to): the one of the
            highest mean value, or, among the bids as good as a bid of the highest mean
            and above it, the highest the hand makes at the risk (:func:`best_choice`).
        low: the lowest plan level as good as it (:func:`best_choice`); :data:`PASS`
            when passing is.
        high: the highest such level.
        gain: the best plan's mean value minus passing's, with its paired 95 % interval
            (``(mean, low, high)``; zeros when the best is to pass).
        leaned: whether the choice is not the plan of the highest mean but a higher bid
            as good as it, the highest the hand makes at the risk.
    """

    level: int
    low: int
    high: int
    gain: tuple[float, float, float]
    leaned: bool = False


def choice_table(levels: np.ndarray, values: np.ndarray) -> pl.DataFrame:
    """Each plan's mean value and its difference from the best, with 95 % intervals.

    ``values[i, k]``: deal ``k``'s value under plan ``levels[i]`` (the same deals for
    every plan). Columns: ``level``, ``n``, ``mean``, ``low``, ``high`` (the mean's
    interval), ``diff``, ``diff_low``, ``diff_high`` (the plan minus the plan of the
    highest mean, deal by deal) and ``gain``, ``gain_low``, ``gain_high`` (the plan
    minus passing, deal by deal; null without a passing plan).
    """
    values = np.asarray(values, dtype=np.float64)
    levels = np.asarray(levels, dtype=np.int64)
    if values.ndim != 2 or values.shape[0] != len(levels) or values.shape[1] < 1:
        raise ValueError(f"values must be (plans, deals >= 1), got {values.shape}")
    n = values.shape[1]

    def se_of(x: np.ndarray) -> np.ndarray:  # one deal: no interval (NaN)
        return x.std(axis=1, ddof=1) / np.sqrt(n) if n > 1 else np.full(len(x), np.nan)

    mean = values.mean(axis=1)
    se = se_of(values)
    best = int(np.argmax(mean))
    d = values - values[best]
    dm = d.mean(axis=1)
    dse = se_of(d)
    gm = gse = np.full(len(levels), np.nan)
    if PASS in levels:
        g = values - values[int(np.flatnonzero(levels == PASS)[0])]
        gm, gse = g.mean(axis=1), se_of(g)
    return pl.DataFrame(
        {
            "level": levels,
            "n": np.full(len(levels), n, dtype=np.int64),
            "mean": mean,
            "low": mean - Z95 * se,
            "high": mean + Z95 * se,
            "diff": dm,
            "diff_low": dm - Z95 * dse,
            "diff_high": dm + Z95 * dse,
            "gain": gm,
            "gain_low": gm - Z95 * gse,
            "gain_high": gm + Z95 * gse,
        }
    ).with_columns(pl.col("gain", "gain_low", "gain_high").fill_nan(None))


def best_choice(table: pl.DataFrame, safe: int | None = None) -> Best:
    """The rule: the plan of the highest mean, and the levels as good as it.

    ``table`` as :func:`choice_table` gives it (or a class table's rows with the same
    columns). A tie keeps the lowest level. A level is as good as the best when its
    mean lies within the best's 95 % interval, or the paired interval of its
    difference from the best reaches 0: plans often differ only in the few deals in
    which the auction reaches them, and a difference of a fraction of a point, however
    precisely measured, does not make one level better to bid than another.

    Where the best is a bid and several bids are as good, the value cannot choose
    among them, and the one of the highest mean is noise: a hand that wins any auction
    it enters and names its contract after the talon scores alike bidding up to 110 or
    to 220. Given ``safe`` (the highest level the hand makes at the risk: the lower
    end of its P(make) interval reaches it), the choice is then the highest of those
    bids up to ``safe``, where it is above the bid of the highest mean: compete at least
    as far as the hand is safe where the game does not tell the levels apart. A bid of
    the highest mean above ``safe`` stays (the game says the risk pays), and so does
    every choice without ``safe``.
    """
    means = table["mean"].to_numpy()
    levels = table["level"].to_numpy()
    best = int(np.flatnonzero(means == means.max())[0])
    # as good as the best: within its mean's interval, or not shown worse deal by deal
    near = levels[(means >= table["low"][best]) | (table["diff_high"].to_numpy() >= 0)]
    near = np.union1d(near, [levels[best]])
    level = int(levels[best])
    if level != PASS and safe is not None:
        bids = near[(near > level) & (near <= safe)]
        if bids.size:
            level = int(bids.max())
    leaned = level != int(levels[best])
    return Best(level, int(near.min()), int(near.max()), gain_of(table, level), leaned)


def gain_of(table: pl.DataFrame, level: int) -> tuple[float, float, float]:
    """Plan ``level``'s gain over passing with its paired interval (zeros: none to gain)."""
    row = table.filter(pl.col("level") == level)
    if level == PASS or not row.height or row["gain"][0] is None:
        return (0.0, 0.0, 0.0)
    r = row.row(0, named=True)
    nan = float("nan")  # one deal: no interval
    low, high = r["gain_low"], r["gain_high"]
    return (
        float(r["gain"]),
        nan if low is None else float(low),
        nan if high is None else float(high),
    )


def conceding_deltas(
    rules: Rules,
    deltas: np.ndarray,
    declarer: np.ndarray,
    contract: np.ndarray,
    made: np.ndarray,
    conceded: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The deal scores had each declarer that went down conceded where that cost it less.

    The table's player may play out a contract it cannot make where a person would
    concede it; this is the same deals at a table whose declarer, knowing how the deal
    went, concedes a contract it played and failed whenever conceding scores it a
    better margin (its score minus the others' mean). A concession scores as the rules
    say (§5: the declarer ``-contract``, or 0 with ``rospis.no_subtract``; each other
    hand half the contract rounded up to 5, or 60); a dealer who sits out (four players)
    keeps its score. Any shape of deals: ``deltas`` (``..., seats``) in game seats,
    the rest (``...``). Returns the deltas and where a concession replaced the play.
    """
    deltas = np.asarray(deltas, dtype=np.float64)
    seats = deltas.shape[-1]
    hands = 3 if seats == 4 else seats
    contract = np.asarray(contract, dtype=np.float64)
    decl = np.asarray(declarer, dtype=np.int64)
    gets = rules.rospis.each_opponent_gets(contract)
    new = np.repeat(gets[..., None], seats, axis=-1)
    if seats > hands:
        new[..., hands:] = deltas[..., hands:]
    own = rules.rospis.declarer_gets(contract)
    np.put_along_axis(new, decl[..., None], own[..., None], axis=-1)

    def margin(d: np.ndarray) -> np.ndarray:
        mine = np.take_along_axis(d, decl[..., None], axis=-1)[..., 0]
        return mine - (d.sum(axis=-1) - mine) / (seats - 1)

    failed = ~np.asarray(made, bool) & ~np.asarray(conceded, bool) & (decl >= 0)
    better = failed & (margin(new) > margin(deltas)) & rules.rospis.allowed
    return np.where(better[..., None], new, deltas), better


def may_concede(rules: Rules, barrel: bool = False) -> bool:
    """Whether a declarer may concede (§5): ``rospis.allowed``, and on the barrel too.

    ``barrel``: a seat sits on the barrel; then only with ``rospis.on_barrel``.
    """
    return rules.rospis.allowed and not (barrel and not rules.rospis.on_barrel)


def conceding_columns(
    rules: Rules, cols: dict[str, np.ndarray], seat: int, barrel: bool = False
) -> dict[str, np.ndarray]:
    """The plans' deals at a table that concedes a lost contract where that costs it less.

    ``cols`` as :func:`sim.runs.plans.plan_columns` gives them (the deals as played);
    the result holds the same columns with each such concession in place
    (:func:`conceding_deltas`: the deal scores, ``conceded``, ``made``, no bolts, the
    seat's ``own`` score and ``margin``), the deals as played kept as ``margin_played``
    and ``own_played``, and ``yielded`` where a concession replaced the play. Where the
    rules forbid conceding (:func:`may_concede`; ``barrel``: a seat sits on the barrel)
    nothing changes.
    """
    out = dict(cols)
    out["margin_played"], out["own_played"] = cols["margin"], cols["own"]
    if not may_concede(rules, barrel):
        out["yielded"] = np.zeros(np.shape(cols["made"]), dtype=bool)
        return out
    deltas, better = conceding_deltas(
        rules, cols["deltas"], cols["declarer"], cols["contract"], cols["made"], cols["conceded"]
    )
    seats = deltas.shape[-1]
    mine = deltas[..., seat]
    out.update(
        deltas=deltas.astype(np.int64),
        made=np.asarray(cols["made"], bool) & ~better,
        conceded=np.asarray(cols["conceded"], bool) | better,
        bolts=np.where(better[..., None], 0, cols["bolts"]),
        own=mine.astype(np.int64),
        margin=mine - (deltas.sum(axis=-1) - mine) / (seats - 1),
        yielded=better,
    )
    return out


__all__ = [
    "PASS",
    "TABLE_RISK",
    "Best",
    "best_choice",
    "choice_table",
    "conceding_columns",
    "conceding_deltas",
    "gain_of",
    "may_concede",
]
