"""The compiled players' addresses a run passes its kernels (``W.hooks``).

The players whose record names an ``entry`` (:mod:`sim.players`) are compiled once each,
on their own, as C callbacks with the signature of :mod:`sim.engine.strategies.hook` (and cached on
disk like the rest), the first time a run's seats need them; the engine calls them
through their addresses. The others (``first``, ``random``, ``heuristic``,
``heuristic_v1``) are part of the engine itself and need none. Only :func:`player_address`
imports numba (a process that drives workers reads :func:`entry_names`).
"""

from __future__ import annotations

import importlib
from functools import cache

import numpy as np

from sim.engine.strategies.registry import N_HOOKS, strategy_ids
from sim.players import RECORDS

# strategy id -> (module, entry function), from the players' records: every player with
# a callback of its own. The players built into ``choose`` (``heuristic`` and
# ``heuristic_v1``, the fast scripted players the speed figures are about) have none:
# through an address a decision cost them 10-25 % of their speed.
ENTRIES = {p.id: tuple(p.entry.rsplit(".", 1)) for p in RECORDS if p.entry is not None}
# strategy id -> the id whose callback it plays through (the cheater: pimc's)
SHARED = {p.id: next(q.id for q in RECORDS if q.name == p.entry_of) for p in RECORDS if p.entry_of}


@cache
def player_address(strategy: int) -> int:
    """The address of a player's compiled callback (compiled, or loaded, on first use)."""
    from numba import cfunc

    from sim.engine.strategies.hook import SIG

    module, name = ENTRIES[SHARED.get(strategy, strategy)]
    entry = getattr(importlib.import_module(module), name)
    return int(cfunc(SIG, cache=True, error_model="numpy")(entry).address)


def needed(strategy_ids: np.ndarray) -> set[int]:
    """The ids of the players whose callbacks a run of these seats calls.

    A player that plays through another's callback needs that one; the decisions a
    player leaves to the heuristic are made in the engine itself.
    """
    ids = {int(s) for s in np.asarray(strategy_ids).ravel()}
    return {SHARED.get(s, s) for s in ids} & set(ENTRIES)


def entry_names(names: list[str] | tuple[str, ...]) -> list[str]:
    """``module.function`` of the compiled callbacks a run of these strategy names needs."""
    return [".".join(ENTRIES[s]) for s in sorted(needed(strategy_ids(list(names))))]


def hooks_for(strategy_ids: np.ndarray, *engine: tuple[int, str, str]) -> np.ndarray:
    """The ``hooks`` array a run passes its kernels: the callbacks its seats need.

    ``engine`` adds the engine's own callbacks the kernel calls, as ``(slot, module,
    function)`` (:func:`sim.jit.entry_address`).
    """
    hooks = np.zeros(N_HOOKS, dtype=np.int64)
    if engine:
        from sim.jit import entry_address

        for slot, module, name in engine:
            hooks[slot] = entry_address(module, name)
    for strategy in needed(strategy_ids):
        hooks[strategy] = player_address(strategy)
    for strategy, owner in SHARED.items():
        hooks[strategy] = hooks[owner]
    return hooks
