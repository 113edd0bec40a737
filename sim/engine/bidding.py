"""Bidding (RULES.md §4): caps and the legal raises of one turn."""

from __future__ import annotations

import numpy as np

from sim.deal import marriages_of
from sim.engine.actions import MAX_BID, PASS
from sim.engine.state import P_CAP, P_JUMPS, P_MV_S, P_STEP
from sim.jit import hot


@hot
def marriage_sum(mask: int, P: np.ndarray) -> int:
    """Sum of the values (``marriage.values``) of the marriages held in a mask."""
    bits = marriages_of(mask)
    total = 0
    for s in range(4):
        if bits >> s & 1:
            total += P[P_MV_S + s]
    return total


@hot
def bid_cap(mask: int, P: np.ndarray) -> int:
    """Highest bid or contract a hand allows: 120 + its marriages, or MAX_BID uncapped."""
    if P[P_CAP]:
        return 120 + marriage_sum(mask, P)
    return MAX_BID


@hot
def legal_bids(bid: int, cap: int, P: np.ndarray, out: np.ndarray) -> int:
    """Pass (code 0) and the raises over ``bid`` up to ``cap``; 1 means pass only."""
    out[0] = PASS
    n = 1
    step = P[P_STEP]
    b = bid + step
    while b <= cap:
        out[n] = b
        n += 1
        if not P[P_JUMPS]:
            break
        b += step
    return n


@hot
def legal_contracts(winning_bid: int, limit: int, P: np.ndarray, out: np.ndarray) -> int:
    """The winning bid and every multiple of the step above it up to ``limit``."""
    out[0] = winning_bid
    n = 1
    step = P[P_STEP]
    b = winning_bid + step
    while b <= limit:
        out[n] = b
        n += 1
        b += step
    return n
