"""Trick play (docs/rules.md §6): legal leads and follows, marriages and trump, tricks.

Everything works on one deal's state ``S`` and is callable on its own, in the order
a trick runs (the open-card solver drives the same steps):

* :func:`start_trick` — trick ``t`` led by ``leader``;
* :func:`legal_leads` — the leader's plain leads and declaring leads, as masks;
* :func:`apply_lead` — the lead, with a declared marriage's value and its trump;
* :func:`legal_follows` — what a follower may play: follow suit, must trump, must beat;
* :func:`apply_follow` — a follower's card: voids shown, the trick's best card;
* :func:`finish_trick` — the winner captures, a pending trump takes effect.

Hands are masks (bit = card id ``suit * 6 + rank``), so "cards of suit s in H" is
``H & SUIT_BITS[s]`` and the rank order 9 < J < Q < K < 10 < A is the bit order
within a suit. A declaring lead is the action code ``DECLARE + card``.
"""

from __future__ import annotations

import numpy as np

from sim.engine.actions import ACE_BIT, DECLARE
from sim.engine.bits import ACE, ACES, KQ, SUIT_BITS, lowest, suit_of
from sim.engine.params import (
    NEXT_TRICK,
    P_ACE,
    P_ACE_SETS_TRUMP,
    P_CHANGES_TRUMP,
    P_FIRST_LEAD,
    P_MUST_BEAT,
    P_MUST_LEAD_TRUMP,
    P_MUST_TRUMP,
    P_MV_S,
    P_NO_LEAD_FOREIGN,
    P_NP,
    P_ONLY_DECLARER,
    P_TRUMP_FROM,
)
from sim.engine.state import (
    NO_SUIT,
    S_BEST,
    S_BEST_SEAT,
    S_CAPT0,
    S_DECL,
    S_DECLARED0,
    S_HAND0,
    S_LEAD_MARRIAGE,
    S_LEADER,
    S_LED_SUIT,
    S_MPTS0,
    S_NOT0,
    S_NPLAYED,
    S_PENDING,
    S_PILE0,
    S_PLAYED,
    S_TC0,
    S_TRICK_NO,
    S_TRICKS0,
    S_TRUMP,
    S_TRUMP_NAMED,
    S_TRUMP_SETTER,
    S_VOID0,
)
from sim.jit import hot
from sim.rules import ACE_MARRIAGE_VALUE

ACE_MARRIAGE = 4  # the trick log's code of the ace marriage (a suit's marriage: its suit)


@hot
def beats(c: int, best: int, trump: int) -> bool:
    """Whether card ``c`` beats the trick's current best card under ``trump``."""
    sc = suit_of(c)
    sb = suit_of(best)
    if sc == sb:
        return c > best
    return sc == trump


@hot
def name_trump(S: np.ndarray, suit: int) -> None:
    """``trump.named_by_declarer``: the declarer's suit is trump from the first trick."""
    S[S_TRUMP] = suit
    S[S_TRUMP_SETTER] = S[S_DECL]
    S[S_TRUMP_NAMED] = suit


@hot
def start_trick(S: np.ndarray, t: int, leader: int) -> None:
    """Trick ``t`` (0-based) begins; ``leader`` is to lead."""
    S[S_TRICK_NO] = t
    S[S_LEADER] = leader
    S[S_NPLAYED] = 0


@hot
def legal_leads(S: np.ndarray, P: np.ndarray, seat: int) -> tuple[int, int]:
    """Legal leads of ``seat`` as masks: the plain leads, and the declaring leads.

    Plain leads are restricted by ``play.must_lead_trump`` and
    ``play.no_lead_foreign_trump``. Declaring leads (a K or Q of a held marriage, an
    ace of four aces with ``marriage.ace``) are open to every seat from the second
    trick on (from the first with ``marriage.first_lead``), whatever the lead rules
    say; ``marriage.only_declarer`` makes a defender's declaration score 0, not
    illegal. With the plain ones first, ascending codes are PROTOCOL.md's legal list.
    """
    hand = S[S_HAND0 + seat]
    trump = S[S_TRUMP]
    base = hand
    if trump != NO_SUIT:
        trumps = hand & SUIT_BITS[trump]
        if P[P_MUST_LEAD_TRUMP] and trumps:
            base = trumps
        elif P[P_NO_LEAD_FOREIGN] and S[S_TRUMP_SETTER] != seat and hand & ~SUIT_BITS[trump]:
            base = hand & ~SUIT_BITS[trump]
    declaring = 0
    if S[S_TRICK_NO] > 0 or P[P_FIRST_LEAD]:
        for s in range(4):
            if hand & KQ[s] == KQ[s]:
                declaring |= KQ[s]
        if P[P_ACE] and hand & ACES == ACES:
            declaring |= ACES
    return base, declaring


@hot
def _set_trump(S: np.ndarray, P: np.ndarray, suit: int, seat: int) -> None:
    if P[P_TRUMP_FROM] == NEXT_TRICK:
        S[S_PENDING] = suit * 4 + seat  # applied when the trick is over
    else:
        S[S_TRUMP] = suit
        S[S_TRUMP_SETTER] = seat


@hot
def _declare(S: np.ndarray, P: np.ndarray, leader: int, card: int) -> int:
    """A declaring lead of ``card``: the marriage's value and trump; its log code.

    The value goes to the leader unless ``marriage.only_declarer`` keeps it for the
    declarer (a defender's declaration then scores 0 but still sets trump). Trump
    changes with every declaration, or with ``marriage.changes_trump`` off only while
    the deal has no trump yet (none set and none pending).
    """
    suit = suit_of(card)
    if card % 6 == ACE:  # an ace: the ace marriage (four aces)
        value = ACE_MARRIAGE_VALUE
        bit = ACE_BIT
        code = ACE_MARRIAGE
        sets_trump = P[P_ACE_SETS_TRUMP] != 0
    else:
        value = P[P_MV_S + suit]
        bit = 1 << suit
        code = suit
        sets_trump = True
    if not P[P_ONLY_DECLARER] or leader == S[S_DECL]:
        S[S_MPTS0 + leader] += value
    S[S_DECLARED0 + leader] |= bit
    no_trump_yet = S[S_TRUMP] == NO_SUIT and S[S_PENDING] < 0
    if sets_trump and (P[P_CHANGES_TRUMP] or no_trump_yet):
        _set_trump(S, P, suit, leader)
    return code


@hot
def apply_lead(S: np.ndarray, P: np.ndarray, code: int) -> None:
    """The leader plays action ``code`` (a card, or ``DECLARE + card`` to declare)."""
    leader = S[S_LEADER]
    c = code - DECLARE if code >= DECLARE else code
    S[S_HAND0 + leader] ^= np.int64(1) << c
    S[S_PLAYED] |= np.int64(1) << c
    S[S_PILE0 + S[S_TRICK_NO] * P[P_NP]] = c
    S[S_LEAD_MARRIAGE] = _declare(S, P, leader, c) if code >= DECLARE else -1
    S[S_LED_SUIT] = suit_of(c)
    S[S_TC0] = c
    S[S_TC0 + 2] = -1
    S[S_BEST] = c
    S[S_BEST_SEAT] = leader
    S[S_NPLAYED] = 1


@hot
def legal_follows(S: np.ndarray, P: np.ndarray, seat: int) -> int:
    """Legal cards of a follower as a mask (follow suit, must trump, must beat)."""
    hand = S[S_HAND0 + seat]
    led = S[S_LED_SUIT]
    trump = S[S_TRUMP]
    allowed = hand & SUIT_BITS[led]
    if allowed == 0:
        if P[P_MUST_TRUMP] and trump != NO_SUIT and hand & SUIT_BITS[trump]:
            allowed = hand & SUIT_BITS[trump]
        else:
            allowed = hand
    if P[P_MUST_BEAT]:
        best = S[S_BEST]
        winners = 0
        m = allowed
        while m:
            c = lowest(m)
            if beats(c, best, trump):
                winners |= np.int64(1) << c
            m &= m - 1
        if winners:
            allowed = winners
    return allowed


@hot
def reveal(S: np.ndarray, P: np.ndarray, seat: int, card: int) -> None:
    """What a follower's ``card`` shows everyone it does not hold (``S_NOT``).

    Not following suit shows a void in the led suit, and under ``play.must_trump`` in
    trump too when the card is no trump. Under ``play.must_beat`` a card that does not
    beat the trick shows that no card the follower was allowed to play beats it: no
    higher card of the led suit, or (void in it) no trump that would win.
    """
    led = S[S_LED_SUIT]
    trump = S[S_TRUMP]
    best = S[S_BEST]
    suit = suit_of(card)
    shown = np.int64(0)
    if suit != led:
        shown |= SUIT_BITS[led]
        if P[P_MUST_TRUMP] and trump != NO_SUIT and suit != trump:
            shown |= SUIT_BITS[trump]
    if P[P_MUST_BEAT] and not beats(card, best, trump):
        above = ~((np.int64(2) << best) - 1)  # the cards above the best one
        if suit == led:
            if suit_of(best) == led:
                shown |= SUIT_BITS[led] & above
        elif trump != NO_SUIT:
            # void in the led suit: no trump (above the best one, if that is a trump)
            shown |= SUIT_BITS[trump] & (above if suit_of(best) == trump else ~np.int64(0))
    S[S_NOT0 + seat] |= shown


@hot
def apply_follow(S: np.ndarray, P: np.ndarray, seat: int, card: int, shown: bool = True) -> None:
    """``seat`` plays ``card`` to the trick: a void shown, perhaps the new best card.

    ``shown`` False leaves out what the card shows the others (:func:`reveal`): the
    open-card search, where every card is seen, never reads it.
    """
    j = S[S_NPLAYED]
    if shown:
        reveal(S, P, seat, card)
    S[S_HAND0 + seat] ^= np.int64(1) << card
    S[S_PLAYED] |= np.int64(1) << card
    S[S_PILE0 + S[S_TRICK_NO] * P[P_NP] + j] = card
    if suit_of(card) != S[S_LED_SUIT]:
        S[S_VOID0 + seat] |= 1 << S[S_LED_SUIT]
    if beats(card, S[S_BEST], S[S_TRUMP]):
        S[S_BEST] = card
        S[S_BEST_SEAT] = seat
    S[S_TC0 + j] = card
    S[S_NPLAYED] = j + 1


@hot
def finish_trick(S: np.ndarray, P: np.ndarray) -> int:
    """The best card's holder captures the trick; a pending trump takes effect; the winner."""
    winner = S[S_BEST_SEAT]
    trick = np.int64(0)
    for j in range(P[P_NP]):
        trick |= np.int64(1) << S[S_TC0 + j]
    S[S_CAPT0 + winner] |= trick
    S[S_TRICKS0 + winner] += 1
    if S[S_PENDING] >= 0:
        S[S_TRUMP] = S[S_PENDING] // 4
        S[S_TRUMP_SETTER] = S[S_PENDING] % 4
        S[S_PENDING] = -1
    return winner
