"""Strategy duels: two strategies (or two settings of one) played in duplicate format.

Contestant A is tried at every seat in turn with B at all the others, on the same
deals (the same seed, so the same cards and random streams, PROTOCOL.md "Inputs");

* ``hands``: every deal is also played with B at every seat; the per-deal score
  difference is the mean over seats ``s`` of [seat ``s``'s delta with A at ``s``]
  minus [seat ``s``'s delta with B everywhere]. That counts A's own seat only, so a
  better defence (the declarer at another seat scoring less) does not show in it;
  the *margin* difference does: the same with each run's seat ``s`` delta minus the
  mean delta of the other seats.
* ``games``: game ``g`` is played once per seat of A; the final score difference is
  A minus the mean of the B seats, averaged per game id, and every rotation's winner
  is kept.

With A = B every rotation replays the same deal or game, so the score difference is
exactly 0 and A wins exactly one rotation of each finished game (``1 / players``).

This module plays and writes (``duel_deals.parquet`` or ``duel_games.parquet`` and
``run.json``); the statistics (intervals, rates, the verdict) are
:mod:`analysis.duel`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from sim.engine.strategies.registry import STRATEGIES, StrategyError, parse_params
from sim.i18n import _
from sim.rules import Rules
from sim.schema.runs import DUEL_DECISIONS as DECISIONS

CHUNK = 1 << 17  # slots or games per engine call (bounds memory, drives the progress bar)


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
            why = _("unknown strategy {name}{hint} (known: {known})")
            known = ", ".join(STRATEGIES)
            raise StrategyError(why.format(name=repr(self.strategy), hint="", known=known))
        for item in self.settings():
            if item.partition(".")[0].strip() != self.strategy:
                why = _("parameter {item} is not a setting of strategy {strategy}")
                raise StrategyError(why.format(item=repr(item), strategy=repr(self.strategy)))
        return parse_params([self.strategy], self.settings())[0]

    def resolved(self) -> dict[str, float]:
        """Every parameter of the strategy with the value this contestant plays."""
        row = self.row()
        return {p: float(row[j]) for j, p in enumerate(STRATEGIES[self.strategy].params)}

    @property
    def label(self) -> str:
        """``heuristic(aggression=0.3)``: the name and the settings that differ from defaults."""
        spec = STRATEGIES[self.strategy].params
        diff = [f"{p}={v:g}" for p, v in self.resolved().items() if v != spec[p].default]
        return f"{self.strategy}({', '.join(diff)})" if diff else self.strategy

    def to_json(self) -> dict[str, Any]:
        """``{"strategy": ..., "params": {...}, "label": ...}``."""
        return {"strategy": self.strategy, "params": self.resolved(), "label": self.label}


@dataclass(frozen=True)
class DuelRun:
    """A duel as played: the paired differences and the tallies the statistics need.

    Attributes:
        format: ``"hands"`` or ``"games"``.
        rules: the house rules played.
        a: contestant A (the one rotated through the seats).
        b: contestant B.
        size: deals (hands) or games per rotation.
        seed: the run's seed.
        first_dealer: the fixed first dealer of every game, or None (drawn per game).
        items: one row per deal (``deal_id``) or game (``game_id``) with the paired
            score differences: the rows of ``duel_deals.parquet`` or
            ``duel_games.parquet`` (:data:`sim.schema.DUEL_DEALS`, ``DUEL_GAMES``).
        tallies: one row per seat of A. Hands: ``a_declared, a_made, a_conceded``
            (A's contracts from that seat with A there) and ``b_declared, b_made,
            b_conceded`` (B's from that seat with B everywhere). Games: ``games``,
            ``finished`` and ``a_wins`` of the rotation with A there.
        a_contracts: hands: the contracts A declared, by seat of A then deal.
        b_contracts: hands: the contracts declared with B everywhere, by deal.
    """

    format: str
    rules: Rules
    a: Contestant
    b: Contestant
    size: int
    seed: int
    first_dealer: int | None
    items: pl.DataFrame
    tallies: pl.DataFrame
    a_contracts: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    b_contracts: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    @property
    def item_file(self) -> str:
        """``duel_deals.parquet`` or ``duel_games.parquet``."""
        return f"duel_{'deals' if self.format == 'hands' else 'games'}.parquet"

    @property
    def sizes(self) -> dict[str, int]:
        """The ``sizes`` of ``run.json``: ``{"deals": n}`` or ``{"games": n}``."""
        return {("deals" if self.format == "hands" else "games"): self.size}


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
    want = [
        "dealer", "declarer", "made", "conceded", "contract", "redeals", "winning_bid",
        "discard_1", "discard_2", "trump_named",
    ] + [f"delta_{s}" for s in range(rules.players)] + [
        f"max_bid_{s}" for s in range(rules.players)
    ]  # fmt: skip
    from sim.engine.api import play_hands

    parts: dict[str, list[np.ndarray]] = {c: [] for c in want}
    for start, n in _chunks(deals, chunk):
        batch = play_hands(rules, n, seed, names, start=start, seat_params=table)
        for c in want:
            parts[c].append(np.asarray(batch.column(c), dtype=np.int64))
        if progress is not None:
            progress(n)
    return {c: np.concatenate(v) for c, v in parts.items()}


def _margin(cols: dict[str, np.ndarray], seat: int, players: int) -> np.ndarray:
    """Per deal: ``seat``'s score change minus the mean change of the other seats."""
    total = sum(cols[f"delta_{t}"] for t in range(players))
    mine = cols[f"delta_{seat}"]
    return mine - (total - mine) / (players - 1)


def first_difference(
    run: dict[str, np.ndarray], base: dict[str, np.ndarray], seat: int, players: int
) -> np.ndarray:
    """Per deal, the index in :data:`DECISIONS` of the first decision that differs.

    ``run``: the deals with A at ``seat``; ``base``: with B everywhere (the columns of
    :func:`_hands_columns`). The tests in the order the deal runs; the first that holds
    names the deal's decision (0, ``none``, where none does).
    """
    mine = base["declarer"] == seat
    changed = np.zeros(len(mine), dtype=bool)
    for s in range(players):
        changed |= run[f"delta_{s}"] != base[f"delta_{s}"]
    tests = {
        "reshuffle": run["redeals"] != base["redeals"],
        "auction": (run[f"max_bid_{seat}"] != base[f"max_bid_{seat}"])
        | (run["declarer"] != base["declarer"])
        | (run["winning_bid"] != base["winning_bid"]),
        "discard": mine
        & ((run["discard_1"] != base["discard_1"]) | (run["discard_2"] != base["discard_2"])),
        "trump": mine & (run["trump_named"] != base["trump_named"]),
        "contract_lower": mine & (run["contract"] < base["contract"]),
        "contract_higher": mine & (run["contract"] > base["contract"]),
        "concession": mine & (run["conceded"] != base["conceded"]),
        "declarer_play": mine & changed,
        "defence": ~mine & (base["declarer"] >= 0) & changed,
    }
    return np.select(list(tests.values()), [DECISIONS.index(k) for k in tests], 0)


def duel_hands(
    rules: Rules,
    a: Contestant,
    b: Contestant,
    deals: int,
    seed: int,
    *,
    chunk: int = CHUNK,
    progress: Callable[[int], None] | None = None,
) -> DuelRun:
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
        The :class:`DuelRun` (``items``: one row per deal id).
    """
    _check_size("deals", deals)
    players = rules.players
    base = _hands_columns(rules, *seat_setup(players, a, b, None), deals, seed, chunk, progress)
    diff = np.zeros((deals, players), dtype=np.float64)
    margin = np.zeros((deals, players), dtype=np.float64)
    a_stats = np.zeros((players, 3), dtype=np.int64)  # declared, made, conceded
    b_stats = np.zeros((players, 3), dtype=np.int64)
    a_contracts: list[np.ndarray] = []
    decision = np.zeros((deals, players), dtype=np.int64)
    for s in range(players):
        run = _hands_columns(rules, *seat_setup(players, a, b, s), deals, seed, chunk, progress)
        decision[:, s] = first_difference(run, base, s, players)
        diff[:, s] = run[f"delta_{s}"] - base[f"delta_{s}"]
        margin[:, s] = _margin(run, s, players) - _margin(base, s, players)
        for stats, cols in ((a_stats, run), (b_stats, base)):
            mine = cols["declarer"] == s
            stats[s] = (
                mine.sum(),
                (mine & (cols["made"] == 1)).sum(),
                (mine & (cols["conceded"] == 1)).sum(),
            )
        a_contracts.append(run["contract"][run["declarer"] == s])
    items = pl.DataFrame(
        {
            "deal_id": np.arange(deals, dtype=np.int64),
            "dealer": base["dealer"],
            "score_diff": diff.mean(axis=1),
            **{f"score_diff_{s}": diff[:, s] for s in range(players)},
            "margin_diff": margin.mean(axis=1),
            **{f"margin_diff_{s}": margin[:, s] for s in range(players)},
            **{
                f"decision_{s}": pl.Series(np.asarray(DECISIONS)[decision[:, s]], dtype=pl.String)
                for s in range(players)
            },
        }
    )
    tallies = pl.DataFrame(
        {
            "seat": np.arange(players, dtype=np.int64),
            "a_declared": a_stats[:, 0],
            "a_made": a_stats[:, 1],
            "a_conceded": a_stats[:, 2],
            "b_declared": b_stats[:, 0],
            "b_made": b_stats[:, 1],
            "b_conceded": b_stats[:, 2],
        }
    )
    return DuelRun(
        "hands", rules, a, b, deals, seed, None, items, tallies,
        a_contracts=np.concatenate(a_contracts),
        b_contracts=base["contract"][base["declarer"] >= 0],
    )  # fmt: skip


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
) -> DuelRun:
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
        The :class:`DuelRun` (``items``: one row per game id).
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
    items = pl.DataFrame(
        {
            "game_id": np.arange(games, dtype=np.int64),
            "first_dealer": dealers,
            "score_diff": diff.mean(axis=1),
            "a_wins": won.sum(axis=1).astype(np.int64),
            "finished": finished.sum(axis=1).astype(np.int64),
            **{f"score_diff_{s}": diff[:, s] for s in range(players)},
        }
    )
    tallies = pl.DataFrame(
        {
            "seat": np.arange(players, dtype=np.int64),
            "games": np.full(players, games, dtype=np.int64),
            "finished": finished.sum(axis=0).astype(np.int64),
            "a_wins": won.sum(axis=0).astype(np.int64),
        }
    )
    return DuelRun("games", rules, a, b, games, seed, first_dealer, items, tallies)


def write_duel_run(
    run: DuelRun, folder: Path, manifest_extra: dict[str, Any] | None = None
) -> None:
    """Write the duel's items (``duel_deals.parquet`` or ``duel_games.parquet``) and ``run.json``.

    Args:
        run: the duel.
        folder: an existing folder (a staged one: :class:`sim.output.StagedDir`).
        manifest_extra: more keys of ``run.json`` (``started``, ``ended``, ``seconds``).
    """
    from sim.output import write_manifest

    run.items.write_parquet(folder / run.item_file)
    write_manifest(
        folder,
        run.rules,
        run.seed,
        run.sizes,
        command="duel",
        format=run.format,
        a=run.a.to_json(),
        b=run.b.to_json(),
        first_dealer=run.first_dealer,
        **(manifest_extra or {}),
    )
