"""The fast hand engine: plays 3-player deals end to end under any ``Rules``.

Phases live in their own modules (``bidding``, ``play``, ``scoring``), the deal
loop in ``driver``; ``PROTOCOL.md`` is the contract shared with the plain
reference engine (``sim.reference``). :func:`play_hands` is the batch entry point,
:func:`play_hand_text` plays one deal written as card strings (scenario tests).
"""

from sim.engine.api import HandsBatch, play_hand_text, play_hands

__all__ = ["HandsBatch", "play_hand_text", "play_hands"]
