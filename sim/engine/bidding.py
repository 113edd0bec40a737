"""Bidding (docs/rules.md §4): the cap on bids and contracts set by marriages held."""

from __future__ import annotations

import numpy as np

from sim.engine.actions import MAX_BID
from sim.engine.bits import (
    marriages_of,
)
from sim.engine.params import (
    P_CAP_BY_MARRIAGES,
    P_MV_S,
)
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
    if P[P_CAP_BY_MARRIAGES]:
        return 120 + marriage_sum(mask, P)
    return MAX_BID
