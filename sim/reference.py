"""The reference engine: one hand of Thousand for 2, 3 or 4 players, in plain Python.

This module implements ``sim/engine/PROTOCOL.md`` literally and readably, for
clarity rather than speed. The fast compiled engine is checked against it (same
decisions, same legal actions in the same ascending order, same random numbers,
same trace), and the rule scenario tests run through it.

Each rule lives in one small function, named after the phase of PROTOCOL.md it
implements:

* who plays — :class:`Table` (the active seats and their turn order: all three of
  3 players, both of 2, the three beside the dealer of 4);
* phase 0 (dark) — :func:`undarkening`;
* phases 1, 3, 5 (reshuffle) — :func:`hand_reshuffle_reason`,
  :func:`talon_reshuffle_reason`, :func:`after_discard_reshuffle_reason`;
* phase 2 (bidding) — :func:`bid_cap`, :func:`bid_raises`, :func:`bidding`;
* phases 3–4 (talon and discard) — :func:`talon_shown`, :func:`discard`;
* phase 6 (contract) — :func:`contract_options`;
* phase 7 (concession) — :func:`concession_deltas`;
* phase 9 (play) — :func:`legal_leads`, :func:`legal_follows`, :func:`beats`,
  :func:`trick_winner`, :func:`play_tricks`;
* phase 10 (scoring) — :func:`round_points`, :func:`marriage_points`,
  :func:`declarer_delta`, :func:`opponent_delta`, :func:`score_played`,
  :func:`sitter_score` (the 4-player dealer's talon);

and :func:`play_hand` runs the phases in order.

Every decision goes through :class:`Chooser`: a decision with one legal action is
forced (no random number, no script token); otherwise the next script token decides,
or, once the script is exhausted, the seat's strategy (``"first"``: the lowest code;
``"random"``: the counter-based stream of PROTOCOL.md).

The counter-based generator of :mod:`sim.rng` is re-implemented here on Python
integers (:func:`mix64`, :func:`item_state`, :func:`word`, :func:`bounded`), and so is
the shuffle of :func:`sim.deal.generate_deals` (:func:`deal_cards`), so this engine
shares no compiled code with the fast one.

Readings of the protocol where it leaves a choice:

* :func:`play_hand_text` takes one hand per seat of the game; the 4-player dealer's
  hand is empty (``""``). With 2 players its ``talon`` holds 4 cards: the first two
  are the first talon (place 2), the last two the second (place 3), as the trace's
  ``talon`` lists them.
* DARK is offered on every dealt deal whose input is ``dark_allowed``, redeals and
  attempt ``MAX_REDEALS`` included (only the reshuffle demands are capped there).
* After an undarkening nobody has passed: a seat that answered "no" to UNDARKEN
  may still bid when its turn comes.
* The ``bonus.four_nines`` bonus is a separate entry of ``score_deltas`` (never in
  ``marriage_points`` or the total), doubled in golden and dark deals, and paid in
  conceded deals too.
* A dark contract made without ``dark.cap_240`` scores ``2 * round(total)``, rounded
  whatever ``score.round_declarer`` says.
* Golden and dark deals have ``at_100`` false, so with
  ``reshuffle.talon_only_at_100`` they never offer the talon reshuffle.
* A 4-player hand's card points of the three active seats sum to 120 (the declarer
  took the talon); the sitting-out dealer's talon points come on top.
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
    parse_card,
    parse_cards,
)
from sim.deal import ritual_on
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
from sim.engine.reshuffle import HAND_REASONS, TALON_REASONS
from sim.rng import Stream, stream_key
from sim.rules import ACE_MARRIAGE_VALUE, Rules

__all__ = [
    "AFTER_DISCARD_REASONS",
    "SPECIALS",
    "STRATEGIES",
    "Chooser",
    "ScriptError",
    "Table",
    "beats",
    "bounded",
    "deal_cards",
    "item_state",
    "legal_follows",
    "legal_leads",
    "mix64",
    "place_sizes",
    "play_hand",
    "play_hand_text",
    "play_slot",
    "round_points",
    "trick_winner",
    "word",
]

PLAYERS = 3  # the default number of players (classic rules)
NO_TRUMP = -1
ACE_BIT = 16  # bit of the ace marriage in a player's ``declared`` mask
DARK_CONTRACT = 120  # golden and dark deals: forehand plays 120 without bidding
UNDARKEN_BID = 125  # an opponent with a marriage undarkens by bidding 125
AFTER_DISCARD_REASONS = ("after_discard_four_nines", "after_discard_points_below")
STRATEGIES = ("random", "first")
SPECIALS = ("none", "golden", "dark_allowed")  # the hand input ``special``


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


# --- who plays (PROTOCOL.md "Four players", "Two players") ---------------------------
def place_sizes(players: int) -> tuple[int, int, int, int]:
    """Cards per place of a deal, as :func:`sim.deal.place_sizes`.

    3 and 4 players: three hands of 7 and the talon of 3; 2 players: two hands of 10
    and two talons of 2.
    """
    if players in (3, 4):
        return (7, 7, 7, 3)
    if players == 2:
        return (10, 10, 2, 2)
    raise ValueError(f"players must be 2, 3 or 4, got {players!r}")


@dataclass(frozen=True)
class Table:
    """The seats of a game and who of them plays one hand.

    Attributes:
        players: seats of the game (2, 3 or 4), numbered ``0 .. players-1``.
        dealer: the dealer's seat. With 4 players the dealer sits out.
    """

    players: int
    dealer: int

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise ValueError(f"players must be 2, 3 or 4, got {self.players!r}")
        if self.dealer not in range(self.players):
            raise ValueError(f"dealer must be a seat 0..{self.players - 1}, got {self.dealer!r}")

    @property
    def forehand(self) -> int:
        """The seat left of the dealer: it bids 100 first (and plays golden and dark)."""
        return (self.dealer + 1) % self.players

    @property
    def active(self) -> list[int]:
        """The seats that play the hand, clockwise from forehand.

        3 players: ``f, f+1, f+2``; 2 players: ``f, f+1``; 4 players: ``d+1, d+2,
        d+3`` (the dealer sits out).
        """
        count = 3 if self.players == 4 else self.players
        return [(self.dealer + 1 + k) % self.players for k in range(count)]

    @property
    def sitter(self) -> int | None:
        """The seat that sits out (the 4-player dealer), or None."""
        return self.dealer if self.players == 4 else None

    def after(self, seat: int, k: int = 1) -> int:
        """The ``k``-th active seat clockwise after the active ``seat``."""
        ring = self.active
        return ring[(ring.index(seat) + k) % len(ring)]

    def zeros(self) -> list[int]:
        """A per-seat list of zeros (one entry per seat of the game)."""
        return [0] * self.players


# --- decisions ------------------------------------------------------------------------
def _describe(kind: Decision, code: int) -> str:
    """Readable form of an action code, in script-token notation."""
    if kind in (Decision.DISCARD, Decision.PLAY):
        return card_str(code - DECLARE) + "!" if code >= DECLARE else card_str(code)
    if kind == Decision.BID:
        return "pass" if code == PASS else str(code)
    if kind == Decision.NAME_TRUMP:
        return SUIT_LETTERS[code]
    if kind in (Decision.CONTRACT, Decision.TALON_PICK):
        return str(code)
    if kind == Decision.CONCEDE:
        return ("play", "concede")[code]
    if kind == Decision.DARK:
        return ("light", "dark")[code]
    if kind == Decision.UNDARKEN:
        return ("no", "undarken")[code]
    return ("keep", "demand")[code]


@dataclass
class Chooser:
    """Makes every decision of one dealt deal (PROTOCOL.md, random numbers).

    Attributes:
        strategies: strategy name of each seat of the game (``"random"`` or
            ``"first"``).
        script: tokens consumed in order at every non-forced decision.
        state: the item state of the ``random`` strategy for this dealt deal.
        counter: the next half-word of ``state``.
        used: number of script tokens consumed so far.
    """

    strategies: tuple[str, ...]
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


# --- phases 1, 3, 5: reshuffle conditions (docs/rules.md §3) -------------------------------
def hand_reshuffle_reason(rules: Rules, hand: Sequence[int]) -> str | None:
    """The reshuffle condition a dealt 7-card hand meets (docs/rules.md §3), or ``None``."""
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
    """The reshuffle condition the talon meets (docs/rules.md §3), or ``None``."""
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
    """The after-discard condition an 8-card hand meets (docs/rules.md §3), or ``None``."""
    r = rules.reshuffle
    bits = 0
    if r.after_discard_four_nines and count_rank(hand, Rank.NINE) == 4:
        bits |= 1
    if r.after_discard_points_below > 0 and points(hand) < r.after_discard_points_below:
        bits |= 2
    return _lowest_reason(bits, AFTER_DISCARD_REASONS)


# --- phase 2: bidding (docs/rules.md §4) ---------------------------------------------------
def bid_cap(rules: Rules, hand: Sequence[int]) -> int:
    """Highest bid allowed for a hand: 120 + its marriages, or ``MAX_BID`` (docs/rules.md §4)."""
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
    table: Table,
    hands: list[list[int]],
    scores: Sequence[int],
    chooser: Chooser,
    on_barrel: Sequence[bool],
    undarkened_by: int | None = None,
) -> tuple[list[list[Any]], int, int]:
    """Bid until all active players but one have passed (PROTOCOL.md §2, docs/rules.md §4).

    Forehand's 100 is automatic; the turns go clockwise among the active seats from
    ``f+1``. After an undarkening by seat ``u`` (PROTOCOL.md "Dark") the log starts
    ``[[f, 100], [u, 125]]``, the bid is 125 held by ``u`` and the turns go on from
    ``u+1``. ``on_barrel[s]``: seat ``s`` sits on the barrel and raises only from
    ``barrel.bid_from`` (:func:`bid_raises`).

    Returns:
        The bids log (``[seat, amount]`` / ``[seat, "pass"]``), the declarer and the
        winning bid.
    """
    forehand = table.forehand
    bid, high, seat = 100, forehand, forehand
    log: list[list[Any]] = [[forehand, 100]]
    if undarkened_by is not None:
        bid, high, seat = UNDARKEN_BID, undarkened_by, undarkened_by
        log.append([undarkened_by, UNDARKEN_BID])
    passed: set[int] = set()
    silence = rules.bid.silence_below
    while len(passed) < len(table.active) - 1:
        seat = table.after(seat)
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


# --- phase 0: dark (docs/rules.md §11) -----------------------------------------------------
def undarkening(
    rules: Rules,
    table: Table,
    hands: list[list[int]],
    scores: Sequence[int],
    on_barrel: Sequence[bool],
    chooser: Chooser,
) -> int | None:
    """The seat that undarkens forehand's dark declaration by bidding 125, or None.

    Asked in turn ``f+1, f+2`` (2 players: ``f+1``), with ``dark.undarken``: a seat
    whose dealt hand holds a marriage, that is not silenced and that is not on the
    barrel (or ``barrel.bid_from <= 125``). The first one to say yes undarkens.
    """
    if not rules.dark.undarken:
        return None
    silence = rules.bid.silence_below
    for seat in table.active[1:]:
        if not marriages_held(hands[seat]):
            continue
        if silence is not None and scores[seat] < silence:
            continue
        if on_barrel[seat] and rules.barrel.bid_from > UNDARKEN_BID:
            continue
        if chooser.choose(Decision.UNDARKEN, seat, [0, 1]):
            return seat
    return None


# --- phases 3, 4, 6, 7: talon, discard, contract, concession (docs/rules.md §5) -----------
def talon_shown(rules: Rules, at_100: bool, special: str | None = None) -> bool:
    """Whether the talon is shown to all (docs/rules.md §5): never in a golden or dark deal."""
    if special is not None:
        return False
    return not (rules.talon.hide_at_100 and at_100)


def discard(
    hand: list[int], table: Table, declarer: int, chooser: Chooser
) -> tuple[list[int], list[list[int]]]:
    """The declarer gives one card to each opponent (PROTOCOL.md §4).

    3 active players: to ``decl+1``, then to ``decl+2``; 2 players: one card to
    ``decl+1``.

    Args:
        hand: the declarer's cards with the talon (10, or 12 with 2 players).
        table: who plays.
        declarer: the declarer's seat.
        chooser: decides the discards.

    Returns:
        The declarer's remaining cards and the log ``[[recipient, card], ...]``.
    """
    rest = sorted(hand)
    log: list[list[int]] = []
    for k in range(1, len(table.active)):
        to = table.after(declarer, k)
        card = chooser.choose(Decision.DISCARD, declarer, rest, f" to seat {to}")
        rest.remove(card)
        log.append([to, card])
    return rest, log


def contract_options(rules: Rules, winning_bid: int, hand: Sequence[int]) -> list[int]:
    """Contracts the declarer may name after the discard (PROTOCOL.md §6, docs/rules.md §5)."""
    limit = bid_cap(rules, hand)
    step = rules.bid.step
    return [winning_bid, *range((winning_bid // step + 1) * step, limit + 1, step)]


def concession_deltas(
    rules: Rules, table: Table, declarer: int, contract: int, special: str | None = None
) -> list[int]:
    """Score deltas of a conceded deal (роспись, docs/rules.md §5), one per seat.

    The declarer ``-contract`` (0 with ``rospis.no_subtract``), each other active
    seat half the contract rounded up to a multiple of 5, or 60; all doubled in a
    golden or dark deal. The 4-player dealer gets 0 here (:func:`sitter_score`).
    """
    if rules.rospis.opponents_get == "half":
        opponent = -(-contract // 10) * 5  # contract / 2, rounded up to a multiple of 5
    else:
        opponent = 60
    declarer_gets = 0 if rules.rospis.no_subtract else -contract
    if special is not None:  # golden or dark: doubled
        opponent, declarer_gets = 2 * opponent, 2 * declarer_gets
    deltas = table.zeros()
    for s in table.active:
        deltas[s] = declarer_gets if s == declarer else opponent
    return deltas


# --- phase 9: play (docs/rules.md §6) ------------------------------------------------------
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


@dataclass
class PlayState:
    """What the play rules depend on, besides the hands (per-seat lists: every seat)."""

    declarer: int
    players: int = PLAYERS
    trump: int = NO_TRUMP
    trump_setter: int = -1
    pending: int = NO_TRUMP
    declared: list[int] = field(default_factory=list)  # bit s: marriage of suit s; ACE_BIT
    declared_value: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.declared:
            self.declared = [0] * self.players
        if not self.declared_value:
            self.declared_value = [0] * self.players


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


# --- phase 10: scoring (docs/rules.md §7, §10, §11) ----------------------------------------
def round_points(rules: Rules, x: int) -> int:
    """Round a total to ``score.round_to``: to 5, remainders 1-2 down and 3-4 up; to 10, 5 up."""
    if rules.score.round_to == 10:
        return (x + 5) // 10 * 10
    return (x + 2) // 5 * 5


def marriage_points(
    rules: Rules, declared: int, declared_value: int, captured: Sequence[int], is_declarer: bool
) -> int:
    """A player's marriage points; with ``marriage.requires_capture`` only captured ones.

    With ``marriage.only_declarer`` a defender's marriages score 0.
    """
    if rules.marriage.only_declarer and not is_declarer:
        return 0
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


def four_nines_bonus(rules: Rules, after_discard: Sequence[int], special: str | None) -> int:
    """``bonus.four_nines`` of a hand that holds four nines after the discard (§6).

    A separate entry of the deal score whatever the deal's result (played or
    conceded): not part of the deal total, not rounded, doubled in golden and dark
    deals.
    """
    if rules.bonus.four_nines == 0 or count_rank(after_discard, Rank.NINE) != 4:
        return 0
    return rules.bonus.four_nines * (1 if special is None else 2)


def declarer_delta(
    rules: Rules, made: bool, contract: int, total: int, special: str | None = None
) -> int:
    """The declarer's delta of a played deal (PROTOCOL.md §10, "Golden", "Dark").

    Ordinary: ``+contract`` made, ``-contract`` failed. Golden: doubled. Dark: made
    ``+240`` with ``dark.cap_240`` (else ``+2 * round(total)``), failed ``-240``.
    """
    if special == "dark":
        if not made:
            return -2 * DARK_CONTRACT
        return 2 * DARK_CONTRACT if rules.dark.cap_240 else 2 * round_points(rules, total)
    delta = contract if made else -contract
    return 2 * delta if special == "golden" else delta


def opponent_delta(rules: Rules, total: int, marriage_pts: int, special: str | None = None) -> int:
    """An opponent's delta (also the 4-player dealer's talon score).

    Ordinary: ``round(total)``. Golden: ``2 * round(total)``, less the marriage
    points once without ``golden.double_marriages``. Dark: ``2 * round(total) -
    marriage_pts`` (marriages are never doubled in the dark).
    """
    rounded = round_points(rules, total)
    if special == "golden":
        if rules.golden.double_marriages:
            return 2 * rounded
        return 2 * rounded - marriage_pts
    if special == "dark":
        return 2 * rounded - marriage_pts
    return rounded


def score_played(
    rules: Rules,
    table: Table,
    st: PlayState,
    contract: int,
    captured: list[list[int]],
    tricks_taken: list[int],
    after_discard: list[list[int]],
    special: str | None = None,
) -> dict[str, Any]:
    """Points, deltas, ``made`` and bolts of a played deal (PROTOCOL.md §10, docs/rules.md §7).

    Every list has one entry per seat of the game; a seat that sits out gets 0s
    here (:func:`sitter_score` scores it).
    """
    card_pts = table.zeros()
    marriage_pts = table.zeros()
    for s in table.active:
        card_pts[s] = points(captured[s])
        marriage_pts[s] = marriage_points(
            rules, st.declared[s], st.declared_value[s], captured[s], s == st.declarer
        )
    total = [card_pts[s] + marriage_pts[s] for s in range(table.players)]
    decl = st.declarer
    compared = round_points(rules, total[decl]) if rules.score.round_declarer else total[decl]
    made = compared >= contract
    deltas = table.zeros()
    bolts = table.zeros()
    for s in table.active:
        if s == decl:
            deltas[s] = declarer_delta(rules, made, contract, total[s], special)
        else:
            deltas[s] = opponent_delta(rules, total[s], marriage_pts[s], special)
        deltas[s] += four_nines_bonus(rules, after_discard[s], special)
        if rules.bolt.on == "no_tricks":
            bolt = tricks_taken[s] == 0
        else:  # "zero_points": a deal total that rounds to 0
            bolt = round_points(rules, total[s]) == 0
        if s == decl and rules.bolt.declarer_exempt:
            bolt = False
        bolts[s] = int(bolt)
    return {
        "card_points": card_pts,
        "marriage_points": marriage_pts,
        "tricks_taken": tricks_taken,
        "score_deltas": deltas,
        "bolts": bolts,
        "made": made,
    }


def sitter_score(rules: Rules, talon: Sequence[int], special: str | None = None) -> dict[str, int]:
    """The 4-player dealer's score from the talon (PROTOCOL.md "Four players").

    Card points of the talon, the marriages (K+Q) lying in it, and the delta
    ``round(points + marriages)``, doubled in a golden or dark deal like an
    opponent's (:func:`opponent_delta`). No tricks, no bolt.
    """
    card_pts = points(talon)
    marriage_pts = marriage_sum(rules, talon)
    delta = opponent_delta(rules, card_pts + marriage_pts, marriage_pts, special)
    return {"card_points": card_pts, "marriage_points": marriage_pts, "score_delta": delta}


# --- one dealt deal -------------------------------------------------------------------
@lru_cache(maxsize=64)
def _stream_key(seed: int, stream: Stream) -> int:
    """Key of one random stream of a run, as a Python integer."""
    return int(stream_key(seed, stream))


def deal_cards(
    seed: int, number: int, stream: Stream = Stream.DEALS, players: int = PLAYERS
) -> list[int]:
    """Deal ``number`` of the run seeded ``seed``, as ``generate_deals(..., players)``.

    The same exact Fisher-Yates shuffle as :mod:`sim.deal`, on the pure-Python
    generator above: positions 23 down to the size of the first place (7, or 10 with
    2 players) each take a uniform card among those left, then each place (3 and 4
    players: three hands of 7 and the talon of 3; 2 players: two hands of 10 and two
    talons of 2) is sorted by id. ``stream`` picks the key (``Stream.GAME_DEALS`` for
    the deals of whole games, as :func:`sim.deal.deal_into` with
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


# --- dealing from a deck: the cut and the bottom-card ritual (docs/rules.md §2) ---------------
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


def _check_cards(cards: Sequence[int]) -> list[int]:
    ids = [int(c) for c in cards]
    if len(ids) != N_CARDS:
        raise ValueError(f"a deal needs 24 cards, got {len(ids)}")
    if sorted(ids) != list(range(N_CARDS)):
        raise ValueError(f"a deal must hold each of the 24 card ids once, got {ids}")
    return ids


def _check_strategies(strategies: Sequence[str] | None, players: int) -> tuple[str, ...]:
    if strategies is None:
        return ("random",) * players
    if len(strategies) != players:
        raise ValueError(f"strategies: one per seat ({players}) needed, got {list(strategies)}")
    for name in strategies:
        if name not in STRATEGIES:
            raise ValueError(f"unknown strategy {name!r} (reference strategies: random, first)")
    return tuple(strategies)


def _per_seat(name: str, values: Sequence[Any] | None, players: int, default: Any) -> list[Any]:
    """A per-seat input: one entry per seat of the game (``default`` for all if None)."""
    if values is None:
        return [default] * players
    if len(values) != players:
        raise ValueError(f"{name}: one entry per seat ({players}) needed, got {list(values)}")
    return list(values)


def _sits_out(
    rules: Rules, table: Table, talon: list[int], result: dict[str, Any], special: str | None
) -> None:
    """Score the 4-player dealer's talon into ``result`` (played or conceded alike)."""
    sitter = table.sitter
    if sitter is None:
        return
    score = sitter_score(rules, talon, special)
    result["card_points"][sitter] = score["card_points"]
    result["marriage_points"][sitter] = score["marriage_points"]
    result["score_deltas"][sitter] = score["score_delta"]


def play_hand(
    rules: Rules,
    cards: Sequence[int],
    dealer: int,
    *,
    seed: int = 0,
    deal_id: int = 0,
    attempt: int = 0,
    scores: Sequence[int] | None = None,
    strategies: Sequence[str] | None = None,
    script: Sequence[object] | None = None,
    barrel: bool = False,
    no_concede: Sequence[bool] | None = None,
    on_barrel: Sequence[bool] | None = None,
    item: int | None = None,
    special: str = "none",
    gathered: list[int] | None = None,
) -> dict[str, Any]:
    """Play one dealt deal and return its trace object (PROTOCOL.md, docs/cli.md).

    Per-seat inputs (``scores``, ``strategies``, ``no_concede``, ``on_barrel``) take
    one entry per seat of the game (``rules.players``: 2, 3 or 4); None means 0,
    ``"random"``, False for every seat.

    Args:
        rules: house rules (``players`` 2, 3 or 4).
        cards: 24 card ids by place (:func:`deal_cards`): 3 players: seats 0, 1, 2
            (7 each), then the talon (3); 4 players: the active seats ``d+1, d+2,
            d+3`` (7 each), then the talon; 2 players: seats 0, 1 (10 each), then the
            two talons (2 each).
        dealer: the dealer's seat; forehand is ``dealer + 1``. With 4 players the
            dealer sits out and scores the talon.
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
        special: ``"none"``, ``"golden"`` (the game says this deal is golden) or
            ``"dark_allowed"`` (forehand is offered the dark declaration).
        gathered: a list that receives the next deck, the deal's cards gathered as
            they lie (:func:`gather`), for ``deal.method = "cut"``.

    Returns:
        The trace: ``deal_id, dealer, hands, talon, reshuffle`` and, when not redealt,
        ``bids, declarer, winning_bid, talon_shown, discards, contract, conceded``,
        ``tricks`` when played, ``card_points, marriage_points, tricks_taken,
        score_deltas, bolts``; then ``attempt`` and, when not redealt, ``made,
        trump_named, special, undarkened_by`` and with 2 players ``talon_pick,
        last_talon_to``.

    Raises:
        ValueError: for a malformed deal, dealer, per-seat input or ``special``.
        ScriptError: for a script token that is not legal at its decision, or for
            tokens left over when the deal ends.
    """
    n = rules.players
    table = Table(n, dealer)
    if special not in SPECIALS:
        raise ValueError(f"special must be one of {SPECIALS}, got {special!r}")
    ids = _check_cards(cards)
    seats = _check_strategies(strategies, n)
    game_scores = _per_seat("scores", scores, n, 0)
    may_not_concede = _per_seat("no_concede", no_concede, n, False)
    barrel_seats = _per_seat("on_barrel", on_barrel, n, False)
    hands, talons = seat_cards(table, ids)
    blocked = [
        bool(may_not_concede[s]) or (barrel and not rules.rospis.on_barrel) for s in range(n)
    ]
    number = deal_id + attempt * REDEAL_STRIDE if item is None else item
    state = item_state(_stream_key(seed, Stream.STRATEGY), number)
    chooser = Chooser(seats, list(script or []), state)
    forehand = table.forehand
    may_redeal = attempt < MAX_REDEALS

    trace: dict[str, Any] = {
        "deal_id": deal_id,
        "dealer": dealer,
        "hands": [[card_str(c) for c in h] for h in hands],
        "talon": [card_str(c) for t in talons for c in t],
        "reshuffle": None,
    }

    def finish(body: dict[str, Any], tail: dict[str, Any]) -> dict[str, Any]:
        """The trace: the keys so far, ``body``, ``attempt``, then ``tail``."""
        if chooser.used < len(chooser.script):
            left = chooser.script[chooser.used :]
            raise ScriptError(f"{len(left)} script token(s) left unused at the end: {left!r}")
        trace.update(body)
        trace["attempt"] = attempt
        trace.update(tail)
        return trace

    def gather_into(held: list[list[int]], pile: list[int] | None = None) -> None:
        if gathered is not None:
            gathered[:] = gather(table, held, pile)

    def redeal(seat: int, reason: str, held: list[list[int]]) -> dict[str, Any]:
        trace["reshuffle"] = {"seat": seat, "reason": reason}
        gather_into(held)
        return finish({}, {})

    # 0. dark: forehand declares before looking at its cards
    dark_declared = False
    if special == "dark_allowed":
        dark_declared = chooser.choose(Decision.DARK, forehand, [0, 1], " (dark or light)") == 1

    # 1. hand reshuffle
    for s in table.active:
        reason = hand_reshuffle_reason(rules, hands[s])
        if may_redeal and reason is not None:
            if chooser.choose(Decision.RESHUFFLE_HAND, s, [0, 1], f" ({reason})"):
                return redeal(s, reason, hands)

    # 2. bidding; none in a golden deal or a dark one that nobody undarkened
    kind = "golden" if special == "golden" else None  # the trace's ``special``
    undarkened_by = None
    if dark_declared:
        undarkened_by = undarkening(rules, table, hands, game_scores, barrel_seats, chooser)
        if undarkened_by is None:
            kind = "dark"
    if kind is not None:
        bids: list[list[Any]] = [[forehand, DARK_CONTRACT]]
        declarer, winning_bid = forehand, DARK_CONTRACT
    else:
        bids, declarer, winning_bid = bidding(
            rules, table, hands, game_scores, chooser, barrel_seats, undarkened_by
        )
    at_100 = winning_bid == 100

    # 3. talon; with 2 players the declarer picks one of the two, blind
    talon_pick = None
    set_aside: list[int] = []
    if n == 2:
        talon_pick = chooser.choose(Decision.TALON_PICK, declarer, [0, 1], " (blind)")
        talon, set_aside = talons[talon_pick], talons[1 - talon_pick]
    else:
        talon = talons[0]
    reason = talon_reshuffle_reason(rules, talon)
    if may_redeal and reason is not None and (not rules.reshuffle.talon_only_at_100 or at_100):
        if chooser.choose(Decision.RESHUFFLE_TALON, declarer, [0, 1], f" ({reason})"):
            return redeal(declarer, reason, hands)
    shown = talon_shown(rules, at_100, kind)

    # 4. discard
    kept, given = discard(hands[declarer] + talon, table, declarer, chooser)
    after = [list(h) for h in hands]
    after[declarer] = kept
    for to, card in given:
        after[to] = sorted([*after[to], card])

    # 5. after-discard reshuffle
    if rules.reshuffle.after_discard_four_nines or rules.reshuffle.after_discard_points_below:
        for s in table.active:
            reason = after_discard_reshuffle_reason(rules, after[s])
            if may_redeal and reason is not None:
                if chooser.choose(Decision.RESHUFFLE_AFTER, s, [0, 1], f" ({reason})"):
                    return redeal(s, reason, after)

    # 6. contract; 120 in a dark deal and a blind golden one
    if kind == "dark" or (kind == "golden" and rules.golden.blind):
        options = [DARK_CONTRACT]
    else:
        options = contract_options(rules, winning_bid, kept)
    contract = chooser.choose(Decision.CONTRACT, declarer, options)
    body: dict[str, Any] = {
        "bids": bids,
        "declarer": declarer,
        "winning_bid": winning_bid,
        "talon_shown": shown,
        "discards": [[to, card_str(card)] for to, card in given],
        "contract": contract,
        "conceded": False,
    }

    def tail(made: bool, trump_named: str | None, last_talon_to: int | None) -> dict[str, Any]:
        """The keys after ``attempt``: protocol extras, then the 2-player ones."""
        out: dict[str, Any] = {
            "made": made,
            "trump_named": trump_named,
            "special": kind,
            "undarkened_by": undarkened_by,
        }
        if n == 2:
            out["talon_pick"] = talon_pick
            out["last_talon_to"] = last_talon_to
        return out

    # 7. concession
    if rules.rospis.allowed and not blocked[declarer]:
        if chooser.choose(Decision.CONCEDE, declarer, [0, 1]):
            body["conceded"] = True
            result: dict[str, Any] = {
                "card_points": table.zeros(),
                "marriage_points": table.zeros(),
                "tricks_taken": table.zeros(),
                "score_deltas": [
                    d + (four_nines_bonus(rules, after[s], kind) if s in table.active else 0)
                    for s, d in enumerate(concession_deltas(rules, table, declarer, contract, kind))
                ],
                "bolts": table.zeros(),
            }
            _sits_out(rules, table, talon, result, kind)
            gather_into(after)
            return finish({**body, **result}, tail(False, None, None))

    # 8. trump named by the declarer
    st = PlayState(declarer=declarer, players=n)
    trump_named = None
    if rules.trump.named_by_declarer:
        st.trump = chooser.choose(Decision.NAME_TRUMP, declarer, list(range(N_SUITS)))
        st.trump_setter = declarer
        trump_named = SUIT_LETTERS[st.trump]

    # 9. play; with 2 players the last trick's winner also captures the other talon
    tricks, captured = play_tricks(rules, table, [list(h) for h in after], st, chooser)
    gather_into(after, [parse_card(c) for t in tricks for c in t["cards"]])
    tricks_taken = [sum(1 for t in tricks if t["winner"] == s) for s in range(n)]
    last_talon_to = None
    if n == 2:
        last_talon_to = tricks[-1]["winner"]
        captured[last_talon_to] += set_aside

    # 10. scoring
    scored = score_played(rules, table, st, contract, captured, tricks_taken, after, kind)
    made = scored.pop("made")
    _sits_out(rules, table, talon, scored, kind)
    return finish({**body, "tricks": tricks, **scored}, tail(made, trump_named, last_talon_to))


def play_slot(
    rules: Rules,
    seed: int,
    deal_id: int,
    *,
    scores: Sequence[int] | None = None,
    strategies: Sequence[str] | None = None,
    barrel: bool = False,
    no_concede: Sequence[bool] | None = None,
    on_barrel: Sequence[bool] | None = None,
) -> list[dict[str, Any]]:
    """Play slot ``deal_id`` of a run: its first deal and every redeal (PROTOCOL.md, Inputs).

    Attempt ``a`` uses deal number ``deal_id + a * REDEAL_STRIDE`` of
    :func:`sim.deal.generate_deals` with ``players = rules.players`` (computed by
    :func:`deal_cards`, its pure-Python twin); the dealer ``deal_id % players`` deals
    every attempt. A ``hands`` run has no golden or dark deals. Under ``deal.method =
    "cut"`` the slot's chain is played from its start (:func:`play_slots`).

    Returns:
        The traces of all attempts, the redealt ones first; the last one was played
        (or conceded).
    """
    kw = {"scores": scores, "strategies": strategies, "barrel": barrel}
    return play_slots(rules, seed, deal_id, 1, no_concede=no_concede, on_barrel=on_barrel, **kw)


def play_slots(rules: Rules, seed: int, start: int, n: int, **kw: Any) -> list[dict[str, Any]]:
    """Play slots ``start .. start+n-1`` of a run; every dealt deal's trace, in order.

    Under ``deal.method = "cut"`` the deals come in chains of ``deal.cut_chain``
    slots: a chain's first deal is the shuffled deal of its first slot, and every
    later deal (redeals included) is dealt from the deck gathered from the deal
    before (:func:`deal_hand`, :func:`gather`). A chain that began before ``start``
    is played from its beginning, unrecorded. ``kw`` are the per-seat inputs of
    :func:`play_hand` (``scores``, ``strategies``, ``barrel``, ``no_concede``,
    ``on_barrel``).
    """
    cut = rules.deal.method == "cut"
    first = start - start % rules.deal.cut_chain if cut else start
    deck: list[int] | None = None
    traces: list[dict[str, Any]] = []
    for deal_id in range(first, start + n):
        if cut and deal_id % rules.deal.cut_chain == 0:
            deck = None  # a new chain: a shuffled deck
        for attempt in range(MAX_REDEALS + 1):
            dealer = deal_id % rules.players
            number = deal_id + attempt * REDEAL_STRIDE
            dealt = deal_hand(rules, seed, number, dealer, deck=deck)
            gathered: list[int] = []
            trace = play_hand(
                rules,
                dealt.cards,
                dealer,
                seed=seed,
                deal_id=deal_id,
                attempt=attempt,
                gathered=gathered,
                **kw,
            )
            if ritual_on(rules):
                trace["bottom_nines"] = dealt.bottom_nines
                trace["jack_moved"] = dealt.jack_moved
            if cut:
                deck = gathered
            if deal_id >= start:
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
        hands: one hand per seat of the game, e.g. ``"AH TH KS QS 9C JD AD"`` or
            ``"A♥ 10♥ K♠ Q♠ 9♣ J♦ A♦"``: 7 cards each (3 and 4 players; the
            4-player dealer's hand is ``""``), 10 each with 2 players.
        talon: the 3 talon cards; with 2 players 4 cards, the first talon's two
            (place 2), then the second talon's two (place 3).
        dealer: the dealer's seat.
        **kw: passed on to :func:`play_hand` (``script``, ``strategies``,
            ``special``, ...).

    Raises:
        ValueError: when a hand or the talon holds the wrong number of cards, or a
            card is given twice or is malformed (the message names it).
    """
    n = rules.players
    table = Table(n, dealer)
    if len(hands) != n:
        raise ValueError(f"{n} hands needed (one per seat), got {len(hands)}")
    if n == 4:
        for s in range(n):
            if s == dealer and parse_cards(hands[s]):
                raise ValueError(f"the 4-player dealer (seat {s}) holds no cards")
        seat_of_place = table.active  # place k: the active seat d+1+k
    else:
        seat_of_place = list(range(3 if n == 3 else 2))
    places = [hands[s] for s in seat_of_place] + [talon]
    names = [f"hand of seat {s}" for s in seat_of_place] + ["talon"]
    sizes = [7, 7, 7, 3] if n != 2 else [10, 10, 4]
    ids: list[int] = []
    seen: dict[int, str] = {}
    for name, text, size in zip(names, places, sizes, strict=True):
        cards = parse_cards(text)
        if len(cards) != size:
            raise ValueError(f"{name} must hold {size} cards, got {len(cards)}: {text!r}")
        for c in cards:
            if c in seen:
                raise ValueError(f"card {card_str(c)} is in the {seen[c]} and the {name}")
            seen[c] = name
        ids += cards
    return play_hand(rules, ids, dealer, **kw)
