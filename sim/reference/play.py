"""Phase 9: legal leads and follows, marriages and trump, the tricks (docs/rules.md §6)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.cards import N_RANKS, SUIT_LETTERS, Rank, card_str
from sim.engine.actions import DECLARE, Decision
from sim.reference.bits import ACE_BIT, marriages_held, rank, suit
from sim.reference.choose import Chooser
from sim.reference.state import NO_TRUMP, PlayState, Table
from sim.rules import ACE_MARRIAGE_VALUE, Rules


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` beats the trick's current ``best`` card under ``trump``."""
    if suit(card) == suit(best):
        return rank(card) > rank(best)
    return suit(card) == trump


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """Position in the trick (0 = the lead) of the card that wins a complete trick."""
    best, at = cards[0], 0
    for i, c in enumerate(cards[1:], start=1):
        if beats(c, best, trump):
            best, at = c, i
    return at


def legal_leads(
    rules: Rules, hand: Sequence[int], trick: int, leader: int, st: PlayState
) -> list[int]:
    """Action codes the leader may play (PROTOCOL.md §9 "Lead"), ascending.

    Plain codes are card ids; a declaring lead (marriage or ace marriage) is
    ``DECLARE + card``.
    """
    held = sorted(hand)
    trumps = [c for c in held if suit(c) == st.trump]
    others = [c for c in held if suit(c) != st.trump]
    base = held
    if rules.play.must_lead_trump and st.trump != NO_TRUMP and trumps:
        base = trumps
    elif (
        rules.play.no_lead_foreign_trump
        and st.trump != NO_TRUMP
        and st.trump_setter != leader
        and others
    ):
        base = others
    declaring: list[int] = []
    m = rules.marriage
    if trick > 0 or m.first_lead:  # defenders declare too (marriage.only_declarer: for 0)
        for s in marriages_held(held):
            declaring += [s * N_RANKS + Rank.QUEEN, s * N_RANKS + Rank.KING]
        aces = [c for c in held if rank(c) == Rank.ACE]
        if m.ace and len(aces) == 4:
            declaring += aces
    return list(base) + sorted(DECLARE + c for c in declaring)


def legal_follows(rules: Rules, hand: Sequence[int], led: int, best: int, trump: int) -> list[int]:
    """Cards a follower may play (PROTOCOL.md §9 "Follow"), ascending.

    Args:
        rules: house rules.
        hand: the follower's cards.
        led: the card led.
        best: the trick's current best card.
        trump: the trick's trump (after the lead), ``NO_TRUMP`` for none.
    """
    held = sorted(hand)
    allowed = [c for c in held if suit(c) == suit(led)]
    if not allowed and rules.play.must_trump and trump != NO_TRUMP:
        allowed = [c for c in held if suit(c) == trump]
    if not allowed:
        allowed = held
    if rules.play.must_beat:
        winning = [c for c in allowed if beats(c, best, trump)]
        if winning:
            allowed = winning
    return allowed


def _declare(rules: Rules, st: PlayState, leader: int, card: int) -> str:
    """Apply a declaring lead of ``card``; return the trace's marriage letter.

    With ``marriage.only_declarer`` a defender's declaration scores 0 (it still sets
    trump). With ``marriage.changes_trump`` off only the deal's first trump is set:
    a declaration changes nothing once a trump is set or pending.
    """
    m = rules.marriage
    if rank(card) == Rank.ACE:
        value, bit = ACE_MARRIAGE_VALUE, ACE_BIT
        sets_trump, letter = m.ace_sets_trump, "A"
    else:
        value, bit = rules.marriage_values[suit(card)], 1 << suit(card)
        sets_trump, letter = True, SUIT_LETTERS[suit(card)]
    if not m.only_declarer or leader == st.declarer:
        st.declared_value[leader] += value
    st.declared[leader] |= bit
    no_trump_yet = st.trump == NO_TRUMP and st.pending == NO_TRUMP
    if sets_trump and (m.changes_trump or no_trump_yet):
        if m.trump_from == "this_trick":
            st.trump = suit(card)
        else:
            st.pending = suit(card)
        st.trump_setter = leader
    return letter


def play_tricks(
    rules: Rules, table: Table, hands: list[list[int]], st: PlayState, chooser: Chooser
) -> tuple[list[dict[str, Any]], list[list[int]]]:
    """Play every trick, the declarer leading the first (PROTOCOL.md §9).

    8 tricks of 3 cards (3 active players), or 11 tricks of 2 (2 players).

    Args:
        rules: house rules.
        table: who plays, in which order.
        hands: every seat's hand after the discard; emptied as cards are played.
        st: trump and marriage state; updated.
        chooser: decides every lead and follow.

    Returns:
        The trace's tricks and, by seat, the cards each seat captured.
    """
    tricks: list[dict[str, Any]] = []
    captured: list[list[int]] = [[] for _ in range(table.players)]
    n_tricks = len(hands[st.declarer])
    leader = st.declarer
    for t in range(n_tricks):
        legal = legal_leads(rules, hands[leader], t, leader, st)
        code = chooser.choose(Decision.PLAY, leader, legal, f" leading trick {t + 1}")
        marriage = None
        led = code
        if code >= DECLARE:
            led = code - DECLARE
            marriage = _declare(rules, st, leader, led)
        hands[leader].remove(led)
        cards, best, winner = [led], led, leader
        for k in range(1, len(table.active)):
            seat = table.after(leader, k)
            legal = legal_follows(rules, hands[seat], led, best, st.trump)
            card = chooser.choose(Decision.PLAY, seat, legal, f" following in trick {t + 1}")
            hands[seat].remove(card)
            cards.append(card)
            if beats(card, best, st.trump):
                best, winner = card, seat
        assert winner == table.after(leader, trick_winner(cards, st.trump))
        captured[winner] += cards
        tricks.append(
            {
                "leader": leader,
                "cards": [card_str(c) for c in cards],
                "marriage": marriage,
                "winner": winner,
            }
        )
        if st.pending != NO_TRUMP:
            st.trump, st.pending = st.pending, NO_TRUMP
        leader = winner
    return tricks, captured
