"""The sampling player's worlds: deals of the cards a seat cannot see that agree with what it saw.

:func:`sample_world` deals one world for the card play, the contract and the concession
(what the seat knows is collected by :func:`_facts`: its hand, the cards played, the
suits a seat showed out of, declared marriages, the given cards and a shown talon where
it saw them, and what the auction showed: :func:`shown_cap`, :func:`bids_likely`);
:func:`_bid_world` deals one for the auction, the seat as the declarer. Every random
number comes from the deal's own pimc stream (:func:`_draw`).
"""

from __future__ import annotations

import numpy as np
from llvmlite import binding as _llvm
from numba import carray, cfunc, types

from sim.engine.actions import ACE_BIT, CARD_POINTS_TOTAL
from sim.engine.bidding import OPENING_BID, bid_cap, on_barrel, silenced
from sim.engine.bits import ACES, ALL_CARDS, KQ, lowest, popcount
from sim.engine.params import (
    P_CAP_BY_MARRIAGES,
    P_DISCARD_FACE_DOWN,
    P_NP,
    P_STEP,
)
from sim.engine.state import (
    FLAG_FORCED_AUCTION,
    NO_SUIT,
    S_CAPT0,
    S_CONTRACT,
    S_DECL,
    S_DECLARED0,
    S_FLAGS,
    S_FOREHAND,
    S_GIVE1,
    S_GIVE2,
    S_HAND0,
    S_LEADER,
    S_MAXBID0,
    S_MPTS0,
    S_NOT0,
    S_NPLAYED,
    S_PASSED,
    S_PILE0,
    S_PIMC_CTR,
    S_PLAYED,
    S_SPECIAL,
    S_STRAT0,
    S_TALON,
    S_TALON_OTHER,
    S_TALON_SHOWN,
    S_TC0,
    S_TIEBREAK,
    S_TRICK_NO,
    S_TRUMP,
    S_TRUMP_SETTER,
    S_UNDARK,
    S_WIN_BID,
    SPECIAL_NONE,
)
from sim.engine.strategies.discard import cheapest_of_hand
from sim.engine.strategies.hand_model import DEALT, declaring_value, hand_model
from sim.engine.strategies.hook import i64_ptr
from sim.engine.strategies.registry import (
    BIDS_BY_HEURISTIC_RULE,
    STRATEGIES,
)
from sim.engine.talon import lays_away
from sim.jit import body, hot, hot_call
from sim.rng import bounded, mix64

PIMC_SALT = np.uint64(0x50494D4357524C44)  # mixes the deal's tie-break sub-seed: own stream
MAX_RESAMPLE = 20  # worlds re-dealt (shown talon, auction) before one is kept anyway
# the auction's worlds are re-dealt more: a bid of 160 and more needs two marriages, which a
# uniform deal of the unseen cards gives that seat about one time in fifty
MAX_BID_RESAMPLE = 1000
MAX_READ_RESAMPLE = 200  # with pimc.read_bids: a pass at 105 rules out most strong hands
# how a heuristic bidder is read: by its bid_margin's default (its parameters are not seen)
OPPONENT_MARGIN = STRATEGIES["heuristic"].params["bid_margin"].default


@hot
def _draw(S: np.ndarray, n: int) -> int:
    """A uniform integer in ``[0, n)`` from the deal's pimc stream."""
    state = mix64(np.uint64(S[S_TIEBREAK]) ^ PIMC_SALT)
    k, ctr = bounded(state, S[S_PIMC_CTR], n)
    S[S_PIMC_CTR] = ctr
    return k


@hot
def _facts(S: np.ndarray, P: np.ndarray, me: int, known: np.ndarray, banned: np.ndarray) -> int:
    """What ``me`` knows of the other places: ``known[p]`` held, ``banned[p]`` not held.

    Places are the hand seats, and with two players place 2 is the set-aside talon
    (laying two cards away, §12: the unchosen musik and, to the defender, the cards
    laid away, which it reads as unseen; a shown musik's cards are read as kept).
    Returns the soft fact's cards: a shown talon's unplayed cards that a defender
    (discards face down) allows the other defender one of (0 when none).
    """
    NP = P[P_NP]
    decl = S[S_DECL]
    played = S[S_PLAYED]
    for p in range(3):
        known[p] = 0
        banned[p] = 0
    for s in range(NP):
        if s != me:
            banned[s] = S[S_NOT0 + s]
            declared = S[S_DECLARED0 + s]
            for suit in range(4):
                if declared >> suit & 1:
                    known[s] |= KQ[suit] & ~played
            if declared & ACE_BIT:
                known[s] |= ACES & ~played
    # the declarer knows what it gave; so does everyone when the cards lie face up,
    # and with two players the only opponent, who got the only card
    gives_known = me == decl or not P[P_DISCARD_FACE_DOWN] or NP == 2
    lay = lays_away(P)  # two players laying two cards away (§12): in no hand, face down
    if gives_known and not lay:
        for j in range(1, NP):
            card = S[S_GIVE1 + j - 1]
            if card >= 0 and not played >> card & 1:
                known[(decl + j) % NP] |= np.int64(1) << card
    soft = np.int64(0)
    if me != decl and S[S_TALON_SHOWN]:
        talon = S[S_TALON] & ~played & ~S[S_HAND0 + me]
        if lay:  # kept or laid away, unseen: read as kept unless the declarer showed not
            talon &= ~banned[decl]
        elif gives_known:
            for j in range(1, NP):
                card = S[S_GIVE1 + j - 1]
                if card >= 0:
                    talon &= ~(np.int64(1) << card)
            known[decl] |= talon
        else:
            soft = talon
    hand = S[S_HAND0 + me]
    for p in range(3):
        known[p] &= ~hand  # never what I hold (a card I was given)
    return soft


@hot
def played_by(S: np.ndarray, P: np.ndarray, seat: int) -> int:
    """The cards ``seat`` has played this deal (public: the tricks lie in order).

    The declarer leads the first trick and each trick's winner (who captured its
    first card) the next.
    """
    NP = P[P_NP]
    out = np.int64(0)
    leader = S[S_DECL]
    for t in range(S[S_TRICK_NO]):
        first = S[S_PILE0 + t * NP]
        for j in range(NP):
            if (leader + j) % NP == seat:
                out |= np.int64(1) << S[S_PILE0 + t * NP + j]
        for s in range(NP):
            if S[S_CAPT0 + s] >> first & 1:
                leader = s
    for j in range(S[S_NPLAYED]):
        if (S[S_LEADER] + j) % NP == seat:
            out |= np.int64(1) << S[S_TC0 + j]
    return out


@hot
def bid_shown_cap(S: np.ndarray, P: np.ndarray, seat: int) -> int:
    """The least bid cap ``seat``'s bids so far show its dealt hand allows (0: none shown).

    Under ``bid.cap_by_marriages`` a bid above 120 needs marriages worth the excess, and
    an undarkening a marriage.
    """
    if not P[P_CAP_BY_MARRIAGES]:
        return 0
    need = 0
    bid = S[S_MAXBID0 + seat]
    if bid > CARD_POINTS_TOTAL:
        need = bid
    if S[S_UNDARK] == seat:
        need = max(need, CARD_POINTS_TOTAL + 1)
    return need


@hot
def shown_cap(S: np.ndarray, P: np.ndarray, seat: int) -> int:
    """The least bid cap (``bid.cap_by_marriages``) the auction shows ``seat``'s cards allow.

    Its highest bid needed a dealt hand allowing it, and an undarkening a marriage in
    it (a cap above 120); the declarer's contract above its winning bid needed the
    eight cards it kept to allow it. 0 when the auction shows nothing (or bids are not
    capped). Compare with :func:`sim.engine.bidding.bid_cap` of the cards the seat
    held then (what it holds plus what it has played: for a defender that also counts
    the card it was given, so the test is necessary, never too strict).
    """
    need = bid_shown_cap(S, P, seat)
    if P[P_CAP_BY_MARRIAGES] and seat == S[S_DECL]:
        # its bid capped its dealt seven, which the kept eight need not contain: only
        # a contract raised after the talon speaks of the cards it plays
        need = S[S_CONTRACT] if S[S_CONTRACT] > S[S_WIN_BID] else 0
    return need


@hot
def bids_agree(hand: int, played: int, need: int, P: np.ndarray) -> bool:
    """Whether a seat holding ``hand``, having played ``played``, agrees with its bids.

    ``need`` is :func:`shown_cap` of the seat (0: the auction showed nothing).
    """
    return need == 0 or bid_cap(hand | played, P) >= need


@hot
def reads_bids(S: np.ndarray, P: np.ndarray) -> bool:
    """Whether this deal's auction is read by the heuristic's rule (``pimc.read_bids``).

    Three hands, an ordinary deal (no dark or golden one, no undarkening), nobody on
    the barrel (whose raises and keep-outs follow other rules) and an auction the
    players bid themselves (not :func:`sim.engine.declarer.forced_auction`'s).
    """
    if P[P_NP] != 3 or S[S_SPECIAL] != SPECIAL_NONE or S[S_UNDARK] >= 0:
        return False
    if S[S_FLAGS] & FLAG_FORCED_AUCTION:  # every hand as the declarer's: bids not chosen
        return False
    for s in range(3):
        if on_barrel(S, s):
            return False
    return True


@hot
def bids_likely(dealt: int, S: np.ndarray, P: np.ndarray, seat: int) -> bool:
    """Whether a bidder by the heuristic's rule, dealt ``dealt``, bids as ``seat`` did.

    The heuristic raises to a level ``b`` only when ``b (2 p - 1)``
    (:func:`~sim.engine.strategies.hand_model.declaring_value`) reaches its
    ``bid_margin`` (its default, :data:`OPPONENT_MARGIN`; a jump needs ``p`` of 0.8,
    which implies it), ``p`` the chance its hand model gives the dealt hand of making
    ``b``; so a seat whose highest bid is ``b`` holds such a hand. A seat that passed at
    its first turn with the bid at 100 (the middle seat, or the last when the middle
    passed too) holds a hand that does not reach the margin at 105. Seats of other
    strategies (the players whose record says ``bids_by_heuristic_rule``; ``pimc``'s
    bidding options are not seen) and silenced seats show nothing. Call only where
    :func:`reads_bids`.
    """
    strat = S[S_STRAT0 + seat]
    if not BIDS_BY_HEURISTIC_RULE >> strat & 1:
        return True
    if silenced(S, P, seat):
        return True
    b = S[S_MAXBID0 + seat]
    if b > OPENING_BID:
        mu, sigma = hand_model(dealt, P, DEALT)
        return declaring_value(mu, sigma, b) >= OPPONENT_MARGIN
    if b == 0 and S[S_PASSED] >> seat & 1:
        middle = (S[S_FOREHAND] + 1) % 3
        if seat == middle or (seat == (middle + 1) % 3 and S[S_MAXBID0 + middle] == 0):
            mu, sigma = hand_model(dealt, P, DEALT)
            return declaring_value(mu, sigma, OPENING_BID + P[P_STEP]) < OPPONENT_MARGIN
    return True


@hot
def _dealt_parts(S: np.ndarray, P: np.ndarray, me: int, seat: int) -> tuple[int, int]:
    """What turns a defender's hand in a world into its dealt hand: ``(played, gift)``.

    Its dealt hand is what it holds and has played, less the card the declarer gave it
    (``gift``, 0 before the gift). ``played`` is -1 when it is not known: ``seat`` is the
    declarer (its dealt hand is not rebuilt), or ``me`` does not know the gift.
    """
    decl = S[S_DECL]
    if seat == decl:
        return -1, 0
    NP = P[P_NP]
    card = S[S_GIVE1 + (seat - decl + NP) % NP - 1]
    gift = np.int64(0)
    if card >= 0:
        if not (me == decl or not P[P_DISCARD_FACE_DOWN]):
            return -1, 0
        gift = np.int64(1) << card
    return played_by(S, P, seat), gift


@hot
def _world_bids_likely(
    S: np.ndarray, P: np.ndarray, seat: int, hand: int, played: int, gift: int
) -> bool:
    """:func:`bids_likely` of a defender holding ``hand`` in a world (:func:`_dealt_parts`)."""
    return played < 0 or bids_likely((hand | played) & ~gift, S, P, seat)


def _sample_world(
    S: np.ndarray,
    P: np.ndarray,
    me: int,
    T: np.ndarray,
    scratch: np.ndarray,
    open_cards: bool = False,
    read: bool = False,
) -> None:
    """Write into ``T`` (a copy of ``S``) one world consistent with what ``me`` knows.

    ``open_cards`` (the ``cheater``) copies the true deal instead. ``read``
    (``pimc.read_bids``): the defenders' dealt hands also agree with their bids as the
    heuristic's rule reads them (:func:`bids_likely`).

    ``scratch`` (int64[8]) holds the facts. Only ``me``'s hand, the sizes of the other
    hands and public facts are read: the other seats' cards in ``S`` are never looked at.
    """
    NP = P[P_NP]
    if open_cards:  # the cheater: the one true deal
        for i in range(len(T)):
            T[i] = S[i]
        return
    known = scratch[0:3]
    banned = scratch[3:6]
    soft = _facts(S, P, me, known, banned)
    # the places to fill (two players: the set-aside talon is place 2)
    place = scratch[6:8]
    k = 0
    for s in range(NP):
        if s != me:
            place[k] = s
            k += 1
    if NP == 2:
        place[1] = 2
    size0 = popcount(S[S_HAND0 + place[0]])  # the rest of the pool is place 1's
    pool = ALL_CARDS & ~S[S_HAND0 + me] & ~S[S_PLAYED]
    lay = lays_away(P)
    if lay and me == S[S_DECL]:  # the cards it laid away are no one's to deal
        pool &= ~S[S_CAPT0 + me]
    for i in range(len(T)):
        T[i] = S[i]
    other_defender = place[0] if place[0] != S[S_DECL] else place[1]
    need0 = shown_cap(S, P, place[0])  # what the auction showed of the other hands
    need1 = shown_cap(S, P, place[1]) if NP == 3 else 0
    played0 = played_by(S, P, place[0]) if need0 else 0  # the same in every attempt
    played1 = played_by(S, P, place[1]) if need1 else 0
    read = read and reads_bids(S, P)
    read_played0, gift0 = _dealt_parts(S, P, me, place[0]) if read else (-1, 0)
    read_played1, gift1 = _dealt_parts(S, P, me, place[1]) if read and NP == 3 else (-1, 0)
    for _attempt in range(MAX_READ_RESAMPLE if read else MAX_RESAMPLE):
        a = known[place[0]] & pool & ~known[place[1]]
        b = known[place[1]] & pool & ~a
        free = pool & ~a & ~b
        # forced by what a place shows it lacks
        only_b = free & banned[place[0]] & ~banned[place[1]]
        only_a = free & banned[place[1]] & ~banned[place[0]]
        a |= only_a
        b |= only_b
        free &= ~(only_a | only_b)
        room = size0 - popcount(a)
        n_free = popcount(free)
        if room < 0 or room > n_free:  # facts that do not add up: split what is left
            room = max(0, min(n_free, size0 - popcount(a)))
        # choose `room` of the free cards for place 0, uniformly (selection sampling)
        m = free
        left = n_free
        need = room
        while m:
            c = lowest(m)
            m &= m - 1
            if need > 0 and _draw(S, left) < need:
                a |= np.int64(1) << c
                need -= 1
            else:
                b |= np.int64(1) << c
            left -= 1
        if soft and popcount(soft & (a if place[0] == other_defender else b)) > 1:
            continue  # the other defender got two cards of the shown talon: deal again
        if not bids_agree(a, played0, need0, P):
            continue  # a hand its own bids would not have allowed: deal again
        if not bids_agree(b, played1, need1, P):
            continue
        if not _world_bids_likely(S, P, place[0], a, read_played0, gift0):
            continue  # a hand that would not have bid as its seat did: deal again
        if not _world_bids_likely(S, P, place[1], b, read_played1, gift1):
            continue
        break
    T[S_HAND0 + place[0]] = a
    if lay:  # place 1: the unchosen musik (nobody's), and to a defender the cards laid away
        decl = S[S_DECL]
        if me != decl:
            n_laid = (S[S_GIVE1] >= 0) + (S[S_GIVE2] >= 0)
            laid = _draw_subset(S, b, n_laid)
            T[S_CAPT0 + decl] = (S[S_CAPT0 + decl] & S[S_PLAYED]) | laid
            k = 0
            m = laid
            while m:
                T[S_GIVE1 + k] = lowest(m)
                m &= m - 1
                k += 1
    elif NP == 2:
        T[S_TALON_OTHER] = b
    else:
        T[S_HAND0 + place[1]] = b


@hot
def _draw_subset(S: np.ndarray, pool: int, k: int) -> int:
    """``k`` cards of ``pool`` chosen uniformly (selection sampling)."""
    out = np.int64(0)
    left = popcount(pool)
    m = pool
    while m and k > 0:
        c = lowest(m)
        m &= m - 1
        if _draw(S, left) < k:
            out |= np.int64(1) << c
            k -= 1
        left -= 1
    return out


@hot
def _bid_world(
    S: np.ndarray,
    P: np.ndarray,
    me: int,
    T: np.ndarray,
    open_cards: bool,
    read: bool = False,
) -> None:
    """A deal as ``me`` sees it in the auction, with ``me`` the declarer, into ``T``.

    Its own cards; the talon and the other hands dealt uniformly from the rest, dealt
    again (up to ``MAX_BID_RESAMPLE`` times) while a hand does not allow its seat's
    bids (:func:`bid_shown_cap`) or, with ``read``, would not have made them by the
    heuristic's rule (:func:`bids_likely`); it takes the talon (two players: the first, as the
    heuristic does) and gives cards away as the heuristic does; the play about to start.
    """
    NP = P[P_NP]
    hand = S[S_HAND0 + me]
    pool = ALL_CARDS & ~hand
    for i in range(len(T)):
        T[i] = S[i]
    if open_cards:  # the cheater: the true talon (two players: the first) and hands
        talon = S[S_TALON]
        set_aside = np.int64(0)
        if NP == 2:  # before the pick: the cards in no hand and not in the first talon
            set_aside = pool & ~talon & ~S[S_HAND0 + 1 - me]
    else:
        read = read and reads_bids(S, P)
        unseen = pool
        talon = np.int64(0)
        set_aside = np.int64(0)
        for _attempt in range(MAX_BID_RESAMPLE):  # hands their bids allow (bid.cap_by_marriages)
            pool = unseen
            talon = _draw_subset(S, pool, 2 if NP == 2 else 3)
            pool &= ~talon
            if NP == 2:
                set_aside = _draw_subset(S, pool, 2)
                pool &= ~set_aside
            agree = True
            for j in range(1, NP):
                s = (me + j) % NP
                size = popcount(S[S_HAND0 + s])
                h = pool if j == NP - 1 else _draw_subset(S, pool, size)
                pool &= ~h
                T[S_HAND0 + s] = h
                if not bids_agree(h, 0, bid_shown_cap(S, P, s), P):
                    agree = False
                elif read and not bids_likely(h, S, P, s):
                    agree = False
            if agree:
                break
    hand |= talon
    lay = lays_away(P)
    laid = np.int64(0)
    for j in range(1, 3 if lay else NP):
        card = cheapest_of_hand(hand, P)  # the heuristic's give (laying away: two laid)
        hand &= ~(np.int64(1) << card)
        if lay:
            laid |= np.int64(1) << card
            T[S_GIVE1 + j - 1] = card
        else:
            T[S_HAND0 + (me + j) % NP] |= np.int64(1) << card
    T[S_HAND0 + me] = hand
    T[S_TALON_OTHER] = 0 if lay else set_aside  # laying away: the other musik is nobody's
    T[S_TALON] = talon  # the world's talon: T is a whole deal (the solver does not read it)
    T[S_DECL] = me
    T[S_PLAYED] = 0
    T[S_TRUMP] = NO_SUIT
    T[S_TRUMP_SETTER] = -1
    for s in range(3):
        T[S_CAPT0 + s] = 0
        T[S_MPTS0 + s] = 0
        T[S_DECLARED0 + s] = 0
        T[S_NOT0 + s] = 0
    T[S_CAPT0 + me] = laid  # laying away: the declarer's points from the start


# --- the sampler behind a C symbol -------------------------------------------------------
# Some fifteen compiled functions of the sampling player deal worlds. Linked into each
# (inlined, or as a call), the sampler's code was optimised again in every one of them,
# about 7 s each: half the compiled-code cache's time from empty. Compiled once here as
# a C callback, registered under a symbol name before any of them is compiled or loaded,
# they call it by that name and link nothing (``draw_world``); the same worlds, the same
# speed. :func:`sample_world` is the same code as a plain compiled function (tests).
sample_world = hot_call(_sample_world)
_sample_world_body = body(_sample_world)
_WORLD_SIG = types.void(*([types.int64] * 11))
_WORLD_SYMBOL = "thousand_pimc_sample_world"


def _sample_world_entry(  # type: ignore[no-untyped-def]
    s, ns, p, np_, me, t, nt, sc, nsc, open_cards, read
):
    """:func:`sample_world` on arrays given by address and length (the C callback)."""
    _sample_world_body(
        carray(i64_ptr(s), (ns,)), carray(i64_ptr(p), (np_,)), me, carray(i64_ptr(t), (nt,)),
        carray(i64_ptr(sc), (nsc,)), open_cards != 0, read != 0,
    )  # fmt: skip


_llvm.add_symbol(
    _WORLD_SYMBOL,
    cfunc(_WORLD_SIG, cache=True, error_model="numpy")(_sample_world_entry).address,
)
_sample_world_c = types.ExternalFunction(_WORLD_SYMBOL, _WORLD_SIG)


@hot
def draw_world(
    S: np.ndarray,
    P: np.ndarray,
    me: int,
    T: np.ndarray,
    scratch: np.ndarray,
    open_cards: bool,
    read: bool,
) -> None:
    """:func:`sample_world` through its C callback: what the compiled callers call."""
    _sample_world_c(  # type: ignore[call-overload]
        S.ctypes.data, S.shape[0], P.ctypes.data, P.shape[0], me, T.ctypes.data, T.shape[0],
        scratch.ctypes.data, scratch.shape[0], 1 if open_cards else 0, 1 if read else 0,
    )  # fmt: skip
