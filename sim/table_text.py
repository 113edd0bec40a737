"""What a player types about one table: cards, a seat, the auction so far.

The deal notation (:mod:`sim.notation`) reads whole deals; this reads the pieces a
player gives the advisor (``thousand advise``) by hand: the cards of a hand or a
talon as a card mask (:func:`read_cards`), a hand seat by its name
(:func:`read_seat`) and the bids so far as an :class:`Auction` (:func:`read_auction`).
A refusal is a :class:`sim.output.FieldError` naming the field it read (``hand``,
``seat``, ``auction``); the command line words it with its flags.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sim.cards import CardParseError, mask_of, parse_cards
from sim.i18n import _, answer_cards, role, role_of
from sim.output import FieldError
from sim.rules import MAX_BID, OPENING_BID, Rules, hand_roles


def seat_choices(names: Sequence[str]) -> str:
    """The seats a field takes, as its refusals list them.

    ``forehand, middle, dealer`` in English, ``первая рука, вторая рука, сдающий`` in
    Russian: the field reads each in any language (:func:`read_seat`).
    """
    return ", ".join(role(n) for n in names)


def read_seat(text: str, names: Sequence[str], field: str = "seat") -> int:
    """The hand seat named ``text`` in any language: its index in ``names`` (:func:`hand_roles`).

    Raises:
        FieldError: a name not in ``names``, naming ``field`` and listing them.
    """
    name = role_of(text)  # in any language the commands write it in
    if name is None or name not in names:
        why = _("{field} {seat}: one of {seats}")
        raise FieldError(field, why, seat=text, seats=seat_choices(names))
    return list(names).index(name)


def read_cards(field: str, text: str, size: int, taken: int = 0) -> int:
    """The mask of the ``size`` cards written in ``text`` (any notation of :mod:`sim.cards`).

    Raises:
        FieldError: naming ``field``: an unknown or repeated card, the wrong number of
            cards, or a card already in ``taken`` (the hand's mask).
    """
    try:
        ids = parse_cards(text)
    except CardParseError as exc:
        raise FieldError(field, "{field}: {reason}", reason=str(exc)) from None
    if len(ids) != size:
        why = _("{field}: {size} cards needed, got {count} ({cards})")
        raise FieldError(field, why, size=size, count=len(ids), cards=repr(text))
    mask = mask_of(ids)
    if mask & taken:
        both = [c for c in ids if taken >> c & 1]
        raise FieldError(field, _("{field}: {cards} already in the hand"), cards=answer_cards(both))
    return mask


@dataclass(frozen=True)
class Auction:
    """The bids so far: ``(hand seat, bid)`` in order (None: a pass), whose turn it is."""

    bids: tuple[tuple[int, int | None], ...]
    next_seat: int
    high: int  # the highest bid so far
    high_seat: int
    names: tuple[str, ...]  # the hand seats' names, from forehand

    def highest(self) -> list[tuple[int, int]]:
        """``(hand seat, its highest bid)`` of every seat that bid."""
        best: dict[int, int] = {}
        for s, b in self.bids:
            if b is not None:
                best[s] = max(b, best.get(s, 0))
        return sorted(best.items())

    def acted(self) -> list[tuple[int, int, bool]]:
        """Each seat that acted after forehand's automatic opening bid.

        ``(hand seat, its highest bid (0: none), whether it passed)``, by seat.
        """
        seats = sorted({s for s, _ in self.bids[1:]})
        best = dict(self.highest())
        out = {s for s, b in self.bids[1:] if b is None}
        return [(s, best.get(s, 0), s in out) for s in seats]

    def text(self) -> str:
        """The auction in words: ``forehand 100, middle pass``."""
        return ", ".join(f"{self.names[s]} {'pass' if b is None else b}" for s, b in self.bids)


def read_auction(rules: Rules, text: str, seats: int, over: bool = False) -> Auction:
    """The auction so far from ``"100 pass 110"``: the bids in turn from forehand.

    Forehand opens with its automatic 100; then each seat still in bids (a multiple of
    ``bid.step`` above the last bid; exactly one step without ``bid.jumps``) or passes,
    in turn, a seat that passed being out. ``seats``: the active hands. ``over``: the
    whole auction, which must have ended (every seat but the declarer passed);
    ``next_seat`` is then the declarer's.

    Raises:
        FieldError: naming the ``auction`` field: a token that is not a bid or
            ``pass``, a bid that is not allowed there, or an auction that is over (or,
            with ``over``, one that is not).
    """
    tokens = text.replace(",", " ").split()
    if not tokens or tokens[0] != str(OPENING_BID):
        why = _("{field:auction}: forehand's automatic {bid} comes first, got {auction}")
        raise FieldError("auction", why, bid=OPENING_BID, auction=repr(text))
    bids: list[tuple[int, int | None]] = [(0, OPENING_BID)]
    out: set[int] = set()
    high, high_seat, turn = OPENING_BID, 0, 0
    for token in tokens[1:]:
        if len(out) >= seats - 1:
            why = _("{field:auction}: the auction is over before {token}")
            raise FieldError("auction", why, token=repr(token))
        turn = (turn + 1) % seats
        while turn in out:
            turn = (turn + 1) % seats
        if role_of(token) == "pass":  # pass, пас, pas
            out.add(turn)
            bids.append((turn, None))
            continue
        if not token.isdigit():
            why = _("{field:auction}: a bid or 'pass', got {token}")
            raise FieldError("auction", why, token=repr(token))
        bid = int(token)
        step = rules.bid.step
        if (
            bid <= high
            or bid % step
            or bid > MAX_BID
            or (not rules.bid.jumps and bid != high + step)
        ):
            why = (
                _(
                    "{field:auction}: {bid} is not a bid after {high}"
                    " (one of: a multiple of {step} above {high})"
                )
                if rules.bid.jumps
                else _("{field:auction}: {bid} is not a bid after {high} (one of: {next})")
            )
            raise FieldError("auction", why, bid=bid, high=high, step=step, next=high + step)
        bids.append((turn, bid))
        high, high_seat = bid, turn
    names = hand_roles(rules.players)  # four players: the rear, the dealer sits out
    if over:
        if len(out) < seats - 1:
            why = _("{field:auction}: {auction} is not over (every seat but one passes)")
            raise FieldError("auction", why, auction=repr(text))
        return Auction(tuple(bids), high_seat, high, high_seat, names)
    if len(out) >= seats - 1:
        why = _("{field:auction}: the auction is over: every seat but one passed")
        raise FieldError("auction", why)
    turn = (turn + 1) % seats
    while turn in out:
        turn = (turn + 1) % seats
    return Auction(tuple(bids), turn, high, high_seat, names)
