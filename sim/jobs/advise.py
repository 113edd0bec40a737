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

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.cards import cards_str
from sim.engine.strategies.registry import parse_params
from sim.i18n import N_, _, role
from sim.jobs.advice_tables import bidding_policy, load_tables, table_of
from sim.output import FieldError
from sim.players import DEFAULT, PAR, RECORDS, advice_samples, fast, tables_player
from sim.players import check_advisor as check_player
from sim.rules import Rules, hand_roles
from sim.runs.folder import QUIET, Feedback
from sim.table_text import Auction, read_auction, read_cards, read_seat

if TYPE_CHECKING:  # the answer's classes: importing the job stays light
    import numpy as np

    from analysis.advise import AuctionReading, Opponents, SampledAdvice, ShownTalon, TableAnswer
    from sim.jobs.advice_tables import ClassTables
    from sim.runs.advise import AuctionPolicy

# ADVISORS (sim.players): the players whose play the advice may rest on, by their
# records (``random`` or ``cheater`` would answer questions no player at the table asks),
# and the open-card par; each samples its record's ``advice_samples`` deals by default.
DEFAULT_BUDGET = 7.0  # seconds of sampled play: with the pass baseline, an answer in <= 10 s
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


@dataclass(frozen=True)
class QuestionField:
    """One field of the advisor's question, declared once (:data:`QUESTION`).

    The command line's flags (``--talon-shown`` for ``talon_shown``; ``hand`` is its
    positional ``HAND``) and their help, the web page's JSON fields and their types, and
    the job's checks (:func:`check`) all come from these records and
    :class:`AdviseSpec`'s defaults.

    Attributes:
        name: the :class:`AdviseSpec` field.
        kind: its value's type as a person gives it: ``str``, ``int``, ``float``,
            ``bool`` (a switch), ``list`` (repeatable text) or ``Path`` (a file).
        help: what it is, in a line (marked for the catalogues: the command line's help
            translates it; ``{budget}`` is :data:`DEFAULT_BUDGET`).
        metavar: how the command line's help shows its value (None: the default).
        web: whether a question over the web may carry it (a file, a compiled-code
            setting or a player's parameters may not).
        flag: the command line's name for it where that is not the field's own
            (``param``: one ``--param`` per setting of ``params``).
    """

    name: str
    kind: type
    help: str
    metavar: str | None = None
    web: bool = True
    flag: str | None = None


QUESTION: tuple[QuestionField, ...] = (
    QuestionField(
        "hand", str, N_('the 7 cards (10 with two players), e.g. "AH TH KH QH AS 9C JD"'),
    ),
    QuestionField(
        "seat", str, N_("forehand, middle or dealer (four players: rear; any language); default: "
        "the one whose turn it is after the auction, else forehand"),
    ),
    QuestionField(
        "auction", str, N_('the bids so far in turn from forehand, e.g. "100 pass 110": the '
        "unseen hands are dealt as the auction allows (a bid above 120 shows marriages), the other "
        "seats' passes and raises read as the player bids, and the answer says whether to "
        "raise; the seat must be the one to bid next"), metavar="BIDS",
    ),
    QuestionField("talon", str, N_("the 3 talon cards, after winning the bid: what to give away")),
    QuestionField("bid", int, N_("with the talon: the bid won (default 100)")),
    QuestionField(
        "talon_shown", str, N_("the 3 talon cards shown after the whole auction, won by another "
        "seat: the declarer's chance to make its bid and the hand's score as a defender"),
        metavar="CARDS",
    ),
    QuestionField(
        "score", int, N_("the seat's game score: the choice is then made by the chance to win "
        "the game, and the answer names the contract that takes it onto the barrel (or wins)"),
    ),
    QuestionField("barrel", bool, N_("the seat sits on the barrel")),
    QuestionField(
        "others", str, N_('the other seats\' game scores, from the seat on its left on, e.g. '
        '"500 300" (default: each at the seat\'s own score; just below the barrel when it '
        "sits on it)"), metavar="SCORES",
    ),
    QuestionField(
        "player", str, N_("who plays the samples: strong (default, the fitted player, 4,000 "
        "samples), pimc (the sampling player, 48 within the budget), heuristic, or par (every "
        "card face up)"),
    ),
    QuestionField("risk", float, N_("the make rate a bid is safe at (default 0.75)")),
    QuestionField(
        "samples", int, N_("sampled deals (default 48; 4,000 for heuristic and strong)"),
    ),
    QuestionField(
        "budget", float, N_("seconds of play before the answer, pimc and par only (default "
        "{budget}; 0: play every sample); samples are played 8 at a time"),
    ),
    QuestionField("seed", int, N_("the seed: the same seed and sizes give the same answer")),
    QuestionField(
        "params", list, N_("a parameter of the player, e.g. pimc.worlds=30 (repeatable)"),
        metavar="STRATEGY.NAME=VALUE", web=False, flag="param",
    ),
    QuestionField(
        "deal_file", Path, N_("take the hand of the seat from a deal in the deal notation (or a "
        "hands --trace file of the rules) instead of the cards"), metavar="FILE", web=False,
    ),
    QuestionField("deal", int, N_("the deal's number in the deal file"), metavar="N", web=False),
)  # fmt: skip
"""The advisor's question, field by field: what a person may ask (besides the rules)."""


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
        score: the seat's game score: the choice is made by the chance to win the game
            after the deal (the equity table of :mod:`sim.jobs.equity`), and the answer
            names the contract that takes it onto the barrel (or wins) and its chance.
        barrel: the seat sits on the barrel: the answer names the contract that wins.
        others: the other seats' game scores, from the seat on its left on (``"500
            300"``; None: each at the seat's own score, or just below the barrel when
            the seat sits on it).
        talon_shown: the 3 talon cards shown after an ``auction`` that is over and won
            by another seat: the answer is the declarer's chance to make its bid and
            the hand's score as a defender, from deals in which the declarer took them.
    """

    rules: Rules
    hand: str
    seat: str | None = None
    player: str = DEFAULT
    risk: float = 0.75  # analysis.choices.TABLE_RISK: the tables lean to the default
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
    others: str | None = None
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
            or with ``talon_shown`` the defender's view (:class:`analysis.advise.ShownTalon`);
            None for the class tables' answer alone (``sampled=False``).
        table: the class tables' answer for the hand and seat
            (:class:`analysis.advise.TableAnswer`).
    """

    answer: SampledAdvice | ShownTalon | None
    table: TableAnswer

    def json(self) -> dict[str, Any]:
        """The answer as one JSON document (``thousand advise --json``).

        The class tables' answer alone is the ``table`` part of the whole one.
        """
        from analysis.advise import ShownTalon
        from views.advise import advice_json, shown_json, table_json

        if self.answer is None:
            return table_json(self.table)
        if isinstance(self.answer, ShownTalon):
            return shown_json(self.answer)
        return advice_json(self.answer)

    def markdown(self) -> str:
        """The answer in a few lines and one table (what the command prints)."""
        from analysis.advise import ShownTalon
        from views.advise import advice_markdown, shown_markdown, table_markdown

        if self.answer is None:
            return table_markdown(self.table)
        if isinstance(self.answer, ShownTalon):
            return shown_markdown(self.answer)
        return advice_markdown(self.answer)


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


def talon_shown(q: Question, feedback: Feedback) -> ShownTalon:
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
    from sim.engine.declarer import D_CONCEDE_FROM, D_CONTRACT, D_DELTA0, D_TOTAL
    from sim.runs.advise import play_blocks, sample_deals

    spec, rules, hand, seat, player, n = q.spec, q.spec.rules, q.hand, q.seat, q.player, q.samples
    auction, talon = q.auction, q.talon
    assert auction is not None and spec.seat is not None
    declarer = auction.high_seat
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


MAX_SCORE = 100_000
"""The largest game score a question may give, either way."""


def game_scores(rules: Rules, spec: AdviseSpec, seat: int) -> list[int] | None:
    """Every game seat's score before the deal, or None without a score or the barrel.

    The seat's is ``score`` (``barrel.at`` on the barrel without one); the others' are
    ``others``, from the seat on its left on, or by default each at the seat's score
    (just below ``barrel.at`` when the seat sits on it: one seat at a time does).

    Raises:
        FieldError: ``others`` not one whole number per other seat, or out of range.
    """
    if spec.score is None and not spec.barrel:
        return None
    score = spec.score if spec.score is not None else rules.barrel.at
    n = rules.players
    if spec.others is None:
        below = score if not spec.barrel else rules.barrel.at - rules.barrel.fall_penalty
        others = [below] * (n - 1)
    else:
        tokens = spec.others.replace(",", " ").split()
        try:
            others = [int(t) for t in tokens]
        except ValueError:
            others = []
        if len(others) != n - 1 or max(abs(x) for x in others) > MAX_SCORE:
            why = _("{field}: {count} whole numbers (the other seats' scores), got {value}")
            raise FieldError("others", why, count=n - 1, value=repr(spec.others))
    if abs(score) > MAX_SCORE:
        why = _("{field}: at most {most} either way, got {value}")
        raise FieldError("score", why, most=MAX_SCORE, value=score)
    out = [0] * n
    for k, x in enumerate([score, *others]):
        out[(seat + k) % n] = x
    return out


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


def win_chances(
    rules: Rules,
    choices: dict[str, Any],
    scores: list[int],
    seat: int,
    barrel: bool,
    player: str,
    feedback: Feedback,
) -> tuple[Any, float]:
    """The seat's chance to win the game after each plan's deals, and before the deal.

    Each deal's result (every seat's deal score and bolt, the declarer, its contract)
    is applied to the game by its rules (:func:`sim.runs.equity.after_deal`: the
    barrel, bolts, the 555 reset) and read in ``player``'s equity table
    (:func:`sim.jobs.equity.equity_model`); a deal that ends the game counts 1 for
    its winner. The deal's dealer is the last hand seat (the game seat of the dealer
    who sits out, with four players); a seat on the barrel has played no deal there yet.
    """
    import numpy as np

    from sim.jobs.equity import equity_model, win_chance_after
    from sim.runs.equity import GameState

    n = rules.players
    dealer = 3 if n == 4 else n - 1
    state = GameState(tuple(scores), dealer, barrel=tuple(0 if barrel and s == seat else -1
                                                          for s in range(n)))  # fmt: skip
    model = equity_model(rules, player, feedback)
    deltas, bolts = choices["deltas"], choices["bolts"]
    k, m = deltas.shape[:2]
    outcomes = {
        "declarer": choices["declarer"].ravel(), "contract": choices["contract"].ravel(),
        "made": choices["made"].ravel(), "conceded": choices["conceded"].ravel(),
        **{f"delta_{s}": deltas[:, :, s].ravel() for s in range(n)},
        **{f"bolt_{s}": bolts[:, :, s].ravel() for s in range(n)},
    }  # fmt: skip
    win = win_chance_after(model, rules, state, outcomes)[:, seat].reshape(k, m)
    before = model.win_chance(np.array([scores]), np.array([state.barrel]), np.array([dealer]))
    return win, float(before[0, seat])


TALON_DEALS = 400
"""Deals on which every give and contract is played out after the talon (20 gives, up to
30 contracts each: 240,000 plays of ``strong``, about a second and a half on 2 cores)."""


def _talon_answer(q: Question) -> SampledAdvice:
    """After winning the bid: every give and contract played by the table's player.

    On :data:`TALON_DEALS` deals (``samples`` when given) the table's player plays every
    give and contract (:func:`sim.runs.advise.give_samples`); beside them the open-card
    judge of every give on the advisor's par sample (the first ``samples`` of its own
    deals, within the budget), the bound.
    """
    from analysis import advise as a
    from sim.engine.state import ROW
    from sim.runs.advise import discard_samples, give_samples
    from sim.runs.plans import margins

    spec, rules = q.spec, q.spec.rules
    assert spec.seat is not None
    player = tables_player(q.player)
    n = spec.samples or TALON_DEALS
    gives, contracts, rows = give_samples(rules, q.hand, q.talon, q.seat, spec.bid, n, spec.seed,
                                          player)  # fmt: skip
    k, g, c, w = rows.shape
    flat = rows.reshape(k * g * c, w)
    played = margins(flat, q.seat, rules.players).reshape(k, g, c)
    made = (flat[:, ROW["made"]] != 0).reshape(k, g, c)
    # the bound: every card face up (in this process: worker processes, each loading the
    # solver, cost more than they saved at these sizes, 17 s serial against 25 s on two)
    judged = spec.samples or advice_samples(PAR)
    _gives, made_to, caps, totals = discard_samples(
        rules, q.hand, q.talon, q.seat, spec.bid, judged, spec.seed, budget=spec.budget
    )
    bound = a.discard_table(rules, gives, made_to, caps, spec.bid, totals)
    answer = a.advise_talon(
        rules,
        q.hand,
        spec.seat,
        q.talon,
        spec.bid,
        spec.risk,
        gives,
        contracts,
        played,
        made,
        player,
        bound,
        int(made_to.shape[0]),
    )
    return replace(answer, opponents=opponents(player))  # fmt: skip


def plan_levels(rules: Rules, hand: int, high: int) -> list[int]:
    """The bid plans open to a hand: pass (0), then every level above ``high`` to its cap."""
    from sim.runs.advise import hand_cap

    cap = hand_cap(rules, hand)
    return [0, *(int(L) for L in rules.bid_levels() if high < L <= cap)]


def _bid_answer(
    spec: AdviseSpec,
    hand: int,
    seat: int,
    player: str,
    n: int,
    auction: Auction | None,
    feedback: Feedback,
) -> SampledAdvice:
    """Raise or pass: every plan of the seat played out on the sampled deals."""
    import numpy as np

    from analysis import advise as a
    from analysis.choices import conceding_columns, may_concede
    from sim.engine.api import seat_flags
    from sim.engine.deal import n_hands
    from sim.runs.advise import PASS_PLAYER, bid_samples, hand_cap
    from sim.runs.plans import plan_columns

    rules = spec.rules
    hands = n_hands(rules.players)
    budget = 0.0 if fast(player) else spec.budget  # the fast players: every sample
    others = [(s, b) for s, b in auction.highest() if s != seat] if auction else []
    # the other seats' actions read as the table's player bids (three active players)
    policy = None
    if auction is not None and hands == 3 and any(s != seat for s, *_ in auction.acted()):
        policy = bidding_policy(rules, tables_player(player), feedback)
    acted = [x for x in auction.acted() if x[0] != seat] if auction else []
    prefix = [0 if b is None else b for _s, b in auction.bids[1:]] if auction else []
    game = None
    scores = game_scores(rules, spec, seat)
    flags = 0
    if scores is not None:
        game = a.game_situation(rules, scores[seat], spec.barrel, hand_cap(rules, hand))
        on_barrel = [spec.barrel and s == seat for s in range(hands)]
        flags = seat_flags(rules, spec.barrel, [False] * hands, on_barrel)
    try:
        cols = bid_samples(
            rules, hand, seat, player, n, spec.seed, list(spec.params), budget=budget,
            bids=others, policy=policy, acted=acted, prefix=prefix,
            scores=None if scores is None else scores[:hands], flags=flags, feedback=feedback,
        )  # fmt: skip
    except ValueError as exc:  # no deal allows the auction with this hand
        raise FieldError("auction", "{field}: {reason}", reason=str(exc)) from None
    high = auction.high if auction is not None else 100  # forehand's automatic 100
    levels = plan_levels(rules, hand, high)
    # the table concedes a contract it goes down in where that costs it less (§5: none
    # while someone sits on the barrel, unless rospis.on_barrel)
    played = plan_columns(cols["plans"], levels)
    conceding = conceding_columns(rules, played, seat, spec.barrel)
    choices = {"level": np.array(levels), **conceding}
    plan_player = PASS_PLAYER if player == PAR else player
    measure, before = "margin", None
    if scores is not None:
        choices["win"], before = win_chances(rules, choices, scores, seat, spec.barrel,
                                             plan_player, feedback)  # fmt: skip
        measure = "win"
    answer = a.advise(rules, hand, spec.seat or "", player, spec.risk, cols, choices=choices,
                      plan_player=plan_player, measure=measure)  # fmt: skip
    answer = replace(answer, win_before=before, concede_lost=may_concede(rules, spec.barrel))
    if auction is not None:
        answer = replace(answer, auction=auction.text(), high_bid=auction.high)
    if policy is not None and auction is not None:
        reading = auction_reading(rules, hand, seat, auction, policy, cols["deals"], spec.seed + 2)
        answer = replace(answer, reading=reading)
    if game is not None:
        answer = replace(answer, game=game)
    return answer


@dataclass(frozen=True)
class Question:
    """A question the advisor accepted (:func:`check`): its spec and what was read of it.

    Attributes:
        spec: the question, its ``seat`` named as the rules name it.
        kind: ``bid`` (raise or pass), ``talon`` (what to give after winning) or
            ``shown`` (a defender shown the talon).
        hand: the hand (a card mask); ``seat``: its hand seat.
        player: the advisor (:data:`sim.players.ADVISORS`).
        samples: the deals to sample.
        auction: the bids so far (the whole auction for ``shown``), or None.
        talon: the talon's cards (``talon`` or ``shown``), else 0.
    """

    spec: AdviseSpec
    kind: str
    hand: int
    seat: int
    player: str
    samples: int
    auction: Auction | None
    talon: int


def check_values(spec: AdviseSpec) -> None:
    """The checks of the question's numbers, each field alone (:func:`check` runs them).

    Raises:
        FieldError: a risk that is not a share, samples below 1, a negative or endless
            budget, a seed out of range.
    """
    if not 0 < spec.risk < 1:
        why = _("{field}: a share between 0 and 1, got {value}")
        raise FieldError("risk", why, value=spec.risk)
    if spec.samples is not None and spec.samples < 1:
        why = _("{field}: a positive whole number, got {value}")
        raise FieldError("samples", why, value=spec.samples)
    if not (math.isfinite(spec.budget) and spec.budget >= 0):
        why = _("{field}: seconds, 0 or more (0: no limit), got {value}")
        raise FieldError("budget", why, value=f"{spec.budget:g}")
    if not 0 <= spec.seed < 2**63:
        why = _("{field}: a non-negative whole number, got {value}")
        raise FieldError("seed", why, value=spec.seed)


def check(spec: AdviseSpec) -> Question:
    """Every check of a question, before any play: what :func:`advise` and the pages refuse.

    Raises:
        FieldError: bad cards, a seat, talon or bid the rules do not have, an auction
            that breaks the rules or that no deal allows, fields that contradict each
            other; the message names the spec's fields (the command line words them as
            its flags).
        StrategyError: an unknown player or parameter.
    """
    from sim.engine.deal import n_hands, place_sizes
    from sim.runs.advise import hand_cap

    check_values(spec)
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
    if spec.barrel and rules.barrel.at == 0:
        raise FieldError("barrel", _("{field:barrel}: there is no barrel under these rules"))
    game_scores(rules, spec, seat)
    player = check_player(spec.player)
    if player != "par":
        parse_params([player] * hands, list(spec.params))
    if spec.talon is not None and spec.talon_shown is not None:
        why = _("{field:talon_shown}: the talon is either yours ({field:talon}) or shown, not both")
        raise FieldError("talon_shown", why)
    if spec.talon is None and spec.bid != 100 and spec.bid not in rules.bid_levels():
        why = _("{field:bid} {bid}: a bid level (100, 100 + bid.step, …)")
        raise FieldError("bid", why, bid=spec.bid)
    n = spec.samples or advice_samples(player)
    if spec.talon_shown is not None:
        if hands != 3:
            why = _("{field:talon_shown}: only with three active players")
            raise FieldError("talon_shown", why)
        if spec.auction is None:
            why = _(
                "{field:talon_shown}: give the whole auction ({field:auction}), to know who took it"
            )
            raise FieldError("talon_shown", why)
        auction = read_auction(rules, spec.auction, hands, over=True)
        if auction.high_seat == seat:
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
        return Question(spec, "shown", hand, seat, player, n, auction, talon)
    bids: Auction | None = None
    if spec.auction is not None:
        if spec.talon is not None:
            why = _("{field:auction}: the bidding is over once the talon is taken ({field:talon})")
            raise FieldError("auction", why)
        bids = read_auction(rules, spec.auction, hands)
        if bids.next_seat != seat:
            why = _(
                "{field:auction}: it is {turn}'s turn after {auction}, not {seat}'s ({field:seat})"
            )
            raise FieldError("auction", why, turn=role(seats[bids.next_seat]),
                             auction=repr(spec.auction), seat=role(spec.seat))  # fmt: skip
        own = max((b for s, b in bids.highest() if s == seat), default=0)
        if own > hand_cap(rules, hand):
            why = _("{field:auction}: {seat} bid {bid}, above what {field:hand} may bid")
            raise FieldError("auction", why, seat=role(spec.seat), bid=own)
    if spec.talon is not None:
        if hands != 3:
            raise FieldError("talon", _("{field:talon}: only with three active players"))
        talon = read_cards("talon", spec.talon, 3, hand)
        if spec.bid not in rules.bid_levels():
            why = _("{field:bid} {bid}: a bid level (100, 100 + bid.step, …)")
            raise FieldError("bid", why, bid=spec.bid)
        return Question(spec, "talon", hand, seat, player, spec.samples or advice_samples(PAR),
                        None, talon)  # fmt: skip
    return Question(spec, "bid", hand, seat, player, n, bids, 0)


def advise(
    spec: AdviseSpec,
    feedback: Feedback = QUIET,
    *,
    sampled: bool = True,
    tables: ClassTables | None = None,
) -> AdvisorAnswer:
    """The advisor's one entry point: check the question, then answer it.

    With ``sampled`` the cards the hand cannot see are dealt and played out (a second,
    or the budget's seconds); without, the answer is the class tables' alone for the
    hand and seat, in milliseconds once they are read (``thousand serve``'s first
    answer), after exactly the same checks. ``tables``: the advisor's class tables
    already read (:func:`sim.jobs.advice_tables.load_tables`), else they are read (or
    built) here.

    Raises:
        FieldError: as :func:`check`.
        StrategyError: an unknown player or parameter.
    """
    from analysis import advise as a
    from sim.parallel import set_threads

    q = check(spec)
    spec, rules = q.spec, q.spec.rules
    assert spec.seat is not None
    if tables is None or tables.player != tables_player(q.player) or tables.rules != rules:
        tables = load_tables(rules, q.player, feedback, spec.workers)
    table = table_of(tables, q.hand, q.seat, spec.risk)
    if not sampled:
        return AdvisorAnswer(None, table)
    set_threads(spec.workers)
    if q.kind == "shown":
        shown = talon_shown(q, feedback)
        return AdvisorAnswer(replace(shown, opponents=opponents(q.player)), table)
    if q.kind == "talon":
        answer = _talon_answer(q)
    else:
        answer = _bid_answer(spec, q.hand, q.seat, q.player, q.samples, q.auction, feedback)
        answer = replace(a.with_table(answer, table), opponents=opponents(q.player))
    return AdvisorAnswer(replace(answer, requested=q.samples, budget=spec.budget), table)
