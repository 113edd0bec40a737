"""The sampling player ``pimc``: perfect-information Monte Carlo over the open-card solver.

At a decision it deals the cards it cannot see in ``worlds`` ways consistent with
what it has seen (:func:`sample_world`), solves each world with every card face up
(:mod:`sim.engine.search`, the engine's own play steps) and takes the action that
does best over the same worlds:

* **card play**: the declarer takes the move that reaches the contract in the most
  worlds, a defender the one that lets it in the fewest (null-window probes at the
  points the declarer still needs); ties go to the best mean open-card total (the
  declarer's highest; a defender's lowest, less the value of the marriage the move
  declares when it scores for the defender), then to the lowest code. The means are
  taken over the worlds solved within ``TIE_NODES`` search nodes (from the fourth
  trick on, all of them; in the first two tricks the budget usually runs out after a
  few worlds: exact totals of full deals cost 10^4-10^6 nodes a world), each total
  probed from the nearest one known (:func:`~sim.engine.search.exact` with a guess), and
  with none solved the tie goes to the solver's move ordering. (A budget of 300,000
  nodes cost 1.7x the time of today's 100,000 with one ``pimc`` seat; against it,
  in paired duels with ``heuristic`` (classic, 1,000 deals), it measured -0.8
  [-1.6, +0.05] points per deal on seed 101, where the budget was chosen, and -0.4
  [-1.2, +0.4] on seed 202.)
* **contract** (after the discard): the amount with the best expected deal score
  over the worlds' open-card totals (``+c`` made, ``-c`` failed), each world probed
  at the contracts' targets by bisection;
* **concession**: conceded when the expected score of playing is below the
  concession's (``rospis.no_subtract``: 0; otherwise minus the contract, so a player
  who pays the contract either way plays on).

* **discard** (``pimc.discard`` 1, the default; 0: the heuristic's): of the
  ``DISCARD_CANDIDATES`` (5) cards the heuristic would rather give away, the one whose
  best contract over the sampled worlds has the best expected deal score
  (:func:`pimc_discard`). Paired against the heuristic's discard (duels with
  ``heuristic``, classic): +2.12 [0.66, 3.59] points per deal on seed 301 (1,000
  deals, where it was tried), +3.20 [2.06, 4.35] on seed 8181 (2,000 deals); weighing
  the 9 cheapest instead of 5, +0.30 [-0.27, +0.87] more on seed 301: kept at 5.

* **bidding**, the heuristic's unless one of two options is set:

  - ``pimc.bid`` 1 (:func:`pimc_bid_sampled`): in ``bid_worlds`` deals of the unseen
    cards that agree with the auction (a seat that bid above 120 under
    ``bid.cap_by_marriages`` holds the marriages for it), the hand takes the talon,
    gives cards away as the heuristic does and finds, cards face up, the highest
    contract it makes with ``bid_bias`` points to spare; it raises when declaring is
    expected to score at least ``bid_margin``. Paired against the heuristic's bidding
    (seed 301, 1,000 deals, 40 worlds, margin 35): bias 0 / 10 / 20: +0.58 [-0.55,
    +1.71] / +0.43 [-0.61, +1.48] / -0.04 [-1.12, +1.03] points per deal; bias 0 and
    margin 15: +0.37 [-0.91, +1.66]: no measurable gain, so it is off by default.
  - ``pimc.bid_make`` above 0 (:func:`pimc_bid`): it raises when the hand makes the
    next level in at least that share of ``worlds`` such deals. Measured (classic,
    against ``heuristic_v1``, 600 deals, seed 1, worlds 10): +15.1 [11.6, 18.6] points
    per deal at 0.5, against +16.9 [13.7, 20.1] bidding as the heuristic; paired
    against the heuristic's bidding on seed 301 at 0.7: +0.77 [-0.34, +1.88].

Reshuffle demands, the talon pick, the trump name and dark play are the heuristic's
(:mod:`sim.engine.strategies.heuristic`, its parameters in the same slots).

**What a world keeps** (the information set of the seat deciding): its own hand; the
cards played; each seat's hand size; the cards every seat has shown it lacks
(``S_NOT``: voids, and what ``play.must_trump`` and ``play.must_beat`` reveal); the
unplayed partner of every declared marriage (and the other aces of an ace marriage)
in the declarer of it; the cards given at the discard when they lie face up (or when
the seat gave them); a shown talon's cards in the declarer's hand (with the discards
face down, a defender allows the other defender one of them); with two players the
set-aside talon, which nobody has seen; and what the auction showed (``bid.cap_by_marriages``:
a seat that bid above 120 held marriages worth the excess, one that undarkened a
marriage, and a declarer that raised its contract after the talon kept them:
:func:`shown_cap`, tested on what the seat holds and has played). Cards forced by these
facts are placed first; the rest are split uniformly at random, and a world whose
hands the auction rules out (or that gives the other defender two cards of a shown
talon) is dealt again, up to ``MAX_RESAMPLE`` times: so every world consistent with
the facts is equally likely.

**Reading the auction** (``pimc.read_bids`` 1, the default; 0: the marriages alone): the
bids of a seat that bids by the heuristic's rule (``heuristic``, ``strong``, ``pimc``)
also say something of its hand short of a marriage: it raised to ``b`` only if the
heuristic's hand model of its dealt hand expected declaring ``b`` to score at least 35
(the heuristic's ``bid_margin`` default), and a seat that passed at its first turn with
the bid at 100 did not expect that at 105 (:func:`bids_likely`). Each world is dealt
again (up to ``MAX_READ_RESAMPLE`` times) until every defender's dealt hand (what it
holds and has played, less the card the declarer gave it, where the deciding seat knows
it) agrees; in the auction (``pimc.bid``) the other seats' dealt hands. Only in ordinary
deals of three hands with nobody on the barrel (:func:`reads_bids`); the declarer's own
hand is read by the hard facts alone. Paired against ``pimc`` without it (duels with
``heuristic``, classic): +1.10 [0.17, 2.04] points per deal on seed 301 (1,000 deals,
where it was tried first), +0.43 [-0.31, +1.16] on seed 8282 and -0.13 [-0.84, +0.58] on
seed 9191 (2,000 deals each); all three +0.34 [-0.11, +0.79], ``margin_diff`` (which
counts the defence) +0.63 [0.08, 1.19]: kept on, for worlds that agree with the auction,
not for a measured gain in the own-seat score.

The three entry points run with numba's reference counting (plain ``njit``, not the
engine's ``hot``): they take the solver's views out of the workspace's one array.

**Randomness** comes from the deal's own stream: the tie-break sub-seed of the deal
mixed with a constant, drawn by the counter ``S_PIMC_CTR``; so a run is the same
whatever the chunks and workers, and the worlds of one decision are re-dealt exactly
(the counter is rewound) when ties need exact values.
"""

from __future__ import annotations

import numpy as np
from numba import carray

from sim.engine.actions import ACE_BIT, CARD_POINTS_TOTAL, DECLARE, PASS, Decision
from sim.engine.arena import WORLD
from sim.engine.bidding import OPENING_BID, bid_cap, on_barrel, silenced
from sim.engine.bits import ACES, ALL_CARDS, KQ, lowest, popcount
from sim.engine.params import (
    N_PARAMS,
    P_CAP_BY_MARRIAGES,
    P_DISCARD_FACE_DOWN,
    P_JUMPS,
    P_NAMED_TRUMP,
    P_NP,
    P_ROSPIS_NO_SUBTRACT,
    P_ROUND_DECLARER,
    P_ROUND_TO,
    P_STEP,
)
from sim.engine.scoring import round_score
from sim.engine.search import (
    GAVE_UP,
    M_LIMIT,
    M_NODES,
    Solver,
    declarer_total,
    exact,
    gen_moves,
    new_position,
    play_move,
    probe,
    root_probes,
    set_root,
    solver_view,
)
from sim.engine.state import (
    FLAG_FORCED_AUCTION,
    N_STATE,
    NO_SUIT,
    S_CAPT0,
    S_CONTRACT,
    S_DECL,
    S_DECLARED0,
    S_FLAGS,
    S_FOREHAND,
    S_GIVE1,
    S_HAND0,
    S_LEADER,
    S_MAXBID0,
    S_MPTS0,
    S_NOT0,
    S_NPLAYED,
    S_PASSED,
    S_PENDING,
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
from sim.engine.strategies.barrel import barrel_raise, barrel_rival_bidding
from sim.engine.strategies.discard import DISCARD_CANDIDATES, by_cost, cheapest_discard
from sim.engine.strategies.hand_model import DEALT, declaring_value, hand_model
from sim.engine.strategies.hook import f64_ptr, i64_ptr
from sim.engine.strategies.registry import (
    BID,
    BID_BIAS,
    BID_MAKE,
    BID_MARGIN,
    BID_WORLDS,
    DISCARD,
    DISCARD_WORLDS,
    HEURISTIC,
    N_STRATEGY_PARAMS,
    OPEN,
    PIMC,
    READ_BIDS,
    STRATEGIES,
    STRONG,
    WORLDS,
)
from sim.engine.strategies.strong_discard import fitted_for, strong_discard
from sim.engine.talon import contract_range, may_concede
from sim.jit import compiled, hot
from sim.rng import bounded, mix64

PIMC_SALT = np.uint64(0x50494D4357524C44)  # mixes the deal's tie-break sub-seed: own stream
MAX_RESAMPLE = 20  # worlds re-dealt (shown talon, auction) before one is kept anyway
# the auction's worlds are re-dealt more: a bid of 160 and more needs two marriages, which a
# uniform deal of the unseen cards gives that seat about one time in fifty
MAX_BID_RESAMPLE = 1000
MAX_READ_RESAMPLE = 200  # with pimc.read_bids: a pass at 105 rules out most strong hands
# how a heuristic bidder is read: by its bid_margin's default (its parameters are not seen)
OPPONENT_MARGIN = STRATEGIES["heuristic"].params["bid_margin"][0]
TIE_NODES = 100_000  # the solver's nodes for breaking one decision's tie (about 10 ms)


@hot
def _draw(S: np.ndarray, n: int) -> int:
    """A uniform integer in ``[0, n)`` from the deal's pimc stream."""
    state = mix64(np.uint64(S[S_TIEBREAK]) ^ PIMC_SALT)
    k, ctr = bounded(state, S[S_PIMC_CTR], n)
    S[S_PIMC_CTR] = ctr
    return k


@hot
def least_total(contract: int, P: np.ndarray) -> int:
    """The smallest deal total that makes ``contract`` (``score.round_declarer``)."""
    if not P[P_ROUND_DECLARER]:
        return contract
    x = contract - 10
    while round_score(x, P[P_ROUND_TO]) < contract:
        x += 1
    return x


@hot
def _facts(S: np.ndarray, P: np.ndarray, me: int, known: np.ndarray, banned: np.ndarray) -> int:
    """What ``me`` knows of the other places: ``known[p]`` held, ``banned[p]`` not held.

    Places are the hand seats, and with two players place 2 is the set-aside talon.
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
    if gives_known:
        for j in range(1, NP):
            card = S[S_GIVE1 + j - 1]
            if card >= 0 and not played >> card & 1:
                known[(decl + j) % NP] |= np.int64(1) << card
    soft = np.int64(0)
    if me != decl and S[S_TALON_SHOWN]:
        talon = S[S_TALON] & ~played & ~S[S_HAND0 + me]
        if gives_known:
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
    strategies (``heuristic``, ``strong`` and ``pimc`` bid by this rule; ``pimc``'s
    bidding options are not seen) and silenced seats show nothing. Call only where
    :func:`reads_bids`.
    """
    strat = S[S_STRAT0 + seat]
    if strat != HEURISTIC and strat != STRONG and strat != PIMC:
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


@hot
def sample_world(
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
    if NP == 2:
        T[S_TALON_OTHER] = b
    else:
        T[S_HAND0 + place[1]] = b


@hot
def _play_start(T: np.ndarray, trump: int) -> None:
    """``T`` as the first trick starts (for contract and concession: before the play)."""
    T[S_TRICK_NO] = 0
    T[S_LEADER] = T[S_DECL]
    T[S_NPLAYED] = 0
    T[S_PENDING] = -1
    if trump != NO_SUIT:
        T[S_TRUMP] = trump
        T[S_TRUMP_SETTER] = T[S_DECL]


@compiled
def _reaches(C: Solver, P: np.ndarray, T: np.ndarray, target: int) -> bool:
    """Whether the declarer adds ``target`` from the start of the play in world ``T``.

    Cards face up (a null-window probe); with ``trump.named_by_declarer``, under any of
    the four trumps it could name.
    """
    if target <= 0:
        return True
    for t in range(4 if P[P_NAMED_TRUMP] else 1):
        _play_start(T, t if P[P_NAMED_TRUMP] else NO_SUIT)
        if probe(C, P, T, target):
            return True
    return False


@compiled
def _highest_reached(
    C: Solver, P: np.ndarray, T: np.ndarray, lo: int, count: int, base: int, guess: int = -2
) -> int:
    """The highest contract ``k`` (``lo + k * step``, below ``count``) world ``T`` reaches.

    The declarer, holding ``base`` points already, plays its open-card best; found by
    bisection over the contracts' targets, one probe at each step; -1 when none. With
    a ``guess`` (-1 or more: the answer of a like world) the contracts next to it are
    probed first, in steps that double away from it, then the bracket is bisected.
    """
    reached = -1  # the answer lies in [reached, top]
    top = count - 1
    step = P[P_STEP]
    if -1 <= guess < count:
        if guess >= 0 and not _reaches(C, P, T, least_total(lo + guess * step, P) - base):
            top = guess - 1  # below the guess: gallop down
            d = 1
            while reached < top:
                k = max(top - d + 1, reached + 1)
                if _reaches(C, P, T, least_total(lo + k * step, P) - base):
                    reached = k
                    break
                top = k - 1
                d *= 2
        else:  # at or above the guess: gallop up
            reached = guess
            d = 1
            while reached < top:
                k = min(reached + d, top)
                if not _reaches(C, P, T, least_total(lo + k * step, P) - base):
                    top = k - 1
                    break
                reached = k
                d *= 2
    while reached < top:
        mid = (reached + top + 1) // 2
        if _reaches(C, P, T, least_total(lo + mid * step, P) - base):
            reached = mid
        else:
            top = mid - 1
    return reached


@compiled
def _made_counts(
    S: np.ndarray,
    P: np.ndarray,
    C: Solver,
    lo: int,
    count: int,
    made: np.ndarray,
    params: np.ndarray,
) -> None:
    """``made[k]``: the worlds where the declarer's open-card total reaches contract ``k``.

    Contract ``k`` is ``lo + k * step``.
    """
    T = C.stack[WORLD]
    scratch = C.scratch[0]
    base = declarer_total(S, P)
    for k in range(count):
        made[k] = 0
    for _w in range(int(params[WORLDS])):
        sample_world(S, P, S[S_DECL], T, scratch, params[OPEN] != 0, params[READ_BIDS] != 0)
        new_position(C)
        for k in range(_highest_reached(C, P, T, lo, count, base) + 1):
            made[k] += 1


@hot
def _best_score(
    lo: int, count: int, made: np.ndarray, worlds: int, P: np.ndarray
) -> tuple[int, float]:
    """The contract of the best expected deal score over the worlds, and that score."""
    best = lo
    best_score = -np.inf
    for k in range(count):
        c = lo + k * P[P_STEP]
        score = c * (2.0 * made[k] - worlds)
        if score > best_score:
            best_score = score
            best = c
    return best, best_score / worlds


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
def _heuristic_discard(hand: int, legal: np.ndarray, P: np.ndarray) -> int:
    """The heuristic's card to give away from ``hand`` (:func:`cheapest_discard`)."""
    n = 0
    m = hand
    while m:
        legal[n] = lowest(m)
        n += 1
        m &= m - 1
    return cheapest_discard(hand, legal, n, P)


@hot
def _bid_world(
    S: np.ndarray,
    P: np.ndarray,
    me: int,
    T: np.ndarray,
    legal: np.ndarray,
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
    for j in range(1, NP):
        card = _heuristic_discard(hand, legal, P)
        hand &= ~(np.int64(1) << card)
        T[S_HAND0 + (me + j) % NP] |= np.int64(1) << card
    T[S_HAND0 + me] = hand
    T[S_TALON_OTHER] = set_aside
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


@compiled
def pimc_bid(
    S: np.ndarray,
    P: np.ndarray,
    arena: np.ndarray,
    seat: int,
    lo: int,
    count: int,
    params: np.ndarray,
) -> int:
    """Raise to ``lo`` when the hand makes it in at least ``bid_make`` of the sampled deals.

    Each world deals the talon and the other hands at random, lets this seat take the
    talon and discard as the heuristic does, and solves the play with every card
    face up (the best trump, if the declarer names one): an estimate of what the hand
    is worth as the declarer's. At ``bid_make`` 0.5 a raise is taken when its expected
    score, ``lo (2p - 1)``, beats passing's 0; the open-card estimate is optimistic
    (it assumes the play of a player who sees every card), so a higher share is the
    cautious setting. Only used with ``bid_make`` above 0.
    """
    if count == 0:
        return PASS
    C = solver_view(arena)
    worlds = int(params[WORLDS])
    T = C.stack[WORLD]
    legal = C.scratch[2]
    need = least_total(lo, P)
    made = 0
    for _w in range(worlds):
        _bid_world(S, P, seat, T, legal, params[OPEN] != 0, params[READ_BIDS] != 0)
        new_position(C)
        if _reaches(C, P, T, need):
            made += 1
    return lo if made >= params[BID_MAKE] * worlds else PASS


@compiled
def pimc_bid_sampled(
    S: np.ndarray,
    P: np.ndarray,
    arena: np.ndarray,
    seat: int,
    lo: int,
    count: int,
    params: np.ndarray,
) -> int:
    """Raise to ``lo`` when declaring is expected to score at least ``bid_margin`` (``pimc.bid``).

    In each of ``bid_worlds`` deals of the unseen cards (the other hands allowed by
    their bids, :func:`_bid_world`) this seat takes the talon, gives cards away as the
    heuristic does and finds, cards face up, the highest contract from ``lo`` up to
    its kept hand's cap that it makes with ``bid_bias`` points to spare (the open-card
    play is better than any real one). Declaring at ``lo`` is then expected to score
    the mean of that contract where one is made and ``-lo`` where none is: the
    contract named after the talon, as if the talon showed the whole deal. With
    ``bid.jumps`` it jumps to the highest level made in four worlds of five, as the
    heuristic does; on the barrel, and against an opponent on it, it bids as the
    heuristic does.
    """
    if count == 0:
        return PASS
    if barrel_raise(seat, S, P, lo):
        return lo
    C = solver_view(arena)
    worlds = int(params[BID_WORLDS])
    bias = int(params[BID_BIAS])
    step = P[P_STEP]
    T = C.stack[WORLD]
    legal = C.scratch[2]
    level = C.scratch[1]
    for w in range(worlds):
        _bid_world(S, P, seat, T, legal, params[OPEN] != 0, params[READ_BIDS] != 0)
        top = max(bid_cap(T[S_HAND0 + seat], P), lo)
        new_position(C)
        level[w] = _highest_reached(
            C, P, T, lo, (top - lo) // step + 1, declarer_total(T, P) - bias
        )
    score = 0.0
    made = 0
    for w in range(worlds):
        if level[w] >= 0:
            score += lo + level[w] * step
            made += 1
        else:
            score -= lo
    bid = score >= params[BID_MARGIN] * worlds
    if not bid and barrel_rival_bidding(seat, S, P):  # keep it out
        bid = made >= 0.3 * worlds
    if not bid:
        return PASS
    k = 0
    if P[P_JUMPS]:  # straight to the level made in four worlds of five
        while k + 1 < count:
            n = 0
            for w in range(worlds):
                n += level[w] >= k + 1
            if n < 0.8 * worlds:
                break
            k += 1
    return lo + k * step


@compiled
def pimc_contract(
    S: np.ndarray, P: np.ndarray, arena: np.ndarray, lo: int, count: int, params: np.ndarray
) -> int:
    """The contract (amounts ``lo, lo + step, …``) of the best expected deal score."""
    C = solver_view(arena)
    made = C.scratch[1]
    _made_counts(S, P, C, lo, count, made, params)
    return _best_score(lo, count, made, int(params[WORLDS]), P)[0]


@compiled
def discard_scores(
    S: np.ndarray,
    P: np.ndarray,
    arena: np.ndarray,
    params: np.ndarray,
    cands: np.ndarray,
    scores: np.ndarray,
) -> int:
    """Each candidate give's expected deal score over the same sampled worlds; how many.

    Of the ``DISCARD_CANDIDATES`` cards the heuristic would rather give (its
    :func:`discard_cost`), each is given in every world (and any later give made as
    the heuristic makes it); the worlds are probed at the contracts that the hand
    left may name, and a card scores its best contract's expected deal score
    (``cands[i]``, ``scores[i]``, the heuristic's order). Conceding, where it costs
    nothing, bounds a score below at 0. :func:`pimc_discard` gives the best; the
    ``strong`` player's discard is fitted on these scores.
    """
    C = solver_view(arena)
    NP = P[P_NP]
    decl = S[S_DECL]
    j = 1 if S[S_GIVE1] < 0 else 2
    hand = S[S_HAND0 + decl]
    costs = C.scratch[3]
    legal = C.scratch[4]
    n = by_cost(hand, P, cands, costs)  # the hand by the heuristic's cost, cheapest first
    worlds = int(params[DISCARD_WORLDS])
    T = C.stack[WORLD]
    scratch = C.scratch[0]
    m = min(n, DISCARD_CANDIDATES)
    kept = np.empty(m, dtype=np.int64)
    later = np.full(m, -1, dtype=np.int64)
    lo = np.empty(m, dtype=np.int64)
    count = np.empty(m, dtype=np.int64)
    for i in range(m):  # what each card leaves, and the contracts it allows
        kept[i] = hand & ~(np.int64(1) << cands[i])
        if j < NP - 1:
            later[i] = _heuristic_discard(kept[i], legal, P)
            kept[i] &= ~(np.int64(1) << later[i])
        for k in range(len(T)):
            T[k] = S[k]
        T[S_HAND0 + decl] = kept[i]
        lo[i], count[i] = contract_range(T, P)
    made = np.zeros((m, max(count.max(), 1)), dtype=np.int64)
    dealt = np.empty(3, dtype=np.int64)
    for _w in range(worlds):  # the same worlds for every card, one table per world
        sample_world(S, P, decl, T, scratch, params[OPEN] != 0, params[READ_BIDS] != 0)
        for s in range(3):
            dealt[s] = T[S_HAND0 + s]
        new_position(C)
        top = -1
        for i in range(m):
            for s in range(3):
                T[S_HAND0 + s] = dealt[s]
            T[S_HAND0 + decl] = kept[i]
            T[S_HAND0 + (decl + j) % NP] |= np.int64(1) << cands[i]
            if later[i] >= 0:
                T[S_HAND0 + (decl + j + 1) % NP] |= np.int64(1) << later[i]
            guess = -2 if i == 0 else top + (lo[i - 1] - lo[i]) // P[P_STEP]
            top = _highest_reached(C, P, T, lo[i], count[i], declarer_total(T, P), guess)
            for k in range(top + 1):
                made[i, k] += 1
    for i in range(m):
        scores[i] = _best_score(lo[i], count[i], made[i], worlds, P)[1]
        if P[P_ROSPIS_NO_SUBTRACT] and may_concede(S, P):
            scores[i] = max(scores[i], 0.0)
    return m


@compiled
def pimc_discard(S: np.ndarray, P: np.ndarray, arena: np.ndarray, params: np.ndarray) -> int:
    """The card to give away next: the best expected deal score over the same worlds.

    :func:`discard_scores` of the heuristic's cheapest cards; the best is given (ties:
    the heuristic's order).
    """
    cands = np.empty(24, dtype=np.int64)
    scores = np.empty(24, dtype=np.float64)
    m = discard_scores(S, P, arena, params, cands, scores)
    best = cands[0]
    best_score = -np.inf
    for i in range(m):
        if scores[i] > best_score:
            best_score = scores[i]
            best = cands[i]
    return best


@compiled
def pimc_give(S: np.ndarray, P: np.ndarray, arena: np.ndarray, params: np.ndarray) -> int:
    """The card to give away by ``pimc.discard``: 2, ``strong``'s fitted line, else sampled.

    The line (:func:`~sim.engine.strategies.strong_discard.strong_discard`, fitted on
    :func:`discard_scores`) costs nothing to ask; it was fitted on three hands, so with
    two players the worlds are sampled as with 1. (With 0 the heuristic decides, and
    this is not called.)
    """
    if params[DISCARD] == 2 and fitted_for(P):
        return strong_discard(S, P)
    return pimc_discard(S, P, arena, params)


@compiled
def pimc_concede(S: np.ndarray, P: np.ndarray, arena: np.ndarray, params: np.ndarray) -> int:
    """1 to concede: when playing is expected to score below the concession."""
    C = solver_view(arena)
    if not P[P_ROSPIS_NO_SUBTRACT]:
        return 0  # the contract is lost either way: playing can only do better
    worlds = int(params[WORLDS])
    made = C.scratch[1]
    _made_counts(S, P, C, S[S_CONTRACT], 1, made, params)
    return 1 if 2 * made[0] < worlds else 0  # conceding scores 0, playing c(2p - 1)


@compiled
def pimc_play(
    seat: int,
    S: np.ndarray,
    P: np.ndarray,
    plain: int,
    declaring: int,
    arena: np.ndarray,
    params: np.ndarray,
) -> int:
    """A card (or a declaring lead) by the most worlds that make (or break) the contract."""
    C = solver_view(arena)
    worlds = int(params[WORLDS])
    T = C.stack[WORLD]
    scratch = C.scratch[0]
    codes = C.scratch[2]
    made = C.scratch[3]
    means = C.scratch[4]
    out = C.probe_out
    n = 0
    m = plain
    while m:
        codes[n] = lowest(m)
        n += 1
        m &= m - 1
    m = declaring
    while m:
        codes[n] = DECLARE + lowest(m)
        n += 1
        m &= m - 1
    for i in range(n):
        made[i] = 0
        means[i] = 0
    need = least_total(S[S_CONTRACT], P) - declarer_total(S, P)
    maxing = seat == S[S_DECL]
    rewind = S[S_PIMC_CTR]
    if need > 0:
        active = C.scratch[1]
        for w in range(worlds):
            sample_world(S, P, seat, T, scratch, params[OPEN] != 0, params[READ_BIDS] != 0)
            # a move whose count can no longer reach the best one's (nor tie it) is not
            # searched again: the choice is the same, with fewer probes
            top = made[0]
            for i in range(1, n):
                top = max(top, made[i]) if maxing else min(top, made[i])
            left = worlds - w
            alive = 0
            for i in range(n):
                hopeless = made[i] + left < top if maxing else made[i] > top + left
                active[i] = 0 if hopeless else 1
                alive += active[i]
            if alive == 1:  # the one move left is the choice: deal out the rest of the
                for _rest in range(w + 1, worlds):  # worlds, so the stream moves on as if
                    sample_world(
                        S, P, seat, T, scratch, params[OPEN] != 0, params[READ_BIDS] != 0
                    )  # solved
                break
            new_position(C)
            root_probes(C, P, T, need, out, active)  # the moves in ascending code order
            for i in range(n):
                made[i] += out[i, 1]
    # the moves with the best count; their mean totals break ties
    best_count = made[0]
    for i in range(1, n):
        if (made[i] > best_count) if maxing else (made[i] < best_count):
            best_count = made[i]
    tied = 0
    first = -1
    for i in range(n):
        if made[i] == best_count:
            tied += 1
            if first < 0:
                first = i
    if tied == 1:
        return codes[first]
    S[S_PIMC_CTR] = rewind  # the same worlds again
    values = C.scratch[1]
    C.meta[M_LIMIT] = C.meta[M_NODES] + TIE_NODES
    counted = 0
    for _w in range(worlds):
        sample_world(S, P, seat, T, scratch, params[OPEN] != 0, params[READ_BIDS] != 0)
        new_position(C)  # one table per world: its moves share their subtrees
        set_root(C, T)
        done = True
        last = -1  # the declarer's total after the move solved before, in this world
        for i in range(n):
            if made[i] == best_count:
                gain = play_move(C, P, 0, codes[i])
                # a defender's own declaration scores for it (unless
                # ``marriage.only_declarer``): the declarer's total alone would rate it
                # as nothing and leave the tie to the plain card
                own = 0 if maxing else C.stack[1][S_MPTS0 + seat] - C.stack[0][S_MPTS0 + seat]
                # the moves of one world, and one move over the worlds, lie close
                # together: probing from the nearest known total settles it sooner
                if last >= 0:
                    v = exact(C, P, 1, max(last - gain, 0))
                elif counted > 0:
                    v = exact(C, P, 1, max(means[i] // counted + own - gain, 0))
                else:
                    v = exact(C, P, 1)
                if v == GAVE_UP:
                    done = False
                    break
                last = gain + v
                values[i] = gain + v - own
        if not done:
            break
        for i in range(n):
            if made[i] == best_count:
                means[i] += values[i]
        counted += 1
    C.meta[M_LIMIT] = 0
    if counted == 0:  # not one world within the budget: the solver's move ordering
        k = gen_moves(C.stack[0], P, C.moves[0], C.order[0], -1)
        for j in range(k):
            for i in range(n):
                if made[i] == best_count and codes[i] == C.moves[0, j]:
                    return codes[i]
    pick = first
    for i in range(n):
        if made[i] == best_count:
            better = means[i] > means[pick] if maxing else means[i] < means[pick]
            if better:
                pick = i
    return codes[pick]


def pimc_entry(  # type: ignore[no-untyped-def]
    kind, seat, s_addr, p_addr, legal_addr, arena_addr, arena_len, sp_addr, form, a, b, c, tiebreak
):
    """The sampling player's decisions behind the players' C signature (:mod:`.hook`).

    ``choose`` calls it for card play, the contract, the concession and, with
    ``pimc.bid_make`` or ``pimc.discard``, the bids or the discard; the heuristic makes
    the rest.
    """
    S = carray(i64_ptr(s_addr), (N_STATE,))
    P = carray(i64_ptr(p_addr), (N_PARAMS,))
    arena = carray(i64_ptr(arena_addr), (arena_len,))
    params = carray(f64_ptr(sp_addr), (N_STRATEGY_PARAMS,))
    if kind == Decision.PLAY:
        return pimc_play(seat, S, P, a, b, arena, params)
    if kind == Decision.CONTRACT:
        return pimc_contract(S, P, arena, b, c, params)
    if kind == Decision.BID:
        if params[BID] > 0:
            return pimc_bid_sampled(S, P, arena, seat, b, c, params)
        return pimc_bid(S, P, arena, seat, b, c, params)
    if kind == Decision.DISCARD:
        return pimc_give(S, P, arena, params)
    return pimc_concede(S, P, arena, params)


__all__ = [
    "bids_agree",
    "bids_likely",
    "least_total",
    "pimc_bid",
    "pimc_bid_sampled",
    "pimc_concede",
    "pimc_contract",
    "pimc_discard",
    "pimc_entry",
    "pimc_give",
    "pimc_play",
    "played_by",
    "reads_bids",
    "sample_world",
    "shown_cap",
]
