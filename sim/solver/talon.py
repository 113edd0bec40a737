"""Open-card par of a deal: the declarer's best talon pick, discard and trump name.

Every card face up, the declarer takes the talon (two players: the better of the two,
the other set aside), gives one card to each opponent (two players: one card; laying
away, ``talon.two_players = "discard"``: two cards laid away, their points banked), names
a trump where ``trump.named_by_declarer`` says so, and then the play is solved. The
*par* of a discard is the open-card value of that position; the deal's par is the
best over every pick, discard and trump: an upper bound on what any declarer could
make of these cards against any defence that sees them too.

Finding the best discard does not solve all 90 positions exactly: each next one is
first probed against the best value so far among discards of the same bid cap (the
contracts it allows) and solved only when it beats it; and the discards of one pick
share one transposition table, since they differ only in two or three cards and
share most of their later tricks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sim.engine.bidding import bid_cap
from sim.engine.params import rules_vector
from sim.rules import Rules
from sim.solver.position import OpenCardSolver, Position, lays_away, play_state


@dataclass(frozen=True)
class Discard:
    """One way to play the deal: the talon taken, the cards given, the trump named.

    Attributes:
        talon: which talon the declarer took (two players: 0 or 1; else 0).
        gives: the card given to each opponent, clockwise from the declarer's left.
        trump: the suit named (``trump.named_by_declarer``), else -1.
        position: the play position that follows.
        value: its open-card value (the declarer's deal total with best play).
    """

    talon: int
    gives: tuple[int, ...]
    trump: int
    position: Position
    value: int


@dataclass(frozen=True)
class Par:
    """The open-card par of a deal for one declarer.

    Attributes:
        declarer: the declarer's hand seat.
        best: the best discard of all.
        by_cap: for each bid cap a discard allows (120 + the marriages kept; the
            maximum bid without ``bid.cap_by_marriages``), the best discard among
            those with that cap: a contract is made if some discard allowed to name
            it reaches it.
    """

    declarer: int
    best: Discard
    by_cap: dict[int, Discard]

    def makes(self, contract: int, rules: Rules) -> bool:
        """Whether some discard allowed to name ``contract`` reaches it with best play."""
        need = rules.least_total_making(contract)
        return any(cap >= contract and d.value >= need for cap, d in self.by_cap.items())


def after_discard(
    hands: Sequence[int],
    talon: int,
    declarer: int,
    gives: Sequence[int],
    trump: int = -1,
    set_aside: int = 0,
    lay: bool = False,
) -> Position:
    """The play position once the declarer took ``talon`` and gave ``gives`` clockwise.

    ``lay`` (two players, ``talon.two_players = "discard"``): the two ``gives`` are laid
    away (:attr:`Position.laid`), and no talon is set aside.
    """
    n = len(hands)
    out = list(hands)
    out[declarer] |= talon
    laid = 0
    for j, card in enumerate(gives, start=1):
        bit = 1 << card
        out[declarer] &= ~bit
        if lay:
            laid |= bit
        else:
            out[(declarer + j) % n] |= bit
    return Position(
        tuple(out),
        declarer=declarer,
        leader=declarer,
        trump=trump,
        set_aside=0 if lay else set_aside,
        laid=laid,
    )


def solve_par(
    rules: Rules,
    hands: Sequence[int],
    talons: Sequence[int],
    declarer: int,
    solver: OpenCardSolver | None = None,
) -> Par:
    """The deal's open-card par for ``declarer`` (hand seats; masks).

    ``talons`` is the talon (one mask), or for two players the two talons of two.
    Ties keep the first found (talon, then the cards given in ascending order, then
    the trump named).
    """
    solver = solver or OpenCardSolver()
    P = rules_vector(rules)
    n = len(hands)
    lay = lays_away(rules)
    names = range(4) if rules.trump.named_by_declarer else (-1,)
    by_cap: dict[int, Discard] = {}
    for t, talon in enumerate(talons):
        set_aside = talons[1 - t] if len(talons) == 2 else 0
        hand = hands[declarer] | talon
        cards = [c for c in range(24) if hand >> c & 1]
        solver.forget()  # one table for the discards of one pick (they share later tricks)
        for gives in _gives(cards, n - 1, lay):
            for trump in names:
                pos = after_discard(hands, talon, declarer, gives, trump, set_aside, lay)
                cap = int(bid_cap(pos.hands[declarer], P))
                S, P2 = play_state(pos, rules)
                known = by_cap.get(cap)
                need = None if known is None else known.value + 1 - pos.banked
                if need is not None and not solver.probe(S, P2, need, keep=True):
                    continue  # no better than the best of its cap
                value = pos.banked + solver.value(S, P2, keep=True)
                by_cap[cap] = Discard(t, gives, trump, pos, value)
    best = max(by_cap.values(), key=lambda d: d.value)
    return Par(declarer, best, by_cap)


def par_summary(
    rules: Rules,
    hands: Sequence[int],
    talons: Sequence[int],
    declarer: int,
    cap: int,
    solver: OpenCardSolver | None = None,
) -> tuple[int, int]:
    """The deal's par as two numbers: the best value, and the highest level it makes.

    The same numbers as :func:`solve_par`'s ``best.value`` and the highest bid level
    (from the lowest, at most ``cap``, each level below it made too) that
    :meth:`Par.makes`, but it settles only what they need: each discard is probed at
    the least total that changes either number (one past the best so far, or the need
    of the next level its cap allows), and solved exactly only when it reaches it. The
    discards of a pick run in one compiled call (:func:`sim.engine.par.par_pick`),
    keeping most marriages first, then the most points surely taken from the lead,
    then giving the fewest points (the likeliest best first), so the later probes aim
    high and fail cheaply. On classic deals it searches about 0.66 as many nodes as
    :func:`solve_par`. 0 for the level when none is made.
    """
    from sim.engine.par import MAX_GIVES, par_pick

    solver = solver or OpenCardSolver()
    levels = np.array([L for L in rules.bid_levels() if L <= cap], dtype=np.int64)
    need = np.array([rules.least_total_making(int(L)) for L in levels], dtype=np.int64)
    names = np.array(range(4) if rules.trump.named_by_declarer else (-1,), dtype=np.int64)
    dealt = np.array(hands, dtype=np.int64)
    keys = np.zeros(MAX_GIVES, dtype=np.int64)
    best, made = -1, 0  # made: how many levels (from the lowest) some discard reaches
    lay = lays_away(rules)
    for t, talon in enumerate(talons):
        set_aside = talons[1 - t] if len(talons) == 2 else 0
        cards = [c for c in range(24) if (hands[declarer] | talon) >> c & 1]
        first = cards[: 2 if lay else len(hands) - 1]
        pos = after_discard(hands, talon, declarer, first, -1, set_aside, lay)
        S, P2 = play_state(pos, rules)  # the pick's state: par_pick sets each give's hands
        best, made = par_pick(
            solver.ws, P2, S, dealt, talon, declarer, names, levels, need, best, made, keys
        )
    return int(best), int(levels[made - 1]) if made else 0


def best_value(
    rules: Rules,
    hands: Sequence[int],
    talons: Sequence[int],
    declarer: int,
    floor: int,
    solver: OpenCardSolver | None = None,
) -> int:
    """The best open-card total over every pick, discard and trump, given one of them.

    ``floor`` is the exact value of some discard (the one the declarer made): every
    other is only probed against the best so far, and solved when it beats it.
    """
    solver = solver or OpenCardSolver()
    best = floor
    lay = lays_away(rules)
    names = range(4) if rules.trump.named_by_declarer else (-1,)
    for t, talon in enumerate(talons):
        set_aside = talons[1 - t] if len(talons) == 2 else 0
        hand = hands[declarer] | talon
        cards = [c for c in range(24) if hand >> c & 1]
        solver.forget()
        for gives in _gives(cards, len(hands) - 1, lay):
            for trump in names:
                pos = after_discard(hands, talon, declarer, gives, trump, set_aside, lay)
                S, P = play_state(pos, rules)
                if solver.probe(S, P, best + 1 - pos.banked, keep=True):
                    best = pos.banked + solver.value(S, P, keep=True)
    return best


def _gives(cards: Sequence[int], k: int, lay: bool = False) -> list[tuple[int, ...]]:
    """Every ordered choice of ``k`` distinct cards (one per opponent).

    ``lay``: every pair of cards laid away (unordered: both are the declarer's).
    """
    if lay:
        return [(a, b) for i, a in enumerate(cards) for b in cards[i + 1 :]]
    if k == 1:
        return [(c,) for c in cards]
    return [(a, b) for a in cards for b in cards if a != b]
