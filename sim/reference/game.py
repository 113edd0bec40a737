"""The reference game loop: whole games of Thousand for 2, 3 or 4 players, in plain Python.

This module implements ``sim/engine/GAME_PROTOCOL.md`` literally and readably on top
of the reference hand engine (:func:`sim.reference.play_hand`). The compiled game
loop (``sim/engine/game.py``, the same file name) is checked against it: the same
deals, the same decisions and the same game trace. The game-level rule tests drive
:func:`apply_deal` with synthetic hand results, so every rule of docs/rules.md §7–§12
can be tested without playing cards.

* :class:`GameState` — scores, dealer, and per player bolts, concessions, barrel
  status, barrel attempts and falls (GAME_PROTOCOL.md "State"); the golden round;
  plus the tallies of the ``games.parquet`` row and the barrel stints.
* :func:`hand_inputs`, :func:`deal_special` — what the game passes to the hand
  engine (``no_concede``, ``on_barrel``; ``special``: golden, dark allowed or none).
* :func:`apply_deal` — one deal's game-level effects, in the order of docs/rules.md §9:
  deal deltas and concessions, bolts, 555, the barrel (win, attempts, climbers and
  falls), the end of the game; then the end of a golden round.
* :func:`bank_payoffs` — the bank of a finished game (docs/rules.md §8).
* :func:`play_game` — one whole game from its seed and number.

A *hand result* (the input of :func:`apply_deal`) is a dict with one entry per seat
of the game in each list::

    {"reshuffle": None | {"seat": s, "reason": name},
     "declarer": s, "contract": c, "conceded": bool, "made": bool,
     "deal_deltas": [d0, d1, d2], "bolts": [b0, b1, b2],
     "special": None | "golden" | "dark",         # optional: None if left out
     "dealer": s}                                  # optional: checked if given

(a redealt deal needs only ``reshuffle``). :func:`played`, :func:`redealt` build one
and :func:`hand_result` converts a hand trace of :func:`sim.reference.play_hand`.

Readings of GAME_PROTOCOL.md where it leaves a choice:

* event amounts (``dealer_penalty``, ``bolt_penalty``, ``concession_penalty``) are
  the points lost, positive; a ``bolt.penalty`` of 0 still records its event;
* bolts, 555 and attempts go in seat order 0, 1, ...; climbers, simultaneous falls
  and knock-offs in seat order from the dealer's left (``d+1, ..., d+n``);
* a climb's event comes before the knock-offs it causes ("it climbs …; every seat
  already on the barrel falls"); with ``one_falls`` the loser's fall comes first;
* a climber that falls at once (``all_fall``, the ``one_falls`` loser) is a stint of
  0 deals with outcome ``fell_simultaneous`` and counts in ``barrel_entries``;
* a stint's ``deals_on_barrel`` counts every deal played on the barrel, the deal
  that ends it included (so the other barrel players at a barrel win, ``game_over``,
  count the last deal too) — except a deal the 4-player dealer sat out, which is not
  played by it (its ``barrel_deals`` is unchanged, so its stint does not count it);
* several barrel winners in one deal (only with ``barrel.accumulate``): the highest
  score, then the declarer, then the seat first from the dealer's left (§8);
* the trace's ``winner`` of an unfinished game is null, the row's -1;
* a redealt deal's trace entry has ``special`` null, golden round or not (the
  redealt hand trace has no ``special``); the next attempt is golden again;
* :func:`apply_deal` checks the hand's ``special`` against :func:`deal_special`: a
  golden deal must say ``"golden"``, a deal with dark allowed null or ``"dark"``,
  any other deal null;
* a golden round is judged after its ``n``-th played deal by the declarers of its
  deals (a concession is not made); with neither ``golden.reset_if_none`` nor
  ``golden.repeat_if_none`` nothing happens. At a reset a seat that climbed onto the
  barrel in that very deal leaves it too (a stint of 0 deals, ``knocked_off``); a
  stint ended by the reset counts the deals played on the barrel, that deal included;
* ``golden_deals`` and ``dark_deals`` count played or conceded deals (not redeals);
  a conceded dark deal counts in ``dark_lost``; an undarkened deal is not dark;
* the bank: the lowest final score over all seats pays; ``bank_{s}`` is a float in
  every row (0.0 when nothing is paid).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sim.engine.actions import MAX_REDEALS
from sim.reference.choose import STRATEGIES
from sim.reference.deal import RITUAL_NINES, Dealt, deal_hand
from sim.reference.driver import play_hand
from sim.reference.rng import bounded, item_state
from sim.reference.state import PLAYERS
from sim.rng import Stream, stream_key
from sim.rules import Rules

__all__ = [
    "ATTEMPT_STRIDE",
    "GAME_STRIDE",
    "MAX_DEALS",
    "GameState",
    "Stint",
    "apply_deal",
    "bank_payoffs",
    "close_game",
    "deal_special",
    "first_dealer_of",
    "game_deal_number",
    "game_row",
    "hand_inputs",
    "hand_result",
    "is_golden",
    "play_game",
    "played",
    "redealt",
]

MAX_DEALS = 1000  # played deals; a game still open then is unfinished
GAME_STRIDE = 1 << 32  # deal number of game g, played deal d, attempt a:
ATTEMPT_STRIDE = 64  # g * GAME_STRIDE + d * ATTEMPT_STRIDE + a

FALL_OUTCOME = {
    "attempts": "fell_attempts",
    "knocked_off": "knocked_off",
    "simultaneous": "fell_simultaneous",
}
SPECIAL_DEALS = ("golden", "dark")  # the hand's ``special`` of a golden or dark deal


# --- state ------------------------------------------------------------------------------
@dataclass
class Stint:
    """One barrel stint: a ``barrel.parquet`` row (``outcome`` is None while open)."""

    seat: int
    entered_deal: int
    deals_on_barrel: int = 0
    outcome: str | None = None


PER_SEAT = (
    "scores",
    "bolts",
    "concessions",
    "on_barrel",
    "barrel_deals",
    "falls",
    "barrel_entries",
    "bolt_penalties",
    "samosvals",
    "dark_won",
    "dark_lost",
    "nine_cut_penalties",
    "max_behind",
    "role_points",
)


@dataclass
class GameState:
    """The state of one game between deals (GAME_PROTOCOL.md "State").

    Every per-seat list has one entry per seat of the game; a list left empty at
    construction starts at 0 (``on_barrel``: False) for every seat.

    Attributes:
        dealer: the seat that deals next.
        scores: game scores.
        bolts: bolts counted toward the next bolt penalty.
        concessions: concessions made this game.
        on_barrel: whether each seat sits on the barrel.
        barrel_deals: deals played on the barrel in the current stint.
        falls: falls from the barrel this game.
        deals: ``d``, the number of played (or conceded) deals so far; redeals
            excluded.
        winner: the winning seat once the game is over, else None.
        barrel_entries, bolt_penalties, samosvals: tallies for ``games.parquet``.
        stints: every barrel stint in order of entry.
        players: seats of the game (2, 3 or 4).
        golden_rounds: golden rounds begun (the first one, then one per repeat); with
            ``golden.enabled`` the played deals ``d < golden_rounds * players`` are
            golden.
        golden_made: some declarer of the current golden round made its contract.
        golden_reset: the scores were reset after a golden round nobody made.
        golden_deals, dark_deals: golden and dark deals played (or conceded).
        dark_won, dark_lost: dark deals made, and failed or conceded, by declarer.
        nine_cut_penalties: times each seat paid ``deal.nine_cut_penalty``.
        max_behind: each seat's largest deficit to the leading score after a played
            deal (0 for a seat never behind): how far a winner came back from.
        role_points: kept by role, not by seat: ``role_points[k]`` sums the deal scores
            (``deal_deltas``) of the seat ``k`` places after each played deal's dealer.
        contracts, contracts_made, contracts_conceded, contract_sum: the game's
            contracts (played or conceded deals), those made, those conceded, and the
            sum of their amounts.
    """

    dealer: int = 0
    scores: list[int] = field(default_factory=list)
    bolts: list[int] = field(default_factory=list)
    concessions: list[int] = field(default_factory=list)
    on_barrel: list[bool] = field(default_factory=list)
    barrel_deals: list[int] = field(default_factory=list)
    falls: list[int] = field(default_factory=list)
    deals: int = 0
    winner: int | None = None
    barrel_entries: list[int] = field(default_factory=list)
    bolt_penalties: list[int] = field(default_factory=list)
    samosvals: list[int] = field(default_factory=list)
    stints: list[Stint] = field(default_factory=list)
    players: int = PLAYERS
    golden_rounds: int = 1
    golden_made: bool = False
    golden_reset: bool = False
    golden_deals: int = 0
    dark_deals: int = 0
    dark_won: list[int] = field(default_factory=list)
    dark_lost: list[int] = field(default_factory=list)
    nine_cut_penalties: list[int] = field(default_factory=list)
    max_behind: list[int] = field(default_factory=list)
    role_points: list[int] = field(default_factory=list)
    contracts: int = 0
    contracts_made: int = 0
    contracts_conceded: int = 0
    contract_sum: int = 0

    def __post_init__(self) -> None:
        for name in PER_SEAT:
            values = getattr(self, name)
            if not values:
                start = False if name == "on_barrel" else 0
                setattr(self, name, [start] * self.players)
            elif len(values) != self.players:
                raise ValueError(f"{name}: one entry per seat ({self.players}) needed")

    def open_stint(self, seat: int) -> Stint:
        """The stint ``seat`` is sitting on the barrel in."""
        for st in reversed(self.stints):
            if st.seat == seat and st.outcome is None:
                return st
        raise AssertionError(f"seat {seat} has no open barrel stint")


# --- hand results -----------------------------------------------------------------------
def played(
    declarer: int,
    contract: int,
    made: bool,
    deal_deltas: Sequence[int],
    bolts: Sequence[int] | None = None,
    conceded: bool = False,
    special: str | None = None,
) -> dict[str, Any]:
    """A synthetic result of a played (or, with ``conceded``, conceded) deal.

    ``bolts``: by seat, None for no bolt at all. ``special`` is the hand's: None,
    ``"golden"`` or ``"dark"``.
    """
    if bolts is None:
        bolts = [0] * len(deal_deltas)
    return {
        "reshuffle": None,
        "declarer": declarer,
        "contract": contract,
        "conceded": conceded,
        "made": made and not conceded,
        "deal_deltas": list(deal_deltas),
        "bolts": list(bolts),
        "special": special,
    }


def redealt(reason: str = "hand_nines", seat: int = 0) -> dict[str, Any]:
    """A synthetic result of a redealt deal (``reason`` as in PROTOCOL.md)."""
    return {"reshuffle": {"seat": seat, "reason": reason}}


def hand_result(trace: dict[str, Any]) -> dict[str, Any]:
    """The hand result of a hand trace of :func:`sim.reference.play_hand`."""
    if trace["reshuffle"] is not None:
        return {"reshuffle": dict(trace["reshuffle"]), "dealer": trace["dealer"]}
    return {
        "reshuffle": None,
        "dealer": trace["dealer"],
        "declarer": trace["declarer"],
        "contract": trace["contract"],
        "conceded": trace["conceded"],
        "made": trace["made"],
        "deal_deltas": list(trace["score_deltas"]),
        "bolts": list(trace["bolts"]),
        "special": trace["special"],
    }


# --- helpers ----------------------------------------------------------------------------
def from_left(dealer: int, players: int = PLAYERS) -> list[int]:
    """Seats in order from the dealer's left: ``d+1, ..., d+n`` (the dealer last)."""
    return [(dealer + k) % players for k in range(1, players + 1)]


def sitter_of(rules: Rules, dealer: int) -> int | None:
    """The seat that sits the deal out: the 4-player dealer; None with 2 or 3 players."""
    return dealer if rules.players == 4 else None


def reached(rules: Rules, score: int) -> bool:
    """Whether a score reaches the target (``>``, with ``game.target_strict``: 1001)."""
    if rules.game.target_strict:
        return score > rules.game.target
    return score >= rules.game.target


def pick_winner(
    cands: Sequence[int], scores: Sequence[int], declarer: int, dealer: int, players: int = PLAYERS
) -> int:
    """The winner among several seats at the target (docs/rules.md §8).

    The highest score; ties go to the declarer, then to the seat first from the
    dealer's left.
    """
    order = from_left(dealer, players)
    return max(cands, key=lambda s: (scores[s], s == declarer, -order.index(s)))


def hand_inputs(state: GameState, rules: Rules) -> tuple[list[bool], list[bool]]:
    """``no_concede`` and ``on_barrel`` by seat for the hand engine (GAME_PROTOCOL.md).

    A seat may not concede while anyone sits on the barrel (unless
    ``rospis.on_barrel``) or once it has used ``rospis.max_per_game`` concessions.
    """
    anyone = any(state.on_barrel) and not rules.rospis.on_barrel
    limit = rules.rospis.max_per_game
    no_concede = [
        anyone or (limit > 0 and state.concessions[s] >= limit) for s in range(rules.players)
    ]
    return no_concede, list(state.on_barrel)


def is_golden(state: GameState, rules: Rules) -> bool:
    """Whether the next played deal belongs to a golden round (docs/rules.md §10).

    The first ``n`` played deals of a game, and ``n`` more after each round that
    repeats (``golden.repeat_if_none``).
    """
    return rules.golden.enabled and state.deals < state.golden_rounds * rules.players


def deal_special(state: GameState, rules: Rules) -> str:
    """The hand input ``special`` of the next deal (GAME_PROTOCOL.md "Golden", "Dark").

    ``"golden"`` in a golden round; else ``"dark_allowed"`` with ``dark.enabled`` when
    forehand's score is at least ``dark.min_score`` and not (``dark.not_on_barrel``
    and someone sits on the barrel); else ``"none"``.
    """
    if is_golden(state, rules):
        return "golden"
    forehand = (state.dealer + 1) % rules.players
    dark = rules.dark
    if not dark.enabled or state.scores[forehand] < dark.min_score:
        return "none"
    if dark.not_on_barrel and any(state.on_barrel):
        return "none"
    return "dark_allowed"


def _check_special(state: GameState, hand: dict[str, Any], rules: Rules) -> None:
    """The hand's ``special`` must be one the game's input allows."""
    given = deal_special(state, rules)
    allowed: dict[str, list[str | None]] = {
        "golden": ["golden"],
        "dark_allowed": [None, "dark"],
        "none": [None],
    }
    got = hand.get("special")
    if got not in allowed[given]:
        raise ValueError(f"the hand's special is {got!r}, but the game gave it {given!r}")


# --- one deal ---------------------------------------------------------------------------
def apply_deal(state: GameState, hand: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """Apply one dealt deal's game-level effects to ``state`` (GAME_PROTOCOL.md "One deal").

    Args:
        state: the game so far; updated in place (scores, counters, barrel, stints,
            dealer, deal counter, golden round, winner).
        hand: the hand result (module docstring) of the deal ``state.dealer`` dealt.
        rules: house rules.

    Returns:
        The deal's entry of the game trace: ``dealer, special, reshuffled, declarer,
        contract, conceded, made, deal_deltas, bolts, scores, events``.

    Raises:
        ValueError: when the game is already over, the hand names another dealer, or
            its ``special`` is not one the game allows, or the state has another
            number of seats than the rules.
    """
    n = rules.players
    if state.players != n:
        raise ValueError(f"the game state has {state.players} seats, the rules {n}")
    if state.winner is not None:
        raise ValueError(f"the game is over (seat {state.winner} won)")
    dealer = state.dealer
    if hand.get("dealer", dealer) != dealer:
        raise ValueError(
            f"the hand was dealt by seat {hand['dealer']}, the game's dealer is {dealer}"
        )
    if hand["reshuffle"] is not None:
        return _redeal(state, hand, rules)
    _check_special(state, hand, rules)
    golden = is_golden(state, rules)
    special = hand.get("special")
    events: list[list[Any]] = []
    start_on = list(state.on_barrel)  # "on the barrel" below: at the start of the deal
    decl = hand["declarer"]
    _tally_special(state, hand, golden, special)
    state.contracts += 1
    state.contracts_made += bool(hand["made"])
    state.contracts_conceded += bool(hand["conceded"])
    state.contract_sum += hand["contract"]
    for s in range(n):  # the deal scores by role: k places after this deal's dealer
        state.role_points[(s - dealer) % n] += hand["deal_deltas"][s]
    _deal_deltas(state, hand, rules, start_on, events)
    _bolts(state, hand, rules, start_on, events)
    _samosval(state, rules, events)
    if rules.barrel.at > 0:
        if not _barrel_win(state, hand, rules, start_on, events):
            _barrel_attempts(state, rules, start_on, events)
            _barrel_climbers(state, rules, events)
    else:
        cands = [s for s in range(n) if reached(rules, state.scores[s])]
        if cands:
            state.winner = pick_winner(cands, state.scores, decl, dealer, n)
    state.deals += 1
    if golden and state.deals == state.golden_rounds * n:
        _end_golden_round(state, rules, events)
    lead = max(state.scores)
    for s in range(n):  # after every played deal: how far behind the leader each seat is
        state.max_behind[s] = max(state.max_behind[s], lead - state.scores[s])
    state.dealer = (dealer + 1) % n
    return {
        "dealer": dealer,
        "special": special,
        "reshuffled": False,
        "declarer": decl,
        "contract": hand["contract"],
        "conceded": bool(hand["conceded"]),
        "made": bool(hand["made"]),
        "deal_deltas": list(hand["deal_deltas"]),
        "bolts": list(hand["bolts"]),
        "scores": list(state.scores),
        "events": events,
    }


def _redeal(state: GameState, hand: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """Step 1: a redeal; only the three-nines dealer penalty, the same dealer again."""
    events: list[list[Any]] = []
    dealer = state.dealer
    penalty = rules.reshuffle.dealer_penalty
    if hand["reshuffle"]["reason"] == "hand_nines" and penalty > 0 and not state.on_barrel[dealer]:
        state.scores[dealer] -= penalty
        events.append(["dealer_penalty", dealer, penalty])
    return {
        "dealer": dealer,
        "special": None,
        "reshuffled": True,
        "declarer": None,
        "contract": None,
        "conceded": None,
        "made": None,
        "deal_deltas": [0] * rules.players,
        "bolts": [0] * rules.players,
        "scores": list(state.scores),
        "events": events,
    }


def _tally_special(
    state: GameState, hand: dict[str, Any], golden: bool, special: str | None
) -> None:
    """Count golden and dark deals for the row; note a made golden contract."""
    decl = hand["declarer"]
    if golden:
        state.golden_deals += 1
        if hand["made"]:
            state.golden_made = True
    if special == "dark":
        state.dark_deals += 1
        if hand["made"]:
            state.dark_won[decl] += 1
        else:
            state.dark_lost[decl] += 1


def _deal_deltas(
    state: GameState, hand: dict[str, Any], rules: Rules, start_on: list[bool], events: list
) -> None:
    """Step 2.1: deal deltas (pinned on the barrel), concessions and the third-one penalty.

    The 4-player dealer's deal delta is its talon score, pinned like any other.
    """
    for s in range(rules.players):
        if not start_on[s] or rules.barrel.accumulate:
            state.scores[s] += hand["deal_deltas"][s]
    if hand["conceded"]:
        decl = hand["declarer"]
        state.concessions[decl] += 1
        penalty = rules.rospis.third_penalty
        if state.concessions[decl] == 3 and penalty > 0 and not start_on[decl]:
            state.scores[decl] -= penalty
            events.append(["concession_penalty", decl, penalty])


def _bolts(
    state: GameState, hand: dict[str, Any], rules: Rules, start_on: list[bool], events: list
) -> None:
    """Step 2.2: bolts, in seat order; every ``bolt.count``-th costs ``bolt.penalty``.

    With ``bolt.double_in_special`` a bolt in a golden or dark deal counts as two,
    each checked against ``bolt.count`` on its own. The 4-player dealer sits out: no
    bolt and, with ``bolt.in_a_row``, no reset.
    """
    b = rules.bolt
    doubled = b.double_in_special and hand.get("special") in SPECIAL_DEALS
    times = 2 if doubled else 1
    sitter = sitter_of(rules, state.dealer)
    for s in range(rules.players):
        if s == sitter:
            continue  # sat the deal out
        if start_on[s] and not b.on_barrel:
            continue  # not counted on the barrel: neither a bolt nor a reset
        if hand["bolts"][s]:
            for _ in range(times):
                events.append(["bolt", s])
                state.bolts[s] += 1
                if state.bolts[s] == b.count:
                    state.scores[s] -= b.penalty
                    if b.penalty > 0:  # a penalty charged (none where it costs nothing)
                        state.bolt_penalties[s] += 1
                    state.bolts[s] = 0
                    events.append(["bolt_penalty", s, b.penalty])
        elif b.in_a_row:
            state.bolts[s] = 0


def _samosval(state: GameState, rules: Rules, events: list) -> None:
    """Step 2.3: exactly 555 (or -555) becomes ``score.samosval_to``, in seat order."""
    sc = rules.score
    for s in range(rules.players):
        x = state.scores[s]
        if (sc.samosval and x == 555) or (sc.samosval_negative and x == -555):
            state.scores[s] = sc.samosval_to
            state.samosvals[s] += 1
            events.append(["samosval", s])


def _barrel_win(
    state: GameState, hand: dict[str, Any], rules: Rules, start_on: list[bool], events: list
) -> bool:
    """Step 2.4a: a barrel win ends the game; returns whether someone won.

    The declarer on the barrel wins by making ``contract >= target - barrel.at``
    (``>`` strict) and scores ``barrel.at + contract``; with ``barrel.accumulate`` a
    barrel player whose score reached the target wins too. Several winners: the
    highest score, ties to the declarer, then the seat first from the dealer's left.
    """
    at = rules.barrel.at
    decl = hand["declarer"]
    winners = []
    if start_on[decl] and hand["made"] and reached(rules, at + hand["contract"]):
        state.scores[decl] = at + hand["contract"]
        winners.append(decl)
    if rules.barrel.accumulate:
        winners += [
            s
            for s in range(rules.players)
            if start_on[s] and s not in winners and reached(rules, state.scores[s])
        ]
    if not winners:
        return False
    w = pick_winner(winners, state.scores, decl, state.dealer, rules.players)
    state.winner = w
    events.append(["barrel_win", w])
    sitter = sitter_of(rules, state.dealer)
    for s in range(rules.players):
        if start_on[s]:
            stint = state.open_stint(s)
            played_it = 0 if s == sitter else 1  # this deal was played on the barrel too
            stint.deals_on_barrel = state.barrel_deals[s] + played_it
            stint.outcome = "won" if s == w else "game_over"
    return True


def _fall(state: GameState, rules: Rules, s: int, cause: str, events: list) -> None:
    """A fall, whatever its cause: ``barrel.at - fall_penalty`` (third one: maybe 0)."""
    third = state.falls[s] == 2 and rules.barrel.third_fall_zero
    state.scores[s] = 0 if third else rules.barrel.at - rules.barrel.fall_penalty
    state.falls[s] += 1
    if state.on_barrel[s]:
        stint = state.open_stint(s)
        stint.deals_on_barrel = state.barrel_deals[s]
        stint.outcome = FALL_OUTCOME[cause]
    else:  # a simultaneous climber that never sat on the barrel: a stint of 0 deals
        state.barrel_entries[s] += 1
        state.stints.append(Stint(s, state.deals, 0, FALL_OUTCOME[cause]))
    state.on_barrel[s] = False
    state.barrel_deals[s] = 0
    events.append(["barrel_fall", s, cause])


def _barrel_attempts(state: GameState, rules: Rules, start_on: list[bool], events: list) -> None:
    """Step 2.4b: each seat on the barrel uses an attempt; the last one makes it fall.

    The 4-player dealer sat the deal out: it uses no attempt.
    """
    sitter = sitter_of(rules, state.dealer)
    for s in range(rules.players):
        if start_on[s] and s != sitter:
            state.barrel_deals[s] += 1
            if state.barrel_deals[s] >= rules.barrel.attempts:
                _fall(state, rules, s, "attempts", events)


def _climb(state: GameState, rules: Rules, s: int, events: list) -> None:
    state.scores[s] = rules.barrel.at
    state.on_barrel[s] = True
    state.barrel_deals[s] = 0
    state.barrel_entries[s] += 1
    state.stints.append(Stint(s, state.deals))
    events.append(["barrel_on", s])


def _barrel_climbers(state: GameState, rules: Rules, events: list) -> None:
    """Step 2.4c: seats off the barrel at ``barrel.at`` or more climb on (or fall).

    Events: the simultaneous falls first, then the climbs, then, with
    ``barrel.one_at_a_time``, the falls of the seats that sat on the barrel before
    (the falls they cause); each group in seat order from the dealer's left.
    """
    br = rules.barrel
    order = from_left(state.dealer, rules.players)
    climbers = [s for s in order if not state.on_barrel[s] and state.scores[s] >= br.at]
    if not climbers:
        return
    down: list[int] = []
    up = list(climbers)
    if len(climbers) > 1 and br.simultaneous == "all_fall":
        down, up = climbers, []
    elif len(climbers) > 1 and br.simultaneous == "one_falls":
        # the lower score falls; ties: the later seat from the dealer's left
        loser = min(climbers, key=lambda s: (state.scores[s], -climbers.index(s)))
        down, up = [loser], [s for s in climbers if s != loser]
    already = [s for s in order if state.on_barrel[s]]
    for s in down:
        _fall(state, rules, s, "simultaneous", events)
    for s in up:
        _climb(state, rules, s, events)
    if up and br.one_at_a_time:
        for s in already:
            _fall(state, rules, s, "knocked_off", events)


def _end_golden_round(state: GameState, rules: Rules, events: list) -> None:
    """After the ``n``-th deal of a golden round (GAME_PROTOCOL.md "Golden round").

    Unless the game has ended: if no declarer of the round made its contract, with
    ``golden.reset_if_none`` every score becomes 0 and the barrel players leave the
    barrel without a fall (stint outcome ``knocked_off``), event ``["golden_reset"]``
    last; with ``golden.repeat_if_none`` the next ``n`` played deals are golden again.
    """
    made = state.golden_made
    state.golden_made = False  # a repeated round starts afresh
    if state.winner is not None or made:
        return
    if rules.golden.reset_if_none:
        for s in range(rules.players):
            state.scores[s] = 0
            if state.on_barrel[s]:
                stint = state.open_stint(s)
                stint.deals_on_barrel = state.barrel_deals[s]
                stint.outcome = "knocked_off"
                state.on_barrel[s] = False
                state.barrel_deals[s] = 0
        state.golden_reset = True
        events.append(["golden_reset"])
    elif rules.golden.repeat_if_none:
        state.golden_rounds += 1


# --- whole games ------------------------------------------------------------------------
def nine_cut_penalty(state: GameState, rules: Rules, dealt: Dealt) -> list[list[Any]]:
    """The cutter pays ``deal.nine_cut_penalty`` after a third bottom nine (docs/rules.md §2).

    The cutter sits on the dealer's right. Nothing happens while it sits on the
    barrel (its score is pinned); the charge has no other effect (no 555, no climb).
    Returns the events, applied before the deal's own (``["nine_cut_penalty", seat,
    points]``).
    """
    penalty = rules.deal.nine_cut_penalty
    if dealt.bottom_nines < RITUAL_NINES or penalty == 0:
        return []
    cutter = (state.dealer + rules.players - 1) % rules.players
    if state.on_barrel[cutter]:
        return []
    state.scores[cutter] -= penalty
    state.nine_cut_penalties[cutter] += 1
    return [["nine_cut_penalty", cutter, penalty]]


def game_deal_number(game_id: int, d: int, attempt: int) -> int:
    """Deal number of game ``g``, played deal ``d``, attempt ``a`` (GAME_PROTOCOL.md)."""
    return game_id * GAME_STRIDE + d * ATTEMPT_STRIDE + attempt


def first_dealer_of(seed: int, game_id: int, players: int = PLAYERS) -> int:
    """The drawn first dealer of game ``game_id``: uniform over the ``players`` seats."""
    return bounded(item_state(int(stream_key(seed, Stream.GAME)), game_id), 0, players)[0]


def close_game(state: GameState) -> None:
    """End an unfinished game: every open stint ends as ``game_over``."""
    for st in state.stints:
        if st.outcome is None:
            st.deals_on_barrel = state.barrel_deals[st.seat]
            st.outcome = "game_over"


def bank_payoffs(state: GameState, rules: Rules) -> list[float]:
    """What each seat gets from the bank (docs/rules.md §8, GAME_PROTOCOL.md "The bank").

    With ``game.bank`` and a finished game: the winner ``+bank``; the seat with the
    lowest final score ``-bank``, or ``-bank / k`` each when ``k`` seats tie for it;
    everyone else 0. Otherwise 0 for every seat.
    """
    pay = [0.0] * rules.players
    bank = rules.game.bank
    if bank is None or state.winner is None:
        return pay
    pay[state.winner] = float(bank)
    lowest = min(state.scores)
    last = [s for s in range(rules.players) if state.scores[s] == lowest]
    for s in last:
        pay[s] = -bank / len(last)
    return pay


def game_row(
    state: GameState, game_id: int, first_dealer: int, rules: Rules | None = None
) -> dict[str, Any]:
    """The ``games.parquet`` row of a finished (or unfinished) game.

    Per-seat columns ``name_{s}`` for every seat of the game (a 2-player game has no
    ``_2`` columns here; the caller fills them with nulls). Without ``rules`` nobody
    pays a bank.
    """
    no_bank = [0.0] * state.players
    bank = bank_payoffs(state, rules) if rules is not None else no_bank
    row: dict[str, Any] = {
        "game_id": game_id,
        "first_dealer": first_dealer,
        "n_deals": state.deals,
        "winner": -1 if state.winner is None else state.winner,
        "unfinished": state.winner is None,
    }
    for name, values in (
        ("score", state.scores),
        ("barrel_entries", state.barrel_entries),
        ("barrel_falls", state.falls),
        ("bolt_penalties", state.bolt_penalties),
        ("samosvals", state.samosvals),
        ("concessions", state.concessions),
        ("bank", bank),
    ):
        for s in range(state.players):
            row[f"{name}_{s}"] = values[s]
    row["golden_reset"] = state.golden_reset
    row["golden_deals"] = state.golden_deals
    row["dark_deals"] = state.dark_deals
    row["contracts"] = state.contracts
    row["contracts_made"] = state.contracts_made
    row["contracts_conceded"] = state.contracts_conceded
    row["contract_sum"] = state.contract_sum
    for name, values in (
        ("dark_won", state.dark_won),
        ("dark_lost", state.dark_lost),
        ("nine_cut_penalties", state.nine_cut_penalties),
        ("max_behind", state.max_behind),
        ("role_points", state.role_points),
    ):
        for s in range(state.players):
            row[f"{name}_{s}"] = values[s]
    return row


def play_game(
    rules: Rules,
    seed: int,
    game_id: int,
    strategies: Sequence[str] | None = None,
    params: Sequence[Any] = (),
    first_dealer: int | None = None,
    max_deals: int = MAX_DEALS,
) -> dict[str, Any]:
    """Play game ``game_id`` of the run seeded ``seed`` (GAME_PROTOCOL.md).

    Args:
        rules: house rules (``players`` 2, 3 or 4).
        seed: the run's seed.
        game_id: the game number ``g`` (non-negative).
        strategies: one reference strategy per seat, ``"random"`` or ``"first"``
            (None: ``"random"`` for every seat).
        params: strategy parameters; the reference strategies take none, so they
            are accepted (for the signature of the fast game loop) and ignored.
        first_dealer: the first dealer's seat; None draws it.
        max_deals: played deals after which an open game is unfinished.

    Returns:
        ``{"trace": {game_id, first_dealer, winner, unfinished, deals},
        "row": <games.parquet row>, "stints": [<barrel.parquet rows>]}``; the trace's
        ``winner`` is null for an unfinished game (the row's is -1).
    """
    del params
    n = rules.players
    if strategies is None:
        strategies = ("random",) * n
    if len(strategies) != n or any(s not in STRATEGIES for s in strategies):
        raise ValueError(f"strategies: one of {STRATEGIES} per seat ({n}), got {list(strategies)}")
    if isinstance(game_id, bool) or not isinstance(game_id, int) or game_id < 0:
        raise ValueError(f"game_id must be a non-negative integer, got {game_id!r}")
    if first_dealer is None:
        first_dealer = first_dealer_of(seed, game_id, n)
    elif first_dealer not in range(n):
        raise ValueError(f"first_dealer must be a seat 0..{n - 1}, got {first_dealer!r}")
    state = GameState(dealer=first_dealer, players=n)
    deals: list[dict[str, Any]] = []
    deck: list[int] | None = None  # under deal.method = "cut": the last deal gathered
    while state.winner is None and state.deals < max_deals:
        for attempt in range(MAX_REDEALS + 1):
            number = game_deal_number(game_id, state.deals, attempt)
            dealt = deal_hand(rules, seed, number, state.dealer, Stream.GAME_DEALS, deck)
            cut_events = nine_cut_penalty(state, rules, dealt)
            no_concede, on_barrel = hand_inputs(state, rules)
            gathered: list[int] = []
            trace = play_hand(
                rules,
                dealt.cards,
                state.dealer,
                seed=seed,
                deal_id=number,
                attempt=attempt,
                scores=tuple(state.scores),
                strategies=strategies,
                no_concede=no_concede,
                on_barrel=on_barrel,
                item=number,
                special=deal_special(state, rules),
                gathered=gathered,
            )
            if rules.deal.method == "cut":
                deck = gathered
            entry = apply_deal(state, hand_result(trace), rules)
            entry["events"][:0] = cut_events
            deals.append(entry)
            if trace["reshuffle"] is None:
                break
    close_game(state)
    return {
        "trace": {
            "game_id": game_id,
            "first_dealer": first_dealer,
            "winner": state.winner,
            "unfinished": state.winner is None,
            "deals": deals,
        },
        "row": game_row(state, game_id, first_dealer, rules),
        "stints": [
            {
                "game_id": game_id,
                "seat": st.seat,
                "entered_deal": st.entered_deal,
                "deals_on_barrel": st.deals_on_barrel,
                "outcome": st.outcome,
            }
            for st in state.stints
        ],
    }
