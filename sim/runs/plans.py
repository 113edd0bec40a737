"""Deals played out once per choice of one seat in the auction: what each choice scores.

The advisor (and its benchmark) compare a seat's choices in the auction by playing
them: on the same dealt cards, the seat follows a *plan* (pass, or raise to the lowest
raise open to it while that raise is at most level ``L``) and the table's player makes
every other decision, the seat's own after the auction included
(:mod:`sim.engine.plans`). :func:`play_plans` plays every plan of every deal at once:
a deal is played once with the seat raising to its cap, which lists the raises it is
offered, then once more per turn at which it could pass; :meth:`PlanPlay.rows` gives
the rows of any plan level from those.

A deal's worth to a seat is its *margin*: the seat's deal score minus the mean of the
other seats' (the measure of the duels); :func:`margins` reads it from the rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sim.engine.deal import n_hands
from sim.engine.params import rules_vector
from sim.engine.state import B_BOLT, B_DELTA, MAX_SEATS, N_ROW, R_SEAT0, ROW
from sim.parallel import threads_now
from sim.players import fast
from sim.rng import Stream, stream_key
from sim.rules import Rules

PASS_PLAN = 0
"""The plan level of passing at the first turn (any level below the lowest raise)."""


@dataclass(frozen=True)
class PlanPlay:
    """Every plan of one seat on ``n`` deals, as played (:func:`play_plans`).

    Attributes:
        players: the game's players (the rows' game seats).
        me: the seat's hand seat (its game seat too: with four players the dealer
            sits out as game seat 3).
        first: ``(n, N_ROW)`` rows of the seat raising whenever it may (never passing).
        turns: ``(n, MAX_TURNS)`` the lowest raise offered at each of its turns.
        n_turns: ``(n,)`` how many turns it had (at most ``MAX_TURNS`` are listed).
        passed: ``(m, N_ROW)`` rows of the seat passing at a turn, deal by deal and
            turn by turn (``offsets[k] + t``: deal ``k`` passing at turn ``t``).
        offsets: ``(n,)`` where deal ``k``'s passes start in ``passed``.
    """

    players: int
    me: int
    first: np.ndarray
    turns: np.ndarray
    n_turns: np.ndarray
    passed: np.ndarray
    offsets: np.ndarray

    def __len__(self) -> int:
        return int(self.first.shape[0])

    def head(self, n: int) -> PlanPlay:
        """The first ``n`` deals."""
        n = min(n, len(self))
        end = int(self.offsets[n]) if n < len(self) else self.passed.shape[0]
        return PlanPlay(self.players, self.me, self.first[:n], self.turns[:n],
                        self.n_turns[:n], self.passed[:end], self.offsets[:n])  # fmt: skip

    @staticmethod
    def joined(parts: Sequence[PlanPlay]) -> PlanPlay:
        """The deals of ``parts`` one after another (blocks of one run)."""
        a = parts[0]
        sizes = np.cumsum([0] + [p.passed.shape[0] for p in parts[:-1]])
        return PlanPlay(
            a.players, a.me, np.concatenate([p.first for p in parts]),
            np.concatenate([p.turns for p in parts]), np.concatenate([p.n_turns for p in parts]),
            np.concatenate([p.passed for p in parts]),
            np.concatenate([p.offsets + k for p, k in zip(parts, sizes, strict=True)]),
        )  # fmt: skip

    def pass_turn(self, level: int) -> np.ndarray:
        """The turn at which plan ``level`` passes, deal by deal (-1: it never does)."""
        from sim.engine.plans import MAX_TURNS

        listed = np.minimum(self.n_turns, MAX_TURNS)
        over = (self.turns > level) & (np.arange(MAX_TURNS)[None, :] < listed[:, None])
        return np.where(over.any(axis=1), np.argmax(over, axis=1), -1)

    def rows(self, level: int) -> np.ndarray:
        """``(n, N_ROW)`` rows of plan ``level``: raise while the lowest raise is at most it."""
        t = self.pass_turn(level)
        out = self.first.copy()
        some = t >= 0
        out[some] = self.passed[self.offsets[some] + t[some]]
        return out


def play_plans(
    rules: Rules,
    masks: np.ndarray,
    me: int,
    seed: int,
    player: str = "strong",
    params: Sequence[str] = (),
    prefix: Sequence[int] = (),
    scores: Sequence[int] | None = None,
    flags: int = 0,
    seat_players: Sequence[str] | None = None,
    start: int = 0,
) -> PlanPlay:
    """Play every plan of hand seat ``me`` on each deal of ``masks`` (hand places).

    Args:
        rules: the house rules.
        masks: ``(n, 4)`` place masks (hands from forehand, then the talon places).
        me: the hand seat choosing (0 forehand, then clockwise; the dealer is the last).
        seed: the run's seed: the players' random streams of deal ``k`` are its ``k``-th.
        player: who makes every decision but the seat's bids (every seat).
        params: ``STRATEGY.NAME=VALUE`` settings of the players.
        prefix: the auction so far after forehand's automatic 100, in turn: each bid's
            amount, 0 for a pass (it must be legal for every deal: the caller's
            deals allow it).
        scores: the hand seats' game scores (zeros by default).
        flags: the deal's hand inputs (``S_FLAGS``: who sits on the barrel, who may
            not concede).
        seat_players: one player per hand seat instead of ``player`` everywhere.
        start: the number of the first deal (its random streams), so blocks line up.
    """
    from sim.engine.plans import MAX_TURNS, plans_kernel
    from sim.engine.strategies.addresses import hooks_for
    from sim.engine.strategies.registry import H_PLAY_PLANS, seat_lineup, strategy_ids

    hands = n_hands(rules.players)
    if not 0 <= me < hands:
        raise ValueError(f"me must be a hand seat 0..{hands - 1}, got {me}")
    names, sp = seat_lineup(hands, list(seat_players or [player]), params)
    ids = strategy_ids(names)
    sc = np.zeros(hands, np.int64) if scores is None else np.array(scores, dtype=np.int64)
    if sc.shape != (hands,):
        raise ValueError(f"{hands} scores needed (one per hand seat), got {len(sc)}")
    keys = np.array(
        [stream_key(seed, s) for s in (Stream.STRATEGY, Stream.TIEBREAK)], dtype=np.uint64
    )
    hooks = hooks_for(ids, (H_PLAY_PLANS, "sim.engine.plans", "play_plans_entry"))
    P = rules_vector(rules)
    pre = np.array(list(prefix), dtype=np.int64)
    block = 64 if all(fast(p) for p in names) else 2
    masks = np.ascontiguousarray(masks, dtype=np.uint32)
    n = masks.shape[0]

    def play(m: np.ndarray, numbers: np.ndarray, pass_turns: np.ndarray) -> tuple:
        k = len(numbers)
        rows = np.zeros((k, N_ROW), dtype=np.int32)
        turns = np.zeros((k, MAX_TURNS), dtype=np.int64)
        n_turns = np.zeros(k, dtype=np.int64)
        if k:
            plans_kernel(
                m, numbers, pass_turns, pre, me, flags, rules.players,
                np.full((k, 2), -1, np.int64), np.zeros(k, np.int64), 0, keys, P, ids, sp, sc,
                hooks, rows, turns, n_turns, block, threads_now(),
            )  # fmt: skip
        return rows, turns, n_turns

    numbers = start + np.arange(n, dtype=np.int64)
    first, turns, n_turns = play(masks, numbers, np.full(n, -1, dtype=np.int64))
    listed = np.minimum(n_turns, MAX_TURNS)
    offsets = np.concatenate([[0], np.cumsum(listed)[:-1]]).astype(np.int64)
    deal_of = np.repeat(np.arange(n, dtype=np.int64), listed)
    turn_of = np.arange(int(listed.sum()), dtype=np.int64) - np.repeat(offsets, listed)
    passed, _t, _n = play(np.ascontiguousarray(masks[deal_of]), numbers[deal_of], turn_of)
    return PlanPlay(rules.players, me, first, turns, n_turns, passed, offsets)


def play_contracts(
    rules: Rules,
    masks: np.ndarray,
    me: int,
    bid: int,
    gives: Sequence[tuple[int, int]],
    contracts: Sequence[Sequence[int]],
    seed: int,
    player: str = "strong",
    params: Sequence[str] = (),
    start: int = 0,
) -> np.ndarray:
    """Each deal played with hand seat ``me`` winning at ``bid``, once per give and contract.

    Three active players. The seat takes the talon (``masks[:, 3]``), gives
    ``gives[g]`` (the card to the left, then to the right), names each of
    ``contracts[g]`` in turn and plays it out (no concession); ``player`` makes every
    other decision. The plays of one deal share its random streams (deal ``start + k``).
    Returns ``(n, len(gives), max contracts)`` rows of :data:`N_ROW` columns (zeros
    beyond a give's contracts).
    """
    from sim.engine.plans import MAX_TURNS, plans_kernel
    from sim.engine.strategies.addresses import hooks_for
    from sim.engine.strategies.registry import H_PLAY_PLANS, seat_lineup, strategy_ids

    hands = n_hands(rules.players)
    if hands != 3:
        raise ValueError("the cards given: three active players only")
    names, sp = seat_lineup(hands, [player], params)
    ids = strategy_ids(names)
    keys = np.array(
        [stream_key(seed, s) for s in (Stream.STRATEGY, Stream.TIEBREAK)], dtype=np.uint64
    )
    hooks = hooks_for(ids, (H_PLAY_PLANS, "sim.engine.plans", "play_plans_entry"))
    n, width = len(masks), max(len(c) for c in contracts)
    deal, give, level = [], [], []
    for k in range(n):
        for g, levels in enumerate(contracts):
            for c in levels:
                deal.append(k)
                give.append(gives[g])
                level.append(c)
    deal_of = np.array(deal, dtype=np.int64)
    m = len(deal_of)
    rows = np.zeros((m, N_ROW), dtype=np.int32)
    plans_kernel(
        np.ascontiguousarray(np.asarray(masks, dtype=np.uint32)[deal_of]), start + deal_of,
        np.full(m, -1, np.int64), np.zeros(0, np.int64), me, 0, rules.players,
        np.array(give, dtype=np.int64).reshape(m, 2), np.array(level, dtype=np.int64), bid,
        keys, rules_vector(rules), ids, sp, np.zeros(hands, np.int64), hooks, rows,
        np.zeros((m, MAX_TURNS), np.int64), np.zeros(m, np.int64),
        64 if fast(player) else 2, threads_now(),
    )  # fmt: skip
    out = np.zeros((n, len(gives), width, N_ROW), dtype=np.int32)
    at = 0
    for k in range(n):
        for g, levels in enumerate(contracts):
            out[k, g, : len(levels)] = rows[at : at + len(levels)]
            at += len(levels)
    return out


def plan_columns(plays: PlanPlay, levels: Sequence[int]) -> dict[str, np.ndarray]:
    """Per plan level and deal, what the seat's plan came to: ``(len(levels), n)`` arrays.

    ``margin`` (:func:`margins`), ``own`` (the seat's deal score), ``declared`` (the
    seat won the auction), ``made`` (the declarer made its contract), ``conceded``,
    ``contract`` (the declarer's), ``win_bid``, ``declarer`` (game seat), and
    ``deltas`` (``(len(levels), n, players)``: every seat's deal score) and ``bolts``
    (the same shape: 1 where the seat took a bolt); ``seat``: the seat's game seat.
    """
    seats = plays.players
    out: dict[str, list[np.ndarray]] = {}
    for level in levels:
        rows = plays.rows(int(level))
        decl = rows[:, ROW["declarer"]].astype(np.int64)
        cols = {
            "margin": margins(rows, plays.me, seats),
            "own": rows[:, ROW[f"delta_{plays.me}"]].astype(np.int64),
            "declared": decl == plays.me,
            "made": rows[:, ROW["made"]] != 0,
            "conceded": rows[:, ROW["conceded"]] != 0,
            "contract": rows[:, ROW["contract"]].astype(np.int64),
            "win_bid": rows[:, ROW["winning_bid"]].astype(np.int64),
            "declarer": decl,
            "deltas": rows[:, R_SEAT0 + B_DELTA * MAX_SEATS :][:, :seats].astype(np.int64),
            "bolts": rows[:, R_SEAT0 + B_BOLT * MAX_SEATS :][:, :seats].astype(np.int64),
        }
        for key, value in cols.items():
            out.setdefault(key, []).append(value)
    return {"seat": np.array(plays.me), **{key: np.stack(parts) for key, parts in out.items()}}


def margins(rows: np.ndarray, seat: int, players: int) -> np.ndarray:
    """Per row: game seat ``seat``'s deal score minus the mean of the other seats'."""
    deltas = rows[:, R_SEAT0 + B_DELTA * MAX_SEATS : R_SEAT0 + B_DELTA * MAX_SEATS + players]
    deltas = deltas.astype(np.float64)
    mine = deltas[:, seat]
    return mine - (deltas.sum(axis=1) - mine) / (players - 1)


__all__ = ["PASS_PLAN", "PlanPlay", "margins", "plan_columns", "play_contracts", "play_plans"]
