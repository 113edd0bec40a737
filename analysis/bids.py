"""Bid-success tables and safe bid levels from a ``thousand hands`` run folder.

The run folder holds ``hands.parquet`` (one row per deal, columns in docs/data.md) and
``run.json`` (the resolved rules). Only deals that were not redealt count; each such
deal is one *contract* of its declarer, which was either conceded (docs/rules.md §5,
роспись) or *played*. Every table reports, per group:

- ``n, made, rate, ci_low, ci_high``: the make rate among played contracts;
- ``contracts, conceded, concession_rate, concession_ci_low, concession_ci_high``:
  how often the declarer conceded instead of playing;
- ``rate_all, ci_low_all, ci_high_all``: the make rate over all contracts, a
  concession counting as a failure (``made / contracts``).

Intervals are 95 % Wilson intervals; a rate over zero contracts is null.

Example:
    >>> tables = bid_tables(Path("runs/classic"))  # doctest: +SKIP
    >>> write_bid_tables(tables, Path("runs/classic/bids"))  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import polars as pl

from analysis.runs import RUN_FILE, read_manifest, scan_checked
from analysis.schema.bids import BID_RATE_COLUMNS, BIDS_PAR
from analysis.stats import rate_interval
from analysis.tables import tables_json
from sim.output import UsageError
from sim.rules import MARRIAGE_TABLES, rules_from_dict
from sim.schema import BID_KEYS, HANDS, HANDS_AGG

BID_TABLES_PAR = BIDS_PAR.names()

HANDS_FILE = "hands.parquet"
AGG_FILE = "hands_agg.parquet"  # `thousand hands --aggregate-only`: counts per key

# Columns of hands.parquet the pipeline reads, besides hand_points_{seat} per seat (the
# keys of hands_agg.parquet, sim/schema/runs.py).
REQUIRED_COLUMNS = BID_KEYS

SUIT_LETTERS = "SCDH"  # bit s of a marriage mask is suit s: S=1, C=2, D=4, H=8
POINTS_BAND_WIDTH = 10  # hand points bands 0-9, 10-19, ...
THRESHOLDS = (0.5, 0.75, 0.9)  # make rates asked of a safe bid level
HAND_CLASS = ("marriages", "band_low", "points_band")  # the safe-bid hand class

# Name of the declarer's position by (declarer - dealer) mod players: forehand sits
# left of the dealer and bids first (docs/rules.md §2, §4).
POSITION_NAMES = {1: "forehand", 2: "middle", 3: "rear", 0: "dealer"}

# Columns every rate table ends with, in this order.
STAT_COLUMNS = BID_RATE_COLUMNS


# --- reading ----------------------------------------------------------------------
def _check_run_dir(run_dir: Path) -> None:
    if not run_dir.is_dir():
        raise UsageError("{path}: no such run folder", path=run_dir)


# --- derived columns --------------------------------------------------------------
def marriage_set_label(mask: int) -> str:
    """Suits of a marriage bitmask joined by ``+`` (``9`` → ``"S+H"``, ``0`` → ``"none"``)."""
    suits = [letter for bit, letter in enumerate(SUIT_LETTERS) if mask >> bit & 1]
    return "+".join(suits) or "none"


def _declarer_hand_points(players: int, aggregated: bool = False) -> pl.Expr:
    """``hand_points_{declarer}``: the declarer's dealt hand points."""
    if aggregated:
        return pl.col("declarer_hand_points").cast(pl.Int64)
    expr = pl.lit(None, dtype=pl.Int64)
    for seat in reversed(range(players)):
        points = pl.col(f"hand_points_{seat}").cast(pl.Int64)
        expr = pl.when(pl.col("declarer") == seat).then(points).otherwise(expr)
    return expr


def _contracts(
    hands: pl.LazyFrame,
    players: int,
    marriage_values: tuple[int, int, int, int],
    aggregated: bool = False,
) -> pl.LazyFrame:
    """One row per contract (deal not redealt) with the grouping columns and flags.

    ``weight`` is the number of deals a row stands for: 1 in ``hands.parquet``, the
    ``count`` of a row of the aggregated file.
    """
    masks = range(1 << len(SUIT_LETTERS))
    counts = {m: m.bit_count() for m in masks}
    labels = {m: marriage_set_label(m) for m in masks}
    values = {m: sum(v for s, v in enumerate(marriage_values) if m >> s & 1) for m in masks}
    # Only suit bits are marriages; anything above (an ace-marriage flag) is ignored.
    mask = pl.col("declarer_marriages_after").cast(pl.Int64) & 0b1111
    count = mask.replace_strict(counts, return_dtype=pl.Int64)
    points = _declarer_hand_points(players, aggregated)
    band_low = points // POINTS_BAND_WIDTH * POINTS_BAND_WIDTH
    offset = (pl.col("declarer") - pl.col("dealer") + players) % players
    conceded = pl.col("conceded").cast(pl.Boolean)
    return hands.filter(~pl.col("reshuffled").cast(pl.Boolean)).select(
        pl.col("contract").cast(pl.Int64),
        pl.col("at_100").cast(pl.Boolean),
        pl.col("declarer").cast(pl.Int64).alias("seat"),
        offset.cast(pl.Int64).alias("offset"),
        mask.alias("mask"),
        mask.replace_strict(labels, return_dtype=pl.String).alias("marriage_set"),
        mask.replace_strict(values, return_dtype=pl.Int64).alias("value"),
        count.alias("marriage_count"),
        pl.when(count >= 2).then(pl.lit("2+")).otherwise(count.cast(pl.String)).alias("marriages"),
        band_low.alias("band_low"),
        pl.format("{}-{}", band_low, band_low + POINTS_BAND_WIDTH - 1).alias("points_band"),
        (~conceded).alias("played"),
        # A conceded contract is never made, whatever its `made` cell says.
        (~conceded & pl.col("made").cast(pl.Boolean).fill_null(False)).alias("made"),
        conceded.alias("conceded"),
        (pl.col("count") if aggregated else pl.lit(1)).cast(pl.Int64).alias("weight"),
    )


# --- rates ------------------------------------------------------------------------
_W = pl.col("weight")
_COUNTS = (
    (pl.col("played").cast(pl.Int64) * _W).sum().alias("n"),
    (pl.col("made").cast(pl.Int64) * _W).sum().alias("made"),
    _W.sum().cast(pl.Int64).alias("contracts"),
    (pl.col("conceded").cast(pl.Int64) * _W).sum().alias("conceded"),
)
_COUNTS_NAMES = ("n", "made", "contracts", "conceded")


def _with_rates(counts: pl.DataFrame) -> pl.DataFrame:
    """Add the make, concession and all-contract rates to ``n, made, contracts, conceded``."""
    rate, low, high = rate_interval(counts["made"], counts["n"])
    c_rate, c_low, c_high = rate_interval(counts["conceded"], counts["contracts"])
    a_rate, a_low, a_high = rate_interval(counts["made"], counts["contracts"])
    keys = [c for c in counts.columns if c not in STAT_COLUMNS]
    return (
        counts.with_columns(
            pl.Series("rate", rate),
            pl.Series("ci_low", low),
            pl.Series("ci_high", high),
            pl.Series("concession_rate", c_rate),
            pl.Series("concession_ci_low", c_low),
            pl.Series("concession_ci_high", c_high),
            pl.Series("rate_all", a_rate),
            pl.Series("ci_low_all", a_low),
            pl.Series("ci_high_all", a_high),
        )
        .select(*keys, *STAT_COLUMNS)
        .with_columns(pl.col(pl.Float64).fill_nan(None))
    )


def _grouped(contracts: pl.LazyFrame, keys: list[str]) -> pl.LazyFrame:
    """Contract counts per group of ``keys``, sorted by them."""
    return contracts.group_by(keys).agg(*_COUNTS).sort(keys, nulls_last=True)


# --- safe bid levels --------------------------------------------------------------
def _safe_bids(levels: pl.DataFrame, min_n: int) -> pl.DataFrame:
    """Highest qualifying contract level per hand class and threshold.

    Args:
        levels: one row per hand class and contract level, played contracts only,
            with ``n, made``.
        min_n: played contracts a level needs to be considered.

    Returns:
        One row per hand class and threshold (see ``TABLE_NOTES["safe_bids"]``).
    """
    rate, low, _ = rate_interval(levels["made"], levels["n"])
    levels = levels.with_columns(pl.Series("rate", rate), pl.Series("ci_low", low))
    classes = levels.group_by(HAND_CLASS).agg(pl.col("n").sum().alias("n_class"))
    rows = []
    for threshold in THRESHOLDS:
        row = classes.with_columns(pl.lit(threshold).alias("threshold"))
        for suffix, measure in (("", "rate"), ("_conservative", "ci_low")):
            eligible = levels.filter((pl.col("n") >= min_n) & (pl.col(measure) >= threshold))
            best = eligible.group_by(HAND_CLASS).agg(pl.col("contract").max())
            best = best.join(levels, on=[*HAND_CLASS, "contract"]).select(
                *HAND_CLASS,
                pl.col("contract").alias(f"level{suffix}"),
                pl.col("n").alias(f"n{suffix}"),
                pl.col("rate").alias(f"rate{suffix}"),
                pl.col("ci_low").alias(f"ci_low{suffix}"),
            )
            row = row.join(best, on=HAND_CLASS, how="left")
        rows.append(row)
    return pl.concat(rows).sort("marriages", "band_low", "threshold")


# --- public API -------------------------------------------------------------------
def bid_tables(run_dir: Path, min_n: int = 30) -> dict[str, pl.DataFrame]:
    """Bid-success tables and safe bid levels of a ``thousand hands`` run.

    Args:
        run_dir: the run folder, holding ``hands.parquet`` and ``run.json`` (the
            latter gives the number of players and the marriage values; without it
            the classic 3-player values are assumed).
        min_n: played contracts a contract level needs before a safe bid level may
            rest on it.

    Returns:
        Tables by name, in the order of :data:`TABLE_NOTES`: ``summary``,
        ``by_contract``, ``by_marriage_count``, ``by_marriage_set``,
        ``by_points_band``, ``by_at_100``, ``by_relative_seat``, ``by_seat``,
        ``safe_bids``.

    Raises:
        UsageError: missing folder or ``hands.parquet``, an unreadable file, or a
            Parquet file without a needed column.
    """
    run_dir = Path(run_dir)
    if min_n < 1:
        raise UsageError(f"min_n must be a positive integer, got {min_n}")
    _check_run_dir(run_dir)
    manifest = read_manifest(run_dir)
    rules = manifest.get("rules") or {}
    players = int(rules.get("players", 3))
    table_name = str(rules.get("marriage.values", "standard"))
    if table_name not in MARRIAGE_TABLES:
        raise UsageError(f"{run_dir / RUN_FILE}: unknown marriage.values {table_name!r}")
    values = MARRIAGE_TABLES[table_name]
    aggregated = not (run_dir / HANDS_FILE).exists() and (run_dir / AGG_FILE).exists()
    if aggregated:
        needed = HANDS_AGG.names()
        hands, _ = scan_checked(run_dir / AGG_FILE, needed, "hands --aggregate-only")
    else:
        needed = [*REQUIRED_COLUMNS, *HANDS.seat_columns("hand_points", players)]
        hands, _ = scan_checked(run_dir / HANDS_FILE, needed, "hands")
    contracts = _contracts(hands, players, values, aggregated)

    queries = {
        "summary": contracts.select(*_COUNTS),
        "by_contract": _grouped(contracts, ["contract"]),
        "by_marriage_count": _grouped(contracts, ["marriages"]),
        "by_marriage_set": _grouped(
            contracts, ["marriage_count", "value", "mask", "marriage_set"]
        ).rename({"marriage_count": "marriages"}),
        "by_points_band": _grouped(contracts, ["band_low", "points_band"]),
        "by_at_100": _grouped(contracts, ["at_100"])
        .with_columns(
            pl.when(pl.col("at_100"))
            .then(pl.lit("at 100"))
            .otherwise(pl.lit("bid up"))
            .alias("how_won")
        )
        .sort("at_100", descending=True)
        .select("at_100", "how_won", *_COUNTS_NAMES),
        "by_relative_seat": _grouped(contracts, ["offset"])
        .with_columns(
            pl.col("offset")
            .replace_strict(POSITION_NAMES, return_dtype=pl.String)
            .alias("position")
        )
        # forehand, middle, ..., dealer: the order of bidding
        .sort((pl.col("offset") + players - 1) % players)
        .select("position", "offset", *_COUNTS_NAMES),
        "by_seat": _grouped(contracts, ["seat"]),
        "_levels": contracts.filter(pl.col("played"))
        .group_by(*HAND_CLASS, "contract")
        .agg(*_COUNTS[:2]),
        "_deals": hands.select(
            (pl.col("count").sum() if aggregated else pl.len()).cast(pl.Int64),
            (pl.col("reshuffled").cast(pl.Int64) * (pl.col("count") if aggregated else 1)).sum(),
        ),
    }
    frames = dict(zip(queries, pl.collect_all(list(queries.values())), strict=True))
    deals = frames.pop("_deals").row(0)

    summary = _with_rates(frames.pop("summary")).select(
        pl.lit(manifest.get("rules_name"), dtype=pl.String).alias("rules"),
        pl.lit(manifest.get("rules_hash"), dtype=pl.String).alias("rules_hash"),
        pl.lit(deals[0], dtype=pl.Int64).alias("deals"),
        pl.lit(deals[1], dtype=pl.Int64).alias("reshuffled"),
        pl.lit(min_n, dtype=pl.Int64).alias("min_n"),
        pl.all(),
    )
    levels = frames.pop("_levels")
    tables = {"summary": summary}
    tables.update({name: _with_rates(frame) for name, frame in frames.items()})
    tables["safe_bids"] = _safe_bids(levels, min_n)
    if not aggregated and "par_total" in hands.collect_schema():
        tables["par"] = _par_table(hands, rules)
    return tables


def _par_table(hands: pl.LazyFrame, rules_doc: Mapping[str, Any]) -> pl.DataFrame:
    """Made rates of the run's declarers beside the open-card par, by contract level.

    A contract counts as made at par when ``par_total`` (``par_best``) reaches the
    least total that makes it (:meth:`sim.rules.Rules.least_total_making`); conceded
    contracts count as failures of the run's declarers, and at par as any other.
    """
    rules = rules_from_dict(dict(rules_doc), source="run.json") if rules_doc else None
    frame = (
        hands.filter(~pl.col("reshuffled"))
        .select(
            pl.col("contract").cast(pl.Int64),
            (pl.col("made").fill_null(False) & ~pl.col("conceded")).alias("made"),
            pl.col("par_total"),
            pl.col("par_best"),
        )
        .collect()
    )
    levels = sorted(set(frame["contract"].to_list()))
    least = {c: rules.least_total_making(c) if rules else c for c in levels}
    need = frame["contract"].replace_strict(least, return_dtype=pl.Int64)
    counts = (
        frame.with_columns(
            (pl.col("par_total") >= need).alias("par_made"),
            (pl.col("par_best") >= need).alias("par_best_made"),
        )
        .group_by("contract")
        .agg(
            pl.len().cast(pl.Int64).alias("contracts"),
            pl.col("made").sum().cast(pl.Int64),
            pl.col("par_made").sum().cast(pl.Int64),
            pl.col("par_best_made").sum().cast(pl.Int64),
        )
        .sort("contract")
    )
    cols = {}
    for hits, prefix in (("made", ""), ("par_made", "par_"), ("par_best_made", "par_best_")):
        rate, low, high = rate_interval(counts[hits], counts["contracts"])
        if prefix:
            cols.update({f"{prefix}rate": rate, f"{prefix}ci_low": low, f"{prefix}ci_high": high})
        else:
            cols.update({"rate_all": rate, "ci_low_all": low, "ci_high_all": high})
    table = counts.with_columns(pl.Series(k, v) for k, v in cols.items())
    return table.select(BID_TABLES_PAR).with_columns(pl.col(pl.Float64).fill_nan(None))


def bid_tables_json(tables: Mapping[str, pl.DataFrame]) -> dict[str, list[dict[str, Any]]]:
    """The tables as JSON-safe lists of row dicts (NaN and infinities become ``None``)."""
    return tables_json(tables)
