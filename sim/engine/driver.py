"""One deal from the dark offer to the score, and the parallel kernels over many deals.

:func:`play_deal` reads like the table of contents of ``PROTOCOL.md``: each phase
asks :func:`sim.engine.choose.choose` between the legal actions of its module
(``reshuffle``, ``bidding``, ``talon``, ``play``) and applies the answer there;
``scoring`` closes the deal. Everything one deal reads and writes besides the rules
vector travels in one :class:`sim.engine.state.Workspace` ``W``. The kernels run
``play_deal`` over blocks of deals in parallel; each deal's randomness is keyed by
its deal number, so results never depend on threads or chunking.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from sim.engine.actions import MAX_REDEALS, PASS, REDEAL_STRIDE, Decision
from sim.engine.arena import arena_size
from sim.engine.bidding import (
    apply_bid,
    apply_dark,
    apply_undarken,
    may_undarken,
    open_bidding,
    raise_range,
    silenced,
)
from sim.engine.bits import (
    ALL_CARDS,
    JACK,
    NINE,
    lowest,
    marriages_of,
    mask_points,
    popcount,
    rank_count,
    seat_after,
)
from sim.engine.choose import LIST, MASKS, RANGE, choose, choose_yes
from sim.engine.deal import (
    DECK_WORK,
    _place_of_position,
    deal_from_deck,
    deal_into,
)
from sim.engine.params import (
    CONCEDE_AT_TALON,
    CUT,
    P_CUT_CHAIN,
    P_DEAL_METHOD,
    P_JACK_MIDDLE,
    P_NAMED_TRUMP,
    P_NINE_PENALTY,
    P_NP,
    P_ROSPIS_WHEN,
    P_TALON_ONLY_AT_100,
)
from sim.engine.play import (
    apply_follow,
    apply_lead,
    finish_trick,
    legal_follows,
    legal_leads,
    name_trump,
    start_trick,
)
from sim.engine.reshuffle import (
    after_discard_bits,
    apply_redeal,
    hand_reshuffle_bits,
    talon_reshuffle_bits,
)
from sim.engine.scoring import locked, score_conceded, score_played, sitter_score
from sim.engine.state import (
    B_CARD_POINTS,
    B_DELTA,
    B_MARRIAGE_POINTS,
    FLAG_DARK_ALLOWED,
    FLAG_GOLDEN,
    MAX_BIDS_LOG,
    MAX_SEATS,
    MAX_TRICKS,
    N_OUT,
    N_ROW,
    N_SCALAR,
    N_STATE,
    NO_SUIT,
    O_AT100,
    O_CONTRACT,
    O_DEALER,
    O_DECL_MARR_AFTER,
    O_DECLARER,
    O_DISCARD1,
    O_HAND_POINTS0,
    O_LAST_TALON_TO,
    O_MARR_HELD0,
    O_MAXBID0,
    O_REDEAL_REASON,
    O_REDEAL_SEAT,
    O_SEAT0,
    O_SPECIAL,
    O_TALON_MARR,
    O_TALON_PICK,
    O_TALON_POINTS,
    O_TALON_SHOWN,
    O_TRUMP_NAMED,
    O_UNDARK,
    O_WIN_BID,
    R_AFTER0,
    R_DEALER,
    R_ERROR,
    R_REDEALS,
    R_SEAT0,
    R_TALON0,
    ROW_FROM_OUT,
    S_AT100,
    S_BID,
    S_CAPT0,
    S_CONCEDED,
    S_CONTRACT,
    S_DEALER,
    S_DEALT0,
    S_DECL,
    S_ERROR,
    S_FLAGS,
    S_FOREHAND,
    S_GIVE1,
    S_GIVE2,
    S_HAND0,
    S_LAST_TALON_TO,
    S_LEAD_MARRIAGE,
    S_MAXBID0,
    S_MAY_REDEAL,
    S_NBIDS,
    S_PASSED,
    S_PENDING,
    S_PILE0,
    S_REDEAL_REASON,
    S_REDEAL_SEAT,
    S_RNG,
    S_SCORE0,
    S_SPECIAL,
    S_STRAT0,
    S_TALON,
    S_TALON_OTHER,
    S_TALON_PICK,
    S_TALON_SHOWN,
    S_TC0,
    S_TIEBREAK,
    S_TRACE,
    S_TRUMP,
    S_TRUMP_NAMED,
    S_TRUMP_SETTER,
    S_UNDARK,
    S_WIN_BID,
    SEAT_BASES,
    SEAT_VALUED,
    SEAT_VALUED_AT,
    SNAP_LEN,
    SPECIAL_DARK,
    SPECIAL_GOLDEN,
    SPECIAL_NONE,
    Workspace,
)
from sim.engine.strategies.registry import H_PLAY_BLOCK, SAMPLING
from sim.engine.talon import (
    apply_discard,
    apply_lay_away,
    apply_talon_pick,
    close_bidding,
    close_discard,
    contract_range,
    deal_tricks,
    discards_made,
    lays_away,
    legal_discards,
    may_concede,
    take_talon,
)
from sim.jit import body, call_packed, claim, hot, hot_call, kernel, packed_type, unpacked
from sim.rng import item_state

PIMC_TT_BITS = 18  # the sampling player's table: 262,144 entries (4 MiB a block)
PIMC_ARENA = arena_size(PIMC_TT_BITS)
SMALL_ARENA = arena_size(1)

_PLACE_OF = _place_of_position(3)  # also 4 players: three active hands from forehand
_PLACE_OF_2 = _place_of_position(2)
_BLOCK = 256
# a sampling player's deal takes milliseconds: small blocks, so that the threads share
# a few hundred deals evenly (a 300-deal duel in blocks of 256 ran on one core 85 % of
# the time); its 4 MiB table per block costs well under a millisecond
_SAMPLING_BLOCK = 8


# --- one deal --------------------------------------------------------------------------
@hot
def begin_deal(
    P: np.ndarray,
    W: Workspace,
    masks: np.ndarray,
    dealer: int,
    may_redeal: bool,
    flags: int,
    rng: np.uint64,
    tiebreak: np.uint64,
) -> None:
    """Set up ``W`` for a dealt deal: the hands (``masks``, hand places), the game's inputs.

    ``dealer`` is the hand's dealer (4 players: hand seat 2); ``flags`` the game's
    hand inputs (``S_FLAGS``); the seats' strategies, scores and parameters are in
    ``W.strat``, ``W.scores``, ``W.SP``. The state starts from zeros (the script
    from its first token) except the trace flag ``S[S_TRACE]``, set by the caller.
    """
    S = W.S
    out = W.out
    NP = P[P_NP]
    trace = S[S_TRACE]
    S[:] = 0
    out[:] = 0
    S[S_TRACE] = trace
    for s in range(NP):
        m = np.int64(masks[s])
        S[S_HAND0 + s] = m
        S[S_DEALT0 + s] = m
        S[S_SCORE0 + s] = W.scores[s]
        S[S_STRAT0 + s] = W.strat[s]
    talon = np.int64(masks[NP])  # 2 players: the first talon until the declarer picks
    S[S_TALON] = talon
    S[S_DEALER] = dealer
    S[S_FOREHAND] = (dealer + 1) % NP
    S[S_FLAGS] = flags
    S[S_MAY_REDEAL] = may_redeal
    S[S_RNG] = np.int64(rng)
    S[S_TIEBREAK] = np.int64(tiebreak)
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


@hot
def _redealt(W: Workspace, seat: int, reason: int) -> int:
    apply_redeal(W.S, seat, reason)
    W.out[O_REDEAL_SEAT] = seat
    W.out[O_REDEAL_REASON] = reason
    return 1


@hot
def dark_offer(P: np.ndarray, W: Workspace) -> None:
    """Phase 0 (§11): forehand may declare dark before looking at its cards."""
    S = W.S
    S[S_SPECIAL] = SPECIAL_GOLDEN if S[S_FLAGS] & FLAG_GOLDEN else SPECIAL_NONE
    if S[S_FLAGS] & FLAG_DARK_ALLOWED:
        apply_dark(S, choose_yes(Decision.DARK, S[S_FOREHAND], P, W))


@hot
def hand_reshuffle(P: np.ndarray, W: Workspace) -> int:
    """Phase 1 (§3): from forehand, a seat whose hand meets a condition may demand a redeal."""
    S = W.S
    if not S[S_MAY_REDEAL]:
        return 0
    NP = P[P_NP]
    for k in range(NP):
        s = seat_after(S[S_FOREHAND], k, NP)
        h = S[S_DEALT0 + s]
        bits = hand_reshuffle_bits(mask_points(h), rank_count(h, NINE), rank_count(h, JACK), P)
        if bits and choose_yes(Decision.RESHUFFLE_HAND, s, P, W):
            return _redealt(W, s, lowest(bits))
    return 0


@hot
def undarkening(P: np.ndarray, W: Workspace) -> int:
    """Phase 1b (§11): an opponent holding a marriage may bid 125; the seat, or -1."""
    S = W.S
    if S[S_SPECIAL] != SPECIAL_DARK:
        return -1
    NP = P[P_NP]
    for k in range(1, NP):
        s = seat_after(S[S_FOREHAND], k, NP)
        if may_undarken(S, P, s) and choose_yes(Decision.UNDARKEN, s, P, W):
            apply_undarken(S, s)
            W.out[O_UNDARK] = s
            return s
    return -1


@hot
def _log_bid(W: Workspace, k: int, seat: int, code: int) -> None:
    if W.S[S_TRACE] and k < MAX_BIDS_LOG:
        W.bids[k, 0] = seat
        W.bids[k, 1] = code


@hot
def bidding(P: np.ndarray, W: Workspace, undark: int) -> None:
    """Phase 2 (§4): forehand's 100, then raises clockwise until all but one passed.

    None in a golden deal or a dark one nobody undarkened (120 without bidding).
    """
    S = W.S
    NP = P[P_NP]
    f = S[S_FOREHAND]
    open_bidding(S, f, -1)
    _log_bid(W, 0, f, S[S_BID])
    nbids = 1
    if S[S_SPECIAL] == SPECIAL_NONE:
        s = f
        if undark >= 0:
            open_bidding(S, f, undark)
            _log_bid(W, 1, undark, S[S_BID])
            nbids = 2
            s = undark
        while popcount(S[S_PASSED]) < NP - 1:
            s = seat_after(s, 1, NP)
            if S[S_PASSED] >> s & 1:
                continue
            if silenced(S, P, s):
                code = PASS
            else:
                lo, count = raise_range(S, P, s)
                code = choose(Decision.BID, s, P, W, RANGE, 1, lo, count)
            apply_bid(S, s, code)
            _log_bid(W, nbids, s, code)
            nbids += 1
    S[S_NBIDS] = nbids
    close_bidding(S, P)
    record_auction(P, W)


@hot
def record_auction(P: np.ndarray, W: Workspace) -> None:
    """The auction's result in the deal's output row (after :func:`bidding`, or a replay)."""
    S = W.S
    out = W.out
    out[O_DECLARER] = S[S_DECL]
    out[O_WIN_BID] = S[S_WIN_BID]
    out[O_AT100] = S[S_AT100]
    out[O_TALON_SHOWN] = S[S_TALON_SHOWN]
    out[O_SPECIAL] = S[S_SPECIAL]
    for k in range(P[P_NP]):
        out[O_MAXBID0 + k] = S[S_MAXBID0 + k]


@hot
def talon(P: np.ndarray, W: Workspace, masks: np.ndarray) -> int:
    """Phase 3 (§5, §12): the talon (2 players: one of two, blind), its reshuffle, taken."""
    S = W.S
    decl = S[S_DECL]
    if P[P_NP] == 2:
        pick = 1 if choose_yes(Decision.TALON_PICK, decl, P, W) else 0
        apply_talon_pick(S, P, masks, pick)
        W.out[O_TALON_PICK] = pick
        W.out[O_TALON_POINTS] = mask_points(S[S_TALON])
        W.out[O_TALON_MARR] = marriages_of(S[S_TALON])
    t = S[S_TALON]
    bits = talon_reshuffle_bits(mask_points(t), rank_count(t, NINE), rank_count(t, JACK), P)
    if S[S_MAY_REDEAL] and bits and (not P[P_TALON_ONLY_AT_100] or S[S_AT100]):
        if choose_yes(Decision.RESHUFFLE_TALON, decl, P, W):
            return _redealt(W, decl, R_TALON0 + lowest(bits))
    take_talon(S)
    return 0


@hot
def discard(P: np.ndarray, W: Workspace) -> None:
    """Phase 4 (§5): the declarer gives one card to each opponent, left first.

    Two players laying away (§12 ``discard``): two cards of the declarer's 12 laid
    away face down, its card points at scoring.
    """
    S = W.S
    lay = lays_away(P)
    for j in range(1, discards_made(P) + 1):
        n = legal_discards(S, W.legal)
        card = choose(Decision.DISCARD, S[S_DECL], P, W, LIST, n, 0, 0)
        if lay:
            apply_lay_away(S, j, card)
        else:
            apply_discard(S, P, j, card)
        W.out[O_DISCARD1 + j - 1] = card
    close_discard(S, P)
    W.out[O_DECL_MARR_AFTER] = marriages_of(S[S_HAND0 + S[S_DECL]])


@hot
def after_discard_reshuffle(P: np.ndarray, W: Workspace) -> int:
    """Phase 5 (§3): from forehand, a seat whose 8 cards meet a condition may demand one."""
    S = W.S
    if not S[S_MAY_REDEAL]:
        return 0
    NP = P[P_NP]
    for k in range(NP):
        s = seat_after(S[S_FOREHAND], k, NP)
        bits = after_discard_bits(S[S_HAND0 + s], P)
        if bits and choose_yes(Decision.RESHUFFLE_AFTER, s, P, W):
            return _redealt(W, s, R_AFTER0 + lowest(bits))
    return 0


@hot
def contract(P: np.ndarray, W: Workspace) -> None:
    """Phase 6 (§5): at least the winning bid, raised only as far as the marriages kept."""
    S = W.S
    lo, count = contract_range(S, P)
    S[S_CONTRACT] = choose(Decision.CONTRACT, S[S_DECL], P, W, RANGE, 0, lo, count)
    W.out[O_CONTRACT] = S[S_CONTRACT]


@hot
def bomb(P: np.ndarray, W: Workspace) -> int:
    """Phase 3b (§5): the bomb, a concession before the discard; 1 if it was thrown.

    With ``rospis.when = "talon"`` the declarer, holding the talon, may concede.

    The contract is the winning bid; the deal is scored as any concession, the hands
    as they lie standing for the hands after a discard (none is made).
    """
    S = W.S
    if P[P_ROSPIS_WHEN] != CONCEDE_AT_TALON:
        return 0
    S[S_CONTRACT] = S[S_WIN_BID]  # what a bomb concedes (a strategy may read it)
    if may_concede(S, P) and choose_yes(Decision.CONCEDE, S[S_DECL], P, W):
        W.out[O_CONTRACT] = S[S_CONTRACT]
        W.out[O_DISCARD1] = -1
        W.out[O_DISCARD1 + 1] = -1
        close_discard(S, P)
        S[S_CONCEDED] = 1
        score_conceded(S, P, W.out)
        return 1
    return 0


@hot
def concession(P: np.ndarray, W: Workspace) -> int:
    """Phase 7 (§5): the declarer may concede instead of playing; 1 if it did.

    Not with ``rospis.when = "talon"`` (the bomb came before the discard).
    """
    S = W.S
    if P[P_ROSPIS_WHEN] == CONCEDE_AT_TALON:
        return 0
    if may_concede(S, P) and choose_yes(Decision.CONCEDE, S[S_DECL], P, W):
        S[S_CONCEDED] = 1
        score_conceded(S, P, W.out)
        return 1
    return 0


@hot
def named_trump(P: np.ndarray, W: Workspace) -> None:
    """Phase 8 (§6, 501): with ``trump.named_by_declarer`` the declarer names a suit."""
    if not P[P_NAMED_TRUMP]:
        return
    for k in range(4):
        W.legal[k] = k
    suit = choose(Decision.NAME_TRUMP, W.S[S_DECL], P, W, LIST, 4, 0, 0)
    name_trump(W.S, suit)
    W.out[O_TRUMP_NAMED] = suit


@hot
def tricks(P: np.ndarray, W: Workspace) -> None:
    """Phase 9 (§6): 8 tricks of 3 cards (11 of 2; 10 laying away), the declarer leading.

    With 2 players giving a card the last trick's winner also takes the talon set aside.
    """
    S = W.S
    NP = P[P_NP]
    leader = S[S_DECL]
    for t in range(deal_tricks(P)):
        start_trick(S, t, leader)
        plain, declaring = legal_leads(S, P, leader)
        apply_lead(S, P, choose(Decision.PLAY, leader, P, W, MASKS, plain, declaring, 0))
        for j in range(1, NP):
            s = seat_after(leader, j, NP)
            card = choose(Decision.PLAY, s, P, W, MASKS, legal_follows(S, P, s), 0, 0)
            apply_follow(S, P, s, card)
        winner = finish_trick(S, P)
        if S[S_TRACE]:
            W.tricks[t, 0] = leader
            W.tricks[t, 1] = S[S_TC0]
            W.tricks[t, 2] = S[S_TC0 + 1]
            W.tricks[t, 3] = S[S_TC0 + 2]
            W.tricks[t, 4] = S[S_LEAD_MARRIAGE]
            W.tricks[t, 5] = winner
        leader = winner
    if NP == 2 and not lays_away(P):
        S[S_CAPT0 + leader] |= S[S_TALON_OTHER]
        S[S_LAST_TALON_TO] = leader
        W.out[O_LAST_TALON_TO] = leader


@hot
def play_deal(P: np.ndarray, W: Workspace, masks: np.ndarray) -> int:
    """Play the dealt deal set up by :func:`begin_deal` (PROTOCOL.md, phase by phase).

    Fills ``W.out`` (and the logs with ``S[S_TRACE]``); returns 1 if it was redealt.
    ``masks`` are the dealt places (2 players: the two talons are places 2 and 3).
    """
    dark_offer(P, W)  # 0.
    if hand_reshuffle(P, W):  # 1.
        return 1
    undark = undarkening(P, W)  # 1b.
    bidding(P, W, undark)  # 2.
    if talon(P, W, masks):  # 3.
        return 1
    if bomb(P, W):  # 3b.
        return 0
    discard(P, W)  # 4.
    if after_discard_reshuffle(P, W):  # 5.
        return 1
    contract(P, W)  # 6.
    if concession(P, W):  # 7.
        return 0
    named_trump(P, W)  # 8.
    tricks(P, W)  # 9.
    score_played(W.S, P, W.out)  # 10.
    return 0


@hot_call
def play_one(
    P: np.ndarray,
    W: Workspace,
    dealer: int,
    may_redeal: bool,
    flags: int,
    rng: np.uint64,
    tiebreak: np.uint64,
) -> int:
    """:func:`begin_deal` and :func:`play_deal` on the places in ``W.masks`` (one deal)."""
    begin_deal(P, W, W.masks, dealer, may_redeal, flags, rng, tiebreak)
    return play_deal(P, W, W.masks)


@hot
def game_row(
    P: np.ndarray, W: Workspace, row: np.ndarray, dealer: int, players: int, sitter_at: int
) -> None:
    """The deal's row in game seats (:data:`ROW_COLUMNS`) from the hand row ``W.out``.

    Hand seats are game seats, except with 4 players: hand seat ``h`` is game seat
    ``dealer + 1 + h``, and the dealer, who sits out, scores the talon here (its card
    points, the marriages lying in it, an opponent's delta; no tricks, no bolt), or
    nothing when its game score ``sitter_at`` locks it (``score.lock_at``).
    """
    h = W.out
    for j in range(N_SCALAR):
        row[j] = h[ROW_FROM_OUT[j]]
    for j in range(N_ROW - N_SCALAR):
        row[N_SCALAR + j] = 0
    offset = dealer + 1 if players == 4 else 0
    seats = 3 if players == 4 else players
    for k in range(seats):
        g = (offset + k) % MAX_SEATS  # the game seat of hand seat k
        for b in range(len(SEAT_BASES)):
            row[R_SEAT0 + b * MAX_SEATS + g] = h[O_SEAT0 + b * 3 + k]
    if players == 4:
        for j in range(len(SEAT_VALUED)):
            v = row[SEAT_VALUED_AT[j]]
            if v >= 0:
                row[SEAT_VALUED_AT[j]] = (offset + v) % 4
        cp, mp, delta = sitter_score(W.S[S_TALON], h[O_SPECIAL], P)
        if locked(sitter_at, P):
            delta = 0
        row[R_SEAT0 + B_CARD_POINTS * MAX_SEATS + dealer] = cp
        row[R_SEAT0 + B_MARRIAGE_POINTS * MAX_SEATS + dealer] = mp
        row[R_SEAT0 + B_DELTA * MAX_SEATS + dealer] = delta


# --- dealing ------------------------------------------------------------------------
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
    either (:func:`sim.engine.deal.deal_from_deck`).
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
    at the bottom (2 players: the set-aside talon on top; laying away, the two cards
    laid away in order, then the unchosen musik on top). A redealt or conceded deal:
    the hands from forehand clockwise, each in ascending order, then the cards in no
    hand (the talon) ascending, the first at the bottom.
    """
    NP = P[P_NP]
    n = 0  # cards laid so far, from the bottom
    rest = ALL_CARDS
    if not redealt and not S[S_CONCEDED]:
        n_played = NP * deal_tricks(P)
        for k in range(n_played):
            c = S[S_PILE0 + k]
            deck[23 - k] = c
            rest ^= np.int64(1) << c
        n = n_played
        if lays_away(P):
            for j in range(2):
                c = S[S_GIVE1 + j]
                deck[23 - n] = c
                rest ^= np.int64(1) << c
                n += 1
    else:
        f = S[S_FOREHAND]
        for k in range(NP):
            m = S[S_HAND0 + seat_after(f, k, NP)]
            rest &= ~m
            while m:
                deck[23 - n] = lowest(m)
                n += 1
                m &= m - 1
    while rest:
        deck[23 - n] = lowest(rest)
        n += 1
        rest &= rest - 1


# --- many deals ----------------------------------------------------------------------
@hot
def hand_seats(
    players: int,
    dealer: int,
    strategies: np.ndarray,
    SP: np.ndarray,
    scores: np.ndarray,
    W: Workspace,
) -> int:
    """Fill the hand seats' inputs ``W.strat``, ``W.scores``, ``W.SP``; the dealer it sees.

    With 4 players the dealer sits out and hand seat ``h`` is game seat
    ``dealer + 1 + h`` (mod 4), so the hand's dealer is its seat 2 and its forehand
    seat 0 (PROTOCOL.md, four players). Otherwise hand seats are game seats.
    """
    hand_dealer = dealer
    for h in range(3 if players == 4 else players):
        s = (dealer + 1 + h) % 4 if players == 4 else h
        W.strat[h] = strategies[s]
        W.scores[h] = scores[s]
        for j in range(SP.shape[1]):
            W.SP[h, j] = SP[s, j]
    if players == 4:
        hand_dealer = 2
    return hand_dealer


@body
def play_block(
    span: np.ndarray,
    start: int,
    P: np.ndarray,
    keys: np.ndarray,
    seats: tuple,
    outs: tuple,
    W: Workspace,
    players: int,
) -> None:
    """Play rows ``span[1] .. span[2]-1`` of a batch (slots ``start + k``), redealing as asked.

    One call per block of slots: array arguments cross into compiled code once per
    block. ``keys`` are the stream keys (deals, cut, strategy, tie-break), ``seats``
    the run's ``(strategies, SP, scores)`` by game seat, ``outs`` the batch's outputs
    ``(out, redeal_seat, redeal_reason, dealt, ritual, bids_log, nbids, trick_log)``.
    Rows are in game seats (:func:`game_row`), and so are the redealing seats.
    Under ``deal.method = "cut"`` a block is whole chains of ``deal.cut_chain`` slots,
    and the slots ``span[0] .. start+span[1]-1`` of its first chain are played again
    (unrecorded) to gather the deck, so a chunk's rows never depend on where the
    chunk starts. ``dealt[k,
    a]`` and ``ritual[k, a]`` keep the dealt places and the ritual code of attempt
    ``a`` while ``k`` and ``a`` fit their shape (traces; the first deals for ``odds``).
    """
    out, redeal_seat, redeal_reason, dealt, ritual, bids_log, nbids, trick_log = outs
    strategies, SP, scores = seats
    S = W.S
    cut = P[P_DEAL_METHOD] == CUT
    chain = P[P_CUT_CHAIN]
    trace = bids_log.shape[0] > 0
    has_deck = False
    if players != 4:  # hand seats are game seats: the seats' inputs once for the block
        hand_seats(players, 0, strategies, SP, scores, W)
    for i in range(span[0], start + span[2]):
        k = i - start
        keep = k >= span[1]  # a slot of this block, not a replayed one
        if cut and i % chain == 0:
            has_deck = False  # a new chain starts from a shuffled deck
        dealer = i % players
        hand_dealer = dealer
        if players == 4:  # the dealer sits out: the hand's seats turn with it
            hand_dealer = hand_seats(players, dealer, strategies, SP, scores, W)
        attempt = 0
        while True:
            number = i + attempt * REDEAL_STRIDE
            code = deal_hand(
                keys[0], keys[1], number, players, hand_dealer, P, has_deck, W.deck, W.cards,
                W.masks,
            )  # fmt: skip
            if keep and k < dealt.shape[0] and attempt < dealt.shape[1]:
                for q in range(4):
                    dealt[k, attempt, q] = W.masks[q]
                ritual[k, attempt] = code
            S[S_TRACE] = trace and keep
            begin_deal(
                P, W, W.masks, hand_dealer, attempt < MAX_REDEALS, 0,
                item_state(keys[2], number), item_state(keys[3], number),
            )  # fmt: skip
            redealt = play_deal(P, W, W.masks)
            if cut:
                gather_deck(S, P, redealt == 1, W.deck)
                has_deck = True
            if not redealt:
                break
            if keep:  # in game seats (4 players: hand seat h is dealer + 1 + h)
                seat = S[S_REDEAL_SEAT]
                redeal_seat[k, attempt] = (dealer + 1 + seat) % 4 if players == 4 else seat
                redeal_reason[k, attempt] = S[S_REDEAL_REASON]
            attempt += 1
        if not keep:
            continue
        game_row(P, W, out[k], dealer, players, scores[dealer] if players == 4 else 0)
        out[k, R_DEALER] = dealer
        out[k, R_REDEALS] = attempt
        out[k, R_ERROR] = S[S_ERROR]
        if trace:
            nbids[k] = S[S_NBIDS]
            for r in range(MAX_BIDS_LOG):
                bids_log[k, r, 0] = W.bids[r, 0]
                bids_log[k, r, 1] = W.bids[r, 1]
            for r in range(MAX_TRICKS):
                for q in range(6):
                    trick_log[k, r, q] = W.tricks[r, q]


@njit(cache=True)
def seats_sample(strategies: np.ndarray) -> bool:
    """Whether a seat plays a sampling player (``pimc``, ``cheater``): slow deals, a big table."""
    for s in range(strategies.shape[0]):
        if SAMPLING >> strategies[s] & 1:
            return True
    return False


@njit(cache=True)
def workspace(SP: np.ndarray, strategies: np.ndarray, hooks: np.ndarray) -> Workspace:
    """A fresh :class:`Workspace` for one block of deals (``SP`` gives the parameter width).

    The open-card solver's table is sized for the sampling player when a seat plays
    it (``strategies``), and one entry otherwise.
    """
    size = PIMC_ARENA if seats_sample(strategies) else SMALL_ARENA
    return Workspace(
        np.zeros(N_STATE, dtype=np.int64),
        np.zeros(64, dtype=np.int64),
        np.zeros(N_OUT, dtype=np.int64),
        np.zeros((MAX_BIDS_LOG, 2), dtype=np.int16),
        np.zeros((MAX_TRICKS, 6), dtype=np.int8),
        np.full(SNAP_LEN, -1, dtype=np.int64),
        np.zeros((0, 2), dtype=np.int64),
        np.zeros(3, dtype=np.int64),
        np.zeros(3, dtype=np.int64),
        np.zeros((3, SP.shape[1]), dtype=np.float64),
        np.zeros(4, dtype=np.uint32),
        np.zeros(24, dtype=np.int8),
        np.zeros(DECK_WORK, dtype=np.int64),
        np.zeros(size, dtype=np.int64),
        hooks,
    )


def sample_workspace(params: int = 1) -> Workspace:
    """A :class:`Workspace` of empty arrays with :func:`workspace`'s types (boundary types)."""
    z = np.zeros
    return Workspace(
        z(0, np.int64), z(0, np.int64), z(0, np.int64), z((0, 2), np.int16), z((0, 6), np.int8),
        z(0, np.int64), z((0, 2), np.int64), z(0, np.int64), z(0, np.int64),
        z((0, params), np.float64), z(0, np.uint32), z(0, np.int8), z(0, np.int64),
        z(0, np.int64), z(0, np.int64),
    )  # fmt: skip


def hands_outputs(n: int, trace: bool, first_deals: bool) -> tuple:
    """A hands batch's output arrays, as :func:`play_block` fills them (``outs``)."""
    tn = n if trace else 0
    kept = MAX_REDEALS + 1 if trace else 1
    dn = n if trace or first_deals else 0
    return (
        np.zeros((n, N_ROW), dtype=np.int32),  # out
        np.full((n, MAX_REDEALS), -1, dtype=np.int8),  # redeal_seat
        np.full((n, MAX_REDEALS), -1, dtype=np.int8),  # redeal_reason
        np.zeros((dn, kept, 4), dtype=np.uint32),  # dealt
        np.zeros((dn, kept), dtype=np.int8),  # ritual
        np.zeros((tn, MAX_BIDS_LOG, 2), dtype=np.int16),  # bids_log
        np.zeros(tn, dtype=np.int32),  # nbids
        np.zeros((tn, MAX_TRICKS, 6), dtype=np.int8),  # trick_log
    )


def seat_arrays() -> tuple:
    """Sample ``(strategies, SP, scores)`` of a run's seats (boundary types)."""
    return (np.zeros(0, np.int64), np.zeros((0, 1), np.float64), np.zeros(0, np.int64))


_I64 = np.zeros(0, np.int64)
PLAY_BLOCK_ARGS = packed_type(
    _I64, 0, _I64, np.zeros(0, np.uint64), seat_arrays(), hands_outputs(0, False, False),
    sample_workspace(), 0,
)  # fmt: skip


def play_block_entry(ptr):  # type: ignore[no-untyped-def]
    """:func:`play_block` behind a callback (sim.jit.entry_address): the engine compiled once.

    The kernels call it through ``W.hooks[H_PLAY_BLOCK]`` with packed arguments, so
    they do not link (and optimise again) the whole engine.
    """
    span, start, P, keys, seats, outs, W, players = unpacked(ptr, PLAY_BLOCK_ARGS)
    play_block(span, start, P, keys, seats, outs, W, players)


@kernel
def slots_kernel(
    start: int,
    keys: np.ndarray,
    P: np.ndarray,
    strategies: np.ndarray,
    SP: np.ndarray,
    hooks: np.ndarray,
    scores: np.ndarray,
    out: np.ndarray,
    redeal_seat: np.ndarray,
    redeal_reason: np.ndarray,
    dealt: np.ndarray,
    ritual: np.ndarray,
    bids_log: np.ndarray,
    nbids: np.ndarray,
    trick_log: np.ndarray,
    players: int,
    threads: int,
) -> None:
    """Play slots ``start .. start+n-1``: each redealt until a deal is played.

    The outer boundary of the hands engine (flat arguments). Blocks of ``_BLOCK``
    slots (``_SAMPLING_BLOCK`` when a seat plays a sampling player) run in parallel,
    each of ``threads`` threads claiming the next block when it is done with its last
    (:func:`sim.jit.claim`; a block's rows do not depend on which thread plays it);
    under ``deal.method = "cut"`` a block is whole chains of ``deal.cut_chain`` slots
    (PROTOCOL.md, dealing). The logs are kept when ``bids_log`` has a row per slot.
    """
    n = out.shape[0]
    block = _SAMPLING_BLOCK if seats_sample(strategies) else _BLOCK
    chain = P[P_CUT_CHAIN] if P[P_DEAL_METHOD] == CUT else 0
    per = 1
    c0 = 0
    if chain > 0:
        per = max(1, block // chain)  # chains per block
        c0 = start // chain
        n_chains = (start + n - 1) // chain + 1 - c0 if n > 0 else 0
        n_blocks = (n_chains + per - 1) // per
    else:
        n_blocks = (n + block - 1) // block
    outs = (out, redeal_seat, redeal_reason, dealt, ritual, bids_log, nbids, trick_log)
    seats = (strategies, SP, scores)
    following = np.zeros(1, dtype=np.int64)  # the next block to claim
    for _ in prange(threads):
        while True:
            b = claim(following)
            if b >= n_blocks:
                break
            span = np.zeros(3, dtype=np.int64)  # first slot played, first and last row kept
            if chain > 0:
                first = (c0 + b * per) * chain
                span[0] = first
                span[1] = max(first, start) - start
                span[2] = min(first + per * chain, start + n) - start
            else:
                span[1] = b * block
                span[2] = min(n, (b + 1) * block)
                span[0] = start + span[1]
            W = workspace(SP, strategies, hooks)
            args = (span, start, P, keys, seats, outs, W, players)
            call_packed(hooks[H_PLAY_BLOCK], args, PLAY_BLOCK_ARGS)  # type: ignore[call-arg]
