"""Bidding (docs/rules.md §4, §11): dark play, undarkening, raises, the bids' cap.

Each step is a legal-actions function and an apply function on one state ``S``;
the deal loop (:mod:`sim.engine.driver`) asks :func:`sim.engine.choose.choose`
between them. A bid is code ``PASS`` (0) or the amount.
"""

from __future__ import annotations

import numpy as np

from sim.engine.actions import CARD_POINTS_TOTAL, MAX_BID, PASS
from sim.engine.bits import marriages_of
from sim.engine.params import (
    P_BID_FROM,
    P_CAP_BY_MARRIAGES,
    P_JUMPS,
    P_MV_S,
    P_SILENCE_BELOW,
    P_STEP,
    P_UNDARKEN,
)
from sim.engine.state import (
    FLAG_BARREL0,
    S_BID,
    S_DEALT0,
    S_FLAGS,
    S_HIGH,
    S_MAXBID0,
    S_PASSED,
    S_SCORE0,
    S_SPECIAL,
    S_UNDARK,
    SPECIAL_DARK,
    SPECIAL_NONE,
)
from sim.jit import hot

OPENING_BID = 100  # forehand's automatic first bid
BLIND_CONTRACT = 120  # golden and dark deals: 120 without bidding
UNDARKEN_BID = 125  # an opponent with a marriage undarkens by bidding 125


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
        return CARD_POINTS_TOTAL + marriage_sum(mask, P)
    return MAX_BID


@hot
def silenced(S: np.ndarray, P: np.ndarray, seat: int) -> bool:
    """``bid.silence_below``: the seat's game score is below it (never when it is off)."""
    return S[S_SCORE0 + seat] < P[P_SILENCE_BELOW]


@hot
def on_barrel(S: np.ndarray, seat: int) -> bool:
    """The game says this seat sits on the barrel (its raises start at ``bid_from``)."""
    return S[S_FLAGS] >> (FLAG_BARREL0 + seat) & 1 != 0


@hot
def apply_dark(S: np.ndarray, dark: bool) -> None:
    """Forehand's answer to the dark offer (before looking at the cards)."""
    if dark:
        S[S_SPECIAL] = SPECIAL_DARK


@hot
def may_undarken(S: np.ndarray, P: np.ndarray, seat: int) -> bool:
    """Whether ``seat`` is asked to undarken: a marriage dealt, not silenced, able to bid 125."""
    if not P[P_UNDARKEN] or marriages_of(S[S_DEALT0 + seat]) == 0:
        return False
    if silenced(S, P, seat):
        return False
    return not (on_barrel(S, seat) and P[P_BID_FROM] > UNDARKEN_BID)


@hot
def apply_undarken(S: np.ndarray, seat: int) -> None:
    """``seat`` bid 125 against a dark declaration: an ordinary deal again."""
    S[S_UNDARK] = seat
    S[S_SPECIAL] = SPECIAL_NONE


@hot
def raise_range(S: np.ndarray, P: np.ndarray, seat: int) -> tuple[int, int]:
    """The raises open to ``seat`` over the current bid: ``(lowest, how many)``.

    Multiples of ``bid.step`` up to the seat's cap (one step only without
    ``bid.jumps``); a seat on the barrel raises only from ``barrel.bid_from``.
    """
    bid = S[S_BID]
    step = P[P_STEP]
    lo = bid + step
    raises = (bid_cap(S[S_DEALT0 + seat], P) - bid) // step
    if not P[P_JUMPS]:
        raises = min(raises, 1)
    if on_barrel(S, seat) and lo < P[P_BID_FROM]:
        skip = (P[P_BID_FROM] - lo + step - 1) // step
        raises = 0 if not P[P_JUMPS] else raises - skip
        lo += skip * step
    return lo, max(raises, 0)


@hot
def open_bidding(S: np.ndarray, forehand: int, undark: int) -> None:
    """Forehand's automatic bid (100; 120 in a golden or dark deal); 125 after an undarkening."""
    bid = OPENING_BID if S[S_SPECIAL] == SPECIAL_NONE else BLIND_CONTRACT
    S[S_BID] = bid
    S[S_HIGH] = forehand
    S[S_MAXBID0 + forehand] = bid
    if undark >= 0:
        S[S_BID] = UNDARKEN_BID
        S[S_HIGH] = undark
        S[S_MAXBID0 + undark] = UNDARKEN_BID


@hot
def apply_bid(S: np.ndarray, seat: int, code: int) -> None:
    """A pass (final for the deal) or a raise to ``code``."""
    if code == PASS:
        S[S_PASSED] |= 1 << seat
    else:
        S[S_BID] = code
        S[S_HIGH] = seat
        S[S_MAXBID0 + seat] = code
