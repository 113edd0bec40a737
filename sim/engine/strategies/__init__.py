"""Scripted strategies: ``random`` (uniform legal), ``first`` (lowest code), ``heuristic``."""

from sim.engine.strategies.registry import STRATEGIES, StrategySpec, parse_params, parse_strategies

__all__ = ["STRATEGIES", "StrategySpec", "parse_params", "parse_strategies"]
