"""What the scripted players share: card points, the cards above a card, and the follow.

``heuristic_v1`` (frozen), ``heuristic`` and ``strong`` read these.
"""

from __future__ import annotations

import numpy as np

from sim.cards import CARD_POINTS
from sim.engine.bits import ACES, KQ, RANK_BITS, SUIT_BITS, highest, lowest, popcount, suit_of
from sim.engine.params import P_DISCARD_FACE_DOWN, P_NP
from sim.engine.state import (
    NO_SUIT,
    S_BEST,
    S_BEST_SEAT,
    S_DECL,
    S_GIVE1,
    S_GIVE2,
    S_HAND0,
    S_LED_SUIT,
    S_NPLAYED,
    S_PLAYED,
    S_TC0,
    S_TRUMP,
)
from sim.jit import hot

POINTS = CARD_POINTS.astype(np.int64)
# ABOVE[c]: the cards of c's suit that rank above c.
ABOVE = np.array(
    [int(SUIT_BITS[c // 6]) & ~((1 << (c + 1)) - 1) for c in range(24)], dtype=np.int64
)


@hot
def partner_card(seat: int, S: np.ndarray, P: np.ndarray) -> int:
    """The card a defender saw the declarer give the other defender, still unplayed.

    Only with the discards face up (``talon.discard_face_down`` false) and three
    players in the hand; 0 otherwise and for the declarer.
    """
    decl = S[S_DECL]
    if P[P_DISCARD_FACE_DOWN] or P[P_NP] != 3 or seat == decl:
        return 0
    partner = 3 - seat - decl  # the hand's seats are 0, 1, 2
    given = S[S_GIVE1] if partner == (decl + 1) % 3 else S[S_GIVE2]
    if given < 0:
        return 0
    return (np.int64(1) << given) & ~S[S_PLAYED]


@hot
def cheapest_card(cards: int, costs_extra: int) -> int:
    """The card of a non-empty mask that costs least to play; ties: lowest id.

    The cost is the card's points, plus 40 for a card of a paired marriage (the
    bits of ``costs_extra``).
    """
    pick = -1
    pick_cost = 1 << 30
    m = cards
    while m:
        c = lowest(m)
        cost = POINTS[c] + (40 if costs_extra >> c & 1 else 0)
        if cost < pick_cost:
            pick_cost = cost
            pick = c
        m &= m - 1
    return pick


@hot
def richest_card(cards: int) -> int:
    """The card of a non-empty mask with the most points; ties: lowest id."""
    pick = -1
    pick_points = -1
    m = cards
    while m:
        c = lowest(m)
        if POINTS[c] > pick_points:
            pick_points = POINTS[c]
            pick = c
        m &= m - 1
    return pick


@hot
def follow_card(seat: int, S: np.ndarray, P: np.ndarray, allowed: int) -> int:
    """The scripted players' card when following (``allowed``: the legal cards).

    Last to play: the cheapest card that wins, else (a defender whose partner wins)
    the richest card that is neither an ace nor a marriage's, else the cheapest.
    Second to play: the highest card of the led suit when no unseen card beats it,
    else the lowest winning trump, else the cheapest card.
    """
    trump = S[S_TRUMP]
    best = S[S_BEST]
    bs = suit_of(best)
    hand = S[S_HAND0 + seat]
    paired = 0  # cards of marriages still held together
    for s in range(4):
        if hand & KQ[s] == KQ[s]:
            paired |= KQ[s]
    # cards that would take the trick now: higher in the best card's suit, or a trump
    wins = allowed & ABOVE[best]
    if trump != NO_SUIT and bs != trump:
        wins |= allowed & SUIT_BITS[trump]
    if S[S_NPLAYED] == P[P_NP] - 1:  # last to play: win as cheaply as possible
        if wins:
            return cheapest_card(wins, paired)
        # defenders share one aim: when the other defender wins, give it points
        if seat != S[S_DECL] and S[S_BEST_SEAT] != S[S_DECL]:
            givable = allowed & ~paired & ~ACES
            if givable:
                return richest_card(givable)
        return cheapest_card(allowed, paired)
    # second to play: take it with a card nobody left can beat, else play cheap
    if wins:
        trick = np.int64(1) << S[S_TC0]
        outside = ~(hand | S[S_PLAYED] | trick) & 0xFFFFFF
        led = SUIT_BITS[S[S_LED_SUIT]]
        if wins & led:
            c = highest(wins & led)
            if outside & ABOVE[c] == 0:  # nobody left holds a higher card of the suit
                return c
        if wins & ~led:
            return lowest(wins & ~led)  # the lowest trump
    return cheapest_card(allowed, paired)


@hot
def paired_marriages(hand: int) -> int:
    """The king and queen of every marriage ``hand`` holds together (a mask)."""
    paired = 0
    for s in range(4):
        if hand & KQ[s] == KQ[s]:
            paired |= KQ[s]
    return paired


# A right shift by k keeps a card in its suit where its rank is below 6 - k: these masks
# keep those bits (the smear of :func:`strictly_below`).
_IN_SUIT_1, _IN_SUIT_2, _IN_SUIT_4 = (
    np.int64(sum(1 << c for c in range(24) if c % 6 < 6 - k)) for k in (1, 2, 4)
)
# SUITS_CARDS[m]: every card of the suits in the 4-bit suit set m.
SUITS_CARDS = np.array(
    [sum(int(SUIT_BITS[s]) for s in range(4) if m >> s & 1) for m in range(16)], dtype=np.int64
)


@hot
def strictly_below(cards: int) -> int:
    """Every card ranking below a card of ``cards`` in its suit."""
    below = (cards >> 1) & _IN_SUIT_1
    below |= (below >> 1) & _IN_SUIT_1
    below |= (below >> 2) & _IN_SUIT_2
    below |= (below >> 4) & _IN_SUIT_4
    return below


@hot
def richest_of(cards: int) -> int:
    """The card of ``cards`` with the most points, ties the lowest id; -1 when empty.

    Points rise with rank (0, 2, 3, 4, 10, 11), so it is the highest rank's card of
    the lowest suit.
    """
    for r in range(5, -1, -1):
        of_rank = cards & RANK_BITS[r]
        if of_rank:
            return lowest(of_rank)
    return -1


@hot
def sure_winner(cards: int, outside: int, trump: int, trumps_out: int, voids: int) -> int:
    """The richest card of ``cards`` that wins its trick for sure, or -1.

    A card wins for sure when no card ``outside`` (unseen, unplayed) ranks above it in
    its suit and, outside trump, no opponent void in its suit may still trump it
    (``trumps_out``: the trumps outside; ``voids``: the suits the opponents lack).
    Computed on masks, card by card in none: the cards under an outside card of their
    suit, and the suits an opponent may ruff, are taken out at once.
    """
    sure = cards & ~strictly_below(outside)
    if trumps_out:
        ruffed = voids & 15
        if trump != NO_SUIT:
            ruffed &= ~(1 << trump)
        sure &= ~SUITS_CARDS[ruffed]
    return richest_of(sure)


@hot
def longest_suit_low(
    plain: int, hand: int, trump: int, paired: int, outside: int, known: int, pick: int
) -> int:
    """A low card of the longest non-trump suit of ``plain``, keeping marriages together.

    A suit whose top card outside is ``known`` to be the declarer's (a shown talon)
    counts as shorter; ties go to the card of fewer points. ``pick``: the card returned
    when ``plain`` is empty.
    """
    best_len = -100
    m = plain
    while m:
        c = lowest(m)
        m &= m - 1
        s = c // 6
        length = popcount(hand & SUIT_BITS[s]) - (8 if s == trump else 0)
        length -= 4 * (paired >> c & 1)
        rest = outside & SUIT_BITS[s]
        if known and rest and known >> highest(rest) & 1:
            length -= 2
        if length > best_len or (length == best_len and POINTS[c] < POINTS[pick]):
            best_len = length
            pick = c
    return pick


__all__ = [
    "ABOVE",
    "POINTS",
    "cheapest_card",
    "follow_card",
    "longest_suit_low",
    "paired_marriages",
    "partner_card",
    "richest_card",
    "richest_of",
    "strictly_below",
    "sure_winner",
]
