"""Deals played with one seat following a bid plan: the advisor's played comparison.

The advisor weighs the choices open to a hand in the auction (pass, or bid up to some
level) by playing each one out: the same dealt cards, the other seats and every later
decision (the talon, the discard, the contract, the concession, the cards) by the
table's player, the seat ``me`` following the choice in the auction. A choice is a
*plan*: raise to the lowest raise open to the seat whenever its turn comes and that
raise is at most the plan's level; pass at the first turn where it is not.

Every plan of a deal is decided by where the seat passes: at its ``t``-th turn, or
never. So each item is played once with the seat raising at every turn (``pass_turn``
-1), which lists the lowest raise offered at each of its turns; the plans that pass
at turn ``t`` are then one item each with ``pass_turn = t`` (:func:`sim.runs.plans`
maps a level to its item). Every play of a deal shares its random streams (keyed by
the deal's ``numbers[k]``), so up to the seat's pass the auction is the same.

The auction may have begun: ``prefix`` holds the codes of the bids after forehand's
automatic 100, in turn (a pass is 0), replayed as they are before anyone decides.
No deal is redealt (the cards are given), and no deal is golden or dark.

Each item's row is the hands engine's row in game seats (:data:`ROW_COLUMNS`, as a
hands run writes it: deal scores, bolts, the declarer, its contract ...).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from sim.engine.actions import PASS, Decision
from sim.engine.bidding import apply_bid, open_bidding, raise_range, silenced
from sim.engine.bits import marriages_of, popcount, seat_after
from sim.engine.choose import RANGE, choose
from sim.engine.declarer import forced_auction
from sim.engine.driver import (
    begin_deal,
    bomb,
    concession,
    contract,
    discard,
    game_row,
    named_trump,
    record_auction,
    sample_workspace,
    seat_arrays,
    talon,
    tricks,
    workspace,
)
from sim.engine.params import P_NP
from sim.engine.scoring import score_played
from sim.engine.state import (
    O_CONTRACT,
    O_DECL_MARR_AFTER,
    O_DISCARD1,
    S_CONTRACT,
    S_DECL,
    S_FOREHAND,
    S_HAND0,
    S_NBIDS,
    S_PASSED,
    S_TRACE,
    Workspace,
)
from sim.engine.strategies.registry import H_PLAY_PLANS
from sim.engine.talon import apply_discard, close_bidding, close_discard
from sim.jit import body, call_packed, claim, hot, kernel, packed_type, unpacked
from sim.rng import item_state

MAX_TURNS = 64
"""The seat's raise decisions listed per deal (100 to 400 by 5 is 61 raises)."""


@hot
def planned_bidding(
    P: np.ndarray,
    W: Workspace,
    prefix: np.ndarray,
    me: int,
    pass_turn: int,
    turns: np.ndarray,
) -> int:
    """Phase 2 with ``prefix`` replayed, then ``me`` raising until its ``pass_turn``-th turn.

    ``turns`` gets the lowest raise offered at each of the seat's turns (a turn: a
    raise is open to it); returns how many turns it had. A turn past
    :data:`MAX_TURNS` is a raise, as with ``pass_turn`` -1.
    """
    S = W.S
    NP = P[P_NP]
    f = S[S_FOREHAND]
    open_bidding(S, f, -1)
    nbids = 1
    n_turns = 0
    s = f
    while popcount(S[S_PASSED]) < NP - 1:
        s = seat_after(s, 1, NP)
        if S[S_PASSED] >> s & 1:
            continue
        if nbids - 1 < prefix.shape[0]:
            code = prefix[nbids - 1]
        elif silenced(S, P, s):
            code = PASS
        else:
            lo, count = raise_range(S, P, s)
            if s != me:
                code = choose(Decision.BID, s, P, W, RANGE, 1, lo, count)
            elif count == 0:
                code = PASS
            else:
                if n_turns < MAX_TURNS:
                    turns[n_turns] = lo
                code = PASS if n_turns == pass_turn else lo
                n_turns += 1
        apply_bid(S, s, code)
        nbids += 1
    S[S_NBIDS] = nbids
    close_bidding(S, P)
    record_auction(P, W)
    return n_turns


@body
def play_plans(
    lo: int,
    hi: int,
    masks: np.ndarray,
    numbers: np.ndarray,
    pass_turns: np.ndarray,
    prefix: np.ndarray,
    me: int,
    flags: int,
    players: int,
    gives: np.ndarray,
    contracts: np.ndarray,
    bid: int,
    keys: np.ndarray,
    P: np.ndarray,
    seats: tuple,
    rows: np.ndarray,
    turns: np.ndarray,
    n_turns: np.ndarray,
    W: Workspace,
) -> None:
    """Items ``lo .. hi-1`` on one workspace: each deal played with ``me`` on its plan.

    ``seats`` holds the hand seats' ``(strategies, SP, scores)``; with four
    ``players`` the game dealer is seat 3 (hand seat ``h`` is then game seat ``h``).
    An item with ``contracts[k] > 0`` is instead the seat winning the auction at ``bid``,
    taking the talon, giving ``gives[k]`` (to the left, then the right) and naming that
    contract, played out (no concession).
    """
    strategies, SP, scores = seats
    NP = P[P_NP]
    for s in range(NP):
        W.strat[s] = strategies[s]
        W.scores[s] = scores[s]
        for j in range(SP.shape[1]):
            W.SP[s, j] = SP[s, j]
    S = W.S
    for k in range(lo, hi):
        number = numbers[k]
        S[S_TRACE] = 0
        for q in range(4):
            W.masks[q] = masks[k, q]
        begin_deal(
            P, W, W.masks, NP - 1, False, flags,
            item_state(keys[0], number), item_state(keys[1], number),
        )  # fmt: skip
        if contracts[k] > 0:  # won at the bid: the cards given and the contract are set
            forced_auction(P, W, me, bid)
            record_auction(P, W)
            talon(P, W, W.masks)
            for j in range(1, NP):
                apply_discard(S, P, j, gives[k, j - 1])
                W.out[O_DISCARD1 + j - 1] = gives[k, j - 1]
            close_discard(S, P)
            W.out[O_DECL_MARR_AFTER] = marriages_of(S[S_HAND0 + S[S_DECL]])
            S[S_CONTRACT] = contracts[k]
            W.out[O_CONTRACT] = contracts[k]
            named_trump(P, W)
            tricks(P, W)
            score_played(S, P, W.out)
        else:
            n_turns[k] = planned_bidding(P, W, prefix, me, pass_turns[k], turns[k])
            talon(P, W, W.masks)  # the deal is not redealt: the talon is taken
            if not bomb(P, W):  # rospis.when = "talon": conceded before the discard
                discard(P, W)
                contract(P, W)
                if not concession(P, W):
                    named_trump(P, W)
                    tricks(P, W)
                    score_played(S, P, W.out)
        game_row(P, W, rows[k], 3 if players == 4 else NP - 1, players, 0)  # no sitter's score


_I64 = np.zeros(0, np.int64)
PLAY_PLANS_ARGS = packed_type(
    0, 0, np.zeros((0, 4), np.uint32), _I64, _I64, _I64, 0, 0, 0, np.zeros((0, 2), np.int64),
    _I64, 0, np.zeros(0, np.uint64), _I64,
    seat_arrays(), np.zeros((0, 0), np.int32), np.zeros((0, 0), np.int64), _I64,
    sample_workspace(),
)  # fmt: skip


def play_plans_entry(ptr):  # type: ignore[no-untyped-def]
    """:func:`play_plans` behind a callback (sim.jit.entry_address): compiled once."""
    args = unpacked(ptr, PLAY_PLANS_ARGS)
    lo, hi, masks, numbers, pass_turns, prefix, me, flags, players = args[:9]
    gives, contracts, bid, keys, P, seats, rows, turns, nt, W = args[9:]
    play_plans(
        lo, hi, masks, numbers, pass_turns, prefix, me, flags, players, gives, contracts, bid,
        keys, P, seats, rows, turns, nt, W,
    )  # fmt: skip


@kernel
def plans_kernel(
    masks: np.ndarray,
    numbers: np.ndarray,
    pass_turns: np.ndarray,
    prefix: np.ndarray,
    me: int,
    flags: int,
    players: int,
    gives: np.ndarray,
    contracts: np.ndarray,
    bid: int,
    keys: np.ndarray,
    P: np.ndarray,
    strategies: np.ndarray,
    SP: np.ndarray,
    scores: np.ndarray,
    hooks: np.ndarray,
    rows: np.ndarray,
    turns: np.ndarray,
    n_turns: np.ndarray,
    block: int,
    threads: int,
) -> None:
    """Items ``k``: deal ``masks[k]`` played with hand seat ``me`` on a bid plan.

    The seat passes at its ``pass_turns[k]``-th turn (-1: never); the item's random
    streams are those of deal ``numbers[k]``. ``keys`` are the strategy and tie-break
    stream keys; ``strategies``, ``SP`` and ``scores`` the hand seats' players,
    parameters and game scores; ``players`` the game's (with four the dealer sits out
    as game seat 3); ``flags`` the deal's hand inputs (``S_FLAGS``: the barrel, no
    concession); ``gives``, ``contracts`` and ``bid`` the items played from a won
    auction on (:func:`play_plans`). ``rows`` gets each item's game row, ``turns`` and
    ``n_turns`` the raises offered to ``me``. ``block`` items share a workspace; each
    of ``threads`` threads claims the next block when done (:func:`sim.jit.claim`).
    """
    n = rows.shape[0]
    n_blocks = (n + block - 1) // block
    seats = (strategies, SP, scores)
    following = np.zeros(1, dtype=np.int64)
    for _ in prange(threads):
        while True:
            b = claim(following)
            if b >= n_blocks:
                break
            lo = b * block
            hi = min(n, lo + block)
            W = workspace(SP, strategies, hooks)
            args = (
                lo, hi, masks, numbers, pass_turns, prefix, me, flags, players, gives,
                contracts, bid, keys, P, seats, rows, turns, n_turns, W,
            )  # fmt: skip
            call_packed(hooks[H_PLAY_PLANS], args, PLAY_PLANS_ARGS)  # type: ignore[call-arg]


__all__ = ["MAX_TURNS", "planned_bidding", "plans_kernel"]
