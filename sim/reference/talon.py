"""Phases 3, 4, 6, 7: talon, discard, contract, concession (docs/rules.md §5)."""

from __future__ import annotations

from collections.abc import Sequence

from sim.engine.actions import Decision
from sim.reference.bidding import bid_cap
from sim.reference.choose import Chooser
from sim.reference.state import Table
from sim.rules import Rules


def talon_shown(rules: Rules, at_100: bool, special: str | None = None) -> bool:
    """Whether the talon is shown to all (docs/rules.md §5): never in a golden or dark deal."""
    if special is not None:
        return False
    return not (rules.talon.hide_at_100 and at_100)


def discard(
    hand: list[int], table: Table, declarer: int, chooser: Chooser, lay_away: bool = False
) -> tuple[list[int], list[list[int]]]:
    """The declarer gives one card to each opponent (PROTOCOL.md §4).

    3 active players: to ``decl+1``, then to ``decl+2``; 2 players: one card to
    ``decl+1``, or with ``lay_away`` (``talon.two_players = "discard"``) two cards
    laid away, logged as given to the declarer itself.

    Args:
        hand: the declarer's cards with the talon (10, or 12 with 2 players).
        table: who plays.
        declarer: the declarer's seat.
        chooser: decides the discards.
        lay_away: two players laying two cards away (§12).

    Returns:
        The declarer's remaining cards and the log ``[[recipient, card], ...]``.
    """
    rest = sorted(hand)
    log: list[list[int]] = []
    if lay_away:  # two players, "discard": two cards laid away face down (§12)
        for k in (1, 2):
            card = chooser.choose(Decision.DISCARD, declarer, rest, f" laid away ({k} of 2)")
            rest.remove(card)
            log.append([declarer, card])
        return rest, log
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
