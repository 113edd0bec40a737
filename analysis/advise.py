"""The advisor's answer for one hand: P(make) at every level, expected scores, the bid.

From :mod:`sim.runs.advise`'s samples (the hand's unseen cards dealt at random and played
out). Every rate carries its 95 % Wilson interval; every mean its standard error.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import polars as pl

from analysis.safebids import PAR, bid_caps, items_frame, levels_of, marriage_label, marriage_mask
from analysis.stats import Z95, wilson_interval
from analysis.tables import to_markdown
from sim.cards import cards_str
from sim.i18n import _, answer_cards, interval_separator, number, role
from sim.rules import Rules


@dataclass(frozen=True)
class SampledAdvice:
    """The advice for one hand computed from its sampled deals.

    The make rate of every bid level and the expected scores against passing, the bid
    recommended at the risk (or, after the talon, the gives and the contract), and what
    the class tables, the auction and the game score add: what ``thousand advise``
    prints (and ``--json`` gives) through :class:`sim.jobs.advise.AdvisorAnswer`.
    """

    rules: Rules
    hand: int
    seat: str
    player: str
    samples: int
    risk: float
    levels: pl.DataFrame  # level, n, made, p, ci_low, ci_high, expected, expected_low, ...
    pass_mean: float
    pass_se: float
    pass_samples: int
    recommended: int | None  # the highest level whose ci_low reaches the risk
    best_expected: int | None  # the level of the best expected score, if above passing
    discards: pl.DataFrame | None = None  # with --talon
    talon: int = 0
    bid: int = 100
    requested: int = 0  # the samples asked for (more than ``samples`` when the budget ran out)
    budget: float = 0.0  # the time budget in seconds (0: none)
    pass_player: str = ""  # who played the pass baseline's deals (none after the talon)
    table: TableAnswer | None = None  # the class table's answer, before sampling
    sampled: int | None = None  # the samples' own answer (``recommended`` may be the table's)
    minimum: int = 0  # the fewest samples whose interval can reach the risk
    auction: str = ""  # the bids so far, in words ("" without --auction)
    high_bid: int = 0  # the highest bid so far: a raise must go above it
    game: GameSituation | None = None  # the seat's score and barrel (--score, --barrel)
    reading: AuctionReading | None = None  # what the other seats' bids were read to show
    opponents: Opponents | None = None  # who the samples assume sits at the table


@dataclass(frozen=True)
class Opponents:
    """Who an answer assumes sits at the table, and how strong that player was measured.

    Attributes:
        player: the player at every other seat (a strategy, or ``par``).
        compared: the player it was measured against in a duplicate duel (None: none).
        diff: points a deal, ``player`` minus ``compared`` at one seat, with its 95 %
            interval.
        deals: the duel's deals.
        rules: the duel's rules.
    """

    player: str
    compared: str | None = None
    diff: tuple[float, float, float] | None = None
    deals: int = 0
    rules: str = ""


@dataclass(frozen=True)
class Verdict:
    """The one thing to do now, first in every answer, in the current language.

    Attributes:
        action: ``bid`` (bid up to ``level``), ``raise`` (mid-auction, up to
            ``level``), ``pass``, ``give`` (after the talon: give ``give`` and name
            ``level``), ``concede`` (no give reaches the bid), ``expect`` (a defender
            once the talon is shown: the declarer's ``level`` is likely made or not).
        level: the level the action names (None: none).
        give: the cards to give, to the left and to the right (``give`` only).
        say: the verdict in one line.
        why: why, in one sentence.
        table: the table the numbers assume, in words.
    """

    action: str
    level: int | None
    give: tuple[str, str] | None
    say: str
    why: str
    table: str


@dataclass(frozen=True)
class SeatReading:
    """What one seat's action in the auction shows, read as a player bids.

    Attributes:
        seat: the seat's role (``forehand`` ...).
        highest: its highest bid so far (0: none).
        passed: whether it passed.
        marriage: the share of the sampled deals in which it holds a marriage.
        marriage_rules: the same share when only the rules narrow the deals.
    """

    seat: str
    highest: int
    passed: bool
    marriage: float
    marriage_rules: float


@dataclass(frozen=True)
class AuctionReading:
    """The auction read as ``player`` bids, measured on ``hands`` hands (seed ``seed``).

    ``kept``: the share of the deals the rules allow that the reading kept.
    """

    player: str
    hands: int
    seed: int
    kept: float
    seats: tuple[SeatReading, ...]


@dataclass(frozen=True)
class ShownTalon:
    """The defender's view once the talon is shown (``thousand advise --talon-shown``).

    Attributes:
        declarer: the seat that won the auction (its role).
        bid: its winning bid.
        talon: the shown talon (a card mask).
        made: the declarer's P(make ``bid``) with its 95 % interval, talon shown.
        plain: the same with the talon unknown (the same auction), for comparison.
        samples: deals played with the talon shown (``plain``: as many others).
        defence: the hand's mean deal score as a defender and its standard error
            (None under the par, which scores no defender).
        contract: the declarer's mean contract named, talon shown (None: the par).
        conceded: the share of those deals it conceded at its bid (None: the par).
        par: the open-card par's P(make ``bid``) on the first of the same deals, with
            its interval, and how many (None: not played).

    "Makes" counts a deal where the declarer's card points and marriages reach the
    bid it won and it did not concede; the deals are those the auction allows, each
    seat's bids read as ``player`` bids (so the shown talon also moves what the
    declarer's own hand must hold).
    """

    rules: Rules
    hand: int
    seat: str
    player: str
    talon: int
    declarer: str
    bid: int
    auction: str
    made: tuple[float, float, float]
    plain: tuple[float, float, float]
    samples: int
    defence: tuple[float, float] | None
    requested: int = 0
    budget: float = 0.0
    contract: float | None = None
    conceded: float | None = None
    par: tuple[float, float, float, int] | None = None
    opponents: Opponents | None = None

    @classmethod
    def of(
        cls,
        rules: Rules,
        hand: int,
        seat: str,
        player: str,
        talon: int,
        declarer: str,
        bid: int,
        made_to: np.ndarray,
        made_plain: np.ndarray,
        defence: np.ndarray | None,
        auction: str,
        requested: int = 0,
        budget: float = 0.0,
        contract: float | None = None,
        conceded: float | None = None,
        par: np.ndarray | None = None,
    ) -> ShownTalon:
        """The view from the highest level each sampled deal makes (talon shown, unknown)."""

        def rate(made: np.ndarray) -> tuple[float, float, float]:
            k = np.array([(made >= bid).sum()])
            low, high = wilson_interval(k, np.array([len(made)]))
            return float(k[0] / len(made)), float(low[0]), float(high[0])

        mean_se = None
        if defence is not None and len(defence) > 1:
            d = np.asarray(defence, dtype=np.float64)
            mean_se = (float(d.mean()), float(d.std(ddof=1) / np.sqrt(len(d))))
        by_par = None if par is None or len(par) == 0 else (*rate(par), len(par))
        return cls(rules, hand, seat, player, talon, declarer, bid, auction, rate(made_to),
                   rate(made_plain), len(made_to), mean_se, requested, budget, contract,
                   conceded, by_par)  # fmt: skip


@dataclass(frozen=True)
class GameSituation:
    """What the seat's game score makes of a contract (``--score``, ``--barrel``).

    Attributes:
        score: the seat's game score before the deal.
        on_barrel: whether the seat sits on the barrel.
        goal: ``win`` (on the barrel: the contract that wins the game) or ``barrel``
            (the contract that takes the seat onto the barrel), or ``silenced``.
        level: the lowest contract that does it (None: none the hand may bid).
        bid_from: the lowest bid a seat on the barrel may make (0: no limit).
    """

    score: int
    on_barrel: bool
    goal: str
    level: int | None
    bid_from: int = 0


def game_situation(rules: Rules, score: int, on_barrel: bool, cap: int) -> GameSituation:
    """The contract the seat's game needs: the winning one on the barrel, else the climb."""
    levels = [int(L) for L in levels_of(rules) if L <= cap]
    silence = rules.bid.silence_below
    if not on_barrel and silence is not None and score < silence:
        return GameSituation(score, on_barrel, "silenced", None)
    target, strict = rules.game.target, rules.game.target_strict

    def reached(total: int) -> bool:
        return total > target or (total == target and not strict)

    if on_barrel:
        at = rules.barrel.at
        level = next((L for L in levels if reached(at + L) and L >= rules.barrel.bid_from), None)
        return GameSituation(score, True, "win", level, rules.barrel.bid_from)
    if rules.barrel.at > 0:
        level = next((L for L in levels if score + L >= rules.barrel.at), None)
        return GameSituation(score, False, "barrel", level)
    level = next((L for L in levels if reached(score + L)), None)
    return GameSituation(score, False, "win", level)


@dataclass(frozen=True)
class TableAnswer:
    """The answer of the class tables: hands like this one, played out by ``player``.

    Attributes:
        player: who played the table's hands as the declarer's.
        deals: deals of the table's run (each hand of each deal an item).
        seed: its seed.
        klass: the hand's class, in words (``♥ marriage, 2 aces``).
        n: hands of the class in the table.
        levels: P(make L) of the class: ``level``, ``n``, ``made``, ``rate``,
            ``ci_low``, ``ci_high``.
        recommended: the highest level whose interval's lower end reaches the risk.
    """

    player: str
    deals: int
    seed: int
    klass: str
    n: int
    levels: pl.DataFrame
    recommended: int | None


def class_of(hand: int) -> tuple[str, int]:
    """The hand's class in the tables: its marriages (``marriage_label``) and aces."""
    from analysis.safebids import count_rank

    dealt = np.array([hand], dtype=np.int64)
    return marriage_label(int(marriage_mask(dealt)[0])), int(count_rank(dealt, 5)[0])


def table_answer(
    hand: int,
    risk: float,
    by_class: pl.DataFrame,
    by_marriages: pl.DataFrame,
    player: str,
    deals: int,
    seed: int,
    min_n: int = 30,
) -> TableAnswer:
    """The class tables' answer for ``hand`` (curves of :func:`analysis.safebids.curves`).

    The class is the hand's marriages and aces; one with fewer than ``min_n`` hands in
    the table takes its marriages' curve over all aces.
    """
    marriages, aces = class_of(hand)
    rows = by_class.filter((pl.col("marriages") == marriages) & (pl.col("aces") == aces))
    name = f"{'no marriage' if marriages == 'none' else marriages + ' marriage'}, {aces} aces"
    if rows.height == 0 or int(rows["n"][0]) < min_n:
        rows = by_marriages.filter(pl.col("marriages") == marriages)
        name = "no marriage" if marriages == "none" else f"{marriages} marriage"
    levels = rows.select("level", "n", "made", "rate", "ci_low", "ci_high").sort("level")
    ok = levels.filter(pl.col("ci_low") >= risk)["level"].to_list()
    n = int(levels["n"][0]) if levels.height else 0
    return TableAnswer(player, deals, seed, name, n, levels, max(ok) if ok else None)


def minimum_samples(risk: float) -> int:
    """The fewest deals whose 95 % interval can reach ``risk``: all of them made."""
    n = 1
    while float(wilson_interval(n, n)[0]) < risk:
        n += 1
    return n


def with_table(a: SampledAdvice, table: TableAnswer) -> SampledAdvice:
    """The answer with the tables' beside the samples'.

    The samples' answer stands when there are at least :func:`minimum_samples` of them
    (enough to reach the risk at all); fewer (a time budget ran out) keep the table's
    answer, so a short budget never turns an answer into "no level".
    """
    from dataclasses import replace

    minimum = minimum_samples(a.risk)
    final = a.recommended if a.samples >= minimum else table.recommended
    return replace(a, table=table, sampled=a.recommended, recommended=final, minimum=minimum)


def level_table(rules: Rules, made_to: np.ndarray, cap: int) -> pl.DataFrame:
    """P(make L) for every level up to ``cap``, with intervals and the expected scores.

    ``expected`` is the declarer's expected deal score of a contract of ``L``:
    ``+L`` made, ``-L`` failed (a concession costs the contract too, unless
    ``rospis.no_subtract``, where the player concedes only when it scores more so).
    """
    levels = levels_of(rules)
    levels = levels[levels <= cap]
    n = len(made_to)
    made = np.array([(made_to >= L).sum() for L in levels], dtype=np.int64)
    low, high = wilson_interval(made, np.full(len(levels), n))
    p = made / n
    return pl.DataFrame(
        {
            "level": levels,
            "n": np.full(len(levels), n, dtype=np.int64),
            "made": made,
            "p": p,
            "ci_low": low,
            "ci_high": high,
            "expected": levels * (2 * p - 1),
            "expected_low": levels * (2 * low - 1),
            "expected_high": levels * (2 * high - 1),
        }
    )


def advise(
    rules: Rules,
    hand: int,
    seat: str,
    player: str,
    risk: float,
    cols: Mapping[str, np.ndarray],
    *,
    pass_player: str,
) -> SampledAdvice:
    """The answer from :func:`sim.runs.advise.bid_samples`' columns.

    ``pass_player`` is the strategy that played the pass baseline's deals (at every
    seat; :data:`sim.runs.advise.PASS_PLAYER`), named in the answer.
    """
    n = len(cols["dealt"])
    frame = items_frame(
        rules,
        player,
        cols["dealt"],
        np.zeros(n, dtype=np.int64),
        np.arange(n),
        cols.get("total"),
        cols.get("concede_from"),
        par_level=cols.get("par_level") if player == PAR else None,
    )
    cap = int(bid_caps(rules, marriage_mask(np.array([hand])))[0])
    table = level_table(rules, frame["made_to"].to_numpy(), cap)
    passing = np.asarray(cols["pass_score"], dtype=np.float64)
    pass_mean = float(passing.mean())
    pass_se = float(passing.std(ddof=1) / np.sqrt(len(passing))) if len(passing) > 1 else 0.0
    ok = table.filter(pl.col("ci_low") >= risk)["level"].to_list()
    recommended = max(ok) if ok else None
    best = table.sort("expected", descending=True).row(0, named=True)
    best_expected = int(best["level"]) if best["expected"] > pass_mean else None
    return SampledAdvice(
        rules, hand, seat, player, n, risk, table, pass_mean, pass_se, len(passing),
        recommended, best_expected, pass_player=pass_player,
    )  # fmt: skip


def discard_table(
    rules: Rules,
    gives: Sequence[tuple[int, int]],
    made_to: np.ndarray,
    caps: np.ndarray,
    bid: int,
    totals: np.ndarray | None = None,
) -> pl.DataFrame:
    """Each give's best contract over the samples, best first.

    For every give, the contract from ``bid`` to its cap with the best expected deal
    score over the samples (``+c`` made, ``-c`` failed; ``made_to[w, g]`` is the
    highest contract sample ``w`` makes after give ``g``); ties keep the lower
    contract. Columns: the cards, the contract, its P(make) with interval and the
    expected score.
    """
    n = made_to.shape[0]
    rows = []
    for g, give in enumerate(gives):
        best = None
        for L in levels_of(rules):
            if L < bid or L > caps[g]:
                continue
            made = int((made_to[:, g] >= L).sum())
            score = float(L * (2 * made / n - 1))
            if best is None or score > best[2]:
                best = (int(L), made, score)
        if best is None:
            continue
        low, high = wilson_interval(best[1], n)
        rows.append(
            {
                "to_left": cards_str([give[0]]),
                "to_right": cards_str([give[1]]),
                "contract": best[0],
                "n": n,
                "made": best[1],
                "p": best[1] / n,
                "ci_low": float(low),
                "ci_high": float(high),
                "expected": best[2],
                "mean_total": None if totals is None else float(totals[:, g].mean()),
            }
        )
    out = pl.DataFrame(rows)
    if not out.height:
        return out
    ties = "p" if totals is None else "mean_total"
    return out.sort(["expected", ties], descending=True, maintain_order=True)


def advise_talon(
    rules: Rules,
    hand: int,
    seat: str,
    talon: int,
    bid: int,
    risk: float,
    gives: Sequence[tuple[int, int]],
    made_to: np.ndarray,
    caps: np.ndarray,
    totals: np.ndarray | None = None,
) -> SampledAdvice:
    """The answer after winning the bid: the gives by their best contract (open-card)."""
    table = discard_table(rules, gives, made_to, caps, bid, totals)
    return SampledAdvice(
        rules, hand, seat, "open-card", int(made_to.shape[0]), risk, pl.DataFrame(), 0.0, 0.0,
        0, None, None, table, talon, bid,
    )  # fmt: skip


def _percent(p: float, low: float, high: float) -> str:
    """A share with its interval in whole percent: ``79% [78%, 80%]``."""
    return f"{p:.0%} [{low:.0%}{interval_separator()}{high:.0%}]"


def opponents_text(o: Opponents | None) -> str:
    """The table an answer assumes, in one sentence of the current language ("" unknown)."""
    from sim.players import words

    if o is None:
        return ""
    who = _(words(o.player))
    if o.compared is None or o.diff is None:
        return _("The table assumed: {who}.").format(who=who)
    d, low, high = o.diff
    if d < 0:
        rel = _("{points} [{low}{sep}{high}] points a deal below `{other}`")
        d, low, high = -d, -high, -low
    else:
        rel = _("{points} [{low}{sep}{high}] points a deal above `{other}`")
    rel = rel.format(points=number(d, 1), low=number(low, 1), high=number(high, 1),
                     sep=interval_separator(), other=o.compared)  # fmt: skip
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
        ).format(plain=_percent(*a.plain), score=_signed(a.defence[0]))
    return Verdict("expect", a.bid, None, say, why, table)


def _give_verdict(a: SampledAdvice, table: str) -> Verdict:
    assert a.discards is not None
    if a.discards.height == 0:
        if a.rules.rospis.allowed:
            say = _("Concede {bid}: no give reaches it.").format(bid=a.bid)
        else:
            say = _("Play {bid} out: no give reaches it, and conceding is not allowed.").format(
                bid=a.bid
            )
        why = _("With every card face up no give of two cards makes {bid} in any sample.")
        return Verdict("concede", a.bid, None, say, why.format(bid=a.bid), table)
    top = a.discards.row(0, named=True)
    say = _("Give {left} to the left and {right} to the right, and name {contract}.").format(
        left=_card(top["to_left"]), right=_card(top["to_right"]), contract=top["contract"]
    )
    why = _(
        "With every card face up it makes {contract} in {made} of the samples and scores "
        "{expected} on average: an upper bound on play at the table."
    ).format(contract=top["contract"], made=_percent(top["p"], top["ci_low"], top["ci_high"]),
             expected=_signed(top["expected"]))  # fmt: skip
    return Verdict("give", int(top["contract"]), (top["to_left"], top["to_right"]), say, why, table)


def _bid_verdict(a: SampledAdvice, table: str) -> Verdict:
    rows = {int(r["level"]): r for r in a.levels.iter_rows(named=True)}
    risk = f"{a.risk:.0%}"
    passing = _signed(a.pass_mean)
    g = a.game
    if g is not None and g.goal == "silenced":
        say = _("Pass.")
        why = _("At {score} the seat is silenced: it may not bid, whatever its hand.")
        return Verdict("pass", None, None, say, why.format(score=g.score), table)
    floor = a.high_bid  # a raise goes above the bid so far
    start = g.bid_from if g is not None and g.on_barrel else 0
    may = [L for L in sorted(rows) if L > floor and L >= start]
    ok = [
        L for L in may if a.recommended is not None and L <= a.recommended
        and rows[L]["expected"] > a.pass_mean
    ]  # fmt: skip
    up_to = max(ok) if ok else None
    forced = a.seat == "forehand" and not a.auction  # its 100 is bid for it

    def chance(L: int) -> str:
        r = rows[L]
        return _percent(r["p"], r["ci_low"], r["ci_high"])

    def stop(L: int) -> str:
        """Why ``L`` is not bid: the risk, or the score against passing."""
        r = rows[L]
        if a.recommended is None or L > a.recommended:
            return _("at {level} it makes it in {made}, and the interval's lower end is "
                     "below {risk}").format(level=L, made=chance(L), risk=risk)  # fmt: skip
        return _("at {level} it would score {expected} against {passing} for passing").format(
            level=L, expected=_signed(r["expected"]), passing=passing
        )

    cap = max(rows) if rows else 0
    if up_to is None:
        if not may:
            if start > cap:
                why = _("On the barrel bids start at {bid}, above what this hand may bid ({cap}).")
                why = why.format(bid=start, cap=cap)
            elif cap <= 120:
                why = _("Without a marriage this hand may not bid above 120; the bid is {high}.")
                why = why.format(high=floor)
            else:
                why = _("This hand's marriages allow bids up to {cap}; the bid is {high}.")
                why = why.format(cap=cap, high=floor)
        else:
            why = stop(may[0])
            why = why[:1].upper() + why[1:] + "."
        if forced:
            say = _("Bid the forehand's automatic 100, then pass.")
        else:
            say = _("Pass.")
        return Verdict("pass", None, None, say, why, table)
    later = [L for L in may if L > up_to]
    if not later:
        if up_to == cap and cap < max(int(L) for L in levels_of(a.rules)):
            rest = _("no higher bid is open to this hand ({cap}: 120 and its marriages)").format(
                cap=cap
            )
        else:
            rest = _("no higher bid is open")
    else:
        rest = stop(later[0])
    why = _("At {level} it makes the contract in {made} and scores {expected} against "
            "{passing} for passing; {rest}.").format(
        level=up_to, made=chance(up_to), expected=_signed(rows[up_to]["expected"]),
        passing=passing, rest=rest)  # fmt: skip
    if a.auction:
        say = _("Raise, up to {level}.").format(level=up_to)
        return Verdict("raise", up_to, None, say, why, table)
    if forced and up_to == 100:
        say = _("Bid the forehand's automatic 100 and no higher.")
    else:
        say = _("Bid up to {level}.").format(level=up_to)
    return Verdict("bid", up_to, None, say, why, table)


def verdict_lines(a: SampledAdvice | ShownTalon) -> list[str]:
    """The verdict as the answer's first lines: what to do, why, the table assumed."""
    v = verdict(a)
    lines = [f"**{v.say}** {v.why}"]
    if v.table:
        lines.append(v.table)
    return [*lines, ""]


def _mean_interval(mean: float, se: float) -> str:
    return _interval(mean, mean - Z95 * se, mean + Z95 * se, 1)


def _signed(v: float, places: int = 1) -> str:
    """``+12.5`` / ``-3.0`` as the language writes numbers (``+12,5``)."""
    return ("+" if v >= 0 else "") + number(v, places)


def _signed_interval(v: float, low: float, high: float) -> str:
    return f"{_signed(v)} [{_signed(low)}{interval_separator()}{_signed(high)}]"


def _interval(p: float, low: float, high: float, digits: int = 2) -> str:
    sep = interval_separator()
    return f"{number(p, digits)} [{number(low, digits)}{sep}{number(high, digits)}]"


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
                score=f"{_signed(mean)} ± {number(Z95 * se, 1)}"
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
    risk = f"{a.risk:.0%}"
    if a.recommended is None:
        rec = _("no level")
    else:
        rec = _("bid up to {level}").format(level=a.recommended)
    why = _(" (the highest level whose 95 % interval's lower end reaches {risk})").format(risk=risk)
    if a.auction:
        lines.insert(
            1,
            _("Auction so far: {auction}; a raise must go above {high}.").format(
                auction=re.sub(r"[a-z]+", lambda m: role(m.group(0)), a.auction),
                high=a.high_bid,
            ),
        )
        if a.recommended is None or a.recommended <= a.high_bid:
            rec = _("pass: no level above {high} reaches {risk}").format(high=a.high_bid, risk=risk)
            why = ""
        else:
            rec = _("raise, up to {level}").format(level=a.recommended)
    if a.reading is not None:
        lines.insert(2, _reading_text(a.reading))
    if a.table is None or a.samples >= a.minimum:
        lines.append(_("At risk {risk}: {answer}{why}.").format(risk=risk, answer=rec, why=why))
    else:
        lines.append(
            _(
                "At risk {risk}: {answer}, the tables' answer: {samples} sampled deals are "
                "fewer than the {minimum} that can show {risk} at all."
            ).format(risk=risk, answer=rec, samples=a.samples, minimum=a.minimum)
        )
    if a.table is not None:
        t = a.table
        if t.recommended is None:
            trec = _("no level")
        else:
            trec = _("bid up to {level}").format(level=t.recommended)
        if a.auction:
            trec += _(" (before any auction: the tables do not know this one)")
        lines.append(
            _(
                "The tables: {n} hands of the class ({klass}) played as the declarer's by "
                "`{player}` ({deals} deals, seed {seed}) say {answer}."
            ).format(
                n=number(t.n),
                klass=_class_text(t.klass),
                player=t.player,
                deals=number(t.deals),
                seed=t.seed,
                answer=trec,
            )
        )
    passing = f"{_signed(a.pass_mean)} ± {number(Z95 * a.pass_se, 1)}"
    if a.best_expected is not None:
        best = a.levels.filter(pl.col("level") == a.best_expected).row(0, named=True)
        lines.append(
            _(
                "Best expected score: a contract of {level}, {expected} against {passing} "
                "for passing."
            ).format(
                level=a.best_expected,
                expected=_signed_interval(
                    best["expected"], best["expected_low"], best["expected_high"]
                ),
                passing=passing,
            )
        )
    else:
        lines.append(
            _(
                "No contract beats passing ({passing}, the points a defender scores) in "
                "expectation."
            ).format(passing=passing)
        )
    lines.append("")
    shown = a.levels.select(
        pl.col("level").alias(_("level")),
        pl.struct("p", "ci_low", "ci_high")
        .map_elements(
            lambda r: _interval(r["p"], r["ci_low"], r["ci_high"]), return_dtype=pl.String
        )
        .alias(_("P(make) [95 % CI]")),
        pl.struct("expected", "expected_low", "expected_high")
        .map_elements(
            lambda r: _signed_interval(r["expected"], r["expected_low"], r["expected_high"]),
            return_dtype=pl.String,
        )
        .alias(_("expected score [95 % CI]")),
    )
    if a.game is not None:
        lines.insert(len(lines) - 1, _game_line(a))  # before the blank line and the table
    lines.append(to_markdown(shown, floats="{:.1f}").rstrip())
    lines += [
        "",
        _(
            "Passing: {passing} (the points this hand scores as a defender, {samples} deals "
            "played by `{player}` at every seat). A hand makes a level when it may bid it, "
            "would not concede it and its deal total reaches it."
        ).format(passing=passing, samples=a.pass_samples, player=a.pass_player),
    ]
    return "\n".join(lines) + "\n"


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
    made = "—" if row.height == 0 else _interval(row["p"][0], row["ci_low"][0], row["ci_high"][0])
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
    if d.height == 0:
        return [_("No give leaves a contract at or above the bid.")]
    top = d.row(0, named=True)
    lines = [
        _(
            "Talon {talon}, bid {bid}: give {left} to the left and {right} to the right, and "
            "name {contract}: made in {made} of the samples, expected {expected}. These are "
            "what open-card play makes (every card face up, both sides playing best): an "
            "upper bound on what a player at the table makes."
        ).format(
            talon=answer_cards(_cards(a.talon)),
            bid=a.bid,
            left=_card(top["to_left"]),
            right=_card(top["to_right"]),
            contract=top["contract"],
            made=_interval(top["p"], top["ci_low"], top["ci_high"]),
            expected=_signed(top["expected"]),
        ),
        "",
    ]
    shown = d.head(8).select(
        pl.col("to_left").map_elements(_card, return_dtype=pl.String).alias(_("to the left")),
        pl.col("to_right").map_elements(_card, return_dtype=pl.String).alias(_("to the right")),
        pl.col("contract").alias(_("contract")),
        pl.struct("p", "ci_low", "ci_high")
        .map_elements(
            lambda r: _interval(r["p"], r["ci_low"], r["ci_high"]), return_dtype=pl.String
        )
        .alias(_("P(make) [95 % CI]")),
        pl.col("expected").map_elements(_signed, return_dtype=pl.String).alias(_("expected")),
        pl.col("mean_total")
        .map_elements(lambda v: number(v, 1), return_dtype=pl.String)
        .alias(_("mean total")),
    )
    lines.append(to_markdown(shown, floats="{:.1f}").rstrip())
    return lines


def _card(text: str) -> str:
    """A card of the discard table (``KS``) as the answer writes cards."""
    from sim.cards import parse_card

    return answer_cards([parse_card(text)])


EXAMPLE_HANDS = {
    "AH TH KH QH AS 9C JD": "a ♥ marriage, two aces and a ten",
    "KS QS AC 9C JD 9H JH": "a ♠ marriage and an ace",
    "AS TS AC TC KD JH 9H": "two aces, two tens, no marriage",
}


def examples_table(answers: Sequence[SampledAdvice]) -> pl.DataFrame:
    """Worked examples side by side: the chance of 100 and 120, the bid, the best contract.

    The data of ``safebids_examples.csv``: the same in every language (English numbers).
    """
    from sim.i18n import speaking

    with speaking("en"):
        return _examples_table(answers)


def _examples_table(answers: Sequence[SampledAdvice]) -> pl.DataFrame:
    rows = []
    for a in answers:
        at = {r["level"]: r for r in a.levels.iter_rows(named=True)}

        def rate(level: int, at: dict = at) -> str:
            r = at.get(level)
            return "—" if r is None else _interval(r["p"], r["ci_low"], r["ci_high"])

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
            }
        )
    return pl.DataFrame(rows)


def _reading_text(r: AuctionReading) -> str:
    """The auction's reading in one sentence per seat that acted."""
    parts = []
    for seat in r.seats:
        if seat.passed:
            did = _("passed") if not seat.highest else _("passed at {bid}").format(bid=seat.highest)
        else:
            did = _("bid {bid}").format(bid=seat.highest)
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
        "n": t.n,
        "recommended": t.recommended,
        "levels": t.levels.to_dicts(),
    }


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
        game=None if a.game is None else asdict(a.game),
        minimum_samples=a.minimum,
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
    "EXAMPLE_HANDS",
    "Opponents",
    "SampledAdvice",
    "TableAnswer",
    "Verdict",
    "advice_json",
    "advice_markdown",
    "advise",
    "advise_talon",
    "class_of",
    "discard_table",
    "examples_table",
    "game_situation",
    "level_table",
    "minimum_samples",
    "opponents_text",
    "table_answer",
    "table_json",
    "verdict",
    "verdict_lines",
    "with_table",
]
