"""The sampling player behind the players' C signature (:mod:`sim.engine.strategies.hook`)."""

from __future__ import annotations

from numba import carray

from sim.engine.actions import Decision
from sim.engine.params import (
    N_PARAMS,
)
from sim.engine.state import (
    N_STATE,
    S_HAND0,
)
from sim.engine.strategies.bomb import (
    SAVED,
    before_discard,
    discards_made,
    give_own,
    keep,
    put_back,
)
from sim.engine.strategies.discard import cheapest_of_hand
from sim.engine.strategies.hook import f64_ptr, i64_ptr
from sim.engine.strategies.learned import NOT_FITTED, learned_concede, learned_contract
from sim.engine.strategies.pimc.bidding import pimc_bid, pimc_bid_sampled
from sim.engine.strategies.pimc.discard import pimc_give
from sim.engine.strategies.pimc.play import pimc_concede, pimc_contract, pimc_play
from sim.engine.strategies.registry import (
    BID,
    CONCEDE_MARGIN,
    CONTRACT_BY,
    DISCARD,
    N_STRATEGY_PARAMS,
)
from sim.jit import stack_floats


def pimc_entry(  # type: ignore[no-untyped-def]
    kind, seat, s_addr, p_addr, legal_addr, arena_addr, arena_len, sp_addr, form, a, b, c, tiebreak
):
    """The sampling player's decisions behind the players' C signature (:mod:`.hook`).

    ``choose`` calls it for card play, the contract, the concession and, with
    ``pimc.bid_make`` or ``pimc.discard``, the bids or the discard; the heuristic makes
    the rest.
    """
    S = carray(i64_ptr(s_addr), (N_STATE,))
    P = carray(i64_ptr(p_addr), (N_PARAMS,))
    arena = carray(i64_ptr(arena_addr), (arena_len,))
    params = carray(f64_ptr(sp_addr), (N_STRATEGY_PARAMS,))
    if kind == Decision.PLAY:
        return pimc_play(seat, S, P, a, b, arena, params)
    if kind == Decision.CONTRACT:
        if params[CONTRACT_BY] > 0:
            contract = learned_contract(S, P, b, c)
            if contract != NOT_FITTED:
                return contract
        return pimc_contract(S, P, arena, b, c, params)
    if kind == Decision.BID:
        if params[BID] > 0:
            return pimc_bid_sampled(S, P, arena, seat, b, c, params)
        return pimc_bid(S, P, arena, seat, b, c, params)
    if kind == Decision.DISCARD:
        return pimc_give(S, P, arena, params)
    bomb = before_discard(S, P, seat)
    saved = stack_floats(SAVED)
    keep(S, saved)
    if bomb:  # the bomb: judged on the hand its own discard would leave, then put back
        for j in range(1, discards_made(P) + 1):
            card = cheapest_of_hand(S[S_HAND0 + seat], P)
            if params[DISCARD] > 0:
                card = pimc_give(S, P, arena, params)
            give_own(S, P, j, card)
    concede = NOT_FITTED
    if params[CONTRACT_BY] > 0:
        concede = learned_concede(S, P, params[CONCEDE_MARGIN])
    if concede == NOT_FITTED:
        concede = pimc_concede(S, P, arena, params)
    if bomb:
        put_back(S, saved)
    return concede
