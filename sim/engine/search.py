"""The compiled open-card search: alpha-beta with a transposition table, probes, values.

Every hand is face up. The search plays by the engine's own steps
(:mod:`sim.engine.play`: ``legal_leads``, ``apply_lead``, ``legal_follows``,
``apply_follow``, ``finish_trick``) on copies of the engine's deal state ``S``, and
counts points by :func:`sim.engine.scoring.deal_points`, so it cannot disagree with
the engine on a rule. The declarer maximises its deal total (card points captured +
the marriage points its declarations count); the defenders, playing together,
minimise it. A defender's marriage scores for the defender (or nothing, with
``marriage.only_declarer``) but still changes trump.

A node's value is what the declarer still *adds* from that node to the end of the
deal. At the start of a trick this depends only on the cards still held (with two
players, the talon set aside too), who leads, the trump and what the rules read of
the past (the trump's setter under ``play.no_lead_foreign_trump``; whether marriages
may be declared yet; the declarer's declarations not yet counted under
``marriage.requires_capture``), so the transposition table is keyed there and stores
a lower and an upper bound of it.
There too the node is bounded before any move: above by every point still held and
every marriage the declarer may still count (:func:`upper_bound`), less what the
defenders surely take; below by what the declarer surely takes (:func:`sure_points`:
the tricks the seat on lead cashes before it gives up the lead, and once no seat can
change trump the trumps above the other side's). On the 1,000 played deals of
``benchmarks/solver.py`` they cut the nodes of an exact solve by 70 % (median
46,600 to 14,100) and the time of a make/fail probe by 85-90 %.

* :func:`search` — fail-soft alpha-beta on the window ``(alpha, beta)``;
* :func:`probe` — the null-window test "can the declarer still add ``target``?";
* :func:`solve` — the exact value by null-window probes (:func:`exact`);
* :func:`probe_value` — a probe that goes on to the exact value when it succeeds;
* :func:`exhaustive` — a second, unpruned compiled search (plain minimax, exact
  values memoised at trick starts under a differently built key), the check of the
  pruned one on full deals.

The search goes at most one ply per card (24 with three players, 22 with two). It
runs on an explicit stack of frames rather than by recursion: numba cannot cache
recursive functions (numba issue 6061: the cached code crashes).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from sim.cards import RANK_POINTS
from sim.engine.actions import ACE_BIT, DECLARE
from sim.engine.arena import (
    MAX_MOVES,
    MAX_PLY,
    MAX_WORLDS,
    N_FRAME,
    N_META,
    N_SCRATCH,
    T_WORDS,
    arena_size,
)
from sim.engine.bits import (
    ACES,
    KQ,
    RANK_BITS,
    SUIT_BITS,
    highest,
    lowest,
    mask_points,
    mask_to_list,
    popcount,
    seat_after,
)
from sim.engine.params import (
    P_ACE,
    P_CHANGES_TRUMP,
    P_FIRST_LEAD,
    P_MV_S,
    P_NO_LEAD_FOREIGN,
    P_NP,
    P_REQUIRES_CAPTURE,
)
from sim.engine.play import (
    apply_follow,
    apply_lead,
    beats,
    finish_trick,
    legal_follows,
    legal_leads,
    start_trick,
)
from sim.engine.scoring import deal_points
from sim.engine.state import (
    N_STATE,
    NO_SUIT,
    S_BEST,
    S_BEST_SEAT,
    S_CAPT0,
    S_DECL,
    S_DECLARED0,
    S_HAND0,
    S_LEADER,
    S_NPLAYED,
    S_PENDING,
    S_TALON_OTHER,
    S_TC0,
    S_TRICK_NO,
    S_TRUMP,
    S_TRUMP_SETTER,
    S_VOID0,
)
from sim.jit import hot, hot_call, prefetch_row
from sim.rules import ACE_MARRIAGE_VALUE

INF = 1 << 20
RANK_POINTS_I = np.array(RANK_POINTS, dtype=np.int64)  # points by rank, 9 J Q K 10 A
TT_BITS_DEFAULT = 18
# A table entry (``C.tt[slot]``): two words, 16 bytes, four entries to a cache line.
# Word T_KEY: the key's first word (57 bits) and the low 7 bits of the generation's tag
# above it. Word T_DATA: the key's second word (29 bits), the lower and the upper bound
# (12 bits each, offset by TT_OFFSET; the upper bound's top value stands for none), the
# best lead (6 bits) and the tag's high 5 bits. The tag is the generation modulo 4096;
# the table is emptied when it wraps (new_position), so a tag never matches an entry of
# a generation 4096 back. Every bound the search stores lies well inside the 12 bits
# (a deal's points and marriages are at most 600, and no value is below 0); one outside
# would only be loosened (a lower bound to 0 or 2046, an upper one forgotten), never
# made wrong.
T_KEY, T_DATA = range(T_WORDS)
TAG_BITS = 12
TAG_MASK = (1 << TAG_BITS) - 1
K1_BITS = 57
K2_BITS = 29
TT_OFFSET = 2048
TT_NONE = 4095  # a stored upper bound of INF
T_LO_SHIFT = K2_BITS
T_HI_SHIFT = K2_BITS + 12
T_MOVE_SHIFT = K2_BITS + 24
T_TAG_SHIFT = K2_BITS + 30
# the bits of T_DATA that must match: the key's second word and the tag's high bits
# (as a signed word: the tag's top bit is the sign bit)
DATA_KEY_MASK = ((1 << K2_BITS) - 1 | (TAG_MASK >> (64 - K1_BITS)) << T_TAG_SHIFT) - (1 << 64)
# Workspace counters (``C.meta``).
M_GEN, M_NODES, M_TT_MASK, M_TT_HITS, M_CUT_FIRST, M_CUT_LATE, M_ALL, M_LIMIT = range(N_META)
GAVE_UP = -(1 << 40)  # a search's result past the node limit ``meta[M_LIMIT]`` (0: none)
# A ply's frame (``C.frame[d]``): the explicit recursion stack.
(
    F_ALPHA,
    F_BETA,
    F_A0,
    F_B0,
    F_BEST,
    F_BEST_MOVE,
    F_I,
    F_N,
    F_GAIN,
    F_MAX,
    F_SLOT,
    F_K1,
    F_K2,
    F_K3,
    F_GROUPED,
) = range(N_FRAME)

Solver = namedtuple(
    "Solver",
    [
        "stack",  # int64[MAX_PLY + 2, N_STATE]: the state at each ply, then a world
        "moves",  # int64[MAX_PLY + 1, MAX_MOVES]: the ordered moves at each ply
        "order",  # int64[MAX_PLY + 1, MAX_MOVES]: their ordering keys
        "frame",  # int64[MAX_PLY + 1, N_FRAME]: each ply's window, best, move index
        "group",  # int64[MAX_PLY + 1, MAX_MOVES]: each move's class of equivalent cards
        "vals",  # int64[MAX_PLY + 1, MAX_MOVES]: each searched move's value (a bound)
        "tt",  # int64[TT, 2]: the table's entries, two words each (T_KEY, T_DATA)
        "meta",  # int64[8]: generation, node count, table mask, table hits
        "scratch",  # int64[5, MAX_WORLDS]: the sampling player's facts, values, moves
        "probe_out",  # int64[MAX_MOVES, 2]: root moves with their results
    ],
)


@njit(cache=True)
def solver_view(arena: np.ndarray) -> Solver:
    """The solver held in ``arena`` (views, no copy); the table fills what is left.

    The engine's per-block workspace carries the solver as this one array, so that
    every function passing the workspace passes one array more, not eleven.
    """
    k = 0
    stack = arena[k : k + (MAX_PLY + 2) * N_STATE].reshape((MAX_PLY + 2, N_STATE))
    k += (MAX_PLY + 2) * N_STATE
    plies = (MAX_PLY + 1) * MAX_MOVES
    moves = arena[k : k + plies].reshape((MAX_PLY + 1, MAX_MOVES))
    k += plies
    order = arena[k : k + plies].reshape((MAX_PLY + 1, MAX_MOVES))
    k += plies
    group = arena[k : k + plies].reshape((MAX_PLY + 1, MAX_MOVES))
    k += plies
    vals = arena[k : k + plies].reshape((MAX_PLY + 1, MAX_MOVES))
    k += plies
    frame = arena[k : k + (MAX_PLY + 1) * N_FRAME].reshape((MAX_PLY + 1, N_FRAME))
    k += (MAX_PLY + 1) * N_FRAME
    meta = arena[k : k + N_META]
    k += N_META
    scratch = arena[k : k + N_SCRATCH * MAX_WORLDS].reshape((N_SCRATCH, MAX_WORLDS))
    k += N_SCRATCH * MAX_WORLDS
    probe_out = arena[k : k + 2 * MAX_MOVES].reshape((MAX_MOVES, 2))
    k += 2 * MAX_MOVES
    size = (arena.shape[0] - k - 7) // T_WORDS  # 2**tt_bits (arena_size)
    while size & (size - 1):  # (another length: down to a power of two)
        size &= size - 1
    k += (8 - (arena.ctypes.data // 8 + k) % 8) % 8  # the table starts on a cache line
    tt = arena[k : k + T_WORDS * size].reshape((size, T_WORDS))
    meta[M_TT_MASK] = size - 1
    return Solver(stack, moves, order, frame, group, vals, tt, meta, scratch, probe_out)


def workspace(tt_bits: int = TT_BITS_DEFAULT) -> Solver:
    """A solver workspace with a table of ``2**tt_bits`` entries (16 bytes each)."""
    return solver_view(np.zeros(arena_size(tt_bits), dtype=np.int64))


# --- what the declarer has and can still get ------------------------------------------------


@hot
def declarer_total(S: np.ndarray, P: np.ndarray) -> int:
    """The declarer's deal total so far (card points + marriage points counted)."""
    cp, mp = deal_points(S, P, S[S_DECL])
    return cp + mp


@hot
def _uncounted(S: np.ndarray, P: np.ndarray) -> int:
    """``marriage.requires_capture``: the declarer's declarations not counted yet (bits)."""
    if not P[P_REQUIRES_CAPTURE]:
        return 0
    d = S[S_DECL]
    declared = S[S_DECLARED0 + d]
    capt = S[S_CAPT0 + d]
    out = 0
    for suit in range(4):
        if declared >> suit & 1 and not capt & KQ[suit]:
            out |= 1 << suit
    if declared & ACE_BIT and not capt & ACES:
        out |= ACE_BIT
    return out


@hot
def upper_bound(S: np.ndarray, P: np.ndarray) -> int:
    """At most what the declarer can still add from ``S``.

    Every card point still held (and the set-aside talon of two players), every
    marriage the declarer still holds, every declaration it has not had counted yet.
    """
    NP = P[P_NP]
    d = S[S_DECL]
    held = np.int64(0)
    for s in range(NP):
        held |= S[S_HAND0 + s]
    for j in range(S[S_NPLAYED]):  # inside a trick: its cards too
        held |= np.int64(1) << S[S_TC0 + j]
    ub = mask_points(held)
    if NP == 2:
        ub += mask_points(S[S_TALON_OTHER])
    hand = S[S_HAND0 + d]
    for suit in range(4):
        if hand & KQ[suit] == KQ[suit]:
            ub += P[P_MV_S + suit]
    if P[P_ACE] and hand & ACES == ACES:
        ub += ACE_MARRIAGE_VALUE
    unc = _uncounted(S, P)
    for suit in range(4):
        if unc >> suit & 1:
            ub += P[P_MV_S + suit]
    if unc & ACE_BIT:
        ub += ACE_MARRIAGE_VALUE
    return ub


@hot
def least_points(hand: int, k: int) -> int:
    """The fewest points ``k`` cards of ``hand`` can hold (points rise with rank)."""
    out = 0
    for r in range(6):
        if k <= 0:
            break
        n = min(popcount(hand & RANK_BITS[r]), k)
        out += n * RANK_POINTS_I[r]
        k -= n
    return out


@hot
def _may_declare(hand: int, P: np.ndarray) -> bool:
    """Whether ``hand`` holds a marriage (or, with ``marriage.ace``, the four aces)."""
    for suit in range(4):
        if hand & KQ[suit] == KQ[suit]:
            return True
    return bool(P[P_ACE] and hand & ACES == ACES)


@hot
def _quick_tricks(S: np.ndarray, P: np.ndarray) -> tuple[int, int]:
    """:func:`sure_points` of the seat on lead: the tricks it cashes before it loses the lead.

    With trump, the leader first draws the others' trumps with trumps no other seat
    can beat (when it holds as many such trumps as any other seat holds trumps, and may
    lead trump); with no other trump left, every card of its that no other seat can
    beat in its suit wins, and it keeps the lead: it cashes each. Its trumps win
    wherever they are played once no other seat holds one. Discards only make more of
    its cards the top of their suits. As :func:`sure_points`.
    """
    NP = P[P_NP]
    d = S[S_DECL]
    trump = S[S_TRUMP]
    leader = S[S_LEADER]
    hand = S[S_HAND0 + leader]
    others = np.int64(0)
    for s in range(NP):
        if s != leader:
            others |= S[S_HAND0 + s]
    sure = np.int64(0)
    cash = True  # whether its side suits' top cards are sure (no trump left to ruff)
    if trump != NO_SUIT:
        mine = hand & SUIT_BITS[trump]
        theirs = others & SUIT_BITS[trump]
        # ``play.no_lead_foreign_trump``: a trump another seat set is not led, so the
        # leader's trumps are not cashed from the lead (it leads another suit, loses
        # the lead, and a marriage declared then may change trump)
        leads_trump = not (P[P_NO_LEAD_FOREIGN] and S[S_TRUMP_SETTER] != leader)
        if theirs:
            if mine == 0 or not leads_trump:
                cash = False
            else:
                sure = mine & ~((np.int64(2) << highest(theirs)) - 1)
                for s in range(NP):
                    if s != leader and popcount(S[S_HAND0 + s] & SUIT_BITS[trump]) > popcount(sure):
                        cash = False
        elif leads_trump:
            sure = mine
    for suit in range(4):
        if suit == trump or not cash:
            continue
        mine = hand & SUIT_BITS[suit]
        theirs = others & SUIT_BITS[suit]
        if mine == 0:
            continue
        if theirs == 0:
            sure |= mine
        else:
            sure |= mine & ~((np.int64(2) << highest(theirs)) - 1)
    k = popcount(sure)
    if leader == d:
        pts = mask_points(sure)
        for s in range(NP):
            if s != d:
                pts += least_points(S[S_HAND0 + s], k)
        # still on lead after them, it may declare a marriage it still holds
        if not P[P_REQUIRES_CAPTURE] and (k > 0 or S[S_TRICK_NO] > 0 or P[P_FIRST_LEAD]):
            best = 0
            for suit in range(4):
                if hand & KQ[suit] == KQ[suit] and not sure & KQ[suit]:
                    best = max(best, P[P_MV_S + suit])
            pts += best
        return pts, 0
    if k == 0:
        return 0, 0
    return 0, mask_points(sure) + least_points(S[S_HAND0 + d], k)


@hot
def sure_points(S: np.ndarray, P: np.ndarray) -> tuple[int, int]:
    """At a trick start: card points the declarer surely adds, and the defenders surely take.

    While no seat can change trump any more (no marriage held, or a trump set and
    ``marriage.changes_trump`` off; no trump pending), a trump above every trump of the
    other side wins whatever trick it is played to: its points go to its side, with
    one card of every other hand (at least that hand's cheapest cards). Whoever holds
    marriages, the tricks the seat on lead cashes without giving up the lead
    (:func:`_quick_tricks`) are sure too, since no one else leads (or declares) before
    they are played; and a declarer still on lead after them may declare a marriage it
    holds. ``(0, 0)`` when nothing is sure.
    """
    trump = S[S_TRUMP]
    if S[S_PENDING] >= 0:
        return 0, 0
    NP = P[P_NP]
    d = S[S_DECL]
    # the leader keeps the lead while it cashes: no one else leads, so no one declares
    lb, ub_cut = _quick_tricks(S, P)
    if trump == NO_SUIT:
        return lb, ub_cut
    for s in range(NP):
        if P[P_CHANGES_TRUMP] and _may_declare(S[S_HAND0 + s], P):
            return lb, ub_cut  # a seat may still change trump
    mine = S[S_HAND0 + d] & SUIT_BITS[trump]
    theirs = np.int64(0)
    for s in range(NP):
        if s != d:
            theirs |= S[S_HAND0 + s] & SUIT_BITS[trump]
    if mine == 0 and theirs == 0:
        return lb, ub_cut
    if theirs == 0 or (mine != 0 and highest(mine) > highest(theirs)):
        sure = mine if theirs == 0 else mine & ~((np.int64(2) << highest(theirs)) - 1)
        k = popcount(sure)
        pts = mask_points(sure)
        for s in range(NP):
            if s != d:
                pts += least_points(S[S_HAND0 + s], k)
        return max(lb, pts), ub_cut
    sure = theirs if mine == 0 else theirs & ~((np.int64(2) << highest(mine)) - 1)
    # the defenders' sure tricks: each takes a card of the declarer's (the other
    # defender's cards in them are not counted)
    k = 0
    for s in range(NP):
        if s != d:
            k = max(k, popcount(S[S_HAND0 + s] & sure))
    return lb, max(ub_cut, mask_points(sure) + least_points(S[S_HAND0 + d], k))


# --- move generation and ordering --------------------------------------------------------


@hot
def _master(S: np.ndarray, P: np.ndarray, card: int, seat: int) -> bool:
    """Whether no other seat holds a higher card of ``card``'s suit."""
    others = np.int64(0)
    for s in range(P[P_NP]):
        if s != seat:
            others |= S[S_HAND0 + s]
    higher = SUIT_BITS[card // 6] & ~((np.int64(2) << card) - 1)
    return (others & higher) == 0


@hot
def _push(moves: np.ndarray, keys: np.ndarray, n: int, code: int, key: int) -> int:
    """Insert ``code`` with ordering ``key`` (larger first) into the first ``n``; new n."""
    i = n
    while i > 0 and keys[i - 1] < key:
        moves[i] = moves[i - 1]
        keys[i] = keys[i - 1]
        i -= 1
    moves[i] = code
    keys[i] = key
    return n + 1


@hot
def gen_moves(S: np.ndarray, P: np.ndarray, moves: np.ndarray, keys: np.ndarray, first: int) -> int:
    """The legal moves of the seat to play into ``moves``, best-looking first; how many.

    ``first`` (a move code, or -1) is tried before all others: the best lead the table
    remembers. Leads: declarations, then cards no one can beat in their suit (most
    points first), then the rest (fewest points first). Follows: a card that wins the
    trick (most points first when it is the trick's last card), then, when the seat's
    side already wins the trick, the most points, else the fewest.
    """
    NP = P[P_NP]
    n_played = S[S_NPLAYED]
    seat = seat_after(S[S_LEADER], n_played, NP)
    n = 0
    if n_played == 0:
        plain, declaring = legal_leads(S, P, seat)
        m = declaring
        while m:
            c = lowest(m)
            m &= m - 1
            n = _push(moves, keys, n, DECLARE + c, 1000 + c % 6)
        m = plain
        while m:
            c = lowest(m)
            m &= m - 1
            pts = mask_points(np.int64(1) << c)
            key = 500 + pts if _master(S, P, c, seat) else 100 - pts
            n = _push(moves, keys, n, c, key)
    else:
        d = S[S_DECL]
        allowed = legal_follows(S, P, seat)
        best = S[S_BEST]
        trump = S[S_TRUMP]
        ours = (S[S_BEST_SEAT] == d) == (seat == d)
        last = n_played == NP - 1
        m = allowed
        while m:
            c = lowest(m)
            m &= m - 1
            pts = mask_points(np.int64(1) << c)
            if beats(c, best, trump) and not (ours and not last):
                key = 500 + pts if last else 400 - c % 6
            elif ours:
                key = 200 + pts
            else:
                key = 100 - pts
            n = _push(moves, keys, n, c, key)
    if first >= 0:
        for i in range(n):
            if moves[i] == first:
                for j in range(i, 0, -1):
                    moves[j] = moves[j - 1]
                moves[0] = first
                break
    return n


@hot
def move_groups(S: np.ndarray, P: np.ndarray, moves: np.ndarray, n: int, group: np.ndarray) -> None:
    """Classes of equivalent cards among the ``n`` moves: ``group[i]``, -1 for none.

    Two cards of one suit in one hand are *equivalent for winning* when no card still
    held by another seat or lying in the current trick ranks between them: swapping
    them in any line of play changes no trick's winner, only which of two tricks gets
    which card's points. So their values differ by at most the difference of their
    points (:func:`search` uses this to skip a card whose bound cannot matter). A K or
    Q whose partner the seat still holds, the aces of a seat holding all four with
    ``marriage.ace``, and (in any hand) the cards of a declarer's declaration still
    waiting to be counted under ``marriage.requires_capture`` also score as
    marriages, so they have no class.
    """
    NP = P[P_NP]
    n_played = S[S_NPLAYED]
    seat = seat_after(S[S_LEADER], n_played, NP)
    hand = S[S_HAND0 + seat]
    others = np.int64(0)
    for s in range(NP):
        if s != seat:
            others |= S[S_HAND0 + s]
    for j in range(n_played):
        others |= np.int64(1) << S[S_TC0 + j]
    special = np.int64(0)  # cards that may still score as a marriage
    for suit in range(4):
        if hand & KQ[suit] == KQ[suit]:
            special |= KQ[suit]
    if P[P_ACE] and hand & ACES == ACES:
        special |= ACES
    unc = _uncounted(S, P)  # whoever holds them: the declarer's capture counts them
    for suit in range(4):
        if unc >> suit & 1:
            special |= KQ[suit]
    if unc & ACE_BIT:
        special |= ACES
    for i in range(n):
        c = moves[i]
        if c >= DECLARE or special >> c & 1:
            group[i] = -1
        else:
            below = others & SUIT_BITS[c // 6] & ((np.int64(1) << c) - 1)
            group[i] = (c // 6) * 8 + popcount(below)


# --- the transposition table ------------------------------------------------------------


@hot
def _key(S: np.ndarray, P: np.ndarray) -> tuple[int, int]:
    """The two key words of a trick start (see the module's docstring)."""
    k1 = S[S_HAND0] | S[S_HAND0 + 1] << 24 | S[S_LEADER] << 48 | (S[S_TRUMP] + 1) << 50
    if P[P_NO_LEAD_FOREIGN]:
        k1 |= (S[S_TRUMP_SETTER] + 1) << 53
    if S[S_TRICK_NO] > 0:
        k1 |= np.int64(1) << 56
    k2 = _uncounted(S, P) << 24
    if P[P_NP] == 3:
        k2 |= S[S_HAND0 + 2]
    else:  # the talon set aside goes to the last trick's winner
        k2 |= S[S_TALON_OTHER]
    return k1, k2


@hot
def _slot(k1: int, k2: int, mask: int) -> int:
    h = np.uint64(k1) * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(k2) * np.uint64(
        0xC2B2AE3D27D4EB4F
    )
    return np.int64((h ^ (h >> np.uint64(29))) & np.uint64(mask))


# --- the searches -------------------------------------------------------------------------


@hot
def play_move(C: Solver, P: np.ndarray, d: int, code: int) -> int:
    """Play move ``code`` from ply ``d`` into ply ``d + 1``; the declarer's points gained.

    A completed trick is captured (and, after the last, the set-aside talon of two
    players goes to its winner) and the next trick started.
    """
    S = C.stack[d]
    T = C.stack[d + 1]
    for i in range(S_HAND0, S_HAND0 + 3):  # the slots the play phase reads (the pile is
        T[i] = S[i]  # only written, so it is not copied)
    T[S_DECL] = S[S_DECL]
    for i in range(S_TRUMP, S_VOID0 + 3):
        T[i] = S[i]
    T[S_TALON_OTHER] = S[S_TALON_OTHER]
    NP = P[P_NP]
    n_played = S[S_NPLAYED]
    if n_played == 0:
        apply_lead(T, P, code)
        if code < DECLARE:
            return 0
        return declarer_total(T, P) - declarer_total(S, P)
    apply_follow(T, P, seat_after(S[S_LEADER], n_played, NP), code, False)
    if T[S_NPLAYED] < NP:
        return 0
    winner = finish_trick(T, P)
    if T[S_HAND0 + winner] == 0 and NP == 2:  # the last trick takes the talon set aside
        T[S_CAPT0 + winner] |= T[S_TALON_OTHER]
    start_trick(T, T[S_TRICK_NO] + 1, winner)  # after the last: a trick of empty hands
    if winner != T[S_DECL]:
        return 0  # the declarer's captures, and so its total, are as they were
    return declarer_total(T, P) - declarer_total(S, P)


@hot
def _tt_words(C: Solver, k1: int, k2: int) -> tuple[int, int]:
    """The key as the table holds it: word T_KEY, and the bits of T_DATA that must match."""
    tag = C.meta[M_GEN] & TAG_MASK
    w0 = k1 | (tag & ((1 << (64 - K1_BITS)) - 1)) << K1_BITS
    w1 = k2 | (tag >> (64 - K1_BITS)) << T_TAG_SHIFT
    return w0, w1


@hot
def _tt_match(C: Solver, slot: int, k1: int, k2: int) -> bool:
    w0, w1 = _tt_words(C, k1, k2)
    return bool(C.tt[slot, T_KEY] == w0 and (C.tt[slot, T_DATA] & DATA_KEY_MASK) == w1)


@hot
def _tt_lo(w: int) -> int:
    return (w >> T_LO_SHIFT & 4095) - TT_OFFSET


@hot
def _tt_hi(w: int) -> int:
    raw = w >> T_HI_SHIFT & 4095
    return INF if raw == TT_NONE else raw - TT_OFFSET


@hot
def _enter(C: Solver, P: np.ndarray, d: int, alpha: int, beta: int) -> tuple[bool, int]:
    """Open the node at ply ``d`` on the window ``(alpha, beta)``.

    ``(True, value)`` when it is settled without a move (the deal is over, the bound,
    the table), else ``(False, 0)`` with its frame and ordered moves ready.
    """
    S = C.stack[d]
    F = C.frame[d]
    C.meta[M_NODES] += 1
    F[F_SLOT] = -1
    first = -1
    if S[S_NPLAYED] == 0:
        if S[S_HAND0 + S[S_LEADER]] == 0:
            return True, 0
        k1, k2 = _key(S, P)
        slot = _slot(k1, k2, C.meta[M_TT_MASK])
        prefetch_row(C.tt, slot)  # the entry's line loads while the bound is computed
        ub = upper_bound(S, P)
        if ub <= alpha:
            return True, ub
        if beta > ub:
            beta = ub
        F[F_SLOT] = slot
        F[F_K1] = k1
        F[F_K2] = k2
        if _tt_match(C, slot, k1, k2):
            C.meta[M_TT_HITS] += 1
            data = C.tt[slot, T_DATA]
            lo = _tt_lo(data)
            hi = _tt_hi(data)
            if lo >= beta:
                return True, lo
            if hi <= alpha:
                return True, hi
            if lo == hi:
                return True, lo
            alpha = max(alpha, lo)
            beta = min(beta, hi)
            first = data >> T_MOVE_SHIFT & 63
        lb, theirs = sure_points(S, P)  # after the table: most nodes end there
        if ub - theirs <= alpha:
            return True, ub - theirs
        if lb >= beta:
            return True, lb
        beta = min(beta, ub - theirs)
    F[F_N] = gen_moves(S, P, C.moves[d], C.order[d], first)
    F[F_GROUPED] = 0  # the classes are found when a second move is due
    F[F_I] = 0
    F[F_ALPHA] = alpha
    F[F_BETA] = beta
    F[F_A0] = alpha  # the window searched: what the result bounds
    F[F_B0] = beta
    F[F_MAX] = seat_after(S[S_LEADER], S[S_NPLAYED], P[P_NP]) == S[S_DECL]
    F[F_BEST] = -INF if F[F_MAX] else INF
    F[F_BEST_MOVE] = C.moves[d, 0]
    return False, 0


@hot
def _close(C: Solver, d: int) -> int:
    """The node at ply ``d`` is searched: store its bound in the table; its value."""
    F = C.frame[d]
    best = F[F_BEST]
    slot = F[F_SLOT]
    if slot >= 0:
        k1 = F[F_K1]
        k2 = F[F_K2]
        same = _tt_match(C, slot, k1, k2)
        lo = _tt_lo(C.tt[slot, T_DATA]) if same else 0
        hi = _tt_hi(C.tt[slot, T_DATA]) if same else INF
        if F[F_A0] < best < F[F_B0]:
            lo = best
            hi = best
        elif best >= F[F_B0]:
            lo = max(lo, best)
        else:
            hi = min(hi, best)
        w0, w1 = _tt_words(C, k1, k2)
        # a lower bound is never below 0 (the declarer adds nothing less), so neither
        # clamp moves a bound the search stores; past them it would widen, not lie
        lo = min(max(lo, 0), TT_NONE - TT_OFFSET - 1) + TT_OFFSET
        hi = min(max(hi, 0), TT_NONE - TT_OFFSET) + TT_OFFSET
        C.tt[slot, T_KEY] = w0
        C.tt[slot, T_DATA] = (
            w1 | lo << T_LO_SHIFT | hi << T_HI_SHIFT | F[F_BEST_MOVE] << T_MOVE_SHIFT
        )
    return best


@hot
def _skip_equivalents(C: Solver, P: np.ndarray, d: int) -> bool:
    """Skip the next moves of ply ``d`` that an equivalent card searched before settles.

    A searched card ``x`` of value bound ``v`` (an upper bound at the declarer's node,
    where it failed low, a lower bound at a defender's) bounds an equivalent ``y`` by
    ``v ± |points(x) - points(y)|``; when that bound cannot move the window, ``y`` is
    not searched and the bound joins the node's fail-soft result. True when no move is
    left to search.
    """
    F = C.frame[d]
    if F[F_I] == 0 or F[F_I] >= F[F_N]:
        return F[F_I] >= F[F_N]
    if not F[F_GROUPED]:
        move_groups(C.stack[d], P, C.moves[d], F[F_N], C.group[d])
        F[F_GROUPED] = 1
    while F[F_I] < F[F_N]:
        i = F[F_I]
        g = C.group[d, i]
        if g < 0:
            return False
        pi = mask_points(np.int64(1) << C.moves[d, i])
        bound = INF if F[F_MAX] else -INF
        for j in range(i):
            if C.group[d, j] == g:
                delta = abs(pi - mask_points(np.int64(1) << C.moves[d, j]))
                if F[F_MAX]:
                    bound = min(bound, C.vals[d, j] + delta)
                else:
                    bound = max(bound, C.vals[d, j] - delta)
        if F[F_MAX]:
            if bound > F[F_ALPHA]:
                return False
            F[F_BEST] = max(F[F_BEST], bound)
        else:
            if bound < F[F_BETA]:
                return False
            F[F_BEST] = min(F[F_BEST], bound)
        C.vals[d, i] = bound
        F[F_I] += 1
    return True


@hot_call
def search(C: Solver, P: np.ndarray, d0: int, alpha: int, beta: int) -> int:
    """Fail-soft alpha-beta: what the declarer still adds from ply ``d0``'s state.

    The result ``v`` is exact when ``alpha < v < beta``; ``v <= alpha`` is an upper
    bound and ``v >= beta`` a lower bound of the true value. The recursion runs on
    the explicit stack of frames ``C.frame`` (numba cannot cache recursive code).
    With a node limit set (``C.meta[M_LIMIT]``, a count of ``C.meta[M_NODES]``) a
    search that passes it stops and returns ``GAVE_UP``.
    """
    d = d0
    settled, ret = _enter(C, P, d, alpha, beta)
    while True:
        if not settled and _skip_equivalents(C, P, d):  # no move left worth searching
            settled = True
            ret = _close(C, d)
        if not settled:  # the node at d has moves: play its next one
            if C.meta[M_LIMIT] and C.meta[M_NODES] > C.meta[M_LIMIT]:
                return GAVE_UP  # nothing half-searched was stored
            F = C.frame[d]
            gain = play_move(C, P, d, C.moves[d, F[F_I]])
            F[F_GAIN] = gain
            d += 1
            settled, ret = _enter(C, P, d, F[F_ALPHA] - gain, F[F_BETA] - gain)
            continue
        # ``ret`` is the value of the node at d: hand it to its parent
        if d == d0:
            return ret
        d -= 1
        F = C.frame[d]
        v = F[F_GAIN] + ret
        C.vals[d, F[F_I]] = v
        if F[F_MAX]:
            if v > F[F_BEST]:
                F[F_BEST] = v
                F[F_BEST_MOVE] = C.moves[d, F[F_I]]
                F[F_ALPHA] = max(F[F_ALPHA], v)
        elif v < F[F_BEST]:
            F[F_BEST] = v
            F[F_BEST_MOVE] = C.moves[d, F[F_I]]
            F[F_BETA] = min(F[F_BETA], v)
        F[F_I] += 1
        if F[F_ALPHA] >= F[F_BETA]:
            C.meta[M_CUT_FIRST if F[F_I] == 1 else M_CUT_LATE] += 1
            ret = _close(C, d)  # settled: return it upwards
        elif F[F_I] == F[F_N]:
            C.meta[M_ALL] += 1
            ret = _close(C, d)
        else:
            settled = False


@hot_call
def set_root(C: Solver, S: np.ndarray) -> None:
    for i in range(N_STATE):
        C.stack[0, i] = S[i]


@hot_call
def new_position(C: Solver) -> None:
    """Forget the table (a new generation): call before a different deal's search."""
    C.meta[M_GEN] += 1
    if (C.meta[M_GEN] & TAG_MASK) == 0:  # the tag wraps: no entry of 4096 back may match
        C.tt[:, :] = 0


@hot_call
def probe(C: Solver, P: np.ndarray, S: np.ndarray, target: int) -> bool:
    """Whether the declarer can still add at least ``target`` from ``S`` (null window)."""
    if target <= 0:
        return True
    set_root(C, S)
    return search(C, P, 0, target - 1, target) >= target


@hot_call
def exact(C: Solver, P: np.ndarray, d: int, guess: int = -1) -> int:
    """The exact value of ply ``d``'s state by null-window probes.

    Without a ``guess`` the probes bisect ``[0, upper bound]`` from the top: three
    quarters of the way up the open interval, each fail-soft result narrowing it
    further. Probes above the value fail cheaply (every declarer move, one defence
    each); probes below it must refute every defence, which costs more. On the
    positions of ``benchmarks/solver.py`` this takes about 7-9 probes and a third fewer
    nodes than MTD(f) from 0 (which takes about 27 small steps up).

    With a ``guess`` (0 or more) each probe sits at the bound found so far nearest it
    (MTD(f)): a guess at the value settles it in two probes, one that reaches it and
    one that does not; for values that lie close together (the moves of one position,
    one world after another). The same value either way; ``GAVE_UP`` when a probe
    passes the node limit.
    """
    lo = 0
    hi = upper_bound(C.stack[d], P)
    g = min(max(guess, lo), hi)
    while lo < hi:
        if guess < 0:
            beta = min(lo + max(1, (3 * (hi - lo) + 2) // 4), hi)
        else:
            beta = g + 1 if g <= lo else g
        g = search(C, P, d, beta - 1, beta)
        if g == GAVE_UP:
            return GAVE_UP
        if g < beta:
            hi = g
        else:
            lo = g
    return lo


@hot_call
def probe_value(C: Solver, P: np.ndarray, S: np.ndarray, target: int) -> int:
    """The exact value from ``S`` when the declarer can still add ``target``, else -1.

    :func:`probe` then :func:`solve` in one: the probe's fail-soft bound is where the
    bisection of :func:`exact` starts (first one point above it, where the value of a
    discard of :func:`sim.solver.talon.par_summary` often lies: 2.6 % fewer nodes), so
    the probes below it are not searched again.
    """
    set_root(C, S)
    if S[S_NPLAYED] == 0 and S[S_HAND0 + S[S_LEADER]] == 0:
        return 0 if target <= 0 else -1
    lo = 0
    if target > 0:
        lo = search(C, P, 0, target - 1, target)
        if lo < target:
            return -1
    hi = upper_bound(C.stack[0], P)
    first = target > 0  # the value often lies at the probe's bound: try one above it
    while lo < hi:
        beta = lo + 1 if first else min(lo + max(1, (3 * (hi - lo) + 2) // 4), hi)
        first = False
        g = search(C, P, 0, beta - 1, beta)
        if g < beta:
            hi = g
        else:
            lo = g
    return lo


@hot_call
def solve(C: Solver, P: np.ndarray, S: np.ndarray) -> int:
    """The exact number of points the declarer still adds from ``S`` against best defence."""
    set_root(C, S)
    if S[S_NPLAYED] == 0 and S[S_HAND0 + S[S_LEADER]] == 0:
        return 0
    return exact(C, P, 0)


@hot
def sort_head(a: np.ndarray, n: int) -> None:
    """Sort ``a[:n]`` ascending in place (insertion sort: a hand's few moves)."""
    for i in range(1, n):
        x = a[i]
        j = i
        while j > 0 and a[j - 1] > x:
            a[j] = a[j - 1]
            j -= 1
        a[j] = x


@hot
def root_codes(C: Solver, P: np.ndarray, S: np.ndarray) -> int:
    """``S`` as the root, its legal moves ascending in ``C.order[0]``; how many.

    The ordering keys are not needed at the root, so their row holds the codes.
    """
    set_root(C, S)
    n = gen_moves(C.stack[0], P, C.moves[0], C.order[0], -1)
    codes = C.order[0]
    for i in range(n):
        codes[i] = C.moves[0, i]
    sort_head(codes, n)
    return n


@hot_call
def root_moves(C: Solver, P: np.ndarray, S: np.ndarray, out: np.ndarray) -> int:
    """Every legal move at ``S`` with its exact value: ``out[i] = (code, value)``; how many.

    Moves come in ascending code order (plain cards, then declaring leads); a move's
    value counts the points it gains plus the best the declarer adds after it.
    """
    n = root_codes(C, P, S)
    codes = C.order[0]
    for i in range(n):
        gain = play_move(C, P, 0, codes[i])
        v = exact(C, P, 1)
        out[i, 0] = codes[i]
        out[i, 1] = gain + v
    return n


@hot_call
def root_probes(
    C: Solver, P: np.ndarray, S: np.ndarray, target: int, out: np.ndarray, active: np.ndarray
) -> int:
    """Every legal move at ``S`` and whether it still lets the declarer add ``target``.

    ``out[i] = (code, 1 or 0)``, moves ascending as in :func:`root_moves`; a move with
    ``active[i]`` 0 is not searched (its result reads 0).
    """
    n = root_codes(C, P, S)
    codes = C.order[0]
    for i in range(n):
        out[i, 0] = codes[i]
        if not active[i]:
            out[i, 1] = 0
            continue
        gain = play_move(C, P, 0, codes[i])
        need = target - gain
        ok = need <= 0 or search(C, P, 1, need - 1, need) >= need
        out[i, 0] = codes[i]
        out[i, 1] = 1 if ok else 0
    return n


# --- the unpruned check ---------------------------------------------------------------------


@hot
def _memo_key(S: np.ndarray, P: np.ndarray) -> tuple[int, int, int]:
    """Everything a trick start's future can depend on, packed without shortcuts."""
    NP = P[P_NP]
    k1 = S[S_HAND0] | S[S_HAND0 + 1] << 24 | S[S_LEADER] << 48
    k2 = (S[S_HAND0 + 2] if NP == 3 else 0) | (S[S_TRUMP] + 1) << 24
    k2 |= (S[S_TRUMP_SETTER] + 1) << 28 | (1 if S[S_TRICK_NO] > 0 else 0) << 32
    d = S[S_DECL]
    k3 = S[S_DECLARED0 + d] | (S[S_CAPT0 + d] & (KQ[0] | KQ[1] | KQ[2] | KQ[3] | ACES)) << 8
    return k1, k2, k3


@hot
def _memo_find(memo_keys: np.ndarray, k1: int, k2: int, k3: int) -> tuple[int, bool]:
    """The slot of a key in the open-addressed memo (linear probing); whether it is there."""
    size = memo_keys.shape[0]
    h = np.uint64(k1) * np.uint64(0xBF58476D1CE4E5B9)
    h = (h ^ (h >> np.uint64(31)) ^ np.uint64(k2)) * np.uint64(0x94D049BB133111EB)
    h = (h ^ (h >> np.uint64(29)) ^ np.uint64(k3)) * np.uint64(0xBF58476D1CE4E5B9)
    slot = np.int64((h ^ (h >> np.uint64(32))) % np.uint64(size))
    for _ in range(size):
        if memo_keys[slot, 3] == 0:
            return slot, False
        if memo_keys[slot, 0] == k1 and memo_keys[slot, 1] == k2 and memo_keys[slot, 2] == k3:
            return slot, True
        slot = (slot + 1) % size
    raise MemoryError("exhaustive: the memo table is full")


@hot
def _moves_plain(S: np.ndarray, P: np.ndarray, codes: np.ndarray) -> int:
    """Every legal move in ascending code order, as the engine lists them."""
    seat = seat_after(S[S_LEADER], S[S_NPLAYED], P[P_NP])
    n = 0
    if S[S_NPLAYED] == 0:
        plain, declaring = legal_leads(S, P, seat)
        n = mask_to_list(plain, codes, 0, 0)
        n = mask_to_list(declaring, codes, n, DECLARE)
    else:
        n = mask_to_list(legal_follows(S, P, seat), codes, 0, 0)
    return n


@hot_call
def exhaustive(
    C: Solver, P: np.ndarray, S: np.ndarray, memo_keys: np.ndarray, memo_vals: np.ndarray
) -> int:
    """Plain minimax over every legal move (no window, no bound, no ordering, no cut).

    Exact values are memoised at trick starts in an open-addressed table
    (``memo_keys[:, 3]`` = 1 when used; a full table raises) under a key built
    without the pruned search's shortcuts. Slow: the check only.
    """
    set_root(C, S)
    d = 0
    ret = 0
    entering = True
    while True:
        if entering:
            T = C.stack[d]
            F = C.frame[d]
            F[F_SLOT] = -1
            settled = False
            if T[S_NPLAYED] == 0:
                if T[S_HAND0 + T[S_LEADER]] == 0:
                    settled = True
                    ret = 0
                else:
                    k1, k2, k3 = _memo_key(T, P)
                    slot, found = _memo_find(memo_keys, k1, k2, k3)
                    if found:
                        settled = True
                        ret = memo_vals[slot]
                    else:
                        F[F_SLOT] = slot
                        F[F_K1] = k1
                        F[F_K2] = k2
                        F[F_K3] = k3
            if not settled:
                F[F_N] = _moves_plain(T, P, C.moves[d])
                F[F_I] = 0
                F[F_MAX] = seat_after(T[S_LEADER], T[S_NPLAYED], P[P_NP]) == T[S_DECL]
                F[F_BEST] = -INF if F[F_MAX] else INF
                F[F_GAIN] = play_move(C, P, d, C.moves[d, 0])
                d += 1
                continue
            entering = False
        if d == 0:
            return ret
        d -= 1
        F = C.frame[d]
        v = F[F_GAIN] + ret
        F[F_BEST] = max(F[F_BEST], v) if F[F_MAX] else min(F[F_BEST], v)
        F[F_I] += 1
        if F[F_I] < F[F_N]:
            F[F_GAIN] = play_move(C, P, d, C.moves[d, F[F_I]])
            d += 1
            entering = True
            continue
        ret = F[F_BEST]
        slot = F[F_SLOT]
        if slot >= 0:
            memo_keys[slot, 0] = F[F_K1]
            memo_keys[slot, 1] = F[F_K2]
            memo_keys[slot, 2] = F[F_K3]
            memo_keys[slot, 3] = 1
            memo_vals[slot] = ret


__all__ = [
    "Solver",
    "arena_size",
    "declarer_total",
    "exhaustive",
    "gen_moves",
    "new_position",
    "probe",
    "root_codes",
    "root_moves",
    "root_probes",
    "search",
    "solve",
    "upper_bound",
    "workspace",
]
