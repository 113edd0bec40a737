"""The sampling player's bids, when its parameters ask for them (``pimc.bid_make``, ``pimc.bid``).

Otherwise it bids as the heuristic does (its record leaves the bids to the heuristic).
"""

from __future__ import annotations

import numpy as np

from sim.engine.actions import PASS
from sim.engine.arena import WORLD
from sim.engine.bidding import bid_cap
from sim.engine.params import (
    P_JUMPS,
    P_STEP,
)
from sim.engine.search import (
    declarer_total,
    new_position,
    solver_view,
)
from sim.engine.state import (
    S_HAND0,
)
from sim.engine.strategies.barrel import barrel_raise, barrel_rival_bidding
from sim.engine.strategies.pimc.probes import _highest_reached, _reaches, least_total
from sim.engine.strategies.pimc.worlds import _bid_world
from sim.engine.strategies.registry import (
    BID_BIAS,
    BID_MAKE,
    BID_MARGIN,
    BID_WORLDS,
    OPEN,
    READ_BIDS,
    WORLDS,
)
from sim.jit import compiled


@compiled
def pimc_bid(
    S: np.ndarray,
    P: np.ndarray,
    arena: np.ndarray,
    seat: int,
    lo: int,
    count: int,
    params: np.ndarray,
) -> int:
    """Raise to ``lo`` when the hand makes it in at least ``bid_make`` of the sampled deals.

    Each world deals the talon and the other hands at random, lets this seat take the
    talon and discard as the heuristic does, and solves the play with every card
    face up (the best trump, if the declarer names one): an estimate of what the hand
    is worth as the declarer's. At ``bid_make`` 0.5 a raise is taken when its expected
    score, ``lo (2p - 1)``, beats passing's 0; the open-card estimate is optimistic
    (it assumes the play of a player who sees every card), so a higher share is the
    cautious setting. Only used with ``bid_make`` above 0.
    """
    if count == 0:
        return PASS
    C = solver_view(arena)
    worlds = int(params[WORLDS])
    T = C.stack[WORLD]
    need = least_total(lo, P)
    made = 0
    for _w in range(worlds):
        _bid_world(S, P, seat, T, params[OPEN] != 0, params[READ_BIDS] != 0)
        new_position(C)
        if _reaches(C, P, T, need):
            made += 1
    return lo if made >= params[BID_MAKE] * worlds else PASS


@compiled
def pimc_bid_sampled(
    S: np.ndarray,
    P: np.ndarray,
    arena: np.ndarray,
    seat: int,
    lo: int,
    count: int,
    params: np.ndarray,
) -> int:
    """Raise to ``lo`` when declaring is expected to score at least ``bid_margin`` (``pimc.bid``).

    In each of ``bid_worlds`` deals of the unseen cards (the other hands allowed by
    their bids, :func:`_bid_world`) this seat takes the talon, gives cards away as the
    heuristic does and finds, cards face up, the highest contract from ``lo`` up to
    its kept hand's cap that it makes with ``bid_bias`` points to spare (the open-card
    play is better than any real one). Declaring at ``lo`` is then expected to score
    the mean of that contract where one is made and ``-lo`` where none is: the
    contract named after the talon, as if the talon showed the whole deal. With
    ``bid.jumps`` it jumps to the highest level made in four worlds of five, as the
    heuristic does; on the barrel, and against an opponent on it, it bids as the
    heuristic does.
    """
    if count == 0:
        return PASS
    if barrel_raise(seat, S, P, lo):
        return lo
    C = solver_view(arena)
    worlds = int(params[BID_WORLDS])
    bias = int(params[BID_BIAS])
    step = P[P_STEP]
    T = C.stack[WORLD]
    level = C.scratch[1]
    for w in range(worlds):
        _bid_world(S, P, seat, T, params[OPEN] != 0, params[READ_BIDS] != 0)
        top = max(bid_cap(T[S_HAND0 + seat], P), lo)
        new_position(C)
        level[w] = _highest_reached(
            C, P, T, lo, (top - lo) // step + 1, declarer_total(T, P) - bias
        )
    score = 0.0
    made = 0
    for w in range(worlds):
        if level[w] >= 0:
            score += lo + level[w] * step
            made += 1
        else:
            score -= lo
    bid = score >= params[BID_MARGIN] * worlds
    if not bid and barrel_rival_bidding(seat, S, P):  # keep it out
        bid = made >= 0.3 * worlds
    if not bid:
        return PASS
    k = 0
    if P[P_JUMPS]:  # straight to the level made in four worlds of five
        while k + 1 < count:
            n = 0
            for w in range(worlds):
                n += level[w] >= k + 1
            if n < 0.8 * worlds:
                break
            k += 1
    return lo + k * step
