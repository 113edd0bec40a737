"""The two ways the toolkit compiles code with numba, in one place.

* :func:`hot`: small functions of the engine's inner loop. LLVM inlines them
  (``forceinline``), integer division skips Python's zero check
  (``error_model="numpy"``), and they run without numba's reference counting
  (``_nrt=False``), which would otherwise cost two atomic operations per array
  argument per call, several times the work of a card play. A ``hot`` function must
  therefore never allocate or return an array.
* :func:`kernel`: the parallel loops over many deals (``prange``); they may allocate
  per-block scratch arrays.

Both cache their machine code on disk (``cache=True``). The decorators return the
function with its own signature, so type checkers read the annotations as written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from numba import njit

F = TypeVar("F", bound=Callable[..., Any])


def hot(fn: F) -> F:
    """Compile an inner-loop function (inlined, unchecked division, no refcounts)."""
    compiled = njit(cache=True, error_model="numpy", forceinline=True, _nrt=False)(fn)  # type: ignore[call-overload]
    return cast(F, compiled)


def hot_call(fn: F) -> F:
    """Like :func:`hot` but kept as a call: for larger functions used from many sites."""
    compiled = njit(cache=True, error_model="numpy", _nrt=False)(fn)  # type: ignore[call-overload]
    return cast(F, compiled)


def kernel(fn: F) -> F:
    """Compile a parallel kernel over deals."""
    return cast(F, njit(cache=True, parallel=True, error_model="numpy")(fn))
