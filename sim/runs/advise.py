"""What one hand is worth as the declarer's, by dealing the cards it cannot see.

``thousand advise`` (and the report's worked examples) call these. The hand's owner
sees its 7 cards (10 with two players) and, after winning the bid, the talon; every
other card is dealt at random over the other places (:func:`sample_deals`): uniformly,
or as the auction so far narrows the other hands (their caps, and how the table's
player would have bid them).

* :func:`bid_samples`: each sample played as in ``thousand safebids`` with the hand
  declaring (:func:`sim.runs.declarer.play_as_declarer`, or the open-card par), and, for
  the comparison with passing, the same samples played with an opponent declaring:
  the owner's deal score as a defender.
* :func:`discard_samples`: with the talon known, every ordered pair of cards to give
  among the hand's cheapest few (the heuristic's :func:`discard_cost`) is solved
  open-card in every sample: the declarer's total after that discard, both sides
  playing best with every card face up (the sampling player's own way to judge a
  discard and a contract).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from functools import cache
from types import TracebackType
from typing import Any

import numpy as np

from sim.batch.runner import local_map
from sim.cards import CARD_POINTS, MARRIAGE_MASK, N_SUITS
from sim.engine.deal import n_hands, place_sizes
from sim.engine.params import rules_vector
from sim.i18n import N_, _, role
from sim.players import DEFAULT, fast
from sim.rules import Rules, hand_roles
from sim.runs.declarer import PAR, par_levels, play_as_declarer
from sim.runs.folder import QUIET, Feedback

BLOCK = 8  # samples played between two looks at the clock under a time budget
DISCARD_CANDIDATES = 5  # the hand's cheapest cards (the heuristic's order) tried as gives
PASS_PLAYER = DEFAULT  # who plays the bid plans for the par (which plays no seat)


POLICY_HANDS = 100_000  # hands whose auctions measure how a player bids (auction_policy)
POINTS_BAND = 10  # card points per band of a hand's class (marriages, points band)
PROGRESS_AFTER = 1.0  # seconds of play before its progress bar shows (most advice is quicker)
POLICY_MIN_CLASS = 50  # hands a class of the auction reading needs for its own rates
WORTH_CLASSES = 16  # marriages' worth in 20s: 0 .. 300 and more
BAND_CLASSES = 8  # card points in bands: 0-9 .. 70 and more


def hand_cap(rules: Rules, mask: int) -> int:
    """The highest bid a hand may make: the engine's own rule (:func:`bid_cap`)."""
    from sim.engine.bidding import bid_cap

    return int(bid_cap(mask, rules_vector(rules)))


def hand_classes(rules: Rules, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each hand's class: its marriages' worth (in 20s) and its card points (in bands)."""
    worth_of, _caps = _marriage_tables(rules_vector(rules))
    return _classes(np.asarray(masks, dtype=np.int64), worth_of)


def _classes(masks: np.ndarray, worth_of: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`hand_classes` of ``masks`` (``int64``), by the marriages' worth table."""
    worth = np.minimum(worth_of[_marriages(masks)] // 20, WORTH_CLASSES - 1)
    return worth, np.minimum(_points(masks) // POINTS_BAND, BAND_CLASSES - 1)


def _marriages(masks: np.ndarray) -> np.ndarray:
    """Suit bitmask (bit s = suit s) of the marriages each hand mask holds (any shape)."""
    out = np.zeros(np.shape(masks), dtype=np.int64)
    for s in range(N_SUITS):
        pair = int(MARRIAGE_MASK[s])
        out |= ((masks & pair) == pair).astype(np.int64) << s
    return out


def _marriage_tables(P: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """By the suit bitmask of the marriages held: their worth, and the hand's cap.

    The engine's own :func:`marriage_sum` and :func:`bid_cap` of a hand holding just
    those marriages: both depend on nothing else of the hand.
    """
    from sim.engine.bidding import bid_cap, marriage_sum

    pairs = [int(MARRIAGE_MASK[s]) for s in range(N_SUITS)]
    held = [sum(pair for s, pair in enumerate(pairs) if bits >> s & 1) for bits in range(16)]
    worth = np.array([marriage_sum(m, P) for m in held], dtype=np.int64)
    return worth, np.array([bid_cap(m, P) for m in held], dtype=np.int64)


# card points of every 12-bit half of a hand mask: [low cards' half, high cards' half]
_HALF_BITS = (np.arange(1 << 12)[:, None] >> np.arange(12)) & 1
_HALF_POINTS = np.stack(
    [_HALF_BITS @ CARD_POINTS[:12].astype(np.int64), _HALF_BITS @ CARD_POINTS[12:].astype(np.int64)]
)


def _points(masks: np.ndarray | int) -> np.ndarray:
    """Card points of each hand mask (any shape)."""
    m = np.asarray(masks, dtype=np.int64)
    return _HALF_POINTS[0][m & 0xFFF] + _HALF_POINTS[1][m >> 12]


def hand_class(mask: int, P: np.ndarray) -> tuple[int, int]:
    """One hand's class as :func:`hand_classes` gives it (``P``: the rules' vector)."""
    from sim.engine.bidding import marriage_sum

    points = int(_points(mask))
    worth = int(marriage_sum(mask, P)) // 20
    return min(worth, WORTH_CLASSES - 1), min(points // POINTS_BAND, BAND_CLASSES - 1)


@dataclass(frozen=True)
class AuctionPolicy:
    """How ``player`` bids, measured: the highest bid of each seat by its hand's class.

    ``counts[seat, worth, band, level]``: hands of ``hands`` first deals (no redeal) in
    ordinary auctions of ``player`` at every seat, by hand seat (0 forehand), the
    hand's marriages' worth in 20s and card points in bands of :data:`POINTS_BAND`
    (:func:`hand_classes`), and the seat's highest bid (``levels[level]``; 0: never
    bid).
    """

    player: str
    hands: int
    seed: int
    levels: tuple[int, ...]
    counts: np.ndarray

    def likelihood(self, seat: int, highest: int, passed: bool) -> np.ndarray:
        """P(the seat's highest bid is ``highest`` (it ``passed``), or at least it | class).

        An ``[worth, band]`` array; a class of fewer than :data:`POLICY_MIN_CLASS` hands takes
        its marriages' rate over every band, and one rarer still the seat's over all.
        """
        at = self.levels.index(highest)
        rows = self.counts[seat].astype(np.float64)
        hit = rows[..., at] if passed else rows[..., at:].sum(axis=-1)
        total = rows.sum(axis=-1)
        rate = np.divide(hit, total, out=np.zeros_like(hit), where=total > 0)
        worth_total = total.sum(axis=1, keepdims=True)
        worth_rate = np.divide(
            hit.sum(axis=1, keepdims=True), worth_total,
            out=np.zeros_like(worth_total), where=worth_total > 0,
        )  # fmt: skip
        seat_rate = hit.sum() / max(total.sum(), 1.0)
        rate = np.where(total >= POLICY_MIN_CLASS, rate, np.broadcast_to(worth_rate, rate.shape))
        return np.where(
            np.broadcast_to(worth_total, rate.shape) >= POLICY_MIN_CLASS, rate, seat_rate
        )

    def keep(self, seat: int, highest: int, passed: bool) -> np.ndarray:
        """How likely a deal is kept by its class: :meth:`likelihood` over its largest."""
        like = self.likelihood(seat, highest, passed)
        return like / like.max() if like.max() > 0 else like


def auction_policy(rules: Rules, player: str, hands: int, seed: int) -> AuctionPolicy:
    """Measure how ``player`` bids (:class:`AuctionPolicy`), three active players."""
    from sim.engine import play_hands

    batch = play_hands(rules, hands, seed, (player,), first_deals=True)
    first = np.asarray(batch.column("redeals")) == 0
    dealt = batch.dealt[:, 0].astype(np.int64)
    levels = (0, *rules.bid_levels())
    worth, band = hand_classes(rules, dealt[:, :3])
    counts = np.zeros((3, WORTH_CLASSES, BAND_CLASSES, len(levels)), dtype=np.int64)
    dealer = (batch.start + np.arange(hands)) % rules.players
    rows = np.arange(hands)
    highest = np.stack([np.asarray(batch.column(f"max_bid_{s}")) for s in range(3)], 1)
    for h in range(3):
        seat = (dealer + 1 + h) % 3
        at = np.searchsorted(levels, highest[rows, seat])
        np.add.at(counts[h], (worth[rows, seat][first], band[rows, seat][first], at[first]), 1)
    return AuctionPolicy(player, hands, seed, levels, counts)


def sample_deals(
    rules: Rules,
    hand: int,
    seat: int,
    n: int,
    seed: int,
    talon: int = 0,
    bids: Sequence[tuple[int, int]] = (),
    policy: AuctionPolicy | None = None,
    acted: Sequence[tuple[int, int, bool]] = (),
) -> np.ndarray:
    """``n`` deals (``(n, 4)`` place masks) with ``hand`` at hand seat ``seat``.

    With ``talon`` (three active players) the talon place holds it; every other card
    is dealt at random. ``bids`` are ``(hand seat, bid)`` of the other seats' highest
    bids so far: a deal in which such a seat's cap (:func:`hand_cap`) is below its bid
    is never dealt, so every sample is one the auction allows (with
    ``bid.cap_by_marriages`` a bid above 120 shows marriages worth the difference).
    Without ``policy`` the deals the auction allows are equally likely.

    With ``policy``, the other seats' actions read as that player bids: ``acted`` is
    ``(hand seat, its highest bid so far (0: none), whether it passed)`` of each seat
    that acted, and each allowed deal is weighted by ``prod L`` over those seats, ``L``
    being how often ``policy``'s player with that seat's hand class ends the auction so
    (:meth:`AuctionPolicy.likelihood`): the deals are distributed as the deals in which
    that player bids as the table did (what drawing uniform deals and keeping each with
    probability ``prod L / max L`` gives, however rarely it keeps one).

    The deals are drawn exactly from that distribution, without rejection: a deal's
    weight is the product of one factor per other hand (its cap, its class), so the
    first other hand is drawn from every hand it may hold, each weighted by its own
    factor times the summed factors of the second hand's every hand in the cards left
    (a sum over subsets, :func:`_subset_sums`), then the second hand from those, then
    the talon (the cards left; with two players split at random between the two
    talons). A few tens of milliseconds for any auction, however sharp its reading.
    Where no allowed deal has any weight (the reading rules out every hand the cards
    this hand leaves could give the other seats) the reading is dropped: the allowed
    deals, uniformly (the rejection sampler this replaced kept the likeliest of 200
    allowed deals turned down in a row, whatever their weight).
    Reproducible from ``(seed, hand, seat, talon)``, ``bids`` and ``acted``; deal ``i``
    is the same in a run of any ``n > i``.

    Raises:
        ValueError: the bids cannot be made by any deal with this hand.
    """
    worth_of, cap_of = _marriage_tables(rules_vector(rules))
    sizes = place_sizes(rules.players)
    hands = n_hands(rules.players)
    rng = np.random.default_rng([seed, hand, seat, talon])
    known = hand | talon
    cards = np.array([c for c in range(24) if not known >> c & 1], dtype=np.int64)
    u = len(cards)  # the unseen cards: masks below are over them (bit j: cards[j])
    full = (1 << u) - 1
    fill = [q for q in range(4) if q != seat and not (talon and q == hands)]
    held = [q for q in fill if q < hands]  # the other hands: what the auction reads
    rest = [q for q in fill if q >= hands]  # the talons: the cards the hands leave
    need: dict[int, int] = {}
    for s, b in bids:
        if b > 120 and s != seat:
            need[s] = max(b, need.get(s, 0))
    reads: dict[int, list[np.ndarray]] = {q: [] for q in held}
    if policy is not None:
        for s, highest, passed in acted:
            if s in reads:
                reads[s].append(policy.keep(s, highest, passed))

    def weights(q: int, local: np.ndarray, reading: bool) -> np.ndarray:
        """Each hand ``local`` of place ``q``: allowed (0 or 1), times its kept share."""
        masks = _cards_of(local, cards)
        w = (cap_of[_marriages(masks)] >= need.get(q, 0)).astype(np.float64)
        if reading and reads[q]:
            worth, band = _classes(masks, worth_of)
            for share in reads[q]:
                w *= share[worth, band]
        return w

    def first_weights(reading: bool) -> tuple[np.ndarray, np.ndarray | None]:
        """The first hand's weights, summed over the second's; the second's by mask."""
        first = weights(held[0], _subsets(u, sizes[held[0]]), reading)
        if len(held) == 1:
            return first, None
        second = np.zeros(1 << u)
        options = _subsets(u, sizes[held[1]])
        second[options] = weights(held[1], options, reading)
        return first * _subset_sums(second, u)[full ^ _subsets(u, sizes[held[0]])], second

    w0, w1 = first_weights(reading=True)
    if not w0.any():  # the reading rules out every deal: the rules alone
        w0, w1 = first_weights(reading=False)
    if not w0.any():
        names = hand_roles(rules.players)
        shown = ", ".join(
            _("{seat} bid {bid}").format(seat=role(names[s]), bid=b)
            for s, b in sorted(need.items())
        )
        why = _("no deal of the unseen cards allows the auction ({bids})")
        raise ValueError(why.format(bids=shown))
    # deal i's random numbers are row i, so it is the same deal in a run of any n > i:
    # one a hand, then one a card left for two talons to split
    left = u - sum(sizes[q] for q in held)
    draws = rng.random((n, len(held) + (left if len(rest) > 1 else 0)))
    dealt = {held[0]: _subsets(u, sizes[held[0]])[_pick(w0, draws[:, 0])]}
    taken = dealt[held[0]].copy()
    if w1 is not None:  # the second hand among the cards the first left
        free = u - sizes[held[0]]
        places = _bit_positions(full ^ taken, u, free)
        ways = (_subsets(free, sizes[held[1]])[None, :] >> np.arange(free)[:, None]) & 1
        # float products: exact below 2**53, and a BLAS product
        options = ((1 << places).astype(np.float64) @ ways.astype(np.float64)).astype(np.int64)
        rows = np.arange(n)
        dealt[held[1]] = options[rows, _pick_rows(w1[options], draws[:, 1])]
        taken |= dealt[held[1]]
    if len(rest) == 1:
        dealt[rest[0]] = full ^ taken
    elif rest:  # two talons (two players): the cards left, split at random
        places = _bit_positions(full ^ taken, u, left)
        order = np.argsort(draws[:, len(held) :], axis=1)
        places = np.take_along_axis(places, order, axis=1)
        col = 0
        for q in rest:
            dealt[q] = (1 << places[:, col : col + sizes[q]]).sum(axis=1)
            col += sizes[q]
    out = np.zeros((n, 4), dtype=np.uint32)
    out[:, seat] = hand
    if talon:
        out[:, hands] = talon
    for q, local in dealt.items():
        out[:, q] = _cards_of(local, cards)
    return out


_BYTE_BITS = np.array([bin(b).count("1") for b in range(256)], dtype=np.int64)


@cache
def _subsets(u: int, k: int) -> np.ndarray:
    """Every ``u``-bit mask with ``k`` bits set, ascending: the ways to hold k of u cards."""
    masks = np.arange(1 << u, dtype=np.int64)
    count = _BYTE_BITS[masks & 0xFF] + _BYTE_BITS[masks >> 8 & 0xFF] + _BYTE_BITS[masks >> 16]
    out = masks[count == k]
    out.setflags(write=False)
    return out


def _subset_sums(table: np.ndarray, u: int) -> np.ndarray:
    """``out[S]``: the sum of ``table[b]`` over every mask ``b`` within ``S`` (``u`` bits).

    One pass per bit (the sum over subsets, or zeta transform): a mask with bit ``i``
    adds what the same mask without it holds so far.
    """
    out = np.array(table, dtype=np.float64)
    for i in range(u):
        pairs = out.reshape(-1, 2, 1 << i)
        pairs[:, 1, :] += pairs[:, 0, :]
    return out


def _bit_positions(masks: np.ndarray, u: int, k: int) -> np.ndarray:
    """``(len(masks), k)``: the set bits of masks of ``u`` bits with ``k`` set, ascending."""
    bits = (masks[:, None] >> np.arange(u)) & 1
    return np.nonzero(bits)[1].reshape(len(masks), k)


def _cards_of(local: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """Card masks of masks over ``cards`` (bit ``j`` stands for card ``cards[j]``)."""
    out = np.zeros(np.shape(local), dtype=np.int64)
    for lo in range(0, len(cards), 8):
        part = cards[lo : lo + 8]
        table = ((np.arange(256)[:, None] >> np.arange(len(part))) & 1) @ (1 << part)
        out |= table[(local >> lo) & 0xFF]
    return out


def _pick(weights: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The index each of ``u`` (uniform in [0, 1)) picks, by ``weights`` (positive sum)."""
    cum = np.cumsum(weights)
    picks = np.searchsorted(cum, u * cum[-1], side="right")
    return np.minimum(picks, np.flatnonzero(weights)[-1])  # u * sum rounded up to the sum


def _pick_rows(weights: np.ndarray, u: np.ndarray) -> np.ndarray:
    """:func:`_pick` in each row of ``weights`` with its own ``u``."""
    cum = np.cumsum(weights, axis=1)
    picks = (cum <= (u * cum[:, -1])[:, None]).sum(axis=1)
    last = weights.shape[1] - 1 - np.argmax(weights[:, ::-1] > 0, axis=1)
    return np.minimum(picks, last)


def play_blocks(
    rules: Rules,
    masks: np.ndarray,
    decls: np.ndarray,
    player: str,
    seed: int,
    params: Sequence[str] = (),
    budget: float = 0.0,
    bids: np.ndarray | None = None,
    feedback: Feedback = QUIET,
) -> np.ndarray:
    """Each deal of ``masks`` played with ``decls`` declaring: ``D_*`` rows, or the par's.

    ``bids``: the bid each declarer won the auction at (None: the lowest raise open to
    it); the par plays every contract it may name and ignores it.

    ``player`` plays every seat (:func:`sim.runs.declarer.play_as_declarer`), or :data:`PAR`
    gives ``(par_best, par_level)`` rows. With ``budget`` (seconds, 0: none) the deals
    are played in blocks of :data:`BLOCK` and no block starts once it is spent: the rows
    are then those of the first blocks. A slow player (the par too) plays blocks of
    :data:`BLOCK` without a budget as well (the same rows), so that a play that looks
    to take :data:`PROGRESS_AFTER` seconds or more shows its progress through
    ``feedback`` (:class:`_LateBar`); a fast one plays every deal in one compiled call
    (4,000 deals of ``strong`` in 0.1 s).
    """
    n = len(masks)
    step = max(1, n) if not budget and fast(player) else BLOCK
    t0 = time.perf_counter()
    played = 0
    parts: list[np.ndarray] = []
    with _LateBar(feedback, n, "deal", N_("playing the sampled deals"), budget) as bar:
        while played < n and (played == 0 or not budget or time.perf_counter() - t0 < budget):
            a, b = played, min(n, played + step)
            if player == PAR:
                parts.append(par_levels(rules, masks[a:b], decls[a:b]))
            else:
                won = None if bids is None else bids[a:b]
                parts.append(
                    play_as_declarer(rules, masks[a:b], decls[a:b], seed, player, params, a, won)
                )
            bar.update(b - a)
            played = b
    return np.concatenate(parts, axis=0)


class _LateBar:
    """``feedback``'s progress bar for a phase that turns out slow, shown from then on.

    After each block of ``total`` items the phase's whole time is projected from the
    blocks so far (at most ``limit`` seconds, its budget; 0: none); once that reaches
    :data:`PROGRESS_AFTER` the bar shows, for the items still to come. Most advice takes
    well under a second and says nothing; a slow player's deals (or the par's) show it.
    """

    def __init__(self, feedback: Feedback, total: int, unit: str, label: str, limit: float):
        self.feedback, self.total, self.unit, self.label = feedback, total, unit, label
        self.limit = limit
        self.t0 = time.perf_counter()
        self.done = 0
        self.bar: Any = None
        self.stack = ExitStack()

    def update(self, k: int) -> None:
        """Count ``k`` finished items; show the bar if the phase looks slow and goes on."""
        self.done += k
        if self.bar is not None:
            self.bar.update(k)
            return
        projected = (time.perf_counter() - self.t0) / self.done * self.total
        if self.limit:
            projected = min(projected, self.limit)
        if self.done < self.total and projected >= PROGRESS_AFTER:
            bar = self.feedback.bar(self.total - self.done, self.unit, self.label)
            self.bar = self.stack.enter_context(bar)

    def __enter__(self) -> _LateBar:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stack.__exit__(kind, value, trace)


def bid_samples(
    rules: Rules,
    hand: int,
    seat: int,
    player: str,
    n: int,
    seed: int,
    params: Sequence[str] = (),
    budget: float = 0.0,
    bids: Sequence[tuple[int, int]] = (),
    policy: AuctionPolicy | None = None,
    acted: Sequence[tuple[int, int, bool]] = (),
    prefix: Sequence[int] = (),
    scores: Sequence[int] | None = None,
    flags: int = 0,
    feedback: Feedback = QUIET,
) -> dict[str, Any]:
    """The hand's choices in the auction played out on ``n`` sampled deals.

    Each deal (:func:`sample_deals`: the unseen cards at random, as ``bids``, and
    ``policy`` with ``acted``, narrow them) is played twice over:

    * once with the hand winning the auction at the lowest raise open to it (as
      ``thousand safebids`` plays an item): ``total`` and ``concede_from`` (a
      strategy) or ``par_level`` and ``par_best`` (:data:`PAR`), P(make) at every
      level;
    * once per bid plan of the seat (:func:`sim.runs.plans.play_plans`: pass, or
      raise up to a level), the auction so far (``prefix``, the bids after forehand's
      100) replayed first and every other decision the player's (:data:`PASS_PLAYER`
      for the par): ``plans``, a :class:`sim.runs.plans.PlanPlay`.

    ``scores`` (hand seats) and ``flags`` are the deal's game inputs. Returns
    ``deals`` (the place masks), ``dealt``, the columns above and ``plans``. With
    ``budget`` (seconds, 0: none) the deals are played in blocks of :data:`BLOCK` and
    no block starts once the budget is spent: everything then holds the first blocks
    only (the same deals, in the same order, as without a budget). ``feedback`` shows
    the play's progress when it is slow (:class:`_LateBar`).
    """
    from sim.engine.declarer import D_CONCEDE_FROM, D_TOTAL
    from sim.runs.plans import PlanPlay, play_plans

    masks = sample_deals(rules, hand, seat, n, seed, bids=bids, policy=policy, acted=acted)
    decls = np.full(n, seat, dtype=np.int64)
    plan_player = PASS_PLAYER if player == PAR else player
    plan_params = () if player == PAR else params
    step = max(1, n) if not budget and fast(player) else BLOCK
    t0 = time.perf_counter()
    played = 0
    rows: list[np.ndarray] = []
    plans: list[PlanPlay] = []
    with _LateBar(feedback, n, "deal", N_("playing the sampled deals"), budget) as bar:
        while played < n and (played == 0 or not budget or time.perf_counter() - t0 < budget):
            a, b = played, min(n, played + step)
            if player == PAR:
                rows.append(par_levels(rules, masks[a:b], decls[a:b]))
            else:
                won = play_as_declarer(rules, masks[a:b], decls[a:b], seed, player, params, a)
                rows.append(won)
            plans.append(play_plans(rules, masks[a:b], seat, seed, plan_player, plan_params,
                                    prefix, scores, flags, start=a))  # fmt: skip
            bar.update(b - a)
            played = b
    done = np.concatenate(rows, axis=0)
    k = len(done)
    cols: dict[str, Any] = {"deals": masks[:k], "dealt": np.full(k, hand, dtype=np.int64)}
    if player == PAR:
        cols["par_best"], cols["par_level"] = done[:, 0], done[:, 1]
    else:
        cols["total"], cols["concede_from"] = done[:, D_TOTAL], done[:, D_CONCEDE_FROM]
    cols["plans"] = PlanPlay.joined(plans)
    return cols


def discard_candidates(
    hand: int, rules: Rules | None = None, k: int = DISCARD_CANDIDATES
) -> list[int]:
    """The ``k`` cards of ``hand`` the heuristic would rather give away, cheapest first.

    ``rules`` (default: the defaults) set the marriage values a lone king or queen
    may complete for an opponent.
    """
    from sim.engine.strategies.discard import discard_cost

    P = rules_vector(rules if rules is not None else Rules())
    cards = [c for c in range(24) if hand >> c & 1]
    return sorted(cards, key=lambda c: (int(discard_cost(hand, c, P)), c))[:k]


def candidate_gives(rules: Rules, ten: int) -> tuple[list[tuple[int, int]], np.ndarray]:
    """The gives the advisor weighs from the ten cards ``ten`` (hand and talon), and their caps.

    Every ordered pair of the cheapest cards (:func:`discard_candidates`: the first to
    the left, the second to the right) and the highest contract the eight cards kept
    allow after each (``bid_cap``: their marriages).
    """
    from sim.engine.bidding import bid_cap

    cands = discard_candidates(ten, rules)
    gives = [(a, b) for a in cands for b in cands if a != b]
    P = rules_vector(rules)
    caps = np.array([bid_cap(ten & ~(1 << a) & ~(1 << b), P) for a, b in gives], dtype=np.int64)
    return gives, caps


def give_samples(
    rules: Rules,
    hand: int,
    talon: int,
    seat: int,
    bid: int,
    n: int,
    seed: int,
    player: str,
    params: Sequence[str] = (),
) -> tuple[list[tuple[int, int]], list[list[int]], np.ndarray]:
    """Every candidate give and contract after winning at ``bid``, played by ``player``.

    Three active players. ``n`` deals of the unseen cards (:func:`sample_deals`, the
    talon known); for every ordered pair of the hand's cheapest cards
    (:func:`discard_candidates`, one to the left, one to the right) and every contract
    from the bid to what the cards kept allow, the deal played out by ``player`` at
    every seat (:func:`sim.runs.plans.play_contracts`, the same random streams for
    every give of a deal). Returns ``(gives, contracts, rows)``: ``rows[k, g, j]`` the
    game row of deal ``k`` after give ``g`` and contract ``contracts[g][j]``.
    """
    from sim.runs.plans import play_contracts

    masks = sample_deals(rules, hand, seat, n, seed, talon)
    gives, caps = candidate_gives(rules, hand | talon)
    contracts = [[int(L) for L in rules.bid_levels() if bid <= L <= cap] or [bid] for cap in caps]
    rows = play_contracts(rules, masks, seat, bid, gives, contracts, seed, player, params)
    return gives, contracts, rows


def _solve_gives(job: tuple[Rules, np.ndarray, int, int, list[tuple[int, int]]]) -> np.ndarray:
    """Open-card totals of every give in each deal of ``masks`` (one worker's share)."""
    from sim.solver.position import OpenCardSolver, play_state
    from sim.solver.talon import after_discard

    rules, masks, talon, seat, gives = job
    solver = OpenCardSolver()
    hands = n_hands(rules.players)
    totals = np.zeros((masks.shape[0], len(gives)), dtype=np.int64)
    for w in range(masks.shape[0]):
        dealt = [int(m) for m in masks[w, :hands]]
        for g, give in enumerate(gives):
            S, P = play_state(after_discard(dealt, talon, seat, give), rules)
            totals[w, g] = solver.value(S, P)
    return totals


def discard_samples(
    rules: Rules,
    hand: int,
    talon: int,
    seat: int,
    bid: int,
    n: int,
    seed: int,
    workers: int = 1,
    budget: float = 0.0,
) -> tuple[list[tuple[int, int]], np.ndarray, np.ndarray, np.ndarray]:
    """The open-card result of every candidate give in ``n`` sampled deals.

    Three active players. Returns ``(gives, made_to, caps, totals)``: the ordered
    gives (card to the left, card to the right); ``totals[w, g]``, the declarer's
    open-card deal total in sample ``w`` after give ``g`` (both sides playing best
    with every card face up); ``made_to[w, g]``, the highest contract from ``bid`` up
    to the give's cap that total makes (0: none); each give's cap. The samples are
    solved on ``workers`` local processes. ``budget`` (seconds, 0: none) stops
    between blocks of :data:`BLOCK` samples as in :func:`bid_samples`.
    """
    masks = sample_deals(rules, hand, seat, n, seed, talon)
    gives, caps = candidate_gives(rules, hand | talon)
    t0 = time.perf_counter()
    done: list[np.ndarray] = []
    played = 0
    while played < n and (played == 0 or not budget or time.perf_counter() - t0 < budget):
        a, b = played, n if not budget else min(n, played + BLOCK)
        parts = np.array_split(np.arange(a, b), max(1, min(workers, b - a)))
        jobs = [(rules, masks[idx], talon, seat, gives) for idx in parts]
        done.append(np.concatenate(list(local_map(_solve_gives, jobs, workers)), axis=0))
        played = b
    totals = np.concatenate(done, axis=0)
    made_to = np.zeros_like(totals)
    for L in rules.bid_levels():
        if L < bid:
            continue
        ok = (totals >= rules.least_total_making(L)) & (caps[None, :] >= L)
        made_to = np.where(ok, L, made_to)
    return gives, made_to, caps, totals


__all__ = [
    "BLOCK",
    "DISCARD_CANDIDATES",
    "AuctionPolicy",
    "auction_policy",
    "bid_samples",
    "candidate_gives",
    "discard_candidates",
    "discard_samples",
    "give_samples",
    "hand_class",
    "hand_classes",
    "play_blocks",
    "sample_deals",
]
