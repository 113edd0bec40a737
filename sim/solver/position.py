"""Play positions for the open-card solver, and the solver's Python face.

A position is what the play phase depends on: every hand (hand seats ``0..NP-1``
clockwise, ``NP`` = 2 or 3 players in the hand), the declarer, who leads, the trump
(and who set it), whether marriages may be declared yet, and for two players the
talon set aside for the last trick. :func:`play_state` writes it into the engine's
deal state ``S`` at the start of a trick, as the engine's own deal loop leaves it
there; positions inside a trick come from the engine (``S`` copied mid-trick).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.cards import N_CARDS, RANK_POINTS, cards_of
from sim.engine import search as _search
from sim.engine.actions import DECLARE
from sim.engine.params import P_FIRST_LEAD, P_NP, rules_vector
from sim.engine.state import (
    N_STATE,
    NO_SUIT,
    S_CAPT0,
    S_DECL,
    S_DECLARED0,
    S_HAND0,
    S_LEADER,
    S_NPLAYED,
    S_PENDING,
    S_PLAYED,
    S_TALON_OTHER,
    S_TRICK_NO,
    S_TRUMP,
    S_TRUMP_NAMED,
    S_TRUMP_SETTER,
    TRICKS_2,
    TRICKS_3,
)
from sim.rules import Rules


def hand_size(players: int, lay: bool = False) -> int:
    """Cards in each hand when the play starts: 8 (3 or 4 players) or 11 (2 players).

    ``lay``: two players laying two cards away (``talon.two_players = "discard"``): 10.
    """
    if players == 2:
        return TRICKS_2 - 1 if lay else TRICKS_2
    return TRICKS_3


def lays_away(rules: Rules) -> bool:
    """Two players laying two cards away (docs/rules.md §12, ``talon.two_players``)."""
    return rules.players == 2 and rules.talon.two_players == "discard"


@dataclass(frozen=True)
class Position:
    """A play position at the start of a trick (hand seats; masks of card ids).

    Attributes:
        hands: each hand seat's cards as a mask, all of one size.
        declarer: the declarer's hand seat.
        leader: the seat to lead.
        trump: the trump suit (0..3) or -1 for none yet.
        trump_setter: who declared that trump (the declarer when it was named);
            ``play.no_lead_foreign_trump`` reads it.
        marriage_allowed: whether marriages may be declared now. False only on the
            deal's first trick when ``marriage.first_lead`` is off.
        set_aside: two players: the talon set aside, captured by the last trick's
            winner (0 otherwise).
        declared: marriages the declarer declared earlier in the deal (suit bits,
            16 for the aces); under ``marriage.requires_capture`` they count once it
            captures a card of them.
        laid: two players laying two cards away (``talon.two_players = "discard"``):
            the cards the declarer laid away, its own points though no trick (0
            otherwise). A value of the solver is what the declarer still adds: the
            deal's total adds :attr:`banked`.
    """

    hands: tuple[int, ...]
    declarer: int = 0
    leader: int = 0
    trump: int = NO_SUIT
    trump_setter: int = -1
    marriage_allowed: bool = False
    set_aside: int = 0
    declared: int = 0
    laid: int = 0

    def check(self) -> None:
        """Raise ``ValueError`` naming what does not fit."""
        n = len(self.hands)
        if n not in (2, 3):
            raise ValueError(f"a position has 2 or 3 hands, got {n}")
        sizes = {bin(h).count("1") for h in self.hands}
        if len(sizes) != 1:
            raise ValueError(f"hands must be of one size, got sizes {sorted(sizes)}")
        size = sizes.pop()
        if not 1 <= size <= hand_size(n):
            raise ValueError(f"hands must hold 1 to {hand_size(n)} cards, got {size}")
        seen = 0
        for h in (*self.hands, self.set_aside, self.laid):
            if h & seen:
                raise ValueError(f"card {cards_of(h & seen)[0]} is given twice")
            seen |= h
        if self.set_aside and n != 2:
            raise ValueError("only two players set a talon aside")
        if self.laid and (n != 2 or self.set_aside):
            raise ValueError("only two players lay cards away, and then set no talon aside")
        for name, seat in (("declarer", self.declarer), ("leader", self.leader)):
            if seat not in range(n):
                raise ValueError(f"{name} must be a hand seat 0..{n - 1}, got {seat}")
        if self.trump not in range(-1, 4):
            raise ValueError(f"trump must be a suit 0..3 or -1, got {self.trump}")

    @property
    def players(self) -> int:
        """Players in the hand (2 or 3)."""
        return len(self.hands)

    @property
    def banked(self) -> int:
        """The card points of the cards laid away: the declarer's before any trick."""
        return int(sum(RANK_POINTS[c % 6] for c in cards_of(self.laid)))

    @property
    def cards_left(self) -> int:
        """Cards in each hand."""
        return bin(self.hands[0]).count("1")


def play_state(position: Position, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """The engine state ``S`` and rules vector ``P`` of a position, ready to search.

    The trick number is the number of tricks already played (so the engine's trick
    log stays in range); a position still under the first-trick rule is numbered 0,
    and full hands whose marriages are allowed get ``marriage.first_lead`` on.
    """
    position.check()
    expected = 2 if rules.players == 2 else 3
    if position.players != expected:
        raise ValueError(
            f"{rules.players} players play hands of {expected}, got {position.players} hands"
        )
    P = rules_vector(rules)
    S = np.zeros(N_STATE, dtype=np.int64)
    held = 0
    for s, h in enumerate(position.hands):
        S[S_HAND0 + s] = h
        held |= h
    played = hand_size(position.players, lays_away(rules)) - position.cards_left
    S[S_TRICK_NO] = played if position.marriage_allowed else 0
    if position.marriage_allowed and played == 0:
        P[P_FIRST_LEAD] = 1
    S[S_DECL] = position.declarer
    S[S_LEADER] = position.leader
    S[S_TRUMP] = position.trump
    setter = position.trump_setter
    if position.trump != NO_SUIT and setter < 0:
        setter = position.declarer
    S[S_TRUMP_SETTER] = setter if position.trump != NO_SUIT else -1
    S[S_TRUMP_NAMED] = -1
    S[S_PENDING] = -1
    S[S_TALON_OTHER] = position.set_aside
    S[S_DECLARED0 + position.declarer] = position.declared
    S[S_CAPT0 + position.declarer] = position.laid  # laid away: counted as captured
    S[S_PLAYED] = ((1 << N_CARDS) - 1) & ~held & ~position.set_aside & ~position.laid
    assert P[P_NP] == position.players
    return S, P


@dataclass(frozen=True)
class MoveValue:
    """A legal move and the declarer's best total from there (points still added)."""

    card: int
    declare: bool
    value: int

    @property
    def code(self) -> int:
        """The engine's action code (``DECLARE + card`` for a declaring lead)."""
        return self.card + (DECLARE if self.declare else 0)


class OpenCardSolver:
    """The compiled open-card solver on positions and engine states.

    One solver keeps one transposition table (``2**tt_bits`` entries, 16 bytes each);
    it is reused across searches and forgotten between positions.
    """

    def __init__(self, tt_bits: int = _search.TT_BITS_DEFAULT) -> None:
        self.ws = _search.workspace(tt_bits)

    @property
    def nodes(self) -> int:
        """Nodes searched since the solver was made."""
        return int(self.ws.meta[_search.M_NODES])

    def forget(self) -> None:
        """Empty the table (what :meth:`value` and :meth:`probe` do unless ``keep``)."""
        _search.new_position(self.ws)

    def value(self, S: np.ndarray, P: np.ndarray, keep: bool = False) -> int:
        """The most the declarer still adds from ``S`` against best defence.

        ``keep`` searches with the table of the searches before: sound when they had
        the same declarer and rules (the table's keys hold the hands, the set-aside
        talon, the leader, the trump and what the rules read of the past), and faster
        when the positions share their later tricks (the discards of one deal:
        :mod:`sim.solver.talon`).
        """
        if not keep:
            _search.new_position(self.ws)
        return int(_search.solve(self.ws, P, S))

    def probe(self, S: np.ndarray, P: np.ndarray, target: int, keep: bool = False) -> bool:
        """Whether the declarer can still add ``target`` points from ``S``.

        ``keep``: as :meth:`value`.
        """
        if not keep:
            _search.new_position(self.ws)
        return bool(_search.probe(self.ws, P, S, target))

    def value_from(self, S: np.ndarray, P: np.ndarray, target: int, keep: bool = False) -> int:
        """:meth:`value` when the declarer can still add ``target`` points from ``S``, else -1.

        One search where :meth:`probe` then :meth:`value` would repeat the probe's work.
        ``keep``: as :meth:`value`.
        """
        if not keep:
            _search.new_position(self.ws)
        return int(_search.probe_value(self.ws, P, S, target))

    def moves(self, S: np.ndarray, P: np.ndarray) -> list[MoveValue]:
        """Every legal move at ``S`` with its value, in the engine's legal order."""
        _search.new_position(self.ws)
        out = np.zeros((_search.MAX_MOVES, 2), dtype=np.int64)
        n = _search.root_moves(self.ws, P, S, out)
        return [
            MoveValue(int(c) % DECLARE, bool(c >= DECLARE), int(v)) for c, v in out[:n].tolist()
        ]

    def line(self, S: np.ndarray, P: np.ndarray) -> list[tuple[int, MoveValue]]:
        """A best line of play from ``S``: ``(seat, move)`` to the end of the deal.

        At each step the seat to play takes its first move of best value (the
        declarer the highest, a defender the lowest) by :meth:`moves`.
        """
        NP = int(P[P_NP])
        T = S.copy()
        out: list[tuple[int, MoveValue]] = []
        while True:
            n_played = int(T[S_NPLAYED])
            if n_played == 0 and T[S_HAND0 + T[S_LEADER]] == 0:
                return out
            seat = (int(T[S_LEADER]) + n_played) % NP
            options = self.moves(T, P)
            pick = max if seat == T[S_DECL] else min
            best = pick(options, key=lambda m: m.value)
            out.append((seat, best))
            _search.new_position(self.ws)
            _search.set_root(self.ws, T)
            _search.play_move(self.ws, P, 0, best.code)
            T = self.ws.stack[1].copy()
