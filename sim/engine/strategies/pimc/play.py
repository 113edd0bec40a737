"""The sampling player's card play, contract and concession over sampled worlds."""

from __future__ import annotations

import numpy as np

from sim.engine.actions import DECLARE
from sim.engine.arena import WORLD
from sim.engine.bits import lowest
from sim.engine.params import (
    P_NP,
    P_ROSPIS_NO_SUBTRACT,
)
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
    root_probes,
    set_root,
    solver_view,
)
from sim.engine.state import (
    S_CONTRACT,
    S_DECL,
    S_MPTS0,
    S_PIMC_CTR,
)
from sim.engine.strategies.learned import (
    concede_fitted,
    concession_gain,
    defenders_points,
    made_chance,
    share_for_chance,
)
from sim.engine.strategies.pimc.probes import best_contract, least_total, plays_on
from sim.engine.strategies.pimc.worlds import draw_world
from sim.engine.strategies.registry import (
    CONCEDE_MARGIN,
    OPEN,
    READ_BIDS,
    TIE_NET,
    TIE_WORLDS,
    WORLDS,
)
from sim.engine.strategies.strong import strong_play
from sim.engine.talon import lays_away
from sim.jit import compiled

TIE_NODES = 100_000  # the solver's nodes for breaking one decision's tie (about 10 ms)


@compiled
def pimc_contract(
    S: np.ndarray, P: np.ndarray, arena: np.ndarray, lo: int, count: int, params: np.ndarray
) -> int:
    """The contract (amounts ``lo, lo + step, …``) of the best expected deal score."""
    return best_contract(S, P, solver_view(arena), lo, count, params)


@compiled
def pimc_concede(S: np.ndarray, P: np.ndarray, arena: np.ndarray, params: np.ndarray) -> int:
    """1 to concede: when conceding is expected to gain the declarer's margin over playing.

    Playing on scores ``c (2 p - 1)``, ``p`` the chance to make the contract from the
    share of sampled worlds that make it (recalibrated as ``strong``'s,
    :func:`~sim.engine.strategies.learned.made_chance`), and gives the defenders the
    points of their fitted line
    (:func:`~sim.engine.strategies.learned.concession_gain`); conceded where conceding
    gains more than ``concede_margin``, that is where ``p`` falls below the share at
    which the two are equal. Where no line is fitted for the rules, only where
    conceding costs nothing (``rospis.no_subtract``) and ``p`` is below one half.
    """
    if concede_fitted(P):
        margin = params[CONCEDE_MARGIN]
        gain0 = concession_gain(S, P, 0.0, defenders_points(S, P))  # linear in p, slope -2c
        chance = (gain0 - margin) / (2.0 * S[S_CONTRACT])  # where the two are equal
        if chance <= made_chance(P, 0.0):
            return 0  # playing on is better even where no world makes it
        if chance >= made_chance(P, 1.0):
            return 1  # conceding is better even where every world makes it
        share = share_for_chance(P, chance)
        return 0 if plays_on(S, P, solver_view(arena), params, share) else 1
    if not P[P_ROSPIS_NO_SUBTRACT]:
        return 0  # the contract is lost either way: playing can only do better
    # conceding scores 0, playing c(2p - 1): play on when p is a half or more
    return 0 if plays_on(S, P, solver_view(arena), params, 0.5) else 1


@compiled
def move_counts(
    seat: int,
    S: np.ndarray,
    P: np.ndarray,
    C: Solver,
    params: np.ndarray,
    n: int,
    made: np.ndarray,
    prune: bool,
) -> None:
    """``made[i]``: the worlds where the declarer still reaches the contract after move ``i``.

    The ``n`` legal moves of ``seat`` in ascending code order, every card face up, over
    the ``params[WORLDS]`` worlds ``seat`` samples; all 0 when the contract is already
    made (an opponent of a declarer laying away judges that world by world: it does
    not see the two cards laid away). With ``prune`` a move whose count can no longer
    reach the best one's (nor tie it) is not searched again, and once one move is left
    the rest of the worlds are dealt out unsearched (the choice is the same, with fewer
    probes: ``pimc_play``);
    without, every move is counted in every world (the teacher's labels).
    """
    worlds = int(params[WORLDS])
    T = C.stack[WORLD]
    scratch = C.scratch[0]
    active = C.scratch[1]
    out = C.probe_out
    for i in range(n):
        made[i] = 0
        active[i] = 1
    need = least_total(S[S_CONTRACT], P) - declarer_total(S, P)
    # laying away (§12), the opponent does not know the declarer's laid-away points:
    # each world's own cards laid away say what the declarer still needs there
    hidden = lays_away(P) and seat != S[S_DECL]
    if need <= 0 and not hidden:
        return
    maxing = seat == S[S_DECL]
    for w in range(worlds):
        draw_world(S, P, seat, T, scratch, params[OPEN] != 0, params[READ_BIDS] != 0)
        if prune:
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
                    draw_world(
                        S, P, seat, T, scratch, params[OPEN] != 0, params[READ_BIDS] != 0
                    )  # solved
                break
        if hidden:
            need = least_total(S[S_CONTRACT], P) - declarer_total(T, P)
            if need <= 0:  # made in this world whatever is played: every move counts it
                for i in range(n):
                    made[i] += 1
                continue
        new_position(C)
        root_probes(C, P, T, need, out, active)  # the moves in ascending code order
        for i in range(n):
            made[i] += out[i, 1]


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
    """A card (or a declaring lead) by the most worlds that make (or break) the contract.

    A tie between moves that make it in as many worlds goes to the best mean exact total
    over the first ``tie_worlds`` worlds, or with ``tie_net`` and three hands to the tied
    move ``strong``'s fitted card scores rank first (:func:`strong_play` among them).
    """
    C = solver_view(arena)
    worlds = int(params[WORLDS])
    T = C.stack[WORLD]
    scratch = C.scratch[0]
    codes = C.scratch[2]
    made = C.scratch[3]
    means = C.scratch[4]
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
        means[i] = 0
    maxing = seat == S[S_DECL]
    rewind = S[S_PIMC_CTR]
    move_counts(seat, S, P, C, params, n, made, True)
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
    if params[TIE_NET] != 0 and P[P_NP] == 3:  # by strong's card scores (three hands)
        tied_plain = 0
        tied_declaring = 0
        for i in range(n):
            if made[i] == best_count:
                if codes[i] >= DECLARE:
                    tied_declaring |= np.int64(1) << (codes[i] - DECLARE)
                else:
                    tied_plain |= np.int64(1) << codes[i]
        return strong_play(seat, S, P, tied_plain, tied_declaring)
    S[S_PIMC_CTR] = rewind  # the same worlds again
    values = C.scratch[1]
    C.meta[M_LIMIT] = C.meta[M_NODES] + TIE_NODES
    counted = 0
    for _w in range(min(worlds, int(params[TIE_WORLDS]))):
        draw_world(S, P, seat, T, scratch, params[OPEN] != 0, params[READ_BIDS] != 0)
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
