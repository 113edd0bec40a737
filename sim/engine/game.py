"""Whole games to the target (docs/rules.md §7–§9), compiled: ``GAME_PROTOCOL.md``.

A game strings deals of the hand engine (:func:`sim.engine.driver.play_deal`)
together and keeps what lives between deals: scores, bolts, concessions, the
barrel. :func:`play_games` plays games ``start .. start+n-1`` of a run in parallel;
game ``g`` depends only on ``(seed, rules, strategies, g)``.

Golden and dark deals (§10, §11), the bank (§8) and 2 or 4 players (§12) follow
the last sections of GAME_PROTOCOL.md.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numba import prange

from sim.engine.actions import MAX_REDEALS
from sim.engine.deal import (
    RITUAL_NINES,
)
from sim.engine.driver import (
    deal_hand,
    gather_deck,
    hand_seats,
    play_one,
    sample_workspace,
    seat_arrays,
    seats_sample,
    workspace,
)
from sim.engine.params import (
    ALL_FALL,
    CUT,
    ONE_FALLS,
    P_ACCUMULATE,
    P_ATTEMPTS,
    P_BARREL_AT,
    P_BOLT_COUNT,
    P_BOLT_DOUBLE_IN_SPECIAL,
    P_BOLT_IN_A_ROW,
    P_BOLT_ON_BARREL,
    P_BOLT_PENALTY,
    P_DARK,
    P_DARK_MIN_SCORE,
    P_DARK_NOT_ON_BARREL,
    P_DEAL_METHOD,
    P_DEALER_PENALTY,
    P_FALL_PENALTY,
    P_GOLDEN,
    P_GOLDEN_REPEAT,
    P_GOLDEN_RESET,
    P_NINE_PENALTY,
    P_ONE_AT_A_TIME,
    P_ROSPIS_MAX_PER_GAME,
    P_ROSPIS_ON_BARREL,
    P_ROSPIS_THIRD_PENALTY,
    P_SAMOSVAL,
    P_SAMOSVAL_NEGATIVE,
    P_SAMOSVAL_TO,
    P_SIMULTANEOUS,
    P_TARGET,
    P_TARGET_STRICT,
    P_THIRD_FALL_ZERO,
    rules_vector,
)
from sim.engine.rows import NO_TRACE, Rows
from sim.engine.scoring import locked, sitter_score
from sim.engine.state import (
    FLAG_DARK_ALLOWED,
    FLAG_GOLDEN,
    MAX_SEATS,
    O_BOLT0,
    O_CONCEDED,
    O_CONTRACT,
    O_DECLARER,
    O_DELTA0,
    O_MADE,
    O_SPECIAL,
    REASONS,
    S_REDEAL_REASON,
    S_TALON,
    SPECIAL_DARK,
    SPECIAL_NONE,
    SPECIALS,
    Workspace,
)
from sim.engine.strategies.addresses import hooks_for
from sim.engine.strategies.registry import H_PLAY_GAME, seat_lineup, strategy_ids
from sim.jit import body, call_packed, claim, hot, hot_call, kernel, packed_type, unpacked
from sim.parallel import threads_now
from sim.rng import Stream, bounded, item_state, stream_key
from sim.rules import Rules

MAX_DEALS = 1000  # played deals before a game is marked unfinished
MAX_STINTS = 64  # barrel stints recorded per game
MAX_DEALT = 2048  # dealt deals (redeals included) kept per game in a trace
MAX_EVENTS = 4096
_GAME_STRIDE = 1 << 32
_DEAL_STRIDE = 64
_GAME_BLOCK = 16  # games a thread claims at a time (one with a sampling player)
_REASON_HAND_NINES = REASONS.index("hand_nines")

# --- the per-game bundle ------------------------------------------------------------------
GameWorkspace = namedtuple(
    "GameWorkspace", ["G", "D", "out", "stints", "log", "events", "counts", "trace"]
)
"""One game's state and outputs: ``G`` per-seat state (``G_*``), ``D`` the last deal in
game seats (``GD_*``), ``out`` the game's row, ``stints`` its barrel stints, ``log`` and
``events`` its trace (kept when ``trace``), ``counts`` (stints, events, dealt deals)."""

# --- per-seat game state G[s, :] ------------------------------------------------------
(
    G_SCORE, G_BOLTS, G_CONCESSIONS, G_ON, G_BDEALS, G_FALLS, G_ENTRIES, G_BOLT_PEN,
    G_SAMOSVALS, G_ENTERED, G_STINT, G_DARK_WON, G_DARK_LOST, G_NINE_PEN, G_BEHIND, G_ROLE,
    N_G,
) = range(17)  # fmt: skip
# G[k, G_ROLE] is kept by role, not by seat: the deal scores of the seat k places after
# each deal's dealer, summed over the game's played deals

# --- one played or conceded deal in game seats (the input of apply_deal) --------------
GD_DECL, GD_MADE, GD_CONTRACT, GD_CONCEDED, GD_SPECIAL, GD_SITTER, GD_DELTA0 = range(7)
GD_BOLT0 = GD_DELTA0 + MAX_SEATS
N_GD = GD_BOLT0 + MAX_SEATS

# --- events ------------------------------------------------------------------------------
EVENTS = (
    "bolt", "bolt_penalty", "samosval", "barrel_on", "barrel_win", "barrel_fall",
    "concession_penalty", "dealer_penalty", "golden_reset", "nine_cut_penalty",
)  # fmt: skip
E_BOLT, E_BOLT_PENALTY, E_SAMOSVAL, E_BARREL_ON, E_BARREL_WIN, E_BARREL_FALL = range(6)
E_CONCESSION_PENALTY, E_DEALER_PENALTY, E_GOLDEN_RESET, E_NINE_CUT_PENALTY = 6, 7, 8, 9
FALL_CAUSES = ("attempts", "knocked_off", "simultaneous")
OUTCOMES = ("won", "fell_attempts", "knocked_off", "fell_simultaneous", "game_over")
_KNOCKED_OFF = OUTCOMES.index("knocked_off")

# --- outputs (per-seat columns for 4 seats; sim.runs.games.games_frame keeps the game's
# seats) ---------------------------------------------------------------------------------
SEAT_STATS = (
    "score", "barrel_entries", "barrel_falls", "bolt_penalties", "samosvals", "concessions",
    "dark_won", "dark_lost", "nine_cut_penalties", "max_behind", "role_points",
)  # fmt: skip
_G_OF_STAT = (G_SCORE, G_ENTRIES, G_FALLS, G_BOLT_PEN, G_SAMOSVALS, G_CONCESSIONS,
              G_DARK_WON, G_DARK_LOST, G_NINE_PEN, G_BEHIND, G_ROLE)  # fmt: skip
GAME_COLUMNS = [
    "first_dealer", "n_deals", "winner", "unfinished", "redeals", "n_stints",
    "golden_reset", "golden_deals", "dark_deals", "contracts", "contracts_made",
    "contracts_conceded", "contract_sum",
] + [f"{stat}_{s}" for stat in SEAT_STATS for s in range(MAX_SEATS)]  # fmt: skip
GC = {c: i for i, c in enumerate(GAME_COLUMNS)}
_C_FIRST, _C_NDEALS, _C_WINNER, _C_UNFINISHED, _C_REDEALS, _C_NSTINTS = range(6)
_C_GOLDEN_RESET, _C_GOLDEN_DEALS, _C_DARK_DEALS = 6, 7, 8
_C_CONTRACTS, _C_MADE, _C_CONCEDED, _C_CONTRACT_SUM, _C_STATS = 9, 10, 11, 12, 13
# stint rows: seat, entered_deal, deals_on_barrel, outcome
# deal trace rows: dealer, reshuffled, declarer, contract, conceded, made, special,
# deltas x4, bolts x4, scores x4, first event index
L_DEALER, L_RESHUFFLED, L_DECL, L_CONTRACT, L_CONCEDED, L_MADE, L_SPECIAL = range(7)
L_DELTA0, L_BOLT0, L_SCORE0, L_EVENT = 7, 11, 15, 19
N_DEAL_LOG = 20


@hot_call
def _record(
    events: np.ndarray, ne: np.ndarray, trace: bool, row: int, kind: int, seat: int, value: int
) -> None:
    if trace and ne[0] < events.shape[0]:
        events[ne[0], 0] = row
        events[ne[0], 1] = kind
        events[ne[0], 2] = seat
        events[ne[0], 3] = value
    ne[0] += 1


@hot_call
def _pick_winner(G: np.ndarray, n: int, seats: int, decl: int, dealer: int) -> int:
    """The winner among the seats of a bitmask (docs/rules.md §8).

    The highest score wins; ties go to the declarer, then to the seat first from the
    dealer's left.
    """
    winner = -1
    for k in range(n):
        s = (dealer + 1 + k) % n
        if not seats >> s & 1:
            continue
        if winner < 0 or G[s, G_SCORE] > G[winner, G_SCORE]:
            winner = s
        elif G[s, G_SCORE] == G[winner, G_SCORE] and s == decl:
            winner = s
    return winner


@hot_call
def _end_stint(G: np.ndarray, s: int, outcome: int, stints: np.ndarray) -> None:
    k = G[s, G_STINT]
    if k < stints.shape[0]:
        stints[k, 2] = G[s, G_BDEALS]
        stints[k, 3] = outcome


@hot_call
def _open_stint(
    G: np.ndarray, s: int, d: int, outcome: int, stints: np.ndarray, ns: np.ndarray
) -> None:
    """Record a new barrel stint of seat ``s`` entered at played deal ``d``."""
    G[s, G_ENTRIES] += 1
    if ns[0] < stints.shape[0]:
        stints[ns[0], 0] = s
        stints[ns[0], 1] = d
        stints[ns[0], 2] = 0
        stints[ns[0], 3] = outcome
    ns[0] += 1


@hot_call
def _fall(
    G: np.ndarray,
    P: np.ndarray,
    s: int,
    cause: int,
    stints: np.ndarray,
    ns: np.ndarray,
    d: int,
    events: np.ndarray,
    ne: np.ndarray,
    trace: bool,
    row: int,
) -> None:
    """Seat ``s`` falls off (or, for a simultaneous climb, never gets on) the barrel."""
    G[s, G_FALLS] += 1
    if P[P_THIRD_FALL_ZERO] and G[s, G_FALLS] == 3:
        G[s, G_SCORE] = 0
    else:
        G[s, G_SCORE] = P[P_BARREL_AT] - P[P_FALL_PENALTY]
    if G[s, G_ON]:
        _end_stint(G, s, 1 + cause, stints)  # fell_attempts, knocked_off, fell_simultaneous
    else:  # a simultaneous climber that never sat on the barrel: a stint of 0 deals
        _open_stint(G, s, d, 1 + cause, stints, ns)
    G[s, G_ON] = 0
    G[s, G_BDEALS] = 0
    _record(events, ne, trace, row, E_BARREL_FALL, s, cause)


@hot_call
def _climb(
    G: np.ndarray,
    P: np.ndarray,
    s: int,
    stints: np.ndarray,
    ns: np.ndarray,
    d: int,
    events: np.ndarray,
    ne: np.ndarray,
    trace: bool,
    row: int,
) -> None:
    G[s, G_SCORE] = P[P_BARREL_AT]
    G[s, G_ON] = 1
    G[s, G_BDEALS] = 0
    G[s, G_STINT] = ns[0]
    _open_stint(G, s, d, 4, stints, ns)  # game_over unless something else happens
    _record(events, ne, trace, row, E_BARREL_ON, s, 0)


@hot_call
def _bolt(
    G: np.ndarray,
    P: np.ndarray,
    s: int,
    events: np.ndarray,
    ne: np.ndarray,
    trace: bool,
    row: int,
) -> None:
    """One bolt counted for seat ``s`` and, at every ``bolt.count``-th, its penalty."""
    _record(events, ne, trace, row, E_BOLT, s, 0)
    G[s, G_BOLTS] += 1
    if G[s, G_BOLTS] == P[P_BOLT_COUNT]:
        G[s, G_SCORE] -= P[P_BOLT_PENALTY]
        if P[P_BOLT_PENALTY] > 0:  # a penalty charged (none where it costs nothing)
            G[s, G_BOLT_PEN] += 1
        G[s, G_BOLTS] = 0
        _record(events, ne, trace, row, E_BOLT_PENALTY, s, P[P_BOLT_PENALTY])


@hot_call
def _nine_cut_penalty(
    G: np.ndarray,
    P: np.ndarray,
    s: int,
    events: np.ndarray,
    ne: np.ndarray,
    trace: bool,
    row: int,
) -> None:
    """The cutter turned up a third bottom nine in a row (docs/rules.md §2): it pays.

    Not while it sits on the barrel (its score is pinned); no other effect follows.
    """
    if G[s, G_ON]:
        return
    G[s, G_SCORE] -= P[P_NINE_PENALTY]
    G[s, G_NINE_PEN] += 1
    _record(events, ne, trace, row, E_NINE_CUT_PENALTY, s, P[P_NINE_PENALTY])


@hot
def _tally_special(G: np.ndarray, D: np.ndarray) -> None:
    """A dark deal won or lost by its declarer (the game loop counts golden deals)."""
    if D[GD_SPECIAL] == SPECIAL_DARK:
        if D[GD_MADE]:
            G[D[GD_DECL], G_DARK_WON] += 1
        else:
            G[D[GD_DECL], G_DARK_LOST] += 1


@hot
def _deal_deltas(
    G: np.ndarray,
    P: np.ndarray,
    n: int,
    D: np.ndarray,
    was_on: int,
    events: np.ndarray,
    ne: np.ndarray,
    trace: bool,
    row: int,
) -> None:
    """Step 2.1: deal deltas (pinned on the barrel), concessions and the third-one penalty."""
    for s in range(n):
        if not (was_on >> s & 1) or P[P_ACCUMULATE]:
            G[s, G_SCORE] += D[GD_DELTA0 + s]
    if D[GD_CONCEDED]:
        decl = D[GD_DECL]
        G[decl, G_CONCESSIONS] += 1
        third = G[decl, G_CONCESSIONS] == 3 and P[P_ROSPIS_THIRD_PENALTY] > 0
        if third and not (was_on >> decl & 1):
            G[decl, G_SCORE] -= P[P_ROSPIS_THIRD_PENALTY]
            _record(events, ne, trace, row, E_CONCESSION_PENALTY, decl, P[P_ROSPIS_THIRD_PENALTY])


@hot
def _bolts(
    G: np.ndarray,
    P: np.ndarray,
    n: int,
    D: np.ndarray,
    was_on: int,
    events: np.ndarray,
    ne: np.ndarray,
    trace: bool,
    row: int,
) -> None:
    """Step 2.2: bolts, in seat order (two in a special deal with bolt.double_in_special).

    The 4-player dealer sits out; a seat on the barrel neither bolts nor resets unless
    ``bolt.on_barrel``.
    """
    times = 2 if D[GD_SPECIAL] != SPECIAL_NONE and P[P_BOLT_DOUBLE_IN_SPECIAL] else 1
    for s in range(n):
        if s == D[GD_SITTER] or (was_on >> s & 1 and not P[P_BOLT_ON_BARREL]):
            continue
        if D[GD_BOLT0 + s]:
            for _ in range(times):
                _bolt(G, P, s, events, ne, trace, row)
        elif P[P_BOLT_IN_A_ROW]:
            G[s, G_BOLTS] = 0


@hot
def _samosval(
    G: np.ndarray, P: np.ndarray, n: int, events: np.ndarray, ne: np.ndarray, trace: bool, row: int
) -> None:
    """Step 2.3: exactly 555 (or -555) becomes ``score.samosval_to``, in seat order."""
    for s in range(n):
        sc = G[s, G_SCORE]
        if (sc == 555 and P[P_SAMOSVAL]) or (sc == -555 and P[P_SAMOSVAL_NEGATIVE]):
            G[s, G_SCORE] = P[P_SAMOSVAL_TO]
            G[s, G_SAMOSVALS] += 1
            _record(events, ne, trace, row, E_SAMOSVAL, s, 0)


@hot
def _reached(P: np.ndarray, score: int) -> bool:
    """Whether ``score`` reaches the target (``>`` with ``score.target_strict``)."""
    return score > P[P_TARGET] or (score == P[P_TARGET] and not P[P_TARGET_STRICT])


@hot
def _barrel_win(
    G: np.ndarray,
    P: np.ndarray,
    n: int,
    D: np.ndarray,
    dealer: int,
    was_on: int,
    stints: np.ndarray,
    events: np.ndarray,
    ne: np.ndarray,
    trace: bool,
    row: int,
) -> int:
    """Step 2.4a: a barrel win ends the game; returns the winner's seat, or -1.

    The declarer on the barrel wins by making its contract to the target and scores
    ``barrel.at + contract``; with ``barrel.accumulate`` a barrel player whose score
    reached the target wins too (:func:`_pick_winner` among several).
    """
    decl = D[GD_DECL]
    winners = 0
    if was_on >> decl & 1 and D[GD_MADE]:
        total = P[P_BARREL_AT] + D[GD_CONTRACT]
        if _reached(P, total):
            G[decl, G_SCORE] = total
            winners |= 1 << decl
    if P[P_ACCUMULATE]:
        for s in range(n):
            if was_on >> s & 1 and _reached(P, G[s, G_SCORE]):
                winners |= 1 << s
    if not winners:
        return -1
    w = _pick_winner(G, n, winners, decl, dealer)
    _record(events, ne, trace, row, E_BARREL_WIN, w, 0)
    for s in range(n):
        if was_on >> s & 1:  # this deal was played on the barrel too
            if s != D[GD_SITTER]:
                G[s, G_BDEALS] += 1
            _end_stint(G, s, 0 if s == w else 4, stints)
    return w


@hot
def _barrel_attempts(
    G: np.ndarray,
    P: np.ndarray,
    n: int,
    D: np.ndarray,
    d: int,
    was_on: int,
    stints: np.ndarray,
    ns: np.ndarray,
    events: np.ndarray,
    ne: np.ndarray,
    trace: bool,
    row: int,
) -> None:
    """Step 2.4b: each seat on the barrel uses an attempt; the last one makes it fall.

    The 4-player dealer sat the deal out: it uses none.
    """
    for s in range(n):
        if was_on >> s & 1 and s != D[GD_SITTER]:
            G[s, G_BDEALS] += 1
            if G[s, G_BDEALS] >= P[P_ATTEMPTS]:
                _fall(G, P, s, 0, stints, ns, d, events, ne, trace, row)


@hot
def _barrel_climbers(
    G: np.ndarray,
    P: np.ndarray,
    n: int,
    dealer: int,
    d: int,
    stints: np.ndarray,
    ns: np.ndarray,
    events: np.ndarray,
    ne: np.ndarray,
    trace: bool,
    row: int,
) -> None:
    """Step 2.4c: seats off the barrel at ``barrel.at`` or more climb on (or fall).

    In seat order from the dealer's left: the simultaneous falls first, then the
    climbs, then (``barrel.one_at_a_time``) the knock-offs of those already on.
    """
    climbers = 0
    n_climb = 0
    already = 0
    for k in range(n):
        s = (dealer + 1 + k) % n
        if G[s, G_ON]:
            already |= 1 << s
        elif G[s, G_SCORE] >= P[P_BARREL_AT]:
            climbers |= 1 << s
            n_climb += 1
    down = 0
    if n_climb >= 2 and P[P_SIMULTANEOUS] == ALL_FALL:  # all_fall
        down = climbers
    elif n_climb >= 2 and P[P_SIMULTANEOUS] == ONE_FALLS:  # one_falls: the lower score
        loser = -1
        for k in range(n):
            s = (dealer + 1 + k) % n
            if climbers >> s & 1 and (loser < 0 or G[s, G_SCORE] <= G[loser, G_SCORE]):
                loser = s
        down = 1 << loser
    up = climbers & ~down
    for k in range(n):
        s = (dealer + 1 + k) % n
        if down >> s & 1:
            _fall(G, P, s, 2, stints, ns, d, events, ne, trace, row)
    for k in range(n):
        s = (dealer + 1 + k) % n
        if up >> s & 1:
            _climb(G, P, s, stints, ns, d, events, ne, trace, row)
    if up and P[P_ONE_AT_A_TIME]:
        for k in range(n):
            s = (dealer + 1 + k) % n
            if already >> s & 1:
                _fall(G, P, s, 1, stints, ns, d, events, ne, trace, row)


@hot_call
def apply_deal(
    G: np.ndarray,
    P: np.ndarray,
    n: int,
    D: np.ndarray,
    dealer: int,
    d: int,
    stints: np.ndarray,
    ns: np.ndarray,
    events: np.ndarray,
    ne: np.ndarray,
    trace: bool,
    row: int,
) -> int:
    """Game-level effects of one played or conceded deal (GAME_PROTOCOL.md, 2.1-2.5).

    ``D`` is the deal in game seats (``GD_*``); ``n`` the number of seats. Returns the
    winner's seat, or -1 while the game goes on. The steps are the functions of the
    same names in :func:`sim.reference.game.apply_deal`; "on the barrel" means at the
    start of the deal (``was_on``).
    """
    was_on = 0
    for s in range(n):
        if G[s, G_ON]:
            was_on |= 1 << s
    _tally_special(G, D)
    _deal_deltas(G, P, n, D, was_on, events, ne, trace, row)
    _bolts(G, P, n, D, was_on, events, ne, trace, row)
    _samosval(G, P, n, events, ne, trace, row)
    if P[P_BARREL_AT] > 0:
        w = _barrel_win(G, P, n, D, dealer, was_on, stints, events, ne, trace, row)
        if w < 0:
            _barrel_attempts(G, P, n, D, d, was_on, stints, ns, events, ne, trace, row)
            _barrel_climbers(G, P, n, dealer, d, stints, ns, events, ne, trace, row)
        return w
    # step 2.5, without the barrel: whoever reached the target
    reached = 0
    for s in range(n):
        if _reached(P, G[s, G_SCORE]):
            reached |= 1 << s
    return _pick_winner(G, n, reached, D[GD_DECL], dealer) if reached else -1


@hot_call
def _golden_reset(
    G: np.ndarray,
    n: int,
    stints: np.ndarray,
    events: np.ndarray,
    ne: np.ndarray,
    trace: bool,
    row: int,
) -> None:
    """Nobody made a golden deal: every score to 0, the barrel emptied without falls."""
    for s in range(n):
        G[s, G_SCORE] = 0
        if G[s, G_ON]:
            _end_stint(G, s, _KNOCKED_OFF, stints)
            G[s, G_ON] = 0
            G[s, G_BDEALS] = 0
    _record(events, ne, trace, row, E_GOLDEN_RESET, -1, 0)


@hot_call
def _deal_vector(
    P: np.ndarray, h: np.ndarray, talon: int, sitter_at: int, n: int, dealer: int, D: np.ndarray
) -> None:
    """The hand engine's row ``h`` (hand seats) as the deal vector ``D`` (game seats).

    ``talon`` is the deal's talon mask (the 4-player sitter scores it, unless its game
    score ``sitter_at`` locks it: ``score.lock_at``).
    The 4-player dealer's talon score is :func:`sim.engine.scoring.sitter_score`, as in
    the rows of a hands run (:func:`sim.engine.driver.game_row`).
    """
    for j in range(N_GD):
        D[j] = 0
    D[GD_SITTER] = -1
    D[GD_MADE] = h[O_MADE]
    D[GD_CONTRACT] = h[O_CONTRACT]
    D[GD_CONCEDED] = h[O_CONCEDED]
    D[GD_SPECIAL] = h[O_SPECIAL]
    offset = dealer + 1 if n == 4 else 0
    D[GD_DECL] = (offset + h[O_DECLARER]) % MAX_SEATS
    for k in range(3 if n == 4 else n):
        s = (offset + k) % MAX_SEATS
        D[GD_DELTA0 + s] = h[O_DELTA0 + k]
        D[GD_BOLT0 + s] = h[O_BOLT0 + k]
    if n == 4:
        D[GD_SITTER] = dealer
        if not locked(sitter_at, P):
            D[GD_DELTA0 + dealer] = sitter_score(talon, h[O_SPECIAL], P)[2]


@body
def play_game(
    g: int,
    first_dealer: int,
    n: int,
    P: np.ndarray,
    keys: np.ndarray,
    seats: tuple,
    W: Workspace,
    GW: GameWorkspace,
) -> None:
    """Play game ``g`` of ``n`` players to its end (or MAX_DEALS played deals).

    ``keys`` are the stream keys (deals, cut, strategy, tie-break), ``seats`` the
    run's ``(strategies, SP, scores)``, ``W`` the hand engine's :class:`Workspace`,
    ``GW`` the game's :data:`GameWorkspace`. The game's first deal is shuffled; under
    ``deal.method = "cut"`` every later deal is dealt from the previous one gathered.
    """
    G, D, game_out, stints, deal_log, events, counts, trace = GW
    strategies, SP, scores = seats
    S = W.S
    G[:, :] = 0
    ns = counts[0:1]
    ne = counts[1:2]
    ndl = counts[2:3]
    ns[0] = 0
    ne[0] = 0
    ndl[0] = 0
    dealer = first_dealer
    winner = -1
    d = 0
    redeals = 0
    golden_left = n if P[P_GOLDEN] else 0  # golden deals left in the current round
    golden_made = 0
    golden_reset = 0
    golden_deals = 0
    dark_deals = 0
    contracts = 0
    made = 0
    conceded = 0
    contract_sum = 0
    if n != 4:  # hand seats are game seats: fill the hand's inputs once
        hand_seats(n, dealer, strategies, SP, scores, W)
    has_deck = False
    while d < MAX_DEALS and winner < 0:
        attempt = 0
        hand_dealer = dealer
        if n == 4:  # the dealer sits out: the hand's seats turn with it
            hand_dealer = hand_seats(n, dealer, strategies, SP, scores, W)
        while True:
            number = g * _GAME_STRIDE + d * _DEAL_STRIDE + attempt
            code = deal_hand(
                keys[0], keys[1], number, n, hand_dealer, P, has_deck, W.deck, W.cards, W.masks
            )
            if (code & 3) == RITUAL_NINES and P[P_NINE_PENALTY] > 0:
                _nine_cut_penalty(G, P, (dealer + n - 1) % n, events, ne, trace, ndl[0])
            any_on = False
            for s in range(n):
                any_on = any_on or G[s, G_ON] != 0
            flags = 0
            for h in range(3 if n == 4 else n):
                s = (dealer + 1 + h) % 4 if n == 4 else h
                W.scores[h] = G[s, G_SCORE]
                if any_on and not P[P_ROSPIS_ON_BARREL]:
                    flags |= 1 << h
                if P[P_ROSPIS_MAX_PER_GAME] > 0 and G[s, G_CONCESSIONS] >= P[P_ROSPIS_MAX_PER_GAME]:
                    flags |= 1 << h
                if G[s, G_ON]:
                    flags |= 1 << (3 + h)
            fore = (dealer + 1) % n
            if golden_left > 0:
                flags |= FLAG_GOLDEN
            elif (
                P[P_DARK]
                and G[fore, G_SCORE] >= P[P_DARK_MIN_SCORE]
                and not (P[P_DARK_NOT_ON_BARREL] and any_on)
            ):
                flags |= FLAG_DARK_ALLOWED
            redealt = play_one(
                P,
                W,
                hand_dealer,
                attempt < MAX_REDEALS,
                flags,
                item_state(keys[2], number),
                item_state(keys[3], number),
            )
            if P[P_DEAL_METHOD] == CUT:
                gather_deck(S, P, redealt == 1, W.deck)
                has_deck = True
            r = ndl[0]
            if trace and r < deal_log.shape[0]:
                deal_log[r, L_DEALER] = dealer
                deal_log[r, L_RESHUFFLED] = redealt
                deal_log[r, L_EVENT] = ne[0]
            if not redealt:
                break
            redeals += 1
            if (
                S[S_REDEAL_REASON] == _REASON_HAND_NINES
                and P[P_DEALER_PENALTY] > 0
                and not G[dealer, G_ON]
            ):
                G[dealer, G_SCORE] -= P[P_DEALER_PENALTY]
                _record(events, ne, trace, r, E_DEALER_PENALTY, dealer, P[P_DEALER_PENALTY])
            if trace and r < deal_log.shape[0]:
                for s in range(n):
                    deal_log[r, L_SCORE0 + s] = G[s, G_SCORE]
            ndl[0] += 1
            attempt += 1
        r = ndl[0]
        _deal_vector(P, W.out, W.S[S_TALON], G[dealer, G_SCORE], n, dealer, D)
        for s in range(n):  # the deal scores by role: k places after this deal's dealer
            G[(s - dealer) % n, G_ROLE] += D[GD_DELTA0 + s]
        winner = apply_deal(G, P, n, D, dealer, d, stints, ns, events, ne, trace, r)
        contracts += 1
        made += D[GD_MADE]
        conceded += D[GD_CONCEDED]
        contract_sum += D[GD_CONTRACT]
        if D[GD_SPECIAL] == SPECIAL_DARK:
            dark_deals += 1
        if golden_left > 0:
            golden_deals += 1
            golden_left -= 1
            if D[GD_MADE]:
                golden_made = 1
            if golden_left == 0 and winner < 0 and not golden_made:
                if P[P_GOLDEN_RESET]:
                    _golden_reset(G, n, stints, events, ne, trace, r)
                    golden_reset = 1
                elif P[P_GOLDEN_REPEAT]:
                    golden_left = n
        lead = G[0, G_SCORE]
        for s in range(1, n):
            lead = max(lead, G[s, G_SCORE])
        for s in range(n):  # after every played deal: how far behind the leader each seat is
            G[s, G_BEHIND] = max(G[s, G_BEHIND], lead - G[s, G_SCORE])
        if trace and r < deal_log.shape[0]:
            deal_log[r, L_DECL] = D[GD_DECL]
            deal_log[r, L_CONTRACT] = D[GD_CONTRACT]
            deal_log[r, L_CONCEDED] = D[GD_CONCEDED]
            deal_log[r, L_MADE] = D[GD_MADE]
            deal_log[r, L_SPECIAL] = D[GD_SPECIAL]
            for s in range(n):
                deal_log[r, L_DELTA0 + s] = D[GD_DELTA0 + s]
                deal_log[r, L_BOLT0 + s] = D[GD_BOLT0 + s]
                deal_log[r, L_SCORE0 + s] = G[s, G_SCORE]
        ndl[0] += 1
        d += 1
        dealer = (dealer + 1) % n
    for s in range(n):  # stints still open end with the game
        if G[s, G_ON] and s != winner:
            _end_stint(G, s, 4, stints)
    game_out[_C_FIRST] = first_dealer
    game_out[_C_NDEALS] = d
    game_out[_C_WINNER] = winner
    game_out[_C_UNFINISHED] = winner < 0
    game_out[_C_REDEALS] = redeals
    game_out[_C_NSTINTS] = ns[0]
    game_out[_C_GOLDEN_RESET] = golden_reset
    game_out[_C_GOLDEN_DEALS] = golden_deals
    game_out[_C_DARK_DEALS] = dark_deals
    game_out[_C_CONTRACTS] = contracts
    game_out[_C_MADE] = made
    game_out[_C_CONCEDED] = conceded
    game_out[_C_CONTRACT_SUM] = contract_sum
    for j in range(len(_G_OF_STAT)):
        for s in range(n):
            game_out[_C_STATS + j * MAX_SEATS + s] = G[s, _G_OF_STAT[j]]


_I32 = np.zeros((0, 0), np.int32)
PLAY_GAME_ARGS = packed_type(
    0, 0, 0, np.zeros(0, np.int64), np.zeros(0, np.uint64), seat_arrays(), sample_workspace(),
    GameWorkspace(
        np.zeros((0, 0), np.int64), np.zeros(0, np.int64), np.zeros(0, np.int32), _I32, _I32, _I32,
        np.zeros(0, np.int64), False,
    ),
)  # fmt: skip


def play_game_entry(ptr):  # type: ignore[no-untyped-def]
    """:func:`play_game` behind a callback (sim.jit.entry_address): compiled once.

    :func:`games_kernel` calls it through ``W.hooks[H_PLAY_GAME]`` with packed
    arguments, so it does not link (and optimise again) the engine.
    """
    g, first_dealer, n, P, keys, seats, W, GW = unpacked(ptr, PLAY_GAME_ARGS)
    play_game(g, first_dealer, n, P, keys, seats, W, GW)


@kernel
def games_kernel(
    start: int,
    first_dealers: np.ndarray,
    n_players: int,
    P: np.ndarray,
    keys: np.ndarray,
    strategies: np.ndarray,
    SP: np.ndarray,
    hooks: np.ndarray,
    out: np.ndarray,
    stints: np.ndarray,
    trace: bool,
    deal_log: np.ndarray,
    events: np.ndarray,
    counts: np.ndarray,
    threads: int,
) -> None:
    """Play games ``start .. start+n-1`` in parallel.

    The outer boundary of the game loop (flat arguments). Each of ``threads`` threads
    claims the next block of games when it is done with its last (:func:`sim.jit.claim`;
    a game does not depend on which thread plays it): one game when a seat plays a
    sampling player, else :data:`_GAME_BLOCK` (the threads then write their rows apart).
    """
    n = out.shape[0]
    seats = (strategies, SP, np.zeros(MAX_SEATS, dtype=np.int64))
    block = 1 if seats_sample(strategies) else _GAME_BLOCK
    following = np.zeros(1, dtype=np.int64)  # the next block to claim
    for _ in prange(threads):
        while True:
            b = claim(following)
            if b * block >= n:
                break
            for k in range(b * block, min(n, (b + 1) * block)):
                GW = GameWorkspace(
                    np.zeros((MAX_SEATS, N_G), dtype=np.int64),
                    np.zeros(N_GD, dtype=np.int64),
                    out[k],
                    stints[k],
                    deal_log[k] if trace else deal_log[0],
                    events[k] if trace else events[0],
                    counts[k],
                    trace,
                )
                W = workspace(SP, strategies, hooks)
                args = (start + k, first_dealers[k], n_players, P, keys, seats, W, GW)
                call_packed(hooks[H_PLAY_GAME], args, PLAY_GAME_ARGS)  # type: ignore[call-arg]


@dataclass
class GamesBatch(Rows):
    """Games ``start .. start+n-1`` of a run: one output row each, stints, traces."""

    start: int
    players: int
    out: np.ndarray  # (n, len(GAME_COLUMNS)) int32
    stints: np.ndarray  # (n, MAX_STINTS, 4) int32: seat, entered_deal, deals, outcome
    deal_log: np.ndarray | None = None
    events: np.ndarray | None = None
    counts: np.ndarray | None = None
    bank: int | None = None  # game.bank (docs/rules.md §8)
    COLUMNS: ClassVar[Mapping[str, int]] = GC

    def traces(self) -> list[dict[str, Any]]:
        """The docs/cli.md game trace of every game of the batch (needs ``trace=True``)."""
        if self.deal_log is None or self.events is None or self.counts is None:
            raise ValueError(NO_TRACE)
        docs = []
        n = self.players
        for k in range(len(self)):
            row = self.out[k]
            n_dealt = min(int(self.counts[k, 2]), MAX_DEALT)
            n_events = min(int(self.counts[k, 1]), MAX_EVENTS)
            ev = self.events[k, :n_events]
            deals = []
            for r in range(n_dealt):
                lg = self.deal_log[k, r]
                redealt = bool(lg[L_RESHUFFLED])
                mine = [e for e in ev if e[0] == r]
                deltas = [int(x) for x in lg[L_DELTA0 : L_DELTA0 + n]]
                bolts = [int(x) for x in lg[L_BOLT0 : L_BOLT0 + n]]
                deals.append(
                    {
                        "dealer": int(lg[L_DEALER]),
                        "special": None if redealt else SPECIALS[int(lg[L_SPECIAL])],
                        "reshuffled": redealt,
                        "declarer": None if redealt else int(lg[L_DECL]),
                        "contract": None if redealt else int(lg[L_CONTRACT]),
                        "conceded": None if redealt else bool(lg[L_CONCEDED]),
                        "made": None if redealt else bool(lg[L_MADE]),
                        "deal_deltas": [0] * n if redealt else deltas,
                        "bolts": [0] * n if redealt else bolts,
                        "scores": [int(x) for x in lg[L_SCORE0 : L_SCORE0 + n]],
                        "events": [_event(e) for e in mine],
                    }
                )
            winner = int(row[GC["winner"]])
            docs.append(
                {
                    "game_id": self.start + k,
                    "first_dealer": int(row[GC["first_dealer"]]),
                    "winner": winner if winner >= 0 else None,
                    "unfinished": bool(row[GC["unfinished"]]),
                    "deals": deals,
                }
            )
        return docs


def _event(e: np.ndarray) -> list[Any]:
    kind, seat, value = EVENTS[int(e[1])], int(e[2]), int(e[3])
    if kind == "golden_reset":
        return [kind]
    if kind in ("bolt", "samosval", "barrel_on", "barrel_win"):
        return [kind, seat]
    if kind == "barrel_fall":
        return [kind, seat, FALL_CAUSES[value]]
    return [kind, seat, value]


def first_dealers(seed: int, start: int, n: int, players: int = 3) -> np.ndarray:
    """The first dealer of games ``start .. start+n-1`` (GAME_PROTOCOL.md)."""
    key = stream_key(seed, Stream.GAME)
    return np.array(
        [bounded(np.uint64(item_state(key, g)), 0, players)[0] for g in range(start, start + n)],
        dtype=np.int64,
    )


def play_games(
    rules: Rules,
    n: int,
    seed: int,
    strategies: Sequence[str] = ("heuristic",),
    params: Sequence[str] = (),
    start: int = 0,
    trace: bool = False,
    first_dealer: int | None = None,
    seat_params: np.ndarray | None = None,
) -> GamesBatch:
    """Play games ``start .. start+n-1`` of the run seeded ``seed``.

    Args:
        rules: house rules.
        n: number of games.
        seed: the run's seed.
        strategies: one strategy name per seat, or one for every seat.
        params: ``"strategy.name=value"`` settings.
        start: first game id, so chunks of a run line up.
        trace: keep every deal's record for :meth:`GamesBatch.traces`.
        first_dealer: fix the first dealer of every game (seat-advantage studies);
            None draws it per game.
        seat_params: a ``(players, N_STRATEGY_PARAMS)`` table of strategy parameters
            by seat, replacing ``params`` (duels of two settings of one strategy).
    """
    players = rules.players
    names, sp = seat_lineup(players, strategies, params, seat_params)
    if first_dealer is not None and first_dealer not in range(players):
        raise ValueError(f"first_dealer must be a seat 0..{players - 1}, got {first_dealer!r}")
    fd = (
        np.full(n, first_dealer, dtype=np.int64)
        if first_dealer is not None
        else first_dealers(seed, start, n, players)
    )
    out = np.zeros((n, len(GAME_COLUMNS)), dtype=np.int32)
    stints = np.zeros((n, MAX_STINTS, 4), dtype=np.int32)
    tn = n if trace else 1
    deal_log = np.zeros((tn, MAX_DEALT if trace else 1, N_DEAL_LOG), dtype=np.int32)
    events = np.zeros((tn, MAX_EVENTS if trace else 1, 4), dtype=np.int32)
    counts = np.zeros((n, 3), dtype=np.int64)
    games_kernel(
        start,
        fd,
        players,
        rules_vector(rules),
        np.array(
            [
                stream_key(seed, s)
                for s in (Stream.GAME_DEALS, Stream.CUT, Stream.STRATEGY, Stream.TIEBREAK)
            ],
            dtype=np.uint64,
        ),
        strategy_ids(names),
        sp,
        hooks_for(strategy_ids(names), (H_PLAY_GAME, "sim.engine.game", "play_game_entry")),
        out,
        stints,
        trace,
        deal_log,
        events,
        counts,
        threads_now(),
    )
    if trace:
        return GamesBatch(start, players, out, stints, deal_log, events, counts, rules.game.bank)
    return GamesBatch(start, players, out, stints, bank=rules.game.bank)


def bank_payoffs(batch: GamesBatch) -> np.ndarray:
    """``(players, n)`` bank payoffs (GAME_PROTOCOL.md, the bank).

    The winner gets ``+bank``, the lowest final score pays ``-bank`` (shared on a
    tie); 0 for the rest, for unfinished games and without ``game.bank``.
    """
    n = batch.players
    pay = np.zeros((n, len(batch)), dtype=np.float64)
    if not batch.bank:
        return pay
    scores = np.stack([batch.column(f"score_{s}") for s in range(n)]).astype(np.int64)
    winner = batch.column("winner").astype(np.int64)
    done = winner >= 0
    games = np.nonzero(done)[0]
    pay[winner[games], games] = batch.bank
    others = scores.astype(np.float64)
    others[winner[games], games] = np.inf
    lowest = others.min(axis=0)
    last = (others == lowest[None, :]) & done[None, :]
    share = batch.bank / np.maximum(last.sum(axis=0), 1)
    pay -= np.where(last, share[None, :], 0.0)
    return pay
