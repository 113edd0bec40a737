"""What a world is worth with every card face up: probes of the open-card solver.

:func:`_reaches` asks whether the declarer adds a target from the start of the play,
:func:`_highest_reached` finds by bisection the highest contract a world makes,
:func:`reached_levels` finds it in each sampled world and :func:`_made_counts` counts
over those worlds how often each contract is made;
:func:`_best_score` turns those counts into the contract of the best expected score.
"""

from __future__ import annotations

import numpy as np

from sim.engine.arena import WORLD
from sim.engine.params import (
    P_NAMED_TRUMP,
    P_STEP,
)
from sim.engine.scoring import least_total
from sim.engine.search import (
    Solver,
    declarer_total,
    new_position,
    probe,
)
from sim.engine.state import (
    NO_SUIT,
    S_CONTRACT,
    S_DECL,
    S_LEADER,
    S_NPLAYED,
    S_PENDING,
    S_TRICK_NO,
    S_TRUMP,
    S_TRUMP_SETTER,
)
from sim.engine.strategies.pimc.worlds import draw_world
from sim.engine.strategies.registry import (
    OPEN,
    READ_BIDS,
    WORLDS,
)
from sim.jit import compiled, hot


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

    The declarer, holding ``base`` points already, plays its open-card best; -1 when
    none. :func:`_highest_among` the contracts ``lo, lo + step, …``; ``guess`` (-1 or
    more) is the answer of a like world.
    """
    amounts = np.empty(max(count, 1), dtype=np.int64)
    for k in range(count):
        amounts[k] = lo + k * P[P_STEP]
    return _highest_among(C, P, T, amounts, count, base, guess)


@compiled
def _highest_among(
    C: Solver,
    P: np.ndarray,
    T: np.ndarray,
    amounts: np.ndarray,
    count: int,
    base: int,
    guess: int = -2,
) -> int:
    """The highest ``j`` below ``count`` whose contract ``amounts[j]`` world ``T`` reaches.

    ``amounts`` ascend; the declarer, holding ``base`` points already, plays its
    open-card best; found by bisection over the contracts' targets, one probe at each
    step; -1 when none. With a ``guess`` (-1 or more: the answer of a like world) the
    contracts next to it are probed first, in steps that double away from it, then the
    bracket is bisected.
    """
    reached = -1  # the answer lies in [reached, top]
    top = count - 1
    if -1 <= guess < count:
        if guess >= 0 and not _reaches(C, P, T, least_total(amounts[guess], P) - base):
            top = guess - 1  # below the guess: gallop down
            d = 1
            while reached < top:
                k = max(top - d + 1, reached + 1)
                if _reaches(C, P, T, least_total(amounts[k], P) - base):
                    reached = k
                    break
                top = k - 1
                d *= 2
        else:  # at or above the guess: gallop up
            reached = guess
            d = 1
            while reached < top:
                k = min(reached + d, top)
                if not _reaches(C, P, T, least_total(amounts[k], P) - base):
                    top = k - 1
                    break
                reached = k
                d *= 2
    while reached < top:
        mid = (reached + top + 1) // 2
        if _reaches(C, P, T, least_total(amounts[mid], P) - base):
            reached = mid
        else:
            top = mid - 1
    return reached


@compiled
def reached_levels(
    S: np.ndarray,
    P: np.ndarray,
    C: Solver,
    lo: int,
    count: int,
    params: np.ndarray,
    reached: np.ndarray,
) -> int:
    """``reached[w]``: the highest contract ``k`` (``lo + k * step``) world ``w`` reaches.

    -1 where none; ``params[WORLDS]`` worlds sampled at this state (the declarer's view)
    with every card face up. A world is probed from the answer of the world before it
    (:func:`_highest_reached`'s guess): the answers are the same, the probes fewer.
    Returns the number of worlds.
    """
    T = C.stack[WORLD]
    scratch = C.scratch[0]
    base = declarer_total(S, P)
    worlds = int(params[WORLDS])
    guess = -2
    for w in range(worlds):
        draw_world(S, P, S[S_DECL], T, scratch, params[OPEN] != 0, params[READ_BIDS] != 0)
        new_position(C)
        reached[w] = _highest_reached(C, P, T, lo, count, base, guess)
        guess = reached[w]
    return worlds


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

    Contract ``k`` is ``lo + k * step``; the worlds of :func:`reached_levels`.
    """
    reached = C.scratch[2]  # (0: the worlds sampler's, 1: the caller's made counts)
    for k in range(count):
        made[k] = 0
    for w in range(reached_levels(S, P, C, lo, count, params, reached)):
        for k in range(reached[w] + 1):
            made[k] += 1


@compiled
def best_contract(
    S: np.ndarray, P: np.ndarray, C: Solver, lo: int, count: int, params: np.ndarray
) -> int:
    """The contract (``lo + k * step``, ``k`` below ``count``) of the best expected score.

    :func:`_best_score` of :func:`_made_counts` (the same worlds, the same choice, ties
    to the lower contract) with fewer probes. A world that makes a contract makes
    every lower one, so after each world, of two contracts ``a < b``, ``b`` is dropped
    when it cannot score above ``a`` even if every world left made it (and so ``a``),
    and ``a`` when it scores below ``b`` even if every world left made ``a`` and none
    made ``b``. Each world is then probed only among the contracts left (the highest
    of them it reaches, from the answer of the world before), and once one is left
    the rest of the worlds are dealt out unsearched (the stream moves on as if they
    were solved). On the contracts of 100 classic deals (``benchmarks/pimc_decisions.py``)
    a third of the nodes.
    """
    T = C.stack[WORLD]
    scratch = C.scratch[0]
    base = declarer_total(S, P)
    worlds = int(params[WORLDS])
    step = P[P_STEP]
    made = np.zeros(max(count, 1), dtype=np.int64)
    alive = np.ones(max(count, 1), dtype=np.bool_)
    index = np.empty(max(count, 1), dtype=np.int64)
    amounts = np.empty(max(count, 1), dtype=np.int64)
    left = count
    guess = -2  # the contract the world before reached (-1: none; -2: no world yet)
    for w in range(worlds):
        draw_world(S, P, S[S_DECL], T, scratch, params[OPEN] != 0, params[READ_BIDS] != 0)
        if left <= 1:
            continue  # settled: the rest of the worlds are dealt out unsearched
        n = 0
        g = -2 if guess == -2 else -1
        for k in range(count):
            if alive[k]:
                if k <= guess:
                    g = n
                index[n] = k
                amounts[n] = lo + k * step
                n += 1
        new_position(C)
        j = _highest_among(C, P, T, amounts, n, base, g)
        for i in range(j + 1):
            made[index[i]] += 1
        guess = index[j] if j >= 0 else -1
        rest = worlds - w - 1
        for a in range(count):  # a lower contract against a higher one, b
            for b in range(a + 1, count):
                if not (alive[a] and alive[b]):
                    continue
                ca = lo + a * step
                cb = lo + b * step
                gap = cb * (2 * made[b] - worlds) - ca * (2 * made[a] - worlds)
                if gap + 2 * rest * (cb - ca) <= 0:  # b made in every world left
                    alive[b] = False  # scores at most a's (a wins a tie)
                    left -= 1
                elif 2 * rest * ca - gap < 0:  # a made in every world left, b in none
                    alive[a] = False  # scores below b's
                    left -= 1
    best = lo
    best_score = -(1 << 62)
    for k in range(count):
        score = (lo + k * step) * (2 * made[k] - worlds)
        if alive[k] and score > best_score:
            best_score = score
            best = lo + k * step
    return best


@compiled
def plays_on(S: np.ndarray, P: np.ndarray, C: Solver, params: np.ndarray, share: float) -> bool:
    """Whether the contract is made in at least ``share`` of the worlds of :func:`_made_counts`.

    The same worlds and answer, with fewer probes: once that many are made, or too few
    are left to make them, the rest are dealt out unsearched.
    """
    T = C.stack[WORLD]
    scratch = C.scratch[0]
    worlds = int(params[WORLDS])
    target = least_total(S[S_CONTRACT], P) - declarer_total(S, P)
    need = share * worlds
    made = 0
    for w in range(worlds):
        draw_world(S, P, S[S_DECL], T, scratch, params[OPEN] != 0, params[READ_BIDS] != 0)
        if made >= need or made + worlds - w < need:
            continue  # settled
        new_position(C)
        if _reaches(C, P, T, target):
            made += 1
    return made >= need


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
