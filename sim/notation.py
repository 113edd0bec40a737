"""The deal notation: one dealt deal as text a player can paste, read and share.

Bridge players share deals in PBN, a list of tag pairs every program reads; this is
the same idea for Thousand. A deal is a block of lines ``[Tag "value"]`` (a blank line
ends it; a line starting with ``;`` or ``%`` is a comment)::

    [Rules "classic"]
    [RulesHash "9dc76ec03af7a856"]
    [Dealer "0"]
    [Deal "9S TS JC QC QD KD 9H / KS KC JD TD JH KH TH / QS AS TC AC 9D QH AH / JS 9C AD"]
    [Auction "1:100 2:pass 0:pass"]
    [Declarer "1"]
    [Discards "2:9C 0:JS"]
    [Contract "100"]
    [Play "1:AD 9D QD >1; 1:TD 9C KD >1; 1:JD QS 9S >1; 1:JH AH 9H >2; 2:AS JS KS >2; ..."]
    [Scores "0 -100 65"]

Tags (only ``Rules``, ``Dealer`` and ``Deal`` are required):

* ``Rules``: a preset name or a rules file; ``RulesHash``, when given, must be the
  hash of those rules (a deal is only replayed under the rules it was dealt with);
* ``Dealer``: the dealer's game seat (0 ..); forehand is the next seat;
* ``Deal``: every seat's cards in seat order, then the talon, separated by ``/``
  (with four players the dealer's hand is ``-``; with two the talon is 4 cards, the
  first talon's two, then the second's). Cards in any notation of :mod:`sim.cards`;
* ``Reshuffle``: ``"SEAT REASON"`` for a deal that was redealt (nothing follows);
* ``Auction``: ``SEAT:BID`` or ``SEAT:pass`` in the order they were made, starting with
  forehand's 100;
* ``Declarer``, ``TalonPick`` (two players), ``Discards`` (``TO:CARD`` in order),
  ``Contract``, ``Conceded`` (``yes``), ``Trump`` (a named trump's suit letter);
* ``Play``: the tricks, ``;``-separated, each ``LEADER:``, its cards from the leader
  and ``>WINNER`` (a trick cut short, the last of a partial play, has none); a lead
  that declares a marriage ends in ``*`` (``*A`` for the ace marriage);
* ``Scores``: the deal's score changes by seat, once it is over (played out or
  conceded); ``Special`` (``golden``, ``dark``), ``Undarkened``, ``DealId``,
  ``Attempt``: as in the hand trace.

The tags follow the deal's course: a deal stops at its first tag missing or cut short
and records nothing after it (no ``Contract`` without the ``Discards``, no ``Scores``
after two tricks), nothing after a concession or a redeal; the replay refuses the rest
(:mod:`sim.reference.replay`). A bomb (``rospis.when = "talon"``: the declarer
concedes on seeing the talon) has no ``Discards``: its ``Contract`` is the winning
bid, then ``Conceded "yes"``.

:func:`parse_deals` reads a file's deals, :func:`format_deal` writes one (cards in
the English letters), :func:`from_trace` makes one of a ``hands --trace`` line and
:meth:`DealRecord.trace` gives the trace's keys back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sim.cards import N_CARDS, SUIT_LETTERS, CardParseError, card_str, parse_card, parse_cards
from sim.i18n import _, answer_cards, role_of
from sim.rules import hand_roles

TAG = re.compile(r'^\[(?P<tag>[A-Za-z]+)\s+"(?P<value>[^"]*)"\]\s*$')
TAGS = (
    "Rules", "RulesHash", "Dealer", "Deal", "DealId", "Attempt", "Reshuffle", "Special",
    "Undarkened", "Auction", "Declarer", "TalonPick", "Discards", "Contract", "Conceded",
    "Trump", "Play", "Scores",
)  # fmt: skip
"""Every tag, in the order :func:`format_deal` writes them."""


class NotationError(ValueError):
    """A deal that cannot be read; the message names the tag and the culprit."""


@dataclass(frozen=True)
class Trick:
    """One trick: the leader, the cards from the leader on, the marriage the lead declared."""

    leader: int
    cards: tuple[int, ...]
    marriage: str | None = None  # a suit letter, "A" for the ace marriage, or None
    winner: int | None = None


@dataclass(frozen=True)
class DealRecord:
    """One dealt deal and, as far as it was played, what happened.

    Seats are game seats (0 .. players-1); cards are card ids. ``hands`` has one
    entry per seat (the four-player dealer's is empty).
    """

    rules: str
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    talon: tuple[int, ...]
    rules_hash: str | None = None
    deal_id: int | None = None
    attempt: int | None = None
    reshuffle: tuple[int, str] | None = None
    special: str | None = None
    undarkened_by: int | None = None
    auction: tuple[tuple[int, int | None], ...] = ()  # (seat, bid), None for a pass
    declarer: int | None = None
    talon_pick: int | None = None
    discards: tuple[tuple[int, int], ...] = ()  # (recipient, card)
    contract: int | None = None
    conceded: bool = False
    trump: int | None = None  # a named trump's suit
    tricks: tuple[Trick, ...] = field(default_factory=tuple)
    scores: tuple[int, ...] | None = None

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.hands)

    def hand_seats(self) -> list[int]:
        """The game seats of the hands dealt, from forehand (four players: the dealer out)."""
        n = self.players
        active = 3 if n == 4 else n
        return [(self.dealer + 1 + k) % n for k in range(active)]

    def trace(self) -> dict[str, Any]:
        """The keys of a ``hands --trace`` line this deal records (cards as ``AH``)."""
        out: dict[str, Any] = {
            "dealer": self.dealer,
            "hands": [[card_str(c) for c in sorted(h)] for h in self.hands],
            "talon": [card_str(c) for c in self.talon],
            "reshuffle": None
            if self.reshuffle is None
            else {"seat": self.reshuffle[0], "reason": self.reshuffle[1]},
        }
        if self.deal_id is not None:
            out["deal_id"] = self.deal_id
        if self.attempt is not None:
            out["attempt"] = self.attempt
        if self.reshuffle is not None or self.declarer is None:
            return out
        out["bids"] = [[s, "pass" if b is None else b] for s, b in self.auction]
        out["declarer"] = self.declarer
        out["discards"] = [[to, card_str(c)] for to, c in self.discards]
        out["contract"] = self.contract
        out["conceded"] = self.conceded
        out["trump_named"] = None if self.trump is None else SUIT_LETTERS[self.trump]
        out["special"] = self.special
        out["undarkened_by"] = self.undarkened_by
        if self.talon_pick is not None:
            out["talon_pick"] = self.talon_pick
        if not self.conceded:
            out["tricks"] = [
                {
                    "leader": t.leader,
                    "cards": [card_str(c) for c in t.cards],
                    "marriage": t.marriage,
                    "winner": t.winner,
                }
                for t in self.tricks
            ]
        if self.scores is not None:
            out["score_deltas"] = list(self.scores)
        return out


def roles(deal: DealRecord) -> dict[int, str]:
    """The role of every game seat of ``deal``, as every command names seats.

    :func:`sim.table_text.hand_roles`, and with four players the dealer's too.
    """
    names = dict(zip(deal.hand_seats(), hand_roles(deal.players), strict=True))
    if deal.players == 4:
        names[deal.dealer] = "dealer"
    return names


def seat_labels(deal: DealRecord) -> dict[int, str]:
    """``role (seat S)`` of every game seat of ``deal``, in the current language.

    How ``show`` lays a deal out and how the reader's refusals name a seat: the role
    (:func:`roles`) and the notation's own number.
    """
    from sim.i18n import role

    return {s: f"{role(r)} ({_('seat {seat}').format(seat=s)})" for s, r in roles(deal).items()}


def from_trace(trace: dict[str, Any], rules: str, rules_hash: str | None = None) -> DealRecord:
    """The record of one ``hands --trace`` line (a deal of the rules named ``rules``)."""

    def ids(cards: Sequence[str]) -> tuple[int, ...]:
        return tuple(parse_card(c) for c in cards)

    reshuffle = trace.get("reshuffle")
    trump = trace.get("trump_named")
    return DealRecord(
        rules=rules,
        dealer=int(trace["dealer"]),
        hands=tuple(ids(h) for h in trace["hands"]),
        talon=ids(trace["talon"]),
        rules_hash=rules_hash,
        deal_id=trace.get("deal_id"),
        attempt=trace.get("attempt"),
        reshuffle=None if reshuffle is None else (int(reshuffle["seat"]), str(reshuffle["reason"])),
        special=trace.get("special"),
        undarkened_by=trace.get("undarkened_by"),
        auction=tuple((int(s), None if b == "pass" else int(b)) for s, b in trace.get("bids", [])),
        declarer=trace.get("declarer"),
        talon_pick=trace.get("talon_pick"),
        discards=tuple((int(to), parse_card(c)) for to, c in trace.get("discards", [])),
        contract=trace.get("contract"),
        conceded=bool(trace.get("conceded")),
        trump=None if trump is None else SUIT_LETTERS.index(trump),
        tricks=tuple(
            Trick(int(t["leader"]), ids(t["cards"]), t.get("marriage"), t.get("winner"))
            for t in trace.get("tricks", [])
        ),
        scores=None if "score_deltas" not in trace else tuple(trace["score_deltas"]),
    )


def _cards(cards: Sequence[int]) -> str:
    return " ".join(card_str(c) for c in cards)


def format_deal(deal: DealRecord) -> str:
    """The deal in the notation (one block of tag lines, cards in English letters)."""
    values: dict[str, str | None] = {
        "Rules": deal.rules,
        "RulesHash": deal.rules_hash,
        "Dealer": str(deal.dealer),
        "Deal": " / ".join([_cards(sorted(h)) or "-" for h in deal.hands] + [_cards(deal.talon)]),
        "DealId": None if deal.deal_id is None else str(deal.deal_id),
        "Attempt": None if deal.attempt is None else str(deal.attempt),
        "Reshuffle": None if deal.reshuffle is None else f"{deal.reshuffle[0]} {deal.reshuffle[1]}",
        "Special": deal.special,
        "Undarkened": None if deal.undarkened_by is None else str(deal.undarkened_by),
        "Auction": " ".join(f"{s}:{'pass' if b is None else b}" for s, b in deal.auction) or None,
        "Declarer": None if deal.declarer is None else str(deal.declarer),
        "TalonPick": None if deal.talon_pick is None else str(deal.talon_pick),
        "Discards": " ".join(f"{to}:{card_str(c)}" for to, c in deal.discards) or None,
        "Contract": None if deal.contract is None else str(deal.contract),
        "Conceded": "yes" if deal.conceded else None,
        "Trump": None if deal.trump is None else SUIT_LETTERS[deal.trump],
        "Play": "; ".join(_trick_text(t) for t in deal.tricks) or None,
        "Scores": None if deal.scores is None else " ".join(str(s) for s in deal.scores),
    }
    return "".join(f'[{tag} "{values[tag]}"]\n' for tag in TAGS if values[tag] is not None)


def _trick_text(t: Trick) -> str:
    cards = [card_str(c) for c in t.cards]
    if t.marriage is not None:
        same = t.marriage == SUIT_LETTERS[t.cards[0] // 6]
        cards[0] += "*" if same else f"*{t.marriage}"
    won = "" if t.winner is None else f" >{t.winner}"
    return f"{t.leader}:" + " ".join(cards) + won


def parse_deals(text: str) -> list[DealRecord]:
    """Every deal of a text in the notation, in order.

    Raises:
        NotationError: a line that is not a tag pair, an unknown or repeated tag, a
            missing required tag or a value that cannot be read (the message names
            the deal, the tag and the culprit).
    """
    out = []
    for read in parse_each(text):
        if isinstance(read, NotationError):
            raise read
        out.append(read)
    return out


def parse_each(text: str) -> list[DealRecord | NotationError]:
    """Every deal of a text in the notation, or the error that refuses it, in order.

    What ``show --check`` lists: a deal that cannot be read does not hide the others.

    Raises:
        NotationError: a text holding no deal at all.
    """
    blocks: list[list[tuple[int, str]]] = [[]]
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            if blocks[-1]:
                blocks.append([])
            continue
        if stripped[0] in ";%":
            continue
        blocks[-1].append((number, stripped))
    deals = [b for b in blocks if b]
    if not deals:
        raise NotationError(_('no deal found: a deal is lines of [Tag "value"]'))
    out: list[DealRecord | NotationError] = []
    for k, b in enumerate(deals):
        try:
            out.append(_parse_block(b, k + 1))
        except NotationError as exc:
            out.append(exc)
    return out


def _parse_block(lines: list[tuple[int, str]], index: int) -> DealRecord:
    tags: dict[str, str] = {}
    for line_no, line in lines:
        m = TAG.match(line)
        if m is None:
            why = _('deal {deal}, line {line}: not a [Tag "value"] pair: {text}')
            raise NotationError(why.format(deal=index, line=line_no, text=repr(line)))
        tag = m.group("tag")
        if tag not in TAGS:
            why = _("deal {deal}, line {line}: unknown tag {tag}")
            raise NotationError(why.format(deal=index, line=line_no, tag=repr(tag)))
        if tag in tags:
            why = _("deal {deal}, line {line}: tag {tag} given twice")
            raise NotationError(why.format(deal=index, line=line_no, tag=repr(tag)))
        tags[tag] = m.group("value").strip()
    for tag in ("Rules", "Dealer", "Deal"):
        if tag not in tags:
            why = _("deal {deal}: the tag {tag} is missing")
            raise NotationError(why.format(deal=index, tag=repr(tag)))

    def fail(tag: str, why: str) -> NotationError:
        """The error of a tag's value: ``why`` says what is wrong (translated, formatted)."""
        return NotationError(_("deal {deal}, [{tag}]: {why}").format(deal=index, tag=tag, why=why))

    def number(tag: str) -> int | None:
        if tag not in tags:
            return None
        try:
            return int(tags[tag])
        except ValueError:
            why = _("a number is needed, got {value}")
            raise fail(tag, why.format(value=repr(tags[tag]))) from None

    def card(tag: str, text: str) -> int:
        try:
            return parse_card(text)
        except CardParseError as exc:
            raise fail(tag, str(exc)) from None

    def seat_pairs(tag: str) -> list[tuple[int, str]]:
        out = []
        for token in tags.get(tag, "").split():
            seat, sep, value = token.partition(":")
            if not sep or not seat.isdigit():
                raise fail(tag, _("SEAT:VALUE needed, got {value}").format(value=repr(token)))
            out.append((int(seat), value))
        return out

    parts = [p.strip() for p in tags["Deal"].split("/")]
    if len(parts) < 3:
        raise fail("Deal", _("every seat's cards, then the talon, separated by '/'"))
    try:
        places = [tuple(parse_cards(p)) if p != "-" else () for p in parts]
    except CardParseError as exc:
        raise fail("Deal", str(exc)) from None
    every = [c for p in places for c in p]
    if sorted(every) != list(range(N_CARDS)):
        missing = [answer_cards([c]) for c in range(N_CARDS) if c not in every]
        twice = sorted({answer_cards([c]) for c in every if every.count(c) > 1})
        why = _("each of the 24 cards once: missing {missing}, twice {twice}")
        raise fail("Deal", why.format(missing=missing, twice=twice))
    hands, talon = tuple(tuple(sorted(p)) for p in places[:-1]), places[-1]
    dealer = number("Dealer")
    assert dealer is not None
    if not 0 <= dealer < len(hands):
        raise fail(
            "Dealer", _("a seat 0..{last}, got {value}").format(last=len(hands) - 1, value=dealer)
        )
    reshuffle = None
    if "Reshuffle" in tags:
        who, _sep, reason = tags["Reshuffle"].partition(" ")
        if not who.isdigit() or not reason:
            why = _("'SEAT REASON' needed, got {value}")
            raise fail("Reshuffle", why.format(value=repr(tags["Reshuffle"])))
        reshuffle = (int(who), reason.strip())
    auction = []
    for seat, bid in seat_pairs("Auction"):
        passed = role_of(bid) == "pass"  # pass, пас, pas: as any language writes it
        if not passed and not bid.isdigit():
            raise fail("Auction", _("a bid or 'pass', got {value}").format(value=repr(bid)))
        auction.append((seat, None if passed else int(bid)))
    discards = [(to, card("Discards", c)) for to, c in seat_pairs("Discards")]
    tricks = []
    for text in filter(None, (t.strip() for t in tags.get("Play", "").split(";"))):
        leader, sep, rest = text.partition(":")
        if not sep or not leader.strip().isdigit():
            why = _("LEADER: and the cards needed, got {value}")
            raise fail("Play", why.format(value=repr(text)))
        tokens = rest.split()
        winner = None
        if tokens and tokens[-1].startswith(">"):
            if not tokens[-1][1:].isdigit():
                why = _("'>WINNER' needs a seat, got {value}")
                raise fail("Play", why.format(value=repr(tokens[-1])))
            winner = int(tokens.pop()[1:])
        if not tokens:
            raise fail("Play", _("a trick without cards: {value}").format(value=repr(text)))
        lead, star, declared = tokens[0].partition("*")
        cards = (card("Play", lead), *(card("Play", c) for c in tokens[1:]))
        marriage = (declared or SUIT_LETTERS[cards[0] // 6]) if star else None
        tricks.append(Trick(int(leader), cards, marriage, winner))
    trump = tags.get("Trump")
    if trump is not None and (len(trump) != 1 or trump.upper() not in SUIT_LETTERS):
        why = _("a suit letter S, C, D or H, got {value}")
        raise fail("Trump", why.format(value=repr(trump)))
    conceded = tags.get("Conceded")
    if conceded is not None and conceded.lower() != "yes":
        why = _("'yes' (or no tag: the declarer did not concede), got {value}")
        raise fail("Conceded", why.format(value=repr(conceded)))
    scores = None
    if "Scores" in tags:
        try:
            scores = tuple(int(s) for s in tags["Scores"].split())
        except ValueError:
            why = _("a number per seat, got {value}")
            raise fail("Scores", why.format(value=repr(tags["Scores"]))) from None
    return DealRecord(
        rules=tags["Rules"],
        dealer=dealer,
        hands=hands,
        talon=talon,
        rules_hash=tags.get("RulesHash"),
        deal_id=number("DealId"),
        attempt=number("Attempt"),
        reshuffle=reshuffle,
        special=tags.get("Special"),
        undarkened_by=number("Undarkened"),
        auction=tuple(auction),
        declarer=number("Declarer"),
        talon_pick=number("TalonPick"),
        discards=tuple(discards),
        contract=number("Contract"),
        conceded=conceded is not None,
        trump=None if trump is None else SUIT_LETTERS.index(trump.upper()),
        tricks=tuple(tricks),
        scores=scores,
    )


def check_rules(deal: DealRecord, rules: Any, index: int | None = None) -> None:
    """Refuse a deal that does not fit ``rules`` (:class:`sim.rules.Rules`).

    ``index`` (the deal's place in its file, from 1) names the deal in the message.
    Whether the deal could have happened under the rules is the replay's to say
    (:func:`sim.reference.replay.check_replay`, which the readers call next).

    Raises:
        NotationError: another rules hash, or hands and talon of other sizes.
    """
    try:
        _check_sizes(deal, rules)
    except NotationError as exc:
        if index is None:
            raise
        raise NotationError(_("deal {deal}, {problem}").format(deal=index, problem=exc)) from None


def _check_sizes(deal: DealRecord, rules: Any) -> None:
    """Refuse another rules hash, or hands and talon of other sizes than ``rules`` deal."""
    if deal.rules_hash is not None and deal.rules_hash != rules.rules_hash:
        why = _("[RulesHash]: the deal was dealt under rules {hash}, {rules} is {here} here")
        raise NotationError(
            why.format(hash=deal.rules_hash, rules=deal.rules, here=rules.rules_hash)
        )
    n = rules.players
    if deal.players != n:
        why = _("[Deal]: {n} seats under {rules}, the deal has {count}")
        raise NotationError(why.format(n=n, rules=rules.name, count=deal.players))
    size, talon = (10, 4) if n == 2 else (7, 3)
    for s, h in enumerate(deal.hands):
        want = 0 if n == 4 and s == deal.dealer else size
        if len(h) != want:
            why = _("[Deal]: seat {seat} must hold {want} cards, holds {count}")
            raise NotationError(why.format(seat=s, want=want, count=len(h)))
    if len(deal.talon) != talon:
        why = _("[Deal]: the talon must hold {want} cards, holds {count}")
        raise NotationError(why.format(want=talon, count=len(deal.talon)))
