"""The advisor's class tables, and what a page of one hand needs.

:func:`sim.jobs.advise.advise` samples deals for the hand asked about: a second or the
budget's seconds. Its class tables (:func:`load_tables`: every class of hand, its
marriages and aces, dealt on purpose at every seat and each choice in the auction
played out: :class:`ClassTables`) answer in a few milliseconds once read, by the same
rule (:func:`analysis.choices.best_choice`): the first answer of ``thousand serve``
(``advise(spec, sampled=False)``), the offline page (:func:`class_data`,
:func:`write_advisor_pages`), the player sheet and the guide all read them.
:func:`bidding_policy` is how the tables' player bids, read from an auction so far;
:func:`layout` what a page needs of the rules (cards per hand, seats, bids)::

    from sim.jobs.advice_tables import load_tables, table_of
    from sim.rules import load_rules

    tables = load_tables(load_rules("classic"), "strong")
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.cards import MARRIAGE_MASK
from sim.i18n import _, number, speaking
from sim.players import DEFAULT, PLAYERS, check_advisor, tables_player
from sim.rules import MAX_BID, OPENING_BID, Rules, hand_roles
from sim.runs.folder import QUIET, Feedback

if TYPE_CHECKING:
    import polars as pl

    from analysis.advise import TableAnswer
    from sim.runs.advise import AuctionPolicy


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


TABLE_HANDS = 2000
"""Hands dealt on purpose for each class and seat of the tables (:mod:`sim.runs.classes`)."""
TABLE_SEED = 1000
"""The tables' seed (and the auction readings')."""


@dataclass(frozen=True)
class ClassTables:
    """The class tables of one player under one rule set, read once (:func:`load_tables`).

    Every class of hand (its marriages and aces: :mod:`sim.runs.classes`) at every
    seat, :data:`TABLE_HANDS` hands of it dealt on purpose (seed :data:`TABLE_SEED`),
    each deal played once per bid plan of the seat (pass, or raise up to each level)
    with ``player`` at every seat, and once with the hand winning at its lowest raise.

    Attributes:
        rules: the rules they were played under.
        player: who played them (:func:`sim.players.tables_player` of the advisor).
        hands: hands per class and seat; ``seed``: their seed.
        choices: one row per class, seat and plan level (0: pass): ``marriages``
            (suit bitmask), ``aces``, ``seat`` (hand seat), ``level``, ``n``, the plan's
            margin ``mean``, ``low``, ``high``, its paired difference from the cell's
            best ``diff``, ``diff_low``, ``diff_high``, ``declared`` (the share of deals
            the seat won the auction), and P(make) of the level when the hand wins there
            ``p``, ``ci_low``, ``ci_high`` (null for passing).
        verdicts: one row per class and seat: ``marriages``, ``aces``, ``seat``, ``n``,
            ``best``, ``low``, ``high``, ``leaned`` (:func:`analysis.choices.best_choice`),
            ``class_hands`` (how many hands of the deck's hands the class holds: exact)
            and ``share`` (of all hands), ``dealt`` (``on purpose``: every class is),
            and the choice at the table as its player plays, every contract it goes down
            in played out: ``played_best``, ``played_low``, ``played_high``, and
            ``played_share``, the passing plan's deals another seat's concession changed.

    The tables' table concedes a contract it goes down in where that costs it less, as
    the advisor's does (:func:`analysis.choices.conceding_columns`): ``mean`` and the
    choice are at that table.
    """

    rules: Rules
    player: str
    hands: int
    seed: int
    choices: pl.DataFrame
    verdicts: pl.DataFrame


def _build_tables(rules: Rules, player: str, feedback: Feedback) -> tuple[pl.DataFrame, ...]:
    """Play every class at every seat (:class:`ClassTables`): its two frames."""
    import numpy as np
    import polars as pl

    from analysis.choices import TABLE_RISK, best_choice, choice_table, conceding_columns
    from analysis.safebids import items_frame
    from analysis.stats import wilson_interval
    from sim.engine.deal import n_hands, place_sizes
    from sim.runs.advise import hand_cap
    from sim.runs.classes import class_sizes, play_class

    sizes = class_sizes(int(place_sizes(rules.players)[0]))
    total = sum(sizes.values())
    seats = n_hands(rules.players)
    parts: list[pl.DataFrame] = []
    verdicts: list[dict[str, object]] = []
    with feedback.bar(len(sizes) * seats * TABLE_HANDS, "hand",
                      _("dealing every class of hand")) as bar:  # fmt: skip
        for (marriages, aces), count in sorted(sizes.items()):
            held = sum(int(MARRIAGE_MASK[s]) for s in range(4) if marriages >> s & 1)
            cap = hand_cap(rules, held)
            levels = [0, *(int(L) for L in rules.bid_levels() if 100 < L <= cap)]
            for seat in range(seats):
                cell = play_class(rules, marriages, aces, seat, levels, TABLE_HANDS, TABLE_SEED,
                                  player)  # fmt: skip
                cols = conceding_columns(rules, cell, seat)
                others = cols["yielded"][0] & (cell["declarer"][0] != seat)
                n = TABLE_HANDS
                made_to = items_frame(
                    rules, player, cell["dealt"], np.zeros(n, np.int64), np.arange(n),
                    cell["total"], cell["concede_from"],
                )["made_to"].to_numpy()  # fmt: skip
                made = np.array([(made_to >= L).sum() for L in levels])
                low, high = wilson_interval(made, np.full(len(levels), n))
                bids = np.array(levels) > 0
                ok = np.array(levels)[bids & (low >= TABLE_RISK)]
                safe = int(ok.max()) if ok.size else None
                table = choice_table(np.array(levels), cols["margin"])
                best = best_choice(table, safe)
                played = best_choice(choice_table(np.array(levels), cols["margin_played"]), safe)
                parts.append(table.with_columns(
                    pl.lit(marriages).alias("marriages"), pl.lit(aces).alias("aces"),
                    pl.lit(seat).alias("seat"),
                    pl.Series("declared", cols["declared"].mean(axis=1)),
                    pl.Series("p", np.where(bids, made / n, np.nan)).fill_nan(None),
                    pl.Series("ci_low", np.where(bids, low, np.nan)).fill_nan(None),
                    pl.Series("ci_high", np.where(bids, high, np.nan)).fill_nan(None),
                ))  # fmt: skip
                verdicts.append({
                    "marriages": marriages, "aces": aces, "seat": seat, "n": n,
                    "best": best.level, "low": best.low, "high": best.high,
                    "leaned": best.leaned,
                    "class_hands": count, "share": count / total, "dealt": "on purpose",
                    "played_best": played.level, "played_low": played.low,
                    "played_high": played.high, "played_share": float(others.mean()),
                })  # fmt: skip
                bar.update(TABLE_HANDS)
    keys = ["marriages", "aces", "seat"]
    choices = (
        pl.concat(parts).select(*keys, pl.exclude(keys)).with_columns(pl.col(keys).cast(pl.Int64))
    )
    return choices, pl.DataFrame(verdicts).with_columns(pl.col(keys).cast(pl.Int64))


def _code_digest(player: str) -> str:
    """A digest of the code the tables come from: their play, the player, their rule.

    The compiled play (:func:`sim.cache.module_digest` of :mod:`sim.runs.classes`, the
    player's module and weights) and the statistics that choose (this module and the
    analysis modules it reads): an edit of any builds the tables again.
    """
    import analysis.choices
    import analysis.safebids
    from sim.cache import module_digest

    digest = hashlib.sha256(module_digest("sim.runs.classes").encode())
    entry = PLAYERS[player].entry
    if entry is not None:
        digest.update(module_digest(entry.rpartition(".")[0]).encode())
    for module in (analysis.choices, analysis.safebids, sys.modules[__name__]):
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()[:20]


def load_tables(
    rules: Rules, advisor: str, feedback: Feedback = QUIET, workers: int | None = None
) -> ClassTables:
    """The class tables an advice by ``advisor`` starts from (built once per rule set).

    Kept under :func:`sim.cache.tables_root`, named by the rules, the player and a
    digest of the code that plays them (the engine, the plans, the player and its
    weights: an edit of any builds them again). Building them plays compiled code on
    every core (about 8 s for the classic rules on 2 cores); reading them back does not.
    """
    import polars as pl

    from sim.cache import kept
    from sim.parallel import set_threads

    owner = tables_player(check_advisor(advisor))
    name = f"{rules.rules_hash}-{owner}-choices-{TABLE_HANDS}-{TABLE_SEED}-{_code_digest(owner)}"

    def build() -> tuple[pl.DataFrame, ...]:
        why = _("building the class tables of {rules} for {player} once (a few seconds) ...")
        feedback.say(why.format(rules=rules.name, player=owner))
        set_threads(workers)
        return _build_tables(rules, owner, feedback)

    keys = ["marriages", "aces", "seat"]

    def read(path: Path) -> tuple[pl.DataFrame, ...]:
        try:  # one file: every row carries its cell's verdict
            both = pl.read_parquet(path)
        except pl.exceptions.PolarsError as exc:  # not a whole file
            raise ValueError(str(exc)) from None
        verdict = [*keys, "n", "best", "best_low", "best_high", "leaned", "class_hands", "share"]
        verdict += ["dealt", "played_best", "played_low", "played_high", "played_share"]
        cells = both.select(verdict).unique(keys, maintain_order=True)
        cells = cells.rename({"best_low": "low", "best_high": "high"})
        return both.drop(verdict[4:]), cells

    def write(frames: tuple[pl.DataFrame, ...], path: Path) -> None:
        cells = frames[1].drop("n").rename({"low": "best_low", "high": "best_high"})
        frames[0].join(cells, on=keys, how="left", maintain_order="left").write_parquet(path)

    choices, verdicts = kept(f"{name}.parquet", build, read, write)
    return ClassTables(rules, owner, TABLE_HANDS, TABLE_SEED, choices, verdicts)


def table_of(tables: ClassTables, hand: int, seat: int, risk: float) -> TableAnswer:
    """The tables' answer for ``hand`` at hand seat ``seat`` (``analysis.advise.table_answer``)."""
    from analysis.advise import table_answer

    names = hand_roles(tables.rules.players)
    return table_answer(hand, seat, names[seat], risk, tables.choices, tables.verdicts,
                        tables.player, tables.hands, tables.seed)  # fmt: skip


def bidding_policy(rules: Rules, player: str, feedback: Feedback = QUIET) -> AuctionPolicy:
    """How ``player`` bids (:func:`sim.runs.advise.auction_policy`), measured once per rule set.

    :data:`sim.runs.advise.POLICY_HANDS` hands of seed :data:`TABLE_SEED`, kept under
    :func:`sim.cache.tables_root` beside the class tables.
    """
    import numpy as np

    from sim.cache import kept, module_digest
    from sim.runs.advise import POLICY_HANDS, AuctionPolicy, auction_policy

    code = module_digest("sim.runs.advise")
    name = f"{rules.rules_hash}-{player}-policy-{POLICY_HANDS}-{TABLE_SEED}-{code}.npy"
    levels = (0, *rules.bid_levels())

    def build() -> np.ndarray:
        why = _("measuring how {player} bids under {rules} once ({hands} hands)")
        feedback.say(why.format(player=player, rules=rules.name, hands=number(POLICY_HANDS)))
        return auction_policy(rules, player, POLICY_HANDS, TABLE_SEED).counts

    def read(path: Path) -> np.ndarray:
        counts = np.load(path)
        if counts.shape[-1] != len(levels):
            raise ValueError(f"{path}: not this rule set's levels")
        return counts

    def write(counts: np.ndarray, path: Path) -> None:
        with path.open("wb") as f:
            np.save(f, counts)

    return AuctionPolicy(player, POLICY_HANDS, TABLE_SEED, levels, kept(name, build, read, write))


def class_data(tables: ClassTables) -> dict[str, Any]:
    """The class tables as a page embeds them (:func:`views.advisor_page.class_entries`).

    ``{"player", "deals", "seed", "classes": [...]}``: every class with its cell at
    every seat, the rule's choice there and each plan's margin and P(make), rounded as
    the page shows them.
    """
    from views.advisor_page import class_entries

    seats = hand_roles(tables.rules.players)
    return {
        "player": tables.player,
        "deals": tables.hands,
        "seed": tables.seed,
        "classes": class_entries(tables.choices, tables.verdicts, seats),
    }


def write_advisor_pages(
    rules: Rules,
    folder: Path,
    langs: Sequence[str] | None = None,
    feedback: Feedback = QUIET,
    workers: int | None = None,
) -> list[Path]:
    """Write the offline page to tap a hand (:func:`views.advisor_page.offline_page`).

    ``advisor.html`` in the current language, or with ``langs`` ``advisor-LANG.html``
    in each, linked to one another. It embeds the class tables of the default
    advisor's player (:func:`load_tables`: the same as ``thousand advise``'s) and
    answers from them in the browser, with no server and no network.
    """
    from views.advisor_page import write_advisor_page

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
