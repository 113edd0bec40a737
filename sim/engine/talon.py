"""Talon, discard, contract and concession (docs/rules.md §5, §12 for two players).

Legal-actions and apply steps on one state ``S``; the deal loop asks
:func:`sim.engine.choose.choose` between them.
"""

from __future__ import annotations

import numpy as np

from sim.engine.bidding import OPENING_BID, bid_cap
from sim.engine.bits import mask_to_list, seat_after
from sim.engine.params import (
    P_GOLDEN_BLIND,
    P_HIDE_AT_100,
    P_NP,
    P_ROSPIS_ALLOWED,
    P_STEP,
    P_TWO_PLAYERS,
    TWO_DISCARD,
)
from sim.engine.state import (
    S_AFTER0,
    S_AT100,
    S_BID,
    S_CAPT0,
    S_DECL,
    S_FLAGS,
    S_GIVE1,
    S_HAND0,
    S_HIGH,
    S_SPECIAL,
    S_TALON,
    S_TALON_OTHER,
    S_TALON_PICK,
    S_TALON_SHOWN,
    S_WIN_BID,
    SPECIAL_DARK,
    SPECIAL_GOLDEN,
    SPECIAL_NONE,
    TRICKS_2,
    TRICKS_3,
)
from sim.jit import hot


@hot
def close_bidding(S: np.ndarray, P: np.ndarray) -> None:
    """The last bidder is the declarer; whether the talon is shown (§5)."""
    bid = S[S_BID]
    S[S_DECL] = S[S_HIGH]
    S[S_WIN_BID] = bid
    at100 = bid == OPENING_BID
    S[S_AT100] = at100
    S[S_TALON_SHOWN] = S[S_SPECIAL] == SPECIAL_NONE and not (P[P_HIDE_AT_100] and at100)


@hot
def lays_away(P: np.ndarray) -> bool:
    """Two players with ``talon.two_players = "discard"``: two cards laid away (§12)."""
    return P[P_NP] == 2 and P[P_TWO_PLAYERS] == TWO_DISCARD


@hot
def deal_tricks(P: np.ndarray) -> int:
    """Tricks in a played deal: 8 of three cards; with two players 11, or 10 laying away."""
    if P[P_NP] == 3:
        return TRICKS_3
    return TRICKS_2 - 1 if lays_away(P) else TRICKS_2


@hot
def discards_made(P: np.ndarray) -> int:
    """DISCARD decisions of a deal: one card to each opponent, or two laid away (§12)."""
    return 2 if lays_away(P) else P[P_NP] - 1


@hot
def apply_talon_pick(S: np.ndarray, P: np.ndarray, masks: np.ndarray, pick: int) -> None:
    """Two players: the declarer takes talon ``pick`` (blind); the other is set aside.

    Laying away (``talon.two_players = "discard"``) the other musik is never seen and
    counts for nobody: no talon is set aside for the last trick (``S_TALON_OTHER`` 0).
    """
    S[S_TALON] = np.int64(masks[2 + pick])
    S[S_TALON_OTHER] = 0 if lays_away(P) else np.int64(masks[3 - pick])
    S[S_TALON_PICK] = pick


@hot
def take_talon(S: np.ndarray) -> None:
    """The declarer adds the talon to the hand."""
    S[S_HAND0 + S[S_DECL]] |= S[S_TALON]


@hot
def legal_discards(S: np.ndarray, legal: np.ndarray) -> int:
    """The declarer's cards, ascending, into ``legal``; how many."""
    return mask_to_list(S[S_HAND0 + S[S_DECL]], legal, 0, 0)


@hot
def apply_discard(S: np.ndarray, P: np.ndarray, j: int, card: int) -> None:
    """The declarer gives ``card`` to the ``j``-th seat on its left (1, then 2)."""
    decl = S[S_DECL]
    bit = np.int64(1) << card
    S[S_HAND0 + decl] ^= bit
    S[S_HAND0 + seat_after(decl, j, P[P_NP])] |= bit
    S[S_GIVE1 + j - 1] = card


@hot
def apply_lay_away(S: np.ndarray, j: int, card: int) -> None:
    """The declarer lays ``card`` away face down (its ``j``-th, 1 or 2; §12 discard).

    Its points count with the declarer's captured cards (``S_CAPT``, so every reader
    of the deal's points sees them) though it is no trick.
    """
    decl = S[S_DECL]
    bit = np.int64(1) << card
    S[S_HAND0 + decl] ^= bit
    S[S_CAPT0 + decl] |= bit
    S[S_GIVE1 + j - 1] = card


@hot
def close_discard(S: np.ndarray, P: np.ndarray) -> None:
    """Everyone's hand right after the discard (the four-nines rules read it)."""
    for k in range(P[P_NP]):
        S[S_AFTER0 + k] = S[S_HAND0 + k]


@hot
def contract_range(S: np.ndarray, P: np.ndarray) -> tuple[int, int]:
    """The contracts the declarer may name: ``(winning bid, how many)`` by ``bid.step``.

    Raises only up to 120 plus the marriages kept; none in a dark deal or a blind
    golden one (the contract is 120).
    """
    bid = S[S_WIN_BID]
    raises = max((bid_cap(S[S_HAND0 + S[S_DECL]], P) - bid) // P[P_STEP], 0)
    special = S[S_SPECIAL]
    if special == SPECIAL_DARK or (special == SPECIAL_GOLDEN and P[P_GOLDEN_BLIND]):
        raises = 0
    return bid, 1 + raises


@hot
def may_concede(S: np.ndarray, P: np.ndarray) -> bool:
    """``rospis.allowed`` and the game does not forbid this declarer to concede."""
    return P[P_ROSPIS_ALLOWED] != 0 and not S[S_FLAGS] >> S[S_DECL] & 1
