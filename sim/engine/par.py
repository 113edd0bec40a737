"""The open-card par's discard loop, compiled: every give of one talon pick probed in order.

:func:`sim.solver.talon.par_summary` asks, for each talon the declarer may take, what
its discards are worth with every card face up: the best total, and how many bid
levels some discard allowed to name them reaches. Here that loop runs in one compiled
call per pick, on one transposition table: each give (and trump named) is set into
the pick's state, rated, and probed (:func:`sim.engine.search.probe_value`) at the
least total that would change either answer.

The gives are probed keeping the most marriages first (they may name the most
levels), then by what the declarer surely takes from the start
(:func:`sim.engine.search.sure_points`, the cards it cashes from the lead), then
giving the fewest points. The sure points follow a discard's open-card value closely
(correlation 0.94 on classic deals), so the best discard tends to come early and the
later probes aim high and fail cheaply. The answers do not depend on the order: the
best is a maximum, and a level counts as made when any discard allowed to name it
reaches it.
"""

from __future__ import annotations

import numpy as np

from sim.engine.bidding import bid_cap
from sim.engine.bits import lowest, mask_points
from sim.engine.params import P_NP
from sim.engine.search import Solver, new_position, probe_value, sort_head, sure_points
from sim.engine.state import NO_SUIT, S_CAPT0, S_HAND0, S_TRUMP, S_TRUMP_SETTER
from sim.engine.talon import lays_away
from sim.jit import hot, hot_call

MAX_GIVES = 24 * 23 * 4  # ordered gives of two cards, each with one of four trumps named
_CODE_BITS = 16  # a give's code in the low bits of its sort key


@hot
def _set_give(
    S: np.ndarray,
    hands: np.ndarray,
    talon: int,
    decl: int,
    a: int,
    b: int,
    trump: int,
    NP: int,
    lay: bool,
) -> int:
    """The hands once the declarer took ``talon`` and gave ``a`` (and ``b``) clockwise.

    Into ``S``, with ``trump`` named (``NO_SUIT``: none); the declarer's hand. ``lay``
    (two players laying two cards away, §12): ``a`` and ``b`` are laid away, among the
    declarer's captured cards.
    """
    mine = (hands[decl] | talon) & ~(np.int64(1) << a)
    if lay:
        mine &= ~(np.int64(1) << b)
        S[S_HAND0 + 1 - decl] = hands[1 - decl]
        S[S_CAPT0 + decl] = np.int64(1) << a | np.int64(1) << b
    else:
        S[S_HAND0 + (decl + 1) % NP] = hands[(decl + 1) % NP] | np.int64(1) << a
    if NP == 3:
        mine &= ~(np.int64(1) << b)
        S[S_HAND0 + (decl + 2) % 3] = hands[(decl + 2) % 3] | np.int64(1) << b
    S[S_HAND0 + decl] = mine
    S[S_TRUMP] = trump
    S[S_TRUMP_SETTER] = decl if trump != NO_SUIT else -1
    return mine


@hot_call
def par_pick(
    C: Solver,
    P: np.ndarray,
    S: np.ndarray,
    hands: np.ndarray,
    talon: int,
    decl: int,
    names: np.ndarray,
    levels: np.ndarray,
    need: np.ndarray,
    best: int,
    made: int,
    keys: np.ndarray,
) -> tuple[int, int]:
    """Every give of one talon pick probed; the best total and the levels made, updated.

    ``S`` is the pick's play state (:func:`sim.solver.position.play_state` of any of its
    discards; only the hands and the trump change here), ``hands`` the dealt hands
    (hand seats), ``names`` the trumps the declarer may name (``[NO_SUIT]`` when it
    names none), ``levels`` the bid levels up to the dealt hand's cap, ascending, and
    ``need`` the least total making each. ``best`` (-1: none yet) and ``made`` (the
    levels reached, from the lowest) are what the picks before found; ``keys`` is
    scratch of :data:`MAX_GIVES` words. The table is emptied first: the discards of
    one pick share one table, since they share most of their later tricks.
    """
    NP = P[P_NP]
    lay = lays_away(P)
    two = NP == 3 or lay  # two cards a give: ordered (three hands), or a pair laid away
    hand = hands[decl] | talon
    n = 0
    m1 = hand
    while m1:
        a = lowest(m1)
        m1 &= m1 - 1
        m2 = np.int64(1)
        if NP == 3:
            m2 = hand & ~(np.int64(1) << a)
        elif lay:
            m2 = m1  # the cards above a: each pair once
        while m2:
            b = lowest(m2) if two else -1
            m2 = m2 & (m2 - 1) if two else np.int64(0)
            given = np.int64(1) << a
            if two:
                given |= np.int64(1) << b
            for t in range(names.shape[0]):
                mine = _set_give(S, hands, talon, decl, a, b, names[t], NP, lay)
                top = bid_cap(mine, P)
                lb = sure_points(S, P)[0]
                code = (a * 32 + (b + 1)) * 8 + t  # the give, as the probe loop reads it
                key = (4095 - min(top, 4095)) << 48 | (4095 - min(lb, 4095)) << 36
                keys[n] = key | mask_points(given) << 28 | code
                n += 1
    sort_head(keys, n)  # ascending: most marriages kept, most sure, fewest points given
    new_position(C)
    for i in range(n):
        code = keys[i] & ((1 << _CODE_BITS) - 1)
        t = code % 8
        b = (code // 8) % 32 - 1
        a = code // 256
        _set_give(S, hands, talon, decl, a, b, names[t], NP, lay)
        banked = mask_points(S[S_CAPT0 + decl]) if lay else 0  # laid away: counted already
        top = 4095 - (keys[i] >> 48 & 4095)  # the give's bid cap, as its key holds it
        allowed = 0
        while allowed < levels.shape[0] and levels[allowed] <= top:
            allowed += 1  # the levels this discard may name
        target = best + 1
        if made < allowed:
            target = min(target, need[made])
        v = probe_value(C, P, S, target - banked)
        if v < 0:
            continue  # changes neither answer
        v += banked
        best = max(best, v)
        while made < allowed and need[made] <= v:
            made += 1
    return best, made
