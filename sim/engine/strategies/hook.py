"""How the engine calls the sampling player: through a function address, not a link.

numba links every compiled function a function calls into that function's own code
and optimises the whole again, so calling the sampling player (and the open-card
solver under it) directly from :func:`sim.engine.choose.choose` would make every
kernel of the engine carry and re-optimise the solver: about 80 s more to compile
each kernel, for every run, pimc or not. Instead the player is compiled once as a C
callback (:func:`pimc_address`, only when a seat plays it) and ``choose`` calls it
through the address the run passes in (``W.hooks[HOOK_PIMC]``; 0 when no seat
plays it): an indirect call, which links nothing and is cached like any other code.

Arrays cross as addresses and sizes; the callback rebuilds them with ``carray``.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from llvmlite import ir
from numba import carray, cfunc, types
from numba.extending import intrinsic

from sim.engine.actions import Decision
from sim.engine.params import N_PARAMS
from sim.engine.state import N_STATE
from sim.engine.strategies.pimc import (
    pimc_bid,
    pimc_concede,
    pimc_contract,
    pimc_discard,
    pimc_play,
)
from sim.engine.strategies.registry import N_STRATEGY_PARAMS

HOOK_PIMC = 0  # the slot of the sampling player's address in ``W.hooks``
N_HOOKS = 1

_I64 = ir.IntType(64)


@intrinsic
def call_hook(  # type: ignore[no-untyped-def]
    typingctx, addr, kind, seat, s_addr, p_addr, arena_addr, arena_len, sp_addr, a, b, c
):
    """Call the callback at ``addr`` with ten ``int64`` arguments; its ``int64`` result."""
    sig = types.int64(*([types.int64] * 11))

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        fnty = ir.FunctionType(_I64, [_I64] * 10)
        fn = builder.inttoptr(args[0], fnty.as_pointer())
        return builder.call(fn, args[1:])

    return sig, codegen


@intrinsic
def _i64_ptr(typingctx, addr):  # type: ignore[no-untyped-def]
    sig = types.CPointer(types.int64)(types.int64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.inttoptr(args[0], _I64.as_pointer())

    return sig, codegen


@intrinsic
def _f64_ptr(typingctx, addr):  # type: ignore[no-untyped-def]
    sig = types.CPointer(types.float64)(types.int64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.inttoptr(args[0], ir.DoubleType().as_pointer())

    return sig, codegen


_SIG = types.int64(*([types.int64] * 10))


def _pimc_entry(  # type: ignore[no-untyped-def]
    kind, seat, s_addr, p_addr, arena_addr, arena_len, sp_addr, a, b, c
):
    """The sampling player's decisions behind one C signature (see :func:`pimc_address`)."""
    S = carray(_i64_ptr(s_addr), (N_STATE,))
    P = carray(_i64_ptr(p_addr), (N_PARAMS,))
    arena = carray(_i64_ptr(arena_addr), (arena_len,))
    params = carray(_f64_ptr(sp_addr), (N_STRATEGY_PARAMS,))
    if kind == Decision.PLAY:
        return pimc_play(seat, S, P, a, b, arena, params)
    if kind == Decision.CONTRACT:
        return pimc_contract(S, P, arena, b, c, params)
    if kind == Decision.BID:
        return pimc_bid(S, P, arena, seat, b, c, params)
    if kind == Decision.DISCARD:
        return pimc_discard(S, P, arena, params)
    return pimc_concede(S, P, arena, params)


@cache
def pimc_address() -> int:
    """The address of the compiled sampling player (compiled, or loaded, on first use)."""
    return int(cfunc(_SIG, cache=True, error_model="numpy")(_pimc_entry).address)


def hooks_for(strategy_ids: np.ndarray) -> np.ndarray:
    """The ``hooks`` array a run passes its kernels: the callbacks its seats need."""
    from sim.engine.strategies.registry import CHEATER, PIMC

    hooks = np.zeros(N_HOOKS, dtype=np.int64)
    if np.isin(np.asarray(strategy_ids), (PIMC, CHEATER)).any():
        hooks[HOOK_PIMC] = pimc_address()
    return hooks
