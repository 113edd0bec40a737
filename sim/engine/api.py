"""Python entry points of the fast engine: batches of slots, single scripted deals."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from sim.cards import SUIT_LETTERS, card_str, cards_str, mask_of, parse_cards
from sim.engine.actions import MAX_REDEALS, REDEAL_STRIDE, Decision, ScriptError, encode_token
from sim.engine.deal import (
    DECK_WORK,
    JACK_MOVED,
    generate_deals,
    place_sizes,
    ritual_on,
)
from sim.engine.driver import (
    game_row,
    gather_deck,
    hands_outputs,
    play_one,
    slots_kernel,
    workspace,
)
from sim.engine.params import rules_vector
from sim.engine.rows import NO_TRACE, Rows
from sim.engine.state import (
    ERR_SCRIPT,
    FLAG_DARK_ALLOWED,
    FLAG_GOLDEN,
    N_ROW,
    REASONS,
    ROW,
    S_ERROR,
    S_NBIDS,
    S_REDEAL_REASON,
    S_REDEAL_SEAT,
    S_SCRIPT_POS,
    S_TRACE,
    SNAP_AT,
    SNAP_KIND,
    SPECIALS,
    TRICKS_2,
    TRICKS_3,
)
from sim.engine.strategies.addresses import hooks_for
from sim.engine.strategies.registry import (
    H_PLAY_BLOCK,
    parse_params,
    seat_lineup,
    strategy_ids,
)
from sim.parallel import threads_now
from sim.rng import Stream, item_state, stream_key
from sim.rules import Rules


@dataclass
class HandsBatch(Rows):
    """Slots ``start .. start+n-1`` of a hands run: one played deal per slot.

    ``out`` has the columns :data:`sim.engine.state.ROW_COLUMNS`, in game seats (the
    4-player dealer's talon score at its seat); slot ``k`` was redealt ``out[k,
    redeals]`` times first, by game seat ``redeal_seat[k, a]`` for reason
    ``REASONS[redeal_reason[k, a]]``. With ``trace`` the bidding and trick logs of
    the played deals are kept too.
    """

    start: int
    seed: int
    rules: Rules
    out: np.ndarray  # (n, N_ROW) rows in game seats
    redeal_seat: np.ndarray
    redeal_reason: np.ndarray
    dealt: np.ndarray  # (n, attempts kept, 4) uint32 dealt places (hand seats), or (0, 1, 4)
    ritual: np.ndarray  # (n, attempts kept) int8 ritual codes (sim.engine.deal.deal_from_deck)
    bids_log: np.ndarray | None = None
    nbids: np.ndarray | None = None
    trick_log: np.ndarray | None = None
    COLUMNS: ClassVar[Mapping[str, int]] = ROW  # sim.engine.state.ROW_COLUMNS

    def traces(self) -> list[dict[str, Any]]:
        """Trace objects of every dealt deal (redealt ones first in each slot)."""
        if self.bids_log is None or self.nbids is None or self.trick_log is None:
            raise ValueError(NO_TRACE)
        docs: list[dict[str, Any]] = []
        P = rules_vector(self.rules)
        for k in range(len(self)):
            i = self.start + k
            row = self.out[k]
            redeals = int(row[ROW["redeals"]])
            for a in range(redeals + 1):
                cards = cards_of_places(self.dealt[k, a])
                if a < redeals:
                    red = (int(self.redeal_seat[k, a]), int(self.redeal_reason[k, a]))
                    doc = _trace_head(self.rules, i, a, row, cards, red)
                else:
                    doc = trace_of(
                        self.rules,
                        P,
                        i,
                        a,
                        row,
                        cards,
                        self.bids_log[k],
                        int(self.nbids[k]),
                        self.trick_log[k],
                    )
                docs.append(_with_ritual(self.rules, doc, int(self.ritual[k, a])))
        return docs

    def first_deals(self) -> np.ndarray:
        """``(n, 24)`` card ids by place of each slot's first deal (``first_deals=True``).

        Under ``deal.method = "cut"`` these are the deals as the chains dealt them.
        """
        if self.dealt.shape[0] != len(self):
            raise ValueError("this batch was played without first_deals=True or trace=True")
        return cards_of_places(self.dealt[:, 0])


def cards_of_places(masks: np.ndarray) -> np.ndarray:
    """Card ids by place (each place ascending) from place masks: ``(..., 4)`` → ``(..., 24)``.

    The 4 masks of a deal hold 24 bits in all; each place's cards come out ascending,
    the places in order.
    """
    m = np.asarray(masks, dtype=np.int64)
    bits = (m[..., :, None] >> np.arange(24)) & 1  # (..., 4, 24): card c in place q
    flat = bits.reshape(-1, 96).astype(bool)
    _, where = np.nonzero(flat)  # row-major: by place, then by card id
    return (where % 24).astype(np.int8).reshape(*m.shape[:-1], 24)


def _with_ritual(rules: Rules, doc: dict[str, Any], code: int) -> dict[str, Any]:
    """Append the ritual's trace keys (only when the ritual is on): nines seen, jack moved."""
    if ritual_on(rules):
        doc["bottom_nines"] = code & 3
        doc["jack_moved"] = bool(code & JACK_MOVED)
    return doc


def play_hands(
    rules: Rules,
    n: int,
    seed: int,
    strategies: Sequence[str] = ("heuristic",),
    params: Sequence[str] = (),
    start: int = 0,
    trace: bool = False,
    scores: Sequence[int] | None = None,
    seat_params: np.ndarray | None = None,
    first_deals: bool = False,
) -> HandsBatch:
    """Play slots ``start .. start+n-1`` of the run seeded ``seed``.

    Args:
        rules: house rules (2, 3 or 4 players).
        n: number of slots (deal ids); each is redealt until a deal is played.
        seed: the run's seed; deals and every random choice derive from it.
        strategies: one strategy name per seat, or one for every seat.
        params: ``"strategy.name=value"`` settings.
        start: first deal id, so chunks of a run line up.
        trace: keep the logs needed for :meth:`HandsBatch.traces`.
        scores: the players' game scores before every deal (``bid.silence_below``);
            zeros by default.
        seat_params: a ``(players, N_STRATEGY_PARAMS)`` table of strategy parameters
            by seat, replacing ``params`` (duels of two settings of one strategy).
        first_deals: keep each slot's first dealt deal (:meth:`HandsBatch.first_deals`).
    """
    players = rules.players
    names, sp = seat_lineup(players, strategies, params, seat_params)
    sc = np.zeros(players, dtype=np.int64) if scores is None else np.array(scores, np.int64)
    if sc.shape != (players,):
        raise ValueError(f"{players} scores needed (one per seat), got {len(sc)}")
    out, rs, rr, dealt, ritual, bids_log, nbids, trick_log = hands_outputs(n, trace, first_deals)
    keys = np.array(
        [stream_key(seed, s) for s in (Stream.DEALS, Stream.CUT, Stream.STRATEGY, Stream.TIEBREAK)],
        dtype=np.uint64,
    )
    slots_kernel(
        start,
        keys,
        rules_vector(rules),
        strategy_ids(names),
        sp,
        hooks_for(strategy_ids(names), (H_PLAY_BLOCK, "sim.engine.driver", "play_block_entry")),
        sc,
        out,
        rs,
        rr,
        dealt,
        ritual,
        bids_log,
        nbids,
        trick_log,
        players,
        threads_now(),
    )
    if trace:
        return HandsBatch(
            start, seed, rules, out, rs, rr, dealt, ritual, bids_log, nbids, trick_log
        )
    return HandsBatch(start, seed, rules, out, rs, rr, dealt, ritual)


def _place_cards(cards: np.ndarray, players: int) -> list[list[str]]:
    """The cards of each place (ascending), in place order."""
    sizes = place_sizes(players)
    bounds = np.cumsum((0, *sizes))
    return [
        [card_str(int(c)) for c in sorted(int(x) for x in cards[bounds[q] : bounds[q + 1]])]
        for q in range(4)
    ]


def _seat_of(players: int, dealer: int) -> list[int]:
    """Game seat of each hand seat (4 players: the dealer sits out)."""
    if players == 4:
        return [(dealer + 1 + h) % 4 for h in range(3)]
    return list(range(players))


def _trace_head(
    rules: Rules,
    deal_id: int,
    attempt: int,
    row: np.ndarray,
    cards: np.ndarray,
    redeal: tuple[int, int] | None,
) -> dict[str, Any]:
    players = rules.players
    dealer = int(row[ROW["dealer"]])
    places = _place_cards(cards, players)
    if players == 4:
        hands: list[list[str]] = [[] for _ in range(4)]
        for h, s in enumerate(_seat_of(4, dealer)):
            hands[s] = places[h]
        talon = places[3]
    elif players == 2:
        hands = places[:2]
        talon = places[2] + places[3]
    else:
        hands = places[:3]
        talon = places[3]
    doc: dict[str, Any] = {"deal_id": deal_id, "dealer": dealer, "hands": hands, "talon": talon}
    if redeal is None:
        doc["reshuffle"] = None
    else:  # a redealt deal: nothing follows the reason but the attempt number
        doc["reshuffle"] = {"seat": redeal[0], "reason": REASONS[redeal[1]]}
        doc["attempt"] = attempt
    return doc


def trace_of(
    rules: Rules,
    P: np.ndarray,
    deal_id: int,
    attempt: int,
    row: np.ndarray,
    cards: np.ndarray,
    bids_log: np.ndarray,
    nbids: int,
    trick_log: np.ndarray,
) -> dict[str, Any]:
    """The docs/cli.md trace object of one played (or conceded) deal from engine logs.

    ``row`` is in game seats (:data:`ROW_COLUMNS`); the logs are in hand seats
    (PROTOCOL.md), mapped to game seats here.
    """
    players = rules.players
    doc = _trace_head(rules, deal_id, attempt, row, cards, None)
    dealer = doc["dealer"]
    seat = _seat_of(players, dealer)
    nh = len(seat)  # seats in the hand
    decl = int(row[ROW["declarer"]])
    decl_h = seat.index(decl)
    log = bids_log[: min(nbids, len(bids_log))]
    doc["bids"] = [[seat[int(s)], int(b) if b else "pass"] for s, b in log]
    doc["declarer"] = decl
    doc["winning_bid"] = int(row[ROW["winning_bid"]])
    doc["talon_shown"] = bool(row[ROW["talon_shown"]])
    lay = players == 2 and rules.talon.two_players == "discard"  # two laid away (§12)
    doc["discards"] = [
        [decl if lay else seat[(decl_h + j) % nh], card_str(int(row[ROW[f"discard_{j}"]]))]
        for j in range(1, 3 if lay else nh)
        if row[ROW["discard_1"]] >= 0  # none before a bomb (rospis.when = "talon")
    ]
    doc["contract"] = int(row[ROW["contract"]])
    doc["conceded"] = bool(row[ROW["conceded"]])
    if not row[ROW["conceded"]]:
        n_tricks = TRICKS_3 if nh == 3 else TRICKS_2 - lay
        doc["tricks"] = [
            {
                "leader": seat[int(tr[0])],
                "cards": [card_str(int(c)) for c in tr[1 : 1 + nh]],
                "marriage": None if tr[4] < 0 else ("A" if tr[4] == 4 else SUIT_LETTERS[tr[4]]),
                "winner": seat[int(tr[5])],
            }
            for tr in trick_log[:n_tricks]
        ]
    for key, col in (
        ("card_points", "card_points"),
        ("marriage_points", "marriage_points"),
        ("tricks_taken", "tricks"),
        ("score_deltas", "delta"),
        ("bolts", "bolt"),
    ):
        doc[key] = [int(row[ROW[f"{col}_{s}"]]) for s in range(players)]
    trump = int(row[ROW["trump_named"]])
    doc["attempt"] = attempt  # keys beyond docs/cli.md's come last
    doc["made"] = bool(row[ROW["made"]])
    doc["trump_named"] = SUIT_LETTERS[trump] if trump >= 0 else None
    doc["special"] = SPECIALS[int(row[ROW["special"]])]
    undark = int(row[ROW["undarkened_by"]])
    doc["undarkened_by"] = undark if undark >= 0 else None
    if players == 2:
        doc["talon_pick"] = int(row[ROW["talon_pick"]])
        last = int(row[ROW["last_talon_to"]])
        doc["last_talon_to"] = last if last >= 0 else None
    return doc


def play_hand_text(
    rules: Rules,
    hands: Sequence[str],
    talon: str,
    dealer: int,
    *,
    seed: int = 0,
    deal_id: int = 0,
    attempt: int = 0,
    scores: Sequence[int] | None = None,
    strategies: Sequence[str] | None = None,
    script: Sequence[Any] | None = None,
    params: Sequence[str] = (),
    snapshot_at: int | None = None,
    barrel: bool = False,
    no_concede: Sequence[bool] | None = None,
    on_barrel: Sequence[bool] | None = None,
    special: str = "none",
    gathered: list[int] | None = None,
) -> dict[str, Any]:
    """Play one deal written as card strings and return its trace (scenario tests).

    ``hands`` has one entry per seat (with 4 players the dealer's is ``""``); the
    talon has 3 cards, or with 2 players 4 (the first talon's 2, then the second's).
    The script's tokens are taken in order at every non-forced decision; a token
    that is not legal raises :class:`ScriptError`. With ``snapshot_at=k`` the result
    is ``{"snapshot": array}``: the engine state at the k-th non-forced decision
    (layout ``SNAP_*`` of :mod:`sim.engine.state`), or None when the deal had fewer.
    ``barrel`` says someone sits on the barrel (it blocks a concession unless
    ``rospis.on_barrel``); ``no_concede`` and ``on_barrel`` are the per-seat hand
    inputs of GAME_PROTOCOL.md; ``special`` is ``"none"``, ``"golden"`` or
    ``"dark_allowed"`` (PROTOCOL.md, special deals). ``gathered`` receives the next
    deck under ``deal.method = "cut"``: the deal's cards gathered as they lie (top
    first, :func:`sim.engine.driver.gather_deck`).
    """
    players = rules.players
    scores = [0] * players if scores is None else list(scores)
    strategies = ["random"] * players if strategies is None else list(strategies)
    no_concede = [False] * players if no_concede is None else list(no_concede)
    on_barrel = [False] * players if on_barrel is None else list(on_barrel)
    for name, v in (("hands", hands), ("scores", scores), ("strategies", strategies),
                    ("no_concede", no_concede), ("on_barrel", on_barrel)):  # fmt: skip
        if len(v) != players:
            raise ValueError(f"{name}: one entry per seat ({players}) needed, got {len(v)}")
    if special not in ("none", "golden", "dark_allowed"):
        raise ValueError(f"special must be none, golden or dark_allowed, got {special!r}")
    hand_seat = _seat_of(players, dealer)
    ids = [parse_cards(hands[s]) for s in hand_seat] + [parse_cards(talon)]
    if players == 2:
        ids = [*ids[:2], ids[2][:2], ids[2][2:]]
    sizes = list(place_sizes(players))
    if [len(x) for x in ids] != sizes or len({c for x in ids for c in x}) != 24:
        raise ValueError(f"a deal of {players} players needs places of {sizes}, 24 distinct cards")
    if players == 4 and parse_cards(hands[dealer]):
        raise ValueError("the 4-player dealer sits out: its hand must be empty")
    cards = np.array([c for x in ids for c in x], dtype=np.int8)
    codes = script_codes(script or [])
    number = deal_id + attempt * REDEAL_STRIDE
    sp = parse_params(strategies, list(params))
    masks = np.array([mask_of(x) for x in ids], dtype=np.uint32)
    h = hand_seat
    flags = seat_flags(
        rules, barrel, [no_concede[s] for s in h], [on_barrel[s] for s in h], special
    )
    P = rules_vector(rules)
    seat_ids = strategy_ids([strategies[s] for s in hand_seat])
    W = workspace(sp, seat_ids, hooks_for(seat_ids))
    W.masks[:] = masks
    W = W._replace(script=codes)  # the scenario's tokens
    W.strat[: len(h)] = strategy_ids([strategies[s] for s in h])
    W.scores[: len(h)] = [scores[s] for s in h]
    W.SP[: len(h)] = sp[h]
    if snapshot_at is not None:
        W.snap[SNAP_AT] = snapshot_at
    W.S[S_TRACE] = 1
    redealt = play_one(
        P,
        W,
        2 if players == 4 else dealer,
        attempt < MAX_REDEALS,
        flags,
        np.uint64(item_state(stream_key(seed, Stream.STRATEGY), number)),
        np.uint64(item_state(stream_key(seed, Stream.TIEBREAK), number)),
    )
    S, snap, bids_log, trick_log = W.S, W.snap, W.bids, W.tricks
    row = np.zeros(N_ROW, dtype=np.int64)
    game_row(P, W, row, dealer, players, scores[dealer] if players == 4 else 0)
    row[ROW["dealer"]] = dealer
    if gathered is not None:
        deck = np.zeros(DECK_WORK, dtype=np.int64)
        gather_deck(S, P, bool(redealt), deck)
        gathered[:] = [int(c) for c in deck[:24]]
    if snapshot_at is not None:
        return {"snapshot": snap if snap[SNAP_KIND] >= 0 else None}
    if S[S_ERROR]:
        pos = int(S[S_ERROR]) - ERR_SCRIPT
        raise ScriptError(f"script token {pos} ({script[pos]!r}) is not a legal action")  # type: ignore[index]
    if S[S_SCRIPT_POS] < len(codes):
        raise ScriptError(
            f"the deal ended with {len(codes) - S[S_SCRIPT_POS]} script tokens unused"
        )
    if redealt:
        return _trace_head(
            rules,
            deal_id,
            attempt,
            row,
            cards,
            (hand_seat[int(S[S_REDEAL_SEAT])], int(S[S_REDEAL_REASON])),
        )
    return trace_of(rules, P, deal_id, attempt, row, cards, bids_log, int(S[S_NBIDS]), trick_log)


def _deal_places(cards: np.ndarray, players: int, dealer: int) -> tuple[list[str], str]:
    """A dealt deck's hands by seat (the 4-player dealer's empty) and its talon, as text."""
    if players == 2:
        return [cards_str(cards[:10]), cards_str(cards[10:20])], cards_str(cards[20:])
    dealt = iter([cards_str(cards[7 * i : 7 * i + 7]) for i in range(3)])
    hands = ["" if players == 4 and s == dealer else next(dealt) for s in range(players)]
    return hands, cards_str(cards[21:])


def decision_snapshots(
    rules: Rules,
    deals: int,
    seed: int,
    strategies: Sequence[str] | None = None,
    kinds: Iterable[int] | None = None,
    stream: int = 0,
    *,
    start: int = 0,
    params: Sequence[str] = (),
) -> Iterator[tuple[int, np.ndarray]]:
    """The states at the decisions of deals ``start .. start+deals-1`` of run ``seed``.

    Yields ``(deal, snapshot)``. Deal ``k`` (its dealer ``k`` mod the players) is played
    by ``strategies`` (default ``random`` at every seat: the most varied states) with
    ``params`` on the random stream of seed ``stream + k``; every non-forced decision of
    a kind in ``kinds`` (default all) is yielded as its snapshot (``SNAP_*`` of
    :mod:`sim.engine.state`), in order. For the tests of what players may see, the
    teacher's data (:mod:`sim.runs.teach`) and fitting and timing players on real states.
    """
    n = rules.players
    strategies = tuple(strategies or ("random",) * n)
    wanted = None if kinds is None else {int(k) for k in kinds}
    for k, cards in enumerate(generate_deals(deals, seed=seed, start=start), start):
        hands, talon = _deal_places(cards, n, k % n)
        for d in itertools.count():
            snap = play_hand_text(
                rules, hands, talon, k % n, strategies=strategies, seed=stream + k,
                params=params, snapshot_at=d,
            )["snapshot"]  # fmt: skip
            if snap is None:
                break
            kind = int(snap[SNAP_KIND])
            if wanted is None or kind in wanted:
                yield k, snap
            if wanted is not None and kind == Decision.PLAY and kind not in wanted:
                break  # only card play follows


def played_outcomes(
    rules: Rules,
    deals: int,
    seed: int,
    strategies: Sequence[str],
    stream: int = 0,
    *,
    start: int = 0,
    params: Sequence[str] = (),
) -> Iterator[tuple[int, np.ndarray, dict[str, Any]]]:
    """The contract decisions of deals ``start ..`` of run ``seed``, each with its deal played on.

    Yields ``(deal, snapshot, trace)`` for every deal with a contract to choose: the
    state at that decision (as :func:`decision_snapshots` yields it) and the trace of the
    same deal played to its end by ``strategies`` with no seat conceding, so that the
    declarer's deal total says which contracts its play would have made.
    """
    n = rules.players
    for k, snap in decision_snapshots(
        rules, deals, seed, strategies, (Decision.CONTRACT,), stream, start=start, params=params
    ):
        hands, talon = _deal_places(generate_deals(1, seed=seed, start=k)[0], n, k % n)
        trace = play_hand_text(
            rules, hands, talon, k % n, strategies=strategies, seed=stream + k, params=params,
            no_concede=[True] * n,
        )  # fmt: skip
        yield k, snap, trace


def seat_flags(
    rules: Rules,
    barrel: bool,
    no_concede: Sequence[bool],
    on_barrel: Sequence[bool],
    special: str = "none",
) -> int:
    """The hand engine's ``seat_flags`` from per-hand-seat inputs (PROTOCOL.md)."""
    flags = 0b111 if barrel and not rules.rospis.on_barrel else 0
    for s in range(len(no_concede)):
        flags |= int(bool(no_concede[s])) << s
        flags |= int(bool(on_barrel[s])) << (3 + s)
    if special == "golden":
        flags |= FLAG_GOLDEN
    elif special == "dark_allowed":
        flags |= FLAG_DARK_ALLOWED
    return flags


def script_codes(script: Sequence[Any]) -> np.ndarray:
    """Script tokens as rows ``(bitmask of the decision kinds they fit, action code)``.

    Raises:
        ScriptError: for a token that fits no decision.
    """
    rows = np.zeros((len(script), 2), dtype=np.int64)
    for i, tok in enumerate(script):
        for kind in Decision:
            try:
                code = encode_token(kind, tok)
            except ValueError:
                continue
            rows[i, 0] |= 1 << int(kind)
            rows[i, 1] = code
        if rows[i, 0] == 0:
            raise ScriptError(f"script token {i} ({tok!r}) fits no decision")
    return rows
