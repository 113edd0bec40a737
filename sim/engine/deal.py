"""Vectorized, reproducible deals and their deal-level features.

A deal is one row of an ``(n, 24)`` ``int8`` array of card ids, in *places*:

* 3 players (and 4, where the dealer sits out and the three active players are
  listed from forehand): seats 0, 1, 2 get 7 cards each (columns 0-6, 7-13, 14-20),
  then the talon of 3 (columns 21-23);
* 2 players: seats 0 and 1 get 10 cards each (columns 0-9, 10-19), then two talons
  of 2 (columns 20-21, 22-23).

Within a place the cards are sorted by id. Deal ``i`` of a run is a pure function of
``(seed, i)`` (counter-based random numbers, :mod:`sim.rng`), so a run gives the same
deals however it is chunked or threaded. Every permutation of the deck is equally
likely (an exact Fisher–Yates shuffle with unbiased bounded integers).

Features are computed per place from ``uint32`` masks in the same compiled pass:
card points, marriages held (suit bitmask), nines, jacks and aces, and the
reshuffle conditions of docs/rules.md §3 (a bitmask of :data:`HAND_REASONS` for hands,
of :data:`TALON_REASONS` for talons).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange
from numba.cpython.unsafe.numbers import trailing_zeros

import sim.jit  # noqa: F401  (the compiled-code cache: sim.cache)
from sim.cards import N_CARDS
from sim.engine.bits import marriages_of, mask_points, rank_count
from sim.engine.params import rules_vector
from sim.engine.reshuffle import (
    hand_reshuffle_bits,
    talon_reshuffle_bits,
)
from sim.rng import Stream, bounded, bounded_next, item_state, stream_key
from sim.rules import Rules, RulesError

N_PLACES = 4


def place_sizes(players: int) -> tuple[int, int, int, int]:
    """Cards per place: three hands and the talon, or two hands and two talons."""
    if players in (3, 4):
        return (7, 7, 7, 3)
    if players == 2:
        return (10, 10, 2, 2)
    raise ValueError(f"players must be 2, 3 or 4, got {players!r}")


def n_hands(players: int) -> int:
    """Number of dealt hands (the 4-player dealer gets none)."""
    return 2 if players == 2 else 3


def _place_of_position(players: int) -> np.ndarray:
    return np.repeat(np.arange(N_PLACES, dtype=np.int8), place_sizes(players))


@njit(cache=True, inline="always")
def _features_row(
    k: int,
    masks: np.ndarray,
    hands: int,
    params: np.ndarray,
    points: np.ndarray,
    marriages: np.ndarray,
    nines: np.ndarray,
    jacks: np.ndarray,
    aces: np.ndarray,
    reshuffle: np.ndarray,
) -> None:
    """Fill the feature columns of deal row ``k`` from its place masks."""
    for q in range(N_PLACES):
        m = masks[k, q]
        p = mask_points(m)
        n9 = rank_count(m, 0)
        nj = rank_count(m, 1)
        points[k, q] = p
        marriages[k, q] = marriages_of(m)
        nines[k, q] = n9
        jacks[k, q] = nj
        aces[k, q] = rank_count(m, 5)
        if q < hands:
            reshuffle[k, q] = hand_reshuffle_bits(p, n9, nj, params)
        else:
            reshuffle[k, q] = talon_reshuffle_bits(p, n9, nj, params)


@njit(cache=True, inline="always")
def _write_sorted(row: np.ndarray, masks_row: np.ndarray) -> None:
    """Overwrite a deal row with each place's cards in ascending id order."""
    pos = 0
    for q in range(N_PLACES):
        m = np.uint32(masks_row[q])
        while m:
            row[pos] = trailing_zeros(m)  # type: ignore[call-arg]
            m &= m - np.uint32(1)
            pos += 1


@njit(cache=True, inline="always")
def deal_into(
    key: np.uint64,
    index: int,
    first_hand: int,
    place_of: np.ndarray,
    row: np.ndarray,
    masks_row: np.ndarray,
    sort: bool = True,
) -> None:
    """Deal number ``index`` of the stream ``key`` into ``row`` (24 ids) and its masks.

    With ``sort`` false the row is left in shuffled order (callers that only need
    the masks skip the sort).
    """
    for c in range(N_CARDS):
        row[c] = c
    state = item_state(key, np.int64(index))
    counter = np.int64(0)
    w = np.uint64(0)
    # Fisher-Yates from the top: positions first_hand..23 receive a uniform
    # random ordered sample; positions below only reorder the first hand.
    for p in range(N_CARDS - 1, first_hand - 1, -1):
        j, counter, w = bounded_next(state, counter, np.int64(p + 1), w)
        t = row[p]
        row[p] = row[j]
        row[j] = t
    for q in range(N_PLACES):
        masks_row[q] = 0
    for p in range(N_CARDS):
        masks_row[place_of[p]] |= np.uint32(1) << np.uint32(row[p])
    if sort:
        _write_sorted(row, masks_row)


@njit(cache=True, parallel=True)
def _deal_kernel(
    key: np.uint64,
    start: np.int64,
    place_of: np.ndarray,
    sizes: np.ndarray,
    hands: int,
    params: np.ndarray,
    want_features: bool,
    cards: np.ndarray,
    masks: np.ndarray,
    points: np.ndarray,
    marriages: np.ndarray,
    nines: np.ndarray,
    jacks: np.ndarray,
    aces: np.ndarray,
    reshuffle: np.ndarray,
) -> None:
    n = cards.shape[0]
    first_hand = sizes[0]
    for k in prange(n):
        deal_into(key, start + k, first_hand, place_of, cards[k], masks[k])
        if want_features:
            _features_row(k, masks, hands, params, points, marriages, nines, jacks, aces, reshuffle)


@njit(cache=True, parallel=True)
def _features_kernel(
    cards: np.ndarray,
    place_of: np.ndarray,
    hands: int,
    params: np.ndarray,
    masks: np.ndarray,
    points: np.ndarray,
    marriages: np.ndarray,
    nines: np.ndarray,
    jacks: np.ndarray,
    aces: np.ndarray,
    reshuffle: np.ndarray,
) -> None:
    n = cards.shape[0]
    for k in prange(n):
        for q in range(N_PLACES):
            masks[k, q] = 0
        for p in range(N_CARDS):
            masks[k, place_of[p]] |= np.uint32(1) << np.uint32(cards[k, p])
        _features_row(k, masks, hands, params, points, marriages, nines, jacks, aces, reshuffle)


@dataclass(frozen=True)
class DealBatch:
    """Deals ``start .. start + n - 1`` of a run with their per-place features.

    Every feature array has shape ``(n, 4)``: one column per place (hands first,
    then the talon(s), see the module docstring).
    """

    start: int
    players: int
    cards: np.ndarray  # (n, 24) int8 card ids by place, sorted within a place
    masks: np.ndarray  # (n, 4) uint32 hand masks (bit = card id)
    points: np.ndarray  # (n, 4) int16 card points
    marriages: np.ndarray  # (n, 4) uint8 suit bitmask of marriages held
    nines: np.ndarray  # (n, 4) int8
    jacks: np.ndarray  # (n, 4) int8
    aces: np.ndarray  # (n, 4) int8
    reshuffle: np.ndarray  # (n, 4) uint8 reason bits: HAND_REASONS / TALON_REASONS

    def __len__(self) -> int:
        return int(self.cards.shape[0])

    @property
    def n_hands(self) -> int:
        """Number of dealt hands (places before the talon)."""
        return n_hands(self.players)


def _empty_features(n: int) -> tuple[np.ndarray, ...]:
    return (
        np.empty((n, N_PLACES), np.uint32),
        np.empty((n, N_PLACES), np.int16),
        np.empty((n, N_PLACES), np.uint8),
        np.empty((n, N_PLACES), np.int8),
        np.empty((n, N_PLACES), np.int8),
        np.empty((n, N_PLACES), np.int8),
        np.empty((n, N_PLACES), np.uint8),
    )


def _check_count(n: int, what: str = "n") -> int:
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or int(n) < 0:
        raise ValueError(f"{what} must be a non-negative integer, got {n!r}")
    return int(n)


class DealStream:
    """Chunked deals of one run with reused buffers, for streaming over 10^8+ deals.

    ``stream.batch(start, n)`` returns deals ``start .. start+n-1``; the arrays of
    the returned batch are overwritten by the next call, so copy what you keep.
    Memory stays at one chunk whatever the number of deals.
    """

    def __init__(self, seed: int, rules: Rules | None = None, chunk_size: int = 1 << 20):
        self.rules = rules if rules is not None else Rules()
        if dealt_by_play(self.rules):
            raise RulesError(
                f"rules '{self.rules.name}': 'deal.method' = {self.rules.deal.method!r} or the "
                "bottom-card ritual needs the hand engine's deals "
                "(sim.runs.odds.played_first_deals); "
                "this stream deals independent shuffled deals only"
            )
        self.players = self.rules.players
        self.chunk_size = max(1, _check_count(chunk_size, "chunk_size"))
        self._key = stream_key(seed, Stream.DEALS)
        self._place_of = _place_of_position(self.players)
        self._sizes = np.array(place_sizes(self.players), np.int64)
        self._params = rules_vector(self.rules)
        self._cards = np.empty((self.chunk_size, N_CARDS), dtype=np.int8)
        self._feats = _empty_features(self.chunk_size)

    def batch(self, start: int, n: int) -> DealBatch:
        """Deals ``start .. start+n-1`` (``n`` at most ``chunk_size``) with features."""
        start, n = _check_count(start, "start"), _check_count(n)
        if n > self.chunk_size:
            raise ValueError(f"n={n} exceeds chunk_size={self.chunk_size}")
        cards = self._cards[:n]
        feats = tuple(f[:n] for f in self._feats)
        _deal_kernel(
            self._key,
            np.int64(start),
            self._place_of,
            self._sizes,
            n_hands(self.players),
            self._params,
            True,
            cards,
            *feats,
        )
        return DealBatch(start, self.players, cards, *feats)


def deal_batch(n: int, seed: int, rules: Rules | None = None, start: int = 0) -> DealBatch:
    """Deals ``start .. start+n-1`` of the run seeded ``seed``, with features.

    Args:
        n: number of deals.
        seed: the run's seed (non-negative).
        rules: house rules; fix the player count and the reshuffle conditions.
        start: index of the first deal, so that chunks of a run line up.

    Returns:
        A :class:`DealBatch`.
    """
    n = _check_count(n)
    return DealStream(seed, rules, chunk_size=max(n, 1)).batch(start, n)


def generate_deals(n: int, seed: int, players: int = 3, start: int = 0) -> np.ndarray:
    """The ``(n, 24)`` ``int8`` card ids of deals ``start .. start+n-1`` of a run.

    Deal ``i`` depends only on ``(seed, players, i)``: generating 1,000 deals at once
    or as ten chunks of 100 (``start = 0, 100, ...``) gives identical rows.
    """
    n, start = _check_count(n), _check_count(start, "start")
    cards = np.empty((n, N_CARDS), dtype=np.int8)
    feats = _empty_features(n)
    _deal_kernel(
        stream_key(seed, Stream.DEALS),
        np.int64(start),
        _place_of_position(players),
        np.array(place_sizes(players), np.int64),
        n_hands(players),
        rules_vector(Rules()),
        False,
        cards,
        *feats,
    )
    return cards


def deal_features(cards: np.ndarray, rules: Rules | None = None, start: int = 0) -> DealBatch:
    """Features of existing deals (any ``(n, 24)`` array laid out by places)."""
    rules = rules if rules is not None else Rules()
    cards = np.ascontiguousarray(cards, dtype=np.int8)
    if cards.ndim != 2 or cards.shape[1] != N_CARDS:
        raise ValueError(f"deals must have shape (n, 24), got {cards.shape}")
    feats = _empty_features(cards.shape[0])
    _features_kernel(
        cards,
        _place_of_position(rules.players),
        n_hands(rules.players),
        rules_vector(rules),
        *feats,
    )
    return DealBatch(start, rules.players, cards, *feats)


# --- dealing from a deck: the cut, the talon's positions, the bottom-card ritual --------
# docs/rules.md §2. A deck is 24 card ids, top first. The dealer deals one card at a time
# clockwise from forehand; the talon cards are taken at deal positions drawn among
# TALON_FIRST .. TALON_LAST (never the first or last three cards), so the bottom card
# is dealt last, to the dealer (3 and 2 players) or to the dealer's right (4 players).
CUT_MIN = 3  # a cut leaves at least 3 cards in each part: 3..21 cards are lifted
TALON_FIRST, TALON_LAST = 3, 20  # deal positions (0-based) the talon cards may take
N_TALON_SLOTS = TALON_LAST - TALON_FIRST + 1
MIDDLE_FIRST, MIDDLE_LAST = 3, 20  # a bottom jack goes to one of the middle 18 places
RITUAL_NINES = 3  # the third bottom nine in a row costs the cutter deal.nine_cut_penalty
JACK_MOVED = 4  # bit of a ritual code: the bottom jack was moved (bits 0-1: nines seen)


def ritual_on(rules: Rules) -> bool:
    """Whether the bottom-card ritual can change a deal (docs/rules.md §2)."""
    return rules.deal.nine_cut_penalty > 0 or rules.deal.jack_to_middle


def dealt_by_play(rules: Rules) -> bool:
    """Whether deals depend on more than ``(seed, deal number)``: the cut or the ritual.

    Such deals come from the hand engine (:func:`sim.runs.odds.played_first_deals`): under
    ``cut`` the previous deal's play makes the next deck; the ritual needs the deck.
    """
    return rules.deal.method == "cut" or ritual_on(rules)


@njit(cache=True, inline="always")
def _draw_talon_positions(state: np.uint64, counter: int, k: int, pos: np.ndarray) -> int:
    """``pos[:k]``: ``k`` distinct deal positions in TALON_FIRST..TALON_LAST, ascending.

    A partial Fisher-Yates over the 18 positions: the i-th draw picks one of the
    ``18 - i`` left. Returns the next counter.
    """
    for i in range(N_TALON_SLOTS):
        pos[i] = TALON_FIRST + i
    for i in range(k):
        j, counter = bounded(state, counter, np.int64(N_TALON_SLOTS - i))
        j += i
        t = pos[i]
        pos[i] = pos[j]
        pos[j] = t
    for i in range(1, k):  # insertion sort of the k drawn positions
        x = pos[i]
        m = i - 1
        while m >= 0 and pos[m] > x:
            pos[m + 1] = pos[m]
            m -= 1
        pos[m + 1] = x
    return counter


@njit(cache=True, inline="always")
def _place_of_deal_position(
    hands: int, forehand: int, pos: np.ndarray, k: int, place_of: np.ndarray
) -> None:
    """``place_of[p]``: the place that deal position ``p`` goes to.

    Hand places are the hand seats (the 4-player dealer sits out: ``hands`` is 3 and
    ``forehand`` 0); the j-th card dealt to a hand goes to place ``(forehand + j) %
    hands``. The talon positions go to the talon place(s): with 2 players the first
    two to place 2, the last two to place 3.
    """
    j = 0
    t = 0
    for p in range(N_CARDS):
        if t < k and pos[t] == p:
            place_of[p] = hands + (t // 2 if k == 4 else 0)
            t += 1
        else:
            place_of[p] = (forehand + j) % hands
            j += 1


@njit(cache=True, inline="always")
def _cut(deck: np.ndarray, c: int, tmp: np.ndarray) -> None:
    """Lift the top ``c`` cards and put them under the rest."""
    for p in range(N_CARDS):
        tmp[p] = deck[(p + c) % N_CARDS]
    for p in range(N_CARDS):
        deck[p] = tmp[p]


@njit(cache=True, inline="always")
def _deck_of_places(
    masks: np.ndarray,
    place_of: np.ndarray,
    state: np.uint64,
    counter: int,
    deck: np.ndarray,
    cards: np.ndarray,
) -> int:
    """A deck that deals ``masks`` by ``place_of``: each place's cards in random order.

    Each place's cards (ascending ids) are shuffled by Fisher-Yates (places 0..3 in
    turn) and laid on that place's deal positions in order. A uniform deal so laid
    out is a uniform deck. Returns the next counter.
    """
    for q in range(N_PLACES):
        n = 0
        m = np.uint32(masks[q])
        while m:
            cards[n] = trailing_zeros(m)  # type: ignore[call-arg]
            m &= m - np.uint32(1)
            n += 1
        for i in range(n - 1, 0, -1):
            j, counter = bounded(state, counter, np.int64(i + 1))
            t = cards[i]
            cards[i] = cards[j]
            cards[j] = t
        i = 0
        for p in range(N_CARDS):
            if place_of[p] == q:
                deck[p] = cards[i]
                i += 1
    return counter


@njit(cache=True, inline="always")
def _bottom_ritual(
    deck: np.ndarray,
    nine_penalty: bool,
    jack_to_middle: bool,
    state: np.uint64,
    counter: int,
    tmp: np.ndarray,
) -> tuple[int, int]:
    """The bottom-card ritual (docs/rules.md §2); returns the ritual code and the counter.

    With ``nine_penalty``: a bottom nine makes the same player cut again, up to the
    third nine in a row (then the deal goes ahead and the cutter pays). Then with
    ``jack_to_middle`` a bottom jack moves to one of the middle 18 positions. Code:
    the nines seen (0..3) plus JACK_MOVED.
    """
    nines = 0
    while nine_penalty and deck[N_CARDS - 1] % 6 == 0:
        nines += 1
        if nines == RITUAL_NINES:
            break
        c, counter = bounded(state, counter, np.int64(N_CARDS - 2 * CUT_MIN + 1))
        _cut(deck, CUT_MIN + c, tmp)
    code = nines
    if jack_to_middle and deck[N_CARDS - 1] % 6 == 1:
        at, counter = bounded(state, counter, np.int64(MIDDLE_LAST - MIDDLE_FIRST + 1))
        at += MIDDLE_FIRST
        jack = deck[N_CARDS - 1]
        for p in range(N_CARDS - 1, at, -1):
            deck[p] = deck[p - 1]
        deck[at] = jack
        code |= JACK_MOVED
    return code, counter


DECK_WORK = 4 * N_CARDS  # length of a deck buffer: the deck, then scratch space


@njit(cache=True)
def deal_from_deck(
    shuffled: bool,
    work: np.ndarray,
    masks: np.ndarray,
    players: int,
    hand_dealer: int,
    nine_penalty: bool,
    jack_to_middle: bool,
    state: np.uint64,
) -> int:
    """Cut (or take a shuffled deal), hold the ritual, and deal; the ritual code.

    ``shuffled``: ``masks`` already hold a uniformly shuffled deal (a game's first
    deal, a ``shuffle`` deal, the first of a ``hands`` chain); with no ritual it is
    kept as it is, else a deck is laid out from it (so a deal where the ritual does
    nothing is the same deal). Otherwise ``work[:24]`` holds the previous deal's cards
    gathered (top first), and the player on the dealer's right cuts it. ``work`` is an
    ``int64`` buffer of DECK_WORK: the deck, then scratch space (compiled callers
    allocate nothing per deal). ``masks`` receive the dealt places in hand seats; the
    deck is left as dealt. Random numbers
    (PROTOCOL.md, dealing): the talon's positions, then the layout or the cut, then
    the ritual's recuts and the jack's new place, all from ``state``.
    """
    if shuffled and not nine_penalty and not jack_to_middle:
        return 0
    hands = 2 if players == 2 else 3
    k = 4 if players == 2 else 3
    forehand = (hand_dealer + 1) % hands
    deck = work[:N_CARDS]
    pos = work[N_CARDS : N_CARDS + N_TALON_SLOTS]
    place_of = work[2 * N_CARDS : 3 * N_CARDS]
    tmp = work[3 * N_CARDS :]
    counter = _draw_talon_positions(state, np.int64(0), k, pos)
    _place_of_deal_position(hands, forehand, pos, k, place_of)
    if shuffled:
        counter = _deck_of_places(masks, place_of, state, counter, deck, tmp)
    else:
        c, counter = bounded(state, counter, np.int64(N_CARDS - 2 * CUT_MIN + 1))
        _cut(deck, CUT_MIN + c, tmp)
    code, counter = _bottom_ritual(deck, nine_penalty, jack_to_middle, state, counter, tmp)
    for q in range(N_PLACES):
        masks[q] = 0
    for p in range(N_CARDS):
        masks[place_of[p]] |= np.uint32(1) << np.uint32(deck[p])
    return code
