"""The bomb (``rospis.when = "talon"``, docs/rules.md §5): a CONCEDE decision before the discard.

The declarer is asked to concede while it still holds the talon (10 cards; 12 with two
players), before giving any card away. Every player judges a concession on the hand it
keeps after its discard; at the bomb it judges the hand its own discard would leave:
it gives its cards in the state (:func:`give_own`, the same steps as the engine's
discard), takes its usual decision there, and the state is put back (:func:`keep` into
a ``stack_floats(SAVED)`` of the caller, :func:`put_back`).
"""

from __future__ import annotations

import numpy as np

from sim.engine.bits import popcount, seat_after
from sim.engine.params import P_NP
from sim.engine.state import S_AFTER0, S_CAPT0, S_DECL, S_GIVE1, S_GIVE2, S_HAND0
from sim.engine.talon import apply_discard, apply_lay_away, close_discard, discards_made, lays_away
from sim.jit import hot

SAVED = 9  # three hands, three after the discard, two cards given, the declarer's captured


@hot
def before_discard(S: np.ndarray, P: np.ndarray, seat: int) -> bool:
    """Whether the declarer ``seat`` still holds the talon: more cards than the next seat.

    True only at the bomb: after the discard the declarer holds as many cards as the
    others (8, or 11 each with two players).
    """
    nxt = seat_after(seat, 1, P[P_NP])
    return popcount(S[S_HAND0 + seat]) > popcount(S[S_HAND0 + nxt])


@hot
def keep(S: np.ndarray, saved: np.ndarray) -> None:
    """Copy into ``saved`` the part of the state a simulated discard changes.

    ``saved``: ``SAVED`` floats (exact for these small integers), for :func:`put_back`.
    """
    for s in range(3):
        saved[s] = S[S_HAND0 + s]
        saved[3 + s] = S[S_AFTER0 + s]
    saved[6] = S[S_GIVE1]
    saved[7] = S[S_GIVE2]
    saved[8] = S[S_CAPT0 + S[S_DECL]]  # two players laying away: the cards laid away


@hot
def give_own(S: np.ndarray, P: np.ndarray, j: int, card: int) -> None:
    """Give ``card`` to the ``j``-th seat on the declarer's left, as the discard does.

    Two players laying away (§12): the card is laid away, the ``j``-th of two.

    After the last one (:func:`sim.engine.talon.discards_made`) the hands after the
    discard are set (:func:`close_discard`).
    """
    if lays_away(P):
        apply_lay_away(S, j, card)
    else:
        apply_discard(S, P, j, card)
    if j == discards_made(P):
        close_discard(S, P)


@hot
def put_back(S: np.ndarray, saved: np.ndarray) -> None:
    """Undo a simulated discard: the state as :func:`keep` found it."""
    for s in range(3):
        S[S_HAND0 + s] = np.int64(saved[s])
        S[S_AFTER0 + s] = np.int64(saved[3 + s])
    S[S_GIVE1] = np.int64(saved[6])
    S[S_GIVE2] = np.int64(saved[7])
    S[S_CAPT0 + S[S_DECL]] = np.int64(saved[8])
