"""Python entry points of the fast engine: batches of slots, single scripted deals."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.cards import SUIT_LETTERS, card_str, mask_of, parse_cards
from sim.deal import generate_deals
from sim.engine.actions import MAX_REDEALS, REDEAL_STRIDE, Decision, ScriptError, encode_token
from sim.engine.driver import play_deal, slots_kernel
from sim.engine.state import (
    ERR_SCRIPT,
    MAX_BIDS_LOG,
    N_OUT,
    N_STATE,
    O_CONCEDED,
    O_CONTRACT,
    O_DECLARER,
    O_DISCARD1,
    O_MADE,
    O_REDEAL_REASON,
    O_REDEAL_SEAT,
    O_TALON_SHOWN,
    O_TRUMP_NAMED,
    O_WIN_BID,
    OUT,
    REASONS,
    S_ERROR,
    S_NBIDS,
    S_SCRIPT_POS,
    SNAP_AT,
    SNAP_KIND,
    SNAP_LEN,
    engine_params,
)
from sim.rng import Stream, item_state, stream_key
from sim.rules import Rules
from sim.strategies.registry import parse_params, strategy_ids


def _check_rules(rules: Rules) -> None:
    if rules.players != 3:
        raise ValueError(
            f"rules '{rules.name}': the hand engine plays 3-player deals; players = "
            f"{rules.players} is not supported yet"
        )


@dataclass
class HandsBatch:
    """Slots ``start .. start+n-1`` of a hands run: one played deal per slot.

    ``out`` has the columns :data:`sim.engine.state.OUT_COLUMNS`; slot ``k`` was
    redealt ``out[k, redeals]`` times first, by ``redeal_seat[k, a]`` for reason
    ``REASONS[redeal_reason[k, a]]``. With ``trace`` the bidding and trick logs of
    the played deals are kept too.
    """

    start: int
    seed: int
    rules: Rules
    out: np.ndarray
    redeal_seat: np.ndarray
    redeal_reason: np.ndarray
    bids_log: np.ndarray | None = None
    nbids: np.ndarray | None = None
    trick_log: np.ndarray | None = None

    def __len__(self) -> int:
        return int(self.out.shape[0])

    def column(self, name: str) -> np.ndarray:
        """One output column by name."""
        return self.out[:, OUT[name]]

    def traces(self) -> list[dict[str, Any]]:
        """Trace objects of every dealt deal (redealt ones first in each slot)."""
        if self.bids_log is None or self.nbids is None or self.trick_log is None:
            raise ValueError("this batch was played without trace=True")
        docs: list[dict[str, Any]] = []
        first_deals = generate_deals(len(self), self.seed, start=self.start)
        for k in range(len(self)):
            i = self.start + k
            row = self.out[k]
            redeals = int(row[OUT["redeals"]])
            for a in range(redeals + 1):
                if a == 0:
                    cards = first_deals[k]
                else:
                    cards = generate_deals(1, self.seed, start=i + a * REDEAL_STRIDE)[0]
                if a < redeals:
                    red = (int(self.redeal_seat[k, a]), int(self.redeal_reason[k, a]))
                    docs.append(_trace_head(i, a, row, cards, red))
                else:
                    docs.append(
                        trace_of(
                            i,
                            a,
                            row,
                            cards,
                            self.bids_log[k],
                            int(self.nbids[k]),
                            self.trick_log[k],
                        )
                    )
        return docs


def play_hands(
    rules: Rules,
    n: int,
    seed: int,
    strategies: Sequence[str] = ("heuristic", "heuristic", "heuristic"),
    params: Sequence[str] = (),
    start: int = 0,
    trace: bool = False,
    scores: Sequence[int] = (0, 0, 0),
) -> HandsBatch:
    """Play slots ``start .. start+n-1`` of the run seeded ``seed``.

    Args:
        rules: house rules (3 players).
        n: number of slots (deal ids); each is redealt until a deal is played.
        seed: the run's seed; deals and every random choice derive from it.
        strategies: one strategy name per seat.
        params: ``"strategy.name=value"`` settings.
        start: first deal id, so chunks of a run line up.
        trace: keep the logs needed for :meth:`HandsBatch.traces`.
        scores: the players' game scores before every deal (``bid.silence_below``).
    """
    _check_rules(rules)
    names = list(strategies)
    sp = parse_params(names, params)
    out = np.zeros((n, N_OUT), dtype=np.int32)
    rs = np.full((n, MAX_REDEALS), -1, dtype=np.int8)
    rr = np.full((n, MAX_REDEALS), -1, dtype=np.int8)
    tn = n if trace else 0
    bids_log = np.zeros((tn, MAX_BIDS_LOG, 2), dtype=np.int16)
    nbids = np.zeros(tn, dtype=np.int32)
    trick_log = np.zeros((tn, 8, 6), dtype=np.int8)
    slots_kernel(
        start,
        stream_key(seed, Stream.DEALS),
        stream_key(seed, Stream.STRATEGY),
        stream_key(seed, Stream.TIEBREAK),
        engine_params(rules),
        strategy_ids(names),
        sp,
        np.array(scores, dtype=np.int64),
        out,
        rs,
        rr,
        trace,
        bids_log,
        nbids,
        trick_log,
    )
    if trace:
        return HandsBatch(start, seed, rules, out, rs, rr, bids_log, nbids, trick_log)
    return HandsBatch(start, seed, rules, out, rs, rr)


def _cards_of_place(cards: np.ndarray, lo: int, hi: int) -> list[str]:
    return [card_str(int(c)) for c in sorted(int(x) for x in cards[lo:hi])]


def _trace_head(
    deal_id: int,
    attempt: int,
    row: np.ndarray,
    cards: np.ndarray,
    redeal: tuple[int, int] | None,
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "deal_id": deal_id,
        "dealer": int(row[OUT["dealer"]]),
        "hands": [_cards_of_place(cards, 7 * s, 7 * s + 7) for s in range(3)],
        "talon": _cards_of_place(cards, 21, 24),
    }
    if redeal is None:
        doc["reshuffle"] = None
    else:  # a redealt deal: nothing follows the reason but the attempt number
        doc["reshuffle"] = {"seat": redeal[0], "reason": REASONS[redeal[1]]}
        doc["attempt"] = attempt
    return doc


def trace_of(
    deal_id: int,
    attempt: int,
    row: np.ndarray,
    cards: np.ndarray,
    bids_log: np.ndarray,
    nbids: int,
    trick_log: np.ndarray,
) -> dict[str, Any]:
    """The CLI.md trace object of one played (or conceded) deal from engine logs."""
    doc = _trace_head(deal_id, attempt, row, cards, None)
    decl = int(row[O_DECLARER])
    log = bids_log[: min(nbids, len(bids_log))]
    doc["bids"] = [[int(s), int(b) if b else "pass"] for s, b in log]
    doc["declarer"] = decl
    doc["winning_bid"] = int(row[O_WIN_BID])
    doc["talon_shown"] = bool(row[O_TALON_SHOWN])
    doc["discards"] = [[(decl + j) % 3, card_str(int(row[O_DISCARD1 + j - 1]))] for j in (1, 2)]
    doc["contract"] = int(row[O_CONTRACT])
    doc["conceded"] = bool(row[O_CONCEDED])
    if not row[O_CONCEDED]:
        doc["tricks"] = [
            {
                "leader": int(t[0]),
                "cards": [card_str(int(c)) for c in t[1:4]],
                "marriage": None if t[4] < 0 else ("A" if t[4] == 4 else SUIT_LETTERS[t[4]]),
                "winner": int(t[5]),
            }
            for t in trick_log
        ]
    for key, col in (
        ("card_points", "card_points"),
        ("marriage_points", "marriage_points"),
        ("tricks_taken", "tricks"),
        ("score_deltas", "delta"),
        ("bolts", "bolt"),
    ):
        doc[key] = [int(row[OUT[f"{col}_{s}"]]) for s in range(3)]
    trump = int(row[O_TRUMP_NAMED])
    doc["attempt"] = attempt  # keys beyond CLI.md's come last
    doc["made"] = bool(row[O_MADE])
    doc["trump_named"] = SUIT_LETTERS[trump] if trump >= 0 else None
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
    scores: Sequence[int] = (0, 0, 0),
    strategies: Sequence[str] = ("random", "random", "random"),
    script: Sequence[Any] | None = None,
    params: Sequence[str] = (),
    snapshot_at: int | None = None,
    barrel: bool = False,
    no_concede: Sequence[bool] = (False, False, False),
    on_barrel: Sequence[bool] = (False, False, False),
) -> dict[str, Any]:
    """Play one deal written as card strings and return its trace (scenario tests).

    The script's tokens are taken in order at every non-forced decision; a token
    that is not legal raises :class:`ScriptError`. With ``snapshot_at=k`` the result
    is ``{"snapshot": array}``: the engine state at the k-th non-forced decision
    (layout ``SNAP_*`` of :mod:`sim.engine.state`), or None when the deal had fewer.
    ``barrel`` says someone sits on the barrel (it blocks a concession unless
    ``rospis.on_barrel``); ``no_concede`` and ``on_barrel`` are the per-seat hand
    inputs of GAME_PROTOCOL.md.
    """
    _check_rules(rules)
    ids = [parse_cards(h) for h in hands] + [parse_cards(talon)]
    if [len(x) for x in ids] != [7, 7, 7, 3] or len({c for x in ids for c in x}) != 24:
        raise ValueError("a deal needs three hands of 7 and a talon of 3, 24 distinct cards")
    cards = np.array([c for x in ids for c in x], dtype=np.int8)
    codes = script_codes(script or [])
    number = deal_id + attempt * REDEAL_STRIDE
    S = np.zeros(N_STATE, dtype=np.int64)
    row = np.zeros(N_OUT, dtype=np.int64)
    bids_log = np.zeros((MAX_BIDS_LOG, 2), dtype=np.int16)
    trick_log = np.zeros((8, 6), dtype=np.int8)
    snap = np.full(SNAP_LEN, -1, dtype=np.int64)
    if snapshot_at is not None:
        snap[SNAP_AT] = snapshot_at
    sp = parse_params(list(strategies), list(params))
    masks = np.array([mask_of(x) for x in ids], dtype=np.uint32)
    redealt = play_deal(
        masks,
        dealer,
        np.array(scores, dtype=np.int64),
        attempt < MAX_REDEALS,
        _seat_flags(rules, barrel, no_concede, on_barrel),
        engine_params(rules),
        strategy_ids(list(strategies)),
        sp,
        codes,
        np.uint64(item_state(stream_key(seed, Stream.STRATEGY), number)),
        np.uint64(item_state(stream_key(seed, Stream.TIEBREAK), number)),
        S,
        np.zeros(64, dtype=np.int64),
        row,
        True,
        bids_log,
        trick_log,
        snap,
    )
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
            deal_id, attempt, row, cards, (int(row[O_REDEAL_SEAT]), int(row[O_REDEAL_REASON]))
        )
    return trace_of(deal_id, attempt, row, cards, bids_log, int(S[S_NBIDS]), trick_log)


def _seat_flags(
    rules: Rules, barrel: bool, no_concede: Sequence[bool], on_barrel: Sequence[bool]
) -> int:
    flags = 0b111 if barrel and not rules.rospis.on_barrel else 0
    for s in range(3):
        flags |= int(bool(no_concede[s])) << s
        flags |= int(bool(on_barrel[s])) << (3 + s)
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
