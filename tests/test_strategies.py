"""Strategies parse their names and parameters, and the heuristic's knobs do what they say.

What every player must do (legal moves, hidden cards ignored, the same bytes from the
same seed) is tests/test_players_api.py's, over the players' records.
"""

import pytest

from sim.engine.strategies.registry import StrategyError, parse_params, parse_strategies
from sim.rules import load_rules


def test_strategy_and_parameter_parsing():
    assert parse_strategies("heuristic") == ["heuristic"] * 3
    assert parse_strategies("heuristic,random,first") == ["heuristic", "random", "first"]
    with pytest.raises(StrategyError, match="unknown strategy 'smart'"):
        parse_strategies("smart")
    with pytest.raises(StrategyError, match="1 or 3"):
        parse_strategies("random,random")
    table = parse_params(["heuristic", "random", "heuristic"], ["heuristic.aggression=0.3"])
    assert table[0, 0] == table[2, 0] == 0.3 and table[1, 0] == 0
    with pytest.raises(StrategyError, match="no parameter 'bravery'"):
        parse_params(["heuristic"] * 3, ["heuristic.bravery=1"])
    with pytest.raises(StrategyError, match="not a number"):
        parse_params(["heuristic"] * 3, ["heuristic.aggression=lots"])


def test_aggression_raises_contracts():
    from sim.engine import play_hands

    rules = load_rules("classic")
    timid = play_hands(rules, 20000, 1, ("heuristic",) * 3, ["heuristic.aggression=-0.3"])
    bold = play_hands(rules, 20000, 1, ("heuristic",) * 3, ["heuristic.aggression=0.3"])
    assert bold.column("contract").mean() > timid.column("contract").mean() + 5
