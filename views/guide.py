"""The guide in words: its sections, answers, charts and pages, in the current language."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis.guide import (
    ACE_CLASSES,
    GUIDE_PLAYER,
    MARRIAGE_CLASSES,
    GuideTables,
    chart_rows,
    choice_levels,
)
from analysis.safebids import RISKS
from sim.i18n import N_, _, n_, number, role
from sim.rules import hand_roles
from views.numbers import interval, numbers, signed, signed_numbers
from views.odds import odds_words

MARRIAGE_SUITS = {"spades": "♠", "clubs": "♣", "diamonds": "♦", "hearts": "♥"}


# The words shown for the code values of the guide's tables (the CSV files keep the codes).
SPECIAL_WORDS = {"golden deals": N_("golden deals"), "dark deals": N_("dark deals")}


BETTER_WORDS = {"play": N_("play on"), "concede": N_("concede")}


# --- the pages ----------------------------------------------------------------------------
def marriage_words(m: str) -> str:
    """A marriage class of the guide (:data:`MARRIAGE_CLASSES`) in words, translated."""
    if m == "none":
        return _("no marriage")
    if m == "two":
        return _("two marriages or more")
    return _("{suits} marriage").format(suits=MARRIAGE_SUITS[m])


def seat_words(k: int) -> str:
    """A seat counted from the first dealer (0) to the left, in words, translated."""
    if k == 0:
        return _("first dealer")
    return _("{k} to the first dealer's left").format(k=k)


def _rate(p: float | None, lo: float | None, hi: float | None, places: int = 3) -> str:
    """A rate with its interval, ``0.572 [0.565, 0.579]`` (three decimals), ``—`` if none."""
    if p is None or p != p or lo is None or hi is None:
        return "—"
    return numbers(p, lo, hi, places)


def _chart_display(guide: GuideTables) -> pl.DataFrame:
    from views.safebids import class_words

    t = guide.bid_chart.filter(pl.col("player") == GUIDE_PLAYER).filter(pl.col("n") >= 30)

    def level(v: Any) -> str:
        return "—" if v is None else str(v)

    return pl.DataFrame(
        {
            N_("hand before the talon"): [class_words(m) for m in t["marriages"]],
            N_("hands"): t["n"],
            **{
                _("safe at {risk} %").format(risk=round(r * 100)): [
                    level(v) for v in t[f"safe_{round(r * 100)}"]
                ]
                for r in RISKS
            },
        }
    )


def _numbers(values: Any, places: int) -> list[str]:
    """Numbers of a column as the language writes them (``—`` for none)."""
    return ["—" if v is None or v != v else number(v, places) for v in values]


def _talon_displays(guide: GuideTables) -> list[tuple[str, str, pl.DataFrame, str, pl.DataFrame]]:
    """The talon section's tables: (title, note, shown, CSV name, data)."""
    from views.pages import interval_column

    measured = N_("measured [95 %]")
    tp = guide.talon_points
    out = [
        (
            _("Talon points by the hand's points"),
            "",
            pl.DataFrame(
                {
                    N_("hand points"): tp["points_band"],
                    N_("hands"): tp["n"],
                    measured: interval_column(tp, "measured", "ci_low", "ci_high", measured),
                    N_("exact"): _numbers(tp["exact"], 2),
                }
            ),
            "guide_talon_points.csv",
            tp,
        )
    ]
    comp = guide.completion
    if len(comp):
        shown = pl.DataFrame(
            {
                N_("lone kings and queens"): comp["lone_halves"],
                N_("hands"): comp["n"],
                measured: interval_column(comp, "measured", "ci_low", "ci_high", measured),
                N_("exact"): _numbers(comp["exact"], 4),
            }
        )
        title = _("Chance the talon completes a half-marriage")
        out.append((title, "", shown, "guide_completion.csv", comp))
    for rows, heading, title, note, csv in (
        (
            guide.talon_reshuffle,
            N_("condition"),
            _("The talon's reshuffle conditions"),
            _("From the odds run of the same rules."),
            "guide_talon_reshuffle.csv",
        ),
        (
            guide.musik,
            N_("the talon"),
            _("What the talon holds"),
            _("From the odds run of the same rules; with two talons, the one taken."),
            "guide_musik.csv",
        ),
    ):
        if len(rows):
            out.append((title, note, _odds_display(rows, heading), csv, rows))
    return out


def _odds_display(rows: pl.DataFrame, heading: str) -> pl.DataFrame:
    """Odds rows of the guide as shown: each key in words, simulated and exact."""
    from views.pages import interval_column

    simulated = N_("simulated [95 %]")
    return pl.DataFrame(
        {
            heading: [odds_words(k) for k in rows["key"]],
            simulated: interval_column(rows, "estimate", "ci_low", "ci_high", simulated),
            N_("exact"): _numbers(rows["exact"], 4),
        }
    )


def _discards_display(d: pl.DataFrame) -> pl.DataFrame:
    """The gives of lone kings and queens as shown: rates and costs with their intervals."""
    return pl.DataFrame(
        {
            N_("suit"): d["suit"],
            N_("gives"): d["gives"],
            N_("receiver held the partner"): [
                _rate(*r)
                for r in zip(d["receiver_held"], d["held_low"], d["held_high"], strict=True)
            ],
            N_("exact"): _numbers(d["exact_held"], 3),
            N_("receiver declared it"): [
                _rate(*r)
                for r in zip(d["declared"], d["declared_low"], d["declared_high"], strict=True)
            ],
            N_("cost per give (points)"): [
                _rate(*r, places=1)
                for r in zip(d["cost"], d["cost_low"], d["cost_high"], strict=True)
            ],
        }
    )


def _concede_display(c: pl.DataFrame) -> pl.DataFrame:
    """The concession table as shown: every 20 points, its words translated."""
    from views.pages import interval_column

    make = N_("P(make) [95 %]")
    c = c.with_columns(interval_column(c, "p_make", "ci_low", "ci_high", make))
    c = c.filter(pl.col("contract") % 20 == 0)
    return pl.DataFrame(
        {
            N_("marriages kept"): [marriage_words(m) for m in c["kept"]],
            N_("contract"): c["contract"],
            N_("hands"): c["n"],
            make: c[make],
            N_("if played"): [signed(v, 1) for v in c["play"]],
            N_("if conceded"): [signed(v, 1) for v in c["concede"]],
            N_("better"): [_(BETTER_WORDS[b]) for b in c["better"]],
        },
        schema={
            N_("marriages kept"): pl.String,
            N_("contract"): pl.Int64,
            N_("hands"): pl.Int64,
            make: pl.String,
            N_("if played"): pl.String,
            N_("if conceded"): pl.String,
            N_("better"): pl.String,
        },
    )


def _specials_display(guide: GuideTables) -> pl.DataFrame:
    """Golden and dark deals per game, or that they are off, in words."""
    games, rules = guide.runs.games, guide.runs.rules
    n = len(games)
    column = {"golden deals": "golden_deals", "dark deals": "dark_deals"}
    on = {"golden deals": rules.golden.enabled, "dark deals": rules.dark.enabled}
    deals, per_game, notes = [], [], []
    for row in guide.specials.iter_rows(named=True):
        deals.append(_(SPECIAL_WORDS[row["deal"]]))
        if not on[row["deal"]]:
            per_game.append("—")
            notes.append(_("off under these rules"))
        else:
            count = int(games[column[row["deal"]]].sum())
            per_game.append("—" if row["per_game"] is None else number(row["per_game"], 3))
            games_text = n_("{count} in {games} game", "{count} in {games} games", n)
            notes.append(games_text.format(count=number(count), games=number(n)))
    return pl.DataFrame({N_("deals"): deals, N_("per game"): per_game, N_("note"): notes})


# --- values as the page for players shows them (and the guide's tables of its numbers) ----
MIN_HANDS = 30
"""A class of the safe-bid chart with fewer hands shows no level."""


NBSP = "\u00a0"
"""Joins the parts of one value (``89 % [88, 89]``), so that a line never breaks inside it."""


def keep(text: str) -> str:
    """``text`` with its spaces made non-breaking: one value, on one line wherever shown."""
    return text.replace(" ", NBSP)


def share_text(p: float | None, low: float | None, high: float | None) -> str:
    """A share in whole percent with its interval, unbreakable: ``28 % [25, 31]``.

    The interval is rounded outward (its lower end down, its upper end up), so that it
    still holds what it held: a level whose lower end falls short of 75 % by a hair
    shows 74, not 75, beside the level that reaches it.
    """
    if p is None or low is None or high is None or p != p:
        return "—"
    down = math.floor(100 * low + 1e-9)  # 1e-9: 0.29 * 100 is 28.999999999999996
    up = math.ceil(100 * high - 1e-9)
    return keep(interval(f"{number(100 * p)} %", number(down), number(up)))


def points_text(
    v: float | None, low: float | None, high: float | None, places: int = 1, signed: bool = False
) -> str:
    """Points with their interval, unbreakable: ``15.1 [9.0, 21.2]`` (``+15.1`` signed)."""
    if v is None or low is None or high is None or v != v:
        return "—"

    if signed:
        return keep(signed_numbers(v, low, high, places))
    return keep(numbers(v, low, high, places))


def tight(text: str) -> str:
    """``text`` with a number and its per cent sign kept together (``75 %``, ``95 %``)."""
    return re.sub(r"(\d) %", "\\1" + NBSP + "%", text)


def marriage_short(marriage: str) -> str:
    """A marriage class as the chart's rows name it: ``♥``, ``two or more``, ``none``."""
    if marriage == "two":
        return _("two or more")
    if marriage == "none":
        return _("none")
    return MARRIAGE_SUITS[marriage]


def bid_table(guide: GuideTables) -> pl.DataFrame:
    """The safe-bid chart as shown: marriages, aces, safe level, its make rate, the next's.

    How safe a bid is, not how high to bid (:func:`bid_choices_table` is that). Headed in
    the current language; a class of fewer than :data:`MIN_HANDS` hands shows dashes, a
    class that makes no level at the risk a dash as its level. Each rate with its
    interval is one unbreakable value; the next level's cell (``130: 78 % [74, 81]``) may
    break after its level.
    """
    risk = round(guide.runs.risk * 100)
    heads = tuple(
        tight(h)
        for h in (
            _("marriages"),
            _("aces"),
            _("safe at {risk} %").format(risk=risk),
            _("makes it [95 %]"),
            _("the next level"),
        )
    )
    cols: dict[str, list[str]] = {h: [] for h in heads}
    for r in chart_rows(guide):
        few = r["n"] < MIN_HANDS
        nxt = r["next_level"]
        rate = share_text(r["next_rate"], r["next_low"], r["next_high"])
        values = (
            marriage_short(r["marriage"]),
            "2+" if r["aces"] == 2 else str(r["aces"]),
            "—" if few or r["level"] is None else str(r["level"]),
            "—" if few else share_text(r["rate"], r["ci_low"], r["ci_high"]),
            "—" if few or nxt is None else f"{nxt}: {rate}",
        )
        for h, v in zip(heads, values, strict=True):
            cols[h].append(v)
    return pl.DataFrame(cols, schema=dict.fromkeys(cols, pl.String))


def _events_display(guide: GuideTables) -> pl.DataFrame:
    """The events table as shown: each measure in words, its value and interval."""
    shown = {
        "forehand_100": (N_("forehand plays its forced 100, share of deals"), None),
        "forehand_100_made": (N_("forehand makes it, share of those deals"), None),
        "forehand_100_score": (N_("forehand's mean score in those deals"), 1),
        "bolt_share": (N_("players of a deal who get a bolt"), None),
        "bolt_penalties_per_game": (N_("bolt penalties per game"), 2),
        "bolt_points_per_game": (N_("points lost to bolt penalties per game"), 0),
        "samosvals_per_game": (N_("555 resets (samosval) per game"), 2),
        "games_with_samosval": (N_("games with a 555 reset"), None),
    }
    what, values, over = [], [], []
    for r in guide.events.iter_rows(named=True):
        words, places = shown[r["measure"]]
        what.append(_(words))
        if places is None:
            values.append(share_text(r["value"], r["ci_low"], r["ci_high"]))
        else:  # a score has its sign; counts and points lost do not
            signed = r["measure"] == "forehand_100_score"
            values.append(points_text(r["value"], r["ci_low"], r["ci_high"], places, signed))
        over.append(number(r["n"]))
    return pl.DataFrame(
        {N_("measure"): what, N_("value [95 %]"): values, N_("measured over"): over}
    )


def _seats_display(guide: GuideTables) -> pl.DataFrame:
    """Who wins, by seat from the first dealer, with its interval and the fair share."""
    from views.pages import interval_column

    s = guide.seats
    wins = N_("wins [95 %]")
    return pl.DataFrame(
        {
            N_("seat"): [seat_words(k) for k in range(len(s))],
            N_("games"): s["games"],
            wins: interval_column(s, "share", "ci_low", "ci_high", wins),
            N_("fair"): _numbers(s["fair"], 3),
        }
    )


def duel_sentence(summary: pl.DataFrame, deals: int, seed: int) -> str:
    """One sentence on the guide player's duplicate duel against :data:`GUIDE_PLAYER`."""
    row = summary.filter(pl.col("measure") == "score_diff").row(0, named=True)
    d, lo, hi = row["value"], row["ci_low"], row["ci_high"]
    if lo > 0:
        verdict = _("the guide does at least as well as `{player}`")
    elif hi < 0:
        verdict = _("the guide does worse than `{player}`")
    else:
        verdict = _("the guide does at least as well as `{player}` (the interval holds 0)")
    return _(
        "Played by these tables alone (the `guide` player: it bids up to the choice of the "
        "best margin of its class, the chart below, and concedes by the concession table; "
        "its card play and discards are `{player}`'s), a duplicate duel against `{player}` "
        "over {deals} deals (seed {seed}) gives {diff} points per deal: {verdict}."
    ).format(
        player=GUIDE_PLAYER,
        deals=number(deals),
        seed=seed,
        diff=signed_numbers(d, lo, hi, 2),
        verdict=verdict.format(player=GUIDE_PLAYER),
    )


def chart_levels(guide: GuideTables, marriage: str) -> str:
    """The ``guide`` player's levels of a marriage class by 0 / 1 / 2+ aces (``pass / 125``)."""
    chart = {(r["marriage"], r["aces"]): r["level"] for r in guide.guide_bids.iter_rows(named=True)}
    return " / ".join(
        role("pass") if not chart.get((marriage, a)) else str(chart[(marriage, a)])
        for a in ACE_CLASSES
    )


def guide_answer(guide: GuideTables, duel: pl.DataFrame | None = None) -> str:
    """The guide in one sentence: how high to bid (the best margin's), concessions, its duel.

    The levels are the ``guide`` player's chart (:func:`guide_bids`: the class tables'
    choices pooled over its classes and the seats), which its duel plays.
    """
    runs = guide.runs
    chart = ", ".join(f"{marriage_words(m)}: {chart_levels(guide, m)}" for m in MARRIAGE_CLASSES)
    conceding = guide.concede.filter(pl.col("better") == "concede")
    concede = (
        _("conceding never scores more than playing")
        if conceding.is_empty()
        else n_(
            "conceding scores more than playing in {cases} of {total} case of the concession table",
            "conceding scores more than playing in {cases} of {total} cases of the concession "
            "table",
            len(guide.concede),
        ).format(cases=len(conceding), total=len(guide.concede))
    )
    text = _(
        "Played out with `{player}` at every seat, every declarer that goes down conceding where "
        "that costs it less, and every class of hand dealt {hands} times at each seat: the "
        "level to bid up to is the one of the best margin (your deal score minus the others' "
        "mean); with 0 / 1 / 2+ aces, the seats pooled, it is {chart}; {concede}"
    ).format(player=GUIDE_PLAYER, hands=number(runs.table_hands), chart=chart, concede=concede)
    if duel is not None:
        row = duel.filter(pl.col("measure") == "score_diff").row(0, named=True)
        text += _(
            "; played by these tables alone it scores {diff} points per deal against `{player}`"
        ).format(
            diff=signed_numbers(row["value"], row["ci_low"], row["ci_high"], 2),
            player=GUIDE_PLAYER,
        )
    return text + "."


def guide_sections(
    guide: GuideTables, duel: pl.DataFrame | None = None, duel_deals: int = 0, duel_seed: int = 0
) -> list[Any]:
    """The guide's sections (:class:`views.pages.Section`), in reading order."""
    from views.advisor_page import WORDS, glance_frame
    from views.pages import Section, Text
    from views.plots import plot_safe_curves

    runs = guide.runs
    rules = runs.rules
    deals = len(np.unique(runs.items["deal"]))
    need = rules.game.target - rules.barrel.at + (1 if rules.game.target_strict else 0)

    bid = Section("guide-bids", _("How high to bid"))
    seats = " / ".join(role(seat) for seat in hand_roles(rules.players))
    bid.blocks.append(
        Text(
            _(
                "Each choice in the auction, pass or bid up to a level (raise to the lowest "
                "raise open while it is at most that level), played out on the same deals by "
                "`{player}` at every seat (seed {seed}), every declarer that goes down "
                "conceding where that costs it less. `thousand advise`, `thousand serve` and "
                "the offline page to tap a hand answer from these tables by the same rule; "
                "`guide_bid_choices.csv` adds each choice's margin and its chance to make the "
                "level, with their intervals, and the levels as good as the choice (within "
                "its interval)."
            ).format(player=GUIDE_PLAYER, seed=runs.table_seed)
        )
    )
    bid.add_table(
        _(WORDS["glance"]).format(seats=seats),
        _(WORDS["glance_note"]).format(deals=number(runs.table_hands)),
        glance_frame(choice_levels(guide.bid_choices)),
        "guide_bid_choices.csv",
        guide.bid_choices,
    )
    bid.blocks.append(
        Text(
            _(
                "How safe a bid is, which is not how high to bid: every dealt hand of {deals} "
                "deals (seed {seed}) played as the declarer's by `{player}` at every seat: "
                "talon, discard, its own contract and the play. A hand makes a level when its "
                "deal total reaches it and the player would not concede it; the safe bid is the "
                "highest level whose 95 % lower bound reaches the risk (— none). It weighs "
                "neither what passing scores nor what the others make; the choice above does."
            ).format(deals=number(deals), seed=runs.seed, player=GUIDE_PLAYER)
        )
    )
    bid.add_table(
        _("Safe bids: the highest level made at 50 / 75 / 90 %"),
        _(
            "Measured with `{player}` at every seat. Full curves with intervals: "
            "`guide_bid_curve.csv`."
        ).format(player=GUIDE_PLAYER),
        _chart_display(guide),
        "guide_bid_chart.csv",
        guide.bid_chart,
    )
    bid.csvs["guide_bid_curve.csv"] = guide.bid_curve
    bid.add_table(
        _("Safe bids by marriages and aces at {risk} %").format(risk=round(runs.risk * 100)),
        _(
            "The `guide` player's classes: the highest level made at that rate with its make "
            "rate, and the next level's. How safe, not how high to bid."
        ),
        bid_table(guide),
        "guide_bid_classes.csv",
        guide.bid_classes,
    )
    bid.add_figure(
        "guide_bid_curves.png",
        plot_safe_curves(guide.bid_curve, rules.name),
        _("P(make L) by bid level and marriage, 95 % bands"),
    )

    talon = Section("guide-talon", _("What the talon brings"))
    talon.blocks.append(
        Text(
            _(
                "The talon's cards are drawn from the cards the bidder cannot see, so some of "
                "its value is exact: its expected points are talon size × (120 − hand points) "
                "/ unseen cards, and each lone king or queen finds its partner in the talon "
                "with a fixed chance. Measured columns: the talons of the same deals."
            )
        )
    )
    for title, note, shown, csv, data in _talon_displays(guide):
        talon.add_table(title, note, shown, csv, data)

    give = Section("guide-discards", _("What to give away"))
    if len(guide.discards):
        give.blocks.append(
            Text(
                _(
                    "Giving a king or queen whose partner you do not hold hands an opponent "
                    "half a marriage: the partner is with the receiver exactly half the time "
                    "(the 14 cards you cannot see are split 7 and 7). The table measures how "
                    "often the receiver then declared it, in hands played by `{player}` at "
                    "every seat in ordinary auctions, and what that cost on average per such "
                    "give (the marriage's value times the rate). Keep marriages together, and "
                    "give lone kings and queens of cheap suits before dear ones."
                ).format(player=GUIDE_PLAYER)
            )
        )
        give.add_table(
            _("Giving a lone king or queen"),
            "",
            _discards_display(guide.discards),
            "guide_discards.csv",
            guide.discards,
        )
    else:
        give.blocks.append(Text(_("No such gives in these hands (or not three players).")))

    concede = Section("guide-concede", _("When to concede"))
    limits = "; ".join(
        "{}: {}".format(
            marriage_words(m), _("never") if v >= 400 else _("above {level}").format(level=v)
        )
        for m, v in guide.concede_above.items()
    )
    concede.blocks.append(
        Text(
            _(
                "Expected score of playing against conceding, relative to the opponents (your "
                "score minus their mean), by the marriages kept after the discard and the "
                "contract, from the same hands played by `{player}` at every seat. Playing "
                "scores `L (2p − 1)` minus the opponents' measured points; conceding scores "
                "{lose} minus what each opponent is given ({given}). Concede only where "
                "conceding is better: {limits}."
            ).format(
                player=GUIDE_PLAYER,
                lose="0" if rules.rospis.no_subtract else "−L",
                given="60" if rules.rospis.opponents_get == "sixty" else _("half the contract"),
                limits=limits,
            )
        )
    )
    concede.add_table(
        _("Playing or conceding"),
        _("Every 20 points shown; all levels in the CSV."),
        _concede_display(guide.concede),
        "guide_concede.csv",
        guide.concede,
    )

    table = Section("guide-barrel", _("The barrel, golden and dark deals, seats"))
    b = guide.barrel.row(0, named=True)
    barrel_words = _("There is no barrel under these rules.")
    if rules.barrel.at > 0:
        barrel_words = _(
            "On the barrel only a made contract of {need} or more wins, and a failed contract "
            "costs nothing there: bid and name at least that much whenever your cap allows. "
            "In {games} games of `{player}` at every seat, players climbed onto the barrel "
            "{climbs} times a game and {share} of the climbs ended in a fall."
        ).format(
            need=need,
            games=number(b["games"]),
            player=GUIDE_PLAYER,
            climbs=number(b["climbs_per_game"], 2),
            share=_rate(b["fall_share"], b["ci_low"], b["ci_high"]),
        )
    table.blocks.append(Text(barrel_words))
    table.add_table(
        _("Forehand's forced 100, bolts and the 555 reset"),
        _(
            "Forced 100 and bolts: every played deal of the hands in ordinary auctions; "
            "penalties and resets: the games. Shares in percent, the rest in points or counts."
        ),
        _events_display(guide),
        "guide_events.csv",
        guide.events,
    )
    table.add_table(
        _("Golden and dark deals"),
        "",
        _specials_display(guide),
        "guide_specials.csv",
        guide.specials,
    )
    table.add_table(
        _("Who wins, by seat"),
        _("Games of `{player}` at every seat.").format(player=GUIDE_PLAYER),
        _seats_display(guide),
        "guide_seats.csv",
        guide.seats,
    )

    check = Section("guide-check", _("The guide, played"))
    if duel is not None:
        check.blocks.append(Text(duel_sentence(duel, duel_deals, duel_seed)))
        check.add_csv("guide_duel.csv", duel, _("the duel's summary"))
    check.blocks.append(
        Text(
            _(
                "The `guide` player's bid chart (`guide_player.csv`) is the same rule over its "
                "18 classes (no marriage, one marriage by its suit, or two or more, with 0, 1 "
                "or 2+ aces): each level's margins of the classes above that fall in one, "
                "weighted by the hands each holds, and of every seat alike, pooled, and the "
                "level of the best pooled margin taken (the pooled differences' intervals are "
                "bounded from the classes' own, never narrower than they would be). The chart "
                "and its concession limits are written as `--param` settings, one a line, to "
                "`guide_params.txt`; the duel above plays them."
            )
        )
    )
    check.add_csv("guide_player.csv", guide.guide_bids, _("the guide player's bid chart"))
    return [bid, talon, give, concede, table, check]


def guide_header(guide: GuideTables) -> str:
    """The page's opening line: rules, sizes and who played."""
    runs = guide.runs
    rules = runs.rules
    deals = len(np.unique(runs.items["deal"]))
    return _(
        "Rules **{rules}** (`rules_hash` {hash}, {players} players) — seed {seed}; {deals} "
        "deals with every hand played as the declarer's, {hands} hands, {games} games, all "
        "played by `{player}` at every seat. Every number carries its 95 % interval or says "
        "it is exact."
    ).format(
        rules=rules.name,
        hash=rules.rules_hash,
        players=rules.players,
        seed=runs.seed,
        deals=number(deals),
        hands=number(len(runs.hands["declarer"])),
        games=number(len(runs.games)),
        player=GUIDE_PLAYER,
    )


def write_guide(
    guide: GuideTables,
    out: Any,
    duel: pl.DataFrame | None,
    duel_deals: int,
    duel_seed: int,
    extra: Mapping[str, Any],
    more: Any = None,
) -> list[Any]:
    """Write ``guide.md``, ``index.html``, the CSVs, figures and ``run.json`` into ``out``.

    ``more``, when given, is called with the staging folder to write further pages
    (the page for players) that land with the rest or not at all.
    """
    from sim.output import StagedDir, write_manifest
    from views.pages import Section, Text, write_pages

    runs = guide.runs
    summary = Section("summary", _("In short"), [Text(guide_answer(guide, duel))])
    sections = [summary, *guide_sections(guide, duel, duel_deals, duel_seed)]
    title = _("Thousand strategy guide — {rules}").format(rules=runs.rules.name)
    with StagedDir(Path(out)) as staged:
        d = staged.path
        write_pages(d, title, guide_header(guide), sections, "guide.md")
        if more is not None:
            more(d)
        (d / "guide_params.txt").write_text("\n".join(guide.params()) + "\n", encoding="utf-8")
        write_manifest(
            d,
            runs.rules,
            runs.seed,
            {
                "deals": len(np.unique(runs.items["deal"])),
                "hands": len(runs.hands["declarer"]),
                "games": len(runs.games),
                "duel_deals": duel_deals if duel is not None else 0,
            },
            command="guide",
            players=[GUIDE_PLAYER],
            risk=runs.risk,
            **extra,
        )
    return sections


def guide_report_section(
    guide: GuideTables, duel: pl.DataFrame | None, duel_deals: int, duel_seed: int
) -> Any:
    """The guide as one section of ``thousand report`` (its sections as sub-headings)."""
    from views.pages import Section, Text

    out = Section("guide", _("Strategy guide"), answer=guide_answer(guide, duel))
    out.blocks.append(
        Text(
            _(
                "What to bid, what the talon brings, what to give away, when to concede and "
                "how the barrel and the seats play, measured with `{player}` at every seat "
                "(`thousand guide` writes it as its own page)."
            ).format(player=GUIDE_PLAYER)
        )
    )
    for sec in guide_sections(guide, duel, duel_deals, duel_seed):
        out.blocks.append(Text(f"**{sec.title}.**"))
        out.blocks.extend(sec.blocks)
        out.figures.update(sec.figures)
        out.csvs.update(sec.csvs)
    return out
