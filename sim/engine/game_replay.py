"""Game states between deals, compiled: read back from traces, and one deal applied to many.

Two small loops over the game loop's arrays (:mod:`sim.engine.game`), for the equity
table (:mod:`sim.runs.equity`):

* :func:`trace_states`: the state of every seat before every played deal of traced
  games, read from the deal log and the events alone (no rule is applied again): the
  scores, the barrel (on or not, deals played on it in the current stint), the bolts
  counted toward the next penalty, the concessions and the falls of the game;
* :func:`apply_outcomes`: the engine's own :func:`sim.engine.game.apply_deal` (every
  rule of GAME_PROTOCOL.md "One deal", step 2) applied to a batch of states, each
  with one deal's result.
"""

from __future__ import annotations

import numpy as np

from sim.engine.game import (
    E_BARREL_FALL,
    E_BARREL_ON,
    E_BOLT,
    E_BOLT_PENALTY,
    E_GOLDEN_RESET,
    E_NINE_CUT_PENALTY,
    L_BOLT0,
    L_CONCEDED,
    L_DEALER,
    L_DECL,
    L_RESHUFFLED,
    L_SCORE0,
    apply_deal,
)
from sim.engine.params import P_BOLT_IN_A_ROW, P_BOLT_ON_BARREL
from sim.jit import compiled

# --- the state of a seat before a deal: trace_states' columns -------------------------------
T_SCORE, T_BARREL, T_BOLTS, T_CONCESSIONS, T_FALLS = range(5)
N_T = 5  # T_BARREL: deals already played on the barrel in the current stint, -1 off it


@compiled
def trace_states(
    P: np.ndarray,
    n: int,
    deal_log: np.ndarray,
    events: np.ndarray,
    n_dealt: np.ndarray,
    n_events: np.ndarray,
    first: np.ndarray,
    dealer: np.ndarray,
    state: np.ndarray,
) -> None:
    """The state before every played deal of the traced games whose ``first[k] >= 0``.

    Game ``k``'s played deals (redeals skipped) fill rows ``first[k], first[k] + 1, ...``
    of ``dealer`` (the seat that deals it) and ``state`` (``(rows, n, N_T)``, ``T_*``).
    Walking the game's dealt deals in order:

    * the scores before a played deal are the scores logged after the dealt deal
      before it (0 at the start), less the third-bottom-nine charge logged with the
      deal itself (it is paid before the cards are played);
    * a played deal adds a concession to a conceding declarer; then every seat that
      sat on the barrel (but the 4-player dealer, who sits out) has played one more
      deal there; then the deal's events, in order: ``bolt`` counts one, ``bolt_penalty``
      empties the count, ``barrel_on`` puts the seat on with 0 deals, ``barrel_fall``
      takes it off and counts a fall, ``golden_reset`` takes everybody off; with
      ``bolt.in_a_row`` a seat that could bolt and did not (its bolt flag 0) starts
      again from 0.
    """
    for k in range(first.shape[0]):
        row = first[k]
        if row < 0:
            continue
        score = np.zeros(n, dtype=np.int64)
        on = np.zeros(n, dtype=np.int64)
        deals = np.zeros(n, dtype=np.int64)
        bolts = np.zeros(n, dtype=np.int64)
        concessions = np.zeros(n, dtype=np.int64)
        falls = np.zeros(n, dtype=np.int64)
        e = 0
        for r in range(n_dealt[k]):
            lg = deal_log[k, r]
            if not lg[L_RESHUFFLED]:
                d = lg[L_DEALER]
                dealer[row] = d
                for s in range(n):
                    state[row, s, T_SCORE] = score[s]
                    state[row, s, T_BARREL] = deals[s] if on[s] else -1
                    state[row, s, T_BOLTS] = bolts[s]
                    state[row, s, T_CONCESSIONS] = concessions[s]
                    state[row, s, T_FALLS] = falls[s]
                sitter = d if n == 4 else -1
                if lg[L_CONCEDED]:
                    concessions[lg[L_DECL]] += 1
                for s in range(n):
                    if s == sitter:
                        continue
                    pinned = on[s] and not P[P_BOLT_ON_BARREL]
                    if P[P_BOLT_IN_A_ROW] and not pinned and not lg[L_BOLT0 + s]:
                        bolts[s] = 0
                    if on[s]:
                        deals[s] += 1
            while e < n_events[k] and events[k, e, 0] == r:
                kind = events[k, e, 1]
                s = events[k, e, 2]
                if kind == E_NINE_CUT_PENALTY and not lg[L_RESHUFFLED]:
                    state[row, s, T_SCORE] -= events[k, e, 3]
                elif kind == E_BOLT:
                    bolts[s] += 1
                elif kind == E_BOLT_PENALTY:
                    bolts[s] = 0
                elif kind == E_BARREL_ON:
                    on[s] = 1
                    deals[s] = 0
                elif kind == E_BARREL_FALL:
                    on[s] = 0
                    deals[s] = 0
                    falls[s] += 1
                elif kind == E_GOLDEN_RESET:
                    on[:] = 0
                    deals[:] = 0
                e += 1
            for s in range(n):
                score[s] = lg[L_SCORE0 + s]
            if not lg[L_RESHUFFLED]:
                row += 1


@compiled
def apply_outcomes(
    P: np.ndarray, n: int, G: np.ndarray, dealer: np.ndarray, D: np.ndarray, winner: np.ndarray
) -> None:
    """``winner[k]``: :func:`sim.engine.game.apply_deal` of deal ``D[k]`` on state ``G[k]``.

    ``G`` is ``(k, MAX_SEATS, N_G)`` game states (``G_*``), changed in place into the
    states after the deal; ``D`` is ``(k, N_GD)`` deals in game seats (``GD_*``);
    ``dealer[k]`` deals deal ``k``. No stint or event is kept.
    """
    stints = np.zeros((1, 4), dtype=np.int32)
    events = np.zeros((1, 4), dtype=np.int32)
    ns = np.zeros(1, dtype=np.int64)
    ne = np.zeros(1, dtype=np.int64)
    for k in range(D.shape[0]):
        ns[0] = 0
        ne[0] = 0
        winner[k] = apply_deal(G[k], P, n, D[k], dealer[k], 0, stints, ns, events, ne, False, 0)


__all__ = [
    "N_T",
    "T_BARREL",
    "T_BOLTS",
    "T_CONCESSIONS",
    "T_FALLS",
    "T_SCORE",
    "apply_outcomes",
    "trace_states",
]
