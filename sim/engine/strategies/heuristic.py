"""The ``heuristic`` strategy: the fast scripted player, compiled.

It sees only what a player at the table sees: its own hand, the cards played so
far and who showed out of which suit, the current trick, trump, declarer, bids and
contract, the talon when it was shown, the game scores and who sits on the barrel,
and as a defender the card the declarer gave the other defender when the discards
lie face up (``talon.discard_face_down`` false). It never reads another seat's hand
(``tests/test_players_api.py`` swaps hidden cards and checks its choices do not
change).

**The hand model.** Every bid, contract and concession reads one measured model of
what a hand takes as the declarer: a linear model of the deal total on the hand's
features (aces; tens with their ace, guarded, bare; the best marriage and the others,
each with and without an entry to declare it; the trump length; lone kings and
queens; voids; card points) with a normal spread, ``P(total >= L) = 1 - Phi((L -
0.5 - mu) / sigma)``. Two fits: on the 7 (10 with two players) cards dealt, the
talon and discard still to come (for bids), and on the 8 (11) cards kept after the
discard (for the contract and the concession). ``training/heuristic_fit.py``
measured the weights below (classic and two-player rules, this player at every seat,
every dealt hand played as the declarer's) and prints them again.

**Decisions.**

* bid: raise while the expected score of declaring at the next level, ``L (2p - 1)``
  with ``p`` from the 7-card model, is at least ``bid_margin``; with ``bid.jumps`` a
  first raise may go straight to the highest level the hand makes in 80 % of deals.
  On the barrel it bids at least the amount that wins there (a failed contract costs
  nothing there); against an opponent on the barrel still bidding, it bids on while
  ``p >= 0.3``.
* contract: the level with the best expected score ``L (2p - 1)`` (8-card model); on
  the barrel the amount that wins there when it is open, never less.
* concession: only when the expected score of conceding (minus the contract, or 0
  with ``rospis.no_subtract``, and the opponents' share) beats playing (``L (2p -
  1)`` and the opponents' card points) by ``concede_margin``; never on the barrel.
* discard: the card that costs least (points, an ace, a guarded ten, a marriage kept
  together); a lone king or queen whose partner an opponent holds costs half its
  marriage, since it may complete that opponent's marriage.
* card play: as declarer, a marriage that cannot lose its queen (no higher card of
  the suit left outside) is declared before one that can; a second marriage that
  would switch trump away from a longer trump suit of its own waits until the
  opponents' trumps are gone; as a defender, with the talon shown, it does not lead
  low into a suit whose top card the talon gave the declarer.

Parameters (``--param heuristic.NAME=VALUE``):

* ``aggression`` (0.0): the model's expected total is scaled by ``1 + aggression``.
* ``concede_margin`` (0): concede only when conceding is expected to score this many
  points more than playing.
* ``reshuffle_below`` (90), ``talon_hope`` (12), ``dark_behind`` (400): reshuffle
  demands, undarkening and dark play as :mod:`sim.engine.strategies.heuristic_v1`
  decides them.
* ``bid_margin`` (35): the expected score of declaring a level must reach this to
  raise to it (passing is worth about this much as a defender).
"""

from __future__ import annotations

import numpy as np

from sim.engine.actions import DECLARE, PASS, Decision
from sim.engine.bidding import on_barrel
from sim.engine.bits import ACES, KQ, SUIT_BITS, lowest, play_masks, popcount
from sim.engine.params import (
    P_JUMPS,
    P_MV_S,
    P_NP,
    P_ROSPIS_NO_SUBTRACT,
    P_STEP,
)
from sim.engine.scoring import concession_share
from sim.engine.state import (
    NO_SUIT,
    S_CONTRACT,
    S_DECL,
    S_HAND0,
    S_NPLAYED,
    S_PLAYED,
    S_TALON,
    S_TALON_SHOWN,
    S_TRUMP,
    S_TRUMP_SETTER,
    S_VOID0,
)
from sim.engine.strategies.barrel import (
    barrel_contract,
    barrel_raise,
    barrel_rival_bidding,
)
from sim.engine.strategies.basics import (
    ABOVE,
    follow_card,
    longest_suit_low,
    paired_marriages,
    partner_card,
    sure_winner,
)
from sim.engine.strategies.bomb import (
    SAVED,
    before_discard,
    discards_made,
    give_own,
    keep,
    put_back,
)
from sim.engine.strategies.discard import cheapest_of_hand
from sim.engine.strategies.hand_model import DEALT, KEPT, declaring_value, hand_model, p_make
from sim.engine.strategies.heuristic_v1 import heuristic_v1_choose
from sim.jit import hot, hot_call, stack_floats

AGGRESSION, CONCEDE_MARGIN, RESHUFFLE_BELOW, TALON_HOPE, DARK_BEHIND, BID_MARGIN = range(6)


# --- card play ---------------------------------------------------------------------------
@hot
def _outside(seat: int, S: np.ndarray, P: np.ndarray) -> int:
    """Cards that could beat ours: unseen and unplayed.

    Not the card the declarer gave the other defender when the discards lie face up
    (it wins for us).
    """
    hand = S[S_HAND0 + seat]
    return ~(hand | S[S_PLAYED]) & 0xFFFFFF & ~partner_card(seat, S, P)


@hot
def _opponent_voids(seat: int, S: np.ndarray, P: np.ndarray) -> int:
    """Suit bits the other seats have shown out of."""
    voids = 0
    for o in range(P[P_NP]):
        if o != seat:
            voids |= S[S_VOID0 + o]
    return voids


@hot
def _marriage_lead(
    seat: int,
    S: np.ndarray,
    P: np.ndarray,
    plain: int,
    declaring: int,
    outside: int,
    trumps_out: int,
    voids: int,
) -> int:
    """The declaration to lead, or -1 to wait (see the module's card-play rules).

    ``outside``, ``trumps_out`` and ``voids`` are the lead's view (:func:`_choose_lead`).
    """
    if declaring & ACES:
        return DECLARE + lowest(declaring & ACES)
    hand = S[S_HAND0 + seat]
    trump = S[S_TRUMP]
    best = -1
    best_key = -1
    for s in range(4):
        if declaring & KQ[s] == 0:
            continue
        if (
            trump != NO_SUIT
            and trump != s
            and S[S_TRUMP_SETTER] == seat
            and trumps_out
            and popcount(hand & SUIT_BITS[trump]) > popcount(hand & SUIT_BITS[s])
            and plain & ~(KQ[s] | SUIT_BITS[trump])
        ):
            continue  # keep the longer trump until the opponents' trumps are gone
        queen = 6 * s + 2
        safe = outside & ABOVE[queen] & ~KQ[s] == 0
        if trump != NO_SUIT and trump != s and trumps_out and voids >> s & 1:
            safe = False
        key = P[P_MV_S + s] + (1000 if safe else 0)
        if key > best_key:
            best_key = key
            best = s
    if best < 0:
        return -1
    return DECLARE + 6 * best + 2


@hot
def _choose_lead(seat: int, S: np.ndarray, P: np.ndarray, plain: int, declaring: int) -> int:
    hand = S[S_HAND0 + seat]
    trump = S[S_TRUMP]
    outside = _outside(seat, S, P)
    trumps_out = 0 if trump == NO_SUIT else outside & SUIT_BITS[trump]
    voids = _opponent_voids(seat, S, P)
    if declaring:
        code = _marriage_lead(seat, S, P, plain, declaring, outside, trumps_out, voids)
        if code >= 0 or plain == 0:
            return code if code >= 0 else DECLARE + lowest(declaring)
    # marriages still held together: not led as plain cards while others will do
    paired = paired_marriages(hand)
    # a sure winner: top of its suit and not likely to be trumped; richest first
    pick = sure_winner(plain & ~paired if plain & ~paired else plain, outside, trump,
                       trumps_out, voids)  # fmt: skip
    if pick >= 0:
        return pick
    # a defender who saw the talon knows some of the declarer's cards
    known = 0
    decl = S[S_DECL]
    if S[S_TALON_SHOWN] and seat != decl:
        known = S[S_TALON] & outside
    # otherwise a low card of the longest non-trump suit, keeping marriages together,
    # not into a suit whose top card the declarer is known to hold
    return longest_suit_low(plain, hand, trump, paired, outside, known, pick)


# --- bids, contract, concession ----------------------------------------------------------
@hot
def _bid(seat: int, S: np.ndarray, P: np.ndarray, lo: int, count: int, params: np.ndarray) -> int:
    """Raise to ``lo`` (or jump higher), or pass."""
    if count == 0:
        return PASS
    mu, sigma = hand_model(S[S_HAND0 + seat], P, DEALT)
    mu *= 1.0 + params[AGGRESSION]
    step = P[P_STEP]
    if barrel_raise(seat, S, P, lo):
        return lo
    bid = declaring_value(mu, sigma, lo) >= params[BID_MARGIN]
    if not bid and barrel_rival_bidding(seat, S, P):  # keep it out
        bid = p_make(mu, sigma, lo) >= 0.3
    if not bid:
        return PASS
    k = 0
    if P[P_JUMPS]:  # straight to the level the hand makes in 80 % of deals
        while k + 1 < count and p_make(mu, sigma, lo + (k + 1) * step) >= 0.8:
            k += 1
    return lo + k * step


@hot
def _contract(
    seat: int, S: np.ndarray, P: np.ndarray, lo: int, count: int, params: np.ndarray
) -> int:
    """The level with the best expected score; on the barrel the one that wins there."""
    mu, sigma = hand_model(S[S_HAND0 + seat], P, KEPT)
    mu *= 1.0 + params[AGGRESSION]
    step = P[P_STEP]
    on_it = barrel_contract(seat, S, P, lo, count)
    if on_it:
        return on_it
    best = lo
    best_ev = -1e9
    for k in range(count):
        level = lo + k * step
        ev = level * (2.0 * p_make(mu, sigma, level) - 1.0)
        if ev <= best_ev:
            break  # L (2p - 1) rises to one peak and falls from there
        best_ev = ev
        best = level
    return best


@hot
def _concede(seat: int, S: np.ndarray, P: np.ndarray, params: np.ndarray) -> int:
    """1 when conceding is expected to score more than playing (see the module).

    At the bomb (``rospis.when = "talon"``: the talon still in hand) the hand judged
    is the one its own discard (the cheapest cards) would leave.
    """
    if not before_discard(S, P, seat):
        return _concede_kept(seat, S, P, params)
    saved = stack_floats(SAVED)
    keep(S, saved)
    for j in range(1, discards_made(P) + 1):
        give_own(S, P, j, cheapest_of_hand(S[S_HAND0 + seat], P))
    answer = _concede_kept(seat, S, P, params)
    put_back(S, saved)
    return answer


@hot
def _concede_kept(seat: int, S: np.ndarray, P: np.ndarray, params: np.ndarray) -> int:
    """:func:`_concede` on the hand kept after the discard."""
    if on_barrel(S, seat):
        return 0
    level = S[S_CONTRACT]
    mu, sigma = hand_model(S[S_HAND0 + seat], P, KEPT)
    mu *= 1.0 + params[AGGRESSION]
    p = p_make(mu, sigma, level)
    others = 1 if P[P_NP] == 2 else 2
    play = level * (2.0 * p - 1.0) - max(0.0, 120.0 - mu) / others
    opp_get = concession_share(level, P)
    concede = (0.0 if P[P_ROSPIS_NO_SUBTRACT] else -float(level)) - opp_get
    return int(concede - play > params[CONCEDE_MARGIN])


# --- the strategy's entry points (sim.engine.choose) -------------------------------------
@hot_call
def heuristic_play(seat: int, S: np.ndarray, P: np.ndarray, plain: int, declaring: int) -> int:
    """The heuristic's card (action code) for a PLAY decision given by its legal masks."""
    if S[S_NPLAYED] == 0:
        return _choose_lead(seat, S, P, plain, declaring)
    return follow_card(seat, S, P, plain)


@hot_call
def heuristic_range(
    kind: int,
    seat: int,
    S: np.ndarray,
    P: np.ndarray,
    lo: int,
    count: int,
    params: np.ndarray,
) -> int:
    """The heuristic's BID or CONTRACT: amounts ``lo, lo + step, ...`` (``count``)."""
    if kind == Decision.BID:
        return _bid(seat, S, P, lo, count, params)
    return _contract(seat, S, P, lo, count, params)


@hot_call
def heuristic_choose(
    kind: int,
    seat: int,
    S: np.ndarray,
    P: np.ndarray,
    legal: np.ndarray,
    n: int,
    params: np.ndarray,
    tiebreak: np.uint64,
) -> int:
    """The heuristic's action for one decision (``legal[:n]`` ascending)."""
    if kind == Decision.PLAY:
        plain, declaring = play_masks(legal, n)
        return heuristic_play(seat, S, P, plain, declaring)
    if kind == Decision.BID:
        return _bid(seat, S, P, legal[1], n - 1, params)
    if kind == Decision.CONTRACT:
        return _contract(seat, S, P, legal[0], n, params)
    if kind == Decision.DISCARD:
        return cheapest_of_hand(S[S_HAND0 + seat], P)  # the legal gives: the whole hand
    if kind == Decision.CONCEDE:
        return _concede(seat, S, P, params)
    # reshuffle demands, dark play, the blind talon pick and a named trump: heuristic_v1's
    return heuristic_v1_choose(kind, seat, S, P, legal, n, params, tiebreak)
