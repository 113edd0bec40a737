"""Strategy duels: two strategies (or two settings of one) in duplicate format.

Contestant A is tried at every seat in turn with B at all the others, on the same
deals (the same seed, so the same cards and random streams, PROTOCOL.md "Inputs");

* ``hands``: every deal is also played with B at every seat; the per-deal score
  difference is the mean over seats ``s`` of [seat ``s``'s delta with A at ``s``]
  minus [seat ``s``'s delta with B everywhere]. Deals are independent, so its mean
  gets a normal interval; declaring and making rates get Wilson intervals.
* ``games``: game ``g`` is played once per seat of A. A's win rate over all
  rotations is compared with the fair share ``1 / players``; the final score
  difference A minus the mean of the B seats is averaged per game id.

With A = B every rotation replays the same deal or game, so the score difference is
exactly 0 and A wins exactly one rotation of each finished game (``1 / players``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from sim.engine.strategies.registry import STRATEGIES, StrategyError, parse_params
from sim.rules import Rules

CHUNK = 1 << 17  # slots or games per engine call (bounds memory, drives the progress bar)
FORMATS = ("hands", "games")


@dataclass(frozen=True)
class Contestant:
    """One side of a duel: a strategy name and its ``STRATEGY.NAME=VALUE`` settings.

    A setting may omit the strategy (``aggression=0.3`` means
    ``heuristic.aggression=0.3`` for a heuristic contestant).
    """

    strategy: str
    params: tuple[str, ...] = ()

    def settings(self) -> list[str]:
        """The settings, each prefixed with the strategy name where it was omitted."""
        out = []
        for item in self.params:
            key = item.partition("=")[0]
            out.append(item if "." in key else f"{self.strategy}.{item.strip()}")
        return out

    def row(self) -> np.ndarray:
        """This contestant's ``N_STRATEGY_PARAMS`` parameter row (defaults filled in).

        Raises:
            StrategyError: unknown strategy or parameter, or a setting of another strategy.
        """
        if self.strategy not in STRATEGIES:
            known = ", ".join(STRATEGIES)
            raise StrategyError(f"unknown strategy {self.strategy!r} (known: {known})")
        for item in self.settings():
            if item.partition(".")[0].strip() != self.strategy:
                raise StrategyError(
                    f"parameter {item!r} is not a setting of strategy {self.strategy!r}"
                )
        return parse_params([self.strategy], self.settings())[0]

    def resolved(self) -> dict[str, float]:
        """Every parameter of the strategy with the value this contestant plays."""
        row = self.row()
        return {p: float(row[j]) for j, p in enumerate(STRATEGIES[self.strategy].params)}

    @property
    def label(self) -> str:
        """``heuristic(aggression=0.3)``: the name and the settings that differ from defaults."""
        spec = STRATEGIES[self.strategy].params
        diff = [f"{p}={v:g}" for p, v in self.resolved().items() if v != spec[p][0]]
        return f"{self.strategy}({', '.join(diff)})" if diff else self.strategy

    def to_json(self) -> dict[str, Any]:
        """``{"strategy": ..., "params": {...}, "label": ...}``."""
        return {"strategy": self.strategy, "params": self.resolved(), "label": self.label}


@dataclass(frozen=True)
class DuelResult:
    """A duel's outcome.

    Attributes:
        format: ``"hands"`` or ``"games"``.
        rules: the house rules played.
        a: contestant A (the one rotated through the seats).
        b: contestant B.
        size: deals (hands) or games per rotation.
        seed: the run's seed.
        first_dealer: the fixed first dealer of every game, or None (drawn per game).
        summary: one row per measure: ``measure, value, ci_low, ci_high, n, reference,
            difference, excludes_reference, meaning``.
        seats: one row per seat of A.
        items: one row per deal (``deal_id``) or game (``game_id``) with the paired
            score differences.
    """

    format: str
    rules: Rules
    a: Contestant
    b: Contestant
    size: int
    seed: int
    first_dealer: int | None
    summary: pl.DataFrame
    seats: pl.DataFrame
    items: pl.DataFrame

    def measure(self, name: str) -> dict[str, Any]:
        """The summary row of one measure as a dict."""
        rows = self.summary.filter(pl.col("measure") == name)
        if rows.is_empty():
            raise KeyError(name)
        return rows.row(0, named=True)


# --- playing ---------------------------------------------------------------------------
def seat_setup(
    players: int, a: Contestant, b: Contestant, a_seat: int | None
) -> tuple[list[str], np.ndarray]:
    """Strategy names and the ``seat_params`` table with A at ``a_seat`` (None: B everywhere)."""
    names = [a.strategy if s == a_seat else b.strategy for s in range(players)]
    table = np.stack([a.row() if s == a_seat else b.row() for s in range(players)])
    return names, table


def _chunks(n: int, chunk: int) -> list[tuple[int, int]]:
    return [(start, min(chunk, n - start)) for start in range(0, n, chunk)]


def _check_size(what: str, n: int) -> None:
    if n <= 0:
        raise ValueError(f"{what} must be a positive integer, got {n!r}")


def _hands_columns(
    rules: Rules,
    names: list[str],
    table: np.ndarray,
    deals: int,
    seed: int,
    chunk: int,
    progress: Callable[[int], None] | None,
) -> dict[str, np.ndarray]:
    """Per-deal columns (dealer, declarer, made, conceded, contract, delta by seat)."""
    want = ["dealer", "declarer", "made", "conceded", "contract"] + [
        f"delta_{s}" for s in range(rules.players)
    ]
    from sim.engine.api import play_hands

    parts: dict[str, list[np.ndarray]] = {c: [] for c in want}
    for start, n in _chunks(deals, chunk):
        batch = play_hands(rules, n, seed, names, start=start, seat_params=table)
        for c in want:
            parts[c].append(np.asarray(batch.column(c), dtype=np.int64))
        if progress is not None:
            progress(n)
    return {c: np.concatenate(v) for c, v in parts.items()}


def duel_hands(
    rules: Rules,
    a: Contestant,
    b: Contestant,
    deals: int,
    seed: int,
    *,
    chunk: int = CHUNK,
    progress: Callable[[int], None] | None = None,
) -> DuelResult:
    """Duplicate duel of single deals: A at each seat in turn against B everywhere.

    Every deal id is played ``players + 1`` times (B at every seat, then A at seat
    ``s`` for each ``s``) from the same seed. With 4 players the dealer sits out and
    scores the talon the same in both runs, so A's rotation through the dealer's seat
    adds 0: the difference is per deal dealt, not per deal A played.

    Args:
        rules: house rules (2, 3 or 4 players).
        a: contestant A.
        b: contestant B.
        deals: deal ids ``0 .. deals-1``.
        seed: the run's seed.
        chunk: deal ids per engine call.
        progress: called with the number of deals just played (``(players + 1) * deals``
            in all).

    Returns:
        The :class:`DuelResult` (``items``: one row per deal id).
    """
    _check_size("deals", deals)
    players = rules.players
    base = _hands_columns(rules, *seat_setup(players, a, b, None), deals, seed, chunk, progress)
    diff = np.zeros((deals, players), dtype=np.float64)
    a_stats = np.zeros((players, 4), dtype=np.int64)  # declared, made, conceded, contract sum
    b_stats = np.zeros((players, 4), dtype=np.int64)
    a_contracts: list[np.ndarray] = []
    for s in range(players):
        run = _hands_columns(rules, *seat_setup(players, a, b, s), deals, seed, chunk, progress)
        diff[:, s] = run[f"delta_{s}"] - base[f"delta_{s}"]
        for stats, cols in ((a_stats, run), (b_stats, base)):
            mine = cols["declarer"] == s
            stats[s] = (
                mine.sum(),
                (mine & (cols["made"] == 1)).sum(),
                (mine & (cols["conceded"] == 1)).sum(),
                cols["contract"][mine].sum(),
            )
        a_contracts.append(run["contract"][run["declarer"] == s])
    b_contracts = base["contract"][base["declarer"] >= 0]
    per_deal = diff.mean(axis=1)
    items = pl.DataFrame(
        {
            "deal_id": np.arange(deals, dtype=np.int64),
            "dealer": base["dealer"],
            "score_diff": per_deal,
            **{f"score_diff_{s}": diff[:, s] for s in range(players)},
        }
    )
    from analysis.stats import wilson_interval

    seat_rows = []
    for s in range(players):
        m, lo, hi = _mean_interval(diff[:, s])
        ad, am, _, _ = (int(x) for x in a_stats[s])
        bd, bm, _, _ = (int(x) for x in b_stats[s])
        (a_lo, b_lo), (a_hi, b_hi) = wilson_interval([am, bm], [ad, bd])
        seat_rows.append(
            {
                "seat": s,
                "score_diff": m,
                "ci_low": lo,
                "ci_high": hi,
                "a_declared": ad,
                "a_made": am,
                "a_make_rate": _rate(am, ad),
                "a_ci_low": _num(a_lo),
                "a_ci_high": _num(a_hi),
                "b_declared": bd,
                "b_made": bm,
                "b_make_rate": _rate(bm, bd),
                "b_ci_low": _num(b_lo),
                "b_ci_high": _num(b_hi),
            }
        )
    seats_n = deals * players
    at, bt = a_stats.sum(axis=0), b_stats.sum(axis=0)
    rows = [
        _mean_row("score_diff", per_deal, 0.0, "points per deal: A's seat with A there − with B"),
        _rate_row(
            "a_declare_rate", int(at[0]), seats_n, None, "share of A's seat-deals A declared"
        ),
        _rate_row("b_declare_rate", int(bt[0]), seats_n, None, "the same seat-deals declared by B"),
        _rate_row("a_make_rate", int(at[1]), int(at[0]), None, "A's contracts made"),
        _rate_row("b_make_rate", int(bt[1]), int(bt[0]), None, "B's contracts made"),
        _rate_row("a_concede_rate", int(at[2]), int(at[0]), None, "A's contracts conceded"),
        _rate_row("b_concede_rate", int(bt[2]), int(bt[0]), None, "B's contracts conceded"),
        _mean_row("a_mean_contract", np.concatenate(a_contracts), None, "A's mean contract"),
        _mean_row("b_mean_contract", b_contracts, None, "B's mean contract"),
    ]
    return DuelResult(
        "hands", rules, a, b, deals, seed, None, _summary(rows), _seats(seat_rows), items
    )


def duel_games(
    rules: Rules,
    a: Contestant,
    b: Contestant,
    games: int,
    seed: int,
    *,
    first_dealer: int | None = None,
    chunk: int = CHUNK,
    progress: Callable[[int], None] | None = None,
) -> DuelResult:
    """Duplicate duel of whole games: game ``g`` played once with A at each seat.

    A's win rate counts finished games only; unfinished games (no winner after the
    protocol's deal cap) are counted apart, not as losses. The score difference of a
    game id is the mean over A's seats of [A's final score − the mean B final score];
    it includes unfinished games (their scores when play stopped).

    Args:
        rules: house rules (2, 3 or 4 players).
        a: contestant A.
        b: contestant B.
        games: game ids ``0 .. games-1``.
        seed: the run's seed.
        first_dealer: fix the first dealer of every game; None draws it per game id
            (the same in every rotation).
        chunk: games per engine call.
        progress: called with the number of games just played (``players * games`` in all).

    Returns:
        The :class:`DuelResult` (``items``: one row per game id).
    """
    from sim.engine.game import play_games

    _check_size("games", games)
    players = rules.players
    diff = np.zeros((games, players), dtype=np.float64)
    won = np.zeros((games, players), dtype=bool)
    finished = np.zeros((games, players), dtype=bool)
    dealers = np.zeros(games, dtype=np.int64)
    for s in range(players):
        names, table = seat_setup(players, a, b, s)
        for start, n in _chunks(games, chunk):
            batch = play_games(
                rules, n, seed, names, start=start, first_dealer=first_dealer, seat_params=table
            )
            scores = np.stack([batch.column(f"score_{t}") for t in range(players)], axis=1)
            scores = scores.astype(np.float64)
            others = (scores.sum(axis=1) - scores[:, s]) / (players - 1)
            sl = slice(start, start + n)
            diff[sl, s] = scores[:, s] - others
            winner = batch.column("winner")
            finished[sl, s] = (batch.column("unfinished") == 0) & (winner >= 0)
            won[sl, s] = finished[sl, s] & (winner == s)
            dealers[sl] = batch.column("first_dealer")
            if progress is not None:
                progress(n)
    per_game = diff.mean(axis=1)
    items = pl.DataFrame(
        {
            "game_id": np.arange(games, dtype=np.int64),
            "first_dealer": dealers,
            "score_diff": per_game,
            "a_wins": won.sum(axis=1).astype(np.int64),
            "finished": finished.sum(axis=1).astype(np.int64),
            **{f"score_diff_{s}": diff[:, s] for s in range(players)},
        }
    )
    from analysis.stats import wilson_interval

    fair = 1.0 / players
    seat_rows = []
    for s in range(players):
        w, f = int(won[:, s].sum()), int(finished[:, s].sum())
        lo, hi = wilson_interval(w, f)
        m, mlo, mhi = _mean_interval(diff[:, s])
        seat_rows.append(
            {
                "seat": s,
                "games": games,
                "finished": f,
                "a_wins": w,
                "a_win_rate": _rate(w, f),
                "ci_low": _num(lo),
                "ci_high": _num(hi),
                "score_diff": m,
                "score_ci_low": mlo,
                "score_ci_high": mhi,
            }
        )
    rows = [
        _rate_row(
            "a_win_rate",
            int(won.sum()),
            int(finished.sum()),
            fair,
            "A's wins / finished games, all seats of A (fair share 1/players)",
        ),
        _mean_row("score_diff", per_game, 0.0, "final score: A − mean of the B seats, per game"),
        _rate_row(
            "unfinished_rate",
            int((~finished).sum()),
            games * players,
            None,
            "games without a winner (not counted as losses)",
        ),
    ]
    return DuelResult(
        "games",
        rules,
        a,
        b,
        games,
        seed,
        first_dealer,
        _summary(rows),
        _seats(seat_rows),
        items,
    )


# --- statistics ------------------------------------------------------------------------
def _num(x: Any) -> float | None:
    v = float(x)
    return v if np.isfinite(v) else None


def _rate(hits: int, n: int) -> float | None:
    return hits / n if n else None


def _mean_interval(values: np.ndarray) -> tuple[float | None, float | None, float | None]:
    """Mean and its 95 % normal interval ``mean ± z·sd/√n`` (None where undefined)."""
    from analysis.stats import Z95

    n = len(values)
    if n == 0:
        return None, None, None
    m = float(values.mean())
    if n < 2:
        return m, None, None
    half = Z95 * float(values.std(ddof=1)) / np.sqrt(n)
    return m, m - half, m + half


def _row(
    measure: str,
    value: float | None,
    lo: float | None,
    hi: float | None,
    n: int,
    reference: float | None,
    meaning: str,
) -> dict[str, Any]:
    difference = excludes = None
    if reference is not None and value is not None:
        difference = value - reference
        if lo is not None and hi is not None:
            excludes = not lo <= reference <= hi
    return {
        "measure": measure,
        "value": value,
        "ci_low": lo,
        "ci_high": hi,
        "n": n,
        "reference": reference,
        "difference": difference,
        "excludes_reference": excludes,
        "meaning": meaning,
    }


def _rate_row(
    measure: str, hits: int, n: int, reference: float | None, meaning: str
) -> dict[str, Any]:
    from analysis.stats import wilson_interval

    lo, hi = wilson_interval(hits, n)
    return _row(measure, _rate(hits, n), _num(lo), _num(hi), n, reference, meaning)


def _mean_row(
    measure: str, values: np.ndarray, reference: float | None, meaning: str
) -> dict[str, Any]:
    m, lo, hi = _mean_interval(np.asarray(values, dtype=np.float64))
    return _row(measure, m, lo, hi, len(values), reference, meaning)


def _summary(rows: list[dict[str, Any]]) -> pl.DataFrame:
    schema = {
        "measure": pl.String,
        "value": pl.Float64,
        "ci_low": pl.Float64,
        "ci_high": pl.Float64,
        "n": pl.Int64,
        "reference": pl.Float64,
        "difference": pl.Float64,
        "excludes_reference": pl.Boolean,
        "meaning": pl.String,
    }
    return pl.DataFrame(rows, schema=schema)


def _seats(rows: list[dict[str, Any]]) -> pl.DataFrame:
    ints = {"seat", "games", "finished", "a_wins", "a_declared", "a_made", "b_declared", "b_made"}
    schema = {k: (pl.Int64 if k in ints else pl.Float64) for k in rows[0]}
    return pl.DataFrame(rows, schema=schema)


# --- documents ---------------------------------------------------------------------------
def duel_json(result: DuelResult) -> dict[str, Any]:
    """The ``duel --json`` document (JSON-safe: no NaN)."""
    from analysis.tables import tables_json

    measures = {
        row["measure"]: {k: v for k, v in row.items() if k != "measure"}
        for row in tables_json({"s": result.summary})["s"]
    }
    doc: dict[str, Any] = {
        "command": "duel",
        "format": result.format,
        "rules": result.rules.name,
        "rules_hash": result.rules.rules_hash,
        "players": result.rules.players,
        "seed": result.seed,
        ("deals" if result.format == "hands" else "games"): result.size,
        "a": result.a.to_json(),
        "b": result.b.to_json(),
        "measures": measures,
        "seats": tables_json({"s": result.seats})["s"],
    }
    if result.format == "games":
        doc["first_dealer"] = result.first_dealer
    return doc


def _verdict(result: DuelResult) -> str:
    """One sentence on the headline measure."""
    m = result.measure("score_diff")
    lo, hi = m["ci_low"], m["ci_high"]
    unit = "per deal" if result.format == "hands" else "per game (final score)"
    if lo is None or hi is None:
        return f"Score difference A − B {unit}: {m['value']:+.2f} (too few items for an interval)."
    text = f"Score difference A − B {unit}: {m['value']:+.2f} [{lo:+.2f}, {hi:+.2f}]"
    if result.format == "games":
        w = result.measure("a_win_rate")
        if w["value"] is not None:
            text += (
                f"; A's win rate {w['value']:.4f} [{w['ci_low']:.4f}, {w['ci_high']:.4f}] "
                f"against the fair share {w['reference']:.4f} ({w['difference']:+.4f}, "
                + ("interval excludes it" if w["excludes_reference"] else "compatible with it")
                + ")"
            )
    elif m["excludes_reference"]:
        text += " — the interval excludes 0"
    else:
        text += " — compatible with 0"
    return text + "."


def duel_markdown(result: DuelResult) -> str:
    """The Markdown report of a duel: verdict, summary measures, seats."""
    from analysis.tables import to_markdown

    r = result
    size = f"{r.size:,} {'deals' if r.format == 'hands' else 'games'}"
    rotations = r.rules.players + (1 if r.format == "hands" else 0)
    dealer = ""
    if r.format == "games":
        dealer = (
            "; first dealer drawn per game"
            if r.first_dealer is None
            else f"; first dealer seat {r.first_dealer}"
        )
    head = (
        f"# Strategy duel — A `{r.a.label}` vs B `{r.b.label}`\n\n"
        f"Rules `{r.rules.name}` (hash {r.rules.rules_hash}), {r.rules.players} players, "
        f"{r.format} format: {size} × {rotations} replays, seed {r.seed}{dealer}. "
        "A sits at each seat in turn with B at the others, on the same deals. "
        "Rates: 95 % Wilson intervals; means: mean ± 1.96·sd/√n over deal or game ids."
    )
    note = (
        "Win-rate intervals treat the rotations of one game as independent; rotations "
        "of a game are negatively correlated (one seat's win is another's loss), so the "
        "interval is conservative."
        if r.format == "games"
        else "`score_diff_s` in the seat table is the difference when A sits at seat s "
        "(with 4 players A sits out as dealer in a quarter of the deals)."
    )
    parts = [
        head,
        _verdict(r),
        "## Summary\n\n" + to_markdown(r.summary, floats="{:.4f}").rstrip(),
        "## By seat of A\n\n" + note + "\n\n" + to_markdown(r.seats, floats="{:.4f}").rstrip(),
    ]
    return "\n\n".join(parts) + "\n"


def write_duel_dir(
    result: DuelResult, out: Path, manifest_extra: dict[str, Any] | None = None
) -> None:
    """Write ``duel_summary.csv``, ``duel_seats.csv``, ``duel.md``, ``duel.json``,
    ``duel_deals.parquet`` or ``duel_games.parquet``, and ``run.json`` (never half-written).
    """  # noqa: D205
    from sim.output import StagedDir, run_manifest, write_json

    sizes = {("deals" if result.format == "hands" else "games"): result.size}
    with StagedDir(out) as staged:
        result.summary.write_csv(staged.path / "duel_summary.csv")
        result.seats.write_csv(staged.path / "duel_seats.csv")
        result.items.write_parquet(staged.path / f"duel_{next(iter(sizes))}.parquet")
        (staged.path / "duel.md").write_text(duel_markdown(result), encoding="utf-8")
        write_json(staged.path / "duel.json", duel_json(result))
        write_json(
            staged.path / "run.json",
            run_manifest(
                result.rules,
                result.seed,
                sizes,
                command="duel",
                format=result.format,
                a=result.a.to_json(),
                b=result.b.to_json(),
                first_dealer=result.first_dealer,
                **(manifest_extra or {}),
            ),
        )


# --- command line ------------------------------------------------------------------------
def add_duel_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``duel`` subcommand to the ``thousand`` subparsers; return its parser."""
    from sim.cli import _common, _positive_int, _seed

    p = subparsers.add_parser(
        "duel",
        help="compare two strategies or settings in duplicate format",
        description=(
            "Play the same deals or games with contestant A at each seat in turn and B at "
            "the others; report the score difference per deal and A's game win rate."
        ),
    )
    _common(p)
    p.add_argument("--a", required=True, metavar="STRATEGY", help="contestant A's strategy")
    p.add_argument(
        "--a-param",
        action="append",
        default=[],
        metavar="[STRATEGY.]NAME=VALUE",
        help="A's parameter, e.g. heuristic.aggression=0.3 (repeatable)",
    )
    p.add_argument(
        "--b", default="heuristic", metavar="STRATEGY", help="contestant B (default: heuristic)"
    )
    p.add_argument(
        "--b-param",
        action="append",
        default=[],
        metavar="[STRATEGY.]NAME=VALUE",
        help="B's parameter (repeatable)",
    )
    size = p.add_mutually_exclusive_group(required=True)
    size.add_argument("--deals", type=_positive_int, help="duel on N single deals")
    size.add_argument("--games", type=_positive_int, help="duel on N whole games")
    p.add_argument("--seed", type=_seed, default=0)
    p.add_argument(
        "--first-dealer",
        type=int,
        default=None,
        help="games: fix the first dealer of every game (default: drawn per game)",
    )
    p.add_argument("--json", action="store_true", help="one JSON document on stdout")
    p.add_argument("--out", default=None, help="folder for CSV, Markdown, JSON and run.json")
    p.add_argument("--force", action="store_true", help="write into a non-empty --out")
    p.set_defaults(func=cmd_duel)
    return p


def _contestant(flag: str, strategy: str, params: Sequence[str]) -> Contestant:
    """A validated contestant; errors name the flag."""
    c = Contestant(strategy.strip(), tuple(params))
    try:
        c.row()
    except StrategyError as exc:
        raise StrategyError(f"--{flag}: {exc}") from None
    return c


def cmd_duel(args: argparse.Namespace) -> int:
    """``thousand duel``: A against B in duplicate format; Markdown or JSON on stdout."""
    from sim.cli import _json_safe, _progress, _set_workers
    from sim.output import UsageError, check_out_dir, now_iso
    from sim.rules import load_rules

    if args.out is not None:
        check_out_dir(args.out, args.force)
    rules = load_rules(args.rules)
    a = _contestant("a", args.a, args.a_param)
    b = _contestant("b", args.b, args.b_param)
    first = args.first_dealer
    if first is not None and args.games is None:
        raise UsageError("--first-dealer: only with --games")
    if first is not None and first not in range(rules.players):
        raise UsageError(
            f"--first-dealer {first}: a seat 0..{rules.players - 1} of {rules.players} players"
        )
    _set_workers(args.workers)
    started = now_iso()
    t0 = time.perf_counter()
    if args.deals is not None:
        with _progress((rules.players + 1) * args.deals, args.quiet, "deal") as bar:
            result = duel_hands(rules, a, b, args.deals, args.seed, progress=bar.update)
    else:
        with _progress(rules.players * args.games, args.quiet, "game") as bar:
            result = duel_games(
                rules, a, b, args.games, args.seed, first_dealer=first, progress=bar.update
            )
    seconds = time.perf_counter() - t0
    if args.out is not None:
        extra = {"started": started, "ended": now_iso(), "seconds": seconds}
        write_duel_dir(result, Path(args.out), extra)
    if args.json:
        print(json.dumps(_json_safe(duel_json(result))))
    else:
        print(duel_markdown(result), end="")
    if not args.quiet and args.out is not None:
        print(f"duel written to {args.out}/duel.md", file=sys.stderr)
    return 0
