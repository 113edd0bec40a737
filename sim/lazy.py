"""A package's face, imported on first use (PEP 562).

A package ``__init__`` lists what it offers in ``__all__`` and where each name lives;
the module behind a name is imported only when the name is first asked for, so that
``import sim.runs.folder`` (or a process that only drives workers) does not load every
sibling module, numba and polars with it::

    __all__, __getattr__, __dir__ = face(__name__, {"play_into": "folder", ...})
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def face(
    package: str, where: Mapping[str, str]
) -> tuple[list[str], Callable[[str], Any], Callable[[], list[str]]]:
    """``__all__``, ``__getattr__`` and ``__dir__`` of ``package``.

    Args:
        package: the package's ``__name__``.
        where: each public name -> the submodule (relative to ``package``) defining it.
    """
    names = sorted(where)

    def getattr_(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    def dir_() -> list[str]:
        return names

    return names, getattr_, dir_
