"""Phase 0 and 2: dark play, undarkening and bidding (docs/rules.md §4, §11)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.engine.actions import MAX_BID, PASS, Decision
from sim.reference.bits import marriage_sum, marriages_held
from sim.reference.choose import Chooser
from sim.reference.state import Table
from sim.rules import Rules

DARK_CONTRACT = 120  # golden and dark deals: forehand plays 120 without bidding
UNDARKEN_BID = 125  # an opponent with a marriage undarkens by bidding 125


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
