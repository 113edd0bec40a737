"""Exact deal odds of Thousand by counting, with no sampling.

Every quantity of :data:`sim.odds_keys.ODDS_KEYS` is computed as an exact
:class:`fractions.Fraction` for any :class:`sim.rules.Rules`:

* Card points, nines, jacks and aces depend only on the *rank-count vector* of a
  set of cards, ``c[r]`` = how many cards of rank ``r`` it holds (ranks in
  :class:`sim.cards.Rank` order). An ``n``-card hand drawn from the 24-card deck has
  a multivariate hypergeometric rank-count vector: ``prod(C(4, c[r]))`` of the
  ``C(24, n)`` hands have the vector ``c`` (:func:`rank_count_weights`).
* Marriages (K+Q of one suit) are counted by inclusion–exclusion over suits
  (:func:`prob_marriages_at_least`) and, for several hands, over (hand, suit) pairs
  (:func:`prob_some_hand_has_marriage`).
* "Some hand (or the talon) meets a reshuffle condition" is one minus the share of
  deals where no place triggers. Those are counted by a memoised recursion over the
  rank counts still undealt (:func:`count_clean_deals`): the places are filled one
  after the other, each with a rank-count vector ``a`` that does not trigger, in
  ``prod(C(R[r], a[r]))`` ways when ``R`` cards of each rank remain.

Layouts follow :mod:`sim.odds_keys`: with 3 or 4 players three hands of 7 and one
talon of 3 are dealt (with 4 the dealer sits out with no cards, so the numbers are
the 3-player ones); with 2 players two hands of 10 and two talons of 2, of which
``talon.*`` and ``deal.*`` look at the first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import product
from math import comb, factorial, prod
from types import MappingProxyType

import numpy as np

from sim.cards import N_CARDS, N_RANKS, N_SUITS, RANK_POINTS, Rank, Suit
from sim.odds_keys import ODDS_KEYS
from sim.rules import Rules

RankCounts = tuple[int, ...]
"""Cards held of each rank, indexed by :class:`sim.cards.Rank` (9 J Q K 10 A)."""

RankPredicate = Callable[[RankCounts], bool]
"""A property of a set of cards that depends only on its rank-count vector."""

_NINE, _JACK, _ACE = int(Rank.NINE), int(Rank.JACK), int(Rank.ACE)


# --- layouts and reshuffle conditions --------------------------------------------------
@dataclass(frozen=True)
class Layout:
    """Sizes of the places cards are dealt to (docs/rules.md §2, §12).

    Attributes:
        hand: cards in one player's hand.
        talon: cards in one talon (the first one when there are two).
        n_hands: number of dealt hands.
        n_talons: number of talons.
    """

    hand: int
    talon: int
    n_hands: int
    n_talons: int

    @property
    def hand_talon(self) -> int:
        """Cards in a hand plus the (first) talon."""
        return self.hand + self.talon

    @property
    def place_sizes(self) -> tuple[int, ...]:
        """Sizes of every place of the deal: the hands, then the talons."""
        return (self.hand,) * self.n_hands + (self.talon,) * self.n_talons


def layout(players: int) -> Layout:
    """The deal layout for a number of players.

    Args:
        players: 2, 3 or 4.

    Returns:
        Two hands of 10 and two talons of 2 for 2 players; three hands of 7 and a
        talon of 3 otherwise (with 4 players the dealer gets no cards).

    Raises:
        ValueError: for an unsupported number of players.
    """
    if players == 2:
        return Layout(hand=10, talon=2, n_hands=2, n_talons=2)
    if players in (3, 4):
        return Layout(hand=7, talon=3, n_hands=3, n_talons=1)
    raise ValueError(f"players must be 2, 3 or 4, got {players}")


def rank_points(counts: RankCounts) -> int:
    """Card points of a set of cards given by its rank-count vector."""
    return sum(c * p for c, p in zip(counts, RANK_POINTS, strict=True))


@dataclass(frozen=True)
class HandCondition:
    """The hand reshuffle condition of docs/rules.md §3 (hashable, usable as a cache key).

    Attributes:
        points_below: triggers when the hand's points are below this (0 = off).
        nines: triggers with at least this many nines (0 = off).
        four_jacks: triggers with all four jacks.
    """

    points_below: int
    nines: int
    four_jacks: bool

    @classmethod
    def from_rules(cls, rules: Rules) -> HandCondition:
        """Read the thresholds from ``rules.reshuffle``."""
        r = rules.reshuffle
        return cls(r.hand_points_below, r.hand_nines, r.hand_four_jacks)

    @property
    def active(self) -> bool:
        """Whether any part of the condition is switched on."""
        return self.points_below > 0 or self.nines > 0 or self.four_jacks

    def __call__(self, counts: RankCounts) -> bool:
        """Whether a hand with this rank-count vector meets the condition."""
        return (
            (self.points_below > 0 and rank_points(counts) < self.points_below)
            or (self.nines > 0 and counts[_NINE] >= self.nines)
            or (self.four_jacks and counts[_JACK] == N_SUITS)
        )


@dataclass(frozen=True)
class TalonCondition:
    """The talon reshuffle condition of docs/rules.md §3 (hashable, usable as a cache key).

    Attributes:
        points_below: triggers when the talon's points are below this (0 = off).
        two_nines: triggers with two or more nines.
        three_jacks: triggers with three or more jacks.
    """

    points_below: int
    two_nines: bool
    three_jacks: bool

    @classmethod
    def from_rules(cls, rules: Rules) -> TalonCondition:
        """Read the thresholds from ``rules.reshuffle``."""
        r = rules.reshuffle
        return cls(r.talon_points_below, r.talon_two_nines, r.talon_three_jacks)

    @property
    def active(self) -> bool:
        """Whether any part of the condition is switched on."""
        return self.points_below > 0 or self.two_nines or self.three_jacks

    def __call__(self, counts: RankCounts) -> bool:
        """Whether a talon with this rank-count vector meets the condition."""
        return (
            (self.points_below > 0 and rank_points(counts) < self.points_below)
            or (self.two_nines and counts[_NINE] >= 2)
            or (self.three_jacks and counts[_JACK] >= 3)
        )


# --- one hand: rank counts -------------------------------------------------------------
def multinomial(n: int, parts: Sequence[int]) -> int:
    """Ways to split ``n`` distinct cards into labelled groups of the given sizes.

    Args:
        n: number of cards; must equal ``sum(parts)``.
        parts: group sizes.

    Returns:
        ``n! / prod(k!)``.

    Raises:
        ValueError: if the parts do not add up to ``n`` or one is negative.
    """
    if sum(parts) != n or any(k < 0 for k in parts):
        raise ValueError(f"parts {tuple(parts)} do not split {n}")
    return factorial(n) // prod(factorial(k) for k in parts)


def sub_vectors(limit: RankCounts, total: int) -> Iterator[RankCounts]:
    """Every vector ``a`` with ``0 <= a[i] <= limit[i]`` and ``sum(a) == total``.

    Args:
        limit: upper bound of each entry.
        total: required sum.

    Yields:
        The vectors, in lexicographic order.
    """
    limit = tuple(limit)
    if not limit:
        if total == 0:
            yield ()
        return
    head, tail = limit[0], limit[1:]
    for x in range(max(0, total - sum(tail)), min(head, total) + 1):
        for rest in _sub_vector_list(tail, total - x):
            yield (x, *rest)


@lru_cache(maxsize=1 << 16)
def _sub_vector_list(limit: RankCounts, total: int) -> tuple[RankCounts, ...]:
    """:func:`sub_vectors` as a cached tuple (used for the shorter tails)."""
    if not limit:
        return ((),) if total == 0 else ()
    head, tail = limit[0], limit[1:]
    out: list[RankCounts] = []
    for x in range(max(0, total - sum(tail)), min(head, total) + 1):
        out.extend((x, *rest) for rest in _sub_vector_list(tail, total - x))
    return tuple(out)


@cache
def rank_count_weights(n_cards: int) -> Mapping[RankCounts, int]:
    """How many ``n_cards``-card hands of the 24-card deck have each rank-count vector.

    The weight of ``c`` is ``prod(C(4, c[r]))``; the weights add up to ``C(24, n_cards)``.
    The result is cached and read-only.

    Args:
        n_cards: hand size, 0..24.

    Returns:
        ``{rank-count vector: number of hands}`` for every possible vector.
    """
    if not 0 <= n_cards <= N_CARDS:
        raise ValueError(f"n_cards must be 0..{N_CARDS}, got {n_cards}")
    full = (N_SUITS,) * N_RANKS
    weights = {c: prod(comb(N_SUITS, k) for k in c) for c in sub_vectors(full, n_cards)}
    return MappingProxyType(weights)


def rank_count_distribution(n_cards: int) -> dict[RankCounts, Fraction]:
    """Exact distribution of the rank-count vector of a random ``n_cards``-card hand.

    Multivariate hypergeometric: ``P(c) = prod(C(4, c[r])) / C(24, n_cards)``.

    Args:
        n_cards: hand size, 0..24.

    Returns:
        ``{rank-count vector: probability}``; the probabilities add up to 1.
    """
    total = comb(N_CARDS, n_cards)
    return {c: Fraction(w, total) for c, w in rank_count_weights(n_cards).items()}


def prob_hand(pred: RankPredicate, n_cards: int) -> Fraction:
    """Probability that a random ``n_cards``-card hand satisfies a rank-count predicate.

    Args:
        pred: property of the hand's rank-count vector, e.g.
            ``lambda c: c[Rank.ACE] == 4``.
        n_cards: hand size, 0..24.

    Returns:
        The exact probability.
    """
    weights = rank_count_weights(n_cards)
    hits = sum(w for c, w in weights.items() if pred(c))
    return Fraction(hits, comb(N_CARDS, n_cards))


# --- one hand: marriages ---------------------------------------------------------------
def prob_specific_marriage(n_cards: int) -> Fraction:
    """Probability that a random ``n_cards``-card hand holds the K and Q of a given suit.

    Args:
        n_cards: hand size, 0..24.

    Returns:
        ``C(22, n - 2) / C(24, n)`` (the same for every suit).
    """
    if not 0 <= n_cards <= N_CARDS:
        raise ValueError(f"n_cards must be 0..{N_CARDS}, got {n_cards}")
    if n_cards < 2:
        return Fraction(0)
    return Fraction(comb(N_CARDS - 2, n_cards - 2), comb(N_CARDS, n_cards))


def prob_marriages_at_least(k: int, n_cards: int) -> Fraction:
    """Probability that a random ``n_cards``-card hand holds ``k`` or more marriages.

    Inclusion–exclusion over suits: with ``S_j = C(4, j) C(24 - 2j, n - 2j) / C(24, n)``
    (the chance of ``j`` given marriages, summed over the ``j``-sets of suits),
    ``P(M >= k) = sum_{j >= k} (-1)^(j - k) C(j - 1, k - 1) S_j``.

    Args:
        k: minimum number of marriages, 0..4.
        n_cards: hand size, 0..24.

    Returns:
        The exact probability (1 for ``k <= 0``).
    """
    if not 0 <= n_cards <= N_CARDS:
        raise ValueError(f"n_cards must be 0..{N_CARDS}, got {n_cards}")
    if k <= 0:
        return Fraction(1)
    acc = 0
    for j in range(k, N_SUITS + 1):
        if 2 * j > n_cards:
            break
        s_j = comb(N_SUITS, j) * comb(N_CARDS - 2 * j, n_cards - 2 * j)
        acc += (-1) ** (j - k) * comb(j - 1, k - 1) * s_j
    return Fraction(acc, comb(N_CARDS, n_cards))


def prob_talon_completes_marriage(hand: int, talon: int) -> Fraction:
    """Probability that a hand plus the talon hold a marriage the hand alone lacks.

    Every placement of the eight kings and queens (in the hand, in the talon or
    elsewhere) is counted with the number of ways to fill the hand and the talon
    from the other 16 cards; a placement counts when some suit's king and queen both
    lie in hand or talon, at least one of them in the talon.

    Args:
        hand: cards in the hand.
        talon: cards in the talon.

    Returns:
        The exact probability.
    """
    others = N_CARDS - 2 * N_SUITS
    hits = 0
    for places in product(range(3), repeat=2 * N_SUITS):  # 0 hand, 1 talon, 2 elsewhere
        in_hand, in_talon = places.count(0), places.count(1)
        if in_hand > hand or in_talon > talon:
            continue
        completes = any(
            places[2 * s] < 2 and places[2 * s + 1] < 2 and 1 in places[2 * s : 2 * s + 2]
            for s in range(N_SUITS)
        )
        if completes:
            hits += comb(others, hand - in_hand) * comb(others - hand + in_hand, talon - in_talon)
    return Fraction(hits, comb(N_CARDS, hand) * comb(N_CARDS - hand, talon))


# --- several hands -------------------------------------------------------------------
def prob_some_hand_has_marriage(hand_sizes: Sequence[int]) -> Fraction:
    """Probability that at least one of several dealt hands holds a marriage.

    Inclusion–exclusion over the events "hand p holds the marriage of suit s". A
    suit's marriage fits in one hand at most, so a non-empty intersection assigns
    distinct suits to hands; if hand ``p`` must hold ``m_p`` marriages, the deals
    doing so are ``multinomial(24 - 2M; h_p - 2m_p..., rest)`` with ``M = sum(m_p)``.

    Args:
        hand_sizes: sizes of the hands; the remaining cards (talons) hold no
            marriage that counts.

    Returns:
        The exact probability.
    """
    rest = N_CARDS - sum(hand_sizes)
    if rest < 0 or any(h < 0 for h in hand_sizes):
        raise ValueError(f"hands {tuple(hand_sizes)} do not fit in {N_CARDS} cards")
    total = multinomial(N_CARDS, [*hand_sizes, rest])
    acc = 0
    # owner[s] = 0: suit s is not in the intersection; p + 1: hand p holds its marriage
    for owner in product(range(len(hand_sizes) + 1), repeat=N_SUITS):
        m = [owner.count(p + 1) for p in range(len(hand_sizes))]
        n_married = sum(m)
        if n_married == 0 or any(2 * mp > h for mp, h in zip(m, hand_sizes, strict=True)):
            continue
        left = [h - 2 * mp for mp, h in zip(m, hand_sizes, strict=True)]
        acc += (-1) ** (n_married + 1) * multinomial(N_CARDS - 2 * n_married, [*left, rest])
    return Fraction(acc, total)


def count_clean_deals(
    sizes: Sequence[int],
    triggers: Sequence[RankPredicate | None],
    copies: int = N_SUITS,
) -> int:
    """Number of deals in which no place meets its (rank-based) trigger.

    A deck of ``copies`` distinct cards of each of the 6 ranks is split into places
    of the given sizes (labelled sets, so there are ``multinomial(deck; sizes)``
    deals). With ``R`` the rank counts still undealt before place ``i``,

        F(R, i) = sum over a <= R, |a| = sizes[i], not triggers[i](a) of
                  prod(C(R[r], a[r])) * F(R - a, i + 1),

    and once no later place has a trigger ``F`` is the multinomial of the remaining
    sizes. Each place's ``F`` is computed for every ``R`` of its total at once: a
    rank-count vector is a number in base ``copies + 1``, so ``R - a`` is an index
    difference, and the sum runs over the vectors ``a`` (a few hundred) with numpy
    doing the ``R`` side. Every count is an exact 64-bit integer: no partial sum
    exceeds the number of deals, and a deck for which a term could overflow is
    refused.

    Args:
        sizes: size of each place; they must add up to ``copies * 6``.
        triggers: for each place, a predicate on its rank-count vector that is
            true when the place triggers, or None for a place that never does.
        copies: cards per rank (4 for the real deck; smaller values give
            scaled-down decks for testing).

    Returns:
        The number of clean deals.

    Raises:
        ValueError: if the sizes do not match the triggers or the deck, or the
            deck is too large for exact 64-bit counts.
    """
    sizes = tuple(sizes)
    if len(sizes) != len(triggers):
        raise ValueError("one trigger (or None) per place is needed")
    if sum(sizes) != copies * N_RANKS or any(s < 0 for s in sizes):
        raise ValueError(f"sizes {sizes} do not split a deck of {copies * N_RANKS}")
    base = copies + 1
    choose = np.array([[comb(n, k) for k in range(base)] for n in range(base)], dtype=np.int64)
    if multinomial(copies * N_RANKS, sizes) * int(choose.max()) ** N_RANKS >= 1 << 62:
        raise ValueError(f"a deck of {copies * N_RANKS} cards is too large to count exactly")
    vectors = np.indices((base,) * N_RANKS).reshape(N_RANKS, -1).T  # every rank-count vector
    totals = vectors.sum(axis=1)
    radix = base ** np.arange(N_RANKS)
    last = max((i for i, t in enumerate(triggers) if t is not None), default=-1)
    rest = sum(sizes[last + 1 :])
    f = np.zeros(len(vectors), dtype=np.int64)  # F(R, i) by R's index, for one place i
    f[vectors[totals == rest] @ radix] = multinomial(rest, sizes[last + 1 :])
    for i in range(last, -1, -1):
        left = vectors[totals == sum(sizes[i:])]
        at = left @ radix
        acc = np.zeros(len(left), dtype=np.int64)
        trig = triggers[i]
        for a in vectors[totals == sizes[i]]:
            if trig is not None and trig(tuple(int(x) for x in a)):
                continue
            fits = (left >= a).all(axis=1)
            ways = choose[left[fits], a].prod(axis=1)
            acc[fits] += ways * f[at[fits] - int(a @ radix)]
        f = np.zeros(len(vectors), dtype=np.int64)
        f[at] = acc
    return int(f[np.full(N_RANKS, copies) @ radix])


def prob_some_place_triggers(
    sizes: Sequence[int], triggers: Sequence[RankPredicate | None]
) -> Fraction:
    """Probability that at least one place of a 24-card deal meets its trigger.

    Args:
        sizes: size of each place (adding up to 24).
        triggers: per place, a rank-count predicate or None (see
            :func:`count_clean_deals`).

    Returns:
        ``1 - clean deals / all deals``.
    """
    total = multinomial(N_CARDS, sizes)
    return 1 - Fraction(count_clean_deals(sizes, triggers), total)


@lru_cache(maxsize=64)
def _prob_triggers_cached(
    sizes: tuple[int, ...], triggers: tuple[HandCondition | TalonCondition | None, ...]
) -> Fraction:
    """:func:`prob_some_place_triggers` cached by the sizes and the conditions' thresholds."""
    return prob_some_place_triggers(sizes, triggers)


def prob_any_hand_reshuffle(players: int, hand: HandCondition) -> Fraction:
    """Probability that at least one dealt hand meets the hand reshuffle condition.

    Args:
        players: 2, 3 or 4 (4 deals like 3: the dealer gets no cards).
        hand: the hand condition.

    Returns:
        The exact probability (0 when the condition is switched off).
    """
    lay = layout(players)
    if not hand.active:
        return Fraction(0)
    return _prob_triggers_cached(lay.place_sizes, (hand,) * lay.n_hands + (None,) * lay.n_talons)


def prob_any_reshuffle(players: int, hand: HandCondition, talon: TalonCondition) -> Fraction:
    """Probability that some dealt hand or the (first) talon meets its condition.

    Args:
        players: 2, 3 or 4 (4 deals like 3: the dealer gets no cards).
        hand: the hand condition.
        talon: the talon condition, applied to the first talon only.

    Returns:
        The exact probability.
    """
    lay = layout(players)
    hand_trig = hand if hand.active else None
    talon_trig = talon if talon.active else None
    triggers = (hand_trig,) * lay.n_hands + (talon_trig,) + (None,) * (lay.n_talons - 1)
    return _prob_triggers_cached(lay.place_sizes, triggers)


# --- every key ---------------------------------------------------------------------------
def exact_odds(rules: Rules) -> dict[str, Fraction | None]:
    """Exact probability of every key of :data:`sim.odds_keys.ODDS_KEYS`.

    Args:
        rules: the rules; ``players`` fixes the layout and ``reshuffle.*`` the
            thresholds of the ``*.reshuffle`` keys.

    Returns:
        ``{key: probability}`` with exactly the keys of ``ODDS_KEYS``, in their order.
    """
    lay = layout(rules.players)
    h, t, ht = lay.hand, lay.talon, lay.hand_talon
    hand_cond = HandCondition.from_rules(rules)
    talon_cond = TalonCondition.from_rules(rules)
    talon_reshuffle = prob_hand(talon_cond, t)
    specific = prob_specific_marriage(h)
    values: dict[str, Fraction | None] = {
        "hand.any_marriage": prob_marriages_at_least(1, h),
        "hand.marriages_ge_2": prob_marriages_at_least(2, h),
        **{f"hand.marriage.{s.name}": specific for s in Suit},
        "hand_talon.any_marriage": prob_marriages_at_least(1, ht),
        "hand_talon.marriages_ge_2": prob_marriages_at_least(2, ht),
        **{f"hand_talon.marriage.{s.name}": prob_specific_marriage(ht) for s in Suit},
        "hand.points_below_13": prob_hand(lambda c: rank_points(c) < 13, h),
        "hand.points_below_14": prob_hand(lambda c: rank_points(c) < 14, h),
        "hand.points_below_15": prob_hand(lambda c: rank_points(c) < 15, h),
        "hand.nines_ge_3": prob_hand(lambda c: c[_NINE] >= 3, h),
        "hand.nines_eq_4": prob_hand(lambda c: c[_NINE] == 4, h),
        "hand.jacks_eq_4": prob_hand(lambda c: c[_JACK] == 4, h),
        "hand.aces_eq_4": prob_hand(lambda c: c[_ACE] == 4, h),
        "hand.reshuffle": prob_hand(hand_cond, h),
        "talon.points_below_5": prob_hand(lambda c: rank_points(c) < 5, t),
        "talon.nines_ge_2": prob_hand(lambda c: c[_NINE] >= 2, t),
        "talon.jacks_eq_3": prob_hand(lambda c: c[_JACK] == 3, t),
        "talon.reshuffle": talon_reshuffle,
        "deal.some_player_has_marriage": prob_some_hand_has_marriage((h,) * lay.n_hands),
        "deal.any_hand_reshuffle": prob_any_hand_reshuffle(rules.players, hand_cond),
        "deal.talon_reshuffle": talon_reshuffle,
        "deal.any_reshuffle": prob_any_reshuffle(rules.players, hand_cond, talon_cond),
        "talon.aces_ge_1": prob_hand(lambda c: c[_ACE] >= 1, t),
        "talon.aces_ge_2": prob_hand(lambda c: c[_ACE] >= 2, t),
        "talon.any_marriage": prob_marriages_at_least(1, t),
        "talon.completes_marriage": prob_talon_completes_marriage(h, t),
    }
    missing = set(ODDS_KEYS) ^ set(values)
    if missing:  # pragma: no cover - guards against ODDS_KEYS changing under us
        raise KeyError(f"exact_odds out of step with ODDS_KEYS: {sorted(missing)}")
    return {key: values[key] for key in ODDS_KEYS}
