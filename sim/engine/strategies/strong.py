"""The ``strong`` strategy: a compiled player fitted to play cards as the sampling player does.

``pimc`` searches every decision over sampled deals and is about 10,000 times slower
than ``heuristic``; this player imitates its card play from what its own seat knows,
at a few times the heuristic's cost, so that tables at scale can come from better play.

* **card play**: every legal card (or declaring lead) gets a score from its features
  (:func:`card_features`: the card's points, rank and suit, whether it wins the trick
  now and for sure, what it gives a partner or an opponent, whether it breaks or
  declares a marriage, the lengths of its suit in the hand and unseen, the opponents'
  voids, and whether the heuristic would play it); the highest score is played (ties:
  the heuristic's card, then the lowest code). Four rows: the declarer and a defender,
  leading and following. On a row the network of ``strong.npz`` beside this module is
  fitted for (as shipped, all four) the score is that network's (one hidden layer of
  ReLUs, :func:`_net_score`, plus a bonus on the heuristic's card): the leading rows
  imitate ``pimc``'s chosen card (a softmax over the legal cards,
  ``training/strong_fit.py``), the following rows are fitted on the search's value of
  every card (the share of ``pimc``'s worlds where the contract is made after it, for a
  defender set; :mod:`training.cards`). On a row without a network, and without that
  file, the line of :data:`~sim.engine.strategies.strong_weights.CARD_WEIGHTS` (the
  imitating softmax without the hidden layer, plus its bonus).
* **the discard** (:mod:`.strong_discard`): of the heuristic's five cheapest cards,
  the best score of a line fitted to ``pimc``'s expected deal score of giving each
  (its sampled worlds, cards face up); with two players, of the heuristic's five
  cheapest cards the one whose kept hand the contract network values most
  (:func:`net_give`).
* **the contract and the concession** (:mod:`.learned`): by a network fitted on the
  sampling player's search (the share of sampled worlds that reach each contract),
  choosing as ``pimc`` chooses (the concession by the declarer's margin); with two
  players by one fitted on the totals the heuristic's own cards make; where no network
  is fitted for the rules, the heuristic's;
* everything else (bids, reshuffle demands, dark play, the talon pick, a named trump)
  as the heuristic decides it.

The card weights (``strong.npz``, and the line's in
:mod:`sim.engine.strategies.strong_weights`) are fitted by ``training/strong_fit.py``
on ``pimc``'s choices at the card decisions of seeded classic deals (``make weights``);
the same seeds give the same weights. The
player reads no other seat's cards (``tests/test_players_api.py`` swaps hidden cards).
With other rules of three hands it plays the same weights (fitted on classic deals);
with two hands it plays the two-hand rows (4-7, every one fitted on the search's values
of ``two_players`` deals, :mod:`training.cards`), where fitted, else the heuristic's cards.
With two players laying two cards away (``talon.two_players = "discard"``, the Polish
game, preset ``polish_two``) no learned part applies (each was fitted on deals where the
declarer gives one card and eleven tricks are played): it bids, plays, lays away, names
its contract and concedes by the heuristic's rules, with its own parameters (its
``concede_margin``, 10, against the heuristic's 0; set to 0 it plays the heuristic's
every move: ``tests/test_polish_two.py``;
:func:`~sim.engine.strategies.learned.network_of`).

Parameters: the heuristic's, in the same slots. Why each choice was made, with the
duels that decided it, and how strong it plays: ``docs/players.md``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import carray

from sim.engine.actions import DECLARE, PASS, Decision
from sim.engine.bits import KQ, SUIT_BITS, highest, lowest, play_masks, popcount, seat_after
from sim.engine.params import N_PARAMS, P_MV_S, P_NP
from sim.engine.state import (
    N_STATE,
    NO_SUIT,
    S_BEST,
    S_BEST_SEAT,
    S_DECL,
    S_GIVE1,
    S_HAND0,
    S_LEADER,
    S_LED_SUIT,
    S_NPLAYED,
    S_PLAYED,
    S_TC0,
    S_TRUMP,
    S_VOID0,
)
from sim.engine.strategies.barrel import barrel_raise, barrel_rival_bidding
from sim.engine.strategies.basics import ABOVE, POINTS, partner_card
from sim.engine.strategies.bomb import (
    SAVED,
    before_discard,
    discards_made,
    give_own,
    keep,
    put_back,
)
from sim.engine.strategies.discard import DISCARD_CANDIDATES, cheapest_of_hand, next_cheapest
from sim.engine.strategies.heuristic import heuristic_choose, heuristic_play, heuristic_range
from sim.engine.strategies.hook import MASKS, N_LEGAL, RANGE, f64_ptr, i64_ptr
from sim.engine.strategies.learned import (
    NOT_FITTED,
    best_contract_value,
    bid_fitted,
    bid_value,
    fitted,
    learned_concede,
    learned_contract,
    network_of,
)
from sim.engine.strategies.registry import (
    BID_NET,
    BID_VALUE,
    CONCEDE_MARGIN,
    N_STRATEGY_PARAMS,
)
from sim.engine.strategies.strong_discard import fitted_for, strong_discard
from sim.engine.strategies.strong_weights import CARD_WEIGHTS
from sim.engine.talon import contract_range, lays_away
from sim.jit import hot, hot_call, stack_floats

NET_FILE = Path(__file__).with_suffix(".npz")
"""The card network's weights (``training/strong_fit.py --model net`` writes them)."""


def _card_net() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The card network ``(w1, b1, w2, bonus)`` by weight row, or one not fitted.

    Rows 0-3 play three hands, rows 4-7 (:data:`TWO_HANDS` on) two: the file's ``w1``,
    ``b1``, ``w2``, ``bonus`` and, where fitted, ``w1_two``, ``b1_two``, ``w2_two``,
    ``bonus_two``, padded to one width with units that never fire.
    """
    features = 24  # N_CARD_FEATURES, named below
    nets = []
    data = dict(np.load(NET_FILE)) if NET_FILE.is_file() else {}
    for suffix in ("", "_two"):
        if f"w1{suffix}" in data:
            nets.append(tuple(data[f"{k}{suffix}"] for k in ("w1", "b1", "w2", "bonus")))
        else:
            nets.append((np.zeros((4, 1, features)), np.full((4, 1), -1.0), np.zeros((4, 1)),
                         np.zeros(4)))  # fmt: skip
    width = max(n[0].shape[1] for n in nets)
    w1 = np.zeros((8, width, features))
    b1 = np.full((8, width), -1.0)
    w2 = np.zeros((8, width))
    for k, n in enumerate(nets):
        h = n[0].shape[1]
        w1[4 * k : 4 * k + 4, :h], b1[4 * k : 4 * k + 4, :h], w2[4 * k : 4 * k + 4, :h] = n[:3]
    return w1, b1, w2, np.concatenate([nets[0][3], nets[1][3]])


# One hidden layer of ReLUs per weight row (w1: rows, hidden, features; b1 and w2: rows,
# hidden; the bonus on the heuristic's card by row). Where fitted it scores the cards in
# place of CARD_WEIGHTS.
TWO_HANDS = 4  # the first row of the two-hand network
CARD_NET_W1, CARD_NET_B1, CARD_NET_W2, CARD_NET_BONUS = _card_net()
CARD_NET_W1T = np.ascontiguousarray(CARD_NET_W1.transpose(0, 2, 1))  # rows, features, hidden
CARD_NET_ROWS = np.array([np.any(w) for w in CARD_NET_W2])  # the rows the network plays
# each row's units in use (the rows share the file's width; a row fitted narrower is
# padded with units whose output weight is 0, which are not computed)
CARD_NET_UNITS = np.array([int(np.flatnonzero(w)[-1]) + 1 if np.any(w) else 0 for w in CARD_NET_W2])
MAX_NET_HIDDEN = 64  # the most hidden units the player's scratch row holds
assert CARD_NET_W1.shape[1] <= MAX_NET_HIDDEN

CARD_FEATURE_NAMES = (
    "heuristic_card",  # the heuristic would play it
    "points",  # its card points / 10
    "trump",  # of the trump suit
    "declares",  # the marriage it declares, value / 100
    "breaks_marriage",  # a king or queen of a marriage held, played plain
    "rank",  # 0 (nine) .. 1 (ace)
    "top_of_suit",  # no unseen card of its suit ranks above it
    "higher_unseen",  # unseen cards of its suit above it / 3
    "suit_length",  # my cards of its suit / 6
    "suit_unseen",  # unseen cards of its suit / 6
    "opponent_void",  # an opponent showed out of its suit (and may ruff)
    "lowest_of_suit",  # my lowest card of its suit
    "highest_of_suit",  # my highest card of its suit
    "bare_ten",  # a ten whose ace is unseen
    "trump_lead_drawing",  # a trump led while opponents may hold trumps
    "wins_now",  # following: beats the trick's best card
    "wins_points",  # following and winning: the trick's points with it / 20
    "wins_sure",  # following and winning, and no later card can beat it
    "feeds_partner",  # a defender's points onto the other defender's winning card / 10
    "gives_away",  # points onto an opponent's winning card, not winning / 10
    "last_to_play",  # following as the trick's last card, and winning
    "side_sure",  # following and winning, and only my partner plays after me
    "feeds_top",  # onto the other defender's winning card, a card still top of its suit / 10
    "partner_ruff",  # a defender's lead of a plain suit the other defender showed out of
)
N_CARD_FEATURES = len(CARD_FEATURE_NAMES)
assert N_CARD_FEATURES == 24  # _dot writes the sum out
# rows of CARD_WEIGHTS: the declarer leading, following; a defender leading, following
DECL_LEAD, DECL_FOLLOW, DEF_LEAD, DEF_FOLLOW = range(4)


@hot
def card_row(seat: int, S: np.ndarray) -> int:
    """Which weight row a card decision of ``seat`` reads (leading or following, role)."""
    lead = S[S_NPLAYED] == 0
    if seat == S[S_DECL]:
        return DECL_LEAD if lead else DECL_FOLLOW
    return DEF_LEAD if lead else DEF_FOLLOW


@hot
def card_view(seat: int, S: np.ndarray, P: np.ndarray) -> tuple[int, int, int, int]:
    """What a card decision of ``seat`` reads of the table, once for all its cards.

    The cards it has not seen (neither its own, nor played, nor in this trick, nor
    given to its partner face up), the trumps among them, the suits an opponent has
    shown out of, and the points in the trick so far.
    """
    hand = S[S_HAND0 + seat]
    trump = S[S_TRUMP]
    decl = S[S_DECL]
    trick = np.int64(0)
    points = 0
    for j in range(S[S_NPLAYED]):
        trick |= np.int64(1) << S[S_TC0 + j]
        points += POINTS[S[S_TC0 + j]]
    unseen = ~(hand | S[S_PLAYED] | trick) & 0xFFFFFF & ~partner_card(seat, S, P)
    trumps_out = 0 if trump == NO_SUIT else unseen & SUIT_BITS[trump]
    voids = 0
    for o in range(P[P_NP]):
        if o != seat and (seat == decl or o == decl):
            voids |= S[S_VOID0 + o]
    return unseen, trumps_out, voids, points


@hot
def card_features(seat: int, S: np.ndarray, P: np.ndarray, code: int, heuristic: int) -> tuple:
    """The features of playing ``code`` (a card, or a declaring lead), as floats.

    Only ``seat``'s hand and public facts are read (:data:`CARD_FEATURE_NAMES`);
    ``heuristic`` is the heuristic's code at this decision.
    """
    unseen, trumps_out, voids, points = card_view(seat, S, P)
    return features_in_view(seat, S, P, code, heuristic, unseen, trumps_out, voids, points)


@hot
def features_in_view(
    seat: int,
    S: np.ndarray,
    P: np.ndarray,
    code: int,
    heuristic: int,
    unseen: int,
    trumps_out: int,
    voids: int,
    trick_points: int,
) -> tuple:
    """:func:`card_features` with the decision's :func:`card_view` given."""
    declaring = code >= DECLARE
    c = code - DECLARE if declaring else code
    s = c // 6
    hand = S[S_HAND0 + seat]
    trump = S[S_TRUMP]
    decl = S[S_DECL]
    mine = hand & SUIT_BITS[s]
    declares = 0.0
    breaks = 0.0
    if declaring:
        if c % 6 == 5:  # an ace of the ace marriage
            declares = 2.0
        else:
            declares = P[P_MV_S + s] * 0.01
    elif hand & KQ[s] == KQ[s] and (np.int64(1) << c) & KQ[s]:
        breaks = 1.0
    above = unseen & ABOVE[c]
    ruffable = voids >> s & 1 and s != trump and (trumps_out != 0 or trump == NO_SUIT)
    drawing = 0.0
    wins_now = 0.0
    wins_points = 0.0
    wins_sure = 0.0
    feeds = 0.0
    gives = 0.0
    last_win = 0.0
    side_sure = 0.0
    feeds_top = 0.0
    partner_ruff = 0.0
    NP = P[P_NP]
    if S[S_NPLAYED] == 0:
        drawing = 1.0 if s == trump and trumps_out else 0.0
        if seat != decl and NP == 3 and s != trump and trump != NO_SUIT:
            partner = 3 - seat - decl
            partner_ruff = 1.0 if S[S_VOID0 + partner] >> s & 1 else 0.0
    else:
        best = S[S_BEST]
        wins = c > best if s == best // 6 else (s == trump and trump != NO_SUIT)
        last = S[S_NPLAYED] == NP - 1
        if wins:
            wins_now = 1.0
            wins_points = (trick_points + POINTS[c]) * 0.05
            # nobody after me can beat it: last, or top of its suit and no ruff to fear
            ruff = s != trump and trumps_out != 0 and voids >> S[S_LED_SUIT] & 1
            wins_sure = 1.0 if last or (above == 0 and not ruff) else 0.0
            last_win = 1.0 if last else 0.0
            # a defender whose later players are all its partner wins the trick for its side
            side_sure = wins_sure
            if seat != decl:
                side_sure = 1.0
                for j in range(S[S_NPLAYED] + 1, NP):
                    if seat_after(S[S_LEADER], j, NP) == decl:
                        side_sure = wins_sure
        elif seat != decl and S[S_BEST_SEAT] != decl:
            feeds = POINTS[c] * 0.1
            feeds_top = feeds if above == 0 else 0.0
        else:
            gives = POINTS[c] * 0.1
    return (
        1.0 if code == heuristic else 0.0,
        POINTS[c] * 0.1,
        1.0 if s == trump else 0.0,
        declares,
        breaks,
        (c % 6) * 0.2,
        1.0 if above == 0 else 0.0,
        popcount(above) * (1.0 / 3.0),
        popcount(mine) * (1.0 / 6.0),
        popcount(unseen & SUIT_BITS[s]) * (1.0 / 6.0),
        1.0 if ruffable else 0.0,
        1.0 if lowest(mine) == c else 0.0,
        1.0 if highest(mine) == c else 0.0,
        1.0 if c % 6 == 4 and unseen >> (c + 1) & 1 else 0.0,
        drawing,
        wins_now,
        wins_points,
        wins_sure,
        feeds,
        gives,
        last_win,
        side_sure,
        feeds_top,
        partner_ruff,
    )


@hot
def _dot(w: np.ndarray, f: tuple) -> float:
    """``w`` times the features ``f``, the sum written out.

    Read at a variable index, the tuple is copied to the stack for every read (the
    player measured 105k hands/s so, 145k written out, the heuristic 320k, one core).
    """
    return (
        w[0] * f[0]
        + w[1] * f[1]
        + w[2] * f[2]
        + w[3] * f[3]
        + w[4] * f[4]
        + w[5] * f[5]
        + w[6] * f[6]
        + w[7] * f[7]
        + w[8] * f[8]
        + w[9] * f[9]
        + w[10] * f[10]
        + w[11] * f[11]
        + w[12] * f[12]
        + w[13] * f[13]
        + w[14] * f[14]
        + w[15] * f[15]
        + w[16] * f[16]
        + w[17] * f[17]
        + w[18] * f[18]
        + w[19] * f[19]
        + w[20] * f[20]
        + w[21] * f[21]
        + w[22] * f[22]
        + w[23] * f[23]
    )


@hot
def _net_score(row: int, f: tuple, heuristic_card: bool, x: np.ndarray, z: np.ndarray) -> float:
    """The card network's score of a card of features ``f`` (weight row ``row``).

    ``x`` and ``z`` are scratch rows (the features, the hidden layer). Feature by
    feature, skipping the zeros (most features of a card are 0): each adds a
    contiguous row of the transposed first layer, which vectorises.
    """
    _to_row(f, x)
    WT = CARD_NET_W1T[row]
    b1 = CARD_NET_B1[row]
    w2 = CARD_NET_W2[row]
    H = CARD_NET_UNITS[row]
    for j in range(H):
        z[j] = b1[j]
    for k in range(N_CARD_FEATURES):
        v = x[k]
        if v != 0.0:
            for j in range(H):
                z[j] += WT[k, j] * v
    out = CARD_NET_BONUS[row] if heuristic_card else 0.0
    for j in range(H):
        out += w2[j] * max(z[j], 0.0)
    return out


@hot
def _to_row(f: tuple, x: np.ndarray) -> None:
    """The features ``f`` into the array ``x``, written out (see :func:`_dot`)."""
    x[0] = f[0]
    x[1] = f[1]
    x[2] = f[2]
    x[3] = f[3]
    x[4] = f[4]
    x[5] = f[5]
    x[6] = f[6]
    x[7] = f[7]
    x[8] = f[8]
    x[9] = f[9]
    x[10] = f[10]
    x[11] = f[11]
    x[12] = f[12]
    x[13] = f[13]
    x[14] = f[14]
    x[15] = f[15]
    x[16] = f[16]
    x[17] = f[17]
    x[18] = f[18]
    x[19] = f[19]
    x[20] = f[20]
    x[21] = f[21]
    x[22] = f[22]
    x[23] = f[23]


@hot
def strong_play(seat: int, S: np.ndarray, P: np.ndarray, plain: int, declaring: int) -> int:
    """The card (action code) with the highest fitted score; ties: the heuristic's, then lowest."""
    heuristic = heuristic_play(seat, S, P, plain, declaring)
    row = card_row(seat, S)
    if P[P_NP] != 3:  # two hands: by the two-hand network where fitted, else the heuristic
        if lays_away(P) or not CARD_NET_ROWS[TWO_HANDS + row]:  # fitted on ten-card tricks
            return heuristic
        row += TWO_HANDS
    unseen, trumps_out, voids, points = card_view(seat, S, P)
    pick = heuristic
    best = -np.inf
    by_net = CARD_NET_ROWS[row]  # this row's cards by the network, else by the line
    x = stack_floats(24)  # N_CARD_FEATURES
    z = stack_floats(64)  # MAX_NET_HIDDEN
    for part in range(2):
        m = plain if part == 0 else declaring
        while m:
            c = lowest(m)
            m &= m - 1
            code = c if part == 0 else DECLARE + c
            f = features_in_view(seat, S, P, code, heuristic, unseen, trumps_out, voids, points)
            if by_net:
                v = _net_score(row, f, code == heuristic, x, z)
            else:
                v = _dot(CARD_WEIGHTS[row], f)
            if v > best or (v == best and code == heuristic):
                best = v
                pick = code
    return pick


@hot_call
def strong_choose(
    kind: int,
    seat: int,
    S: np.ndarray,
    P: np.ndarray,
    legal: np.ndarray,
    n: int,
    params: np.ndarray,
    tiebreak: np.uint64,
) -> int:
    """The strong player's action for one decision (``legal[:n]`` ascending)."""
    if kind == Decision.PLAY:
        plain, declaring = play_masks(legal, n)
        return strong_play(seat, S, P, plain, declaring)
    if kind == Decision.DISCARD:
        return _give(S, P)
    if kind == Decision.CONTRACT:  # the amounts listed: lo, lo + step, ...
        contract = learned_contract(S, P, legal[0], n)
        if contract != NOT_FITTED:
            return contract
    if kind == Decision.CONCEDE:
        bomb = before_discard(S, P, seat)
        saved = stack_floats(SAVED)
        keep(S, saved)
        if bomb:  # judged on the hand its own discard would leave, then put back
            for j in range(1, discards_made(P) + 1):
                give_own(S, P, j, _give(S, P))
        concede = learned_concede(S, P, params[CONCEDE_MARGIN])
        if concede == NOT_FITTED:
            concede = heuristic_choose(kind, seat, S, P, legal, n, params, tiebreak)
        if bomb:
            put_back(S, saved)
        return concede
    return heuristic_choose(kind, seat, S, P, legal, n, params, tiebreak)


@hot
def _give(S: np.ndarray, P: np.ndarray) -> int:
    """The card the declarer gives next: the fitted line, the network or the heuristic's."""
    if fitted_for(P):
        return strong_discard(S, P)
    give = net_give(S, P)
    if give >= 0:
        return give
    return cheapest_of_hand(S[S_HAND0 + S[S_DECL]], P)


@hot
def net_give(S: np.ndarray, P: np.ndarray) -> int:
    """With two players, the card to give by the contract network on the hand it leaves.

    Each of the heuristic's cheapest cards is weighed by the network's best expected
    deal score of the hand it leaves
    (:func:`~sim.engine.strategies.learned.best_contract_value`), as ``pimc.discard=3``
    weighs them; the best is given (ties: the heuristic's order). -1 where no network is
    fitted for the rules. The state is changed while a card is weighed and put back.
    """
    net = network_of(P)
    if P[P_NP] != 2 or not fitted(net):
        return -1
    decl = S[S_DECL]
    hand = S[S_HAND0 + decl]
    given = S[S_GIVE1]
    pick = -1
    best = -np.inf
    last_cost = -1
    last_card = -1
    for _ in range(min(popcount(hand), DISCARD_CANDIDATES)):
        last_cost, last_card = next_cheapest(hand, last_cost, last_card, P)
        card = last_card
        S[S_GIVE1] = card  # one card given with two players
        S[S_HAND0 + decl] = hand & ~(np.int64(1) << card)
        lo, count = contract_range(S, P)
        value = best_contract_value(S, P, lo, count)
        if value > best:
            best = value
            pick = card
    S[S_GIVE1] = given
    S[S_HAND0 + decl] = hand
    return pick


@hot
def strong_range(
    kind: int, seat: int, S: np.ndarray, P: np.ndarray, lo: int, count: int, params: np.ndarray
) -> int:
    """A bid or the contract (amounts ``lo, lo + step, …``).

    The contract by the learned network (:mod:`.learned`), the bids by the bid network
    (:func:`net_bid`) where one is fitted, else as the heuristic bids.
    """
    if kind == Decision.CONTRACT:
        contract = learned_contract(S, P, lo, count)
        if contract != NOT_FITTED:
            return contract
    if kind == Decision.BID and count > 0 and params[BID_NET] != 0 and bid_fitted(P):
        return net_bid(seat, S, P, lo, count, params)
    return heuristic_range(kind, seat, S, P, lo, count, params)


@hot
def net_bid(
    seat: int, S: np.ndarray, P: np.ndarray, lo: int, count: int, params: np.ndarray
) -> int:
    """Raise where the bid network values winning at ``lo`` at ``bid_value`` or more.

    Raise or pass is the network's; how far to jump (``bid.jumps``) and the barrel's
    rules (raise to get off it, or to keep a rival on it out) stay the heuristic's.
    """
    # the heuristic's bid (a pure function of the state) only where it is the answer
    if barrel_raise(seat, S, P, lo):
        return heuristic_range(Decision.BID, seat, S, P, lo, count, params)
    if bid_value(seat, S, P, lo) >= params[BID_VALUE]:  # its jump where it raises
        return max(heuristic_range(Decision.BID, seat, S, P, lo, count, params), lo)
    if barrel_rival_bidding(seat, S, P):  # the heuristic's looser raise to keep it out
        return heuristic_range(Decision.BID, seat, S, P, lo, count, params)
    return PASS


def strong_entry(  # type: ignore[no-untyped-def]
    kind, seat, s_addr, p_addr, legal_addr, arena_addr, arena_len, sp_addr, form, a, b, c, tiebreak
):
    """The strong player's decisions behind the players' C signature (:mod:`.hook`).

    Compiled as a callback by :mod:`sim.engine.strategies.addresses`; ``choose`` calls it.
    """
    S = carray(i64_ptr(s_addr), (N_STATE,))
    P = carray(i64_ptr(p_addr), (N_PARAMS,))
    params = carray(f64_ptr(sp_addr), (N_STRATEGY_PARAMS,))
    if form == MASKS:
        return strong_play(seat, S, P, a, b)
    if form == RANGE:
        return strong_range(kind, seat, S, P, b, c, params)
    legal = carray(i64_ptr(legal_addr), (N_LEGAL,))
    return strong_choose(kind, seat, S, P, legal, a, params, np.uint64(tiebreak))


__all__ = [
    "CARD_FEATURE_NAMES",
    "N_CARD_FEATURES",
    "card_features",
    "card_row",
    "card_view",
    "features_in_view",
    "strong_choose",
    "strong_entry",
    "strong_play",
    "strong_range",
]
