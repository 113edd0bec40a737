"""Barrel-fall rates, game length, seat advantage and event counts from a games run.

The run folder of ``thousand games`` holds ``games.parquet`` (one row per game),
``barrel.parquet`` (one row per barrel stint) and ``run.json`` (the resolved rules
and the sizes); the columns are listed in docs/data.md. Two kinds of table come out:

- *Stint tables* (``barrel_outcomes``, ``barrel_summary``, ``attempts_used``) use
  every row of ``barrel.parquet``, unfinished games included: a stint that ended in
  a fall is a fall whatever happened later. A ``fell_simultaneous`` row is a player
  who fell while trying to climb on together with another (docs/rules.md §9): a stint
  of no deals.
- *Game tables* (``climb_back``, ``game_length``, ``length_histogram``, the seat
  tables and ``events_per_game``) use finished games only. Unfinished games (still
  open after the engine's deal limit) are never dropped silently: ``summary`` and
  ``game_length`` count them and give their share of all games.

Rates carry 95 % Wilson intervals, means a standard error (sample standard
deviation / √n); a rate or mean over nothing is null.

Example:
    >>> tables = barrel_tables(Path("runs/classic-games"))  # doctest: +SKIP
    >>> write_barrel_tables(tables, Path("runs/classic-games/barrel"))  # doctest: +SKIP
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis.runs import RUN_FILE, read_manifest, scan_checked
from analysis.stats import rate_interval
from analysis.tables import tables_json
from sim.output import UsageError
from sim.schema import BARREL, GAMES

GAMES_FILE = "games.parquet"
BARREL_FILE = "barrel.parquet"

# How a stint ends (docs/data.md, barrel.parquet), in the order the tables list them.
OUTCOMES = ("won", "fell_attempts", "knocked_off", "fell_simultaneous", "game_over")
FALL_OUTCOMES = ("fell_attempts", "knocked_off", "fell_simultaneous")
# The one outcome that is not a climb: the player fell without getting on.
NOT_CLIMBED = "fell_simultaneous"
# climb_back row for falls that games.parquet counts but barrel.parquet lacks.
UNRECORDED = "unrecorded"

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
LENGTH_BIN = 5  # game-length histogram bins: 0-4, 5-9, ... deals

# Columns of games.parquet the barrel tables read; those of BARREL_SEAT_COLUMNS as
# NAME_{seat}, one per seat.
BARREL_GAME_COLUMNS = GAMES.pick(
    "game_id", "first_dealer", "n_deals", "winner", "unfinished", "golden_reset"
)
BARREL_SEAT_COLUMNS = (
    "barrel_entries",
    "barrel_falls",
    "bolt_penalties",
    "samosvals",
    "concessions",
)
BARREL_COLUMNS = tuple(BARREL.names())  # every column of barrel.parquet

# Events counted per game: (name in the table, source column stem, meaning). A stem
# is read as the sum of STEM_{seat} over the seats when those columns exist, else as
# the game-level column STEM (a boolean counts 1 when true).
EVENTS: tuple[tuple[str, str, str], ...] = (
    ("bolt_penalties", "bolt_penalties", "bolt penalties (every bolt.count-th bolt)"),
    ("samosvals", "samosvals", "555 resets (самосвал)"),
    ("concessions", "concessions", "concessions (роспись)"),
    ("barrel_entries", "barrel_entries", "climbs onto the barrel"),
    ("barrel_falls", "barrel_falls", "falls from the barrel, any cause"),
    ("golden_resets", "golden_reset", "golden round ended with every score reset"),
    ("dark_won", "dark_won", "dark games won"),
    ("dark_lost", "dark_lost", "dark games lost"),
)
# Events whose columns runs of engine version 1 lack (no dark play then): skipped when absent.
OPTIONAL_EVENTS = frozenset({"dark_won", "dark_lost"})

# A seat's place in a game's first deal by (seat - first_dealer) mod players.
POSITION_NAMES = {1: "forehand", 2: "middle", 3: "rear", 0: "dealer"}


# --- reading ----------------------------------------------------------------------
def _players(rules: Mapping[str, Any], schema: pl.Schema, manifest_path: Path) -> int:
    """Players of the run: ``rules["players"]``, else counted off ``barrel_entries_{s}``."""
    value = rules.get("players")
    if value is None:
        players = 0
        while f"barrel_entries_{players}" in schema:
            players += 1
        return players if players >= 2 else 3  # else the column check names the gap
    if isinstance(value, bool) or not isinstance(value, int) or value < 2:
        raise UsageError(f"{manifest_path}: players must be an integer >= 2, got {value!r}")
    return value


# --- helpers ----------------------------------------------------------------------
def _with_rate(frame: pl.DataFrame, hits: str, n: str, names: tuple[str, str, str]) -> pl.DataFrame:
    """Add ``hits / n`` and its Wilson interval as the columns ``names``."""
    rate, low, high = rate_interval(frame[hits].to_numpy(), frame[n].to_numpy())
    return frame.with_columns(
        pl.Series(names[0], rate), pl.Series(names[1], low), pl.Series(names[2], high)
    )


def _nan_to_null(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.with_columns(pl.col(pl.Float64).fill_nan(None))


def chi2_sf(x: float, dof: int) -> float:
    """Upper tail ``P(X >= x)`` of a chi-square law with integer ``dof``, without scipy.

    Even ``dof``: ``exp(-x/2) * sum_{i < dof/2} (x/2)^i / i!`` (``exp(-x/2)`` for 2).
    Odd ``dof``: ``erfc(sqrt(x/2)) + sqrt(2x/pi) exp(-x/2) sum_{i=1}^{(dof-1)/2}
    x^(i-1) / (1·3·…·(2i-1))``.
    """
    if dof < 1:
        raise ValueError(f"dof must be a positive integer, got {dof}")
    if not math.isfinite(x):
        return math.nan if math.isnan(x) else 0.0
    if x <= 0:
        return 1.0
    half = x / 2.0
    if dof % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, dof // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    term, total = 1.0, 0.0
    for i in range(1, (dof - 1) // 2 + 1):
        if i > 1:
            term *= x / (2 * i - 1)
        total += term
    tail = math.erfc(math.sqrt(half)) + math.sqrt(2.0 * x / math.pi) * math.exp(-half) * total
    return min(1.0, tail)


def _chi2_uniform(counts: Sequence[int]) -> tuple[float, float]:
    """Pearson chi-square of ``counts`` against equal shares, and its p-value."""
    n = sum(counts)
    if n == 0:
        return math.nan, math.nan
    expected = n / len(counts)
    statistic = sum((c - expected) ** 2 / expected for c in counts)
    return statistic, chi2_sf(statistic, len(counts) - 1)


def _mean(values: pl.Expr) -> pl.Expr:
    """Mean of integer ``values`` from their exact integer sum.

    Integer sums do not depend on the order polars adds them in (threads, row
    groups), so the same run always gives the same float, to the last bit.
    """
    v = values.cast(pl.Int64)
    n = v.count()
    return pl.when(n > 0).then(v.sum().cast(pl.Float64) / n.cast(pl.Float64))


def _sd(values: pl.Expr) -> pl.Expr:
    """Sample standard deviation of integer ``values`` from exact sums of x and x²."""
    v = values.cast(pl.Int64)
    n = v.count().cast(pl.Float64)
    s1 = v.sum().cast(pl.Float64)
    s2 = (v * v).sum().cast(pl.Float64)
    return pl.when(n > 1).then(((s2 - s1 * s1 / n) / (n - 1)).clip(lower_bound=0).sqrt())


def _mean_se(values: pl.Expr, name: str) -> list[pl.Expr]:
    """``mean`` and ``se`` (sample sd / √n) of ``values``, named ``mean_NAME``, ``se_NAME``."""
    return [
        _mean(values).alias(f"mean_{name}"),
        (_sd(values) / values.count().cast(pl.Float64).sqrt()).alias(f"se_{name}"),
    ]


def _per_seat_sum(stem: str, players: int) -> pl.Expr:
    return pl.sum_horizontal(pl.col(f"{stem}_{s}").cast(pl.Int64) for s in range(players))


# --- the pieces -------------------------------------------------------------------
def _climb_back(games: pl.LazyFrame, stints: pl.LazyFrame, players: int) -> pl.LazyFrame:
    """One row per (finished game, seat) that fell at least once: ``first_fall, climbed``."""
    fell = pl.concat(
        [
            games.select(
                "game_id",
                pl.lit(s, dtype=pl.Int64).alias("seat"),
                pl.col(f"barrel_falls_{s}").cast(pl.Int64).alias("falls"),
            )
            for s in range(players)
        ]
    ).filter(pl.col("falls") >= 1)
    # The first fall's stint per (game, seat): earliest entered_deal, its outcome.
    first = (
        stints.filter(pl.col("outcome").is_in(FALL_OUTCOMES))
        .group_by("game_id", "seat")
        .agg(
            pl.col("entered_deal").min().alias("fall_entered"),
            pl.col("outcome").sort_by("entered_deal").first().alias("first_fall"),
        )
    )
    again = (
        stints.filter(pl.col("outcome").ne_missing(NOT_CLIMBED))
        .join(first, on=["game_id", "seat"])
        .filter(pl.col("entered_deal") > pl.col("fall_entered"))
        .select("game_id", "seat")
        .unique()
        .with_columns(pl.lit(True).alias("climbed"))
    )
    return (
        fell.join(first, on=["game_id", "seat"], how="left")
        .join(again, on=["game_id", "seat"], how="left")
        .select("first_fall", pl.col("climbed").fill_null(False))
    )


def _dense_range(
    counts: pl.DataFrame, key: str, start: int, stop: int, step: int = 1
) -> pl.DataFrame:
    """``counts`` (keyed by integer ``key``) with a zero row for each missing value."""
    keys = pl.DataFrame({key: pl.int_range(start, stop, step, eager=True).cast(pl.Int64)})
    return keys.join(counts, on=key, how="left").fill_null(0)


def _attempts_used(by_value: pl.DataFrame, stints: int) -> pl.DataFrame:
    """Stints per deals_on_barrel value and outcome → one row per value, dense from 0."""
    totals = by_value.group_by("deals_on_barrel").agg(pl.col("stints").sum())
    split = [
        by_value.filter(pl.col("outcome") == outcome).select(
            "deals_on_barrel", pl.col("stints").alias(outcome)
        )
        for outcome in OUTCOMES
    ]
    known = totals.filter(pl.col("deals_on_barrel").is_not_null())
    top = int(known["deals_on_barrel"].max() or 0) if known.height else -1  # type: ignore[arg-type]
    frame = _dense_range(known, "deals_on_barrel", 0, top + 1)
    missing = totals.filter(pl.col("deals_on_barrel").is_null())
    if missing.height:  # a stint without a length is shown, not dropped
        frame = pl.concat([frame, missing])
    for part in split:
        frame = frame.join(part, on="deals_on_barrel", how="left", nulls_equal=True)
    share = frame["stints"].to_numpy() / stints if stints else np.full(frame.height, np.nan)
    return _nan_to_null(
        frame.with_columns(pl.Series("share", share, dtype=pl.Float64))
        .select("deals_on_barrel", "stints", "share", *OUTCOMES)
        .with_columns(pl.col(*OUTCOMES).fill_null(0))
    )


def _barrel_outcomes(by_outcome: pl.DataFrame, stints: int) -> pl.DataFrame:
    """One row per outcome: the five of the contract, then any other value seen."""
    order = pl.DataFrame({"outcome": list(OUTCOMES)})
    known = order.join(by_outcome, on="outcome", how="left")
    extra = by_outcome.filter(~pl.col("outcome").is_in(OUTCOMES) | pl.col("outcome").is_null())
    frame = pl.concat([known, extra.sort("outcome", nulls_last=True)]).with_columns(
        pl.col("stints").fill_null(0), pl.lit(stints, dtype=pl.Int64).alias("n")
    )
    frame = _with_rate(frame, "stints", "n", ("share", "ci_low", "ci_high"))
    return _nan_to_null(
        frame.select("outcome", "stints", "n", "share", "ci_low", "ci_high", "mean_deals_on_barrel")
    )


def _barrel_summary(outcomes: pl.DataFrame, deals: pl.DataFrame) -> pl.DataFrame:
    count = dict(zip(outcomes["outcome"], outcomes["stints"], strict=True))
    stints = int(outcomes["stints"].sum())
    won = int(count.get("won", 0))
    fell = sum(int(count.get(o, 0)) for o in FALL_OUTCOMES)
    game_over = int(count.get("game_over", 0))
    frame = pl.DataFrame(
        {
            "stints": [stints],
            "won": [won],
            "fell": [fell],
            "game_over": [game_over],
            "resolved": [won + fell],
        },
        schema=dict.fromkeys(("stints", "won", "fell", "game_over", "resolved"), pl.Int64),
    )
    frame = _with_rate(frame, "fell", "stints", ("fall_rate", "fall_ci_low", "fall_ci_high"))
    frame = _with_rate(frame, "won", "resolved", ("win_rate_resolved", "win_ci_low", "win_ci_high"))
    return _nan_to_null(pl.concat([frame, deals], how="horizontal"))


def _climb_table(rows: pl.DataFrame) -> pl.DataFrame:
    """``first_fall, players_fell, climbed_back`` + share and interval; ``any`` first."""
    by_cause = rows.group_by("first_fall").agg(
        pl.len().cast(pl.Int64).alias("players_fell"),
        pl.col("climbed").sum().cast(pl.Int64).alias("climbed_back"),
    )
    causes = pl.DataFrame({"first_fall": list(FALL_OUTCOMES)})
    frame = pl.concat(
        [
            pl.DataFrame(
                {
                    "first_fall": ["any"],
                    "players_fell": [rows.height],
                    "climbed_back": [int(rows["climbed"].sum())],
                },
                schema={
                    "first_fall": pl.String,
                    "players_fell": pl.Int64,
                    "climbed_back": pl.Int64,
                },
            ),
            causes.join(by_cause, on="first_fall", how="left").fill_null(0),
            # Falls counted in games.parquet with no fallen stint in barrel.parquet.
            by_cause.filter(pl.col("first_fall").is_null()).with_columns(
                pl.lit(UNRECORDED).alias("first_fall")
            ),
        ]
    )
    return _nan_to_null(
        _with_rate(frame, "climbed_back", "players_fell", ("share", "ci_low", "ci_high"))
    )


def _length_histogram(lengths: pl.DataFrame, finished: int) -> pl.DataFrame:
    """Finished games per bin of LENGTH_BIN played deals, every bin from the first seen."""
    if lengths.height == 0:
        frame = pl.DataFrame(schema={"bin_low": pl.Int64, "games": pl.Int64})
    else:
        low = int(lengths["bin_low"].min()) // LENGTH_BIN * LENGTH_BIN  # type: ignore[arg-type]
        high = int(lengths["bin_low"].max())  # type: ignore[arg-type]
        frame = _dense_range(lengths, "bin_low", low, high + 1, LENGTH_BIN)
    games = frame["games"].to_numpy().astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = games / finished
    return _nan_to_null(
        frame.select(
            "bin_low",
            (pl.col("bin_low") + LENGTH_BIN - 1).alias("bin_high"),
            pl.format("{}-{}", pl.col("bin_low"), pl.col("bin_low") + LENGTH_BIN - 1).alias(
                "deals"
            ),
            "games",
        ).with_columns(
            pl.Series("share", share, dtype=pl.Float64),
            pl.Series("cumulative_share", np.cumsum(share), dtype=pl.Float64),
        )
    )


def _seat_table(wins: pl.DataFrame, key: str, keys: list[int], players: int) -> pl.DataFrame:
    """Wins per ``key`` value (every one of ``keys``, in that order) with rates."""
    order = pl.DataFrame({key: keys}, schema={key: pl.Int64})
    frame = order.join(wins, on=key, how="left").with_columns(pl.col("wins").fill_null(0))
    games = int(frame["wins"].sum())
    frame = frame.with_columns(pl.lit(games, dtype=pl.Int64).alias("games"))
    frame = _with_rate(frame, "wins", "games", ("rate", "ci_low", "ci_high"))
    return _nan_to_null(frame.with_columns(pl.lit(1.0 / players).alias("expected")))


def _chi2_row(test: str, wins: pl.Series) -> dict[str, Any]:
    counts = [int(w) for w in wins]
    statistic, p_value = _chi2_uniform(counts)
    return {
        "test": test,
        "games": sum(counts),
        "statistic": statistic,
        "dof": len(counts) - 1,
        "p_value": p_value,
    }


def _event_stats(name: str, count: pl.Expr) -> list[pl.Expr]:
    """Total, mean, sample sd and games with at least one of a per-game ``count``."""
    c = count.fill_null(0)
    return [
        c.sum().cast(pl.Int64).alias(f"{name}__total"),
        _mean(c).alias(f"{name}__mean"),
        _sd(c).alias(f"{name}__sd"),
        (c > 0).sum().cast(pl.Int64).alias(f"{name}__with"),
    ]


def _event_sources(
    schema: pl.Schema, players: int, games_path: Path
) -> list[tuple[str, str, str, pl.Expr]]:
    """``(event, source, meaning, per-game count)`` for each event the run records."""
    out = []
    for name, stem, meaning in EVENTS:
        seats = [f"{stem}_{s}" for s in range(players)]
        if all(c in schema for c in seats):
            source = f"{stem}_{{{','.join(str(s) for s in range(players))}}}"
            out.append((name, source, meaning, _per_seat_sum(stem, players)))
        elif stem in schema:
            out.append((name, stem, meaning, pl.col(stem).cast(pl.Int64)))
        elif name not in OPTIONAL_EVENTS:  # pragma: no cover - the column check runs first
            raise UsageError("{path}: missing column {column}", path=games_path, column=repr(stem))
    return out


# --- public API -------------------------------------------------------------------
def barrel_tables(run_dir: Path) -> dict[str, pl.DataFrame]:
    """Barrel, game-length, seat-advantage and event tables of a ``thousand games`` run.

    Args:
        run_dir: the run folder, holding ``games.parquet``, ``barrel.parquet`` and
            ``run.json`` (the rules: players, target, barrel settings; without it the
            players are counted off the ``barrel_entries_{seat}`` columns).

    Returns:
        Tables by name, in the order of :data:`TABLE_NOTES`: ``summary``,
        ``barrel_outcomes``, ``barrel_summary``, ``attempts_used``, ``climb_back``,
        ``game_length``, ``length_histogram``, ``seat_relative``, ``seat_absolute``,
        ``seat_chi2``, ``events_per_game``.

    Raises:
        UsageError: a missing folder or Parquet file, an unreadable file, a Parquet
            file without a needed column, or a malformed ``run.json``.
    """
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise UsageError("{path}: no such run folder", path=run_dir)
    manifest = read_manifest(run_dir)
    rules = manifest.get("rules") or {}
    sizes = manifest.get("sizes") or {}
    if not isinstance(rules, dict) or not isinstance(sizes, dict):
        raise UsageError(f"{run_dir / RUN_FILE}: 'rules' and 'sizes' must be JSON objects")

    games_path = run_dir / GAMES_FILE
    raw_games, schema = scan_checked(games_path, BARREL_GAME_COLUMNS, "games")
    players = _players(rules, schema, run_dir / RUN_FILE)
    per_seat = [c for stem in BARREL_SEAT_COLUMNS for c in GAMES.seat_columns(stem, players)]
    for column in per_seat:
        if column not in schema:
            raise UsageError(
                "{path}: missing column {column}", path=games_path, column=repr(column)
            )
    raw_stints, _schema = scan_checked(run_dir / BARREL_FILE, BARREL_COLUMNS, "games")

    unfinished = pl.col("unfinished").cast(pl.Boolean).fill_null(True)
    games = raw_games.with_columns(
        pl.col("game_id", "first_dealer", "n_deals", "winner").cast(pl.Int64),
        unfinished.alias("unfinished"),
    )
    finished = games.filter(~pl.col("unfinished"))
    stints = raw_stints.select(
        pl.col("game_id", "seat", "entered_deal", "deals_on_barrel").cast(pl.Int64),
        pl.col("outcome").cast(pl.String),
    )
    # Finished games whose winner is a seat: the seat tables' sample.
    won = finished.filter(pl.col("winner").is_between(0, players - 1))
    events = _event_sources(schema, players, games_path)

    queries: dict[str, pl.LazyFrame] = {
        "counts": games.select(
            pl.len().cast(pl.Int64).alias("games"),
            pl.col("unfinished").sum().cast(pl.Int64).alias("unfinished"),
            pl.col("n_deals").sum().cast(pl.Int64).alias("deals"),
            _per_seat_sum("barrel_entries", players).sum().alias("barrel_entries"),
            _per_seat_sum("barrel_falls", players).sum().alias("barrel_falls"),
        ),
        "stint_counts": stints.select(
            pl.len().cast(pl.Int64).alias("stints"),
            pl.col("outcome").is_in(FALL_OUTCOMES).sum().cast(pl.Int64).alias("fall_stints"),
        ),
        "by_outcome": stints.group_by("outcome").agg(
            pl.len().cast(pl.Int64).alias("stints"),
            _mean(pl.col("deals_on_barrel")).alias("mean_deals_on_barrel"),
        ),
        "deals_on_barrel": stints.select(*_mean_se(pl.col("deals_on_barrel"), "deals_on_barrel")),
        "by_value": stints.group_by("deals_on_barrel", "outcome").agg(
            pl.len().cast(pl.Int64).alias("stints")
        ),
        "climbs": _climb_back(finished, stints, players),
        "length": finished.select(
            pl.len().cast(pl.Int64).alias("finished"),
            *_mean_se(pl.col("n_deals"), "n_deals"),
            _sd(pl.col("n_deals")).alias("sd"),
            pl.col("n_deals").min().alias("min"),
            *(
                pl.col("n_deals")
                .cast(pl.Float64)
                .quantile(q, interpolation="linear")
                .alias(f"q{round(q * 100):02d}")
                for q in QUANTILES
            ),
            pl.col("n_deals").max().alias("max"),
        ),
        "histogram": finished.group_by(
            (pl.col("n_deals") // LENGTH_BIN * LENGTH_BIN).alias("bin_low")
        ).agg(pl.len().cast(pl.Int64).alias("games")),
        "relative": won.group_by(
            ((pl.col("winner") - pl.col("first_dealer")) % players).alias("offset")
        ).agg(pl.len().cast(pl.Int64).alias("wins")),
        "absolute": won.group_by(pl.col("winner").alias("seat")).agg(
            pl.len().cast(pl.Int64).alias("wins")
        ),
        "events": finished.select(
            pl.len().cast(pl.Int64).alias("games"),
            pl.col("n_deals").sum().cast(pl.Int64).alias("deals"),
            *(stat for name, _, _, expr in events for stat in _event_stats(name, expr)),
        ),
    }
    frames = dict(zip(queries, pl.collect_all(list(queries.values())), strict=True))

    counts = frames["counts"].row(0, named=True)
    stint_counts = frames["stint_counts"].row(0, named=True)
    n_games, n_unfinished = counts["games"], counts["unfinished"]
    n_stints = stint_counts["stints"]
    n_finished = n_games - n_unfinished
    unfinished_share = n_unfinished / n_games if n_games else None

    def int_or_none(value: Any) -> int | None:
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    summary_row: dict[str, Any] = {
        "rules": manifest.get("rules_name"),
        "rules_hash": manifest.get("rules_hash"),
        "players": players,
        "target": int_or_none(rules.get("game.target")),
        "barrel_at": int_or_none(rules.get("barrel.at")),
        "barrel_attempts": int_or_none(rules.get("barrel.attempts")),
        "games_requested": int_or_none(sizes.get("games")),
        "games": n_games,
        "finished": n_finished,
        "unfinished": n_unfinished,
        "unfinished_share": unfinished_share,
        "deals": counts["deals"] or 0,
        "barrel_entries": counts["barrel_entries"] or 0,
        "stints": n_stints,
        "barrel_falls": counts["barrel_falls"] or 0,
        "fall_stints": stint_counts["fall_stints"],
    }
    summary_schema: dict[str, pl.DataType | type[pl.DataType]] = dict.fromkeys(
        summary_row, pl.Int64
    )
    summary_schema.update(rules=pl.String, rules_hash=pl.String, unfinished_share=pl.Float64)
    summary = pl.DataFrame([summary_row], schema=summary_schema)

    outcomes = _barrel_outcomes(frames["by_outcome"], n_stints)

    length = frames["length"].select(
        pl.lit(n_games, dtype=pl.Int64).alias("games"),
        pl.col("finished"),
        pl.lit(n_unfinished, dtype=pl.Int64).alias("unfinished"),
        pl.lit(unfinished_share, dtype=pl.Float64).alias("unfinished_share"),
        pl.col("mean_n_deals").alias("mean"),
        pl.col("se_n_deals").alias("se"),
        pl.exclude("finished", "mean_n_deals", "se_n_deals"),
    )

    relative_keys = [*range(1, players), 0]
    relative = _seat_table(frames["relative"], "offset", relative_keys, players).select(
        pl.col("offset")
        .replace_strict(POSITION_NAMES, default="seat", return_dtype=pl.String)
        .alias("position"),
        pl.all(),
    )
    absolute = _seat_table(frames["absolute"], "seat", list(range(players)), players)
    chi2 = _nan_to_null(
        pl.DataFrame(
            [
                _chi2_row("relative to first dealer", relative["wins"]),
                _chi2_row("absolute seat", absolute["wins"]),
            ],
            schema={
                "test": pl.String,
                "games": pl.Int64,
                "statistic": pl.Float64,
                "dof": pl.Int64,
                "p_value": pl.Float64,
            },
        )
    )

    ev = frames["events"].row(0, named=True)
    event_rows = [
        {
            "event": name,
            "source": source,
            "meaning": meaning,
            "games": ev["games"],
            "total": ev[f"{name}__total"] or 0,
            "mean": ev[f"{name}__mean"],
            "se": None if ev[f"{name}__sd"] is None else ev[f"{name}__sd"] / math.sqrt(ev["games"]),
            "per_100_deals": 100.0 * (ev[f"{name}__total"] or 0) / ev["deals"]
            if ev["deals"]
            else None,
            "games_with": ev[f"{name}__with"] or 0,
        }
        for name, source, meaning, _ in events
    ]
    per_game = pl.DataFrame(
        event_rows,
        schema={
            "event": pl.String,
            "source": pl.String,
            "meaning": pl.String,
            "games": pl.Int64,
            "total": pl.Int64,
            "mean": pl.Float64,
            "se": pl.Float64,
            "per_100_deals": pl.Float64,
            "games_with": pl.Int64,
        },
    )
    per_game = _nan_to_null(
        _with_rate(per_game, "games_with", "games", ("share_with", "ci_low", "ci_high"))
    )

    return {
        "summary": summary,
        "barrel_outcomes": outcomes,
        "barrel_summary": _barrel_summary(outcomes, frames["deals_on_barrel"]),
        "attempts_used": _attempts_used(frames["by_value"], n_stints),
        "climb_back": _climb_table(frames["climbs"]),
        "game_length": _nan_to_null(length),
        "length_histogram": _length_histogram(frames["histogram"], n_finished),
        "seat_relative": relative,
        "seat_absolute": absolute,
        "seat_chi2": chi2,
        "events_per_game": per_game,
    }


def barrel_tables_json(tables: Mapping[str, pl.DataFrame]) -> dict[str, list[dict[str, Any]]]:
    """The tables as JSON-safe lists of row dicts (NaN and infinities become ``None``)."""
    return tables_json(tables)
