"""House-rule comparisons on common random numbers: effects with intervals.

The games of a comparison are played under every rule set with the same seed, so
game ``g`` of each set is dealt from the same cards and random streams (common
random numbers, CRN). Each metric is a ratio of per-game sums,
``r = Σ num_g / Σ den_g`` (a mean when ``den_g = 1``); its standard error comes from
the linearisation ``z_g = (num_g − r · den_g) / mean(den)`` (the delta method). The
effect of a rule set against the base is ``r_vs − r_base`` with

* the **CRN** standard error ``sd(z_vs,g − z_base,g) / √n`` — paired by game id;
* the **independent** standard error ``√(var z_vs / n + var z_base / n)`` — what
  two runs with unrelated random numbers would give.

Both interval widths are reported, so the gain of pairing is visible. The tables'
data keep their English code names and meanings; what is shown (the Markdown, the
sentences, the figures: :mod:`views.compare`) is in the current language.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis.glossary import CONCEDED_ALL, MADE_PLAYED
from analysis.schema.compare import COMPARE, COMPARE_LENGTHS, COMPARE_SEATS
from analysis.schema.report import DEALING_ODDS
from analysis.stats import Z95, wilson_interval
from sim.marks import N_
from sim.rules import Rules
from sim.schema import GAMES

COLUMNS = tuple(COMPARE.names())
"""The columns of a comparison table (``compare.csv``), in order."""


Flat = Mapping[str, Any]
"""A rule set as ``run.json`` keeps it: ``{"barrel.at": 880, ...}`` (``Rules.to_dict``)."""


def _always(rules: Flat, players: int) -> bool:
    return True


@dataclass(frozen=True)
class Metric:
    """A per-game ratio: ``num(games)`` over ``den(games)`` (numpy arrays per game).

    Attributes:
        name: the metric's code name (``compare.csv``'s ``metric``).
        meaning: its words, marked for the catalogues.
        num: the per-game numerator.
        den: the per-game denominator.
        unit: how it is shown (:data:`UNITS`): ``share`` (in %), ``points``, ``deals``
            or ``count`` (events per game).
        on: what a rule set counts in it, from its options and players: falsy where
            its counter is switched off (the metric is still computed, reads 0 there and is
            flagged), else a value that differs between two rule sets exactly where they
            count different things (``samosvals``: which of 555 and −555 reset), so that a
            switched counter's change, the switch itself, is never called an effect.
        needs: the columns of the games frame it reads beyond :data:`COMPARE_GAME_COLUMNS`;
            a metric is left out where a run lacks them (the skill index without skill runs).
    """

    name: str
    meaning: str
    num: Callable[[pl.DataFrame, int], np.ndarray]
    den: Callable[[pl.DataFrame, int], np.ndarray]
    unit: str = "count"
    on: Callable[[Flat, int], Any] = _always
    needs: tuple[str, ...] = ()


def _col(name: str) -> Callable[[pl.DataFrame, int], np.ndarray]:
    return lambda g, n: g[name].cast(pl.Float64).to_numpy()


def _seat_sum(stem: str) -> Callable[[pl.DataFrame, int], np.ndarray]:
    def total(g: pl.DataFrame, n: int) -> np.ndarray:
        out = np.zeros(g.height)
        for s in range(n):
            out += g[f"{stem}_{s}"].cast(pl.Float64).to_numpy()
        return out

    return total


def _ones(g: pl.DataFrame, n: int) -> np.ndarray:
    return np.ones(g.height)


def _finished(g: pl.DataFrame, n: int) -> np.ndarray:
    return (g["winner"].to_numpy() >= 0).astype(np.float64)


def _won_at(offset: int) -> Callable[[pl.DataFrame, int], np.ndarray]:
    def won(g: pl.DataFrame, n: int) -> np.ndarray:
        w = g["winner"].to_numpy().astype(np.int64)
        first = g["first_dealer"].to_numpy().astype(np.int64)
        return ((w >= 0) & ((w - first) % n == offset)).astype(np.float64)

    return won


def _seated(offset: int) -> Callable[[Flat, int], int]:
    """The players of a table with a seat ``offset`` places after the first dealer, else 0.

    Tables of different sizes count different things (their fair shares differ).
    """
    return lambda rules, players: players if offset < players else 0


def _players(rules: Flat, players: int) -> int:
    return players


def _spread(g: pl.DataFrame, n: int) -> np.ndarray:
    """A finished game's final scores: the winner's less the lowest (0 unfinished)."""
    scores = np.stack([g[f"score_{s}"].cast(pl.Float64).to_numpy() for s in range(n)], axis=1)
    return (scores.max(axis=1) - scores.min(axis=1)) * _finished(g, n)


COMEBACK = 300  # points behind the leader a comeback starts from


def _behind(g: pl.DataFrame, n: int) -> np.ndarray:
    """Per game: the seats of a finished game once :data:`COMEBACK` or more behind."""
    done = _finished(g, n)
    return sum(
        (g[f"max_behind_{s}"].cast(pl.Float64).to_numpy() >= COMEBACK) * done for s in range(n)
    )


def _came_back(g: pl.DataFrame, n: int) -> np.ndarray:
    """Per game: 1 where the winner was once :data:`COMEBACK` or more behind the leader."""
    w = g["winner"].to_numpy().astype(np.int64)
    out = np.zeros(g.height)
    for s in range(n):
        out += (w == s) * (g[f"max_behind_{s}"].cast(pl.Float64).to_numpy() >= COMEBACK)
    return out


def _climbed(g: pl.DataFrame, n: int) -> np.ndarray:
    return (g["first_climb"].fill_null(0).to_numpy() > 0).astype(np.float64)


def _climb_deal(g: pl.DataFrame, n: int) -> np.ndarray:
    return g["first_climb"].fill_null(0).cast(pl.Float64).to_numpy()


def _option(key: str, test: Callable[[Any], bool]) -> Callable[[Flat, int], bool]:
    """Whether option ``key`` of a rule set passes ``test`` (a missing key: on)."""
    return lambda rules, players: key not in rules or bool(test(rules[key]))


def _samosval_on(rules: Flat, players: int) -> tuple[bool, bool] | bool:
    """The resets a rule set has: (of exactly 555, of exactly −555); False for none."""
    on = bool(rules.get("score.samosval", True)), bool(rules.get("score.samosval_negative", True))
    return on if any(on) else False


UNITS = ("share", "points", "deals", "count")
"""The units of :class:`Metric`; :func:`views.compare.value_text` writes a value of each."""


METRICS: tuple[Metric, ...] = (
    Metric("game_length", N_("played deals per game (mean)"), _col("n_deals"), _ones, "deals"),
    Metric(
        "unfinished_rate",
        N_("games stopped undecided after 1,000 played deals"),
        lambda g, n: g["unfinished"].cast(pl.Float64).to_numpy(),
        _ones,
        "share",
    ),
    Metric(
        "first_dealer_wins",
        N_("share of finished games won by the first dealer's seat"),
        _won_at(0),
        _finished,
        "share",
        _players,
    ),
    Metric(
        "forehand_wins",
        N_("share of finished games won by the first forehand's seat"),
        _won_at(1),
        _finished,
        "share",
        _players,
    ),
    Metric(
        "middle_wins",
        N_("share of finished games won by the seat after the first forehand"),
        _won_at(2),
        _finished,
        "share",
        _seated(2),
    ),
    Metric(
        "rear_wins",
        N_("share of finished games won by the fourth seat from the first dealer"),
        _won_at(3),
        _finished,
        "share",
        _seated(3),
    ),
    *(
        Metric(
            f"{role}_points",
            words,
            _col(f"role_points_{k}"),
            _col("n_deals"),
            "points",
            _seated(k),
            needs=(f"role_points_{k}",),
        )
        for k, (role, words) in enumerate(
            (
                ("dealer", N_("points a deal of the dealer's seat")),
                ("forehand", N_("points a deal of the forehand's seat")),
                ("middle", N_("points a deal of the seat after the forehand")),
                ("rear", N_("points a deal of the fourth seat from the dealer")),
            )
        )
    ),
    Metric(
        "skill_index",
        N_("games won by one skilled player against the others (skill index)"),
        _col("skill_won"),
        _col("skill_finished"),
        "share",
        _players,
        needs=("skill_won", "skill_finished"),
    ),
    Metric(
        "comeback_rate",
        N_("games won by a seat once 300 or more points behind the leader, of such seats"),
        _came_back,
        _behind,
        "share",
        _players,
        needs=("max_behind_0",),
    ),
    Metric(
        "score_spread",
        N_("final score of the winner less the lowest (points)"),
        _spread,
        _finished,
        "points",
    ),
    Metric(
        "barrel_fall_rate",
        N_("barrel entries that ended in a fall"),
        _seat_sum("barrel_falls"),
        _seat_sum("barrel_entries"),
        "share",
        _option("barrel.at", lambda v: v),
    ),
    Metric(
        "first_climb_deal",
        N_("the deal of the first climb onto the barrel (games with one)"),
        _climb_deal,
        _climbed,
        "deals",
        _option("barrel.at", lambda v: v),
        needs=("first_climb",),
    ),
    Metric(
        "declarer_make_rate",
        MADE_PLAYED.words,
        _col("contracts_made"),
        lambda g, n: _col("contracts")(g, n) - _col("contracts_conceded")(g, n),
        "share",
    ),
    Metric(
        "concession_rate",
        CONCEDED_ALL.words,
        _col("contracts_conceded"),
        _col("contracts"),
        "share",
        _option("rospis.allowed", lambda v: v),
    ),
    Metric(
        "average_contract",
        N_("mean contract (points)"),
        _col("contract_sum"),
        _col("contracts"),
        "points",
    ),
    Metric(
        "bolt_penalties",
        N_("bolt penalties per game"),
        _seat_sum("bolt_penalties"),
        _ones,
        "count",
        _option("bolt.penalty", lambda v: v),
    ),
    Metric(
        "samosvals",
        N_("555 resets per game"),
        _seat_sum("samosvals"),
        _ones,
        "count",
        _samosval_on,
    ),
)
"""The metrics of a comparison; each ``meaning`` is marked (``N_``) and shown translated.

``samosvals`` counts the resets of a score of exactly 555 and of exactly −555 together;
its ``on`` says which of the two each rule set has, so a pair of rule sets that reset
different ones is flagged ``own_switch`` (the options that differ name them).
"""

QUANTILE_METRICS = (
    ("game_length_median", N_("played deals per game (median)"), 0.5),
    ("game_length_p90", N_("played deals per game (90th percentile)"), 0.9),
)
"""Quantiles of the played deals per game: ``(name, meaning, q)``; intervals by bootstrap."""

BOOTSTRAP = 400  # paired resamples of the games for a quantile's (a statistic's) intervals


def _linearised(num: np.ndarray, den: np.ndarray) -> tuple[float, np.ndarray]:
    """The ratio ``Σnum / Σden`` and its per-game influence values ``z_g``."""
    total = den.sum()
    if total <= 0:
        return float("nan"), np.full(len(num), np.nan)
    r = float(num.sum() / total)
    return r, (num - r * den) / den.mean()


def _se(z: np.ndarray) -> float:
    n = len(z)
    return float(np.std(z, ddof=1) / np.sqrt(n)) if n > 1 else float("nan")


Statistic = Callable[[np.ndarray], np.ndarray]
"""A statistic of games resampled: per-game values ``(..., games)`` in, one per row out."""


def _bootstrap_row(
    stat0: Statistic, stat1: Statistic, base: np.ndarray, other: np.ndarray
) -> dict[str, float]:
    """A statistic under both rule sets and its difference, intervals by a paired bootstrap.

    ``base`` and ``other`` hold one value per game (the same game ids, in order);
    ``stat0`` and ``stat1`` compute the statistic of each from an array of such values
    along its last axis. The games are resampled in pairs (:data:`BOOTSTRAP` times, a
    fixed seed: the same table every time): the 95 % intervals are the resamples' 2.5
    and 97.5 percentiles; the independent width resamples the two sets apart.
    """
    rng = np.random.default_rng(0)
    n = len(base)
    idx = rng.integers(0, n, size=(BOOTSTRAP, n))
    apart = rng.integers(0, n, size=(BOOTSTRAP, n))
    q0, q1, q1_apart = stat0(base[idx]), stat1(other[idx]), stat1(other[apart])
    r0, r1 = float(stat0(base[None, :])[0]), float(stat1(other[None, :])[0])
    lo0, hi0 = np.nanpercentile(q0, [2.5, 97.5])
    lo1, hi1 = np.nanpercentile(q1, [2.5, 97.5])
    lo, hi = np.nanpercentile(q1 - q0, [2.5, 97.5])
    lo_ind, hi_ind = np.nanpercentile(q1_apart - q0, [2.5, 97.5])
    return {
        "base": r0, "base_ci_low": lo0, "base_ci_high": hi0,
        "other": r1, "other_ci_low": lo1, "other_ci_high": hi1,
        "diff": r1 - r0, "diff_ci_low": lo, "diff_ci_high": hi,
        "width_crn": hi - lo, "width_independent": hi_ind - lo_ind,
    }  # fmt: skip


def _quantile(q: float) -> Statistic:
    return lambda x: np.quantile(x, q, axis=-1)


def _offsets(g: pl.DataFrame, n: int) -> np.ndarray:
    """Per game: the winner's place after the first dealer, -1 for an unfinished game."""
    w = g["winner"].to_numpy().astype(np.int64)
    first = g["first_dealer"].to_numpy().astype(np.int64)
    return np.where(w >= 0, (w - first) % n, -1)


def imbalance(players: int) -> Statistic:
    """The largest gap between a seat's share of the finished games won and the fair share.

    Of winners' places (:func:`_offsets`) along the last axis; 0 where every seat wins
    its fair share ``1 / players``.
    """

    def stat(offsets: np.ndarray) -> np.ndarray:
        done = np.maximum((offsets >= 0).sum(axis=-1), 1)
        shares = np.stack([(offsets == k).sum(axis=-1) / done for k in range(players)], axis=-1)
        return np.abs(shares - 1.0 / players).max(axis=-1)

    return stat


SEAT_IMBALANCE = (
    "seat_imbalance",
    N_("the largest gap between a seat's share of games won and the fair share"),
)
"""The fairness of a rule set in one number (:func:`imbalance`), a row of every comparison."""


def compare_games(
    base_name: str,
    base: pl.DataFrame,
    others: Sequence[tuple[str, pl.DataFrame]],
    players: dict[str, int],
    rules: Mapping[str, Flat] | None = None,
) -> pl.DataFrame:
    """Effects of each rule set in ``others`` against ``base`` (same game ids).

    Args:
        base_name: the base rule set's name.
        base: its ``games.parquet`` rows (with ``first_climb`` and the skill runs'
            ``skill_won``, ``skill_finished`` where :func:`compare_folders` joined them:
            a metric that reads a column missing from a run is left out).
        others: ``(name, games rows)`` of every other rule set, played on the same
            seed and game ids.
        players: players of every rule set by name.
        rules: every rule set's options by name (``run.json``'s ``rules``), which say
            whether a counter is on (:attr:`Metric.on`); None: every counter on.

    Returns:
        One row per (metric, other rule set) with the columns :data:`COLUMNS`.
    """
    base = base.sort("game_id")
    options = rules or {}
    rows = []
    for name, frame in others:
        frame = frame.sort("game_id")
        if not np.array_equal(frame["game_id"].to_numpy(), base["game_id"].to_numpy()):
            raise ValueError(f"{name}: not the same games as {base_name}")
        n = base.height
        n0, n1 = players[base_name], players[name]
        for m in METRICS:
            if any(c not in base.columns or c not in frame.columns for c in m.needs):
                continue
            r0, z0 = _linearised(m.num(base, n0), m.den(base, n0))
            r1, z1 = _linearised(m.num(frame, n1), m.den(frame, n1))
            se0, se1 = _se(z0), _se(z1)
            se_crn = _se(z1 - z0)
            se_ind = float(np.sqrt(se0**2 + se1**2))
            diff = r1 - r0
            on0 = m.on(options.get(base_name, {}), n0)
            on1 = m.on(options.get(name, {}), n1)
            values = {
                "base": r0,
                "base_ci_low": r0 - Z95 * se0,
                "base_ci_high": r0 + Z95 * se0,
                "other": r1,
                "other_ci_low": r1 - Z95 * se1,
                "other_ci_high": r1 + Z95 * se1,
                "diff": diff,
                "diff_ci_low": diff - Z95 * se_crn,
                "diff_ci_high": diff + Z95 * se_crn,
                "width_crn": 2 * Z95 * se_crn,
                "width_independent": 2 * Z95 * se_ind,
            }
            rows.append(_row(m.name, m.meaning, m.unit, base_name, name, values, n, on0, on1))
        lengths = (
            base["n_deals"].cast(pl.Float64).to_numpy(),
            frame["n_deals"].cast(pl.Float64).to_numpy(),
        )
        for metric, meaning, q in QUANTILE_METRICS:
            values = _bootstrap_row(
                _quantile(q),
                _quantile(q),
                *lengths,
            )
            rows.append(_row(metric, meaning, "deals", base_name, name, values, n, True, True))
        offsets = _offsets(base, n0), _offsets(frame, n1)
        values = _bootstrap_row(imbalance(n0), imbalance(n1), *offsets)
        rows.append(_row(*SEAT_IMBALANCE, "share", base_name, name, values, n, n0, n1))
    frame_out = pl.DataFrame(rows, schema_overrides={"games": pl.Int64})
    return frame_out.select(COLUMNS).with_columns(pl.col(pl.Float64).fill_nan(None))


def _row(
    metric: str, meaning: str, unit: str, base: str, other: str, values: dict[str, float],
    games: int, on0: Any, on1: Any,
) -> dict[str, Any]:  # fmt: skip
    """One row of :func:`compare_games`."""
    return {
        "metric": metric,
        "meaning": meaning,
        "rules": base,
        "vs": other,
        **{k: float(v) for k, v in values.items()},
        "games": games,
        "unit": unit,
        "base_on": bool(on0),
        "other_on": bool(on1),
        "own_switch": on0 != on1,
    }


def ranked(row: Mapping[str, Any]) -> bool:
    """Whether a row's difference may be called an effect of the rules.

    Not where its counter is off under either rule set, or counts different things
    under the two (``own_switch``: 555 resets with 555 switched off): there the change
    is the switch itself. Rows of a table without these columns always may.
    """
    return bool(row.get("base_on", True) and row.get("other_on", True)) and not row.get(
        "own_switch", False
    )


# Columns of games.parquet the comparison's metrics read; those of COMPARE_SEAT_COLUMNS as
# STEM_{seat}, one per seat.
COMPARE_GAME_COLUMNS = GAMES.pick(
    "game_id",
    "n_deals",
    "winner",
    "unfinished",
    "first_dealer",
    "contracts",
    "contracts_made",
    "contracts_conceded",
    "contract_sum",
)
COMPARE_SEAT_COLUMNS = ("barrel_falls", "barrel_entries", "bolt_penalties", "samosvals")


SKILL_DIR = "skill"
"""Where a rule set's run folder keeps its skill runs: ``skill/seat_S`` (one skilled seat S)."""


def _first_climbs(folder: Path) -> pl.DataFrame | None:
    """``game_id, first_climb``: the played deal (1 = the first) of a game's first climb."""
    path = folder / "barrel.parquet"
    if not path.is_file():
        return None
    stints = pl.read_parquet(path, columns=["game_id", "entered_deal"])
    return stints.group_by("game_id").agg(
        (pl.col("entered_deal").min() + 1).cast(pl.Int64).alias("first_climb")
    )


def _skill(folder: Path, players: int) -> pl.DataFrame | None:
    """``game_id, skill_won, skill_finished`` over a rule set's skill runs (None: none played).

    Skill run ``seat_S`` plays the same games with the skilled player at seat S only;
    a game id's counts sum its rotations: the finished ones and those the skilled seat won.
    """
    runs = [folder / SKILL_DIR / f"seat_{s}" / "games.parquet" for s in range(players)]
    if not all(p.is_file() for p in runs):
        return None
    parts = []
    for s, path in enumerate(runs):
        g = pl.read_parquet(path, columns=["game_id", "winner", "unfinished"])
        done = (pl.col("winner") >= 0) & ~pl.col("unfinished")
        parts.append(
            g.select(
                "game_id",
                (done & (pl.col("winner") == s)).cast(pl.Int64).alias("skill_won"),
                done.cast(pl.Int64).alias("skill_finished"),
            )
        )
    return pl.concat(parts).group_by("game_id").agg(pl.col("skill_won", "skill_finished").sum())


def compare_folders(runs: Sequence[tuple[str, Path]]) -> pl.DataFrame:
    """Effects of every games run against the first, from their run folders.

    Args:
        runs: ``(name, folder)`` of ``thousand games`` runs of the same size and seed
            (the games of a comparison, :func:`sim.runs.compare.play_rule_sets`), the
            base first. Each folder holds ``games.parquet`` and ``run.json`` (for the
            number of players and the options), and may hold ``barrel.parquet`` (the
            first climbs) and the skill runs (``skill/seat_S``, the skill index).

    Returns:
        :func:`compare_games` of the base against every other run.

    Raises:
        UsageError: a missing or unreadable ``games.parquet`` or a missing column.
    """
    return compare_tables(runs).effects


def _read_runs(
    runs: Sequence[tuple[str, Path]],
) -> tuple[str, pl.DataFrame, list[tuple[str, pl.DataFrame]], dict[str, int], dict[str, Flat]]:
    """The games of every run with what :func:`compare_games` reads, the base first."""
    from analysis.runs import read_manifest, scan_checked

    frames: list[tuple[str, pl.DataFrame]] = []
    players: dict[str, int] = {}
    options: dict[str, Flat] = {}
    for name, folder in runs:
        options[name] = read_manifest(folder).get("rules") or {}
        players[name] = int(options[name].get("players", 3))
        needed = [
            *COMPARE_GAME_COLUMNS,
            *(c for stem in COMPARE_SEAT_COLUMNS for c in GAMES.seat_columns(stem, players[name])),
            *GAMES.seat_columns("score", players[name]),
        ]
        frame, schema = scan_checked(folder / "games.parquet", needed, "games")
        optional = [
            c
            for stem in ("max_behind", "role_points")
            for c in GAMES.seat_columns(stem, players[name])
            if c in schema
        ]
        games = frame.select(*needed, *optional).collect()
        for extra, empty in ((_first_climbs(folder), None), (_skill(folder, players[name]), 0)):
            if extra is not None:
                games = games.join(extra, on="game_id", how="left")
                if empty is not None:
                    games = games.with_columns(pl.col(extra.columns[1:]).fill_null(empty))
        frames.append((name, games))
    (base_name, base), others = frames[0], frames[1:]
    return base_name, base, others, players, options


POSITIONS = ("dealer", "forehand", "middle", "rear")
"""The seats by place after the first dealer (offset 0, 1, 2, 3), code words of
:data:`sim.i18n.ROLES`."""


def seat_shares(
    base_name: str,
    base: pl.DataFrame,
    others: Sequence[tuple[str, pl.DataFrame]],
    players: dict[str, int],
) -> pl.DataFrame:
    """Finished games won from each starting seat, by rule set, against the fair share.

    One row per rule set and seat (by place after the first dealer): the wins, the
    finished games, the share with its Wilson interval, the fair share ``1 / players``,
    and the rule set's Pearson test of equal shares (``chi2``, ``dof``, ``p_value``,
    the same on each of its rows).
    """
    from analysis.barrel import _chi2_uniform

    rows = []
    for name, g in [(base_name, base), *others]:
        n = players[name]
        done = g.filter(pl.col("winner") >= 0)
        offsets = (
            (done["winner"].cast(pl.Int64) - done["first_dealer"].cast(pl.Int64)) % n
        ).to_numpy()
        wins = np.bincount(offsets, minlength=n)[:n]
        finished = int(wins.sum())
        low, high = wilson_interval(wins.astype(np.float64), finished)
        statistic, p_value = _chi2_uniform([int(w) for w in wins])
        for k in range(n):
            rows.append(
                {
                    "rules": name,
                    "players": n,
                    "position": POSITIONS[k],
                    "offset": k,
                    "wins": int(wins[k]),
                    "finished": finished,
                    "share": wins[k] / finished if finished else math.nan,
                    "ci_low": float(low[k]),
                    "ci_high": float(high[k]),
                    "fair": 1.0 / n,
                    "chi2": statistic,
                    "dof": n - 1,
                    "p_value": p_value,
                }
            )
    return pl.DataFrame(rows, schema=COMPARE_SEATS.polars_schema()).with_columns(
        pl.col(pl.Float64).fill_nan(None)
    )


def length_histograms(
    base_name: str, base: pl.DataFrame, others: Sequence[tuple[str, pl.DataFrame]]
) -> pl.DataFrame:
    """Games by played deals, every rule set on the same bins of ``LENGTH_BIN`` deals.

    Every game (finished or not), one row per rule set and bin from the shortest game of
    any set to the longest: ``rules, bin_low, bin_high, games, share``.
    """
    from analysis.barrel import LENGTH_BIN

    sets = [(base_name, base), *others]
    lengths = [g["n_deals"].cast(pl.Int64).to_numpy() for _name, g in sets]
    low = min(int(x.min()) for x in lengths) // LENGTH_BIN
    high = max(int(x.max()) for x in lengths) // LENGTH_BIN
    rows = []
    for (name, _g), x in zip(sets, lengths, strict=True):
        counts = np.bincount(x // LENGTH_BIN - low, minlength=high - low + 1)
        for k, c in enumerate(counts):
            rows.append(
                {
                    "rules": name,
                    "bin_low": (low + k) * LENGTH_BIN,
                    "bin_high": (low + k + 1) * LENGTH_BIN - 1,
                    "games": int(c),
                    "share": c / len(x),
                }
            )
    return pl.DataFrame(rows, schema=COMPARE_LENGTHS.polars_schema())


@dataclass(frozen=True)
class CompareTables:
    """Everything a comparison shows: the effects, the seats and the lengths by rule set.

    Attributes:
        effects: :func:`compare_games` (``compare.csv``).
        seats: :func:`seat_shares` (``compare_seats.csv``).
        lengths: :func:`length_histograms` (``compare_lengths.csv``).
    """

    effects: pl.DataFrame
    seats: pl.DataFrame
    lengths: pl.DataFrame


def compare_tables(runs: Sequence[tuple[str, Path]]) -> CompareTables:
    """:class:`CompareTables` of games runs, the base first (as :func:`compare_folders`)."""
    base_name, base, others, players, options = _read_runs(runs)
    return CompareTables(
        compare_games(base_name, base, others, players, options),
        seat_shares(base_name, base, others, players),
        length_histograms(base_name, base, others),
    )


# The columns of :func:`compare_rates` (``dealing_odds.csv``): those of a games
# comparison up to the difference, then the two sample sizes.
RATE_COLUMNS = tuple(DEALING_ODDS.names())


def compare_rates(
    base_name: str,
    base: tuple[int, Mapping[str, int]],
    other_name: str,
    other: tuple[int, Mapping[str, int]],
    meanings: Mapping[str, str],
) -> pl.DataFrame:
    """Per-deal rates of two runs side by side: each with its Wilson interval, and the gap.

    ``base`` and ``other`` are ``(deals, hits by key)`` (an odds run's counts). The
    difference ``other − base`` has the normal interval of two independent samples,
    ``±1.96 √(p₀(1−p₀)/n₀ + p₁(1−p₁)/n₁)``; where the runs share some deals (the
    same seed) the true interval is narrower, so this one is conservative.

    Args:
        base_name: the base run's label.
        base: its deals and hits by key.
        other_name: the other run's label.
        other: its deals and hits by key.
        meanings: the keys to compare, in order, each with its meaning.

    Returns:
        One row per key, columns :data:`RATE_COLUMNS`.
    """
    keys = list(meanings)
    n0, n1 = base[0], other[0]
    k0 = np.array([base[1][k] for k in keys], dtype=np.float64)
    k1 = np.array([other[1][k] for k in keys], dtype=np.float64)
    p0, p1 = k0 / n0, k1 / n1
    lo0, hi0 = wilson_interval(k0, n0)
    lo1, hi1 = wilson_interval(k1, n1)
    se = np.sqrt(p0 * (1 - p0) / n0 + p1 * (1 - p1) / n1)
    diff = p1 - p0
    return pl.DataFrame(
        {
            "metric": keys,
            "meaning": [meanings[k] for k in keys],
            "rules": [base_name] * len(keys),
            "vs": [other_name] * len(keys),
            "base": p0,
            "base_ci_low": lo0,
            "base_ci_high": hi0,
            "other": p1,
            "other_ci_low": lo1,
            "other_ci_high": hi1,
            "diff": diff,
            "diff_ci_low": diff - Z95 * se,
            "diff_ci_high": diff + Z95 * se,
            "n_base": np.full(len(keys), n0, dtype=np.int64),
            "n_other": np.full(len(keys), n1, dtype=np.int64),
        }
    ).select(RATE_COLUMNS)


def is_missing(v: float | None) -> bool:
    """Whether a value is missing: None or NaN (a statistic with too few games)."""
    return v is None or (isinstance(v, float) and math.isnan(v))


def clear(row: Mapping[str, Any]) -> bool:
    """Whether the difference's interval excludes 0 (a real difference)."""
    low, high = row["diff_ci_low"], row["diff_ci_high"]
    return not (is_missing(low) or is_missing(high)) and (low > 0 or high < 0)


NEGLIGIBLE = 0.02  # a change under 2 % of the base value
SMALL = 0.10  # under 10 %; from 10 % on, large


def size_word(row: Mapping[str, Any]) -> str | None:
    """``negligible``, ``small`` or ``large``: the change relative to the base (None: no base).

    A code word; :data:`views.compare.SIZES` has it in words to translate when shown.
    """
    base, diff = row["base"], row["diff"]
    if base is None or diff is None or is_missing(base) or is_missing(diff) or base == 0:
        return None
    change = abs(diff / base)
    return "negligible" if change < NEGLIGIBLE else "small" if change < SMALL else "large"


def rule_differences(rule_sets: Sequence[tuple[str, Rules]]) -> pl.DataFrame:
    """The options whose values differ between named rule sets: a row per key, a column per set.

    The values are as ``str`` writes them (``3``, ``True``, ``one_falls``; ``off`` for
    an option switched off): data, shown in words by :func:`sim.option_words.option_value`.
    """
    flats = [r.to_dict() for _name, r in rule_sets]
    keys = [k for k in flats[0] if len({repr(f.get(k)) for f in flats}) > 1]
    data: dict[str, list[str]] = {"option": keys}
    for (name, _rules), f in zip(rule_sets, flats, strict=True):
        data[name] = ["off" if f.get(k) is None else str(f.get(k)) for k in keys]
    return pl.DataFrame(data, schema=dict.fromkeys(data, pl.String))


def shown_rows(table: pl.DataFrame) -> pl.DataFrame:
    """The rows worth showing: not those whose counter neither rule set has.

    (``rear_wins`` of two three-hand tables, ``bolt_penalties`` where both charge none.)
    """
    if "base_on" not in table.columns:
        return table
    return table.filter(pl.col("base_on") | pl.col("other_on"))


def skill_table(table: pl.DataFrame) -> pl.DataFrame:
    """``rules, share, ci_low, ci_high, fair`` of the skill index by rule set (empty: none).

    From the effects table's ``skill_index`` rows (the base once, then every other set).
    """
    rows = table.filter(pl.col("metric") == "skill_index").to_dicts()
    out = []
    for k, r in enumerate(rows):
        if k == 0:
            out.append((r["rules"], r["base"], r["base_ci_low"], r["base_ci_high"]))
        out.append((r["vs"], r["other"], r["other_ci_low"], r["other_ci_high"]))
    return pl.DataFrame(
        out, schema=["rules", "share", "ci_low", "ci_high"], orient="row"
    ).with_columns(pl.lit(None, dtype=pl.Float64).alias("fair"))
