"""The advisor job: how far to bid with a hand, or what to give away after the talon.

``thousand advise`` calls :func:`advise`; a notebook can too::

    from sim.jobs.advise import AdviseSpec, advise
    from sim.rules import load_rules

    spec = AdviseSpec(rules=load_rules("classic"), hand="AH TH KH QH AS 9C JD")
    print(advise(spec).markdown())

The samples are dealt and played by :mod:`sim.runs.advise`; the answer is
:mod:`analysis.advise`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.i18n import _, number, role
from sim.output import FieldError
from sim.players import ADVISORS, DEFAULT, PAR, advice_samples, fast, tables_player
from sim.rules import Rules
from sim.runs.folder import QUIET, Feedback
from sim.table_text import Auction, hand_roles, read_auction, read_cards, read_seat

if TYPE_CHECKING:  # the answer's classes: importing the job stays light
    import numpy as np
    import polars as pl

    from analysis.advise import AuctionReading, Opponents, SampledAdvice, ShownTalon
    from sim.runs.advise import AuctionPolicy

# ADVISORS (sim.players): the players whose play the advice may rest on, by their
# records (``random`` or ``cheater`` would answer questions no player at the table asks),
# and the open-card par; each samples its record's ``advice_samples`` deals by default.
DEFAULT_BUDGET = 7.0  # seconds of sampled play: with the pass baseline, an answer in <= 10 s
# The class tables the answer starts from: every hand of these deals played as the
# declarer's by the table's player (1-2 s of two cores for strong, once per rule set).
TABLE_DEALS = 100_000
TABLE_SEED = 1_000
PAR_SAMPLE = 200  # deals of a shown talon the open-card par plays too (about 6 s)
# Whose tables each advisor starts from: its record's ``tables_from`` (pimc's and the
# par's own would take hours): sim.players.tables_player.


def opponents(player: str) -> Opponents:
    """Who an answer by ``player`` assumes at the other seats, and how strong it plays.

    The measure is the players' ladder (``docs/ladder.json``, ``make players``): the
    duplicate duel of ``player`` against the sampling advisor (the strongest player
    that advises), or for that player against the default. None where the ladder is
    missing or has no such duel; the par plays every card face up and has none.
    """
    from analysis.advise import Opponents
    from sim.jobs.players import read_ladder
    from sim.players import RECORDS

    if player == PAR:
        return Opponents(PAR)
    compared = next(
        (p.name for p in RECORDS if p.advises and p.speed == "sampling" and p.name != player),
        DEFAULT,
    )
    ladder = read_ladder() or {}
    for pair in ladder.get("pairs", []):
        if {pair["a"], pair["b"]} != {player, compared} or player == compared:
            continue
        d, low, high = pair["score_diff"], pair["ci_low"], pair["ci_high"]
        if pair["a"] != player:
            d, low, high = -d, -high, -low
        return Opponents(player, compared, (d, low, high), int(pair["deals"]), ladder["rules"])
    return Opponents(player)


def check_player(name: str) -> str:
    """``name`` if it is one of :data:`ADVISORS`.

    Raises:
        FieldError: naming the ``player`` field, the closest advisor and every one there is.
    """
    from sim.rules import did_you_mean

    name = name.strip()
    if name not in ADVISORS:
        hint = did_you_mean(name, ADVISORS)
        why = _("{field:player}: {name} is not an advisor{hint} (one of {advisors})")
        raise FieldError("player", why, name=repr(name), hint=hint, advisors=", ".join(ADVISORS))
    return name


@dataclass(frozen=True, kw_only=True)
class AdviseSpec:
    """What the advisor is asked (every field by its name).

    Attributes:
        rules: the house rules.
        hand: the hand's cards as text (7, or 10 with two players).
        seat: ``forehand``, ``middle`` or ``dealer`` (two players: forehand, dealer);
            None: the seat whose turn it is after ``auction``, else forehand.
        player: who plays the samples: a strategy or ``par`` (every card face up).
        risk: the make rate a bid must reach.
        samples: sampled deals (None: the player's record's ``advice_samples``).
        budget: seconds of sampled play for the slow players (0: every sample).
        seed: the run's seed.
        talon: the 3 talon cards as text: advise the discard instead of the bid.
        bid: with ``talon``, the bid won.
        params: ``STRATEGY.NAME=VALUE`` settings of the player.
        workers: compiled-code threads (None: every core).
        deal_file: a deal in the deal notation (:mod:`sim.notation`) or a ``hands
            --trace`` file: the hand is the ``seat``'s there (``hand`` left empty).
        deal: the deal's number in ``deal_file`` (needed when it holds several).
        auction: the bids so far in turn from forehand (``"100 pass 110"``): the
            sampled deals are those the auction allows, and the answer says whether to
            raise or pass; the ``seat`` must be the one to bid next.
        score: the seat's game score: the answer names the contract that takes it onto
            the barrel (or wins, without a barrel) and its chance.
        barrel: the seat sits on the barrel: the answer names the contract that wins.
        talon_shown: the 3 talon cards shown after an ``auction`` that is over and won
            by another seat: the answer is the declarer's chance to make its bid and
            the hand's score as a defender, from deals in which the declarer took them.
    """

    rules: Rules
    hand: str
    seat: str | None = None
    player: str = DEFAULT
    risk: float = 0.75
    samples: int | None = None
    budget: float = DEFAULT_BUDGET
    seed: int = 0
    talon: str | None = None
    bid: int = 100
    params: tuple[str, ...] = ()
    workers: int | None = None
    deal_file: Path | None = None
    deal: int | None = None
    auction: str | None = None
    score: int | None = None
    barrel: bool = False
    talon_shown: str | None = None

    def hand_text(self) -> str:
        """The hand: ``hand``, or the ``seat``'s cards in ``deal`` of ``deal_file``.

        Raises:
            FieldError: both a hand and a deal file, or neither; a seat the deal lacks.
            NotationError: a deal that cannot be read.
        """
        if self.deal_file is None:
            if not self.hand:
                raise FieldError("hand", _("{field:hand}: give the cards, or {field:deal_file}"))
            return self.hand
        if self.hand:
            raise FieldError("hand", _("give either {field:hand} or {field:deal_file}, not both"))
        from sim.cards import cards_str
        from sim.jobs.show import played, read_deals

        deal = played(read_deals(self.deal_file, self.rules.name), self.deal)[0]
        seats = deal.hand_seats()
        seat = read_seat(str(self.seat), hand_roles(deal.players))
        return cards_str(list(deal.hands[seats[seat]]))


@dataclass(frozen=True)
class AdvisorAnswer:
    """The advisor job's result: its answer and how to show it (``thousand advise``).

    Attributes:
        answer: the advice from the sampled deals (:class:`analysis.advise.SampledAdvice`),
            or with ``talon_shown`` the defender's view (:class:`analysis.advise.ShownTalon`).
    """

    answer: SampledAdvice | ShownTalon

    def json(self) -> dict[str, Any]:
        """The answer as one JSON document (``thousand advise --json``)."""
        from analysis.advise import ShownTalon, advice_json, shown_json

        if isinstance(self.answer, ShownTalon):
            return shown_json(self.answer)
        return advice_json(self.answer)

    def markdown(self) -> str:
        """The answer in a few lines and one table (what the command prints)."""
        from analysis.advise import ShownTalon, advice_markdown, shown_markdown

        if isinstance(self.answer, ShownTalon):
            return shown_markdown(self.answer)
        return advice_markdown(self.answer)


def class_tables(
    rules: Rules, player: str, feedback: Feedback = QUIET, workers: int | None = None
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The class curves (by marriages and aces, and by marriages) of ``player``'s tables.

    Built once per rule set, engine version and player (:data:`TABLE_DEALS` deals of
    the safe-bid job, seed :data:`TABLE_SEED`) and kept under
    :func:`sim.cache.tables_root`; later calls read them back.
    """
    import polars as pl

    import sim
    from sim.cache import tables_root
    from sim.jobs.safebids import SafeBidsSpec, safebids

    name = f"{rules.rules_hash}-e{sim.ENGINE_VERSION}-{player}-{TABLE_DEALS}-{TABLE_SEED}"
    paths = [tables_root() / f"{name}-{by}.parquet" for by in ("marriages_aces", "marriages")]
    try:
        return pl.read_parquet(paths[0]), pl.read_parquet(paths[1])
    except OSError:
        pass
    why = _(
        "building the class tables of {rules} for {player} once"
        " ({deals} deals, a second or two) ..."
    )
    feedback.say(why.format(rules=rules.name, player=player, deals=number(TABLE_DEALS)))
    spec = SafeBidsSpec(
        rules=rules, players=(player,), deals=TABLE_DEALS, sample=1, seed=TABLE_SEED,
        holdout_seed=None, workers=workers,
    )  # fmt: skip
    tables = safebids(spec).result.tables
    curves = tables["curve_by_marriages_aces"], tables["curve_by_marriages"]
    try:
        paths[0].parent.mkdir(parents=True, exist_ok=True)
        for path, curve in zip(paths, curves, strict=True):
            tmp = path.with_name(f".{path.name}.{os.getpid()}")
            curve.write_parquet(tmp)
            tmp.replace(path)
    except OSError:  # a read-only cache: built again next time
        pass
    return curves


def bidding_policy(rules: Rules, player: str, feedback: Feedback = QUIET) -> AuctionPolicy:
    """How ``player`` bids (:func:`sim.runs.advise.auction_policy`), measured once per rule set.

    :data:`sim.runs.advise.POLICY_HANDS` hands of seed :data:`TABLE_SEED`, kept under
    :func:`sim.cache.tables_root` beside the class tables.
    """
    import numpy as np

    import sim
    from sim.cache import tables_root
    from sim.runs.advise import POLICY_HANDS, AuctionPolicy, auction_policy

    name = f"{rules.rules_hash}-e{sim.ENGINE_VERSION}-{player}-policy-{POLICY_HANDS}-{TABLE_SEED}"
    path = tables_root() / f"{name}.npy"
    levels = (0, *rules.bid_levels())
    try:
        return AuctionPolicy(player, POLICY_HANDS, TABLE_SEED, levels, np.load(path))
    except (OSError, ValueError):
        pass
    why = _("measuring how {player} bids under {rules} once ({hands} hands)")
    feedback.say(why.format(player=player, rules=rules.name, hands=number(POLICY_HANDS)))
    policy = auction_policy(rules, player, POLICY_HANDS, TABLE_SEED)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.stem}.{os.getpid()}.npy")
        np.save(tmp, policy.counts)
        tmp.replace(path)
    except OSError:  # a read-only cache: measured again next time
        pass
    return policy


def auction_reading(
    rules: Rules,
    hand: int,
    seat: int,
    auction: Auction,
    policy: AuctionPolicy,
    deals: np.ndarray,
    seed: int,
) -> AuctionReading:
    """What the reading made of each seat that acted (:class:`analysis.advise.AuctionReading`).

    ``deals``: sampled deals under the reading; they are compared with as many that
    only the rules narrow.
    """
    import numpy as np

    from analysis.advise import AuctionReading, SeatReading
    from analysis.safebids import marriage_mask
    from sim.runs.advise import hand_classes, sample_deals

    def marriage(masks: np.ndarray) -> float:
        return float(np.mean(marriage_mask(masks.astype(np.int64)) > 0))

    others = [(s, b) for s, b in auction.highest() if s != seat]
    plain = sample_deals(rules, hand, seat, len(deals), seed, bids=others)
    kept = np.ones(len(plain))
    seats = []
    for s, highest, passed in (a for a in auction.acted() if a[0] != seat):
        kept *= policy.keep(s, highest, passed)[hand_classes(rules, plain[:, s])]
        seats.append(SeatReading(
            auction.names[s], highest, passed, marriage(deals[:, s]), marriage(plain[:, s])
        ))  # fmt: skip
    return AuctionReading(policy.player, policy.hands, policy.seed, float(kept.mean()),
                          tuple(seats))  # fmt: skip


def talon_shown(
    spec: AdviseSpec, hand: int, seat: int, player: str, n: int, feedback: Feedback
) -> ShownTalon:
    """The defender's view once the talon is shown (:class:`analysis.advise.ShownTalon`).

    The auction is over and another seat won it; the sampled deals give that seat the
    shown talon and every other unseen card at random as the auction allows (its
    bids, and the seats' actions read as the table's player bids). Each is played with
    ``player`` at every seat, the declarer having won at the auction's bid (so it names
    a contract from there), and again with the talon unknown (the same auction), to
    show what the shown cards changed; the first :data:`PAR_SAMPLE` deals also by the
    open-card par (within the time budget), the best any declarer makes of them.
    """
    import numpy as np

    from analysis.advise import ShownTalon
    from analysis.safebids import items_frame
    from sim.engine.deal import n_hands
    from sim.engine.declarer import D_CONCEDE_FROM, D_CONTRACT, D_DELTA0, D_TOTAL
    from sim.runs.advise import play_blocks, sample_deals

    rules = spec.rules
    assert spec.talon_shown is not None and spec.seat is not None
    hands = n_hands(rules.players)
    if hands != 3:
        why = _("{field:talon_shown}: only with three active players")
        raise FieldError("talon_shown", why)
    if spec.talon is not None:
        why = _("{field:talon_shown}: the talon is either yours ({field:talon}) or shown, not both")
        raise FieldError("talon_shown", why)
    if spec.auction is None:
        why = _(
            "{field:talon_shown}: give the whole auction ({field:auction}), to know who took it"
        )
        raise FieldError("talon_shown", why)
    auction = read_auction(rules, spec.auction, hands, over=True)
    declarer = auction.high_seat
    if declarer == seat:
        why = _(
            "{field:talon_shown}: {seat} won the auction: advise the discard with {field:talon}"
        )
        raise FieldError("talon_shown", why, seat=role(spec.seat))
    if rules.talon.hide_at_100 and len(auction.highest()) == 1:
        why = _(
            "{field:talon_shown}: won at 100 without bidding, the talon is not shown"
            " (talon.hide_at_100)"
        )
        raise FieldError("talon_shown", why)
    talon = read_cards("talon_shown", spec.talon_shown, 3, hand)
    others = [(s, b) for s, b in auction.highest() if s != seat]
    policy = bidding_policy(rules, tables_player(player), feedback)
    acted = [x for x in auction.acted() if x[0] != seat]
    budget = 0.0 if fast(player) else spec.budget
    decls = np.full(n, declarer, dtype=np.int64)
    won_at = np.full(n, auction.high, dtype=np.int64)  # the declarer won there, not lower

    def played(masks: np.ndarray, seed: int, who: str = player) -> tuple[np.ndarray, Any]:
        """The highest level each deal makes, and the rows (None for the par)."""
        rows = play_blocks(rules, masks, decls[: len(masks)], who, seed,
                           list(spec.params) if who == player else [],
                           budget if who == player else spec.budget,
                           won_at[: len(masks)], feedback)  # fmt: skip
        k = len(rows)
        if who == "par":
            frame = items_frame(rules, who, masks[:k, declarer], np.zeros(k, np.int64),
                                np.arange(k), None, None, par_level=rows[:, 1])  # fmt: skip
            return frame["made_to"].to_numpy(), None
        frame = items_frame(rules, who, masks[:k, declarer], np.zeros(k, np.int64),
                            np.arange(k), rows[:, D_TOTAL], rows[:, D_CONCEDE_FROM])  # fmt: skip
        return frame["made_to"].to_numpy(), rows

    try:
        shown = sample_deals(rules, hand, seat, n, spec.seed, talon=talon, bids=others,
                             policy=policy, acted=acted)  # fmt: skip
        unknown = sample_deals(rules, hand, seat, n, spec.seed, bids=others, policy=policy,
                               acted=acted)  # fmt: skip
    except ValueError as exc:  # no deal allows the auction with this hand
        raise FieldError("auction", "{field}: {reason}", reason=str(exc)) from None
    made_to, rows = played(shown, spec.seed)
    made_plain = played(unknown, spec.seed + 1)[0]
    defence = contract = conceded = None
    if rows is not None:
        defence = rows[:, D_DELTA0 + seat]
        contract = float(rows[:, D_CONTRACT].mean())
        cf = rows[:, D_CONCEDE_FROM]
        conceded = float(((cf > 0) & (cf <= auction.high)).mean())
    # the open-card par on the same deals (the first PAR_SAMPLE): what best play makes
    par = None if player == "par" else played(shown[:PAR_SAMPLE], spec.seed, "par")[0]
    return ShownTalon.of(
        rules, hand, spec.seat, player, talon, auction.names[declarer], auction.high,
        made_to, made_plain, defence, auction.text(), requested=n, budget=spec.budget,
        contract=contract, conceded=conceded, par=par,
    )  # fmt: skip


def check_barrel_score(rules: Rules, barrel: bool, score: int | None) -> None:
    """Refuse a score a seat on the barrel cannot have (rules §9), before any work.

    The barrel pins the score at ``barrel.at`` (with ``barrel.accumulate`` it may rise).

    Raises:
        FieldError: naming ``score``.
    """
    at = rules.barrel.at
    if not barrel or score is None or at == 0:
        return
    if not rules.barrel.accumulate and score != at:
        why = _("{field:score} {score}: a seat on the barrel has exactly {at} (barrel.at)")
        raise FieldError("score", why, score=score, at=at)
    if score < at:
        why = _("{field:score} {score}: a seat on the barrel has at least {at} (barrel.at)")
        raise FieldError("score", why, score=score, at=at)


def advise(spec: AdviseSpec, feedback: Feedback = QUIET) -> AdvisorAnswer:
    """Deal the cards the hand cannot see, play the samples; the advice.

    Raises:
        FieldError: bad cards, a seat, talon or bid the rules do not have, an auction
            that breaks the rules or that no deal allows; the message names the spec's
            fields (the command line words them as its flags).
        StrategyError: an unknown player or parameter.
    """
    from analysis import advise as a
    from sim.engine.deal import n_hands, place_sizes
    from sim.engine.strategies.registry import parse_params
    from sim.parallel import set_threads
    from sim.runs.advise import PASS_PLAYER, bid_samples, discard_samples

    rules = spec.rules
    hands = n_hands(rules.players)
    seats = hand_roles(rules.players)  # with four players the third active hand is the rear
    if spec.seat is None:  # the seat whose turn the auction says it is; else forehand
        turn = None
        if spec.auction is not None and spec.talon_shown is None and spec.talon is None:
            turn = seats[read_auction(rules, spec.auction, hands).next_seat]
        spec = replace(spec, seat=turn or "forehand")
    assert spec.seat is not None
    hand = read_cards("hand", spec.hand_text(), place_sizes(rules.players)[0])
    seat = read_seat(spec.seat, seats)
    spec = replace(spec, seat=seats[seat])  # its name, however it was written
    assert spec.seat is not None
    check_barrel_score(rules, spec.barrel, spec.score)
    player = check_player(spec.player)
    if player != "par":
        parse_params([player] * hands, list(spec.params))
    set_threads(spec.workers)
    n = spec.samples or advice_samples(player)
    if spec.talon_shown is not None:
        shown = talon_shown(spec, hand, seat, player, n, feedback)
        return AdvisorAnswer(replace(shown, opponents=opponents(player)))
    auction = None
    if spec.auction is not None:
        if spec.talon is not None:
            why = _("{field:auction}: the bidding is over once the talon is taken ({field:talon})")
            raise FieldError("auction", why)
        auction = read_auction(rules, spec.auction, hands)
        if auction.next_seat != seat:
            why = _(
                "{field:auction}: it is {turn}'s turn after {auction}, not {seat}'s ({field:seat})"
            )
            raise FieldError("auction", why, turn=role(seats[auction.next_seat]),
                             auction=repr(spec.auction), seat=role(spec.seat))  # fmt: skip
        from sim.runs.advise import hand_cap

        own = max((b for s, b in auction.highest() if s == seat), default=0)
        if own > hand_cap(rules, hand):
            why = _("{field:auction}: {seat} bid {bid}, above what {field:hand} may bid")
            raise FieldError("auction", why, seat=role(spec.seat), bid=own)
    if spec.talon is not None:  # the open-card judge of every give: the player is not used
        n = spec.samples or advice_samples(PAR)
        if hands != 3:
            raise FieldError("talon", _("{field:talon}: only with three active players"))
        talon = read_cards("talon", spec.talon, 3, hand)
        if spec.bid not in rules.bid_levels():
            why = _("{field:bid} {bid}: a bid level (100, 100 + bid.step, …)")
            raise FieldError("bid", why, bid=spec.bid)
        # in this process: starting worker processes (each loading the solver) cost more
        # than they saved at these sizes (17 s serial against 25 s on two, measured)
        gives, made_to, caps, totals = discard_samples(
            rules, hand, talon, seat, spec.bid, n, spec.seed, budget=spec.budget
        )
        answer = a.advise_talon(
            rules, hand, spec.seat, talon, spec.bid, spec.risk, gives, made_to, caps, totals
        )
        answer = replace(answer, opponents=opponents(PAR))
    else:
        budget = 0.0 if fast(player) else spec.budget  # the fast players: every sample
        others = [(s, b) for s, b in auction.highest() if s != seat] if auction else []
        # the other seats' actions read as the table's player bids (three active players)
        policy = None
        if auction is not None and hands == 3 and any(s != seat for s, *_ in auction.acted()):
            policy = bidding_policy(rules, tables_player(player), feedback)
        acted = [x for x in auction.acted() if x[0] != seat] if auction else []
        try:
            cols = bid_samples(
                rules, hand, seat, player, n, spec.seed, list(spec.params), budget=budget,
                bids=others, policy=policy, acted=acted, feedback=feedback,
            )  # fmt: skip
        except ValueError as exc:  # no deal allows the auction with this hand
            raise FieldError("auction", "{field}: {reason}", reason=str(exc)) from None
        answer = a.advise(rules, hand, spec.seat, player, spec.risk, cols, pass_player=PASS_PLAYER)
        if auction is not None:
            answer = replace(answer, auction=auction.text(), high_bid=auction.high)
        if policy is not None and auction is not None:
            reading = auction_reading(
                rules, hand, seat, auction, policy, cols["pass_deals"], spec.seed + 2
            )
            answer = replace(answer, reading=reading)
        if spec.barrel or spec.score is not None:
            from sim.runs.advise import hand_cap

            score = spec.score if spec.score is not None else rules.barrel.at
            if spec.barrel and rules.barrel.at == 0:
                why = _("{field:barrel}: there is no barrel under these rules")
                raise FieldError("barrel", why)
            game = a.game_situation(rules, score, spec.barrel, hand_cap(rules, hand))
            answer = replace(answer, game=game)
        owner = tables_player(player)
        by_class, by_marriages = class_tables(rules, owner, feedback, spec.workers)
        table = a.table_answer(
            hand, spec.risk, by_class, by_marriages, owner, TABLE_DEALS, TABLE_SEED
        )
        answer = replace(a.with_table(answer, table), opponents=opponents(player))
    return AdvisorAnswer(replace(answer, requested=n, budget=spec.budget))
