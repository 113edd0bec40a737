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

from analysis.choices import PASS, TABLE_RISK, Best, best_choice, choice_table, gain_of
from analysis.safebids import PAR, bid_caps, items_frame, levels_of, marriage_label, marriage_mask
from analysis.stats import Z95, wilson_interval
from analysis.tables import to_markdown
from sim.cards import cards_str
from sim.i18n import _, answer_cards, interval_separator, number, role, seat_
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
    best_expected: int | None  # the level of the choice (``best``), None when it is to pass
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
    choices: pl.DataFrame | None = None  # each bid plan played out (choice_frame)
    best: Best | None = None  # the rule's choice among them (analysis.choices)
    measure: str = "margin"  # what the choice is made by: margin, or win (the game's chance)
    played: AsPlayed | None = None  # the choice at the table as its player plays it
    concede_lost: bool = True  # the table concedes a lost contract (the rules allow it)
    sampled_best: Best | None = None  # the samples' own choice (``best`` may be the tables')
    win_before: float | None = None  # the seat's chance to win the game before the deal
    best_from: str = "samples"  # whose choice ``best`` is: samples, or tables


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
    """The class tables' answer: hands of this class at this seat, played out by ``player``.

    Attributes:
        player: who played the table's deals at every seat.
        deals: hands of the class dealt (on purpose) at the seat.
        seed: their seed.
        klass: the hand's class, in words (``♥ marriage, 2 aces``).
        seat: the seat the cell is of.
        n: the deals the cell's numbers rest on.
        levels: the cell's rows: each plan ``level`` (0: pass) with its margin ``mean``,
            ``low``, ``high``, paired ``diff``, ``diff_low``, ``diff_high`` from the
            best, ``declared``, and P(make) there ``p``, ``ci_low``, ``ci_high``.
        best: the rule's choice (:func:`analysis.choices.best_choice`).
        recommended: the highest level whose P(make) interval's lower end reaches the
            risk (the make rate's answer, not the choice).
        class_hands: how many of all hands the class holds (exact); ``share``: of all.
    """

    player: str
    deals: int
    seed: int
    klass: str
    seat: str
    n: int
    levels: pl.DataFrame
    best: Best
    recommended: int | None
    class_hands: int = 0
    share: float = 0.0


def class_of(hand: int) -> tuple[int, int]:
    """The hand's class in the tables: its marriages (suit bitmask) and its aces."""
    from analysis.safebids import count_rank

    dealt = np.array([hand], dtype=np.int64)
    return int(marriage_mask(dealt)[0]), int(count_rank(dealt, 5)[0])


def class_name(marriages: int, aces: int) -> str:
    """A class in the tables' words: ``♥ marriage, 2 aces`` (:func:`_class_text` reads it)."""
    label = marriage_label(marriages)
    return f"{'no marriage' if label == 'none' else label + ' marriage'}, {aces} aces"


def table_answer(
    hand: int,
    seat: int,
    seat_name: str,
    risk: float,
    choices: pl.DataFrame,
    verdicts: pl.DataFrame,
    player: str,
    deals: int,
    seed: int,
) -> TableAnswer:
    """The class tables' answer for ``hand`` at hand seat ``seat`` (its name ``seat_name``).

    ``choices`` and ``verdicts`` are the tables' frames
    (:class:`sim.jobs.advice_tables.ClassTables`); every class of every seat is there.
    """
    marriages, aces = class_of(hand)
    key = (pl.col("marriages") == marriages) & (pl.col("aces") == aces) & (pl.col("seat") == seat)
    rows = choices.filter(key).sort("level")
    cell = verdicts.filter(key).row(0, named=True)
    best = Best(int(cell["best"]), int(cell["low"]), int(cell["high"]),
                gain_of(rows, int(cell["best"])), bool(cell["leaned"]))  # fmt: skip
    ok = rows.filter(pl.col("ci_low") >= risk)["level"].to_list()
    return TableAnswer(
        player, deals, seed, class_name(marriages, aces), seat_name, int(cell["n"]),
        rows.drop("marriages", "aces", "seat"), best, max(ok) if ok else None,
        int(cell["class_hands"]), float(cell["share"]),
    )  # fmt: skip


def minimum_samples(risk: float) -> int:
    """The fewest deals whose 95 % interval can reach ``risk``: all of them made."""
    n = 1
    while float(wilson_interval(n, n)[0]) < risk:
        n += 1
    return n


def with_table(a: SampledAdvice, table: TableAnswer) -> SampledAdvice:
    """The answer with the tables' beside the samples': one choice for both.

    The choice is the class tables' (what every page says for the class and seat)
    unless this hand's own samples show it worse than their best (the paired interval
    of the difference below 0), or the tables cannot know the question (an auction so
    far, or a game score that the choice is made by): then it is the samples'. The
    make rate's answer (``recommended``) is the samples' when there are at least
    :func:`minimum_samples` of them, else the tables'.
    """
    from dataclasses import replace

    minimum = minimum_samples(a.risk)
    final = a.recommended if a.samples >= minimum else table.recommended
    best, source = a.best, "samples"
    if a.best is not None and a.choices is not None and not a.auction and a.measure == "margin":
        row = a.choices.filter(pl.col("level") == table.best.level)
        if row.height and float(row["diff_high"][0]) >= 0:
            chosen = table.best.level
            best = Best(chosen, a.best.low, a.best.high, gain_of(a.choices, chosen),
                        table.best.leaned)  # fmt: skip
            source = "tables"
    level = None if best is None or best.level == PASS else best.level
    return replace(a, table=table, sampled=a.recommended, recommended=final, minimum=minimum,
                   best=best, sampled_best=a.best, best_from=source,
                   best_expected=level)  # fmt: skip


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
    choices: Mapping[str, np.ndarray],
    plan_player: str,
    measure: str = "margin",
) -> SampledAdvice:
    """The answer from :func:`sim.runs.advise.bid_samples`' columns and the plans played.

    ``choices`` holds, per plan level (``level``: 0 for passing, else the level the
    seat bids up to) and sampled deal, what the plan came to
    (:func:`sim.runs.plans.plan_columns`: ``margin``, ``own``, ``declared``, ``made``,
    ``conceded``, ``contract``, ``declarer``, ``deltas``) at the answer's table, where
    a declarer concedes a contract it goes down in where that costs it less
    (:func:`analysis.choices.conceding_columns`: ``margin_played`` keeps the deals as
    played, :class:`AsPlayed`), and, with a game score, ``win`` (the seat's chance to
    win the game after the deal). ``measure`` names the value the choice is made by:
    ``margin``, or ``win`` with a score. ``plan_player`` played the plans at every seat.
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
    ok = table.filter(pl.col("ci_low") >= risk)["level"].to_list()
    recommended = max(ok) if ok else None
    options = choice_frame(choices, measure)
    best = best_choice(options, recommended)
    passing = options.filter(pl.col("level") == PASS).row(0, named=True)
    pass_se = (passing["own_high"] - passing["own"]) / Z95
    return SampledAdvice(
        rules, hand, seat, player, n, risk, table, passing["own"], pass_se, n, recommended,
        None if best.level == PASS else best.level, pass_player=plan_player, choices=options,
        best=best, measure=measure, played=as_played(choices, measure, recommended),
    )  # fmt: skip


def choice_frame(choices: Mapping[str, np.ndarray], measure: str = "margin") -> pl.DataFrame:
    """Each plan's value with its intervals (:func:`analysis.choices.choice_table`) and more.

    Beside the value (``measure``: ``margin`` or ``win``): ``declared`` (the share of
    deals the seat won the auction), ``made`` (the share of those it made), ``contract``
    (its mean contract there), ``own`` with ``own_low`` and ``own_high`` (its mean deal
    score and interval), and ``margin`` with its interval when the value is ``win``.
    """
    levels = np.asarray(choices["level"], dtype=np.int64)
    out = choice_table(levels, choices[measure])
    declared = np.asarray(choices["declared"], dtype=bool)
    n = declared.shape[1]
    took = declared.sum(axis=1)
    made = (declared & np.asarray(choices["made"], dtype=bool)).sum(axis=1)
    contract = np.where(declared, choices["contract"], 0).sum(axis=1)
    own = np.asarray(choices["own"], dtype=np.float64)
    own_se = own.std(axis=1, ddof=1) / np.sqrt(n)
    extra = {
        "declared": took / n,
        "made": np.where(took > 0, made / np.maximum(took, 1), np.nan),
        "contract": np.where(took > 0, contract / np.maximum(took, 1), np.nan),
        "own": own.mean(axis=1),
        "own_low": own.mean(axis=1) - Z95 * own_se,
        "own_high": own.mean(axis=1) + Z95 * own_se,
    }
    if measure != "margin":
        margin = np.asarray(choices["margin"], dtype=np.float64)
        m_se = margin.std(axis=1, ddof=1) / np.sqrt(n)
        extra["margin"] = margin.mean(axis=1)
        extra["margin_low"] = margin.mean(axis=1) - Z95 * m_se
        extra["margin_high"] = margin.mean(axis=1) + Z95 * m_se
    return out.with_columns(pl.Series(k, v) for k, v in extra.items())


@dataclass(frozen=True)
class AsPlayed:
    """The choice at the table as its player plays, conceding nothing it would not.

    The answer's table concedes a contract it goes down in where that costs it less
    (:func:`analysis.choices.conceding_columns`), as a person who sees the contract
    lost would; the table's player may instead play every lost contract out (``strong``
    under ``classic``: conceding and failing cost it the same). Attributes: ``share``,
    the passing plan's deals in which another seat's concession changed the deal;
    ``level``, ``value``: the choice at the table as played and its value there;
    ``passing``: passing's value there.
    """

    share: float
    level: int
    value: float
    passing: float


def as_played(
    choices: Mapping[str, np.ndarray], measure: str, safe: int | None = None
) -> AsPlayed | None:
    """:class:`AsPlayed` of the plans (None where no concession changed a deal, or by win).

    ``safe``: the highest level made at the risk, as :func:`analysis.choices.best_choice`
    takes it.
    """
    if measure != "margin" or "margin_played" not in choices:
        return None
    yielded = np.asarray(choices.get("yielded", np.zeros(0)), dtype=bool)
    if not yielded.any():
        return None
    levels = np.asarray(choices["level"])
    p = int(np.flatnonzero(levels == PASS)[0])
    me = int(np.asarray(choices["seat"]))
    others = yielded[p] & (np.asarray(choices["declarer"])[p] != me)
    played = np.asarray(choices["margin_played"], dtype=np.float64)
    best = best_choice(choice_table(levels, played), safe)
    value = float(played[int(np.flatnonzero(levels == best.level)[0])].mean())
    return AsPlayed(float(others.mean()), best.level, value, float(played[p].mean()))


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
    contracts: Sequence[Sequence[int]],
    margins: np.ndarray,
    made: np.ndarray,
    player: str,
    bound: pl.DataFrame | None = None,
    open_samples: int = 0,
) -> SampledAdvice:
    """The answer after winning the bid: every give and contract played out, the best first.

    ``margins[k, g, j]`` and ``made[k, g, j]``: deal ``k`` played by ``player`` at every
    seat after give ``g`` (card to the left, card to the right) and contract
    ``contracts[g][j]`` (:func:`sim.runs.advise.give_samples`). For each give its best
    contract by mean margin; the gives by that margin, the best first, each with its
    paired difference from the best and P(make) there; beside them conceding the bid
    (its deal scores as the rules score a concession: no play). ``bound`` is the
    open-card judge's table (:func:`discard_table`, ``open_samples`` deals): what each
    give makes with every card face up, an upper bound.
    """
    table = played_gives(rules, gives, contracts, margins, made, bid, bound)
    return SampledAdvice(
        rules, hand, seat, player, int(margins.shape[0]), risk, pl.DataFrame(), 0.0, 0.0,
        0, None, None, table, talon, bid, pass_player=player, minimum=open_samples,
    )  # fmt: skip


def concede_margin(rules: Rules, bid: int, players: int) -> float:
    """The declarer's margin when it concedes ``bid`` (§5): its score less the others' mean."""
    own = rules.rospis.declarer_gets(bid)
    gets = rules.rospis.each_opponent_gets(bid)
    others = [gets] * 2 + ([0.0] if players == 4 else [])
    return own - sum(others) / len(others)


def played_gives(
    rules: Rules,
    gives: Sequence[tuple[int, int]],
    contracts: Sequence[Sequence[int]],
    margins: np.ndarray,
    made: np.ndarray,
    bid: int,
    bound: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Each give's best contract as played, the best first (:func:`advise_talon`).

    Columns: ``to_left``, ``to_right``, ``contract``, ``n``, ``made``, ``p``, ``ci_low``,
    ``ci_high`` (P(make) of that contract), ``expected`` (the declarer's mean deal
    score), ``mean_total`` (null: no totals here), ``margin``, ``margin_low``,
    ``margin_high``, ``diff``, ``diff_low``, ``diff_high`` (paired, from the best give),
    and the open-card bound of the give from ``bound``: ``open_contract``, ``open_p``
    (its best contract there and P(make) of it), null without one. A last row, the
    give ``—``, is conceding the bid where the rules allow it.
    """
    n = margins.shape[0]
    best_of: list[tuple[int, int]] = []
    for g, levels in enumerate(contracts):
        means = margins[:, g, : len(levels)].mean(axis=0)
        best_of.append((g, int(np.argmax(means))))
    top_g, top_j = max(best_of, key=lambda gj: margins[:, gj[0], gj[1]].mean())
    top = margins[:, top_g, top_j]
    opened = {} if bound is None else {(r["to_left"], r["to_right"]): r
                                       for r in bound.iter_rows(named=True)}  # fmt: skip
    rows = []
    for g, j in best_of:
        m = margins[:, g, j]
        k = int(made[:, g, j].sum())
        low, high = wilson_interval(k, n)
        d = m - top
        dse = d.std(ddof=1) / np.sqrt(n) if n > 1 else np.nan
        mse = m.std(ddof=1) / np.sqrt(n) if n > 1 else np.nan
        left, right = cards_str([gives[g][0]]), cards_str([gives[g][1]])
        contract = int(contracts[g][j])
        o = opened.get((left, right))
        rows.append({
            "to_left": left, "to_right": right, "contract": contract, "n": n, "made": k,
            "p": k / n, "ci_low": float(low), "ci_high": float(high),
            "expected": contract * (2 * k / n - 1), "mean_total": None,
            "margin": float(m.mean()), "margin_low": float(m.mean() - Z95 * mse),
            "margin_high": float(m.mean() + Z95 * mse), "diff": float(d.mean()),
            "diff_low": float(d.mean() - Z95 * dse), "diff_high": float(d.mean() + Z95 * dse),
            "open_contract": None if o is None else int(o["contract"]),
            "open_p": None if o is None else float(o["p"]),
        })  # fmt: skip
    out = pl.DataFrame(rows).sort("margin", descending=True, maintain_order=True)
    if rules.rospis.allowed:
        c = concede_margin(rules, bid, 3)
        out = pl.concat([out, pl.DataFrame([{
            **dict.fromkeys(out.columns), "to_left": "—", "to_right": "—", "contract": bid,
            "n": n, "made": 0, "p": 0.0, "ci_low": 0.0, "ci_high": 0.0, "expected": -float(bid),
            "margin": c, "margin_low": c, "margin_high": c, "diff": c - float(top.mean()),
            "diff_low": c - float(top.mean() + Z95 * top.std(ddof=1) / np.sqrt(n)),
            "diff_high": c - float(top.mean() - Z95 * top.std(ddof=1) / np.sqrt(n)),
        }], schema=out.schema)]).sort("margin", descending=True, maintain_order=True)  # fmt: skip
    return out


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
    top = a.discards.row(0, named=True)
    played = _("Played out by `{player}` at every seat it scores a margin of {margin} a deal")
    margin = _signed_interval(top["margin"], top["margin_low"], top["margin_high"])
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
                margin=_signed(g["margin"]),
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
        choice = _("pass ({value})").format(value=_signed(p.value))
    else:
        choice = _("bid up to {level} ({value}; passing {passing})").format(
            level=p.level, value=_signed(p.value), passing=_signed(p.passing)
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
            value=_signed_interval(row["mean"], row["low"], row["high"])
        )
    if against_pass:
        diff = _diff_text(a, row["diff"], row["diff_low"], row["diff_high"])
        text += _(" ({diff} against passing)").format(diff=diff)
    return text


def _diff_text(a: SampledAdvice, d: float, low: float, high: float) -> str:
    """A difference of two plans with its interval: points, or points of percentage."""
    if a.measure == "win":
        return _("{diff} [{low}{sep}{high}] points of percentage").format(
            diff=_signed(100 * d), low=_signed(100 * low), high=_signed(100 * high),
            sep=interval_separator(),
        )  # fmt: skip
    return _signed_interval(d, low, high)


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
            else _signed_interval(r["mean"], r["low"], r["high"])
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
            else _interval(m["p"], m["ci_low"], m["ci_high"]),
        }
        if a.measure == "win":
            row[_("margin [95 % CI]")] = _signed_interval(
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
                _signed_interval(r["margin"], r["margin_low"], r["margin_high"]) for r in rows
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
                "margin of the choice [95 % CI]": _choice_margin(a),
            }
        )
    return pl.DataFrame(rows)


def _choice_margin(a: SampledAdvice) -> str:
    """The margin of the answer's choice with its interval (as the examples show it)."""
    if a.choices is None or a.best is None:
        return "—"
    row = a.choices.filter(pl.col("level") == a.best.level).row(0, named=True)
    return _interval(row["mean"], row["low"], row["high"], 1)


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
    "EXAMPLE_HANDS",
    "Opponents",
    "SampledAdvice",
    "TableAnswer",
    "Verdict",
    "advice_json",
    "advice_markdown",
    "advise",
    "advise_talon",
    "choice_frame",
    "choices_shown",
    "class_name",
    "class_of",
    "discard_table",
    "examples_table",
    "game_situation",
    "level_table",
    "minimum_samples",
    "opponents_text",
    "table_answer",
    "table_json",
    "table_markdown",
    "table_verdict",
    "verdict",
    "verdict_lines",
    "with_table",
]
