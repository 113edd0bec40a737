"""The players' compiled code, and the engine's view of their records (:mod:`sim.players`)."""

from sim.engine.strategies.registry import STRATEGIES, parse_params, parse_strategies
from sim.players import Player

__all__ = ["STRATEGIES", "Player", "parse_params", "parse_strategies"]
