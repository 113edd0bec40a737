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
reshuffle conditions of RULES.md §3 (a bitmask of :data:`HAND_REASONS` for hands,
of :data:`TALON_REASONS` for talons).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange
from numba.cpython.unsafe.numbers import trailing_zeros

from sim.cards import MARRIAGE_MASK, N_CARDS, RANK_MASK, RANK_POINTS
from sim.rng import Stream, bounded, item_state, stream_key
from sim.rules import Rules, RulesError

N_PLACES = 4

# Reason bits of the reshuffle conditions (RULES.md §3), hands and talons apart.
HAND_REASONS = ("hand_points_below", "hand_nines", "hand_four_jacks")
TALON_REASONS = ("talon_points_below", "talon_two_nines", "talon_three_jacks")


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


# Points of every 6-bit suit pattern (bit r = rank r held).
_SUIT_POINTS = np.array(
    [sum(RANK_POINTS[r] for r in range(6) if p >> r & 1) for p in range(64)], dtype=np.int16
)
_RANK_MASK = RANK_MASK.copy()
_MARRIAGE_MASK = MARRIAGE_MASK.copy()


def reshuffle_params(rules: Rules) -> np.ndarray:
    """The reshuffle thresholds of RULES.md §3 as a flat ``int64`` vector for kernels."""
    r = rules.reshuffle
    return np.array(
        [
            r.hand_points_below,
            r.hand_nines,
            int(r.hand_four_jacks),
            r.talon_points_below,
            int(r.talon_two_nines),
            int(r.talon_three_jacks),
        ],
        dtype=np.int64,
    )


@njit(cache=True, inline="always")
def rank_count(mask: int, rank: int) -> int:
    """Number of cards of one rank in a hand mask (bits of a rank are 6 apart)."""
    x = (int(mask) & int(_RANK_MASK[rank])) >> rank
    return int((x * 0x41041 >> 18) & 7)


@njit(cache=True, inline="always")
def mask_points(mask: int) -> int:
    """Card points of a hand mask."""
    m = int(mask)
    return int(
        _SUIT_POINTS[m & 63]
        + _SUIT_POINTS[(m >> 6) & 63]
        + _SUIT_POINTS[(m >> 12) & 63]
        + _SUIT_POINTS[(m >> 18) & 63]
    )


@njit(cache=True, inline="always")
def marriages_of(mask: int) -> int:
    """Suit bitmask of the marriages (K+Q of one suit) held in a hand mask."""
    m = int(mask)
    out = 0
    for s in range(4):
        mm = int(_MARRIAGE_MASK[s])
        if m & mm == mm:
            out |= 1 << s
    return out


@njit(cache=True, inline="always")
def hand_reshuffle_bits(points: int, nines: int, jacks: int, params: np.ndarray) -> int:
    """Bitmask of :data:`HAND_REASONS` met by a hand (RULES.md §3)."""
    bits = 0
    if params[0] > 0 and points < params[0]:
        bits |= 1
    if params[1] > 0 and nines >= params[1]:
        bits |= 2
    if params[2] != 0 and jacks == 4:
        bits |= 4
    return bits


@njit(cache=True, inline="always")
def talon_reshuffle_bits(points: int, nines: int, jacks: int, params: np.ndarray) -> int:
    """Bitmask of :data:`TALON_REASONS` met by a talon (RULES.md §3)."""
    bits = 0
    if params[3] > 0 and points < params[3]:
        bits |= 1
    if params[4] != 0 and nines >= 2:
        bits |= 2
    if params[5] != 0 and jacks >= 3:
        bits |= 4
    return bits


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
    # Fisher-Yates from the top: positions first_hand..23 receive a uniform
    # random ordered sample; positions below only reorder the first hand.
    for p in range(N_CARDS - 1, first_hand - 1, -1):
        j, counter = bounded(state, counter, np.int64(p + 1))
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
        if self.rules.deal.method != "shuffle":
            raise RulesError(
                f"rules '{self.rules.name}': key 'deal.method' = {self.rules.deal.method!r} needs "
                "the played tricks of the previous deal; independent deals support 'shuffle' only"
            )
        self.players = self.rules.players
        self.chunk_size = max(1, _check_count(chunk_size, "chunk_size"))
        self._key = stream_key(seed, Stream.DEALS)
        self._place_of = _place_of_position(self.players)
        self._sizes = np.array(place_sizes(self.players), np.int64)
        self._params = reshuffle_params(self.rules)
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
        reshuffle_params(Rules()),
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
        reshuffle_params(rules),
        *feats,
    )
    return DealBatch(start, rules.players, cards, *feats)
