"""The plain open-card minimax: every legal line of play, no pruning, no table.

The check of the compiled solver (:mod:`sim.solver`). It plays by the reference
engine's own steps (:mod:`sim.reference.play`) and scores by its own rules
(:mod:`sim.reference.scoring`), so it shares no code with the compiled search but the
rules object. Exponential: use it on endgames of a few tricks.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field

from sim.engine.actions import DECLARE
from sim.reference.bits import points
from sim.reference.play import _declare, beats, legal_follows, legal_leads
from sim.reference.scoring import marriage_points
from sim.reference.state import NO_TRUMP, PlayState
from sim.rules import Rules


@dataclass
class _Deal:
    hands: list[list[int]]
    st: PlayState
    captured: list[list[int]]
    trick: int
    leader: int
    set_aside: list[int] = field(default_factory=list)


def _total(rules: Rules, g: _Deal) -> int:
    d = g.st.declarer
    mp = marriage_points(rules, g.st.declared[d], g.st.declared_value[d], g.captured[d], True)
    return points(g.captured[d]) + mp


def _leads(rules: Rules, g: _Deal) -> dict[int, int]:
    """Each legal lead's code and the declarer's final total after it, best play on."""
    n = len(g.hands)
    values = {}
    for code in legal_leads(rules, g.hands[g.leader], g.trick, g.leader, g.st):
        h = copy.deepcopy(g)
        led = code - DECLARE if code >= DECLARE else code
        if code >= DECLARE:
            _declare(rules, h.st, h.leader, led)
        h.hands[h.leader].remove(led)
        values[code] = _follow(rules, h, [led], led, h.leader, n)
    return values


def _trick_start(rules: Rules, g: _Deal) -> int:
    """The declarer's final total with best play by both sides from a trick start."""
    if not g.hands[g.leader]:
        return _total(rules, g)
    values = _leads(rules, g).values()
    return max(values) if g.leader == g.st.declarer else min(values)


def _follow(rules: Rules, g: _Deal, cards: list[int], best: int, winner: int, n: int) -> int:
    k = len(cards)
    if k == n:
        g.captured[winner] += cards
        if g.st.pending != NO_TRUMP:
            g.st.trump, g.st.pending = g.st.pending, NO_TRUMP
        g.trick += 1
        g.leader = winner
        if not g.hands[winner] and g.set_aside:
            g.captured[winner] += g.set_aside
        return _trick_start(rules, g)
    seat = (g.leader + k) % n
    maxing = seat == g.st.declarer
    values = []
    for card in legal_follows(rules, g.hands[seat], cards[0], best, g.st.trump):
        h = copy.deepcopy(g)
        h.hands[seat].remove(card)
        b, w = (card, seat) if beats(card, best, h.st.trump) else (best, winner)
        values.append(_follow(rules, h, [*cards, card], b, w, n))
    return max(values) if maxing else min(values)


def _start(
    rules: Rules,
    hands: Sequence[Sequence[int]],
    declarer: int,
    leader: int,
    trump: int,
    trump_setter: int,
    marriage_allowed: bool,
    set_aside: Sequence[int],
    declared: int,
) -> _Deal:
    n = len(hands)
    st = PlayState(declarer=declarer, players=n, trump=trump)
    if trump == NO_TRUMP:
        st.trump_setter = -1
    else:
        st.trump_setter = trump_setter if trump_setter >= 0 else declarer
    st.declared[declarer] = declared
    return _Deal(
        hands=[sorted(h) for h in hands],
        st=st,
        captured=[[] for _ in range(n)],
        trick=1 if marriage_allowed else 0,
        leader=leader,
        set_aside=list(set_aside),
    )


def minimax(
    rules: Rules,
    hands: Sequence[Sequence[int]],
    declarer: int,
    leader: int,
    trump: int = NO_TRUMP,
    trump_setter: int = -1,
    marriage_allowed: bool = False,
    set_aside: Sequence[int] = (),
    declared: int = 0,
) -> int:
    """What the declarer still adds from a trick start against best defence.

    Hand seats ``0..n-1`` play clockwise; ``declared`` are marriage bits the declarer
    declared before (they count, under ``marriage.requires_capture``, once it captures
    a card of them). ``marriage_allowed`` False means the first trick's rule applies.
    The trump's setter defaults to the declarer.
    """
    g = _start(
        rules, hands, declarer, leader, trump, trump_setter, marriage_allowed, set_aside, declared
    )
    return _trick_start(rules, g) - _total(rules, g)


def lead_values(
    rules: Rules,
    hands: Sequence[Sequence[int]],
    declarer: int,
    leader: int,
    trump: int = NO_TRUMP,
    trump_setter: int = -1,
    marriage_allowed: bool = False,
    set_aside: Sequence[int] = (),
    declared: int = 0,
) -> dict[int, int]:
    """Every legal lead (action code) with what the declarer still adds after it."""
    g = _start(
        rules, hands, declarer, leader, trump, trump_setter, marriage_allowed, set_aside, declared
    )
    base = _total(rules, g)
    return {code: v - base for code, v in _leads(rules, g).items()}
