"""Scoring a deal (docs/rules.md §7), a concession (§5) and the 4-player sitter's talon (§12).

Golden and dark deals (§10, §11) double the deltas as PROTOCOL.md says.
"""

from __future__ import annotations

import numpy as np

from sim.engine.actions import ACE_BIT
from sim.engine.bits import (
    ACE,
    ACES,
    KQ,
    marriages_of,
    mask_points,
    rank_count,
)
from sim.engine.params import (
    P_BOLT_DECLARER_EXEMPT,
    P_BOLT_ON,
    P_CAP_240,
    P_FOUR_NINES,
    P_GOLDEN_DOUBLE_MARR,
    P_LOCK_AT,
    P_MV_S,
    P_NP,
    P_ONLY_DECLARER,
    P_OPPONENTS_GET,
    P_REQUIRES_CAPTURE,
    P_ROSPIS_NO_SUBTRACT,
    P_ROUND_DECLARER,
    P_ROUND_MODE,
    P_ROUND_TO,
    P_SITTER_SCORES,
    ROUND_UP,
    SITTER_ACES,
    SIXTY,
    ZERO_POINTS,
)
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
    S_AFTER0,
    S_CAPT0,
    S_CONTRACT,
    S_DECL,
    S_DECLARED0,
    S_GIVE1,
    S_GIVE2,
    S_MPTS0,
    S_SCORE0,
    S_SPECIAL,
    S_TRICKS0,
    SPECIAL_DARK,
    SPECIAL_GOLDEN,
    SPECIAL_NONE,
)
from sim.engine.talon import lays_away
from sim.jit import hot
from sim.rules import ACE_MARRIAGE_VALUE

SIXTY_POINTS = 60  # rospis.opponents_get = "sixty": what each opponent of a concession gets
SITTER_ACE_POINTS = 50  # talon.sitter_scores = "aces": the sitter's score for each ace


@hot
def locked(score: int, P: np.ndarray) -> bool:
    """``score.lock_at`` (§7): a game score this high scores only its own contracts."""
    return P[P_LOCK_AT] > 0 and score >= P[P_LOCK_AT]


@hot
def round_score(x: int, P: np.ndarray) -> int:
    """Round a deal total by ``score.round_to`` and ``score.round_mode`` (§7).

    Nearest: to 5 (1, 2 down; 3, 4 up) or to 10 (5 up). Up: any remainder goes up.
    """
    to = P[P_ROUND_TO]
    if P[P_ROUND_MODE] == ROUND_UP:
        return ((x + to - 1) // to) * to
    if to == 10:
        return ((x + 5) // 10) * 10
    return ((x + 2) // 5) * 5


@hot
def least_total(contract: int, P: np.ndarray) -> int:
    """The smallest deal total that makes ``contract`` (``score.round_declarer``)."""
    if not P[P_ROUND_DECLARER]:
        return contract
    x = contract - 10
    while round_score(x, P) < contract:
        x += 1
    return x


@hot
def opponent_delta(total: int, marriages: int, special: int, P: np.ndarray) -> int:
    """A non-declarer's deal delta: its rounded total, doubled in a special deal.

    In a golden deal marriages are doubled only with ``golden.double_marriages``; in a
    dark deal never (PROTOCOL.md, special deals).
    """
    r = round_score(total, P)
    if special == SPECIAL_NONE:
        return r
    if special == SPECIAL_GOLDEN and P[P_GOLDEN_DOUBLE_MARR]:
        return 2 * r
    return 2 * r - marriages


@hot
def sitter_score(talon: int, special: int, P: np.ndarray) -> tuple:
    """The 4-player dealer's card points, marriage points and deal delta from the talon (§12).

    ``talon`` is the talon's card mask. The marriages (K+Q) lying in it count with its
    card points (``talon.sitter_scores = "points"``), or with 50 for each ace in it and
    no card points (``"aces"``: the card points written are then 0); the delta is an
    opponent's: rounded, doubled in a special deal.
    """
    marriages = marriages_of(talon)
    mp = 0
    for suit in range(4):
        if marriages >> suit & 1:
            mp += P[P_MV_S + suit]
    cp = mask_points(talon)
    base = cp
    if P[P_SITTER_SCORES] == SITTER_ACES:
        cp = 0
        base = SITTER_ACE_POINTS * rank_count(talon, ACE)
    return cp, mp, opponent_delta(base + mp, mp, special, P)


@hot
def concession_share(contract: int, P: np.ndarray) -> int:
    """What each opponent of a conceded ``contract`` scores (§5): 60, or half rounded up to 5."""
    return SIXTY_POINTS if P[P_OPPONENTS_GET] == SIXTY else (contract + 9) // 10 * 5


@hot
def score_conceded(S: np.ndarray, P: np.ndarray, out: np.ndarray) -> None:
    """Deltas of a concession: declarer -contract (or 0), opponents half or 60.

    Doubled in a golden or dark deal. A seat locked by ``score.lock_at`` gets no
    share and no four-nines bonus.
    """
    decl = S[S_DECL]
    contract = S[S_CONTRACT]
    opp = concession_share(contract, P)
    mult = 1 if S[S_SPECIAL] == SPECIAL_NONE else 2
    for s in range(P[P_NP]):
        out[O_CARD_POINTS0 + s] = 0
        out[O_MARR_POINTS0 + s] = 0
        out[O_TRICKS0 + s] = 0
        out[O_BOLT0 + s] = 0
        out[O_DECLARED0 + s] = 0
        out[O_DELTA0 + s] = mult * opp
    out[O_DELTA0 + decl] = 0 if P[P_ROSPIS_NO_SUBTRACT] else -mult * contract
    for s in range(P[P_NP]):
        if not locked(S[S_SCORE0 + s], P):
            out[O_DELTA0 + s] += four_nines_bonus(S, P, s)
        elif s != decl:
            out[O_DELTA0 + s] = 0  # locked (score.lock_at): no share of a concession
    out[O_CONCEDED] = 1
    out[O_MADE] = 0
    out[O_DECL_TOTAL] = 0


@hot
def four_nines_bonus(S: np.ndarray, P: np.ndarray, seat: int) -> int:
    """``bonus.four_nines`` for a seat that held four nines after the discard (§6).

    A separate entry of the deal score, whatever the deal's result: not part of the
    deal total, not rounded, doubled in a golden or dark deal.
    """
    if P[P_FOUR_NINES] == 0 or rank_count(S[S_AFTER0 + seat], 0) != 4:
        return 0
    return P[P_FOUR_NINES] * (1 if S[S_SPECIAL] == SPECIAL_NONE else 2)


@hot
def deal_points(S: np.ndarray, P: np.ndarray, s: int) -> tuple[int, int]:
    """Seat ``s``'s card points captured so far and the marriage points they count.

    A declaration's value counts at once, or with ``marriage.requires_capture`` only
    once the seat has captured a card of it; with ``marriage.only_declarer`` a
    defender's declarations count 0. The deal's total is their sum after the last
    trick; the open-card solver reads it after every trick.
    """
    capt = S[S_CAPT0 + s]
    cp = mask_points(capt)
    mp = S[S_MPTS0 + s]
    if P[P_REQUIRES_CAPTURE]:
        declared = S[S_DECLARED0 + s]
        mp = 0
        for suit in range(4):
            if declared >> suit & 1 and capt & KQ[suit]:
                mp += P[P_MV_S + suit]
        if declared & ACE_BIT and capt & ACES:
            mp += ACE_MARRIAGE_VALUE
    if P[P_ONLY_DECLARER] and s != S[S_DECL]:
        mp = 0  # a defender's declaration sets trump but scores nothing
    return cp, mp


@hot
def score_played(S: np.ndarray, P: np.ndarray, out: np.ndarray) -> None:
    """Totals, deltas, made flag and bolts of a played deal.

    A seat locked by ``score.lock_at`` (its game score ``S_SCORE0``) scores only its
    own contract: a defender 0, the declarer its contract without the four-nines bonus.
    Two players laying away (§12): the two cards laid away are among the declarer's
    captured cards (:func:`sim.engine.talon.apply_lay_away`), so they count in its card
    points; they are no trick, and with ``bolt.on = "zero_points"`` no escape from a bolt.
    """
    decl = S[S_DECL]
    contract = S[S_CONTRACT]
    special = S[S_SPECIAL]
    for s in range(P[P_NP]):
        cp, mp = deal_points(S, P, s)
        total = cp + mp
        out[O_CARD_POINTS0 + s] = cp
        out[O_MARR_POINTS0 + s] = mp
        out[O_DECLARED0 + s] = S[S_DECLARED0 + s]
        out[O_TRICKS0 + s] = S[S_TRICKS0 + s]
        if s == decl:
            out[O_DECL_TOTAL] = total
            compared = round_score(total, P) if P[P_ROUND_DECLARER] else total
            made = compared >= contract
            out[O_MADE] = made
            if special == SPECIAL_NONE:
                out[O_DELTA0 + s] = contract if made else -contract
            elif special == SPECIAL_DARK and made and not P[P_CAP_240]:
                out[O_DELTA0 + s] = 2 * round_score(total, P)
            else:
                out[O_DELTA0 + s] = 2 * contract if made else -2 * contract
        else:
            out[O_DELTA0 + s] = opponent_delta(total, mp, special, P)
        if not locked(S[S_SCORE0 + s], P):
            out[O_DELTA0 + s] += four_nines_bonus(S, P, s)
        elif s != decl:
            out[O_DELTA0 + s] = 0  # locked (score.lock_at): only its own contract counts
        if P[P_BOLT_ON] == ZERO_POINTS:
            if s == decl and lays_away(P):  # cards laid away are no trick: no escape (§12)
                total -= mask_points(np.int64(1) << S[S_GIVE1] | np.int64(1) << S[S_GIVE2])
            bolt = round_score(total, P) == 0  # a total that rounds to 0
        else:
            bolt = S[S_TRICKS0 + s] == 0
        if s == decl and P[P_BOLT_DECLARER_EXEMPT]:
            bolt = False
        out[O_BOLT0 + s] = bolt
    out[O_CONCEDED] = 0
