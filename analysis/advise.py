"""The advisor's answer for one hand: P(make) at every level, expected scores, the bid.

From :mod:`sim.runs.advise`'s samples (the hand's unseen cards dealt at random and played
out). Every rate carries its 95 % Wilson interval; every mean its standard error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
import polars as pl

from analysis.choices import PASS, Best, best_choice, choice_table, gain_of
from analysis.safebids import (
    PAR,
    bid_caps,
    count_rank,
    items_frame,
    levels_of,
    marriage_label,
    marriage_mask,
)
from analysis.stats import Z95, wilson_interval
from sim.cards import cards_str
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
    dealt = np.array([hand], dtype=np.int64)
    return int(marriage_mask(dealt)[0]), int(count_rank(dealt, 5)[0])


def class_name(marriages: int, aces: int) -> str:
    """A class in the tables' code: ``♥ marriage, 2 aces`` (:mod:`views.advise` shows it)."""
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


EXAMPLE_HANDS = {
    "AH TH KH QH AS 9C JD": "a ♥ marriage, two aces and a ten",
    "KS QS AC 9C JD 9H JH": "a ♠ marriage and an ace",
    "AS TS AC TC KD JH 9H": "two aces, two tens, no marriage",
}


__all__ = [
    "EXAMPLE_HANDS",
    "AsPlayed",
    "AuctionReading",
    "GameSituation",
    "Opponents",
    "SampledAdvice",
    "SeatReading",
    "ShownTalon",
    "TableAnswer",
    "Verdict",
    "advise",
    "advise_talon",
    "as_played",
    "choice_frame",
    "class_name",
    "class_of",
    "concede_margin",
    "discard_table",
    "game_situation",
    "level_table",
    "minimum_samples",
    "played_gives",
    "table_answer",
    "with_table",
]
