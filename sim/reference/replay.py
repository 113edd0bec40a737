"""Replaying a recorded deal under its rules: the notation refuses what cannot have happened.

A deal read from the notation (:mod:`sim.notation`) is played again through the
reference engine's own phases (:mod:`sim.reference.driver`) and legal steps
(:func:`~sim.reference.bidding.bid_cap`, :func:`~sim.reference.bidding.bid_raises`,
:func:`~sim.reference.play.legal_leads`, :func:`~sim.reference.play.legal_follows`,
the reshuffle conditions, the scoring), every decision taken from the record by a
:class:`ReplayChooser`. A move the rules do not offer at its turn (a card not held, a
revoke, a bid out of turn or over the cap, a discard of a card the declarer does not
hold), a trick winner, a declarer or a score the rules do not give is refused with one
line naming the tag and the move. The rules are written once, in the reference
engine: this module only asks it.

A bomb (``rospis.when = "talon"``) is a conceded deal without discards whose contract
is the winning bid. A partial deal (an auction only, no play, a redealt deal) is
checked as far as it goes, and records nothing past where it stops: a tag of a later
phase (:data:`PHASES`: a contract without the discard but for a bomb, a score before
the play is over), a play after a
concession, a contract after a redeal, a talon pick with three or four players are
refused, and so is a complete trick without its winner or a trick cut short with one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sim.cards import N_RANKS, SUIT_LETTERS, SUIT_SYMBOLS, Rank
from sim.i18n import N_, _, card_text, role
from sim.notation import DealRecord, NotationError, seat_labels

if TYPE_CHECKING:
    from sim.engine.actions import Decision
    from sim.rules import Rules


class Refused(Exception):
    """A recorded move the rules do not allow: the tag, the move (or ""), why (translated)."""

    def __init__(self, tag: str, move: str, why: str) -> None:
        super().__init__(why)
        self.tag, self.move, self.why = tag, move, why


class _Stop(Exception):
    """The record ends here (a partial deal): everything before was checked.

    ``tag`` names the phase the record stops at (missing or cut short): nothing of a
    later phase may be recorded (:func:`_nothing_after`).
    """

    def __init__(self, tag: str | None = None) -> None:
        super().__init__(tag)
        self.tag = tag


PHASES = ("Auction", "Declarer", "TalonPick", "Discards", "Contract", "Conceded", "Trump",
          "Play", "Scores")  # fmt: skip
"""The tags of a deal's phases, in the order they happen: a record that stops at one
(missing or cut short) holds none of the later ones."""


def _recorded(deal: DealRecord) -> dict[str, bool]:
    """Which of :data:`PHASES` the record holds."""
    return {
        "Auction": bool(deal.auction),
        "Declarer": deal.declarer is not None,
        "TalonPick": deal.talon_pick is not None,
        "Discards": bool(deal.discards),
        "Contract": deal.contract is not None,
        "Conceded": deal.conceded,
        "Trump": deal.trump is not None,
        "Play": bool(deal.tricks),
        "Scores": deal.scores is not None,
    }


def _nothing_after(deal: DealRecord, tag: str) -> None:
    """The record stops at ``tag`` (missing or cut short): refuse a later phase's tag.

    A score after two tricks, a contract with no discard, a play with no contract:
    the deal went no further than ``tag``, so a later tag has nothing to stand on.
    """
    recorded = _recorded(deal)
    for later in PHASES[PHASES.index(tag) + 1 :]:
        if recorded[later]:
            why = _("recorded after a missing or incomplete [{tag}]")
            raise Refused(later, "", why.format(tag=tag))


def _ends_at(deal: DealRecord, tags: tuple[str, ...], why: str) -> None:
    """The deal ended (redealt, conceded): refuse any of ``tags`` it records, saying ``why``."""
    recorded = _recorded(deal)
    for tag in tags:
        if recorded[tag]:
            raise Refused(tag, "", why)


NO_WINNER = N_("a complete trick ends in >WINNER, the seat that won it")


def _trick(number: int) -> str:
    return _("trick {number}").format(number=number)


class ReplayChooser:
    """Answers every decision of the reference engine from a recorded deal.

    Each answer is checked against the legal actions the engine offers; a recorded
    move that is not among them raises :class:`Refused`, the end of the record
    :class:`_Stop`. The bidding is walked by :func:`_auction` (its log is checked
    entry by entry, auto-passes included); the other decisions come here.
    """

    def __init__(self, deal: DealRecord, rules: Rules, names: dict[int, str]) -> None:
        self.deal, self.rules, self.names = deal, rules, names
        self.w: Any = None  # the reference's Deal, once built
        self.discards = 0
        self.plays = 0  # PLAY decisions so far
        self.held: list[list[int]] = []  # by seat, during the play
        self.script: list[object] = []
        self.used = 0

    def choose(self, kind: Decision, seat: int, legal: list[int], where: str = "") -> int:
        """The recorded answer to a decision of ``kind`` for ``seat``, if ``legal`` has it."""
        from sim.engine.actions import Decision

        d = self.deal
        if kind == Decision.DARK:
            return int(d.special == "dark" or d.undarkened_by is not None)
        if kind == Decision.UNDARKEN:
            return int(seat == d.undarkened_by)
        if kind in (Decision.RESHUFFLE_HAND, Decision.RESHUFFLE_TALON, Decision.RESHUFFLE_AFTER):
            return 0  # a redealt deal is checked by _redeal, never replayed
        if kind == Decision.TALON_PICK:
            if d.talon_pick is None:
                raise _Stop("TalonPick")
            if d.talon_pick not in legal:
                why = _("a talon 0 or 1, got {value}").format(value=d.talon_pick)
                raise Refused("TalonPick", "", why)
            return d.talon_pick
        if kind == Decision.DISCARD:
            return self._discard(seat, legal)
        if kind == Decision.CONTRACT:
            if d.contract is None:
                raise _Stop("Contract")
            if d.contract not in legal:
                why = _("{seat} cannot name the contract {value}: allowed {allowed}")
                allowed = ", ".join(str(x) for x in legal)
                raise Refused(
                    "Contract",
                    "",
                    why.format(seat=self.names[seat], value=d.contract, allowed=allowed),
                )
            return d.contract
        if kind == Decision.CONCEDE:
            return int(d.conceded)
        if kind == Decision.NAME_TRUMP:
            if d.trump is None:
                raise _Stop("Trump")
            return d.trump
        if kind == Decision.PLAY:
            return self._play(seat, legal)
        raise _Stop  # BID never comes here (_auction walks the bidding)

    def _discard(self, seat: int, legal: list[int]) -> int:
        d, k = self.deal, self.discards
        if k >= len(d.discards):
            raise _Stop("Discards")
        self.discards += 1
        to, card = d.discards[k]
        move = _("discard {number}").format(number=k + 1)
        want = seat if self.w.lays_away else self.w.table.after(seat, k + 1)  # §12 laid away
        if to != want:
            why = _("the card goes to {seat}, not to {other}")
            other = self.names.get(to, str(to))
            raise Refused("Discards", move, why.format(seat=self.names[want], other=other))
        if card not in legal:
            why = _("{seat} does not hold {card}")
            raise Refused("Discards", move, why.format(seat=self.names[seat], card=card_text(card)))
        return card

    def _play(self, seat: int, legal: list[int]) -> int:
        from sim.engine.actions import DECLARE
        from sim.reference.bits import suit
        from sim.reference.play import beats, trick_winner
        from sim.reference.state import NO_TRUMP

        d, w = self.deal, self.w
        width = len(w.table.active)
        t, k = divmod(self.plays, width)
        if self.plays == 0:
            self.held = [list(h) for h in w.after]
        if k == 0 and t > 0:  # the last trick is complete: its winner leads
            last = d.tricks[t - 1]
            if last.winner is not None and last.winner != seat:
                why = _("{seat} wins the trick, not {other}")
                other = self.names.get(last.winner, str(last.winner))
                raise Refused("Play", _trick(t), why.format(seat=self.names[seat], other=other))
            if len(last.cards) > width:
                why = _("cards in a trick: {want}, in this one: {count}")
                raise Refused("Play", _trick(t), why.format(want=width, count=len(last.cards)))
            if last.winner is None:
                raise Refused("Play", _trick(t), _(NO_WINNER))
        if t >= len(d.tricks) or k >= len(d.tricks[t].cards):
            if t + 1 < len(d.tricks):
                why = _("cards in a trick: {want}, in this one: {count}")
                count = len(d.tricks[t].cards)
                raise Refused("Play", _trick(t + 1), why.format(want=width, count=count))
            if t < len(d.tricks) and d.tricks[t].winner is not None:  # a trick cut short
                raise Refused("Play", _trick(t + 1), _("a trick cut short has no winner yet"))
            raise _Stop("Play")
        trick = d.tricks[t]
        move = _trick(t + 1)
        if k == 0 and trick.leader != seat:
            why = _("{seat} leads this trick, not {other}")
            other = self.names.get(trick.leader, str(trick.leader))
            raise Refused("Play", move, why.format(seat=self.names[seat], other=other))
        card = trick.cards[k]
        name = self.names[seat]
        held = self.held[seat]
        if card not in held:
            before = [n for n, x in enumerate(d.tricks[:t], start=1) if card in x.cards]
            before += [t + 1] if card in trick.cards[:k] else []
            if before:
                why = _("{card} was played already, in trick {number}")
                text = why.format(card=card_text(card), number=before[0])
                raise Refused("Play", move, text)
            why = _("{seat} does not hold {card}")
            raise Refused("Play", move, why.format(seat=name, card=card_text(card)))
        code = card
        if k == 0 and trick.marriage is not None:
            ace = card % N_RANKS == Rank.ACE
            letter = "A" if ace else SUIT_LETTERS[suit(card)]
            if trick.marriage != letter or (DECLARE + card) not in legal:
                why = _("{seat} cannot declare a marriage with {card}")
                raise Refused("Play", move, why.format(seat=name, card=card_text(card)))
            code = DECLARE + card
        if code not in legal:
            rules, trump = self.rules, w.play.trump
            if k == 0:
                trumps = [c for c in held if suit(c) == trump]
                if rules.play.must_lead_trump and trump != NO_TRUMP and trumps:
                    why = _("{seat} holds {card} and must lead a trump")
                    raise Refused("Play", move, why.format(seat=name, card=card_text(trumps[0])))
            else:
                led = trick.cards[0]
                same = [c for c in held if suit(c) == suit(led)]
                trumps = [c for c in held if suit(c) == trump]
                if same and suit(card) != suit(led):
                    why = _("{seat} holds {card} and must follow {suit}")
                    text = why.format(
                        seat=name, card=card_text(same[0]), suit=SUIT_SYMBOLS[suit(led)]
                    )
                    raise Refused("Play", move, text)
                if not same and trumps and rules.play.must_trump and suit(card) != trump:
                    why = _("{seat} holds {card} and must trump {suit}")
                    text = why.format(
                        seat=name, card=card_text(trumps[0]), suit=SUIT_SYMBOLS[trump]
                    )
                    raise Refused("Play", move, text)
                if rules.play.must_beat:
                    sofar = list(trick.cards[:k])
                    best = sofar[trick_winner(sofar, trump)]
                    beating = [c for c in legal if beats(c, best, trump)]
                    if beating:
                        why = _("{seat} holds {card} and must beat the trick")
                        text = why.format(seat=name, card=card_text(beating[0]))
                        raise Refused("Play", move, text)
            why = _("{seat} may not play {card} here: allowed {allowed}")
            allowed = " ".join(
                card_text(c - DECLARE) + ("*" if c >= DECLARE else "") for c in legal
            )
            raise Refused(
                "Play", move, why.format(seat=name, card=card_text(card), allowed=allowed)
            )
        held.remove(card)
        self.plays += 1
        return code


def _auction(deal: DealRecord, rules: Rules, table: Any, hands: list[list[int]], kind: str | None,
             names: dict[int, str]) -> tuple[int, int] | None:  # fmt: skip
    """Walk the recorded auction through the bidding's turns, caps and raises.

    The turns, the forehand's automatic 100 (125 after an undarkening, 120 alone in
    a golden or dark deal) and the passes are those of
    :func:`sim.reference.bidding.bidding`; each bid must be one of
    :func:`~sim.reference.bidding.bid_raises` up to
    :func:`~sim.reference.bidding.bid_cap` of the bidder's dealt hand. The game's
    scores are not recorded: a seat on the barrel or silenced is taken as free to bid.

    Returns:
        The declarer and the winning bid, or None for an auction not finished.
    """
    from sim.reference.bidding import DARK_CONTRACT, UNDARKEN_BID, bid_cap, bid_raises

    entries = list(deal.auction)
    forehand = table.forehand
    if kind is not None:
        log = [(forehand, DARK_CONTRACT)]
    else:
        log = [(forehand, 100)]
        if deal.undarkened_by is not None:
            log.append((deal.undarkened_by, UNDARKEN_BID))
    for i, (seat, bid) in enumerate(log):
        if i >= len(entries):
            return None
        if entries[i][0] != seat:
            why = _("{seat} bids out of turn: it is the turn of {turn}")
            other = names.get(entries[i][0], str(entries[i][0]))
            text = why.format(seat=other, turn=names[seat])
            raise Refused("Auction", _("bid {number}").format(number=i + 1), text)
        if entries[i] != (seat, bid):
            got = entries[i][1]
            why = _("{seat} must bid {want} here, not {got}")
            text = why.format(seat=names[seat], want=bid, got=role("pass") if got is None else got)
            raise Refused("Auction", _("bid {number}").format(number=i + 1), text)
    if kind is not None:
        if len(entries) > 1:
            said, amount = entries[1]
            extra = f"{names.get(said, said)} {role('pass') if amount is None else amount}"
            why = _("the auction was over: {extra}")
            raise Refused("Auction", _("bid {number}").format(number=2), why.format(extra=extra))
        return forehand, DARK_CONTRACT
    bid, high = log[-1][1], log[-1][0]
    seat = high
    passed: set[int] = set()
    i = len(log)  # a seat silenced by bid.silence_below in its game: not recorded, free here
    while len(passed) < len(table.active) - 1:
        seat = table.after(seat)
        if seat in passed:
            continue
        if i >= len(entries):
            return None
        move = _("bid {number}").format(number=i + 1)
        said, amount = entries[i]
        if said != seat:
            why = _("{seat} bids out of turn: it is the turn of {turn}")
            other = names.get(said, str(said))
            raise Refused("Auction", move, why.format(seat=other, turn=names[seat]))
        raises = bid_raises(rules, bid, bid_cap(rules, hands[seat]))
        if amount is None:
            passed.add(seat)
        elif not raises:
            why = _("{seat} cannot raise {bid}: it must pass")
            raise Refused("Auction", move, why.format(seat=names[seat], bid=bid))
        elif amount not in raises:
            why = _("{seat} cannot bid {value} over {bid}: allowed {allowed}")
            allowed = f"{raises[0]}–{raises[-1]}" if len(raises) > 1 else str(raises[0])
            text = why.format(seat=names[seat], value=amount, bid=bid, allowed=allowed)
            raise Refused("Auction", move, text)
        else:
            bid, high = amount, seat
        i += 1
    if i < len(entries):
        said, amount = entries[i]
        extra = f"{names.get(said, said)} {role('pass') if amount is None else amount}"
        why = _("the auction was over: {extra}")
        raise Refused("Auction", _("bid {number}").format(number=i + 1), why.format(extra=extra))
    return high, bid


def _redeal(deal: DealRecord, rules: Rules, table: Any, names: dict[int, str]) -> None:
    """A redealt deal: the seat that asked is active and the reason held, as far as it shows.

    A hand reason is that seat's dealt hand's (:func:`hand_reshuffle_reason`); a talon
    reason the talon's (2 players: one of the two); the cards after a discard are not
    recorded, so an after-discard reason is taken as given.
    """
    from sim.reference.reshuffle import (
        AFTER_DISCARD_REASONS,
        hand_reshuffle_reason,
        talon_reshuffle_reason,
    )

    assert deal.reshuffle is not None
    seat, reason = deal.reshuffle
    t = deal.talon
    talons = [list(t)] if deal.players != 2 else [list(t[:2]), list(t[2:])]
    if seat in table.active:
        if hand_reshuffle_reason(rules, list(deal.hands[seat])) == reason:
            return
        if any(talon_reshuffle_reason(rules, half) == reason for half in talons):
            return
        if reason in AFTER_DISCARD_REASONS and getattr(rules.reshuffle, reason):
            return
    why = _("{seat} cannot demand a redeal for {reason}")
    raise Refused("Reshuffle", "", why.format(seat=names.get(seat, str(seat)), reason=reason))


def replay(deal: DealRecord, rules: Rules) -> None:
    """Play ``deal`` again under ``rules`` through the reference engine; refuse a disagreement.

    Raises:
        Refused: the first recorded move, winner, declarer or score the rules do not
            give (the tag, the move, why).
    """
    from sim.reference.driver import (
        Deal,
        after_discard_reshuffle,
        bomb,
        concession,
        contract,
        dark_offer,
        discard,
        named_trump,
        score_played,
        talon,
        tricks,
        undarkening,
    )
    from sim.reference.state import Table

    names = seat_labels(deal)
    table = Table(deal.players, deal.dealer)
    if deal.talon_pick is not None and deal.players != 2:
        raise Refused("TalonPick", "", _("only two players take one of two talons"))
    if deal.reshuffle is not None:
        _redeal(deal, rules, table, names)
        # a redeal comes before the contract at the latest: nothing of the play follows
        later = ("Contract", "Conceded", "Trump", "Play", "Scores")
        _ends_at(deal, later, _("the deal was redealt: it ends there"))
        return
    t = deal.talon
    talons = [list(t)] if deal.players != 2 else [list(t[:2]), list(t[2:])]
    if deal.special == "golden":
        offer = "golden"
    elif deal.special == "dark" or deal.undarkened_by is not None:
        offer = "dark_allowed"
    else:
        offer = "none"
    chooser = ReplayChooser(deal, rules, names)
    w = Deal(
        rules=rules, table=table, chooser=chooser,  # type: ignore[arg-type]
        hands=[sorted(h) for h in deal.hands], talons=talons, attempt=deal.attempt or 0,
        may_redeal=False, game_scores=[0] * deal.players, on_barrel=[False] * deal.players,
        blocked=[False] * deal.players, offer=offer, gathered=None, trace={},
    )  # fmt: skip
    chooser.w = w
    try:
        dark_offer(w)
        undarkening(w)
        if w.undarkened_by != deal.undarkened_by:
            who = names.get(deal.undarkened_by or 0, str(deal.undarkened_by))
            why = _("{seat} cannot undarken").format(seat=who)
            raise Refused("Undarkened", "", why)
        won = _auction(deal, rules, table, w.hands, w.kind, names)
        if won is None:
            if deal.declarer is not None:
                raise Refused("Auction", "", _("the auction is not over"))
            raise _Stop("Auction")
        w.declarer, w.winning_bid = won
        if deal.declarer is None:
            raise _Stop("Declarer")
        if deal.declarer != w.declarer:
            why = _("{seat} wins the auction, not {other}")
            other = names.get(deal.declarer, str(deal.declarer))
            raise Refused("Declarer", "", why.format(seat=names[w.declarer], other=other))
        talon(w)
        conceded = bomb(w)  # rospis.when = "talon": before the discard, the winning bid
        if conceded is not None:
            ended = _("the declarer conceded: the deal ends there")
            _ends_at(deal, ("Discards",), ended)
            if deal.contract is not None and deal.contract != w.contract:
                why = _("{seat} cannot name the contract {value}: allowed {allowed}")
                text = why.format(seat=names[w.declarer], value=deal.contract, allowed=w.contract)
                raise Refused("Contract", "", text)
        else:
            discard(w)
            after_discard_reshuffle(w)
            contract(w)
            conceded = concession(w)
        if deal.conceded and conceded is None:
            why = _("{seat} may not concede under these rules")
            raise Refused("Conceded", "", why.format(seat=names[w.declarer]))
        if conceded is not None:
            _ends_at(deal, ("Trump", "Play"), _("the declarer conceded: the deal ends there"))
            result = conceded
        else:
            if deal.trump is not None and not rules.trump.named_by_declarer:
                raise Refused("Trump", "", _("the declarer names no trump under these rules"))
            named_trump(w)
            tricks(w)
            last = deal.tricks[-1] if deal.tricks else None
            engine_last = w.tricks[-1]
            if len(deal.tricks) > len(w.tricks):
                why = _("the deal ends after {count} tricks")
                move = _trick(len(w.tricks) + 1)
                raise Refused("Play", move, why.format(count=len(w.tricks)))
            if last is not None and last.winner is None:
                raise Refused("Play", _trick(len(w.tricks)), _(NO_WINNER))
            if (
                last is not None
                and last.winner is not None
                and last.winner != engine_last["winner"]
            ):
                why = _("{seat} wins the trick, not {other}")
                text = why.format(
                    seat=names[engine_last["winner"]],
                    other=names.get(last.winner, str(last.winner)),
                )
                raise Refused("Play", _trick(len(w.tricks)), text)
            result = score_played(w)
    except _Stop as stop:
        if stop.tag is not None:
            _nothing_after(deal, stop.tag)
        return
    if deal.scores is not None and list(deal.scores) != list(result["score_deltas"]):
        why = _("the deal scores {want}, not {got}")
        want = " ".join(str(x) for x in result["score_deltas"])
        got = " ".join(str(x) for x in deal.scores)
        raise Refused("Scores", "", why.format(want=want, got=got))


def check_replay(deal: DealRecord, rules: Rules, index: int | None = None) -> None:
    """Refuse ``deal`` if it cannot have happened under ``rules`` (:func:`replay`).

    ``index`` (the deal's place in its file, from 1) names the deal in the message.

    Raises:
        NotationError: one line, ``deal N, [Tag] move: why``.
    """
    try:
        replay(deal, rules)
    except Refused as exc:
        where = f"[{exc.tag}] {exc.move}" if exc.move else f"[{exc.tag}]"
        text = f"{where}: {exc.why}"
        if index is not None:
            text = _("deal {deal}, {problem}").format(deal=index, problem=text)
        raise NotationError(text) from None
