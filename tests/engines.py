"""The hand engines that the rule scenario tests run against.

Each entry maps an engine name to a function with the signature of
:func:`sim.reference.play_hand_text`::

    play(rules, hands: list[str], talon: str, dealer: int, **kw) -> dict

where ``kw`` holds ``script``, ``strategies``, ``seed``, ``deal_id``, ``attempt``,
``scores`` and ``barrel`` as :func:`sim.reference.play_hand` takes them, and the result
is the trace object of ``sim/engine/PROTOCOL.md``. A scripted token that is not
legal must raise :class:`sim.reference.ScriptError` (or a subclass).
"""

from collections.abc import Callable
from typing import Any

from sim import reference
from sim.engine import play_hand_text as fast_play_hand_text

ENGINES: dict[str, Callable[..., dict[str, Any]]] = {
    "reference": reference.play_hand_text,
    "fast": fast_play_hand_text,
}
