"""What the sampling player's search says of every choice at a decision: the teacher's labels.

``pimc`` keeps only its choice; a learned player needs the value of every choice, over
the same sampled worlds the search decides on. Each function here writes, for one
decision state, what each sampled world (or each choice over the worlds) is worth
with every card face up, exactly as ``pimc`` weighs it (the same worlds, drawn from
the deal's own stream, the same probes):

* :func:`contract_reached`: for the contract after the discard, the highest contract
  each world reaches (``pimc``'s contract is the level of the best expected score
  ``c (2 p - 1)`` over these);
* :func:`bid_reached`: for a bid, the highest contract each world of the auction
  (the talon and the other hands dealt, this seat the declarer, the heuristic's
  discard) reaches from the level bid up to the hand's cap;
* :func:`play_made`: for a card, in how many worlds each legal card (or declaring
  lead) still lets the declarer reach the contract.

The discard's labels are :func:`sim.engine.strategies.pimc.discard.discard_scores`.
:mod:`sim.runs.teach` writes them to Parquet.
"""

from __future__ import annotations

import numpy as np

from sim.engine.arena import WORLD
from sim.engine.bidding import bid_cap
from sim.engine.params import P_STEP
from sim.engine.search import declarer_total, new_position, root_codes, solver_view
from sim.engine.state import S_CONTRACT, S_HAND0
from sim.engine.strategies.pimc.play import move_counts
from sim.engine.strategies.pimc.probes import _highest_reached, least_total, reached_levels
from sim.engine.strategies.pimc.worlds import _bid_world
from sim.engine.strategies.registry import OPEN, READ_BIDS, WORLDS
from sim.jit import compiled


@compiled
def contract_reached(
    S: np.ndarray,
    P: np.ndarray,
    arena: np.ndarray,
    lo: int,
    count: int,
    params: np.ndarray,
    reached: np.ndarray,
) -> int:
    """``reached[w]``: the highest contract ``k`` (``lo + k * step``) world ``w`` reaches.

    -1 where none; ``params[WORLDS]`` worlds, the ones ``pimc_contract`` draws at this
    state (:func:`~sim.engine.strategies.pimc.probes.reached_levels`). Returns the
    number of worlds.
    """
    return reached_levels(S, P, solver_view(arena), lo, count, params, reached)


@compiled
def bid_reached(
    S: np.ndarray,
    P: np.ndarray,
    arena: np.ndarray,
    seat: int,
    lo: int,
    params: np.ndarray,
    reached: np.ndarray,
) -> int:
    """``reached[w]``: the highest contract ``k`` (``lo + k * step``) ``seat`` reaches as declarer.

    In each of ``params[WORLDS]`` deals of the cards ``seat`` cannot see (the other
    hands allowed by their bids), it takes the talon, gives cards away as the heuristic
    does and plays with every card face up, from ``lo`` up to its kept hand's cap; -1
    where no contract from ``lo`` is reached. Returns the number of worlds.
    """
    C = solver_view(arena)
    T = C.stack[WORLD]
    step = P[P_STEP]
    worlds = int(params[WORLDS])
    for w in range(worlds):
        _bid_world(S, P, seat, T, params[OPEN] != 0, params[READ_BIDS] != 0)
        top = max(bid_cap(T[S_HAND0 + seat], P), lo)
        new_position(C)
        reached[w] = _highest_reached(C, P, T, lo, (top - lo) // step + 1, declarer_total(T, P))
    return worlds


@compiled
def play_made(
    seat: int,
    S: np.ndarray,
    P: np.ndarray,
    arena: np.ndarray,
    params: np.ndarray,
    codes: np.ndarray,
    made: np.ndarray,
) -> int:
    """Every legal move of ``seat`` (``codes``, ascending) and in how many worlds it makes.

    ``made[i]``: the worlds (``params[WORLDS]``, the ones ``pimc_play`` draws first)
    where the declarer still reaches the contract after move ``i``, every card face up
    (:func:`~sim.engine.strategies.pimc.play.move_counts`, no move left out). Returns
    the number of moves; 0 when the contract is already made.
    """
    if least_total(S[S_CONTRACT], P) <= declarer_total(S, P):
        return 0
    C = solver_view(arena)
    n = root_codes(C, P, S)
    for i in range(n):
        codes[i] = C.order[0, i]
    move_counts(seat, S, P, C, params, n, made, False)
    return n


__all__ = ["bid_reached", "contract_reached", "play_made"]
