"""The reference engine: one 3-player hand of Thousand, played in plain Python.

This module implements ``sim/engine/PROTOCOL.md`` literally and readably, for
clarity rather than speed. The fast compiled engine is checked against it (same
decisions, same legal actions in the same ascending order, same random numbers,
same trace), and the rule scenario tests run through it.

Each rule lives in one small function, named after the phase of PROTOCOL.md it
implements:

* phases 1, 3, 5 (reshuffle) — :func:`hand_reshuffle_reason`,
  :func:`talon_reshuffle_reason`, :func:`after_discard_reshuffle_reason`;
* phase 2 (bidding) — :func:`bid_cap`, :func:`bid_raises`, :func:`bidding`;
* phases 3–4 (talon and discard) — :func:`talon_shown`, :func:`discard`;
* phase 6 (contract) — :func:`contract_options`;
* phase 7 (concession) — :func:`concession_deltas`;
* phase 9 (play) — :func:`legal_leads`, :func:`legal_follows`, :func:`beats`,
  :func:`trick_winner`, :func:`play_tricks`;
* phase 10 (scoring) — :func:`round_points`, :func:`marriage_points`,
  :func:`score_played`;

and :func:`play_hand` runs the phases in order.

Every decision goes through :class:`Chooser`: a decision with one legal action is
forced (no random number, no script token); otherwise the next script token decides,
or, once the script is exhausted, the seat's strategy (``"first"``: the lowest code;
``"random"``: the counter-based stream of PROTOCOL.md).

The counter-based generator of :mod:`sim.rng` is re-implemented here on Python
integers (:func:`mix64`, :func:`item_state`, :func:`word`, :func:`bounded`), and so is
the shuffle of :func:`sim.deal.generate_deals` (:func:`deal_cards`), so this engine
shares no compiled code with the fast one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sim.cards import (
    N_CARDS,
    N_RANKS,
    N_SUITS,
    RANK_POINTS,
    SUIT_LETTERS,
    Rank,
    card_str,
    parse_cards,
)
from sim.deal import HAND_REASONS, TALON_REASONS
from sim.engine.actions import (
    DECLARE,
    MAX_BID,
    MAX_REDEALS,
    PASS,
    REDEAL_STRIDE,
    Decision,
    ScriptError,
    encode_token,
)
from sim.rng import Stream, stream_key
from sim.rules import ACE_MARRIAGE_VALUE, Rules

__all__ = [
    "AFTER_DISCARD_REASONS",
    "STRATEGIES",
    "Chooser",
    "ScriptError",
    "beats",
    "bounded",
    "deal_cards",
    "item_state",
    "legal_follows",
    "legal_leads",
    "mix64",
    "play_hand",
    "play_hand_text",
    "play_slot",
    "round_points",
    "trick_winner",
    "word",
]

PLAYERS = 3
HAND_SIZE = 7
TALON_SIZE = 3
N_TRICKS = 8
NO_TRUMP = -1
ACE_BIT = 16  # bit of the ace marriage in a player's ``declared`` mask
AFTER_DISCARD_REASONS = ("after_discard_four_nines", "after_discard_points_below")
STRATEGIES = ("random", "first")


# --- counter-based random numbers (pure-Python twin of sim.rng) ----------------------
MASK64 = (1 << 64) - 1
LOW32 = (1 << 32) - 1
GAMMA = 0x9E3779B97F4A7C15
GAMMA2 = 0xD1B54A32D192ED03


def mix64(z: int) -> int:
    """SplitMix64's output function on a 64-bit unsigned integer."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def item_state(key: int, index: int) -> int:
    """Sub-seed of item ``index`` of the stream with 64-bit ``key``."""
    return mix64(int(key) + ((int(index) & MASK64) + 1) * GAMMA2)


def word(state: int, j: int) -> int:
    """The ``j``-th 64-bit random word of an item with sub-seed ``state``."""
    return mix64(state + ((int(j) & MASK64) + 1) * GAMMA)


def bounded(state: int, counter: int, bound: int) -> tuple[int, int]:
    """Uniform integer in ``[0, bound)`` by Lemire's method, as :func:`sim.rng.bounded`.

    Args:
        state: the item's sub-seed.
        counter: number of the next 32-bit half-word of the item.
        bound: exclusive upper bound, ``1 <= bound < 2**32``.

    Returns:
        The value and the next counter.
    """
    while True:
        w = word(state, counter >> 1)
        x = (w >> 32) if counter & 1 else (w & LOW32)
        counter += 1
        m = x * bound
        low = m & LOW32
        if low >= bound or low >= ((1 << 32) - bound) % bound:
            return m >> 32, counter


# --- cards ----------------------------------------------------------------------------
def suit(card: int) -> int:
    """Suit id of a card id."""
    return card // N_RANKS


def rank(card: int) -> int:
    """Rank id of a card id (9 < J < Q < K < 10 < A)."""
    return card % N_RANKS


def points(cards: Sequence[int]) -> int:
    """Card points of some cards."""
    return sum(RANK_POINTS[rank(c)] for c in cards)


def count_rank(cards: Sequence[int], r: int) -> int:
    """How many cards of rank ``r``."""
    return sum(1 for c in cards if rank(c) == r)


def marriages_held(cards: Sequence[int]) -> list[int]:
    """Suits of which both the king and the queen are among ``cards``, ascending."""
    held = set(cards)
    return [
        s
        for s in range(N_SUITS)
        if s * N_RANKS + Rank.KING in held and s * N_RANKS + Rank.QUEEN in held
    ]


def marriage_sum(rules: Rules, cards: Sequence[int]) -> int:
    """Sum of the values of the marriages held in ``cards``."""
    return sum(rules.marriage_values[s] for s in marriages_held(cards))


def _lowest_reason(bits: int, names: Sequence[str]) -> str | None:
    """Name of the lowest set bit of ``bits`` (``None`` when no bit is set)."""
    for i, name in enumerate(names):
        if bits >> i & 1:
            return name
    return None


# --- decisions ------------------------------------------------------------------------
def _describe(kind: Decision, code: int) -> str:
    """Readable form of an action code, in script-token notation."""
    if kind in (Decision.DISCARD, Decision.PLAY):
        return card_str(code - DECLARE) + "!" if code >= DECLARE else card_str(code)
    if kind == Decision.BID:
        return "pass" if code == PASS else str(code)
    if kind == Decision.NAME_TRUMP:
        return SUIT_LETTERS[code]
    if kind == Decision.CONTRACT:
        return str(code)
    if kind == Decision.CONCEDE:
        return ("play", "concede")[code]
    return ("keep", "demand")[code]


@dataclass
class Chooser:
    """Makes every decision of one dealt deal (PROTOCOL.md, random numbers).

    Attributes:
        strategies: strategy name of each seat (``"random"`` or ``"first"``).
        script: tokens consumed in order at every non-forced decision.
        state: the item state of the ``random`` strategy for this dealt deal.
        counter: the next half-word of ``state``.
        used: number of script tokens consumed so far.
    """

    strategies: tuple[str, str, str]
    script: list[object]
    state: int
    counter: int = 0
    used: int = 0

    def choose(self, kind: Decision, seat: int, legal: list[int], where: str = "") -> int:
        """Pick one of ``legal`` (ascending action codes) for ``seat``.

        Raises:
            ScriptError: when the next script token does not fit or is not legal.
        """
        if len(legal) == 1:  # forced: no random number, no script token
            return legal[0]
        if self.used < len(self.script):
            token = self.script[self.used]
            self.used += 1
            options = " ".join(_describe(kind, c) for c in legal)
            context = f"{kind.name} of seat {seat}{where} (script token #{self.used})"
            try:
                code = encode_token(kind, token)
            except ValueError as exc:
                raise ScriptError(f"{exc}; at {context}; legal: {options}") from None
            if code not in legal:
                raise ScriptError(
                    f"script token {token!r} is not legal at {context}; legal: {options}"
                )
            return code
        if self.strategies[seat] == "first":
            return legal[0]
        k, self.counter = bounded(self.state, self.counter, len(legal))
        return legal[k]


# --- phases 1, 3, 5: reshuffle conditions (RULES.md §3) -------------------------------
def hand_reshuffle_reason(rules: Rules, hand: Sequence[int]) -> str | None:
    """The reshuffle condition a dealt 7-card hand meets (RULES.md §3), or ``None``."""
    r = rules.reshuffle
    bits = 0
    if r.hand_points_below > 0 and points(hand) < r.hand_points_below:
        bits |= 1
    if r.hand_nines > 0 and count_rank(hand, Rank.NINE) >= r.hand_nines:
        bits |= 2
    if r.hand_four_jacks and count_rank(hand, Rank.JACK) == 4:
        bits |= 4
    return _lowest_reason(bits, HAND_REASONS)


def talon_reshuffle_reason(rules: Rules, talon: Sequence[int]) -> str | None:
    """The reshuffle condition the talon meets (RULES.md §3), or ``None``."""
    r = rules.reshuffle
    bits = 0
    if r.talon_points_below > 0 and points(talon) < r.talon_points_below:
        bits |= 1
    if r.talon_two_nines and count_rank(talon, Rank.NINE) >= 2:
        bits |= 2
    if r.talon_three_jacks and count_rank(talon, Rank.JACK) >= 3:
        bits |= 4
    return _lowest_reason(bits, TALON_REASONS)


def after_discard_reshuffle_reason(rules: Rules, hand: Sequence[int]) -> str | None:
    """The after-discard condition an 8-card hand meets (RULES.md §3), or ``None``."""
    r = rules.reshuffle
    bits = 0
    if r.after_discard_four_nines and count_rank(hand, Rank.NINE) == 4:
        bits |= 1
    if r.after_discard_points_below > 0 and points(hand) < r.after_discard_points_below:
        bits |= 2
    return _lowest_reason(bits, AFTER_DISCARD_REASONS)


# --- phase 2: bidding (RULES.md §4) ---------------------------------------------------
def bid_cap(rules: Rules, hand: Sequence[int]) -> int:
    """Highest bid allowed for a hand: 120 + its marriages, or ``MAX_BID`` (RULES.md §4)."""
    if rules.bid.cap_by_marriages:
        return 120 + marriage_sum(rules, hand)
    return MAX_BID


def bid_raises(rules: Rules, bid: int, cap: int, on_barrel: bool = False) -> list[int]:
    """Raises over ``bid`` up to ``cap``: every multiple of the step, or only +step.

    A seat ``on_barrel`` with ``barrel.bid_from > 0`` may only raise to at least
    ``bid_from`` (GAME_PROTOCOL.md, hand inputs): with jumps the multiples of the step
    in ``[max(bid + step, bid_from), cap]``; without jumps ``bid + step`` only if it is
    ``>= bid_from``.
    """
    step = rules.bid.step
    if not rules.bid.jumps:
        raises = [bid + step] if bid + step <= cap else []
    else:
        first = (bid // step + 1) * step
        raises = list(range(first, cap + 1, step))
    if on_barrel and rules.barrel.bid_from > 0:
        raises = [r for r in raises if r >= rules.barrel.bid_from]
    return raises


def bidding(
    rules: Rules,
    hands: list[list[int]],
    forehand: int,
    scores: Sequence[int],
    chooser: Chooser,
    on_barrel: Sequence[bool] = (False, False, False),
) -> tuple[list[list[Any]], int, int]:
    """Bid until two players have passed (PROTOCOL.md §2, RULES.md §4).

    ``on_barrel[s]``: seat ``s`` sits on the barrel and raises only from
    ``barrel.bid_from`` (:func:`bid_raises`).

    Returns:
        The bids log (``[seat, amount]`` / ``[seat, "pass"]``, starting with the
        forehand's automatic ``[f, 100]``), the declarer and the winning bid.
    """
    bid, high = 100, forehand
    log: list[list[Any]] = [[forehand, 100]]
    passed: set[int] = set()
    seat = forehand
    silence = rules.bid.silence_below
    while len(passed) < 2:
        seat = (seat + 1) % PLAYERS
        if seat in passed:
            continue
        raises = bid_raises(rules, bid, bid_cap(rules, hands[seat]), bool(on_barrel[seat]))
        if silence is not None and scores[seat] < silence:
            action = PASS  # silenced: automatic pass
        elif not raises:
            action = PASS  # nothing to raise to: automatic pass
        else:
            action = chooser.choose(Decision.BID, seat, [PASS, *raises], f" at {bid}")
        if action == PASS:
            passed.add(seat)
            log.append([seat, "pass"])
        else:
            bid, high = action, seat
            log.append([seat, action])
    return log, high, bid


# --- phases 3, 4, 6, 7: talon, discard, contract, concession (RULES.md §5) -----------
def talon_shown(rules: Rules, at_100: bool) -> bool:
    """Whether the talon is shown to all (RULES.md §5)."""
    return not (rules.talon.hide_at_100 and at_100)


def discard(hand: list[int], declarer: int, chooser: Chooser) -> tuple[list[int], list[list[int]]]:
    """The declarer gives one card to ``decl+1``, then one to ``decl+2`` (PROTOCOL.md §4).

    Args:
        hand: the declarer's 10 cards, ascending.
        declarer: the declarer's seat.
        chooser: decides both discards.

    Returns:
        The declarer's 8 remaining cards and the log ``[[recipient, card], ...]``.
    """
    rest = sorted(hand)
    log: list[list[int]] = []
    for k in (1, 2):
        to = (declarer + k) % PLAYERS
        card = chooser.choose(Decision.DISCARD, declarer, rest, f" to seat {to}")
        rest.remove(card)
        log.append([to, card])
    return rest, log


def contract_options(rules: Rules, winning_bid: int, hand: Sequence[int]) -> list[int]:
    """Contracts the declarer may name with 8 cards (PROTOCOL.md §6, RULES.md §5)."""
    limit = bid_cap(rules, hand)
    step = rules.bid.step
    return [winning_bid, *range((winning_bid // step + 1) * step, limit + 1, step)]


def concession_deltas(rules: Rules, declarer: int, contract: int) -> list[int]:
    """Score deltas of a conceded deal (роспись, RULES.md §5)."""
    if rules.rospis.opponents_get == "half":
        opponent = -(-contract // 10) * 5  # contract / 2, rounded up to a multiple of 5
    else:
        opponent = 60
    deltas = [opponent] * PLAYERS
    deltas[declarer] = 0 if rules.rospis.no_subtract else -contract
    return deltas


# --- phase 9: play (RULES.md §6) ------------------------------------------------------
def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` beats the trick's current ``best`` card under ``trump``."""
    if suit(card) == suit(best):
        return rank(card) > rank(best)
    return suit(card) == trump


def trick_winner(cards: Sequence[int], leader: int, trump: int) -> int:
    """Seat that wins a complete trick whose ``cards`` are in play order from ``leader``."""
    best, at = cards[0], 0
    for i, c in enumerate(cards[1:], start=1):
        if beats(c, best, trump):
            best, at = c, i
    return (leader + at) % PLAYERS


@dataclass
class PlayState:
    """What the play rules depend on, besides the hands."""

    declarer: int
    trump: int = NO_TRUMP
    trump_setter: int = -1
    pending: int = NO_TRUMP
    declared: list[int] = field(default_factory=lambda: [0, 0, 0])  # bit s; ACE_BIT
    declared_value: list[int] = field(default_factory=lambda: [0, 0, 0])


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
    if (trick > 0 or m.first_lead) and (not m.only_declarer or leader == st.declarer):
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
    """Apply a declaring lead of ``card``; return the trace's marriage letter."""
    m = rules.marriage
    if rank(card) == Rank.ACE:
        st.declared_value[leader] += ACE_MARRIAGE_VALUE
        st.declared[leader] |= ACE_BIT
        sets_trump, letter = m.ace_sets_trump, "A"
    else:
        st.declared_value[leader] += rules.marriage_values[suit(card)]
        st.declared[leader] |= 1 << suit(card)
        sets_trump, letter = m.changes_trump, SUIT_LETTERS[suit(card)]
    if sets_trump:
        if m.trump_from == "this_trick":
            st.trump = suit(card)
        else:
            st.pending = suit(card)
        st.trump_setter = leader
    return letter


def play_tricks(
    rules: Rules, hands: list[list[int]], st: PlayState, chooser: Chooser
) -> tuple[list[dict[str, Any]], list[list[int]]]:
    """Play the 8 tricks, the declarer leading the first (PROTOCOL.md §9).

    Args:
        rules: house rules.
        hands: the three 8-card hands; emptied as cards are played.
        st: trump and marriage state; updated.
        chooser: decides every lead and follow.

    Returns:
        The trace's tricks and, by seat, the cards each seat captured.
    """
    tricks: list[dict[str, Any]] = []
    captured: list[list[int]] = [[], [], []]
    leader = st.declarer
    for t in range(N_TRICKS):
        legal = legal_leads(rules, hands[leader], t, leader, st)
        code = chooser.choose(Decision.PLAY, leader, legal, f" leading trick {t + 1}")
        marriage = None
        led = code
        if code >= DECLARE:
            led = code - DECLARE
            marriage = _declare(rules, st, leader, led)
        hands[leader].remove(led)
        cards, best, winner = [led], led, leader
        for k in (1, 2):
            seat = (leader + k) % PLAYERS
            legal = legal_follows(rules, hands[seat], led, best, st.trump)
            card = chooser.choose(Decision.PLAY, seat, legal, f" following in trick {t + 1}")
            hands[seat].remove(card)
            cards.append(card)
            if beats(card, best, st.trump):
                best, winner = card, seat
        assert winner == trick_winner(cards, leader, st.trump)
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


# --- phase 10: scoring (RULES.md §7) --------------------------------------------------
def round_points(rules: Rules, x: int) -> int:
    """Round a total to ``score.round_to``: to 5, remainders 1-2 down and 3-4 up; to 10, 5 up."""
    if rules.score.round_to == 10:
        return (x + 5) // 10 * 10
    return (x + 2) // 5 * 5


def marriage_points(
    rules: Rules, declared: int, declared_value: int, captured: Sequence[int]
) -> int:
    """A player's marriage points; with ``marriage.requires_capture`` only captured ones."""
    if not rules.marriage.requires_capture:
        return declared_value
    got = set(captured)
    total = 0
    for s in range(N_SUITS):
        marriage_cards = {s * N_RANKS + Rank.QUEEN, s * N_RANKS + Rank.KING}
        if declared >> s & 1 and got & marriage_cards:
            total += rules.marriage_values[s]
    if declared & ACE_BIT and any(rank(c) == Rank.ACE for c in got):
        total += ACE_MARRIAGE_VALUE
    return total


def score_played(
    rules: Rules,
    st: PlayState,
    contract: int,
    captured: list[list[int]],
    tricks_taken: list[int],
    after_discard: list[list[int]],
) -> dict[str, Any]:
    """Points, deltas, ``made`` and bolts of a played deal (PROTOCOL.md §10, RULES.md §7)."""
    card_pts = [points(c) for c in captured]
    marriage_pts = [
        marriage_points(rules, st.declared[s], st.declared_value[s], captured[s])
        for s in range(PLAYERS)
    ]
    if rules.bonus.four_nines > 0:
        for s in range(PLAYERS):
            if count_rank(after_discard[s], Rank.NINE) == 4:
                marriage_pts[s] += rules.bonus.four_nines
    total = [card_pts[s] + marriage_pts[s] for s in range(PLAYERS)]
    decl = st.declarer
    compared = round_points(rules, total[decl]) if rules.score.round_declarer else total[decl]
    made = compared >= contract
    deltas = [round_points(rules, total[s]) for s in range(PLAYERS)]
    deltas[decl] = contract if made else -contract
    bolts = []
    for s in range(PLAYERS):
        if rules.bolt.on == "no_tricks":
            bolt = tricks_taken[s] == 0
        else:
            bolt = total[s] == 0
        if s == decl and rules.bolt.declarer_exempt:
            bolt = False
        bolts.append(int(bolt))
    return {
        "card_points": card_pts,
        "marriage_points": marriage_pts,
        "tricks_taken": tricks_taken,
        "score_deltas": deltas,
        "bolts": bolts,
        "made": made,
    }


# --- one dealt deal -------------------------------------------------------------------
@lru_cache(maxsize=64)
def _stream_key(seed: int, stream: Stream) -> int:
    """Key of one random stream of a run, as a Python integer."""
    return int(stream_key(seed, stream))


def deal_cards(seed: int, number: int, stream: Stream = Stream.DEALS) -> list[int]:
    """Deal ``number`` of the run seeded ``seed``: ``generate_deals(1, seed, start=number)[0]``.

    The same exact Fisher-Yates shuffle as :mod:`sim.deal`, on the pure-Python
    generator above: positions 23 down to 7 each take a uniform card among those
    left, then each place (three hands of 7, the talon of 3) is sorted by id.
    ``stream`` picks the key (``Stream.GAME_DEALS`` for the deals of whole games, as
    :func:`sim.deal.deal_into` with ``stream_key(seed, Stream.GAME_DEALS)``).
    """
    row = list(range(N_CARDS))
    state = item_state(_stream_key(seed, stream), number)
    counter = 0
    for p in range(N_CARDS - 1, HAND_SIZE - 1, -1):
        j, counter = bounded(state, counter, p + 1)
        row[p], row[j] = row[j], row[p]
    places = (row[0:7], row[7:14], row[14:21], row[21:24])
    return [c for place in places for c in sorted(place)]


def _check_cards(cards: Sequence[int]) -> list[int]:
    ids = [int(c) for c in cards]
    if len(ids) != N_CARDS:
        raise ValueError(f"a deal needs 24 cards (7+7+7+3), got {len(ids)}")
    if sorted(ids) != list(range(N_CARDS)):
        raise ValueError(f"a deal must hold each of the 24 card ids once, got {ids}")
    return ids


def _check_strategies(strategies: Sequence[str]) -> tuple[str, str, str]:
    if len(strategies) != PLAYERS:
        raise ValueError(f"strategies: one per seat (3) needed, got {list(strategies)}")
    for name in strategies:
        if name not in STRATEGIES:
            raise ValueError(f"unknown strategy {name!r} (reference strategies: random, first)")
    return (strategies[0], strategies[1], strategies[2])


def play_hand(
    rules: Rules,
    cards: Sequence[int],
    dealer: int,
    *,
    seed: int = 0,
    deal_id: int = 0,
    attempt: int = 0,
    scores: Sequence[int] = (0, 0, 0),
    strategies: Sequence[str] = ("random", "random", "random"),
    script: Sequence[object] | None = None,
    barrel: bool = False,
    no_concede: Sequence[bool] = (False, False, False),
    on_barrel: Sequence[bool] = (False, False, False),
    item: int | None = None,
) -> dict[str, Any]:
    """Play one dealt deal and return its trace object (PROTOCOL.md, CLI.md).

    Args:
        rules: house rules with ``players == 3``.
        cards: 24 card ids by place: seat 0, 1, 2 (7 each), then the talon (3).
        dealer: the dealer's seat; forehand is ``dealer + 1``.
        seed: the run's seed (the ``random`` strategy's stream).
        deal_id: the slot number ``i``.
        attempt: 0 for the first deal of the slot, 1, 2, ... for redeals.
        scores: the players' game scores (for ``bid.silence_below``).
        strategies: ``"random"`` or ``"first"`` for each seat.
        script: tokens (:func:`sim.engine.actions.encode_token`) consumed in order at
            every non-forced decision; then the seats' strategies decide.
        barrel: someone sits on the barrel: the same as ``no_concede`` for every
            seat unless ``rospis.on_barrel``; never set in ``hands`` runs.
        no_concede: by seat, may not concede (GAME_PROTOCOL.md, hand inputs): a
            flagged declarer is never offered the CONCEDE decision.
        on_barrel: by seat, sits on the barrel: with ``barrel.bid_from > 0`` its
            raises must be ``>= bid_from`` (forehand's automatic 100 stays).
        item: the item number of the strategy stream for this dealt deal; by
            default ``deal_id + attempt * REDEAL_STRIDE`` (a ``hands`` run). Whole
            games pass their own deal number (GAME_PROTOCOL.md, randomness).

    Returns:
        The trace: ``deal_id, dealer, hands, talon, reshuffle`` and, when not redealt,
        ``bids, declarer, winning_bid, talon_shown, discards, contract, conceded``,
        ``tricks`` when played, ``card_points, marriage_points, tricks_taken,
        score_deltas, bolts``; then ``attempt`` and, when not redealt, ``made`` and
        ``trump_named``.

    Raises:
        ValueError: for other than 3 players, a malformed deal or strategy.
        ScriptError: for a script token that is not legal at its decision, or for
            tokens left over when the deal ends.
    """
    if rules.players != PLAYERS:
        raise ValueError(f"the reference engine plays 3 players, rules have {rules.players}")
    if dealer not in range(PLAYERS):
        raise ValueError(f"dealer must be 0, 1 or 2, got {dealer!r}")
    ids = _check_cards(cards)
    seats = _check_strategies(strategies)
    hands = [sorted(ids[7 * s : 7 * s + 7]) for s in range(PLAYERS)]
    talon = sorted(ids[21:24])
    if len(no_concede) != PLAYERS or len(on_barrel) != PLAYERS:
        raise ValueError("no_concede and on_barrel need one flag per seat (3)")
    blocked = [
        bool(no_concede[s]) or (barrel and not rules.rospis.on_barrel) for s in range(PLAYERS)
    ]
    number = deal_id + attempt * REDEAL_STRIDE if item is None else item
    state = item_state(_stream_key(seed, Stream.STRATEGY), number)
    chooser = Chooser(seats, list(script or []), state)
    forehand = (dealer + 1) % PLAYERS
    order = [(forehand + k) % PLAYERS for k in range(PLAYERS)]
    may_redeal = attempt < MAX_REDEALS

    trace: dict[str, Any] = {
        "deal_id": deal_id,
        "dealer": dealer,
        "hands": [[card_str(c) for c in h] for h in hands],
        "talon": [card_str(c) for c in talon],
        "reshuffle": None,
    }

    def finish(result: dict[str, Any] | None) -> dict[str, Any]:
        if chooser.used < len(chooser.script):
            left = chooser.script[chooser.used :]
            raise ScriptError(f"{len(left)} script token(s) left unused at the end: {left!r}")
        extra = {} if result is None else result
        trace.update({k: v for k, v in extra.items() if k not in ("made", "trump_named")})
        trace["attempt"] = attempt
        trace.update({k: v for k, v in extra.items() if k in ("made", "trump_named")})
        return trace

    def redeal(seat: int, reason: str) -> dict[str, Any]:
        trace["reshuffle"] = {"seat": seat, "reason": reason}
        return finish(None)

    # 1. hand reshuffle
    for s in order:
        reason = hand_reshuffle_reason(rules, hands[s])
        if may_redeal and reason is not None:
            if chooser.choose(Decision.RESHUFFLE_HAND, s, [0, 1], f" ({reason})"):
                return redeal(s, reason)

    # 2. bidding
    bids, declarer, winning_bid = bidding(rules, hands, forehand, scores, chooser, on_barrel)
    at_100 = winning_bid == 100

    # 3. talon
    reason = talon_reshuffle_reason(rules, talon)
    if may_redeal and reason is not None and (not rules.reshuffle.talon_only_at_100 or at_100):
        if chooser.choose(Decision.RESHUFFLE_TALON, declarer, [0, 1], f" ({reason})"):
            return redeal(declarer, reason)
    shown = talon_shown(rules, at_100)

    # 4. discard
    kept, given = discard(hands[declarer] + talon, declarer, chooser)
    after = [list(h) for h in hands]
    after[declarer] = kept
    for to, card in given:
        after[to] = sorted([*after[to], card])

    # 5. after-discard reshuffle
    if rules.reshuffle.after_discard_four_nines or rules.reshuffle.after_discard_points_below:
        for s in order:
            reason = after_discard_reshuffle_reason(rules, after[s])
            if may_redeal and reason is not None:
                if chooser.choose(Decision.RESHUFFLE_AFTER, s, [0, 1], f" ({reason})"):
                    return redeal(s, reason)

    # 6. contract
    contract = chooser.choose(
        Decision.CONTRACT, declarer, contract_options(rules, winning_bid, kept)
    )
    trace.update(
        {
            "bids": bids,
            "declarer": declarer,
            "winning_bid": winning_bid,
            "talon_shown": shown,
            "discards": [[to, card_str(card)] for to, card in given],
            "contract": contract,
            "conceded": False,
        }
    )

    # 7. concession
    if rules.rospis.allowed and not blocked[declarer]:
        if chooser.choose(Decision.CONCEDE, declarer, [0, 1]):
            trace["conceded"] = True
            return finish(
                {
                    "card_points": [0, 0, 0],
                    "marriage_points": [0, 0, 0],
                    "tricks_taken": [0, 0, 0],
                    "score_deltas": concession_deltas(rules, declarer, contract),
                    "bolts": [0, 0, 0],
                    "made": False,
                    "trump_named": None,
                }
            )

    # 8. trump named by the declarer
    st = PlayState(declarer=declarer)
    trump_named = None
    if rules.trump.named_by_declarer:
        st.trump = chooser.choose(Decision.NAME_TRUMP, declarer, list(range(N_SUITS)))
        st.trump_setter = declarer
        trump_named = SUIT_LETTERS[st.trump]

    # 9. play
    tricks, captured = play_tricks(rules, [list(h) for h in after], st, chooser)
    tricks_taken = [sum(1 for t in tricks if t["winner"] == s) for s in range(PLAYERS)]

    # 10. scoring
    result = score_played(rules, st, contract, captured, tricks_taken, after)
    return finish({"tricks": tricks, **result, "trump_named": trump_named})


def play_slot(
    rules: Rules,
    seed: int,
    deal_id: int,
    *,
    scores: Sequence[int] = (0, 0, 0),
    strategies: Sequence[str] = ("random", "random", "random"),
    barrel: bool = False,
    no_concede: Sequence[bool] = (False, False, False),
    on_barrel: Sequence[bool] = (False, False, False),
) -> list[dict[str, Any]]:
    """Play slot ``deal_id`` of a run: its first deal and every redeal (PROTOCOL.md, Inputs).

    Attempt ``a`` uses deal number ``deal_id + a * REDEAL_STRIDE`` of
    :func:`sim.deal.generate_deals` (computed by :func:`deal_cards`, its pure-Python
    twin); the dealer ``deal_id % 3`` deals every attempt.

    Returns:
        The traces of all attempts, the redealt ones first; the last one was played
        (or conceded).
    """
    traces = []
    for attempt in range(MAX_REDEALS + 1):
        cards = deal_cards(seed, deal_id + attempt * REDEAL_STRIDE)
        trace = play_hand(
            rules,
            cards,
            deal_id % PLAYERS,
            seed=seed,
            deal_id=deal_id,
            attempt=attempt,
            scores=scores,
            strategies=strategies,
            barrel=barrel,
            no_concede=no_concede,
            on_barrel=on_barrel,
        )
        traces.append(trace)
        if trace["reshuffle"] is None:
            break
    return traces


def play_hand_text(
    rules: Rules, hands: Sequence[str], talon: str, dealer: int, **kw: Any
) -> dict[str, Any]:
    """:func:`play_hand` with the hands and the talon written as card text.

    Args:
        rules: house rules.
        hands: three hands of 7 cards each, e.g. ``"AH TH KS QS 9C JD AD"`` or
            ``"A♥ 10♥ K♠ Q♠ 9♣ J♦ A♦"``.
        talon: the 3 talon cards.
        dealer: the dealer's seat.
        **kw: passed on to :func:`play_hand` (``script``, ``strategies``, ...).

    Raises:
        ValueError: when a hand does not hold 7 cards, the talon 3, or a card is
            given twice or is malformed (the message names it).
    """
    if len(hands) != PLAYERS:
        raise ValueError(f"3 hands needed, got {len(hands)}")
    places = [*hands, talon]
    names = ["hand of seat 0", "hand of seat 1", "hand of seat 2", "talon"]
    ids: list[int] = []
    seen: dict[int, str] = {}
    for name, text, size in zip(names, places, (7, 7, 7, 3), strict=True):
        cards = parse_cards(text)
        if len(cards) != size:
            raise ValueError(f"{name} must hold {size} cards, got {len(cards)}: {text!r}")
        for c in cards:
            if c in seen:
                raise ValueError(f"card {card_str(c)} is in the {seen[c]} and the {name}")
            seen[c] = name
        ids += cards
    return play_hand(rules, ids, dealer, **kw)
