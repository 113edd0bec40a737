"""The advisor's quick answer from the class tables alone, and what a page of one hand needs.

:func:`sim.jobs.advise.advise` samples deals: a second or the budget's seconds. The
class tables it starts from (:func:`sim.jobs.advise.class_tables`: every hand of
100,000 deals played as the declarer's, by marriages and aces) answer in a few
milliseconds once read: :func:`table_advice` gives exactly the ``table`` part of
``thousand advise --json`` for the same question, and checks the question as the
advisor does, so a page can show the tables' answer at once and refuse bad input
before the sampling starts (``thousand serve``). :func:`class_data` is the tables as
data a page embeds (the offline ``advisor.html`` of the report and the guide,
:func:`write_advisor_pages`), and :func:`layout` what such a page needs of the rules
(cards per hand, seats, bids)::

    from sim.jobs.advise import AdviseSpec
    from sim.jobs.table_advice import table_advice
    from sim.rules import load_rules

    spec = AdviseSpec(rules=load_rules("classic"), hand="AH TH KH QH AS 9C JD")
    print(table_advice(spec)["recommended"])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.i18n import _, role
from sim.jobs.advise import (
    TABLE_DEALS,
    TABLE_SEED,
    AdviseSpec,
    check_barrel_score,
    check_player,
    class_tables,
)
from sim.output import FieldError
from sim.players import DEFAULT, tables_player
from sim.rules import MAX_BID, OPENING_BID, Rules
from sim.runs.folder import QUIET, Feedback
from sim.table_text import hand_roles, read_auction, read_cards, read_seat

if TYPE_CHECKING:
    import polars as pl


@dataclass(frozen=True)
class Layout:
    """What a page about one hand needs of the rules.

    Attributes:
        rules: the rule set's name.
        hand_size: cards in a hand (7; 10 with two players).
        seats: the active hand seats from forehand (:func:`sim.table_text.hand_roles`).
        levels: every level a bid may name.
        step: the bid step; ``jumps``: whether a bid may jump several steps.
        opening: forehand's automatic first bid; ``max_bid``: the highest bid there is.
        marriage_values: each suit's marriage (♠ ♣ ♦ ♥); ``cap_by_marriages``: whether
            a hand may bid above 120 only by its marriages.
    """

    rules: str
    hand_size: int
    seats: tuple[str, ...]
    levels: tuple[int, ...]
    step: int
    jumps: bool
    opening: int
    max_bid: int
    marriage_values: tuple[int, int, int, int]
    cap_by_marriages: bool

    def json(self) -> dict[str, Any]:
        """The layout as JSON (a page's configuration)."""
        return {
            "rules": self.rules,
            "hand_size": self.hand_size,
            "seats": list(self.seats),
            "levels": list(self.levels),
            "step": self.step,
            "jumps": self.jumps,
            "opening": self.opening,
            "max_bid": self.max_bid,
            "marriage_values": list(self.marriage_values),
            "cap_by_marriages": self.cap_by_marriages,
        }


def layout(rules: Rules) -> Layout:
    """The page's view of ``rules`` (:class:`Layout`)."""
    from sim.engine.deal import place_sizes

    return Layout(
        rules=rules.name,
        hand_size=int(place_sizes(rules.players)[0]),
        seats=hand_roles(rules.players),
        levels=tuple(int(L) for L in rules.bid_levels()),
        step=rules.bid.step,
        jumps=rules.bid.jumps,
        opening=OPENING_BID,
        max_bid=MAX_BID,
        marriage_values=rules.marriage_values,
        cap_by_marriages=rules.bid.cap_by_marriages,
    )


@dataclass(frozen=True)
class ClassTables:
    """The class tables of one player under one rule set, read once (:func:`load_tables`).

    Attributes:
        rules: the rules they were played under.
        player: who played them (:func:`sim.players.tables_player` of the advisor).
        by_class: P(make L) by marriages and aces; ``by_marriages``: by marriages alone.
    """

    rules: Rules
    player: str
    by_class: pl.DataFrame
    by_marriages: pl.DataFrame


def load_tables(
    rules: Rules, advisor: str, feedback: Feedback = QUIET, workers: int | None = None
) -> ClassTables:
    """The class tables an advice by ``advisor`` starts from (built once per rule set).

    Building them plays compiled code (a second or two of every core, the first time
    only); reading them back does not.
    """
    owner = tables_player(check_player(advisor))
    by_class, by_marriages = class_tables(rules, owner, feedback, workers)
    return ClassTables(rules, owner, by_class, by_marriages)


def table_advice(spec: AdviseSpec, tables: ClassTables | None = None) -> dict[str, Any]:
    """The class tables' answer for ``spec``: the ``table`` part of ``thousand advise --json``.

    The question is checked as :func:`sim.jobs.advise.advise` checks it (the hand,
    seat, player, score and barrel, the auction and whose turn it is, the talon's
    cards), so a refusal comes before any sampling; the tables themselves know
    neither the seat nor the auction. ``tables``: the advisor's tables already read
    (:func:`load_tables`), else they are read (or built) here.

    Raises:
        FieldError: naming the spec's field, as the advisor would.
    """
    from analysis.advise import table_answer
    from analysis.advisor_page import table_json

    rules = spec.rules
    view = layout(rules)
    hand = read_cards("hand", spec.hand_text(), view.hand_size)
    seats = view.seats
    player = check_player(spec.player)
    if tables is None or tables.player != tables_player(player) or tables.rules != rules:
        tables = load_tables(rules, player, workers=spec.workers)
    check_barrel_score(rules, spec.barrel, spec.score)
    seat = None if spec.seat is None else read_seat(spec.seat, seats)
    over = spec.talon_shown is not None
    if spec.auction is not None:
        auction = read_auction(rules, spec.auction, len(seats), over=over)
        if not over and spec.talon is None and seat is not None and auction.next_seat != seat:
            why = _(
                "{field:auction}: it is {turn}'s turn after {auction}, not {seat}'s ({field:seat})"
            )
            raise FieldError("auction", why, turn=role(seats[auction.next_seat]),
                             auction=repr(spec.auction), seat=role(seats[seat]))  # fmt: skip
    if spec.talon is not None:
        read_cards("talon", spec.talon, 3, hand)
    if spec.talon_shown is not None:
        read_cards("talon_shown", spec.talon_shown, 3, hand)
    answer = table_answer(hand, spec.risk, tables.by_class, tables.by_marriages, tables.player,
                          TABLE_DEALS, TABLE_SEED)  # fmt: skip
    return table_json(answer)


def class_data(tables: ClassTables) -> dict[str, Any]:
    """The class tables as a page embeds them, every number as the tables hold it.

    ``{"player", "deals", "seed", "by_class": [{"marriages", "aces", "n", "levels":
    [[level, made, rate, ci_low, ci_high], ...]}], "by_marriages": [...]}``, each
    class's levels in order: what :func:`analysis.advise.table_answer` reads.
    """
    from analysis.advisor_page import class_rows

    return {
        "player": tables.player,
        "deals": TABLE_DEALS,
        "seed": TABLE_SEED,
        "by_class": class_rows(tables.by_class, ("marriages", "aces")),
        "by_marriages": class_rows(tables.by_marriages, ("marriages",)),
    }


def write_advisor_pages(
    rules: Rules,
    folder: Path,
    langs: Sequence[str] | None = None,
    feedback: Feedback = QUIET,
    workers: int | None = None,
) -> list[Path]:
    """Write the offline page to tap a hand (:func:`analysis.advisor_page.offline_page`).

    ``advisor.html`` in the current language, or with ``langs`` ``advisor-LANG.html``
    in each, linked to one another. It embeds the class tables of the default
    advisor's player (:func:`load_tables`: the same as ``thousand advise``'s) and
    answers from them in the browser, with no server and no network.
    """
    from analysis.advisor_page import write_advisor_page
    from sim.i18n import speaking

    data = class_data(load_tables(rules, DEFAULT, feedback, workers))
    view = layout(rules).json()
    if langs is None:
        return [write_advisor_page(folder, data, view)]
    links = {lang: f"advisor-{lang}.html" for lang in langs}
    written = []
    for lang in langs:
        with speaking(lang):
            written.append(write_advisor_page(folder, data, view, f"advisor-{lang}", links))
    return written
