"""The ``heuristic_v1`` strategy: the first scripted player, kept for comparisons.

This is the ``heuristic`` of the toolkit up to the rebuilt player of
:mod:`sim.engine.strategies.heuristic`; its code is frozen so that figures measured
against it can be reproduced. Every ``heuristic_v1.NAME`` parameter means what it
meant then.

Like every player it reads no card its seat cannot see (``tests/test_players_api.py``);
unlike ``heuristic`` it ignores a shown talon when it leads.

Parameters (``--param heuristic_v1.NAME=VALUE``):

* ``aggression`` (0.0): bids and contracts go up to ``estimate * (1 + aggression)``;
  negative is timid, positive bold.
* ``concede_margin`` (25): concede when the estimate of the 8 cards kept (times
  ``1 + aggression``, the scale its contract was named on) is more than this below
  the contract.
* ``reshuffle_below`` (90): demand an allowed reshuffle when the hand's estimate
  plus the talon hope is below this.
* ``talon_hope`` (12): points the unseen talon is expected to add while bidding.
* ``dark_behind`` (400): as forehand, declare dark (before looking at the cards) when
  this many points behind the leading player in the hand.

It undarkens a dark declaration when it would bid 125, and picks the first of two
blind talons (2 players).

The hand *estimate* is what the hand should take as declarer: aces and tens with
the cards they capture, marriages it can declare, length in a marriage suit.
"""

from __future__ import annotations

import numpy as np

from sim.engine.actions import DECLARE, PASS, Decision
from sim.engine.bits import (
    ACES,
    KQ,
    SUIT_BITS,
    lowest,
    play_masks,
    popcount,
)
from sim.engine.params import (
    P_MV_S,
    P_NP,
    P_STEP,
)
from sim.engine.state import (
    NO_SUIT,
    S_CONTRACT,
    S_DECL,
    S_HAND0,
    S_NPLAYED,
    S_PLAYED,
    S_SCORE0,
    S_TALON,
    S_TRUMP,
    S_VOID0,
    S_WIN_BID,
)
from sim.engine.strategies.basics import (
    POINTS,
    follow_card,
    longest_suit_low,
    paired_marriages,
    partner_card,
    sure_winner,
)
from sim.jit import hot, hot_call

AGGRESSION, CONCEDE_MARGIN, RESHUFFLE_BELOW, TALON_HOPE, DARK_BEHIND = range(5)


def _suit_estimate(m: int) -> int:
    """Points one suit (6-bit rank pattern) should take, marriage value aside."""
    ace, ten = m >> 5 & 1, m >> 4 & 1
    est = 0
    if ace:
        est += 11 + 7  # the ace and what the two others throw on it
        if ten:
            est += 10 + 6
    elif ten:
        est += 4
    if m & 0b1100 == 0b1100:  # K+Q: the marriage's own cards, and length as trump
        est += 7 + 6 * max(0, bin(m).count("1") - 3)
    return est


# Built once at import: the estimate of every suit pattern.
_SUIT_ESTIMATE = np.array([_suit_estimate(m) for m in range(64)], dtype=np.int64)


@hot
def estimate(hand: int, P: np.ndarray) -> int:
    """Points a hand should take as declarer (sure tricks, marriages, length)."""
    est = 0
    for s in range(4):
        est += _SUIT_ESTIMATE[(hand >> (6 * s)) & 63]
        if hand & KQ[s] == KQ[s]:
            est += P[P_MV_S + s] * 9 // 10
    return est


@hot
def _choose_lead(seat: int, S: np.ndarray, P: np.ndarray, plain: int, declaring: int) -> int:
    # declare the most valuable marriage (lead its queen); the ace marriage beats all
    if declaring:
        if declaring & ACES:
            return DECLARE + lowest(declaring & ACES)
        best_suit = -1
        for s in range(4):
            if declaring & KQ[s] and (best_suit < 0 or P[P_MV_S + s] > P[P_MV_S + best_suit]):
                best_suit = s
        return DECLARE + 6 * best_suit + 2
    hand = S[S_HAND0 + seat]
    trump = S[S_TRUMP]
    # cards that could beat ours: those unseen and unplayed, but not the card the
    # declarer gave the other defender when the discards lie face up (it wins for us)
    outside = ~(hand | S[S_PLAYED]) & 0xFFFFFF & ~partner_card(seat, S, P)
    trumps_out = 0 if trump == NO_SUIT else outside & SUIT_BITS[trump]
    voids = 0
    for o in range(3):
        if o != seat:
            voids |= S[S_VOID0 + o]
    # a sure winner: top of its suit and not likely to be trumped; richest first
    pick = sure_winner(plain, outside, trump, trumps_out, voids)
    if pick >= 0:
        return pick
    # otherwise a low card of the longest non-trump suit, keeping marriages together
    return longest_suit_low(plain, hand, trump, paired_marriages(hand), outside, 0, pick)


@hot
def discard_cost(hand: int, c: int) -> int:
    """How much giving card ``c`` of ``hand`` away costs the heuristic (lowest goes).

    Its points plus three per card of its suit held (a long suit's card goes first);
    a paired marriage card, an ace, a ten guarded by its ace cost far more.
    """
    s = c // 6
    r = c % 6
    v = POINTS[c] + 3 * popcount(hand & SUIT_BITS[s])
    if (r == 2 or r == 3) and hand & KQ[s] == KQ[s]:
        v += 100
    elif r == 5:
        v += 50
    elif r == 4 and hand >> (6 * s + 5) & 1:
        v += 30
    return int(v)


@hot
def _discard(hand: int, legal: np.ndarray, n: int) -> int:
    """The card to give away in the discard: the lowest :func:`discard_cost`.

    Fewest points, from a long suit; a paired marriage card, an ace or a ten guarded
    by its ace only when nothing else will do.
    """
    pick = legal[0]
    pick_value = 1 << 30
    for k in range(n):
        v = discard_cost(hand, legal[k])
        if v < pick_value:
            pick_value = v
            pick = legal[k]
    return int(pick)


@hot_call
def heuristic_v1_play(seat: int, S: np.ndarray, P: np.ndarray, plain: int, declaring: int) -> int:
    """heuristic_v1's card (action code) for a PLAY decision given by its legal masks."""
    if S[S_NPLAYED] == 0:
        return _choose_lead(seat, S, P, plain, declaring)
    return follow_card(seat, S, P, plain)


@hot_call
def heuristic_v1_range(
    kind: int,
    seat: int,
    S: np.ndarray,
    P: np.ndarray,
    lo: int,
    count: int,
    params: np.ndarray,
) -> int:
    """heuristic_v1's BID or CONTRACT: amounts ``lo, lo + step, ...`` (``count``)."""
    hand = S[S_HAND0 + seat]
    scale = 1.0 + params[AGGRESSION]
    if kind == Decision.BID:
        # raise by one step while the hand (and the hoped-for talon) carries it
        limit = (estimate(hand, P) + params[TALON_HOPE]) * scale
        return lo if count > 0 and lo <= limit else PASS
    # contract: the highest amount the 8 cards kept are worth, at least the bid
    target = estimate(hand, P) * scale
    step = P[P_STEP]
    k = 0
    while k + 1 < count and lo + (k + 1) * step <= target:
        k += 1
    return lo + k * step


@hot_call
def heuristic_v1_choose(
    kind: int,
    seat: int,
    S: np.ndarray,
    P: np.ndarray,
    legal: np.ndarray,
    n: int,
    params: np.ndarray,
    tiebreak: np.uint64,
) -> int:
    """heuristic_v1's action for one decision (``legal[:n]`` ascending)."""
    hand = S[S_HAND0 + seat]
    if kind == Decision.PLAY:
        plain, declaring = play_masks(legal, n)
        return heuristic_v1_play(seat, S, P, plain, declaring)
    if kind == Decision.BID:
        return heuristic_v1_range(kind, seat, S, P, legal[1], n - 1, params)
    if kind == Decision.CONTRACT:
        return heuristic_v1_range(kind, seat, S, P, legal[0], n, params)
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
        return _discard(hand, legal, n)
    if kind == Decision.CONCEDE:  # measured on the scale the contract was named on
        scaled = estimate(hand, P) * (1.0 + params[AGGRESSION])
        return int(scaled < S[S_CONTRACT] - params[CONCEDE_MARGIN])
    if kind == Decision.DARK:  # before looking at the cards: only the scores count
        leader = S[S_SCORE0]
        for s in range(1, P[P_NP]):
            leader = max(leader, S[S_SCORE0 + s])
        return int(leader - S[S_SCORE0 + seat] >= params[DARK_BEHIND])
    if kind == Decision.UNDARKEN:  # the bid of 125 it would make in an ordinary auction
        return int((estimate(hand, P) + params[TALON_HOPE]) * (1.0 + params[AGGRESSION]) >= 125)
    if kind == Decision.TALON_PICK:  # blind: both talons look alike
        return 0
    if kind == Decision.NAME_TRUMP:
        best_suit = 0
        best_score = -1
        for s in range(4):
            m = hand & SUIT_BITS[s]
            score = 10 * popcount(m)
            while m:
                score += POINTS[lowest(m)]
                m &= m - 1
            if score > best_score:
                best_score = score
                best_suit = s
        return best_suit
    return int(legal[0])
