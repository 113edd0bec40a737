"""How the engine's code is compiled with numba: six decorators and a callback compiler.

* :func:`hot`: small functions of the engine's inner loop. LLVM inlines them
  (``forceinline``), integer division skips Python's zero check
  (``error_model="numpy"``), and they run without numba's reference counting
  (``_nrt=False``), which would otherwise cost two atomic operations per array
  argument per call, several times the work of a card play. A ``hot`` function must
  therefore never allocate or return an array.
* :func:`hot_call`: the same, kept as a call (larger functions used from many sites).
* :func:`hot_call_literal`: the same on numba's own dispatcher, compiled once per set
  of literal constants its callers pass (:func:`sim.engine.choose.choose` alone).
* :func:`compiled`: larger functions that may allocate (reference counting kept).
* :func:`kernel`: the parallel loops over many deals (``prange``); they may allocate
  per-block scratch arrays.
* :func:`body`: a function only a compile boundary's callback calls, inlined there by
  numba itself rather than optimised on its own first.
* :func:`entry_address`: compiles ``module.name`` once as a C callback and returns its
  address, which a kernel calls across the boundary (:func:`call_packed`).

:func:`hot`, :func:`hot_call` and :func:`compiled` compile each function once per plain
argument type (a literal constant at a call site starts no other copy). All but
:func:`body` cache their machine code on disk (``cache=True``). The decorators return
the function with its own signature, so type checkers read the annotations as written.

Not every compiled function goes through them: the random streams (:mod:`sim.rng`),
the deal generator (:mod:`sim.engine.deal`), the odds counts (:mod:`sim.runs.odds`) and
a few functions of :mod:`sim.engine.driver` and :mod:`sim.engine.search` call numba's
``njit`` directly (also with ``cache=True``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache as cache_fn
from typing import Any, TypeVar, cast

from llvmlite import ir
from numba import cfunc, njit, typeof, types
from numba.core import cgutils
from numba.core.target_extension import resolve_dispatcher_from_str
from numba.extending import intrinsic

from sim import cache

cache.install()  # the package's compiled-code cache (before anything is compiled)

F = TypeVar("F", bound=Callable[..., Any])

_CPUDispatcher: Any = resolve_dispatcher_from_str("cpu")


def _plain(ty: Any) -> Any:
    """The type a compiled callee is specialised on for an argument of type ``ty``.

    numba would otherwise compile a separate copy of a function for every literal
    constant a call site passes (``choose(..., LIST, 2, 0, 0)``) and every enum
    member type: ``choose`` and everything under it were compiled seven times per
    kernel. Constants still fold where LLVM inlines the call.
    """
    ty = types.unliteral(ty)
    if isinstance(ty, types.IntEnumMember):
        return ty.dtype
    return ty


class _PlainDispatcher(_CPUDispatcher):
    """A dispatcher whose compiled callers share one specialisation per plain type."""

    def get_call_template(self, args: Any, kws: Any) -> Any:
        """Type a call from compiled code with its arguments' plain types."""
        plain = tuple(_plain(a) for a in args)
        return super().get_call_template(plain, {k: _plain(v) for k, v in kws.items()})


def _compile(fn: Callable[..., Any], **options: Any) -> Any:
    """``njit(cache=True, **options)(fn)`` with :class:`_PlainDispatcher`."""
    disp = _PlainDispatcher(py_func=fn, locals={}, targetoptions={"nopython": True, **options})
    disp.enable_caching()
    return disp


def hot(fn: F) -> F:
    """Compile an inner-loop function (inlined, unchecked division, no refcounts)."""
    return cast(F, _compile(fn, error_model="numpy", forceinline=True, _nrt=False))


def hot_call(fn: F) -> F:
    """Like :func:`hot` but kept as a call: for larger functions used from many sites."""
    return cast(F, _compile(fn, error_model="numpy", _nrt=False))


def hot_call_literal(fn: F) -> F:
    """Like :func:`hot_call`, but compiled once per set of literal constants its callers pass.

    For :func:`sim.engine.choose.choose` alone: each decision site passes its kind and
    form as constants, and the copy for that site keeps only the code those take
    (15-20 % of the heuristic's speed, measured); the players are not in it.
    """
    return cast(F, njit(cache=True, error_model="numpy", _nrt=False)(fn))  # type: ignore[call-overload]


def compiled(fn: F) -> F:
    """Compile a larger function that may allocate (numba's reference counting kept)."""
    return cast(F, _compile(fn, error_model="numpy"))


def kernel(fn: F) -> F:
    """Compile a parallel kernel over deals."""
    return cast(F, njit(cache=True, parallel=True, error_model="numpy")(fn))


# --- calls across a compile boundary ------------------------------------------------------
# A kernel that calls the engine links the engine's code into its own and optimises it
# all again (twice for a parallel kernel: its loop body and the kernel). Calling it
# through the address of a callback compiled once (:func:`entry_address`) links
# nothing. The arguments cross as one packed tuple in memory: the caller stores the
# tuple's value (:func:`call_packed`), the callback reads it back (:func:`unpacked`),
# both checked at compile time against the one tuple type the boundary declares.
# Arrays cross without reference counting, so the callback is compiled without it
# (``_nrt=False``) and the caller keeps them alive for the call.

_I8P = ir.IntType(8).as_pointer()


def packed_type(*values: Any) -> Any:
    """The numba tuple type of ``values`` (sample values of a boundary's arguments)."""
    return typeof(tuple(values))


@intrinsic
def call_packed(typingctx, addr, args, expected):  # type: ignore[no-untyped-def]
    """Call the callback at ``addr`` with the tuple ``args`` packed in memory (no result)."""
    want = getattr(expected, "instance_type", None)
    if want is None or args != want:
        raise TypeError(f"packed arguments {args} differ from the boundary's {want}")
    sig = types.void(types.int64, args, expected)

    def codegen(context, builder, signature, llargs):  # type: ignore[no-untyped-def]
        slot = cgutils.alloca_once_value(builder, llargs[1])
        fn = builder.inttoptr(llargs[0], ir.FunctionType(ir.VoidType(), [_I8P]).as_pointer())
        builder.call(fn, [builder.bitcast(slot, _I8P)])
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def unpacked(typingctx, ptr, expected):  # type: ignore[no-untyped-def]
    """The tuple of type ``expected`` that :func:`call_packed` stored at ``ptr``."""
    want = expected.instance_type
    sig = want(types.voidptr, expected)

    def codegen(context, builder, signature, llargs):  # type: ignore[no-untyped-def]
        llty = context.get_value_type(want)
        return builder.load(builder.bitcast(llargs[0], llty.as_pointer()))

    return sig, codegen


@cache_fn
def entry_address(module: str, name: str) -> int:
    """The address of ``module.name(ptr)`` compiled as a callback (compiled or loaded once)."""
    entry = getattr(importlib.import_module(module), name)
    options: dict[str, Any] = {"cache": True, "error_model": "numpy", "_nrt": False}
    return cast(int, cfunc(types.void(types.voidptr), **options)(entry).address)


def body(fn: F) -> F:
    """A function only a boundary's callback calls: inlined there by numba itself.

    numba would otherwise compile and optimise it on its own first, then again
    inside the callback (the whole engine, twice).
    """
    options: dict[str, Any] = {"inline": "always", "error_model": "numpy", "_nrt": False}
    return cast(F, njit(**options)(fn))


# --- small arrays on the stack --------------------------------------------------------------
@intrinsic
def _stack_floats(typingctx, size):  # type: ignore[no-untyped-def]
    """The intrinsic behind :data:`stack_floats`."""
    if not isinstance(size, types.IntegerLiteral):
        return None  # typed again with the constant
    n = size.literal_value
    arrty = types.Array(types.float64, 1, "C")

    def codegen(context, builder, signature, llargs):  # type: ignore[no-untyped-def]
        item = context.get_data_type(types.float64)
        data = cgutils.alloca_once(builder, item, size=n)
        ary = context.make_array(arrty)(context, builder)
        width = context.get_constant(types.intp, context.get_abi_sizeof(item))
        context.populate_array(
            ary,
            data=data,
            shape=[context.get_constant(types.intp, n)],
            strides=[width],
            itemsize=width,
            meminfo=None,
        )
        return ary._getvalue()

    return arrty(size), codegen


stack_floats = cast(Callable[[int], Any], _stack_floats)
"""A ``float64`` array of ``size`` (a constant) on the calling function's stack.

For :func:`hot` code, which may not allocate: the array lives until the function
returns (it must not be returned or kept), its values start undefined.
"""


@intrinsic
def _prefetch_row(typingctx, arr, row):  # type: ignore[no-untyped-def]
    """The intrinsic behind :data:`prefetch_row`."""
    if not isinstance(arr, types.Array) or arr.ndim != 2 or not isinstance(row, types.Integer):
        return None

    def codegen(context, builder, signature, llargs):  # type: ignore[no-untyped-def]
        aryty, rowty = signature.args
        ary = context.make_array(aryty)(context, builder, llargs[0])
        ptr = cgutils.get_item_pointer2(
            context,
            builder,
            data=ary.data,
            shape=cgutils.unpack_tuple(builder, ary.shape),
            strides=cgutils.unpack_tuple(builder, ary.strides),
            layout=aryty.layout,
            inds=[
                context.cast(builder, llargs[1], rowty, types.intp),
                context.get_constant(types.intp, 0),
            ],
            wraparound=False,
            boundscheck=False,
        )
        byte_ptr = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        # a read, kept in every cache level, of data
        builder.call(fn, [builder.bitcast(ptr, byte_ptr), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(arr, row), codegen


prefetch_row = cast(Callable[[Any, int], None], _prefetch_row)
"""``prefetch_row(a, i)``: start loading row ``i`` of the 2-D array ``a`` into the cache.

A hint with no effect on any value: the open-card solver asks for a table entry's line
before the work that precedes reading it (:func:`sim.engine.search._enter`).
"""


@intrinsic
def _claim(typingctx, counter):  # type: ignore[no-untyped-def]
    """The intrinsic behind :data:`claim`."""
    if not (
        isinstance(counter, types.Array)
        and counter.ndim == 1
        and counter.dtype == types.int64
        and counter.layout == "C"
    ):
        return None

    def codegen(context, builder, signature, llargs):  # type: ignore[no-untyped-def]
        ary = context.make_array(signature.args[0])(context, builder, llargs[0])
        one = ir.Constant(ir.IntType(64), 1)
        return builder.atomic_rmw("add", ary.data, one, "monotonic")

    return types.int64(counter), codegen


claim = cast(Callable[[Any], int], _claim)
"""``claim(counter)``: add 1 to ``counter[0]`` atomically; the value it had before.

The parallel kernels hand out their blocks with it: each thread claims the next block
when it has finished its last, so a thread that drew cheap blocks takes more of them
rather than waiting at the end for one that drew slow ones (the sampling players'
deals differ in cost a hundredfold).
"""
