"""One dealt deal from the dark offer to the score (:func:`play_hand`), and the slots of a run.

:func:`play_deal` plays a deal phase by phase, each phase a function of the same name
as the compiled engine's (:func:`sim.engine.driver.play_deal`): ``dark_offer``,
``hand_reshuffle``, ``undarkening``, ``bidding``, ``talon``, ``bomb``, ``discard``,
``after_discard_reshuffle``, ``contract``, ``concession``, ``named_trump``,
``tricks``, ``score_played``; so one rule reads side by side in both. The deal in play
is a :class:`Deal`, the reference's counterpart of the engine's workspace.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sim.cards import N_CARDS, N_SUITS, SUIT_LETTERS, card_str, parse_card, parse_cards
from sim.engine.actions import MAX_REDEALS, REDEAL_STRIDE, Decision, ScriptError
from sim.engine.deal import ritual_on
from sim.reference.bidding import DARK_CONTRACT
from sim.reference.bidding import bidding as auction
from sim.reference.bidding import undarkening as undarken
from sim.reference.choose import STRATEGIES, Chooser
from sim.reference.deal import deal_hand, gather, seat_cards
from sim.reference.play import play_tricks
from sim.reference.reshuffle import (
    after_discard_reshuffle_reason,
    hand_reshuffle_reason,
    talon_reshuffle_reason,
)
from sim.reference.rng import _stream_key, item_state
from sim.reference.scoring import four_nines_bonus, locked, sitter_score
from sim.reference.scoring import score_played as score_deal
from sim.reference.state import SPECIALS, PlayState, Table
from sim.reference.talon import concession_deltas, contract_options, talon_shown
from sim.reference.talon import discard as give_away
from sim.rng import Stream
from sim.rules import Rules


def _check_cards(cards: Sequence[int]) -> list[int]:
    ids = [int(c) for c in cards]
    if len(ids) != N_CARDS:
        raise ValueError(f"a deal needs 24 cards, got {len(ids)}")
    if sorted(ids) != list(range(N_CARDS)):
        raise ValueError(f"a deal must hold each of the 24 card ids once, got {ids}")
    return ids


def _check_strategies(strategies: Sequence[str] | None, players: int) -> tuple[str, ...]:
    if strategies is None:
        return ("random",) * players
    if len(strategies) != players:
        raise ValueError(f"strategies: one per seat ({players}) needed, got {list(strategies)}")
    for name in strategies:
        if name not in STRATEGIES:
            raise ValueError(f"unknown strategy {name!r} (reference strategies: random, first)")
    return tuple(strategies)


def _per_seat(name: str, values: Sequence[Any] | None, players: int, default: Any) -> list[Any]:
    """A per-seat input: one entry per seat of the game (``default`` for all if None)."""
    if values is None:
        return [default] * players
    if len(values) != players:
        raise ValueError(f"{name}: one entry per seat ({players}) needed, got {list(values)}")
    return list(values)


def _sits_out(
    rules: Rules,
    table: Table,
    talon: list[int],
    result: dict[str, Any],
    special: str | None,
    scores: Sequence[int],
) -> None:
    """Score the 4-player dealer's talon into ``result`` (played or conceded alike)."""
    sitter = table.sitter
    if sitter is None:
        return
    score = sitter_score(rules, talon, special)
    result["card_points"][sitter] = score["card_points"]
    result["marriage_points"][sitter] = score["marriage_points"]
    # a sitter locked by score.lock_at scores nothing from the talon
    result["score_deltas"][sitter] = 0 if locked(rules, scores[sitter]) else score["score_delta"]


def play_hand(
    rules: Rules,
    cards: Sequence[int],
    dealer: int,
    *,
    seed: int = 0,
    deal_id: int = 0,
    attempt: int = 0,
    scores: Sequence[int] | None = None,
    strategies: Sequence[str] | None = None,
    script: Sequence[object] | None = None,
    barrel: bool = False,
    no_concede: Sequence[bool] | None = None,
    on_barrel: Sequence[bool] | None = None,
    item: int | None = None,
    special: str = "none",
    gathered: list[int] | None = None,
) -> dict[str, Any]:
    """Play one dealt deal and return its trace object (PROTOCOL.md, docs/cli.md).

    Per-seat inputs (``scores``, ``strategies``, ``no_concede``, ``on_barrel``) take
    one entry per seat of the game (``rules.players``: 2, 3 or 4); None means 0,
    ``"random"``, False for every seat.

    Args:
        rules: house rules (``players`` 2, 3 or 4).
        cards: 24 card ids by place (:func:`deal_cards`): 3 players: seats 0, 1, 2
            (7 each), then the talon (3); 4 players: the active seats ``d+1, d+2,
            d+3`` (7 each), then the talon; 2 players: seats 0, 1 (10 each), then the
            two talons (2 each).
        dealer: the dealer's seat; forehand is ``dealer + 1``. With 4 players the
            dealer sits out and scores the talon.
        seed: the run's seed (the ``random`` strategy's stream).
        deal_id: the slot number ``i``.
        attempt: 0 for the first deal of the slot, 1, 2, ... for redeals.
        scores: the players' game scores (for ``bid.silence_below``).
        strategies: ``"random"`` or ``"first"`` for each seat.
        script: tokens (:func:`sim.engine.actions.encode_token`) consumed in order at
            every non-forced decision; then the seats' strategies decide.
        barrel: someone sits on the barrel: the same as ``no_concede`` for every
            seat unless ``rospis.on_barrel``; never set in ``hands`` runs.
        no_concede: by seat, may not concede (GAME_PROTOCOL.md, hand inputs): a
            flagged declarer is never offered the CONCEDE decision.
        on_barrel: by seat, sits on the barrel: with ``barrel.bid_from > 0`` its
            raises must be ``>= bid_from`` (forehand's automatic 100 stays).
        item: the item number of the strategy stream for this dealt deal; by
            default ``deal_id + attempt * REDEAL_STRIDE`` (a ``hands`` run). Whole
            games pass their own deal number (GAME_PROTOCOL.md, randomness).
        special: ``"none"``, ``"golden"`` (the game says this deal is golden) or
            ``"dark_allowed"`` (forehand is offered the dark declaration).
        gathered: a list that receives the next deck, the deal's cards gathered as
            they lie (:func:`gather`), for ``deal.method = "cut"``.

    Returns:
        The trace: ``deal_id, dealer, hands, talon, reshuffle`` and, when not redealt,
        ``bids, declarer, winning_bid, talon_shown, discards, contract, conceded``,
        ``tricks`` when played, ``card_points, marriage_points, tricks_taken,
        score_deltas, bolts``; then ``attempt`` and, when not redealt, ``made,
        trump_named, special, undarkened_by`` and with 2 players ``talon_pick,
        last_talon_to``.

    Raises:
        ValueError: for a malformed deal, dealer, per-seat input or ``special``.
        ScriptError: for a script token that is not legal at its decision, or for
            tokens left over when the deal ends.
    """
    n = rules.players
    table = Table(n, dealer)
    if special not in SPECIALS:
        raise ValueError(f"special must be one of {SPECIALS}, got {special!r}")
    ids = _check_cards(cards)
    seats = _check_strategies(strategies, n)
    game_scores = _per_seat("scores", scores, n, 0)
    may_not_concede = _per_seat("no_concede", no_concede, n, False)
    barrel_seats = _per_seat("on_barrel", on_barrel, n, False)
    hands, talons = seat_cards(table, ids)
    number = deal_id + attempt * REDEAL_STRIDE if item is None else item
    w = Deal(
        rules=rules,
        table=table,
        chooser=Chooser(
            seats, list(script or []), item_state(_stream_key(seed, Stream.STRATEGY), number)
        ),
        hands=hands,
        talons=talons,
        attempt=attempt,
        may_redeal=attempt < MAX_REDEALS,
        game_scores=game_scores,
        on_barrel=barrel_seats,
        blocked=[
            bool(may_not_concede[s]) or (barrel and not rules.rospis.on_barrel) for s in range(n)
        ],
        offer=special,
        gathered=gathered,
        trace={
            "deal_id": deal_id,
            "dealer": dealer,
            "hands": [[card_str(c) for c in h] for h in hands],
            "talon": [card_str(c) for t in talons for c in t],
            "reshuffle": None,
        },
    )
    return play_deal(w)


@dataclass
class Deal:
    """One dealt deal as it is played: the reference's workspace (the engine's ``W``).

    The inputs come first; each phase below fills in what it decides, in the order of
    the engine's phases (:func:`sim.engine.driver.play_deal`), and the trace is
    built from them at the end.
    """

    rules: Rules
    table: Table
    chooser: Chooser
    hands: list[list[int]]
    talons: list[list[int]]
    attempt: int
    may_redeal: bool
    game_scores: list[int]
    on_barrel: list[bool]
    blocked: list[bool]  # by seat: may not concede
    offer: str  # "none", "golden" or "dark_allowed"
    gathered: list[int] | None
    trace: dict[str, Any]
    dark_declared: bool = False
    kind: str | None = None  # the trace's ``special``: "golden", "dark" or None
    undarkened_by: int | None = None
    bids: list[list[Any]] = field(default_factory=list)
    declarer: int = -1
    winning_bid: int = 0
    talon_pick: int | None = None
    talon: list[int] = field(default_factory=list)
    set_aside: list[int] = field(default_factory=list)
    shown: bool = False
    kept: list[int] = field(default_factory=list)
    given: list[list[int]] = field(default_factory=list)
    after: list[list[int]] = field(default_factory=list)
    contract: int = 0
    play: PlayState | None = None
    trump_named: str | None = None
    tricks: list[dict[str, Any]] = field(default_factory=list)
    captured: list[list[int]] = field(default_factory=list)
    last_talon_to: int | None = None
    laid: list[int] = field(default_factory=list)  # 2 players, "discard": the cards laid away

    @property
    def lays_away(self) -> bool:
        """Two players with ``talon.two_players = "discard"`` (§12): two cards laid away."""
        return self.table.players == 2 and self.rules.talon.two_players == "discard"

    def body(self) -> dict[str, Any]:
        """The trace's keys from ``bids`` to ``conceded`` (a deal not redealt)."""
        return {
            "bids": self.bids,
            "declarer": self.declarer,
            "winning_bid": self.winning_bid,
            "talon_shown": self.shown,
            "discards": [[to, card_str(card)] for to, card in self.given],
            "contract": self.contract,
            "conceded": False,
        }

    def tail(self, made: bool) -> dict[str, Any]:
        """The keys after ``attempt``: protocol extras, then the 2-player ones."""
        out: dict[str, Any] = {
            "made": made,
            "trump_named": self.trump_named,
            "special": self.kind,
            "undarkened_by": self.undarkened_by,
        }
        if self.table.players == 2:
            out["talon_pick"] = self.talon_pick
            out["last_talon_to"] = self.last_talon_to
        return out

    def finish(self, body: dict[str, Any], tail: dict[str, Any]) -> dict[str, Any]:
        """The trace: the keys so far, ``body``, ``attempt``, then ``tail``."""
        chooser = self.chooser
        if chooser.used < len(chooser.script):
            left = chooser.script[chooser.used :]
            raise ScriptError(f"{len(left)} script token(s) left unused at the end: {left!r}")
        self.trace.update(body)
        self.trace["attempt"] = self.attempt
        self.trace.update(tail)
        return self.trace

    def gather_into(self, held: list[list[int]], pile: list[int] | None = None) -> None:
        """The next deck (``deal.method = "cut"``): the cards gathered as they lie."""
        if self.gathered is not None:
            self.gathered[:] = gather(self.table, held, pile)

    def redeal(self, seat: int, reason: str, held: list[list[int]]) -> bool:
        """Seat ``seat`` demanded a redeal for ``reason``: the trace ends here."""
        self.trace["reshuffle"] = {"seat": seat, "reason": reason}
        self.gather_into(held)
        return True


def dark_offer(w: Deal) -> None:
    """Phase 0 (§11): forehand may declare dark before looking at its cards."""
    if w.offer == "dark_allowed":
        forehand = w.table.forehand
        w.dark_declared = w.chooser.choose(Decision.DARK, forehand, [0, 1], " (dark or light)") == 1


def hand_reshuffle(w: Deal) -> bool:
    """Phase 1 (§3): from forehand, a seat whose hand meets a condition may demand a redeal."""
    for s in w.table.active:
        reason = hand_reshuffle_reason(w.rules, w.hands[s])
        if w.may_redeal and reason is not None:
            if w.chooser.choose(Decision.RESHUFFLE_HAND, s, [0, 1], f" ({reason})"):
                return w.redeal(s, reason, w.hands)
    return False


def undarkening(w: Deal) -> None:
    """Phase 1b (§11): an opponent holding a marriage may bid 125 (the deal is light again)."""
    w.kind = "golden" if w.offer == "golden" else None
    if w.dark_declared:
        w.undarkened_by = undarken(w.rules, w.table, w.hands, w.game_scores, w.on_barrel, w.chooser)
        if w.undarkened_by is None:
            w.kind = "dark"


def bidding(w: Deal) -> None:
    """Phase 2 (§4): forehand's 100, then raises; none in a golden or a dark deal (120)."""
    if w.kind is not None:
        forehand = w.table.forehand
        w.bids, w.declarer, w.winning_bid = [[forehand, DARK_CONTRACT]], forehand, DARK_CONTRACT
        return
    w.bids, w.declarer, w.winning_bid = auction(
        w.rules, w.table, w.hands, w.game_scores, w.chooser, w.on_barrel, w.undarkened_by
    )


def talon(w: Deal) -> bool:
    """Phase 3 (§5, §12): the talon (2 players: one of two, blind), its reshuffle, shown."""
    if w.table.players == 2:
        w.talon_pick = w.chooser.choose(Decision.TALON_PICK, w.declarer, [0, 1], " (blind)")
        w.talon, w.set_aside = w.talons[w.talon_pick], w.talons[1 - w.talon_pick]
    else:
        w.talon = w.talons[0]
    at_100 = w.winning_bid == 100
    reason = talon_reshuffle_reason(w.rules, w.talon)
    only_at_100 = w.rules.reshuffle.talon_only_at_100
    if w.may_redeal and reason is not None and (not only_at_100 or at_100):
        if w.chooser.choose(Decision.RESHUFFLE_TALON, w.declarer, [0, 1], f" ({reason})"):
            return w.redeal(w.declarer, reason, w.hands)
    w.shown = talon_shown(w.rules, at_100, w.kind)
    return False


def discard(w: Deal) -> None:
    """Phase 4 (§5): the declarer gives one card to each opponent, left first.

    Two players laying away (§12 ``discard``): two of its 12 cards laid away.
    """
    lay = w.lays_away
    hand = w.hands[w.declarer] + w.talon
    w.kept, w.given = give_away(hand, w.table, w.declarer, w.chooser, lay)
    w.after = [list(h) for h in w.hands]
    w.after[w.declarer] = w.kept
    if lay:  # laid away face down: the declarer's points at scoring, in no hand
        w.laid = [card for _, card in w.given]
        return
    for to, card in w.given:
        w.after[to] = sorted([*w.after[to], card])


def after_discard_reshuffle(w: Deal) -> bool:
    """Phase 5 (§3): from forehand, a seat whose 8 cards meet a condition may demand one."""
    r = w.rules.reshuffle
    if not (r.after_discard_four_nines or r.after_discard_points_below):
        return False
    for s in w.table.active:
        reason = after_discard_reshuffle_reason(w.rules, w.after[s])
        if w.may_redeal and reason is not None:
            if w.chooser.choose(Decision.RESHUFFLE_AFTER, s, [0, 1], f" ({reason})"):
                return w.redeal(s, reason, w.after)
    return False


def contract(w: Deal) -> None:
    """Phase 6 (§5): at least the winning bid, raised only as far as the marriages kept.

    120 in a dark deal and a blind golden one.
    """
    if w.kind == "dark" or (w.kind == "golden" and w.rules.golden.blind):
        options = [DARK_CONTRACT]
    else:
        options = contract_options(w.rules, w.winning_bid, w.kept)
    w.contract = w.chooser.choose(Decision.CONTRACT, w.declarer, options)


def bomb(w: Deal) -> dict[str, Any] | None:
    """Phase 3b (§5): the bomb, a concession before the discard; the trace if thrown.

    With ``rospis.when = "talon"`` the declarer, holding the talon, may concede.

    The contract is the winning bid; the deal is scored as any concession, the hands
    as they lie standing for the hands after a discard (none is made).
    """
    if w.rules.rospis.when != "talon":
        return None
    w.contract = w.winning_bid
    w.after = [list(h) for h in w.hands]
    w.after[w.declarer] = sorted(w.hands[w.declarer] + w.talon)
    return _concede(w)


def concession(w: Deal) -> dict[str, Any] | None:
    """Phase 7 (§5): the declarer may concede instead of playing; the trace if it did.

    Not with ``rospis.when = "talon"`` (the bomb came before the discard).
    """
    if w.rules.rospis.when == "talon":
        return None
    return _concede(w)


def _concede(w: Deal) -> dict[str, Any] | None:
    """The CONCEDE decision (when the declarer may concede) and a concession's trace."""
    rules, table = w.rules, w.table
    if not rules.rospis.allowed or w.blocked[w.declarer]:
        return None
    if not w.chooser.choose(Decision.CONCEDE, w.declarer, [0, 1]):
        return None
    deltas = concession_deltas(rules, table, w.declarer, w.contract, w.kind)
    result: dict[str, Any] = {
        "card_points": table.zeros(),
        "marriage_points": table.zeros(),
        "tricks_taken": table.zeros(),
        "score_deltas": [_locked_concession(w, s, d) for s, d in enumerate(deltas)],
        "bolts": table.zeros(),
    }
    _sits_out(rules, table, w.talon, result, w.kind, w.game_scores)
    w.gather_into(w.after)
    return w.finish({**w.body(), "conceded": True, **result}, w.tail(False))


def _locked_concession(w: Deal, s: int, delta: int) -> int:
    """Seat ``s``'s delta of a concession: its share (the declarer's loss) and bonus.

    A seat locked by ``score.lock_at`` gets no share and no four-nines bonus (the
    declarer keeps its loss).
    """
    if s not in w.table.active:
        return delta
    if locked(w.rules, w.game_scores[s]):
        return delta if s == w.declarer else 0
    return delta + four_nines_bonus(w.rules, w.after[s], w.kind)


def named_trump(w: Deal) -> None:
    """Phase 8 (§6, 501): with ``trump.named_by_declarer`` the declarer names a suit."""
    w.play = PlayState(declarer=w.declarer, players=w.table.players)
    if w.rules.trump.named_by_declarer:
        w.play.trump = w.chooser.choose(Decision.NAME_TRUMP, w.declarer, list(range(N_SUITS)))
        w.play.trump_setter = w.declarer
        w.trump_named = SUIT_LETTERS[w.play.trump]


def tricks(w: Deal) -> None:
    """Phase 9 (§6): the tricks, the declarer leading the first.

    With 2 players giving a card the last trick's winner also takes the talon set
    aside; laying away, nobody takes the other musik.
    """
    assert w.play is not None
    w.tricks, w.captured = play_tricks(w.rules, w.table, [list(h) for h in w.after], w.play,
                                       w.chooser)  # fmt: skip
    pile = [parse_card(c) for t in w.tricks for c in t["cards"]]
    w.gather_into(w.after, pile + w.laid)  # laid away: on the tricks, under the musik
    if w.lays_away:  # the cards laid away count for the declarer; the other musik for none
        w.captured[w.declarer] += w.laid
    elif w.table.players == 2:
        w.last_talon_to = w.tricks[-1]["winner"]
        w.captured[w.last_talon_to] += w.set_aside


def score_played(w: Deal) -> dict[str, Any]:
    """Phase 10 (§7): the played deal's score; the trace."""
    assert w.play is not None
    taken = [sum(1 for t in w.tricks if t["winner"] == s) for s in range(w.table.players)]
    scored = score_deal(
        w.rules,
        w.table,
        w.play,
        w.contract,
        w.captured,
        taken,
        w.after,
        w.kind,
        w.game_scores,
        w.laid,
    )
    made = scored.pop("made")
    _sits_out(w.rules, w.table, w.talon, scored, w.kind, w.game_scores)
    return w.finish({**w.body(), "tricks": w.tricks, **scored}, w.tail(made))


def play_deal(w: Deal) -> dict[str, Any]:
    """Play the dealt deal of ``w``, phase by phase as the engine does; its trace."""
    dark_offer(w)  # 0.
    if hand_reshuffle(w):  # 1.
        return w.finish({}, {})
    undarkening(w)  # 1b.
    bidding(w)  # 2.
    if talon(w):  # 3.
        return w.finish({}, {})
    bombed = bomb(w)  # 3b.
    if bombed is not None:
        return bombed
    discard(w)  # 4.
    if after_discard_reshuffle(w):  # 5.
        return w.finish({}, {})
    contract(w)  # 6.
    conceded = concession(w)  # 7.
    if conceded is not None:
        return conceded
    named_trump(w)  # 8.
    tricks(w)  # 9.
    return score_played(w)  # 10.


def play_slot(
    rules: Rules,
    seed: int,
    deal_id: int,
    *,
    scores: Sequence[int] | None = None,
    strategies: Sequence[str] | None = None,
    barrel: bool = False,
    no_concede: Sequence[bool] | None = None,
    on_barrel: Sequence[bool] | None = None,
) -> list[dict[str, Any]]:
    """Play slot ``deal_id`` of a run: its first deal and every redeal (PROTOCOL.md, Inputs).

    Attempt ``a`` uses deal number ``deal_id + a * REDEAL_STRIDE`` of
    :func:`sim.engine.deal.generate_deals` with ``players = rules.players`` (computed by
    :func:`deal_cards`, its pure-Python twin); the dealer ``deal_id % players`` deals
    every attempt. A ``hands`` run has no golden or dark deals. Under ``deal.method =
    "cut"`` the slot's chain is played from its start (:func:`play_slots`).

    Returns:
        The traces of all attempts, the redealt ones first; the last one was played
        (or conceded).
    """
    kw = {"scores": scores, "strategies": strategies, "barrel": barrel}
    return play_slots(rules, seed, deal_id, 1, no_concede=no_concede, on_barrel=on_barrel, **kw)


def play_slots(rules: Rules, seed: int, start: int, n: int, **kw: Any) -> list[dict[str, Any]]:
    """Play slots ``start .. start+n-1`` of a run; every dealt deal's trace, in order.

    Under ``deal.method = "cut"`` the deals come in chains of ``deal.cut_chain``
    slots: a chain's first deal is the shuffled deal of its first slot, and every
    later deal (redeals included) is dealt from the deck gathered from the deal
    before (:func:`deal_hand`, :func:`gather`). A chain that began before ``start``
    is played from its beginning, unrecorded. ``kw`` are the per-seat inputs of
    :func:`play_hand` (``scores``, ``strategies``, ``barrel``, ``no_concede``,
    ``on_barrel``).
    """
    cut = rules.deal.method == "cut"
    first = start - start % rules.deal.cut_chain if cut else start
    deck: list[int] | None = None
    traces: list[dict[str, Any]] = []
    for deal_id in range(first, start + n):
        if cut and deal_id % rules.deal.cut_chain == 0:
            deck = None  # a new chain: a shuffled deck
        for attempt in range(MAX_REDEALS + 1):
            dealer = deal_id % rules.players
            number = deal_id + attempt * REDEAL_STRIDE
            dealt = deal_hand(rules, seed, number, dealer, deck=deck)
            gathered: list[int] = []
            trace = play_hand(
                rules,
                dealt.cards,
                dealer,
                seed=seed,
                deal_id=deal_id,
                attempt=attempt,
                gathered=gathered,
                **kw,
            )
            if ritual_on(rules):
                trace["bottom_nines"] = dealt.bottom_nines
                trace["jack_moved"] = dealt.jack_moved
            if cut:
                deck = gathered
            if deal_id >= start:
                traces.append(trace)
            if trace["reshuffle"] is None:
                break
    return traces


def play_hand_text(
    rules: Rules, hands: Sequence[str], talon: str, dealer: int, **kw: Any
) -> dict[str, Any]:
    """:func:`play_hand` with the hands and the talon written as card text.

    Args:
        rules: house rules.
        hands: one hand per seat of the game, e.g. ``"AH TH KS QS 9C JD AD"`` or
            ``"A♥ 10♥ K♠ Q♠ 9♣ J♦ A♦"``: 7 cards each (3 and 4 players; the
            4-player dealer's hand is ``""``), 10 each with 2 players.
        talon: the 3 talon cards; with 2 players 4 cards, the first talon's two
            (place 2), then the second talon's two (place 3).
        dealer: the dealer's seat.
        **kw: passed on to :func:`play_hand` (``script``, ``strategies``,
            ``special``, ...).

    Raises:
        ValueError: when a hand or the talon holds the wrong number of cards, or a
            card is given twice or is malformed (the message names it).
    """
    n = rules.players
    table = Table(n, dealer)
    if len(hands) != n:
        raise ValueError(f"{n} hands needed (one per seat), got {len(hands)}")
    if n == 4:
        for s in range(n):
            if s == dealer and parse_cards(hands[s]):
                raise ValueError(f"the 4-player dealer (seat {s}) holds no cards")
        seat_of_place = table.active  # place k: the active seat d+1+k
    else:
        seat_of_place = list(range(3 if n == 3 else 2))
    places = [hands[s] for s in seat_of_place] + [talon]
    names = [f"hand of seat {s}" for s in seat_of_place] + ["talon"]
    sizes = [7, 7, 7, 3] if n != 2 else [10, 10, 4]
    ids: list[int] = []
    seen: dict[int, str] = {}
    for name, text, size in zip(names, places, sizes, strict=True):
        cards = parse_cards(text)
        if len(cards) != size:
            raise ValueError(f"{name} must hold {size} cards, got {len(cards)}: {text!r}")
        for c in cards:
            if c in seen:
                raise ValueError(f"card {card_str(c)} is in the {seen[c]} and the {name}")
            seen[c] = name
        ids += cards
    return play_hand(rules, ids, dealer, **kw)
