"""Every hand as the declarer's: the talon, discard and play of a hand that won the bid.

The safe-bid tables and the bid advisor ask what a 7-card hand (10 with two players)
is worth *as the declarer's*, whoever would have won the auction. This kernel plays
each given deal with one chosen hand seat as the declarer, by the engine's own phases
(:mod:`sim.engine.driver`): a forced auction (forehand's automatic 100; any other seat
raises once to the lowest bid it may make, the rest pass), the talon taken (no
reshuffle), the cards given away, the contract the player names itself, the eight
tricks and the score. Before the play it asks the player, level by level from the
lowest bid, whether it would concede a contract of that level, and records the first
level it would (a conceded hand fails at that level and above).

The player's card play does not read the contract under ``heuristic``; under ``pimc``
the declarer plays for the contract it named itself and the defenders against it
(docs/cli.md, ``thousand safebids``, says what this means for the tables).

Each item's randomness is keyed by its item number (``item_state``), so results do
not depend on threads or chunks.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from sim.engine.actions import PASS, Decision
from sim.engine.bidding import apply_bid, bid_cap, open_bidding, raise_range
from sim.engine.choose import choose_yes
from sim.engine.driver import (
    begin_deal,
    contract,
    discard,
    named_trump,
    sample_workspace,
    seat_arrays,
    talon,
    tricks,
    workspace,
)
from sim.engine.params import P_NP
from sim.engine.scoring import deal_points, score_played
from sim.engine.state import (
    FLAG_FORCED_AUCTION,
    O_DELTA0,
    S_AFTER0,
    S_BID,
    S_CONTRACT,
    S_DEALT0,
    S_ERROR,
    S_FLAGS,
    S_FOREHAND,
    S_GIVE1,
    S_GIVE2,
    S_NBIDS,
    S_TALON,
    S_TRACE,
    S_WIN_BID,
    Workspace,
)
from sim.engine.strategies.registry import H_PLAY_ITEMS
from sim.engine.talon import close_bidding, lays_away, may_concede
from sim.jit import body, call_packed, claim, hot, hot_call, kernel, packed_type, unpacked
from sim.rng import item_state

# Columns of the kernel's output, one row per item.
(
    D_DEALT,  # the declarer's dealt hand (mask)
    D_TALON,  # the talon it took (two players: the one it picked)
    D_KEPT,  # its hand right after giving cards away
    D_WIN_BID,  # the bid it won the forced auction with
    D_CONTRACT,  # the contract it named itself
    D_TOTAL,  # its deal total: card points + the marriage points they count
    D_CARD_POINTS,
    D_MARRIAGE_POINTS,
    D_CONCEDE_FROM,  # the lowest level it would concede at; 0 when none
    D_GIVE1,
    D_GIVE2,  # the cards given away (-1: none)
    D_ERROR,
    D_DELTA0,
    D_DELTA1,
    D_DELTA2,  # every hand seat's deal score as the engine scores it (0 beyond the players)
) = range(15)
N_DCOLS = 15


@hot
def forced_auction(P: np.ndarray, W: Workspace, decl: int, bid: int) -> None:
    """Forehand's automatic 100; ``decl`` raises once; the rest pass.

    ``decl`` raises to ``bid`` (an auction it won there: the caller's deal allows it)
    or, where that is not above the bid standing (0: none given), to the lowest raise
    open to it; the forehand declaring at 100 does not raise.
    """
    S = W.S
    NP = P[P_NP]
    f = S[S_FOREHAND]
    S[S_FLAGS] |= FLAG_FORCED_AUCTION  # the passes say nothing of the hands
    open_bidding(S, f, -1)
    if decl != f or bid > S[S_BID]:
        lo, _count = raise_range(S, P, decl)
        apply_bid(S, decl, max(lo, bid))
    for s in range(NP):
        if s != decl:
            apply_bid(S, s, PASS)
    S[S_NBIDS] = NP
    close_bidding(S, P)


@hot_call
def evaluate_one(
    P: np.ndarray, W: Workspace, masks: np.ndarray, decl: int, levels: np.ndarray, row: np.ndarray
) -> None:
    """Play the deal ``masks`` (hand places) with hand seat ``decl`` as the declarer."""
    S = W.S
    NP = P[P_NP]
    talon(P, W, masks)  # the deal cannot be redealt: the talon is taken
    discard(P, W)
    contract(P, W)
    named = S[S_CONTRACT]
    concede_from = 0
    if may_concede(S, P):
        cap = bid_cap(S[S_DEALT0 + decl], P)  # the highest bid the dealt hand allows
        for k in range(levels.shape[0]):
            if levels[k] > cap:
                break
            S[S_CONTRACT] = levels[k]
            if choose_yes(Decision.CONCEDE, decl, P, W):
                concede_from = levels[k]
                break
        S[S_CONTRACT] = named
    named_trump(P, W)
    tricks(P, W)
    score_played(S, P, W.out)
    for s in range(NP):
        row[D_DELTA0 + s] = W.out[O_DELTA0 + s]
    cp, mp = deal_points(S, P, decl)
    row[D_DEALT] = S[S_DEALT0 + decl]
    row[D_TALON] = S[S_TALON]
    row[D_KEPT] = S[S_AFTER0 + decl]
    row[D_WIN_BID] = S[S_WIN_BID]
    row[D_CONTRACT] = named
    row[D_TOTAL] = cp + mp
    row[D_CARD_POINTS] = cp
    row[D_MARRIAGE_POINTS] = mp
    row[D_CONCEDE_FROM] = concede_from
    row[D_GIVE1] = S[S_GIVE1]
    row[D_GIVE2] = S[S_GIVE2] if NP == 3 or lays_away(P) else -1
    row[D_ERROR] = S[S_ERROR]


@body
def play_items(
    lo: int,
    hi: int,
    start: int,
    masks: np.ndarray,
    decls: np.ndarray,
    bids: np.ndarray,
    keys: np.ndarray,
    P: np.ndarray,
    seats: tuple,
    levels: np.ndarray,
    out: np.ndarray,
    W: Workspace,
) -> None:
    """Items ``lo .. hi-1`` of a batch on one workspace (one block of the kernel).

    ``seats`` holds the hand seats' ``(strategies, SP)``; ``bids[k]`` the bid item ``k``
    wins the auction at (0: the lowest open to its declarer).
    """
    strategies, SP = seats
    for s in range(strategies.shape[0]):
        W.strat[s] = strategies[s]
        for j in range(SP.shape[1]):
            W.SP[s, j] = SP[s, j]
    S = W.S
    for k in range(lo, hi):
        number = start + k
        S[S_TRACE] = 0
        for q in range(4):
            W.masks[q] = masks[k, q]
        begin_deal(
            P, W, W.masks, P[P_NP] - 1, False, 0,
            item_state(keys[0], number), item_state(keys[1], number),
        )  # fmt: skip
        forced_auction(P, W, decls[k], bids[k])
        evaluate_one(P, W, W.masks, decls[k], levels, out[k])


_I64 = np.zeros(0, np.int64)
PLAY_ITEMS_ARGS = packed_type(
    0, 0, 0, np.zeros((0, 4), np.uint32), _I64, _I64, np.zeros(0, np.uint64), _I64,
    seat_arrays()[:2], _I64, np.zeros((0, 0), np.int64), sample_workspace(),
)  # fmt: skip


def play_items_entry(ptr):  # type: ignore[no-untyped-def]
    """:func:`play_items` behind a callback (sim.jit.entry_address): compiled once.

    :func:`declarer_kernel` calls it through ``W.hooks[H_PLAY_ITEMS]`` with packed
    arguments, so it does not link (and optimise again) the engine.
    """
    lo, hi, start, masks, decls, bids, keys, P, seats, levels, out, W = unpacked(
        ptr, PLAY_ITEMS_ARGS
    )
    play_items(lo, hi, start, masks, decls, bids, keys, P, seats, levels, out, W)


@kernel
def declarer_kernel(
    start: int,
    masks: np.ndarray,
    decls: np.ndarray,
    bids: np.ndarray,
    keys: np.ndarray,
    P: np.ndarray,
    strategies: np.ndarray,
    SP: np.ndarray,
    hooks: np.ndarray,
    levels: np.ndarray,
    out: np.ndarray,
    block: int,
    threads: int,
) -> None:
    """Items ``start .. start+n-1``: deal ``masks[k]`` (hand places) with ``decls[k]`` declaring.

    ``bids[k]``: the bid it wins the auction at (0: the lowest raise open to it).

    ``keys`` are the strategy and tie-break stream keys; ``strategies`` and ``SP`` the
    hand seats' players; ``levels`` the contract levels asked about conceding
    (ascending); ``out`` gets one row of ``D_*`` columns per item; ``block`` items
    share a workspace (a few for the sampling player, whose items are slow). Each of
    ``threads`` threads claims the next block when it is done with its last
    (:func:`sim.jit.claim`): which thread plays a block changes nothing in it. The body of the
    parallel loop only calls :func:`play_items`: filling the workspace's seat arrays
    in the loop itself compiled wrongly (numba 0.6x parfors; the results differed from
    the serial code's).
    """
    n = out.shape[0]
    n_blocks = (n + block - 1) // block
    seats = (strategies, SP)
    following = np.zeros(1, dtype=np.int64)  # the next block to claim
    for _ in prange(threads):
        while True:
            b = claim(following)
            if b >= n_blocks:
                break
            lo = b * block
            hi = min(n, lo + block)
            W = workspace(SP, strategies, hooks)
            args = (lo, hi, start, masks, decls, bids, keys, P, seats, levels, out, W)
            call_packed(hooks[H_PLAY_ITEMS], args, PLAY_ITEMS_ARGS)  # type: ignore[call-arg]


__all__ = [
    "D_CARD_POINTS",
    "D_CONCEDE_FROM",
    "D_CONTRACT",
    "D_DEALT",
    "D_DELTA0",
    "D_ERROR",
    "D_GIVE1",
    "D_GIVE2",
    "D_KEPT",
    "D_MARRIAGE_POINTS",
    "D_TALON",
    "D_TOTAL",
    "D_WIN_BID",
    "N_DCOLS",
    "declarer_kernel",
    "forced_auction",
]
