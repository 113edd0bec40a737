"""Scoring a deal (RULES.md §7) and a concession (§5)."""

from __future__ import annotations

import numpy as np

from sim.deal import mask_points, rank_count
from sim.engine.play import ACES, KQ
from sim.engine.state import (
    O_BOLT0,
    O_CARD_POINTS0,
    O_CONCEDED,
    O_DECL_TOTAL,
    O_DECLARED0,
    O_DELTA0,
    O_MADE,
    O_MARR_POINTS0,
    O_TRICKS0,
    P_BOLT_DECLARER_EXEMPT,
    P_BOLT_ZERO_POINTS,
    P_FOUR_NINES,
    P_MV_S,
    P_REQUIRES_CAPTURE,
    P_ROSPIS_NO_SUBTRACT,
    P_ROSPIS_SIXTY,
    P_ROUND_DECLARER,
    P_ROUND_TO,
    S_AFTER0,
    S_CAPT0,
    S_CONTRACT,
    S_DECL,
    S_DECLARED0,
    S_MPTS0,
    S_TRICKS0,
)
from sim.jit import hot


@hot
def round_score(x: int, to: int) -> int:
    """Round a deal total: to 5 (1, 2 down; 3, 4 up) or to 10 (5 up)."""
    if to == 10:
        return ((x + 5) // 10) * 10
    return ((x + 2) // 5) * 5


@hot
def score_conceded(S: np.ndarray, P: np.ndarray, out: np.ndarray) -> None:
    """Deltas of a concession: declarer -contract (or 0), opponents half or 60."""
    decl = S[S_DECL]
    contract = S[S_CONTRACT]
    opp = 60 if P[P_ROSPIS_SIXTY] else (contract + 9) // 10 * 5  # half, up to a 5
    for s in range(3):
        out[O_CARD_POINTS0 + s] = 0
        out[O_MARR_POINTS0 + s] = 0
        out[O_TRICKS0 + s] = 0
        out[O_BOLT0 + s] = 0
        out[O_DECLARED0 + s] = 0
        out[O_DELTA0 + s] = opp
    out[O_DELTA0 + decl] = 0 if P[P_ROSPIS_NO_SUBTRACT] else -contract
    out[O_CONCEDED] = 1
    out[O_MADE] = 0
    out[O_DECL_TOTAL] = 0


@hot
def score_played(S: np.ndarray, P: np.ndarray, out: np.ndarray) -> None:
    """Totals, deltas, made flag and bolts of a played deal."""
    decl = S[S_DECL]
    contract = S[S_CONTRACT]
    for s in range(3):
        capt = S[S_CAPT0 + s]
        cp = mask_points(capt)
        mp = S[S_MPTS0 + s]
        declared = S[S_DECLARED0 + s]
        if P[P_REQUIRES_CAPTURE]:
            mp = 0
            for suit in range(4):
                if declared >> suit & 1 and capt & KQ[suit]:
                    mp += P[P_MV_S + suit]
            if declared & 16 and capt & ACES:
                mp += 200
        if P[P_FOUR_NINES] > 0 and rank_count(S[S_AFTER0 + s], 0) == 4:
            mp += P[P_FOUR_NINES]
        total = cp + mp
        out[O_CARD_POINTS0 + s] = cp
        out[O_MARR_POINTS0 + s] = mp
        out[O_DECLARED0 + s] = declared
        out[O_TRICKS0 + s] = S[S_TRICKS0 + s]
        if s == decl:
            out[O_DECL_TOTAL] = total
            compared = round_score(total, P[P_ROUND_TO]) if P[P_ROUND_DECLARER] else total
            made = compared >= contract
            out[O_MADE] = made
            out[O_DELTA0 + s] = contract if made else -contract
        else:
            out[O_DELTA0 + s] = round_score(total, P[P_ROUND_TO])
        if P[P_BOLT_ZERO_POINTS]:
            bolt = total == 0
        else:
            bolt = S[S_TRICKS0 + s] == 0
        if s == decl and P[P_BOLT_DECLARER_EXEMPT]:
            bolt = False
        out[O_BOLT0 + s] = bolt
    out[O_CONCEDED] = 0
