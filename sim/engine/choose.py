"""The one point where every decision of a deal is made: forced, scripted, or a strategy.

A decision offers its legal action codes in ascending order (PROTOCOL.md) in one of
three forms, so that the codes are listed only when someone needs the list:

* ``LIST``: ``W.legal[:a]`` holds the codes;
* ``MASKS`` (card play): ``a`` the plain cards, ``b`` the declaring leads (codes
  ``DECLARE + card``);
* ``RANGE`` (bids and contracts): pass first when ``a``, then ``c`` amounts ``b, b +
  step, …`` (``bid.step``).

:func:`choose` then applies PROTOCOL.md's rules: one legal action is forced (no
random number, no script token); else the next script token decides (scenario
tests), else the seat's strategy (``random``: the counter-based stream; ``first``:
the lowest code; ``heuristic``; ``heuristic_v1``, the first heuristic, frozen;
the players compiled on their own, through their callbacks; a player whose record
leaves some decisions to the heuristic (``pimc``, ``cheater``: all but the card play,
the contract, the concession and, by their parameters, the bids and the discard) has
those made by the heuristic; see :mod:`sim.players`).
"""

from __future__ import annotations

import numpy as np

from sim.engine.actions import DECLARE, PASS
from sim.engine.bits import lowest, mask_to_list, popcount
from sim.engine.params import P_STEP
from sim.engine.state import (
    ERR_NO_PLAYER,
    ERR_SCRIPT,
    N_STATE,
    S_ERROR,
    S_NDEC,
    S_RNG,
    S_RNG_CTR,
    S_SCRIPT_POS,
    S_STRAT0,
    S_TIEBREAK,
    SNAP_AT,
    SNAP_KIND,
    SNAP_LEGAL,
    SNAP_N,
    SNAP_SEAT,
    Workspace,
)
from sim.engine.strategies.heuristic import heuristic_choose, heuristic_play, heuristic_range
from sim.engine.strategies.heuristic_v1 import (
    heuristic_v1_choose,
    heuristic_v1_play,
    heuristic_v1_range,
)
from sim.engine.strategies.hook import LIST, MASKS, RANGE, call_address
from sim.engine.strategies.registry import (
    FIRST,
    HEURISTIC,
    HEURISTIC_V1,
    N_HOOKS,
    OWN_KINDS,
    OWN_WHEN,
    RANDOM,
    SOME_BY_HEURISTIC,
)
from sim.jit import hot, hot_call_literal
from sim.rng import bounded

__all__ = ["LIST", "MASKS", "RANGE", "choose", "choose_yes", "legal_code", "legal_count"]


@hot
def legal_count(form: int, a: int, b: int, c: int) -> int:
    """Number of legal actions of a decision."""
    if form == MASKS:
        return popcount(a) + popcount(b)
    if form == RANGE:
        return c + a
    return a


@hot
def legal_code(form: int, a: int, b: int, k: int, legal: np.ndarray, step: int) -> int:
    """The ``k``-th legal code, ascending."""
    if form == MASKS:
        m = a
        while m:
            if k == 0:
                return lowest(m)
            k -= 1
            m &= m - 1
        m = b
        while m:
            if k == 0:
                return DECLARE + lowest(m)
            k -= 1
            m &= m - 1
        return -1
    if form == RANGE:
        if a:
            return PASS if k == 0 else b + (k - 1) * step
        return b + k * step
    return int(legal[k])


@hot
def legal_has(form: int, a: int, b: int, c: int, code: int, legal: np.ndarray, step: int) -> bool:
    """Whether ``code`` is one of the legal codes."""
    if form == MASKS:
        if code < DECLARE:
            return a >> code & 1 != 0
        return b >> (code - DECLARE) & 1 != 0
    if form == RANGE:
        if a and code == PASS:
            return True
        return b <= code < b + c * step and (code - b) % step == 0
    for k in range(a):
        if legal[k] == code:
            return True
    return False


@hot
def _list_codes(form: int, a: int, b: int, c: int, legal: np.ndarray, step: int) -> None:
    """Write the legal codes of a MASKS or RANGE decision into ``legal``."""
    if form == MASKS:
        mask_to_list(b, legal, mask_to_list(a, legal, 0, 0), DECLARE)
    elif form == RANGE:
        for k in range(c + a):
            legal[k] = legal_code(form, a, b, k, legal, step)


@hot
def _count_decision(
    kind: int, seat: int, S: np.ndarray, legal: np.ndarray, n: int, snap: np.ndarray
) -> None:
    """Number a non-forced decision; copy the state when it is the one asked for."""
    nd = S[S_NDEC]
    S[S_NDEC] = nd + 1
    if nd == snap[SNAP_AT]:
        for j in range(N_STATE):
            snap[j] = S[j]
        snap[SNAP_KIND] = kind
        snap[SNAP_SEAT] = seat
        snap[SNAP_N] = n
        for j in range(n):
            snap[SNAP_LEGAL + j] = legal[j]


@hot
def own_decision(strategy: int, kind: int, params: np.ndarray) -> bool:
    """Whether a player's own code makes a decision of ``kind``.

    Its record's ``decides`` and ``decides_when``, as
    :data:`~sim.engine.strategies.registry.OWN_KINDS` and ``OWN_WHEN`` hold them.
    """
    if OWN_KINDS[strategy] >> kind & 1:
        return True
    for j in range(2):
        slot = OWN_WHEN[strategy, kind, j]
        if slot >= 0 and params[slot] > 0:
            return True
    return False


@hot_call_literal
def choose(
    kind: int, seat: int, P: np.ndarray, W: Workspace, form: int, a: int, b: int, c: int
) -> int:
    """The action ``seat`` takes at a decision of ``kind`` with the legal set ``(form, a, b, c)``.

    ``W`` is the deal's :class:`sim.engine.state.Workspace`. ``W.snap[SNAP_AT]``
    numbers a non-forced decision whose state is copied into ``W.snap`` (tests of
    what strategies may see); -1 copies nothing.
    """
    S = W.S
    step = P[P_STEP]
    n = legal_count(form, a, b, c)
    if n == 1:
        return legal_code(form, a, b, 0, W.legal, step)  # forced: no strategy, no number
    if S[S_NDEC] == W.snap[SNAP_AT]:
        _list_codes(form, a, b, c, W.legal, step)
    _count_decision(kind, seat, S, W.legal, n, W.snap)
    pos = S[S_SCRIPT_POS]
    script = W.script
    if pos < script.shape[0]:
        S[S_SCRIPT_POS] = pos + 1
        code = script[pos, 1]
        if script[pos, 0] >> kind & 1 and legal_has(form, a, b, c, code, W.legal, step):
            return int(code)
        if S[S_ERROR] == 0:
            S[S_ERROR] = ERR_SCRIPT + pos
        return legal_code(form, a, b, 0, W.legal, step)
    strategy = S[S_STRAT0 + seat]
    if strategy == RANDOM:
        k, ctr = bounded(np.uint64(S[S_RNG]), S[S_RNG_CTR], n)
        S[S_RNG_CTR] = ctr
        return legal_code(form, a, b, k, W.legal, step)
    if SOME_BY_HEURISTIC >> strategy & 1 and not own_decision(strategy, kind, W.SP[seat]):
        strategy = HEURISTIC  # the rest as the heuristic decides it (the player's record)
    if strategy == FIRST:
        return legal_code(form, a, b, 0, W.legal, step)
    if strategy == HEURISTIC:  # the scripted players: direct calls, as fast as inlined code
        if form == MASKS:
            return heuristic_play(seat, S, P, a, b)
        if form == RANGE:
            return heuristic_range(kind, seat, S, P, b, c, W.SP[seat])
        tiebreak = np.uint64(S[S_TIEBREAK])
        return heuristic_choose(kind, seat, S, P, W.legal, a, W.SP[seat], tiebreak)
    if strategy == HEURISTIC_V1:
        if form == MASKS:
            return heuristic_v1_play(seat, S, P, a, b)
        if form == RANGE:
            return heuristic_v1_range(kind, seat, S, P, b, c, W.SP[seat])
        tiebreak = np.uint64(S[S_TIEBREAK])
        return heuristic_v1_choose(kind, seat, S, P, W.legal, a, W.SP[seat], tiebreak)
    hook = W.hooks[strategy] if 0 <= strategy < N_HOOKS else 0
    if hook == 0:  # a player the run did not compile (sim.engine.strategies.addresses)
        if S[S_ERROR] == 0:
            S[S_ERROR] = ERR_NO_PLAYER
        return legal_code(form, a, b, 0, W.legal, step)
    return call_address(  # type: ignore[call-arg]
        hook,
        (
            np.int64(kind), np.int64(seat), np.int64(S.ctypes.data), np.int64(P.ctypes.data),
            np.int64(W.legal.ctypes.data), np.int64(W.arena.ctypes.data),
            np.int64(W.arena.shape[0]), np.int64(W.SP[seat].ctypes.data), np.int64(form),
            np.int64(a), np.int64(b), np.int64(c), np.int64(S[S_TIEBREAK]),
        ),
    )  # fmt: skip


@hot
def choose_yes(kind: int, seat: int, P: np.ndarray, W: Workspace) -> bool:
    """A yes/no decision (keep/demand, play/concede, light/dark, …): codes 0 and 1."""
    W.legal[0] = 0
    W.legal[1] = 1
    return choose(kind, seat, P, W, LIST, 2, 0, 0) == 1
