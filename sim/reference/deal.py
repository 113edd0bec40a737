"""Dealing (docs/rules.md §2): the shuffled deal, the cut deck, the bottom-card ritual."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sim.cards import N_CARDS, Rank
from sim.engine.deal import ritual_on
from sim.reference.bits import rank
from sim.reference.rng import _stream_key, bounded, item_state
from sim.reference.state import PLAYERS, Table, place_sizes
from sim.rng import Stream
from sim.rules import Rules


def deal_cards(
    seed: int, number: int, stream: Stream = Stream.DEALS, players: int = PLAYERS
) -> list[int]:
    """Deal ``number`` of the run seeded ``seed``, as ``generate_deals(..., players)``.

    The same exact Fisher-Yates shuffle as :mod:`sim.engine.deal`, on the pure-Python
    generator above: positions 23 down to the size of the first place (7, or 10 with
    2 players) each take a uniform card among those left, then each place (3 and 4
    players: three hands of 7 and the talon of 3; 2 players: two hands of 10 and two
    talons of 2) is sorted by id. ``stream`` picks the key (``Stream.GAME_DEALS`` for
    the deals of whole games, as :func:`sim.engine.deal.deal_into` with
    ``stream_key(seed, Stream.GAME_DEALS)``).

    Returns:
        The 24 card ids by place.
    """
    sizes = place_sizes(players)
    row = list(range(N_CARDS))
    state = item_state(_stream_key(seed, stream), number)
    counter = 0
    for p in range(N_CARDS - 1, sizes[0] - 1, -1):
        j, counter = bounded(state, counter, p + 1)
        row[p], row[j] = row[j], row[p]
    cards: list[int] = []
    start = 0
    for size in sizes:
        cards += sorted(row[start : start + size])
        start += size
    return cards


CUT_MIN = 3  # each part of a cut keeps at least 3 cards: 3..21 cards are lifted
TALON_FIRST, TALON_LAST = 3, 20  # deal positions (0-based) the talon cards may take
MIDDLE_FIRST, MIDDLE_LAST = 3, 20  # where a bottom jack is put back
RITUAL_NINES = 3  # the third bottom nine in a row: the cutter pays, the deal goes ahead


def talon_positions(state: int, counter: int, k: int) -> tuple[list[int], int]:
    """``k`` distinct deal positions in 3..20 (partial Fisher-Yates), ascending."""
    pos = list(range(TALON_FIRST, TALON_LAST + 1))
    for i in range(k):
        j, counter = bounded(state, counter, len(pos) - i)
        pos[i], pos[i + j] = pos[i + j], pos[i]
    return sorted(pos[:k]), counter


def place_of_deal_position(hands: int, forehand: int, talon_pos: Sequence[int]) -> list[int]:
    """The place each of the 24 deal positions goes to (one card at a time).

    Hand places from forehand clockwise (``hands`` of them; the 4-player dealer sits
    out), the talon positions to place ``hands`` (with 2 players the first two
    positions to place 2, the last two to place 3).
    """
    place_of = []
    j = 0
    for p in range(N_CARDS):
        if p in talon_pos:
            t = talon_pos.index(p)
            place_of.append(hands + (t // 2 if len(talon_pos) == 4 else 0))
        else:
            place_of.append((forehand + j) % hands)
            j += 1
    return place_of


def cut_deck(deck: Sequence[int], c: int) -> list[int]:
    """The deck after lifting its top ``c`` cards and putting them under the rest."""
    return list(deck[c:]) + list(deck[:c])


def deck_of_places(
    places: list[list[int]], place_of: list[int], state: int, counter: int
) -> tuple[list[int], int]:
    """A deck that deals ``places`` by ``place_of``: each place's cards shuffled.

    Each place's cards (ascending) are shuffled by Fisher-Yates, places 0..3 in turn,
    and laid on that place's deal positions in order.
    """
    deck = [0] * N_CARDS
    for q, cards in enumerate(places):
        cards = list(cards)
        for i in range(len(cards) - 1, 0, -1):
            j, counter = bounded(state, counter, i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        spots = [p for p in range(N_CARDS) if place_of[p] == q]
        for p, c in zip(spots, cards, strict=True):
            deck[p] = c
    return deck, counter


def bottom_ritual(
    rules: Rules, deck: list[int], state: int, counter: int
) -> tuple[list[int], int, bool, int]:
    """The bottom-card ritual: recuts on a bottom nine, then a bottom jack to the middle.

    Returns the deck, the bottom nines seen (0..3; 3: the cutter pays), whether a jack
    was moved, and the next counter.
    """
    nines = 0
    while rules.deal.nine_cut_penalty > 0 and rank(deck[-1]) == Rank.NINE:
        nines += 1
        if nines == RITUAL_NINES:
            break
        c, counter = bounded(state, counter, N_CARDS - 2 * CUT_MIN + 1)
        deck = cut_deck(deck, CUT_MIN + c)
    moved = False
    if rules.deal.jack_to_middle and rank(deck[-1]) == Rank.JACK:
        at, counter = bounded(state, counter, MIDDLE_LAST - MIDDLE_FIRST + 1)
        deck = [*deck[: MIDDLE_FIRST + at], deck[-1], *deck[MIDDLE_FIRST + at : -1]]
        moved = True
    return deck, nines, moved, counter


@dataclass
class Dealt:
    """One dealt deal: its 24 card ids by place, and what the ritual did."""

    cards: list[int]
    bottom_nines: int = 0
    jack_moved: bool = False


def deal_hand(
    rules: Rules,
    seed: int,
    number: int,
    dealer: int,
    stream: Stream = Stream.DEALS,
    deck: Sequence[int] | None = None,
) -> Dealt:
    """Deal ``number`` as docs/rules.md §2 says (PROTOCOL.md, dealing).

    Without ``deck``: the shuffled deal ``number`` of ``stream`` (:func:`deal_cards`).
    With ``deck`` (the previous deal gathered, top first, under ``deal.method =
    "cut"``): the player on the dealer's right cuts it and the dealer deals it one
    card at a time, the talon at drawn positions. The bottom-card ritual applies to
    either; a shuffled deal is then laid out as a deck first, so a deal where the
    ritual does nothing stays the same.
    """
    n = rules.players
    if deck is None:
        cards = deal_cards(seed, number, stream, players=n)
        if not ritual_on(rules):
            return Dealt(cards)
    hands = 2 if n == 2 else 3
    hand_dealer = 2 if n == 4 else dealer  # the 4-player dealer sits out
    state = item_state(_stream_key(seed, Stream.CUT), number)
    talon_pos, counter = talon_positions(state, 0, 4 if n == 2 else 3)
    place_of = place_of_deal_position(hands, (hand_dealer + 1) % hands, talon_pos)
    if deck is None:
        sizes = place_sizes(n)
        bounds = [sum(sizes[:q]) for q in range(5)]
        places = [cards[bounds[q] : bounds[q + 1]] for q in range(4)]
        laid, counter = deck_of_places(places, place_of, state, counter)
    else:
        c, counter = bounded(state, counter, N_CARDS - 2 * CUT_MIN + 1)
        laid = cut_deck(deck, CUT_MIN + c)
    laid, nines, moved, counter = bottom_ritual(rules, laid, state, counter)
    by_place: list[list[int]] = [[], [], [], []]
    for p, c in enumerate(laid):
        by_place[place_of[p]].append(c)
    return Dealt([c for q in by_place for c in sorted(q)], nines, moved)


def gather(table: Table, held: list[list[int]], pile: Sequence[int] | None = None) -> list[int]:
    """The next deck (top first): a deal's cards gathered as they lie (docs/rules.md §2).

    ``pile``: a played deal's cards in play order (the first trick at the bottom);
    then any card neither in the pile nor in a hand (2 players: the set-aside talon)
    ascending on top. Without a pile (a redealt or conceded deal) the hands in
    ``held`` (by seat) from forehand clockwise, each ascending, then the cards in no
    hand (the talon) ascending.
    """
    bottom_up: list[int] = list(pile) if pile is not None else []
    if pile is None:
        for s in table.active:
            bottom_up += sorted(held[s])
    bottom_up += sorted(set(range(N_CARDS)) - set(bottom_up))
    return bottom_up[::-1]


def seat_cards(table: Table, ids: Sequence[int]) -> tuple[list[list[int]], list[list[int]]]:
    """The dealt hands by seat and the talon(s), from 24 card ids by place.

    3 players: seat ``s`` holds place ``s``. 4 players: place ``k`` goes to the active
    seat ``d+1+k`` and the dealer holds nothing. 2 players: seat ``s`` holds place
    ``s``; places 2 and 3 are the two talons. Every place is sorted by id.

    Returns:
        One hand per seat of the game, and the talons (one, or two with 2 players).
    """
    places: list[list[int]] = []
    start = 0
    for size in place_sizes(table.players):
        places.append(sorted(ids[start : start + size]))
        start += size
    if table.players == 2:
        return [places[0], places[1]], [places[2], places[3]]
    if table.players == 3:
        return [places[0], places[1], places[2]], [places[3]]
    hands: list[list[int]] = [[] for _ in range(table.players)]
    for k in range(3):
        hands[(table.dealer + 1 + k) % table.players] = places[k]
    return hands, [places[3]]
