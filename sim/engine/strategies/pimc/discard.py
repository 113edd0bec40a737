"""The sampling player's discard: the heuristic's cheapest cards weighed over sampled worlds."""

from __future__ import annotations

import numpy as np

from sim.engine.arena import WORLD
from sim.engine.params import (
    P_NP,
    P_ROSPIS_NO_SUBTRACT,
    P_STEP,
)
from sim.engine.search import (
    declarer_total,
    new_position,
    solver_view,
)
from sim.engine.state import (
    S_CAPT0,
    S_DECL,
    S_GIVE1,
    S_GIVE2,
    S_HAND0,
)
from sim.engine.strategies.discard import DISCARD_CANDIDATES, by_cost, cheapest_of_hand
from sim.engine.strategies.learned import best_contract_value, fitted, network_of
from sim.engine.strategies.pimc.probes import _best_score, _highest_reached
from sim.engine.strategies.pimc.worlds import draw_world
from sim.engine.strategies.registry import (
    DISCARD,
    DISCARD_WORLDS,
    OPEN,
    READ_BIDS,
)
from sim.engine.strategies.strong_discard import fitted_for, strong_discard
from sim.engine.talon import contract_range, discards_made, lays_away, may_concede
from sim.jit import compiled, hot


@hot
def _given(S: np.ndarray, P: np.ndarray, T: np.ndarray, card: int) -> tuple[int, int]:
    """``T``: ``S`` once the declarer gives ``card``; the hand kept and any later give.

    A later give (-1: none) is made as the heuristic would make it. Laying two cards
    away (§12) the cards given are laid away: the caller puts them with the declarer's.
    """
    decl = S[S_DECL]
    j = 1 if S[S_GIVE1] < 0 else 2
    for k in range(len(T)):
        T[k] = S[k]
    T[S_GIVE1 if j == 1 else S_GIVE2] = card
    kept = S[S_HAND0 + decl] & ~(np.int64(1) << card)
    later = -1
    if j < discards_made(P):
        later = cheapest_of_hand(kept, P)
        kept &= ~(np.int64(1) << later)
        if j == 1:
            T[S_GIVE2] = later
    T[S_HAND0 + decl] = kept
    return kept, later


@compiled
def discard_scores(
    S: np.ndarray,
    P: np.ndarray,
    arena: np.ndarray,
    params: np.ndarray,
    cands: np.ndarray,
    scores: np.ndarray,
) -> int:
    """Each candidate give's expected deal score over the same sampled worlds; how many.

    Of the ``DISCARD_CANDIDATES`` cards the heuristic would rather give (its
    :func:`discard_cost`), each is given in every world (and any later give made as
    the heuristic makes it); the worlds are probed at the contracts that the hand
    left may name, and a card scores its best contract's expected deal score
    (``cands[i]``, ``scores[i]``, the heuristic's order). Conceding, where it costs
    nothing, bounds a score below at 0. :func:`pimc_discard` gives the best; the
    ``strong`` player's discard is fitted on these scores.
    """
    C = solver_view(arena)
    NP = P[P_NP]
    decl = S[S_DECL]
    j = 1 if S[S_GIVE1] < 0 else 2
    hand = S[S_HAND0 + decl]
    costs = C.scratch[3]
    n = by_cost(hand, P, cands, costs)  # the hand by the heuristic's cost, cheapest first
    worlds = int(params[DISCARD_WORLDS])
    T = C.stack[WORLD]
    scratch = C.scratch[0]
    m = min(n, DISCARD_CANDIDATES)
    kept = np.empty(m, dtype=np.int64)
    later = np.full(m, -1, dtype=np.int64)
    lo = np.empty(m, dtype=np.int64)
    count = np.empty(m, dtype=np.int64)
    for i in range(m):  # what each card leaves, and the contracts it allows
        kept[i], later[i] = _given(S, P, T, cands[i])
        lo[i], count[i] = contract_range(T, P)
    made = np.zeros((m, max(count.max(), 1)), dtype=np.int64)
    lay = lays_away(P)
    dealt = np.empty(3, dtype=np.int64)
    for _w in range(worlds):  # the same worlds for every card, one table per world
        draw_world(S, P, decl, T, scratch, params[OPEN] != 0, params[READ_BIDS] != 0)
        for s in range(3):
            dealt[s] = T[S_HAND0 + s]
        new_position(C)
        top = -1
        for i in range(m):
            for s in range(3):
                T[S_HAND0 + s] = dealt[s]
            T[S_HAND0 + decl] = kept[i]
            if lay:  # laid away: the declarer's points, in no hand
                T[S_CAPT0 + decl] = S[S_CAPT0 + decl] | np.int64(1) << cands[i]
                if later[i] >= 0:
                    T[S_CAPT0 + decl] |= np.int64(1) << later[i]
            else:
                T[S_HAND0 + (decl + j) % NP] |= np.int64(1) << cands[i]
                if later[i] >= 0:
                    T[S_HAND0 + (decl + j + 1) % NP] |= np.int64(1) << later[i]
            guess = -2 if i == 0 else top + (lo[i - 1] - lo[i]) // P[P_STEP]
            top = _highest_reached(C, P, T, lo[i], count[i], declarer_total(T, P), guess)
            for k in range(top + 1):
                made[i, k] += 1
    for i in range(m):
        scores[i] = _best_score(lo[i], count[i], made[i], worlds, P)[1]
        if P[P_ROSPIS_NO_SUBTRACT] and may_concede(S, P):
            scores[i] = max(scores[i], 0.0)
    return m


@compiled
def pimc_discard(S: np.ndarray, P: np.ndarray, arena: np.ndarray, params: np.ndarray) -> int:
    """The card to give away next: the best expected deal score over the same worlds.

    :func:`discard_scores` of the heuristic's cheapest cards; the best is given (ties:
    the heuristic's order).
    """
    cands = np.empty(24, dtype=np.int64)
    scores = np.empty(24, dtype=np.float64)
    m = discard_scores(S, P, arena, params, cands, scores)
    best = cands[0]
    best_score = -np.inf
    for i in range(m):
        if scores[i] > best_score:
            best_score = scores[i]
            best = cands[i]
    return best


@compiled
def net_discard(S: np.ndarray, P: np.ndarray, arena: np.ndarray) -> int:
    """The card to give away next by the contract network: -1 where none is fitted.

    As :func:`discard_scores` weighs the heuristic's cheapest cards (any later give
    made as the heuristic makes it), but each card's best contract's expected deal
    score comes from the network of the learned contract
    (:func:`~sim.engine.strategies.learned.best_contract_value`) on the hand it leaves,
    not from sampled worlds; the best is given (ties: the heuristic's order).
    """
    if not fitted(network_of(P)):
        return -1
    C = solver_view(arena)
    hand = S[S_HAND0 + S[S_DECL]]
    cands = C.scratch[2]
    costs = C.scratch[3]
    n = by_cost(hand, P, cands, costs)
    T = C.stack[WORLD]
    concede = P[P_ROSPIS_NO_SUBTRACT] and may_concede(S, P)
    best = cands[0]
    best_score = -np.inf
    for i in range(min(n, DISCARD_CANDIDATES)):
        _given(S, P, T, cands[i])
        lo, count = contract_range(T, P)
        score = best_contract_value(T, P, lo, count)
        if concede:
            score = max(score, 0.0)
        if score > best_score:
            best_score = score
            best = cands[i]
    return best


@compiled
def pimc_give(S: np.ndarray, P: np.ndarray, arena: np.ndarray, params: np.ndarray) -> int:
    """The card to give away by ``pimc.discard``: 2, ``strong``'s line; 3, the network.

    The line (:func:`~sim.engine.strategies.strong_discard.strong_discard`, fitted on
    :func:`discard_scores`) and the contract network (:func:`net_discard`) cost nothing
    to ask; where neither is fitted for the rules (the line: three hands), the worlds
    are sampled as with 1. (With 0 the heuristic decides, and this is not called.)
    """
    if params[DISCARD] == 2 and fitted_for(P):
        return strong_discard(S, P)
    if params[DISCARD] == 3:
        card = net_discard(S, P, arena)
        if card >= 0:
            return card
    return pimc_discard(S, P, arena, params)
