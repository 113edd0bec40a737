"""The ``heuristic`` strategy: a sensible scripted player, compiled.

It sees only what a player at the table sees: its own hand, the cards played so
far and who showed out of which suit, the current trick, trump, declarer, bids and
contract. It never reads another seat's hand (``tests/test_strategies.py`` swaps
hidden cards and checks its choices do not change).

Parameters (``--param heuristic.NAME=VALUE``):

* ``aggression`` (0.0): bids and contracts go up to ``estimate * (1 + aggression)``;
  negative is timid, positive bold.
* ``concede_margin`` (25): concede when the estimate of the 8 cards kept is more
  than this below the contract.
* ``reshuffle_below`` (90): demand an allowed reshuffle when the hand's estimate
  plus the talon hope is below this.
* ``talon_hope`` (12): points the unseen talon is expected to add while bidding.

The hand *estimate* is what the hand should take as declarer: aces and tens with
the cards they capture, marriages it can declare, length in a marriage suit.
"""

from __future__ import annotations

import numpy as np

from sim.cards import CARD_POINTS
from sim.engine.actions import DECLARE, PASS, Decision
from sim.engine.play import KQ, SUIT_BITS, lowest, popcount
from sim.engine.state import (
    NO_SUIT,
    P_MV_S,
    S_BEST,
    S_BEST_SEAT,
    S_CONTRACT,
    S_DECL,
    S_HAND0,
    S_LED_SUIT,
    S_NPLAYED,
    S_PLAYED,
    S_TALON,
    S_TC0,
    S_TRUMP,
    S_VOID0,
    S_WIN_BID,
)
from sim.jit import hot

AGGRESSION, CONCEDE_MARGIN, RESHUFFLE_BELOW, TALON_HOPE = range(4)
_POINTS = CARD_POINTS.astype(np.int64)


@hot
def estimate(hand: int, P: np.ndarray) -> float:
    """Points a hand should take as declarer (sure tricks, marriages, length)."""
    est = 0.0
    for s in range(4):
        m = (hand >> (6 * s)) & 63
        ace = m >> 5 & 1
        ten = m >> 4 & 1
        if ace:
            est += 11.0 + 7.0  # the ace and what the two others throw on it
            if ten:
                est += 10.0 + 6.0
        elif ten:
            est += 4.0
        if hand & KQ[s] == KQ[s]:
            est += 0.9 * P[P_MV_S + s] + 7.0
            length = popcount(m)
            if length > 3:
                est += 6.0 * (length - 3)
    return est


@hot
def _is_top(c: int, outside: int) -> bool:
    """No card of ``c``'s suit in ``outside`` ranks above ``c``."""
    s = c // 6
    above = SUIT_BITS[s] & ~((np.int64(1) << (c + 1)) - 1)
    return outside & above == 0


@hot
def _choose_lead(seat: int, S: np.ndarray, P: np.ndarray, legal: np.ndarray, n: int) -> int:
    # declare the most valuable marriage (lead its queen; the ace of four aces)
    best_code = -1
    best_value = -1
    for k in range(n):
        code = legal[k]
        if code >= DECLARE:
            c = code - DECLARE
            value = 200 if c % 6 == 5 else P[P_MV_S + c // 6]
            if value > best_value or (value == best_value and c % 6 == 2):
                best_value = value
                best_code = code
    if best_code >= 0:
        return int(best_code)
    hand = S[S_HAND0 + seat]
    trump = S[S_TRUMP]
    outside = ~(hand | S[S_PLAYED]) & 0xFFFFFF
    trumps_out = 0 if trump == NO_SUIT else outside & SUIT_BITS[trump]
    voids = 0
    for o in range(3):
        if o != seat:
            voids |= S[S_VOID0 + o]
    # a sure winner: top of its suit and not likely to be trumped
    pick = -1
    for k in range(n):
        c = legal[k]
        if c >= DECLARE:
            continue
        s = c // 6
        if not _is_top(c, outside):
            continue
        if s != trump and trumps_out and voids >> s & 1:
            continue
        if pick < 0 or _POINTS[c] > _POINTS[pick]:
            pick = c
    if pick >= 0:
        return int(pick)
    # otherwise a low card of the longest non-trump suit
    best_len = -1
    for k in range(n):
        c = legal[k]
        if c >= DECLARE:
            continue
        s = c // 6
        length = popcount(hand & SUIT_BITS[s]) - (8 if s == trump else 0)
        if length > best_len or (length == best_len and _POINTS[c] < _POINTS[pick]):
            best_len = length
            pick = c
    return int(pick if pick >= 0 else legal[0])


@hot
def _choose_follow(seat: int, S: np.ndarray, legal: np.ndarray, n: int) -> int:
    trump = S[S_TRUMP]
    best = S[S_BEST]
    decl = S[S_DECL]
    last = S[S_NPLAYED] == 2
    hand = S[S_HAND0 + seat]
    trick = 0
    for j in range(S[S_NPLAYED]):
        trick |= np.int64(1) << S[S_TC0 + j]
    outside = ~(hand | S[S_PLAYED] | trick) & 0xFFFFFF
    cheapest_win = -1
    top_win = -1
    cheapest = -1
    richest = -1
    for k in range(n):
        c = legal[k]
        wins = (c // 6 == best // 6 and c > best) or (c // 6 == trump and best // 6 != trump)
        if wins:
            if cheapest_win < 0 or _POINTS[c] < _POINTS[cheapest_win]:
                cheapest_win = c
            if c // 6 == S[S_LED_SUIT] and _is_top(c, outside):
                if top_win < 0 or _POINTS[c] > _POINTS[top_win]:
                    top_win = c
            elif c // 6 == trump and top_win < 0:
                top_win = c
        if cheapest < 0 or _POINTS[c] < _POINTS[cheapest]:
            cheapest = c
        if c % 6 != 5 and (richest < 0 or _POINTS[c] > _POINTS[richest]):
            richest = c
    if last and cheapest_win >= 0:
        return int(cheapest_win)
    if not last and top_win >= 0:
        return int(top_win)
    friend_winning = seat != decl and S[S_BEST_SEAT] != decl
    if friend_winning and last and richest >= 0:
        return int(richest)
    return int(cheapest)


@hot
def _keep_value(c: int, hand: int) -> int:
    s = c // 6
    v = _POINTS[c] + 3 * popcount(hand & SUIT_BITS[s])
    if hand & KQ[s] == KQ[s] and (c % 6 == 2 or c % 6 == 3):
        v += 100
    if c % 6 == 5:
        v += 50
    if c % 6 == 4 and hand >> (6 * s + 5) & 1:
        v += 30
    return v


@hot
def heuristic_choose(
    kind: int,
    seat: int,
    S: np.ndarray,
    P: np.ndarray,
    legal: np.ndarray,
    n: int,
    params: np.ndarray,
    tiebreak: np.uint64,
) -> int:
    """The heuristic's action for one decision (``legal[:n]`` ascending)."""
    hand = S[S_HAND0 + seat]
    if kind == Decision.PLAY:
        if S[S_NPLAYED] == 0:
            return _choose_lead(seat, S, P, legal, n)
        return _choose_follow(seat, S, legal, n)
    scale = 1.0 + params[AGGRESSION]
    if kind == Decision.BID:
        limit = (estimate(hand, P) + params[TALON_HOPE]) * scale
        return int(legal[1]) if legal[1] <= limit else PASS
    if kind == Decision.RESHUFFLE_HAND:
        return int(estimate(hand, P) + params[TALON_HOPE] < params[RESHUFFLE_BELOW])
    if kind == Decision.RESHUFFLE_TALON:
        # the declarer has taken the talon, so it may look at it
        return int(estimate(hand | S[S_TALON], P) < S[S_WIN_BID])
    if kind == Decision.RESHUFFLE_AFTER:
        if seat == S[S_DECL]:
            return int(estimate(hand, P) < S[S_WIN_BID])
        return 1
    if kind == Decision.DISCARD:
        pick = legal[0]
        for k in range(1, n):
            if _keep_value(legal[k], hand) < _keep_value(pick, hand):
                pick = legal[k]
        return int(pick)
    if kind == Decision.CONTRACT:
        target = estimate(hand, P) * scale
        pick = legal[0]
        for k in range(1, n):
            if legal[k] <= target:
                pick = legal[k]
        return int(pick)
    if kind == Decision.CONCEDE:
        return int(estimate(hand, P) < S[S_CONTRACT] - params[CONCEDE_MARGIN])
    if kind == Decision.NAME_TRUMP:
        best_suit = 0
        best_score = -1
        for s in range(4):
            m = hand & SUIT_BITS[s]
            score = 10 * popcount(m)
            while m:
                score += _POINTS[lowest(m)]
                m &= m - 1
            if score > best_score:
                best_score = score
                best_suit = s
        return best_suit
    return int(legal[0])
