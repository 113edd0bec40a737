"""The show job: a deal in the deal notation, or of a ``hands --trace`` file, as a player reads it.

``thousand show FILE`` reads deals written in the notation (:mod:`sim.notation`) or the
JSON lines of ``hands --trace`` and prints each as a player would lay it out: the hands
by suit from forehand, the talon, the auction, the declarer's talon and discard, the
tricks and the score; ``--tdn`` prints the notation instead (a trace converted). The
``solve`` and ``advise`` jobs take a deal the same way (:func:`read_deals`,
:func:`pick`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sim.cards import N_RANKS, SUIT_SYMBOLS
from sim.i18n import N_, _, card_text, cards_text, rank_text, role
from sim.notation import (
    DealRecord,
    NotationError,
    check_rules,
    from_trace,
    parse_each,
    seat_labels,
)
from sim.notation import roles as _roles
from sim.output import UsageError, os_reason
from sim.reading import DEALS_MOST, read_text
from sim.rules import Rules, load_rules

RANK_ORDER = (5, 4, 3, 2, 1, 0)  # A 10 K Q J 9: the order a player sorts a suit in


def _read_text(path: str | Path) -> tuple[Path, str]:
    """The deal file's text: at most :data:`~sim.reading.DEALS_MOST` bytes of UTF-8."""
    p = Path(path)
    try:
        return p, read_text(p, DEALS_MOST)
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(
            _("{file}: cannot be read ({reason})").format(file=p, reason=os_reason(exc))
        ) from None


def _each_deal(path: str | Path, rules: str) -> list[tuple[DealRecord, Rules] | NotationError]:
    """Every deal of the file with its rules, checked (:func:`check_rules`), or its refusal.

    Raises:
        UsageError: a file that cannot be read, or rules that cannot be loaded.
        NotationError: a file holding no deal.
    """
    from sim.reference.replay import check_replay  # the reference engine: only when read

    p, text = _read_text(path)
    out: list[tuple[DealRecord, Rules] | NotationError] = []
    if text.lstrip().startswith("{"):  # JSON lines of hands --trace
        loaded = load_rules(rules)
        index = 0
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            index += 1
            try:
                trace = json.loads(line)
                deal = from_trace(trace, rules, loaded.rules_hash)
            except (ValueError, KeyError, TypeError) as exc:
                why = _("{file}, line {line}: not a hand trace ({reason})")
                out.append(NotationError(why.format(file=p, line=number, reason=exc)))
                continue
            try:
                check_rules(deal, loaded, index)
                check_replay(deal, loaded, index)
                out.append((deal, loaded))
            except NotationError as exc:
                out.append(exc)
        return out
    cache: dict[str, Rules] = {}
    for index, read in enumerate(parse_each(text), start=1):
        if isinstance(read, NotationError):
            out.append(read)
            continue
        if read.rules not in cache:
            cache[read.rules] = load_rules(read.rules)
        try:
            check_rules(read, cache[read.rules], index)
            check_replay(read, cache[read.rules], index)
            out.append((read, cache[read.rules]))
        except NotationError as exc:
            out.append(exc)
    return out


def read_deals(path: str | Path, rules: str = "classic") -> list[tuple[DealRecord, Rules]]:
    """Every deal of a file in the notation, or of a ``hands --trace`` file, with its rules.

    A trace carries no rules: ``rules`` names them (its run's ``--rules``). A deal in
    the notation names its own and is checked against them: the hash, the sizes, and
    a replay of every recorded move under the rules (:func:`check_rules`,
    :func:`~sim.reference.replay.check_replay`).

    Raises:
        UsageError: a file that cannot be read.
        NotationError: the first deal that cannot be read, does not fit its rules or
            cannot have happened under them.
    """
    out = []
    for read in _each_deal(path, rules):
        if isinstance(read, NotationError):
            raise read
        out.append(read)
    return out


def check_file(path: str | Path, rules: str = "classic") -> tuple[int, list[str]]:
    """``show --check``: how many deals the file holds and every problem, one line each.

    Each deal is read and replayed on its own (:func:`check_replay`), so one bad deal
    hides no other: an imported file can be cleaned in one pass.

    Raises:
        UsageError: a file that cannot be read.
        NotationError: a file holding no deal.
    """
    each = _each_deal(path, rules)
    return len(each), [str(x) for x in each if isinstance(x, NotationError)]


def pick(
    deals: list[tuple[DealRecord, Rules]], number: int | None
) -> list[tuple[DealRecord, Rules]]:
    """The deals numbered ``number`` (every one for None).

    A deal's number is its ``DealId`` (a redealt deal's attempts share it), else its
    place in the file from 0.

    Raises:
        UsageError: no deal of that number.
    """
    if number is None:
        return deals
    chosen = [
        (d, r)
        for k, (d, r) in enumerate(deals)
        if (d.deal_id if d.deal_id is not None else k) == number
    ]
    if not chosen:
        raise UsageError(
            _("--deal {number}: no deal of that number in the file").format(number=number)
        )
    return chosen


def played(deals: list[tuple[DealRecord, Rules]], number: int | None) -> tuple[DealRecord, Rules]:
    """The one deal ``number`` names, the attempt that was played (the last one).

    Raises:
        UsageError: no deal of that number, or several deals and no ``number``.
    """
    chosen = pick(deals, number)
    ids = {d.deal_id if d.deal_id is not None else k for k, (d, _) in enumerate(chosen)}
    if len(ids) > 1:
        why = _("the file holds {count} deals: name one with --deal")
        raise UsageError(why.format(count=len(ids)))
    return chosen[-1]


def _suit_line(cards: tuple[int, ...]) -> str:
    parts = []
    for suit in (0, 1, 2, 3):
        ranks = [c % N_RANKS for c in cards if c // N_RANKS == suit]
        if ranks:
            text = " ".join(rank_text(r) for r in RANK_ORDER if r in ranks)
            parts.append(f"{SUIT_SYMBOLS[suit]} {text}")
    return "  ".join(parts) or "—"


REASONS = {
    "hand_points_below": N_("too few points in the hand"),
    "hand_nines": N_("nines in the hand"),
    "hand_four_jacks": N_("four jacks in the hand"),
    "talon_points_below": N_("too few points in the talon"),
    "talon_two_nines": N_("two nines in the talon"),
    "talon_three_jacks": N_("three jacks in the talon"),
    "after_discard_four_nines": N_("four nines after the discard"),
    "after_discard_points_below": N_("too few points after the discard"),
}
"""The reshuffle reasons of the trace (``reshuffle_reason``) in words, to translate."""


def deal_text(deal: DealRecord, rules: Rules) -> str:
    """The deal as a player reads it: hands, talon, auction, discard, tricks, score.

    In the current language (:mod:`sim.i18n`), cards in its notation.
    """
    head = _("Deal {number}").format(number=deal.deal_id) if deal.deal_id is not None else _("Deal")
    if deal.attempt:
        head += _(", redeal {attempt}").format(attempt=deal.attempt)
    lines = [
        _("{deal} — rules {rules} ({hash}), dealer: seat {dealer}").format(
            deal=head, rules=rules.name, hash=rules.rules_hash, dealer=deal.dealer
        )
    ]
    names = seat_labels(deal)
    roles = _roles(deal)

    def who(s: int) -> str:
        return role(roles[s])

    order = deal.hand_seats()
    if deal.players == 4:
        order = [*order, deal.dealer]
    talon_name = _("talon")
    width = max(len(talon_name), *(len(names[s]) for s in order))
    for s in order:
        held = deal.hands[s]
        lines.append(f"  {names[s]:<{width}}  {_suit_line(held) if held else _('sits out')}")
    lines.append(f"  {talon_name:<{width}}  {cards_text(deal.talon)}")
    if deal.reshuffle is not None:
        seat, reason = deal.reshuffle
        lines.append(
            _("Redealt: {seat} asked for a reshuffle ({reason}).").format(
                seat=who(seat), reason=_(REASONS[reason]) if reason in REASONS else reason
            )
        )
        return "\n".join(lines) + "\n"
    if deal.special == "golden":
        lines.append(_("A golden deal."))
    elif deal.special == "dark":
        lines.append(_("A dark deal."))
    if deal.auction:
        bids = ", ".join(f"{who(s)} {role('pass') if b is None else b}" for s, b in deal.auction)
        lines.append(_("Auction: {bids}.").format(bids=bids))
    if deal.declarer is None:
        return "\n".join(lines) + "\n"
    gives = _(" and ").join(
        _("{card} to {seat}").format(card=card_text(c), seat=who(to)) for to, c in deal.discards
    )
    # two players laying two cards away (talon.two_players = "discard"): to the declarer
    laid = bool(deal.discards) and all(to == deal.declarer for to, _c in deal.discards)
    parts = []
    if deal.talon_pick is not None:
        parts.append(_("takes talon {number}").format(number=deal.talon_pick + 1))
    if laid:
        laid_cards = _(" and ").join(card_text(c) for _to, c in deal.discards)
        parts.append(_("lays away {cards}").format(cards=laid_cards))
    else:
        parts.append(_("gives {cards}").format(cards=gives) if gives else _("gives nothing"))
    if deal.trump is not None:
        parts.append(_("names {suit} trump").format(suit=SUIT_SYMBOLS[deal.trump]))
    lines.append(
        _("{seat} declares: {what}; contract {contract}.").format(
            seat=who(deal.declarer).capitalize(), what=", ".join(parts), contract=deal.contract
        )
    )
    if deal.conceded:
        lines.append(
            _("{seat} concedes {contract}.").format(
                seat=who(deal.declarer).capitalize(), contract=deal.contract
            )
        )
    for k, t in enumerate(deal.tricks, start=1):
        cards = [card_text(c) for c in t.cards]
        if t.marriage is not None:
            cards[0] += " (" + (_("marriage") if t.marriage != "A" else _("ace marriage")) + ")"
        won = "" if t.winner is None else f" → {who(t.winner)}"
        lines.append(f"  {k:>2}. {who(t.leader)}: {', '.join(cards)}{won}")
    if deal.scores is not None:
        scores = ", ".join(f"{who(s)} {v:+d}" for s, v in enumerate(deal.scores))
        lines.append(_("Scores of the deal: {scores}.").format(scores=scores))
    return "\n".join(lines) + "\n"


def solve_inputs(deal: DealRecord) -> tuple[list[int], list[int], int, dict[str, Any] | None]:
    """The deal in the solver's terms, as ``thousand solve --run`` takes a run's deal.

    The hand masks from forehand, the talons, the declarer's hand seat and, for a
    played deal, the discard it made (None otherwise).

    Raises:
        UsageError: a deal with no declarer taking the talon (redealt, or not played).
    """
    seats = deal.hand_seats()
    hands = [sum(1 << c for c in deal.hands[s]) for s in seats]
    t = deal.talon
    halves = [t] if len(seats) == 3 else [t[:2], t[2:]]  # two players: two talons
    talons = [sum(1 << c for c in half) for half in halves]
    if deal.declarer is None or deal.reshuffle is not None or deal.special == "dark":
        return hands, talons, 0, None
    made = {
        "talon": deal.talon_pick or 0,
        "gives": tuple(c for _, c in deal.discards),
        "trump": -1 if deal.trump is None else deal.trump,
        "contract": deal.contract,
    }
    return hands, talons, seats.index(deal.declarer), made
