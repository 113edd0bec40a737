"""One deal from reshuffle check to score, and the parallel kernels over many deals.

:func:`play_deal` follows ``PROTOCOL.md`` phase by phase on one state vector ``S``;
:func:`decide` is the single place where a strategy (or a test script) picks an
action. The kernels run ``play_deal`` over blocks of deals in parallel; each deal's
randomness is keyed by its deal number, so results never depend on threads or
chunking.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from sim.deal import (
    DECK_WORK,
    _place_of_position,
    deal_from_deck,
    deal_into,
)
from sim.engine.actions import (
    ACE_BIT,
    DECLARE,
    MAX_REDEALS,
    PASS,
    REDEAL_STRIDE,
    Decision,
)
from sim.engine.bidding import bid_cap
from sim.engine.bits import (
    lowest,
    marriages_of,
    mask_points,
    popcount,
    rank_count,
)
from sim.engine.params import (
    CUT,
    NEXT_TRICK,
    P_ACE_SETS_TRUMP,
    P_AFTER_FOUR_NINES,
    P_AFTER_POINTS_BELOW,
    P_BID_FROM,
    P_CHANGES_TRUMP,
    P_CUT_CHAIN,
    P_DEAL_METHOD,
    P_GOLDEN_BLIND,
    P_HIDE_AT_100,
    P_JACK_MIDDLE,
    P_JUMPS,
    P_MV_S,
    P_NAMED_TRUMP,
    P_NINE_PENALTY,
    P_NP,
    P_ONLY_DECLARER,
    P_ROSPIS_ALLOWED,
    P_SILENCE_BELOW,
    P_STEP,
    P_TALON_ONLY_AT_100,
    P_TRUMP_FROM,
    P_UNDARKEN,
)
from sim.engine.play import (
    beats,
    follow_mask,
    kth_code,
    lead_masks,
    play_codes,
)
from sim.engine.reshuffle import after_discard_bits, hand_reshuffle_bits, talon_reshuffle_bits
from sim.engine.scoring import score_conceded, score_played
from sim.engine.state import (
    ERR_SCRIPT,
    FLAG_DARK_ALLOWED,
    FLAG_GOLDEN,
    MAX_BIDS_LOG,
    N_OUT,
    N_STATE,
    NO_SUIT,
    O_AT100,
    O_CONTRACT,
    O_DEALER,
    O_DECL_MARR_AFTER,
    O_DECLARER,
    O_DISCARD1,
    O_ERROR,
    O_HAND_POINTS0,
    O_LAST_TALON_TO,
    O_MARR_HELD0,
    O_MAXBID0,
    O_REDEAL_REASON,
    O_REDEAL_SEAT,
    O_REDEALS,
    O_SPECIAL,
    O_TALON_MARR,
    O_TALON_PICK,
    O_TALON_POINTS,
    O_TALON_SHOWN,
    O_TRUMP_NAMED,
    O_UNDARK,
    O_WIN_BID,
    R_AFTER0,
    R_TALON0,
    S_AFTER0,
    S_AT100,
    S_BEST,
    S_BEST_SEAT,
    S_BID,
    S_CAPT0,
    S_CONCEDED,
    S_CONTRACT,
    S_DEALER,
    S_DEALT0,
    S_DECL,
    S_DECLARED0,
    S_ERROR,
    S_FOREHAND,
    S_GIVE1,
    S_GIVE2,
    S_HAND0,
    S_HIGH,
    S_LAST_TALON_TO,
    S_LEADER,
    S_LED_SUIT,
    S_MAXBID0,
    S_MPTS0,
    S_NBIDS,
    S_NDEC,
    S_NPLAYED,
    S_PASSED,
    S_PENDING,
    S_PILE0,
    S_PLAYED,
    S_REDEAL_REASON,
    S_REDEAL_SEAT,
    S_RNG_CTR,
    S_SCORE0,
    S_SCRIPT_POS,
    S_SPECIAL,
    S_STRAT0,
    S_TALON,
    S_TALON_OTHER,
    S_TALON_PICK,
    S_TALON_SHOWN,
    S_TC0,
    S_TRICK_NO,
    S_TRICKS0,
    S_TRUMP,
    S_TRUMP_NAMED,
    S_TRUMP_SETTER,
    S_UNDARK,
    S_VOID0,
    S_WIN_BID,
    SNAP_AT,
    SNAP_KIND,
    SNAP_LEGAL,
    SNAP_LEN,
    SNAP_N,
    SNAP_SEAT,
    SPECIAL_DARK,
    SPECIAL_GOLDEN,
    SPECIAL_NONE,
)
from sim.engine.strategies.heuristic import heuristic_choose, heuristic_play, heuristic_range
from sim.engine.strategies.registry import HEURISTIC, RANDOM
from sim.jit import hot, hot_call, kernel
from sim.rng import bounded, item_state
from sim.rules import ACE_MARRIAGE_VALUE

_PLACE_OF = _place_of_position(3)  # also 4 players: three active hands from forehand
_PLACE_OF_2 = _place_of_position(2)
_BLOCK = 256


@hot
def decide(
    kind: int,
    seat: int,
    S: np.ndarray,
    P: np.ndarray,
    legal: np.ndarray,
    n: int,
    SP: np.ndarray,
    script: np.ndarray,
    rng: np.uint64,
    tiebreak: np.uint64,
    snap: np.ndarray,
) -> int:
    """Pick one of ``legal[:n]`` for ``seat``: forced, scripted, or by its strategy.

    ``snap[SNAP_AT]`` numbers a non-forced decision whose state is copied into
    ``snap`` (tests of what strategies may see); -1 copies nothing.
    """
    if n == 1:
        return int(legal[0])  # forced: no strategy call, no random number
    _count_decision(kind, seat, S, legal, n, snap)
    pos = S[S_SCRIPT_POS]
    if pos < script.shape[0]:
        S[S_SCRIPT_POS] = pos + 1
        code = script[pos, 1]
        if script[pos, 0] >> kind & 1:  # the token fits this kind of decision
            for k in range(n):
                if legal[k] == code:
                    return int(code)
        if S[S_ERROR] == 0:
            S[S_ERROR] = ERR_SCRIPT + pos
        return int(legal[0])
    strategy = S[S_STRAT0 + seat]
    if strategy == RANDOM:
        k, ctr = bounded(rng, S[S_RNG_CTR], n)
        S[S_RNG_CTR] = ctr
        return int(legal[k])
    if strategy == HEURISTIC:
        return heuristic_choose(kind, seat, S, P, legal, n, SP[seat], tiebreak)
    return int(legal[0])  # FIRST


@hot
def _count_decision(
    kind: int, seat: int, S: np.ndarray, legal: np.ndarray, n: int, snap: np.ndarray
) -> None:
    """Number a non-forced decision; copy the state when it is the one asked for."""
    nd = S[S_NDEC]
    S[S_NDEC] = nd + 1
    if nd == snap[SNAP_AT]:
        for j in range(N_STATE):
            snap[j] = S[j]
        snap[SNAP_KIND] = kind
        snap[SNAP_SEAT] = seat
        snap[SNAP_N] = n
        for j in range(n):
            snap[SNAP_LEGAL + j] = legal[j]


@hot
def decide_play(
    seat: int,
    S: np.ndarray,
    P: np.ndarray,
    plain: int,
    declaring: int,
    legal: np.ndarray,
    SP: np.ndarray,
    script: np.ndarray,
    rng: np.uint64,
    snap: np.ndarray,
) -> int:
    """:func:`decide` for a PLAY decision whose legal codes are given as two masks.

    Same order of legal codes, same random numbers, same script handling; the masks
    spare listing the codes at each of the 24 card plays of a deal.
    """
    n = popcount(plain) + popcount(declaring)
    if n == 1:
        return kth_code(plain, declaring, 0)
    if S[S_NDEC] == snap[SNAP_AT]:
        play_codes(plain, declaring, legal)
    _count_decision(Decision.PLAY, seat, S, legal, n, snap)
    pos = S[S_SCRIPT_POS]
    if pos < script.shape[0]:
        S[S_SCRIPT_POS] = pos + 1
        code = script[pos, 1]
        if script[pos, 0] >> Decision.PLAY & 1:
            if code < DECLARE and plain >> code & 1:
                return int(code)
            if code >= DECLARE and declaring >> (code - DECLARE) & 1:
                return int(code)
        if S[S_ERROR] == 0:
            S[S_ERROR] = ERR_SCRIPT + pos
        return kth_code(plain, declaring, 0)
    strategy = S[S_STRAT0 + seat]
    if strategy == RANDOM:
        k, ctr = bounded(rng, S[S_RNG_CTR], n)
        S[S_RNG_CTR] = ctr
        return kth_code(plain, declaring, k)
    if strategy == HEURISTIC:
        return heuristic_play(seat, S, P, plain, declaring)
    return kth_code(plain, declaring, 0)  # FIRST


@hot
def decide_range(
    kind: int,
    seat: int,
    S: np.ndarray,
    P: np.ndarray,
    with_pass: bool,
    lo: int,
    count: int,
    legal: np.ndarray,
    SP: np.ndarray,
    script: np.ndarray,
    rng: np.uint64,
    snap: np.ndarray,
) -> int:
    """:func:`decide` for a BID or CONTRACT decision given as an arithmetic range.

    The legal codes are pass (0) when ``with_pass``, then ``count`` amounts
    ``lo, lo + step, ...``; the list itself is never built.
    """
    step = P[P_STEP]
    n = count + with_pass
    if n == 1:
        return 0 if with_pass else lo
    if S[S_NDEC] == snap[SNAP_AT]:
        if with_pass:
            legal[0] = PASS
        for j in range(count):
            legal[with_pass + j] = lo + j * step
    _count_decision(kind, seat, S, legal, n, snap)
    pos = S[S_SCRIPT_POS]
    if pos < script.shape[0]:
        S[S_SCRIPT_POS] = pos + 1
        code = script[pos, 1]
        if script[pos, 0] >> kind & 1:
            if with_pass and code == PASS:
                return PASS
            if lo <= code < lo + count * step and (code - lo) % step == 0:
                return int(code)
        if S[S_ERROR] == 0:
            S[S_ERROR] = ERR_SCRIPT + pos
        return 0 if with_pass else lo
    strategy = S[S_STRAT0 + seat]
    if strategy == RANDOM:
        k, ctr = bounded(rng, S[S_RNG_CTR], n)
        S[S_RNG_CTR] = ctr
        if with_pass:
            return PASS if k == 0 else lo + (k - 1) * step
        return lo + k * step
    if strategy == HEURISTIC:
        return heuristic_range(kind, seat, S, P, with_pass, lo, count, SP[seat])
    return 0 if with_pass else lo  # FIRST


@hot
def _redeal(S: np.ndarray, seat: int, reason: int, out: np.ndarray) -> int:
    S[S_REDEAL_SEAT] = seat
    S[S_REDEAL_REASON] = reason
    out[O_REDEAL_SEAT] = seat
    out[O_REDEAL_REASON] = reason
    return 1


@hot
def _set_trump(S: np.ndarray, P: np.ndarray, suit: int, seat: int) -> None:
    if P[P_TRUMP_FROM] == NEXT_TRICK:
        S[S_PENDING] = suit * 4 + seat  # applied when the trick is over
    else:
        S[S_TRUMP] = suit
        S[S_TRUMP_SETTER] = seat


@hot
def _declare(S: np.ndarray, P: np.ndarray, leader: int, card: int) -> int:
    """Apply a declaring lead of ``card`` (docs/rules.md §6); the trick log's marriage code.

    The value goes to the leader unless ``marriage.only_declarer`` keeps it for the
    declarer (a defender's declaration then scores 0 but still sets trump). Trump
    changes with every declaration, or with ``marriage.changes_trump`` off only while
    the deal has no trump yet (none set and none pending).
    """
    suit = card // 6
    if card % 6 == 5:  # an ace: the ace marriage (four aces)
        value = ACE_MARRIAGE_VALUE
        bit = ACE_BIT
        code = 4
        sets_trump = P[P_ACE_SETS_TRUMP] != 0
    else:
        value = P[P_MV_S + suit]
        bit = 1 << suit
        code = suit
        sets_trump = True
    if not P[P_ONLY_DECLARER] or leader == S[S_DECL]:
        S[S_MPTS0 + leader] += value
    S[S_DECLARED0 + leader] |= bit
    no_trump_yet = S[S_TRUMP] == NO_SUIT and S[S_PENDING] < 0
    if sets_trump and (P[P_CHANGES_TRUMP] or no_trump_yet):
        _set_trump(S, P, suit, leader)
    return code


@hot
def play_deal(
    masks: np.ndarray,
    dealer: int,
    scores: np.ndarray,
    allow_redeal: bool,
    seat_flags: int,
    P: np.ndarray,
    strategies: np.ndarray,
    SP: np.ndarray,
    script: np.ndarray,
    rng: np.uint64,
    tiebreak: np.uint64,
    S: np.ndarray,
    legal: np.ndarray,
    out: np.ndarray,
    trace: bool,
    bids_log: np.ndarray,
    trick_log: np.ndarray,
    snap: np.ndarray,
) -> int:
    """Play one dealt deal (PROTOCOL.md); fill ``out``; return 1 if it was redealt.

    ``masks`` are the dealt hands of the hand's seats and the talon (3 seats), or the
    two hands and the two talons (2 seats, ``P[P_NP] == 2``). ``seat_flags`` bit
    ``s`` forbids seat ``s`` to concede, bit ``3 + s`` says seat ``s`` sits on the
    barrel (its raises start at ``barrel.bid_from``); ``FLAG_GOLDEN`` makes the deal
    golden, ``FLAG_DARK_ALLOWED`` offers forehand the dark declaration. ``bids_log``
    rows are ``(seat, amount or 0 for pass)``; ``trick_log`` rows are
    ``(leader, card, card, card or -1, marriage code or -1, winner)``.
    """
    NP = P[P_NP]
    S[:] = 0
    out[:] = 0
    for s in range(NP):
        m = np.int64(masks[s])
        S[S_HAND0 + s] = m
        S[S_DEALT0 + s] = m
        S[S_SCORE0 + s] = scores[s]
        S[S_STRAT0 + s] = strategies[s]
    talon = np.int64(masks[NP])  # 2 players: the first talon until the declarer picks
    S[S_TALON] = talon
    S[S_DEALER] = dealer
    f = (dealer + 1) % NP
    S[S_FOREHAND] = f
    S[S_TRUMP] = NO_SUIT
    S[S_TRUMP_SETTER] = -1
    S[S_PENDING] = -1
    S[S_TRUMP_NAMED] = -1
    S[S_REDEAL_SEAT] = -1
    S[S_REDEAL_REASON] = -1
    S[S_GIVE1] = -1
    S[S_GIVE2] = -1
    S[S_UNDARK] = -1
    S[S_TALON_PICK] = -1
    S[S_LAST_TALON_TO] = -1
    out[O_DEALER] = dealer
    out[O_REDEAL_SEAT] = -1
    out[O_REDEAL_REASON] = -1
    out[O_TRUMP_NAMED] = -1
    out[O_DECLARER] = -1
    out[O_UNDARK] = -1
    out[O_TALON_PICK] = -1
    out[O_LAST_TALON_TO] = -1
    out[O_DISCARD1 + 1] = -1
    for s in range(NP):
        out[O_HAND_POINTS0 + s] = mask_points(S[S_DEALT0 + s])
        out[O_MARR_HELD0 + s] = marriages_of(S[S_DEALT0 + s])
    out[O_TALON_POINTS] = mask_points(talon)
    out[O_TALON_MARR] = marriages_of(talon)

    # 0. dark declaration (§11), before anyone looks at the cards
    special = SPECIAL_GOLDEN if seat_flags & FLAG_GOLDEN else SPECIAL_NONE
    if seat_flags & FLAG_DARK_ALLOWED:
        legal[0] = 0
        legal[1] = 1
        if decide(Decision.DARK, f, S, P, legal, 2, SP, script, rng, tiebreak, snap):
            special = SPECIAL_DARK
    S[S_SPECIAL] = special

    # 1. hand reshuffle (docs/rules.md §3)
    if allow_redeal:
        for k in range(NP):
            s = (f + k) % NP
            h = S[S_DEALT0 + s]
            bits = hand_reshuffle_bits(mask_points(h), rank_count(h, 0), rank_count(h, 1), P)
            if bits:
                legal[0] = 0
                legal[1] = 1
                if decide(
                    Decision.RESHUFFLE_HAND, s, S, P, legal, 2, SP, script, rng, tiebreak, snap
                ):
                    return _redeal(S, s, lowest(bits), out)

    # 1b. undarkening: an opponent holding a marriage bids 125
    undark = -1
    if special == SPECIAL_DARK and P[P_UNDARKEN]:
        for k in range(1, NP):
            s = (f + k) % NP
            if marriages_of(S[S_DEALT0 + s]) == 0:
                continue
            if S[S_SCORE0 + s] < P[P_SILENCE_BELOW]:
                continue
            if seat_flags >> (3 + s) & 1 and P[P_BID_FROM] > 125:
                continue
            legal[0] = 0
            legal[1] = 1
            if decide(Decision.UNDARKEN, s, S, P, legal, 2, SP, script, rng, tiebreak, snap):
                undark = s
                special = SPECIAL_NONE
                S[S_SPECIAL] = special
                S[S_UNDARK] = s
                out[O_UNDARK] = s
                break

    # 2. bidding (§4): forehand's obligatory 100, then clockwise until all but one passed
    passed = 0
    bid = 100 if special == SPECIAL_NONE else 120  # golden or dark: 120 without bidding
    high = f
    S[S_MAXBID0 + f] = bid
    if trace:
        bids_log[0, 0] = f
        bids_log[0, 1] = bid
    nbids = 1
    if special == SPECIAL_NONE:
        s = f
        if undark >= 0:
            bid = 125
            high = undark
            S[S_MAXBID0 + undark] = 125
            if trace:
                bids_log[1, 0] = undark
                bids_log[1, 1] = 125
            nbids = 2
            s = undark
        while popcount(passed) < NP - 1:
            s = (s + 1) % NP
            if passed >> s & 1:
                continue
            S[S_BID] = bid
            S[S_HIGH] = high
            S[S_PASSED] = passed
            if S[S_SCORE0 + s] < P[P_SILENCE_BELOW]:
                code = PASS
            else:
                lo = bid + P[P_STEP]
                raises = (bid_cap(S[S_DEALT0 + s], P) - bid) // P[P_STEP]
                if not P[P_JUMPS]:
                    raises = min(raises, 1)
                if seat_flags >> (3 + s) & 1 and lo < P[P_BID_FROM]:  # on the barrel
                    skip = (P[P_BID_FROM] - lo + P[P_STEP] - 1) // P[P_STEP]
                    raises = 0 if not P[P_JUMPS] else raises - skip
                    lo += skip * P[P_STEP]
                code = decide_range(
                    Decision.BID, s, S, P, True, lo, max(raises, 0), legal, SP, script, rng, snap
                )
            if code == PASS:
                passed |= 1 << s
            else:
                bid = code
                high = s
                S[S_MAXBID0 + s] = code
            if trace and nbids < MAX_BIDS_LOG:
                bids_log[nbids, 0] = s
                bids_log[nbids, 1] = code
            nbids += 1
    S[S_NBIDS] = nbids
    S[S_BID] = bid
    S[S_HIGH] = high
    S[S_PASSED] = passed
    decl = high
    S[S_DECL] = decl
    S[S_WIN_BID] = bid
    at100 = bid == 100
    S[S_AT100] = at100
    shown = special == SPECIAL_NONE and not (P[P_HIDE_AT_100] and at100)
    S[S_TALON_SHOWN] = shown
    out[O_DECLARER] = decl
    out[O_WIN_BID] = bid
    out[O_AT100] = at100
    out[O_TALON_SHOWN] = shown
    out[O_SPECIAL] = special
    for k in range(NP):
        out[O_MAXBID0 + k] = S[S_MAXBID0 + k]

    # 3. talon (§5; 2 players: one of two, blind) and the declarer's talon reshuffle (§3)
    if NP == 2:
        legal[0] = 0
        legal[1] = 1
        pick = decide(Decision.TALON_PICK, decl, S, P, legal, 2, SP, script, rng, tiebreak, snap)
        talon = np.int64(masks[2 + pick])
        S[S_TALON] = talon
        S[S_TALON_OTHER] = np.int64(masks[3 - pick])
        S[S_TALON_PICK] = pick
        out[O_TALON_PICK] = pick
        out[O_TALON_POINTS] = mask_points(talon)
        out[O_TALON_MARR] = marriages_of(talon)
    bits = talon_reshuffle_bits(mask_points(talon), rank_count(talon, 0), rank_count(talon, 1), P)
    if allow_redeal and bits and (not P[P_TALON_ONLY_AT_100] or at100):
        legal[0] = 0
        legal[1] = 1
        if decide(Decision.RESHUFFLE_TALON, decl, S, P, legal, 2, SP, script, rng, tiebreak, snap):
            return _redeal(S, decl, R_TALON0 + lowest(bits), out)
    S[S_HAND0 + decl] |= talon

    # 4. discard: one card to each opponent, left first
    for j in range(1, NP):
        n = _cards_to_list(S[S_HAND0 + decl], legal)
        c = decide(Decision.DISCARD, decl, S, P, legal, n, SP, script, rng, tiebreak, snap)
        bit = np.int64(1) << c
        S[S_HAND0 + decl] ^= bit
        S[S_HAND0 + (decl + j) % NP] |= bit
        S[S_GIVE1 + j - 1] = c
        out[O_DISCARD1 + j - 1] = c
    for k in range(NP):
        S[S_AFTER0 + k] = S[S_HAND0 + k]
    out[O_DECL_MARR_AFTER] = marriages_of(S[S_HAND0 + decl])

    # 5. after-discard reshuffle (§3)
    if allow_redeal and (P[P_AFTER_FOUR_NINES] or P[P_AFTER_POINTS_BELOW] > 0):
        for k in range(NP):
            s = (f + k) % NP
            bits = after_discard_bits(S[S_HAND0 + s], P)
            if bits:
                legal[0] = 0
                legal[1] = 1
                if decide(
                    Decision.RESHUFFLE_AFTER, s, S, P, legal, 2, SP, script, rng, tiebreak, snap
                ):
                    return _redeal(S, s, R_AFTER0 + lowest(bits), out)

    # 6. contract (§5): raise only up to 120 + marriages kept; fixed at 120 when blind
    raises = max((bid_cap(S[S_HAND0 + decl], P) - bid) // P[P_STEP], 0)
    if special == SPECIAL_DARK or (special == SPECIAL_GOLDEN and P[P_GOLDEN_BLIND]):
        raises = 0
    contract = decide_range(
        Decision.CONTRACT, decl, S, P, False, bid, 1 + raises, legal, SP, script, rng, snap
    )
    S[S_CONTRACT] = contract
    out[O_CONTRACT] = contract

    # 7. concession (§5)
    if P[P_ROSPIS_ALLOWED] and not seat_flags >> decl & 1:
        legal[0] = 0
        legal[1] = 1
        if decide(Decision.CONCEDE, decl, S, P, legal, 2, SP, script, rng, tiebreak, snap):
            S[S_CONCEDED] = 1
            score_conceded(S, P, out)
            return 0

    # 8. trump named by the declarer (§6, 501)
    if P[P_NAMED_TRUMP]:
        for k in range(4):
            legal[k] = k
        t = decide(Decision.NAME_TRUMP, decl, S, P, legal, 4, SP, script, rng, tiebreak, snap)
        S[S_TRUMP] = t
        S[S_TRUMP_SETTER] = decl
        S[S_TRUMP_NAMED] = t
        out[O_TRUMP_NAMED] = t

    # 9. play (§6): 8 tricks of 3 cards, or 11 of 2
    leader = decl
    n_tricks = 8 if NP == 3 else 11
    for t in range(n_tricks):
        S[S_TRICK_NO] = t
        S[S_LEADER] = leader
        S[S_NPLAYED] = 0
        plain, declaring = lead_masks(S, P, leader)
        code = decide_play(leader, S, P, plain, declaring, legal, SP, script, rng, snap)
        c = code - DECLARE if code >= DECLARE else code
        hand_before = S[S_HAND0 + leader]
        S[S_HAND0 + leader] = hand_before ^ (np.int64(1) << c)
        S[S_PLAYED] |= np.int64(1) << c
        S[S_PILE0 + t * NP] = c
        suit = c // 6
        marriage = -1
        if code >= DECLARE:
            marriage = _declare(S, P, leader, c)
        S[S_LED_SUIT] = suit
        S[S_TC0] = c
        S[S_TC0 + 2] = -1
        S[S_BEST] = c
        S[S_BEST_SEAT] = leader
        S[S_NPLAYED] = 1
        trick = np.int64(1) << c
        for j in range(1, NP):
            s = (leader + j) % NP
            allowed = follow_mask(S, P, s)
            c2 = decide_play(s, S, P, allowed, 0, legal, SP, script, rng, snap)
            S[S_HAND0 + s] ^= np.int64(1) << c2
            S[S_PLAYED] |= np.int64(1) << c2
            S[S_PILE0 + t * NP + j] = c2
            trick |= np.int64(1) << c2
            if c2 // 6 != suit:
                S[S_VOID0 + s] |= 1 << suit
            if beats(c2, S[S_BEST], S[S_TRUMP]):
                S[S_BEST] = c2
                S[S_BEST_SEAT] = s
            S[S_TC0 + j] = c2
            S[S_NPLAYED] = j + 1
        winner = S[S_BEST_SEAT]
        S[S_CAPT0 + winner] |= trick
        S[S_TRICKS0 + winner] += 1
        if trace:
            trick_log[t, 0] = leader
            trick_log[t, 1] = S[S_TC0]
            trick_log[t, 2] = S[S_TC0 + 1]
            trick_log[t, 3] = S[S_TC0 + 2]
            trick_log[t, 4] = marriage
            trick_log[t, 5] = winner
        if S[S_PENDING] >= 0:
            S[S_TRUMP] = S[S_PENDING] // 4
            S[S_TRUMP_SETTER] = S[S_PENDING] % 4
            S[S_PENDING] = -1
        leader = winner
    if NP == 2:  # the last trick's winner takes the talon set aside
        S[S_CAPT0 + leader] |= S[S_TALON_OTHER]
        S[S_LAST_TALON_TO] = leader
        out[O_LAST_TALON_TO] = leader

    # 10. scoring (§7)
    score_played(S, P, out)
    return 0


@hot
def _cards_to_list(mask: int, out: np.ndarray) -> int:
    n = 0
    m = mask
    while m:
        out[n] = lowest(m)
        n += 1
        m &= m - 1
    return n


@hot
def deal_cards_into(
    deal_key: np.uint64, number: int, players: int, cards: np.ndarray, masks: np.ndarray
) -> None:
    """Deal ``number`` of the stream into the masks of the hand's places (unsorted)."""
    if players == 2:
        deal_into(deal_key, number, 10, _PLACE_OF_2, cards, masks, False)
    else:
        deal_into(deal_key, number, 7, _PLACE_OF, cards, masks, False)


@hot
def deal_hand(
    deal_key: np.uint64,
    cut_key: np.uint64,
    number: int,
    players: int,
    hand_dealer: int,
    P: np.ndarray,
    has_deck: bool,
    deck: np.ndarray,
    cards: np.ndarray,
    masks: np.ndarray,
) -> int:
    """Deal ``number`` into ``masks`` (hand places) as docs/rules.md §2 says; the ritual code.

    ``has_deck``: under ``deal.method = "cut"``, ``deck`` (a DECK_WORK buffer) holds
    the previous deal's cards gathered (:func:`gather_deck`) and is cut and dealt;
    otherwise the deal is
    the shuffled deal ``number`` of the stream. The bottom-card ritual applies to
    either (:func:`sim.deal.deal_from_deck`).
    """
    if not has_deck:
        deal_cards_into(deal_key, number, players, cards, masks)
    nine_penalty = P[P_NINE_PENALTY] > 0
    if not has_deck and not nine_penalty and not P[P_JACK_MIDDLE]:
        return 0  # a shuffled deal untouched: no cut random numbers are drawn
    return deal_from_deck(
        not has_deck,
        deck,
        masks,
        players,
        hand_dealer,
        nine_penalty,
        P[P_JACK_MIDDLE] != 0,
        item_state(cut_key, number),
    )


@hot
def gather_deck(S: np.ndarray, P: np.ndarray, redealt: bool, deck: np.ndarray) -> None:
    """The next deck (top first): this deal's cards gathered as they lie (docs/rules.md §2).

    A played deal: the tricks in the order taken, each in play order, the first trick
    at the bottom (2 players: the set-aside talon on top). A redealt or conceded deal:
    the hands from forehand clockwise, each in ascending order, then the cards in no
    hand (the talon) ascending, the first at the bottom.
    """
    NP = P[P_NP]
    n = 0  # cards laid so far, from the bottom
    rest = np.int64((1 << 24) - 1)
    if not redealt and not S[S_CONCEDED]:
        n_played = 24 if NP == 3 else 22
        for k in range(n_played):
            c = S[S_PILE0 + k]
            deck[23 - k] = c
            rest ^= np.int64(1) << c
        n = n_played
    else:
        f = S[S_FOREHAND]
        for k in range(NP):
            m = S[S_HAND0 + (f + k) % NP]
            rest &= ~m
            while m:
                deck[23 - n] = lowest(m)
                n += 1
                m &= m - 1
    while rest:
        deck[23 - n] = lowest(rest)
        n += 1
        rest &= rest - 1


@hot
def hand_seats(
    players: int,
    dealer: int,
    strategies: np.ndarray,
    SP: np.ndarray,
    scores: np.ndarray,
    strat_h: np.ndarray,
    sp_h: np.ndarray,
    scores_h: np.ndarray,
) -> int:
    """Fill the per-seat inputs of the hand engine; return the dealer it sees.

    With 4 players the dealer sits out and hand seat ``h`` is game seat
    ``dealer + 1 + h`` (mod 4), so the hand's dealer is its seat 2 and its forehand
    seat 0 (PROTOCOL.md, four players). Otherwise hand seats are game seats.
    """
    if players == 4:
        for h in range(3):
            s = (dealer + 1 + h) % 4
            strat_h[h] = strategies[s]
            scores_h[h] = scores[s]
            for j in range(SP.shape[1]):
                sp_h[h, j] = SP[s, j]
        return 2
    for h in range(players):
        strat_h[h] = strategies[h]
        scores_h[h] = scores[h]
        for j in range(SP.shape[1]):
            sp_h[h, j] = SP[h, j]
    return dealer


@hot_call
def play_block(
    first: int,
    lo: int,
    hi: int,
    start: int,
    deal_key: np.uint64,
    cut_key: np.uint64,
    rng_key: np.uint64,
    tb_key: np.uint64,
    P: np.ndarray,
    strategies: np.ndarray,
    SP: np.ndarray,
    scores: np.ndarray,
    out: np.ndarray,
    redeal_seat: np.ndarray,
    redeal_reason: np.ndarray,
    dealt: np.ndarray,
    ritual: np.ndarray,
    trace: bool,
    bids_log: np.ndarray,
    nbids: np.ndarray,
    trick_log: np.ndarray,
    S: np.ndarray,
    legal: np.ndarray,
    cards: np.ndarray,
    masks: np.ndarray,
    deck: np.ndarray,
    script: np.ndarray,
    row: np.ndarray,
    no_bids: np.ndarray,
    no_tricks: np.ndarray,
    snap: np.ndarray,
    players: int,
    strat_h: np.ndarray,
    sp_h: np.ndarray,
    scores_h: np.ndarray,
) -> None:
    """Play rows ``lo .. hi-1`` of a batch (slots ``start + k``), redealing as demanded.

    One call per block of slots: array arguments cross into compiled code once per
    block, not once per deal (each crossing costs reference-count updates). Under
    ``deal.method = "cut"`` a block is whole chains of ``deal.cut_chain`` slots, and
    the slots ``first .. start+lo-1`` of its first chain are played again (unrecorded)
    to gather the deck, so a chunk's rows never depend on where the chunk starts.
    Rows of a 4-player run are in hand seats (hand seat ``h`` is game seat ``dealer +
    1 + h``); their ``dealer`` column is the game seat. ``dealt[k, a]`` and
    ``ritual[k, a]`` keep the dealt places and the ritual code of attempt ``a`` while
    ``k`` and ``a`` fit their shape (traces; the first deals for ``odds``).
    """
    cut = P[P_DEAL_METHOD] == CUT != 0
    chain = P[P_CUT_CHAIN]
    has_deck = False
    for i in range(first, start + hi):
        k = i - start
        keep = k >= lo  # a slot of this block, not a replayed one
        if cut and i % chain == 0:
            has_deck = False  # a new chain starts from a shuffled deck
        dealer = i % players
        hand_dealer = hand_seats(players, dealer, strategies, SP, scores, strat_h, sp_h, scores_h)
        attempt = 0
        while True:
            number = i + attempt * REDEAL_STRIDE
            code = deal_hand(
                deal_key, cut_key, number, players, hand_dealer, P, has_deck, deck, cards, masks
            )
            if keep and k < dealt.shape[0] and attempt < dealt.shape[1]:
                for q in range(4):
                    dealt[k, attempt, q] = masks[q]
                ritual[k, attempt] = code
            rng = item_state(rng_key, number)
            tiebreak = item_state(tb_key, number)
            logged = trace and keep
            bl = bids_log[k] if logged else no_bids
            tl = trick_log[k] if logged else no_tricks
            redealt = play_deal(
                masks,
                hand_dealer,
                scores_h,
                attempt < MAX_REDEALS,
                0,
                P,
                strat_h,
                sp_h,
                script,
                rng,
                tiebreak,
                S,
                legal,
                row,
                logged,
                bl,
                tl,
                snap,
            )
            if cut:
                gather_deck(S, P, redealt == 1, deck)
                has_deck = True
            if not redealt:
                break
            if keep:
                redeal_seat[k, attempt] = S[S_REDEAL_SEAT]
                redeal_reason[k, attempt] = S[S_REDEAL_REASON]
            attempt += 1
        if not keep:
            continue
        for j in range(N_OUT):
            out[k, j] = row[j]
        out[k, O_DEALER] = dealer
        out[k, O_REDEALS] = attempt
        out[k, O_ERROR] = S[S_ERROR]
        if trace:
            nbids[k] = S[S_NBIDS]


@kernel
def slots_kernel(
    start: int,
    deal_key: np.uint64,
    cut_key: np.uint64,
    rng_key: np.uint64,
    tb_key: np.uint64,
    P: np.ndarray,
    strategies: np.ndarray,
    SP: np.ndarray,
    scores: np.ndarray,
    out: np.ndarray,
    redeal_seat: np.ndarray,
    redeal_reason: np.ndarray,
    dealt: np.ndarray,
    ritual: np.ndarray,
    trace: bool,
    bids_log: np.ndarray,
    nbids: np.ndarray,
    trick_log: np.ndarray,
    players: int,
) -> None:
    """Play slots ``start .. start+n-1``: each redealt until a deal is played.

    Blocks of ``_BLOCK`` slots run in parallel; under ``deal.method = "cut"`` a block
    is whole chains of ``deal.cut_chain`` slots (PROTOCOL.md, dealing).
    """
    n = out.shape[0]
    chain = P[P_CUT_CHAIN] if P[P_DEAL_METHOD] == CUT else 0
    per = 1
    c0 = 0
    if chain > 0:
        per = max(1, _BLOCK // chain)  # chains per block
        c0 = start // chain
        n_chains = (start + n - 1) // chain + 1 - c0 if n > 0 else 0
        n_blocks = (n_chains + per - 1) // per
    else:
        n_blocks = (n + _BLOCK - 1) // _BLOCK
    for b in prange(n_blocks):
        if chain > 0:
            first = (c0 + b * per) * chain
            lo = max(first, start) - start
            hi = min(first + per * chain, start + n) - start
        else:
            lo = b * _BLOCK
            hi = min(n, (b + 1) * _BLOCK)
            first = start + lo
        S = np.zeros(N_STATE, dtype=np.int64)
        legal = np.zeros(64, dtype=np.int64)
        cards = np.zeros(24, dtype=np.int8)
        masks = np.zeros(4, dtype=np.uint32)
        deck = np.zeros(DECK_WORK, dtype=np.int64)
        script = np.zeros((0, 2), dtype=np.int64)
        row = np.zeros(N_OUT, dtype=np.int64)
        no_bids = np.zeros((0, 2), dtype=np.int16)
        no_tricks = np.zeros((0, 6), dtype=np.int8)
        snap = np.full(SNAP_LEN, -1, dtype=np.int64)
        strat_h = np.zeros(3, dtype=np.int64)
        sp_h = np.zeros((3, SP.shape[1]), dtype=np.float64)
        scores_h = np.zeros(3, dtype=np.int64)
        play_block(
            first,
            lo,
            hi,
            start,
            deal_key,
            cut_key,
            rng_key,
            tb_key,
            P,
            strategies,
            SP,
            scores,
            out,
            redeal_seat,
            redeal_reason,
            dealt,
            ritual,
            trace,
            bids_log,
            nbids,
            trick_log,
            S,
            legal,
            cards,
            masks,
            deck,
            script,
            row,
            no_bids,
            no_tricks,
            snap,
            players,
            strat_h,
            sp_h,
            scores_h,
        )
