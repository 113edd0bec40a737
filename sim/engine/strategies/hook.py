"""How the engine calls a player compiled on its own: through a function address.

numba links every compiled function a function calls into that function's own code
and optimises the whole again. Calling every player directly from
:func:`sim.engine.choose.choose` made every kernel of the engine carry and
re-optimise every player, the sampling player with the open-card solver under it
included, and an edit of any player recompiled every kernel. The ``guide`` player
and the sampling player (``pimc``, ``cheater``) are instead compiled once each, on
their own, as C callbacks with one signature (:data:`SIG`), when a run's seats need
them (:mod:`sim.engine.strategies.addresses`); ``choose`` calls them through the
address the run passes in (``W.hooks[strategy id]``; 0 for a player the run does
not use; ``W.hooks`` has ``registry.N_HOOKS`` slots): an indirect call, which links
nothing, and each is cached on its own. ``heuristic`` and ``heuristic_v1`` are called
directly: through an address a decision cost them 10-25 % of their speed (about
7 ns a call, and the code of ``choose`` specialised to the decision site is lost).

Arrays cross as addresses and sizes; the callback rebuilds them with ``carray``
(:func:`i64_ptr`, :func:`f64_ptr`). This module holds only that calling
convention, so the engine imports no player through it.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

LIST, MASKS, RANGE = 0, 1, 2  # the forms of a legal set (sim.engine.choose)
N_LEGAL = 64  # the length of ``W.legal``
N_ARGS = 13  # the callback's arguments, all int64 (see :data:`SIG`)
# (kind, seat, S, P, legal, arena, arena length, the seat's parameters, form, a, b, c,
#  tie-break key): addresses for the arrays, the legal set as ``choose`` has it.
SIG = types.int64(*([types.int64] * N_ARGS))

_I64 = ir.IntType(64)


@intrinsic
def call_address(typingctx, addr, args):  # type: ignore[no-untyped-def]
    """Call the C callback at ``addr`` with the ``int64`` tuple ``args``; its ``int64`` result."""
    if not isinstance(args, types.UniTuple) or args.dtype != types.int64:
        return None
    n = args.count
    sig = types.int64(types.int64, args)

    def codegen(context, builder, signature, llargs):  # type: ignore[no-untyped-def]
        fnty = ir.FunctionType(_I64, [_I64] * n)
        fn = builder.inttoptr(llargs[0], fnty.as_pointer())
        values = [builder.extract_value(llargs[1], k) for k in range(n)]
        return builder.call(fn, values)

    return sig, codegen


@intrinsic
def i64_ptr(typingctx, addr):  # type: ignore[no-untyped-def]
    """The ``int64`` address ``addr`` as a pointer (``carray(i64_ptr(addr), (n,))``)."""
    sig = types.CPointer(types.int64)(types.int64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.inttoptr(args[0], _I64.as_pointer())

    return sig, codegen


@intrinsic
def f64_ptr(typingctx, addr):  # type: ignore[no-untyped-def]
    """The ``int64`` address ``addr`` as a ``float64`` pointer."""
    sig = types.CPointer(types.float64)(types.int64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.inttoptr(args[0], ir.DoubleType().as_pointer())

    return sig, codegen
