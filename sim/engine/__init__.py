"""The fast hand engine: plays deals end to end under any ``Rules``, compiled.

Phases live in their own modules (``reshuffle``, ``bidding``, ``play``,
``scoring``), the deal loop in ``driver``, whole games in ``game``; ``PROTOCOL.md``
and ``GAME_PROTOCOL.md`` are the contracts shared with the plain reference engine
(``sim.reference``). :func:`play_hands` is the batch entry point,
:func:`play_hand_text` plays one deal written as card strings (scenario tests),
:func:`decision_snapshots` yields the states at a run's decisions.

The entry points are loaded on first use, so importing a helper module of the
engine (``sim.engine.bits``, ``sim.engine.params``) does not load the driver.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sim.engine.api import HandsBatch, decision_snapshots, play_hand_text, play_hands

__all__ = ["HandsBatch", "decision_snapshots", "play_hand_text", "play_hands"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from sim.engine import api

        return getattr(api, name)
    raise AttributeError(f"module 'sim.engine' has no attribute {name!r}")
