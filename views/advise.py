"""The advisor in words: its verdicts, answers in Markdown and JSON, the tables shown."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any

import numpy as np
import polars as pl

from analysis.advise import (
    AuctionReading,
    Opponents,
    SampledAdvice,
    ShownTalon,
    TableAnswer,
    Verdict,
)
from analysis.choices import PASS, TABLE_RISK
from analysis.safebids import marriage_label, marriage_mask
from analysis.stats import Z95
from sim.cards import cards_str, parse_card
from sim.i18n import _, answer_cards, number, role, seat_, speaking
from sim.players import words
from views.numbers import interval, numbers, signed, signed_numbers
from views.tables import to_markdown


def _percent(p: float, low: float, high: float) -> str:
    """A share with its interval in whole percent: ``79% [78%, 80%]``."""
    return interval(f"{p:.0%}", f"{low:.0%}", f"{high:.0%}")


def opponents_text(o: Opponents | None) -> str:
    """The table an answer assumes, in one sentence of the current language ("" unknown)."""
    if o is None:
        return ""
    who = _(words(o.player))
    if o.compared is None or o.diff is None:
        return _("The table assumed: {who}.").format(who=who)
    d, low, high = o.diff
    if d < 0:
        rel = _("{points} points a deal below `{other}`")
        d, low, high = -d, -high, -low
    else:
        rel = _("{points} points a deal above `{other}`")
    rel = rel.format(points=numbers(d, low, high, 1), other=o.compared)
    return _(
        "The table assumed: {who}; in duplicate duels (`{rules}`, {deals} deals) it scores {rel}."
    ).format(who=who, rules=o.rules, deals=number(o.deals), rel=rel)


def verdict(a: SampledAdvice | ShownTalon) -> Verdict:
    """What to do now and why, in the current language: the answer's first lines.

    Bidding: the highest level the hand may still bid whose make rate's 95 % interval
    reaches the risk and whose expected score beats passing; above it the answer says
    which of the two (or the hand's marriage ceiling) stops it. After the talon: the
    best give and contract. A defender shown the talon: whether the declarer is likely
    to make its bid.
    """
    table = opponents_text(a.opponents)
    if isinstance(a, ShownTalon):
        return _shown_verdict(a, table)
    if a.discards is not None:
        return _give_verdict(a, table)
    return _bid_verdict(a, table)


def _shown_verdict(a: ShownTalon, table: str) -> Verdict:
    p, low, high = a.made
    if p >= 0.5:
        say = _("{declarer} is likely to make {bid}: {made} of the deals.")
    else:
        say = _("{declarer} is likely to fail {bid}: it makes it in only {made} of the deals.")
    say = say.format(declarer=role(a.declarer).capitalize(), bid=a.bid,
                     made=_percent(p, low, high))  # fmt: skip
    why = _("With this talon; with the talon unknown it would be {plain}.").format(
        plain=_percent(*a.plain)
    )
    if a.defence is not None:
        why = _(
            "With this talon; with the talon unknown it would be {plain}, and your hand "
            "scores {score} as a defender."
        ).format(plain=_percent(*a.plain), score=signed(a.defence[0]))
    return Verdict("expect", a.bid, None, say, why, table)


def _give_verdict(a: SampledAdvice, table: str) -> Verdict:
    assert a.discards is not None
    top = a.discards.row(0, named=True)
    played = _("Played out by `{player}` at every seat it scores a margin of {margin} a deal")
    margin = signed_numbers(top["margin"], top["margin_low"], top["margin_high"])
    played = played.format(player=a.player, margin=margin)
    if top["to_left"] == "—":  # conceding scores most
        gives = a.discards.filter(pl.col("to_left") != "—")
        say = _("Concede {bid}.").format(bid=a.bid)
        why = played + "."
        if gives.height:
            g = gives.row(0, named=True)
            other = _("the best give, {left} to the left and {right} to the right, and name "
                      "{contract}: {margin}.")  # fmt: skip
            why = played + "; " + other.format(
                left=_card(g["to_left"]), right=_card(g["to_right"]), contract=g["contract"],
                margin=signed(g["margin"]),
            )  # fmt: skip
        return Verdict("concede", a.bid, None, say, why, table)
    say = _("Give {left} to the left and {right} to the right, and name {contract}.").format(
        left=_card(top["to_left"]), right=_card(top["to_right"]), contract=top["contract"]
    )
    why = (
        played
        + " "
        + _("and makes {contract} in {made} of the deals.").format(
            contract=top["contract"], made=_percent(top["p"], top["ci_low"], top["ci_high"])
        )
    )
    if top["open_contract"] is not None:
        why += " " + _(
            "With every card face up, both sides playing best, it would name {contract} (made "
            "in {made} of those deals): what the best defence allows."
        ).format(contract=top["open_contract"], made=f"{top['open_p']:.0%}")
    return Verdict("give", int(top["contract"]), (top["to_left"], top["to_right"]), say, why, table)


def _bid_verdict(a: SampledAdvice, table: str) -> Verdict:
    """Raise or pass: the plan of the best value (:func:`analysis.choices.best_choice`)."""
    g = a.game
    if g is not None and g.goal == "silenced":
        say = _("Pass.")
        why = _("At {score} the seat is silenced: it may not bid, whatever its hand.")
        return Verdict("pass", None, None, say, why.format(score=g.score), table)
    assert a.choices is not None and a.best is not None
    rows = {int(r["level"]): r for r in a.choices.iter_rows(named=True)}
    best = a.best
    forced = a.seat == "forehand" and not a.auction  # its 100 is bid for it
    bids = [L for L in rows if L != PASS]
    if best.level == PASS:
        say = _("Bid the forehand's automatic 100, then pass.") if forced else _("Pass.")
        if not bids:
            cap = max(int(L) for L in a.levels["level"]) if a.levels.height else 0
            if cap <= 120 and a.high_bid >= cap:
                why = _("Without a marriage this hand may not bid above 120; the bid is {high}.")
                why = why.format(high=a.high_bid)
            else:
                why = _("This hand's marriages allow bids up to {cap}; the bid is {high}.")
                why = why.format(cap=cap, high=a.high_bid)
            return Verdict("pass", None, None, say, why, table)
        top = max(bids, key=lambda L: rows[L]["mean"])
        why = _("Passing {value}; the best bid, up to {level}, {other}.").format(
            value=_worth(a, rows[PASS]), level=top, other=_worth(a, rows[top], True)
        )
        return Verdict("pass", None, None, say, why + _played_line(a), table)
    level = best.level
    why = _("Bidding up to {level} {value}, {gain} more than passing.").format(
        level=level, value=_worth(a, rows[level]), gain=_diff_text(a, *best.gain)
    )
    if best.low != best.high:
        low = _("passing") if best.low == PASS else str(best.low)
        if best.leaned:
            risk = TABLE_RISK if a.best_from == "tables" else a.risk
            why += " " + _(
                "Every choice from {low} to {high} scores within the interval; of those "
                "bids, {level} is the highest the hand makes in at least {risk} of the deals."
            ).format(low=low, high=best.high, level=level, risk=f"{risk:.0%}")
        else:
            why += " " + _("Every choice from {low} to {high} scores within the interval.").format(
                low=low, high=best.high
            )
    why += _played_line(a)
    if a.auction:
        return Verdict("raise", level, None, _("Raise, up to {level}.").format(level=level), why,
                       table)  # fmt: skip
    if forced and level == 100:
        say = _("Bid the forehand's automatic 100 and no higher.")
    else:
        say = _("Bid up to {level}.").format(level=level)
    return Verdict("bid", level, None, say, why, table)


def _played_line(a: SampledAdvice) -> str:
    """Where the table's player, playing every lost contract out, would choose otherwise."""
    p = a.played
    if p is None or a.best is None or a.best.low <= p.level <= a.best.high:
        return ""
    if p.level == PASS:
        choice = _("pass ({value})").format(value=signed(p.value))
    else:
        choice = _("bid up to {level} ({value}; passing {passing})").format(
            level=p.level, value=signed(p.value), passing=signed(p.passing)
        )
    return " " + _(
        "Against `{player}` as it plays, every contract it goes down in played out ({share} "
        "of the deals when you pass), the choice would be: {choice}."
    ).format(player=a.pass_player, share=f"{p.share:.0%}", choice=choice)


def _worth(a: SampledAdvice, row: Mapping[str, Any], against_pass: bool = False) -> str:
    """A plan's value in words: its margin a deal, or its chance to win the game.

    ``against_pass``: add the plan's paired difference from passing (``row``'s
    ``diff``, when passing is the best plan).
    """
    if a.measure == "win":
        text = _("wins the game {value} of the time").format(
            value=_percent(row["mean"], row["low"], row["high"])
        )
    else:
        text = _("scores a margin of {value} a deal").format(
            value=signed_numbers(row["mean"], row["low"], row["high"])
        )
    if against_pass:
        diff = _diff_text(a, row["diff"], row["diff_low"], row["diff_high"])
        text += _(" ({diff} against passing)").format(diff=diff)
    return text


def _diff_text(a: SampledAdvice, d: float, low: float, high: float) -> str:
    """A difference of two plans with its interval: points, or points of percentage."""
    if a.measure == "win":
        return _("{diff} points of percentage").format(
            diff=signed_numbers(100 * d, 100 * low, 100 * high)
        )
    return signed_numbers(d, low, high)


def verdict_lines(a: SampledAdvice | ShownTalon) -> list[str]:
    """The verdict as the answer's first lines: what to do, why, the table assumed."""
    v = verdict(a)
    lines = [f"**{v.say}** {v.why}"]
    if v.table:
        lines.append(v.table)
    return [*lines, ""]


def _mean_interval(mean: float, se: float) -> str:
    """A mean with its normal 95 % interval, one decimal."""
    return numbers(mean, mean - Z95 * se, mean + Z95 * se, 1)


def shown_markdown(a: ShownTalon) -> str:
    """The defender's view in a few lines, in the current language: the verdict first."""
    return "\n".join(verdict_lines(a)) + "\n" + _shown_detail(a)


def _shown_detail(a: ShownTalon) -> str:
    made, plain = a.made, a.plain
    lines = [
        _("Hand {cards} as {seat}, rules `{rules}`, player `{player}`, {samples} sampled "
          "deals.").format(cards=answer_cards(_cards(a.hand)), seat=role(a.seat),
                           rules=a.rules.name, player=a.player, samples=number(a.samples)),
        _("Auction: {auction}; the talon {talon} went to {declarer}.").format(
            auction=re.sub(r"[a-z]+", lambda m: role(m.group(0)), a.auction),
            talon=answer_cards(_cards(a.talon)),
            declarer=role(a.declarer),
        ),
        "",
        _("{declarer} makes {bid} in {made} of the deals; with the talon unknown it would be "
          "{plain}.").format(
            declarer=role(a.declarer).capitalize(), bid=a.bid, made=_percent(*made),
            plain=_percent(*plain),
        ),
    ]  # fmt: skip
    if a.contract is not None and a.conceded is not None:
        lines.append(
            _("Makes: its card points and marriages reach the {bid} it won, and it did not "
              "concede ({conceded} of the deals conceded); it names {contract} on average.")
            .format(bid=a.bid, conceded=f"{a.conceded:.0%}", contract=number(a.contract, 1))
        )  # fmt: skip
    if a.par is not None:
        p, low, high, deals = a.par
        lines.append(
            _(
                "The open-card par (every card face up, both sides at their best) makes it in "
                "{made} of the first {deals} of these deals."
            ).format(made=_percent(p, low, high), deals=number(deals))
        )
    lines.append(
        _("The deals follow the auction, every bid read as `{player}` would make it: a "
          "shown talon also says what {declarer}'s own hand must hold to have bid {bid}.")
        .format(player=a.player, declarer=role(a.declarer), bid=a.bid)
    )  # fmt: skip
    if a.defence is not None:
        mean, se = a.defence
        lines.append(
            _("Your hand scores {score} as a defender in this deal.").format(
                score=f"{signed(mean)} ± {number(Z95 * se, 1)}"
            )
        )
    if a.requested > a.samples:
        lines.append(
            _("The {budget} s time budget ran out after {samples} of {requested} deals.").format(
                budget=f"{a.budget:g}", samples=a.samples, requested=a.requested
            )
        )
    return "\n".join(lines) + "\n"


def _json_head(a: SampledAdvice | ShownTalon) -> dict[str, Any]:
    """What every answer's JSON document opens with: the question and its samples."""
    return {
        "rules": a.rules.name,
        "hand": cards_str(_cards(a.hand)),
        "seat": a.seat,
        "player": a.player,
        "samples": a.samples,
        "samples_requested": max(a.requested, a.samples),
        "budget": a.budget,
    }


def shown_json(a: ShownTalon) -> dict[str, Any]:
    """The defender's view as one JSON document."""
    return {
        **_json_head(a),
        "auction": a.auction,
        "talon_shown": cards_str(_cards(a.talon)),
        "declarer": a.declarer,
        "bid": a.bid,
        "p_make": a.made[0],
        "ci_low": a.made[1],
        "ci_high": a.made[2],
        "p_make_talon_unknown": a.plain[0],
        "talon_unknown_ci_low": a.plain[1],
        "talon_unknown_ci_high": a.plain[2],
        "defence_mean": None if a.defence is None else a.defence[0],
        "defence_se": None if a.defence is None else a.defence[1],
        "makes": "card points and marriages reach the bid won, not conceded",
        "contract_mean": a.contract,
        "conceded": a.conceded,
        "p_make_par": None if a.par is None else a.par[0],
        "par_ci_low": None if a.par is None else a.par[1],
        "par_ci_high": None if a.par is None else a.par[2],
        "par_samples": None if a.par is None else a.par[3],
        "verdict": asdict(verdict(a)),
        "opponents": None if a.opponents is None else asdict(a.opponents),
    }


def advice_markdown(a: SampledAdvice) -> str:
    """The answer in a few lines and one table (fits 100 columns), in the current language.

    The verdict first (:func:`verdict`: what to do, why, the table assumed), then the
    detail.
    """
    return "\n".join(verdict_lines(a)) + "\n" + _advice_detail(a)


def _advice_detail(a: SampledAdvice) -> str:
    marr = marriage_label(int(marriage_mask(np.array([a.hand]))[0]))
    marr = _("no marriage") if marr == "none" else _("{suits} marriage").format(suits=marr)
    head = _("Hand {cards} ({marriage}) as {seat}, rules `{rules}`, player `{player}`, "
             "{samples} sampled deals.")  # fmt: skip
    lines = [
        head.format(
            cards=answer_cards(_cards(a.hand)),
            marriage=marr,
            seat=role(a.seat),
            rules=a.rules.name,
            player=a.player,
            samples=a.samples,
        ),
        "",
    ]
    if a.requested > a.samples:
        lines[0] = lines[0][:-1] + _(
            " of {requested}: the {budget} s time budget ran out (`--budget 0` plays "
            "them all; the intervals are those of the deals played)."
        ).format(requested=a.requested, budget=f"{a.budget:g}")
    if a.discards is not None:
        lines += _discard_lines(a)
        return "\n".join(lines) + "\n"
    if a.auction:
        lines.insert(
            1,
            _("Auction so far: {auction}; a raise must go above {high}.").format(
                auction=re.sub(r"[a-z]+", lambda m: role(m.group(0)), a.auction),
                high=a.high_bid,
            ),
        )
    if a.reading is not None:
        lines.insert(2, _reading_text(a.reading))
    lines.append(_measure_line(a))
    lines.append(_risk_line(a))
    if a.table is not None:
        lines.append(_table_line(a))
    if a.game is not None:
        lines.append(_game_line(a))
    lines += ["", to_markdown(choices_shown(a), floats="{:.1f}").rstrip(), ""]
    lines.append(
        _(
            "A choice is a limit: raise to the lowest raise open to you while it is at most "
            "the level, pass at the first turn where it is not. P(make): the share of the "
            "deals in which the hand, winning the auction at that level, makes the contract "
            "(it may bid it, would not concede it and its deal total reaches it)."
        )
    )
    return "\n".join(lines) + "\n"


def _measure_line(a: SampledAdvice) -> str:
    """What the choices are valued by, and who played them."""
    if a.concede_lost:
        line = _(
            "Each choice was played out on the same {samples} deals by `{player}` at every "
            "seat (your own decisions after the auction too), every declarer that goes down "
            "conceding where that costs it less, as a player who sees the contract lost does, "
            "and valued by its margin: your deal score minus the mean of the other seats' "
            "(the game is won by the difference)."
        )
    else:
        line = _(
            "Each choice was played out on the same {samples} deals by `{player}` at every seat "
            "(your own decisions after the auction too) and valued by its margin: your deal "
            "score minus the mean of the other seats' (the game is won by the difference)."
        )
    line = line.format(samples=number(a.samples), player=a.pass_player)
    if a.measure == "win" and a.game is not None:
        before = "—" if a.win_before is None else f"{a.win_before:.0%}"
        line += " " + _(
            "From the score {score}, the choice is made by the chance to win the game after "
            "the deal (the equity table of `{player}`'s games): {before} before it."
        ).format(score=a.game.score, player=a.pass_player, before=before)
    return line


def _risk_line(a: SampledAdvice) -> str:
    """The make rate's answer: how high the hand makes its contract at ``--risk``."""
    risk = f"{a.risk:.0%}"
    if a.recommended is None:
        return _(
            "Winning the auction, the hand makes no level in at least {risk} of the deals "
            "(the 95 % interval's lower end)."
        ).format(risk=risk)
    return _(
        "Winning the auction, the hand makes every level up to {level} in at least {risk} of "
        "the deals (the 95 % interval's lower end): how far it is safe, not what scores most."
    ).format(level=a.recommended, risk=risk)


def _table_line(a: SampledAdvice) -> str:
    """The class tables' answer, beside the samples'."""
    assert a.table is not None
    t = a.table
    choice = (
        _("pass") if t.best.level == PASS else _("bid up to {level}").format(level=t.best.level)
    )
    if a.auction:
        choice += _(" (before any auction: the tables do not know this one)")
    line = _(
        "The tables: {n} hands of the class ({klass}) at this seat, dealt on purpose and "
        "played out by `{player}` at every seat, say {answer}."
    ).format(n=number(t.n), klass=_class_text(t.klass), player=t.player, answer=choice)
    if a.best_from == "tables":
        line += " " + _("This hand's own deals do not show it worse: the answer is theirs.")
    elif not a.auction and a.measure == "margin" and a.sampled_best is not None:
        line += " " + _("This hand's own deals show it worse than their own choice.")
    return line


def choices_shown(a: SampledAdvice) -> pl.DataFrame:
    """The answer's table: each choice, its value, its difference from the best, P(make)."""
    assert a.choices is not None
    make = {int(r["level"]): r for r in a.levels.iter_rows(named=True)}
    rows = []
    best = a.best.level if a.best is not None else None
    for r in a.choices.iter_rows(named=True):
        level = int(r["level"])
        m = make.get(level)
        value = (
            _percent(r["mean"], r["low"], r["high"])
            if a.measure == "win"
            else signed_numbers(r["mean"], r["low"], r["high"])
        )
        row = {
            _("choice"): _("pass") if level == PASS else _("up to {level}").format(level=level),
            _("you declare"): f"{r['declared']:.0%}",
            _("chance to win [95 % CI]") if a.measure == "win" else _("margin [95 % CI]"): value,
            _("against the best [95 % CI]"): "—"
            if level == best
            else _diff_text(a, r["diff"], r["diff_low"], r["diff_high"]),
            _("P(make) [95 % CI]"): "—"
            if m is None
            else numbers(m["p"], m["ci_low"], m["ci_high"], 2),
        }
        if a.measure == "win":
            row[_("margin [95 % CI]")] = signed_numbers(
                r["margin"], r["margin_low"], r["margin_high"]
            )
        rows.append(row)
    return pl.DataFrame(rows)


def _game_line(a: SampledAdvice) -> str:
    """What the seat's game makes of the contract: the level that wins or climbs, its P."""
    g = a.game
    assert g is not None
    if g.goal == "silenced":
        return _("At {score} the seat is silenced: it may not bid, whatever its hand.").format(
            score=g.score
        )
    if g.level is None:
        what = _("On the barrel no contract this hand may bid wins the game.")
        if g.goal == "barrel":
            what = _("At {score} no contract this hand may bid reaches the barrel.")
        return what.format(score=g.score)
    row = a.levels.filter(pl.col("level") == g.level)
    made = "—" if row.height == 0 else numbers(row["p"][0], row["ci_low"][0], row["ci_high"][0], 2)
    if g.goal == "win" and g.on_barrel:
        text = _("On the barrel a contract of {level} made wins the game: P(make) {made}.")
    elif g.goal == "win":
        text = _("At {score} a contract of {level} made wins the game: P(make) {made}.")
    else:
        text = _("At {score} a contract of {level} made takes the seat onto the barrel: "
                 "P(make) {made}.")  # fmt: skip
    line = text.format(score=g.score, level=g.level, made=made)
    if g.on_barrel and g.bid_from:
        line += " " + _("On the barrel its bids start at {bid}.").format(bid=g.bid_from)
    return line


def _class_text(klass: str) -> str:
    """A class of the tables (``♥ marriage, 2 aces``) in the current language."""
    m = re.fullmatch(r"(no marriage|(\S+) marriage)(?:, (\d) aces)?", klass)
    if m is None:
        return klass
    marr = (
        _("no marriage") if m.group(2) is None else _("{suits} marriage").format(suits=m.group(2))
    )
    return (
        marr
        if m.group(3) is None
        else _("{marriage}, {aces} aces").format(marriage=marr, aces=m.group(3))
    )


def _cards(mask: int) -> list[int]:
    return [c for c in range(24) if mask >> c & 1]


def _discard_lines(a: SampledAdvice) -> list[str]:
    assert a.discards is not None
    d = a.discards
    lines = [
        _(
            "Talon {talon}, bid {bid}: every give of two of the hand's cheapest cards and "
            "every contract it allows played out by `{player}` at every seat on the same "
            "{samples} deals, each give with its contract of the best margin, and conceding "
            "the bid. Face up: the contract of the best expected score with every card face up "
            "and both sides playing best ({open} deals), and its make rate there: what the "
            "best defence allows."
        ).format(
            talon=answer_cards(_cards(a.talon)),
            bid=a.bid,
            player=a.player,
            samples=number(a.samples),
            open=number(a.minimum),
        ),
        "",
    ]

    def give(left: str, right: str) -> str:
        return _("concede") if left == "—" else f"{_card(left)} → {_card(right)}"

    rows = list(d.head(8).iter_rows(named=True))
    shown = pl.DataFrame(
        {
            _("give (left → right)"): [give(r["to_left"], r["to_right"]) for r in rows],
            _("contract"): [r["contract"] for r in rows],
            _("margin [95 % CI]"): [
                signed_numbers(r["margin"], r["margin_low"], r["margin_high"]) for r in rows
            ],
            _("P(make) [95 % CI]"): [
                "—" if r["to_left"] == "—" else _percent(r["p"], r["ci_low"], r["ci_high"])
                for r in rows
            ],
            _("face up"): [
                "—" if r["open_contract"] is None else f"{r['open_contract']} ({r['open_p']:.0%})"
                for r in rows
            ],
        }
    )
    lines.append(to_markdown(shown, floats="{:.1f}").rstrip())
    return lines


def _card(text: str) -> str:
    """A card of the discard table (``KS``) as the answer writes cards."""
    return answer_cards([parse_card(text)])


def examples_table(answers: Sequence[SampledAdvice]) -> pl.DataFrame:
    """Worked examples side by side: the chance of 100 and 120, the bid, the best contract.

    The data of ``safebids_examples.csv``: the same in every language (English numbers).
    """
    with speaking("en"):
        return _examples_table(answers)


def _examples_table(answers: Sequence[SampledAdvice]) -> pl.DataFrame:
    rows = []
    for a in answers:
        at = {r["level"]: r for r in a.levels.iter_rows(named=True)}

        def rate(level: int, at: dict = at) -> str:
            r = at.get(level)
            return "—" if r is None else numbers(r["p"], r["ci_low"], r["ci_high"], 2)

        rows.append(
            {
                "hand": cards_str(_cards(a.hand), pretty=True),
                "player": a.player,
                "deals": a.samples,
                "P(make 100) [95 % CI]": rate(100),
                "P(make 120) [95 % CI]": rate(120),
                "bid up to (75 %)": "—" if a.recommended is None else str(a.recommended),
                "best contract": "pass" if a.best_expected is None else str(a.best_expected),
                "passing scores [95 % CI]": _mean_interval(a.pass_mean, a.pass_se),
                "margin of the choice [95 % CI]": _choice_margin(a),
            }
        )
    return pl.DataFrame(rows)


def _choice_margin(a: SampledAdvice) -> str:
    """The margin of the answer's choice with its interval (as the examples show it)."""
    if a.choices is None or a.best is None:
        return "—"
    row = a.choices.filter(pl.col("level") == a.best.level).row(0, named=True)
    return numbers(row["mean"], row["low"], row["high"], 1)


def _reading_text(r: AuctionReading) -> str:
    """The auction's reading in one sentence per seat that acted."""
    parts = []
    for seat in r.seats:
        # the verb agrees with the seat (вторая рука спасовала, сдающий спасовал)
        if seat.passed:
            did = (
                seat_(seat.seat, "passed")
                if not seat.highest
                else seat_(seat.seat, "passed at {bid}").format(bid=seat.highest)
            )
        else:
            did = seat_(seat.seat, "bid {bid}").format(bid=seat.highest)
        parts.append(
            _(
                "{seat}, who {did}, holds a marriage in {share} of them "
                "({rules} by the rules alone)"
            ).format(
                seat=role(seat.seat),
                did=did,
                share=f"{seat.marriage:.0%}",
                rules=f"{seat.marriage_rules:.0%}",
            )
        )
    return _(
        "The other seats' bids read as `{player}` bids (measured on {hands} hands, seed "
        "{seed}; {kept} of the deals the rules allow are kept): {seats}."
    ).format(
        player=r.player,
        hands=number(r.hands),
        seed=r.seed,
        kept=f"{r.kept:.0%}",
        seats="; ".join(parts),
    )


def table_json(t: TableAnswer) -> dict[str, Any]:
    """The class tables' answer as ``thousand advise --json`` writes it (its ``table``)."""
    return {
        "player": t.player,
        "deals": t.deals,
        "seed": t.seed,
        "class": t.klass,
        "seat": t.seat,
        "n": t.n,
        "dealt": "on purpose",
        "class_hands": t.class_hands,
        "share": t.share,
        "best": t.best.level,
        "best_low": t.best.low,
        "best_high": t.best.high,
        "verdict": asdict(table_verdict(t)),
        "recommended": t.recommended,
        "levels": t.levels.to_dicts(),
    }


def table_verdict(t: TableAnswer) -> Verdict:
    """The tables' choice for the class and seat, in the words of :func:`verdict`."""
    forced = t.seat == "forehand"
    klass = _class_text(t.klass)
    why = _(
        "Hands of this class ({klass}) at this seat, {n} dealt on purpose and played out by "
        "`{player}` at every seat, every declarer that goes down conceding where that costs "
        "it less: the choice of the best margin."
    ).format(klass=klass, n=number(t.n), player=t.player)
    if t.best.level == PASS:
        say = _("Bid the forehand's automatic 100, then pass.") if forced else _("Pass.")
        return Verdict("pass", None, None, say, why, "")
    if forced and t.best.level == 100:
        say = _("Bid the forehand's automatic 100 and no higher.")
    else:
        say = _("Bid up to {level}.").format(level=t.best.level)
    return Verdict("bid", t.best.level, None, say, why, "")


def table_markdown(t: TableAnswer) -> str:
    """The class tables' answer alone, in a few lines (``sampled=False``)."""
    v = table_verdict(t)
    return f"**{v.say}** {v.why}\n"


def advice_json(a: SampledAdvice) -> dict[str, Any]:
    """The answer as one JSON document."""
    doc: dict[str, Any] = {
        **_json_head(a),
        "risk": a.risk,
        "verdict": asdict(verdict(a)),
        "opponents": None if a.opponents is None else asdict(a.opponents),
    }
    if a.discards is not None:
        doc.update(talon=cards_str(_cards(a.talon)), bid=a.bid, discards=a.discards.to_dicts())
        return doc
    table = a.table
    doc.update(
        levels=a.levels.to_dicts(),
        recommended=a.recommended,
        sampled_recommended=a.sampled if table is not None else a.recommended,
        auction=a.auction or None,
        high_bid=a.high_bid or None,
        auction_reading=None if a.reading is None else asdict(a.reading),
        game=None if a.game is None else {**asdict(a.game), "say": _game_line(a)},
        minimum_samples=a.minimum,
        measure=a.measure,
        choices=None if a.choices is None else a.choices.to_dicts(),
        best=None if a.best is None else a.best.level,
        best_low=None if a.best is None else a.best.low,
        best_high=None if a.best is None else a.best.high,
        best_gain=None if a.best is None else list(a.best.gain),
        best_from=a.best_from,
        sampled_best=None if a.sampled_best is None else a.sampled_best.level,
        as_played=None if a.played is None else asdict(a.played),
        table=None if table is None else table_json(table),
        best_expected=a.best_expected,
        passing={
            "mean": a.pass_mean,
            "se": a.pass_se,
            "samples": a.pass_samples,
            "player": a.pass_player,
        },
    )
    return doc


__all__ = [
    "advice_json",
    "advice_markdown",
    "choices_shown",
    "examples_table",
    "opponents_text",
    "shown_json",
    "shown_markdown",
    "table_json",
    "table_markdown",
    "table_verdict",
    "verdict",
    "verdict_lines",
]
