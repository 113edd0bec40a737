"""Learned decisions: small networks fitted on the teacher's labels, run compiled in the engine.

The teacher (``thousand teach``, :mod:`sim.runs.teach`) values every choice of a
decision over the worlds the sampling player samples, every card face up. A network
fitted on those values takes the decision in the search's place, at the cost of a
few hundred multiply-adds:

* **the contract** after the discard: one hidden layer of ReLUs reads the declarer's
  kept hand and what it knows (:func:`contract_features`) and the points a contract
  needs, and gives the share of sampled worlds that reach it, ``p``; the contract of
  the best expected deal score ``c (2 p - 1)`` is named, as ``pimc`` names it;
* **the concession**, by the declarer's margin (its deal score minus the mean of the
  other hands', as the duels count it): conceding where it gains more than
  ``concede_margin`` over playing on (:func:`concession_gain`). Playing on scores
  ``c (2 q - 1)``, ``q`` the network's ``p`` at the contract recalibrated to how often
  played deals make it (:func:`made_chance`), and gives the defenders what a line of
  the declarer's view expects them to take (:func:`defenders_points`); both fitted on
  deals ``strong`` plays out (``python -m training.concede``);
* **the bid** (:func:`bid_value`): a network of the hand a seat holds, the highest rival
  bid, its place and a level gives the expected deal score of winning the auction
  there; fitted (``python -m training.bid``) on the mean over every talon the hand may
  find of the contract network's best score, its cheapest cards given away. ``strong``
  raises where it reaches its ``bid_value``.

The weights are the data file ``learned.npz`` beside this module, written by
``python -m training.contract`` (``make weights``) from a seed; its contents are part of
this module's compiled-code cache key (:mod:`sim.cache`), so new weights recompile
it. One network per hand count: three hands (also four players, the dealer sitting
out) and two; a network not fitted (``contract_fitted`` 0) leaves the decision to the
caller (:data:`NOT_FITTED`). The two-hand one is fitted on what the player's own cards
make rather than on the open-card search (``python -m training.contract --labels
outcome``): the declarer's deal total when each dealt ``two_players`` deal of
``thousand teach --kinds outcome`` is played on by the heuristic, whose cards ``strong``
plays with two; ``p`` is then the chance that this play makes the contract. Fitted on the
open-card shares the same way (54,098 decisions, seed 1004) it had lost 9.3 points per
deal to the heuristic (5,000 deals, seed 80011): those shares run far above what the
heuristic's cards make.

Only what the deciding seat may see is read: its own hand, the cards it gave away,
the bids, the points it has counted.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.engine.bidding import marriages_of
from sim.engine.bits import ACES, KQ, SUIT_BITS, lowest, popcount
from sim.engine.params import (
    P_MV_S,
    P_NAMED_TRUMP,
    P_NP,
    P_ROSPIS_NO_SUBTRACT,
    P_STEP,
)
from sim.engine.scoring import concession_share, deal_points, least_total
from sim.engine.state import (
    S_CONTRACT,
    S_DEALER,
    S_DECL,
    S_GIVE1,
    S_GIVE2,
    S_HAND0,
    S_MAXBID0,
)
from sim.engine.strategies.basics import POINTS
from sim.engine.talon import lays_away
from sim.jit import hot, stack_floats

WEIGHTS_FILE = Path(__file__).with_name("learned.npz")
"""The fitted weights (``make weights`` writes them)."""

CONTRACT_FEATURE_NAMES = (
    *(f"card_{c}" for c in range(24)),  # the kept hand, by card id
    *(f"marriage_{s}" for s in range(4)),  # a marriage held, by suit (S C D H)
    "card_points",  # the kept hand's card points / 100
    "aces",  # aces held / 4
    "tens",  # tens held / 4
    "marriage_sum",  # the marriages' values / 100
    "marriage_top",  # the highest marriage's value / 100
    "marriages",  # marriages held / 4
    "longest",  # the longest suit's length / 8
    "voids",  # suits held none of / 4
    "counted",  # the declarer's points counted so far / 100
    "given_points",  # card points of the cards it gave away / 20
    "rival_bid",  # the highest bid of the other seats / 100 (0: none)
    "need",  # the points the contract needs beyond those counted / 100
)
N_CONTRACT_FEATURES = len(CONTRACT_FEATURE_NAMES)
N_HAND_FEATURES = 36  # the hand's own columns, shared by both networks
BID_FEATURE_NAMES = (
    *CONTRACT_FEATURE_NAMES[:N_HAND_FEATURES],  # the hand held when bidding
    "rival_bid",  # the highest bid of the other seats so far / 100 (0: none)
    "forehand",  # 1: the seat bids first (left of the dealer)
    "middle",  # 1: the seat bids second
    "level",  # the bid weighed / 100
)
N_BID_FEATURES = len(BID_FEATURE_NAMES)
LEVEL = N_BID_FEATURES - 1  # the one column that differs by bid
NEED = N_CONTRACT_FEATURES - 1  # the one column that differs by contract
MAX_HIDDEN = 128  # the most hidden units a network may have (the stack array of them)
NOT_FITTED = -1  # the answer where no network is fitted for these rules
THREE, TWO = 0, 1  # the networks: three hands (three or four players), two


def _load(path: Path) -> dict[str, np.ndarray]:
    """The arrays of the weights file."""
    with np.load(path) as data:
        return {name: data[name] for name in data.files}


_WEIGHTS = _load(WEIGHTS_FILE)
CONTRACT_FITTED = _WEIGHTS["contract_fitted"].astype(np.int64)  # (2,) by network
CONTRACT_W1 = _WEIGHTS["contract_w1"].astype(np.float64)  # (2, hidden, features)
CONTRACT_B1 = _WEIGHTS["contract_b1"].astype(np.float64)  # (2, hidden)
CONTRACT_W2 = _WEIGHTS["contract_w2"].astype(np.float64)  # (2, hidden)
CONTRACT_B2 = _WEIGHTS["contract_b2"].astype(np.float64)  # (2,)
CONTRACT_W1T = np.ascontiguousarray(CONTRACT_W1.transpose(0, 2, 1))  # (2, features, hidden)
assert CONTRACT_W1.shape[2] == N_CONTRACT_FEATURES
assert CONTRACT_W1.shape[1] <= MAX_HIDDEN
# the bid network (``python -m training.bid``): absent from a file fitted before it
_BID_HIDDEN = _WEIGHTS["bid_w1"].shape[1] if "bid_w1" in _WEIGHTS else 1
BID_FITTED = _WEIGHTS.get("bid_fitted", np.zeros(2)).astype(np.int64)  # (2,) by network
BID_W1 = _WEIGHTS.get("bid_w1", np.zeros((2, 1, N_BID_FEATURES))).astype(np.float64)
BID_B1 = _WEIGHTS.get("bid_b1", np.zeros((2, _BID_HIDDEN))).astype(np.float64)
BID_W2 = _WEIGHTS.get("bid_w2", np.zeros((2, _BID_HIDDEN))).astype(np.float64)
BID_B2 = _WEIGHTS.get("bid_b2", np.zeros(2)).astype(np.float64)
BID_W1T = np.ascontiguousarray(BID_W1.transpose(0, 2, 1))  # (2, features, hidden)
assert BID_W1.shape[2] == N_BID_FEATURES
assert BID_W1.shape[1] <= MAX_HIDDEN

CONCEDE_FEATURE_NAMES = (
    "bias",  # 1
    "card_points",  # the kept hand's card points / 100
    "aces",  # aces held / 4
    "tens",  # tens held / 4
    "marriage_sum",  # the marriages held, value / 100
    "open_marriage_sum",  # the marriages whose king and queen are both outside the hand / 100
    "open_marriages",  # how many such suits / 4
    "counted",  # the declarer's points counted so far / 100
    "given_points",  # card points of the cards it gave away / 20
    "longest",  # the longest suit's length / 8
    "voids",  # suits held none of / 4
    "rival_bid",  # the highest bid of the other seats / 100 (0: none)
)
N_CONCEDE_FEATURES = len(CONCEDE_FEATURE_NAMES)
# the defenders' line (``python -m training.concede``): absent from a file fitted before it
CONCEDE_FITTED = _WEIGHTS.get("concede_fitted", np.zeros(2)).astype(np.int64)  # (2,)
CONCEDE_W = _WEIGHTS.get("concede_w", np.zeros((2, N_CONCEDE_FEATURES))).astype(np.float64)
assert CONCEDE_W.shape == (2, N_CONCEDE_FEATURES)
# the network's share recalibrated to how often the player's own play makes the contract:
# P(made) = sigmoid(a + b logit(share)), (a, b) by network
CONCEDE_CAL = _WEIGHTS.get("concede_cal", np.array([[0.0, 1.0], [0.0, 1.0]])).astype(np.float64)
SHARE_CLIP = 0.001  # shares are clipped to [SHARE_CLIP, 1 - SHARE_CLIP] before the logit


@hot
def network_of(P: np.ndarray) -> int:
    """Which network plays these rules: :data:`TWO` with two players, else :data:`THREE`.

    -1 (none) where the declarer names the trump (``trump.named_by_declarer``): the
    networks were fitted on deals whose trump only marriages set, and under ``five_hundred_one``
    the three-hand one lost 1.0 point per deal to the heuristic's contract (5,000 deals,
    seed 80011). -1 too with two players laying two cards away (``talon.two_players =
    "discard"``): the two-hand network was fitted on deals where the declarer gives one.
    """
    if P[P_NAMED_TRUMP]:
        return -1
    if lays_away(P):  # two players laying two cards away (§12): fitted on giving one
        return -1
    return TWO if P[P_NP] == 2 else THREE


@hot
def fitted(net: int) -> bool:
    """Whether network ``net`` (of :func:`network_of`) is there and fitted."""
    return net >= 0 and CONTRACT_FITTED[net] != 0


@hot
def hand_features(hand: int, P: np.ndarray, x: np.ndarray) -> None:
    """``x[:N_HAND_FEATURES]``: a hand's cards and their summary.

    The first columns of :data:`CONTRACT_FEATURE_NAMES` and :data:`BID_FEATURE_NAMES`.
    """
    for c in range(24):
        x[c] = 1.0 if hand >> c & 1 else 0.0
    marr = marriages_of(hand)
    msum = 0
    mtop = 0
    for s in range(4):
        held = marr >> s & 1
        x[24 + s] = 1.0 if held else 0.0
        if held:
            msum += P[P_MV_S + s]
            mtop = max(mtop, P[P_MV_S + s])
    points = 0
    longest = 0
    voids = 0
    for s in range(4):
        n = popcount(hand & SUIT_BITS[s])
        longest = max(longest, n)
        voids += n == 0
    m = hand
    while m:
        points += POINTS[lowest(m)]
        m &= m - 1
    tens = 0
    for s in range(4):
        tens += hand >> (6 * s + 4) & 1
    x[28] = points * 0.01
    x[29] = popcount(hand & ACES) * 0.25
    x[30] = tens * 0.25
    x[31] = msum * 0.01
    x[32] = mtop * 0.01
    x[33] = popcount(marr) * 0.25
    x[34] = longest * 0.125
    x[35] = voids * 0.25


@hot
def contract_features(S: np.ndarray, P: np.ndarray, x: np.ndarray) -> None:
    """``x[:NEED]``: the declarer's view once its cards are given away.

    Read: its kept hand, the cards it gave, the bids, its points counted so far
    (:data:`CONTRACT_FEATURE_NAMES`); ``x[NEED]`` is left to the caller.
    """
    decl = S[S_DECL]
    hand_features(S[S_HAND0 + decl], P, x)
    cp, mp = deal_points(S, P, decl)
    given = 0
    for g in (S[S_GIVE1], S[S_GIVE2]):
        if g >= 0:
            given += POINTS[g]
    rival = 0
    for s in range(P[P_NP]):
        if s != decl:
            rival = max(rival, S[S_MAXBID0 + s])
    x[36] = (cp + mp) * 0.01
    x[37] = given * 0.05
    x[38] = max(rival, 0) * 0.01


@hot
def _hidden(net: int, x: np.ndarray, z: np.ndarray) -> None:
    """``z``: the hidden layer's inputs of everything but the need (``x[:NEED]``).

    Feature by feature, skipping the zeros (of the 24 card columns 8 or 10 are set):
    each adds a contiguous row of the transposed weights, which vectorises.
    """
    WT = CONTRACT_W1T[net]
    H = WT.shape[1]
    for j in range(H):
        z[j] = CONTRACT_B1[net, j]
    for f in range(NEED):
        v = x[f]
        if v != 0.0:
            for j in range(H):
                z[j] += WT[f, j] * v


@hot
def _reach(net: int, z: np.ndarray, need: float) -> float:
    """The share of worlds that reach a contract needing ``need`` points (/100), 0 to 1."""
    wn = CONTRACT_W1T[net, NEED]
    w2 = CONTRACT_W2[net]
    out = CONTRACT_B2[net]
    for j in range(wn.shape[0]):
        out += w2[j] * max(z[j] + wn[j] * need, 0.0)
    return min(max(out, 0.0), 1.0)


@hot
def _prepared(net: int, S: np.ndarray, P: np.ndarray, z: np.ndarray) -> int:
    """``z`` of the declarer's view (:func:`_hidden`); the points it has counted."""
    x = stack_floats(64)
    contract_features(S, P, x)
    _hidden(net, x, z)
    cp, mp = deal_points(S, P, S[S_DECL])
    return cp + mp


LEVELS_AT_ONCE = 16  # contracts whose shares :func:`_reach_levels` sums side by side


@hot
def _reach_levels(
    net: int, z: np.ndarray, lo: int, k0: int, m: int, counted: int, P: np.ndarray, out: np.ndarray
) -> None:
    """``out[i]``: :func:`_reach` of contract ``k0 + i`` (amount ``lo + k * step``), ``i < m``.

    Up to :data:`LEVELS_AT_ONCE` contracts at once, hidden unit by hidden unit: each
    contract's sum is added in :func:`_reach`'s own order (the same floats), and the
    contracts of one unit are independent, so the processor adds them side by side in
    its vector registers (the contract decision of ``strong``, 10-40 contracts a hand,
    was most of its cost).
    """
    wn = CONTRACT_W1T[net, NEED]
    w2 = CONTRACT_W2[net]
    step = P[P_STEP]
    need = stack_floats(16)  # LEVELS_AT_ONCE
    for i in range(m):
        need[i] = (least_total(lo + (k0 + i) * step, P) - counted) * 0.01
        out[i] = CONTRACT_B2[net]
    for j in range(wn.shape[0]):
        zj = z[j]
        wj = wn[j]
        vj = w2[j]
        for i in range(m):
            out[i] += vj * max(zj + wj * need[i], 0.0)
    for i in range(m):
        out[i] = min(max(out[i], 0.0), 1.0)


@hot
def _best_level(S: np.ndarray, P: np.ndarray, net: int, lo: int, count: int) -> tuple[int, float]:
    """The contract of the best expected deal score ``c (2 p - 1)`` (the first), and the score.

    Over the amounts ``lo, lo + step, …`` (``count``), with network ``net``; ``(lo,
    -inf)`` when ``count`` is 0.
    """
    z = stack_floats(128)
    counted = _prepared(net, S, P, z)
    best = lo
    best_score = -np.inf
    reach = stack_floats(16)  # LEVELS_AT_ONCE
    for k0 in range(0, count, LEVELS_AT_ONCE):
        m = min(LEVELS_AT_ONCE, count - k0)
        _reach_levels(net, z, lo, k0, m, counted, P, reach)
        for i in range(m):
            c = lo + (k0 + i) * P[P_STEP]
            score = c * (2.0 * reach[i] - 1.0)
            if score > best_score:
                best_score = score
                best = c
    return best, best_score


@hot
def learned_contract(S: np.ndarray, P: np.ndarray, lo: int, count: int) -> int:
    """The contract (amounts ``lo, lo + step, …``) of the best expected deal score.

    :data:`NOT_FITTED` where no network is fitted for these rules.
    """
    net = network_of(P)
    if not fitted(net):
        return NOT_FITTED
    return _best_level(S, P, net, lo, count)[0]


@hot
def best_contract_value(S: np.ndarray, P: np.ndarray, lo: int, count: int) -> float:
    """The best expected deal score ``c (2 p - 1)`` over the contracts ``lo, lo + step, …``.

    For a state as at the contract decision (the declarer's cards given away): the
    value ``pimc``'s discard gives a card (:func:`~sim.engine.strategies.pimc.discard.
    discard_scores`), from the network instead of sampled worlds; ``-inf`` where no
    network is fitted for these rules.
    """
    net = network_of(P)
    if not fitted(net):
        return -np.inf
    return _best_level(S, P, net, lo, count)[1]


@hot
def concede_features(S: np.ndarray, P: np.ndarray, x: np.ndarray) -> None:
    """``x[:N_CONCEDE_FEATURES]``: the declarer's view once its cards are given away.

    What says how many points the defenders take when the deal is played on
    (:data:`CONCEDE_FEATURE_NAMES`): the kept hand's strength, and the marriages whose
    king and queen both lie outside it (one defender may hold and declare them).
    """
    seen = stack_floats(64)  # the declarer's view as the contract network reads it
    contract_features(S, P, seen)
    hand = S[S_HAND0 + S[S_DECL]]
    osum = 0
    opened = 0
    for s in range(4):
        if hand & KQ[s] == 0:
            osum += P[P_MV_S + s]
            opened += 1
    x[0] = 1.0
    x[1] = seen[28]  # card_points
    x[2] = seen[29]  # aces
    x[3] = seen[30]  # tens
    x[4] = seen[31]  # marriage_sum
    x[5] = osum * 0.01
    x[6] = opened * 0.25
    x[7] = seen[36]  # counted
    x[8] = seen[37]  # given_points
    x[9] = seen[34]  # longest
    x[10] = seen[35]  # voids
    x[11] = seen[38]  # rival_bid


@hot
def concede_fitted(P: np.ndarray) -> bool:
    """Whether the defenders' line of :func:`defenders_points` is fitted for these rules."""
    net = network_of(P)
    return net >= 0 and CONCEDE_FITTED[net] != 0


@hot
def defenders_points(S: np.ndarray, P: np.ndarray) -> float:
    """The defenders' deal scores together, expected when the declarer plays the deal on.

    A line fitted on the deals ``strong`` plays out (``python -m training.concede``) over
    :func:`concede_features`; call only where :func:`concede_fitted`.
    """
    x = stack_floats(16)
    concede_features(S, P, x)
    w = CONCEDE_W[network_of(P)]
    out = 0.0
    for f in range(N_CONCEDE_FEATURES):
        out += w[f] * x[f]
    return max(out * 100.0, 0.0)


@hot
def made_chance(P: np.ndarray, share: float) -> float:
    """The chance the player's own play makes a contract that ``share`` of open-card worlds make.

    The open-card share recalibrated on the deals ``strong`` plays out (``python -m
    training.concede``): its defenders misplay a little, so a contract no world makes
    is still made now and then, and one every world makes is now and then lost.
    """
    a = CONCEDE_CAL[network_of(P), 0]
    b = CONCEDE_CAL[network_of(P), 1]
    q = min(max(share, SHARE_CLIP), 1.0 - SHARE_CLIP)
    return 1.0 / (1.0 + np.exp(-(a + b * np.log(q / (1.0 - q)))))


@hot
def share_for_chance(P: np.ndarray, chance: float) -> float:
    """The open-card share whose :func:`made_chance` is ``chance`` (0 < chance < 1)."""
    a = CONCEDE_CAL[network_of(P), 0]
    b = CONCEDE_CAL[network_of(P), 1]
    z = (np.log(chance / (1.0 - chance)) - a) / b
    return 1.0 / (1.0 + np.exp(-z))


@hot
def concession_gain(S: np.ndarray, P: np.ndarray, p: float, defenders: float) -> float:
    """What conceding the contract gains over playing it on, in the declarer's margin.

    The margin is the declarer's deal score minus the mean of the other hands' (what a
    duel counts). Playing on scores ``c (2 p - 1)`` (``p``: the chance to make it) and
    gives the defenders ``defenders`` points together; conceding scores ``-c`` (0 with
    ``rospis.no_subtract``) and gives each defender half the contract rounded up to 5, or
    60 (rules §5). With four players the dealer's talon counts alike either way.
    """
    c = S[S_CONTRACT]
    others = P[P_NP] - 1
    gets = concession_share(c, P)
    conceding = (0.0 if P[P_ROSPIS_NO_SUBTRACT] else -float(c)) - gets
    playing = c * (2.0 * p - 1.0) - defenders / others
    return conceding - playing


@hot
def learned_concede(S: np.ndarray, P: np.ndarray, margin: float) -> int:
    """1 to concede the contract: where conceding gains the declarer's margin over playing.

    The chance to make it from the contract network's share at the contract
    (:func:`made_chance`), the defenders' points from their line
    (:func:`concession_gain`); conceded where the gain exceeds ``margin`` points.
    Where no line is fitted, as ``pimc`` conceded before the margin: only where conceding
    costs nothing (``rospis.no_subtract``) and ``p`` is below one half.
    :data:`NOT_FITTED` where no network is fitted for these rules.
    """
    net = network_of(P)
    if not fitted(net):
        return NOT_FITTED
    z = stack_floats(128)
    counted = _prepared(net, S, P, z)
    p = _reach(net, z, (least_total(S[S_CONTRACT], P) - counted) * 0.01)
    if CONCEDE_FITTED[net] != 0:
        made = made_chance(P, p)
        return 1 if concession_gain(S, P, made, defenders_points(S, P)) > margin else 0
    if not P[P_ROSPIS_NO_SUBTRACT]:
        return 0
    return 1 if p < 0.5 else 0


@hot
def bid_features(seat: int, S: np.ndarray, P: np.ndarray, x: np.ndarray) -> None:
    """``x[:LEVEL]``: what a bidding seat sees: its hand, the other bids, its place."""
    hand_features(S[S_HAND0 + seat], P, x)
    n = P[P_NP]
    rival = 0
    for s in range(n):
        if s != seat:
            rival = max(rival, S[S_MAXBID0 + s])
    x[36] = max(rival, 0) * 0.01
    place = (seat - S[S_DEALER] - 1) % n  # 0: the forehand
    x[37] = 1.0 if place == 0 else 0.0
    x[38] = 1.0 if place == 1 else 0.0


@hot
def bid_fitted(P: np.ndarray) -> bool:
    """Whether a bid network is fitted for these rules (:func:`network_of`)."""
    net = network_of(P)
    return net >= 0 and BID_FITTED[net] != 0


@hot
def bid_value(seat: int, S: np.ndarray, P: np.ndarray, level: int) -> float:
    """The network's expected deal score for ``seat`` of winning the auction at ``level``.

    Fitted on the contract network's best expected score over every talon the seat may
    find and its cheapest cards given away (``python -m training.bid``); ``-inf`` where
    no bid network is fitted for these rules.
    """
    net = network_of(P)
    if net < 0 or BID_FITTED[net] == 0:
        return -np.inf
    x = stack_floats(64)
    z = stack_floats(128)  # MAX_HIDDEN
    bid_features(seat, S, P, x)
    x[LEVEL] = level * 0.01
    WT = BID_W1T[net]
    H = WT.shape[1]
    for j in range(H):
        z[j] = BID_B1[net, j]
    for f in range(N_BID_FEATURES):  # the set features' rows, contiguous (as _hidden)
        v = x[f]
        if v != 0.0:
            for j in range(H):
                z[j] += WT[f, j] * v
    out = BID_B2[net]
    for j in range(H):
        out += BID_W2[net, j] * max(z[j], 0.0)
    return out * 100.0


@hot
def contract_reach(S: np.ndarray, P: np.ndarray, contract: int) -> float:
    """The network's share of worlds that reach ``contract`` at a contract decision (tests)."""
    net = max(network_of(P), THREE)
    z = stack_floats(128)
    counted = _prepared(net, S, P, z)
    return _reach(net, z, (least_total(contract, P) - counted) * 0.01)


__all__ = [
    "BID_FEATURE_NAMES",
    "CONCEDE_FEATURE_NAMES",
    "CONTRACT_FEATURE_NAMES",
    "NOT_FITTED",
    "N_CONTRACT_FEATURES",
    "WEIGHTS_FILE",
    "best_contract_value",
    "bid_features",
    "bid_fitted",
    "bid_value",
    "concede_features",
    "concede_fitted",
    "concession_gain",
    "contract_features",
    "contract_reach",
    "defenders_points",
    "hand_features",
    "learned_concede",
    "learned_contract",
    "made_chance",
    "share_for_chance",
]
