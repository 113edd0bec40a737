"""One dealt deal from the dark offer to the score (:func:`play_hand`), and the slots of a run."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.cards import N_CARDS, N_SUITS, SUIT_LETTERS, card_str, parse_card, parse_cards
from sim.engine.actions import MAX_REDEALS, REDEAL_STRIDE, Decision, ScriptError
from sim.engine.deal import ritual_on
from sim.reference.bidding import DARK_CONTRACT, bidding, undarkening
from sim.reference.choose import STRATEGIES, Chooser
from sim.reference.deal import deal_hand, gather, seat_cards
from sim.reference.play import play_tricks
from sim.reference.reshuffle import (
    after_discard_reshuffle_reason,
    hand_reshuffle_reason,
    talon_reshuffle_reason,
)
from sim.reference.rng import _stream_key, item_state
from sim.reference.scoring import four_nines_bonus, score_played, sitter_score
from sim.reference.state import SPECIALS, PlayState, Table
from sim.reference.talon import concession_deltas, contract_options, discard, talon_shown
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
    rules: Rules, table: Table, talon: list[int], result: dict[str, Any], special: str | None
) -> None:
    """Score the 4-player dealer's talon into ``result`` (played or conceded alike)."""
    sitter = table.sitter
    if sitter is None:
        return
    score = sitter_score(rules, talon, special)
    result["card_points"][sitter] = score["card_points"]
    result["marriage_points"][sitter] = score["marriage_points"]
    result["score_deltas"][sitter] = score["score_delta"]


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
    blocked = [
        bool(may_not_concede[s]) or (barrel and not rules.rospis.on_barrel) for s in range(n)
    ]
    number = deal_id + attempt * REDEAL_STRIDE if item is None else item
    state = item_state(_stream_key(seed, Stream.STRATEGY), number)
    chooser = Chooser(seats, list(script or []), state)
    forehand = table.forehand
    may_redeal = attempt < MAX_REDEALS

    trace: dict[str, Any] = {
        "deal_id": deal_id,
        "dealer": dealer,
        "hands": [[card_str(c) for c in h] for h in hands],
        "talon": [card_str(c) for t in talons for c in t],
        "reshuffle": None,
    }

    def finish(body: dict[str, Any], tail: dict[str, Any]) -> dict[str, Any]:
        """The trace: the keys so far, ``body``, ``attempt``, then ``tail``."""
        if chooser.used < len(chooser.script):
            left = chooser.script[chooser.used :]
            raise ScriptError(f"{len(left)} script token(s) left unused at the end: {left!r}")
        trace.update(body)
        trace["attempt"] = attempt
        trace.update(tail)
        return trace

    def gather_into(held: list[list[int]], pile: list[int] | None = None) -> None:
        if gathered is not None:
            gathered[:] = gather(table, held, pile)

    def redeal(seat: int, reason: str, held: list[list[int]]) -> dict[str, Any]:
        trace["reshuffle"] = {"seat": seat, "reason": reason}
        gather_into(held)
        return finish({}, {})

    # 0. dark: forehand declares before looking at its cards
    dark_declared = False
    if special == "dark_allowed":
        dark_declared = chooser.choose(Decision.DARK, forehand, [0, 1], " (dark or light)") == 1

    # 1. hand reshuffle
    for s in table.active:
        reason = hand_reshuffle_reason(rules, hands[s])
        if may_redeal and reason is not None:
            if chooser.choose(Decision.RESHUFFLE_HAND, s, [0, 1], f" ({reason})"):
                return redeal(s, reason, hands)

    # 2. bidding; none in a golden deal or a dark one that nobody undarkened
    kind = "golden" if special == "golden" else None  # the trace's ``special``
    undarkened_by = None
    if dark_declared:
        undarkened_by = undarkening(rules, table, hands, game_scores, barrel_seats, chooser)
        if undarkened_by is None:
            kind = "dark"
    if kind is not None:
        bids: list[list[Any]] = [[forehand, DARK_CONTRACT]]
        declarer, winning_bid = forehand, DARK_CONTRACT
    else:
        bids, declarer, winning_bid = bidding(
            rules, table, hands, game_scores, chooser, barrel_seats, undarkened_by
        )
    at_100 = winning_bid == 100

    # 3. talon; with 2 players the declarer picks one of the two, blind
    talon_pick = None
    set_aside: list[int] = []
    if n == 2:
        talon_pick = chooser.choose(Decision.TALON_PICK, declarer, [0, 1], " (blind)")
        talon, set_aside = talons[talon_pick], talons[1 - talon_pick]
    else:
        talon = talons[0]
    reason = talon_reshuffle_reason(rules, talon)
    if may_redeal and reason is not None and (not rules.reshuffle.talon_only_at_100 or at_100):
        if chooser.choose(Decision.RESHUFFLE_TALON, declarer, [0, 1], f" ({reason})"):
            return redeal(declarer, reason, hands)
    shown = talon_shown(rules, at_100, kind)

    # 4. discard
    kept, given = discard(hands[declarer] + talon, table, declarer, chooser)
    after = [list(h) for h in hands]
    after[declarer] = kept
    for to, card in given:
        after[to] = sorted([*after[to], card])

    # 5. after-discard reshuffle
    if rules.reshuffle.after_discard_four_nines or rules.reshuffle.after_discard_points_below:
        for s in table.active:
            reason = after_discard_reshuffle_reason(rules, after[s])
            if may_redeal and reason is not None:
                if chooser.choose(Decision.RESHUFFLE_AFTER, s, [0, 1], f" ({reason})"):
                    return redeal(s, reason, after)

    # 6. contract; 120 in a dark deal and a blind golden one
    if kind == "dark" or (kind == "golden" and rules.golden.blind):
        options = [DARK_CONTRACT]
    else:
        options = contract_options(rules, winning_bid, kept)
    contract = chooser.choose(Decision.CONTRACT, declarer, options)
    body: dict[str, Any] = {
        "bids": bids,
        "declarer": declarer,
        "winning_bid": winning_bid,
        "talon_shown": shown,
        "discards": [[to, card_str(card)] for to, card in given],
        "contract": contract,
        "conceded": False,
    }

    def tail(made: bool, trump_named: str | None, last_talon_to: int | None) -> dict[str, Any]:
        """The keys after ``attempt``: protocol extras, then the 2-player ones."""
        out: dict[str, Any] = {
            "made": made,
            "trump_named": trump_named,
            "special": kind,
            "undarkened_by": undarkened_by,
        }
        if n == 2:
            out["talon_pick"] = talon_pick
            out["last_talon_to"] = last_talon_to
        return out

    # 7. concession
    if rules.rospis.allowed and not blocked[declarer]:
        if chooser.choose(Decision.CONCEDE, declarer, [0, 1]):
            body["conceded"] = True
            result: dict[str, Any] = {
                "card_points": table.zeros(),
                "marriage_points": table.zeros(),
                "tricks_taken": table.zeros(),
                "score_deltas": [
                    d + (four_nines_bonus(rules, after[s], kind) if s in table.active else 0)
                    for s, d in enumerate(concession_deltas(rules, table, declarer, contract, kind))
                ],
                "bolts": table.zeros(),
            }
            _sits_out(rules, table, talon, result, kind)
            gather_into(after)
            return finish({**body, **result}, tail(False, None, None))

    # 8. trump named by the declarer
    st = PlayState(declarer=declarer, players=n)
    trump_named = None
    if rules.trump.named_by_declarer:
        st.trump = chooser.choose(Decision.NAME_TRUMP, declarer, list(range(N_SUITS)))
        st.trump_setter = declarer
        trump_named = SUIT_LETTERS[st.trump]

    # 9. play; with 2 players the last trick's winner also captures the other talon
    tricks, captured = play_tricks(rules, table, [list(h) for h in after], st, chooser)
    gather_into(after, [parse_card(c) for t in tricks for c in t["cards"]])
    tricks_taken = [sum(1 for t in tricks if t["winner"] == s) for s in range(n)]
    last_talon_to = None
    if n == 2:
        last_talon_to = tricks[-1]["winner"]
        captured[last_talon_to] += set_aside

    # 10. scoring
    scored = score_played(rules, table, st, contract, captured, tricks_taken, after, kind)
    made = scored.pop("made")
    _sits_out(rules, table, talon, scored, kind)
    return finish({**body, "tricks": tricks, **scored}, tail(made, trump_named, last_talon_to))


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
