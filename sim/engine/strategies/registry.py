"""The engine's view of the players' records: strategy ids, parameter slots, parsing.

Every player is declared once, in :mod:`sim.players`; the ids, the parameter slots the
compiled players read and the masks the engine tests a seat's strategy against are
derived here from those records.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from sim.i18n import _
from sim.players import DECISIONS, PLAYERS, RECORDS, Param
from sim.rules import did_you_mean

# The engine's strategy ids, as the players' records give them (sim.players).
RANDOM = PLAYERS["random"].id
FIRST = PLAYERS["first"].id
HEURISTIC = PLAYERS["heuristic"].id
PIMC = PLAYERS["pimc"].id
CHEATER = PLAYERS["cheater"].id  # the sampling player's code on the one true deal
HEURISTIC_V1 = PLAYERS["heuristic_v1"].id  # the first scripted player, frozen
N_STRATEGIES = len(RECORDS)  # strategy ids are 0 .. N_STRATEGIES - 1
BUILT_IN = frozenset({RANDOM, FIRST, HEURISTIC, HEURISTIC_V1})
"""The players ``choose`` makes the decisions of itself; every other has a callback."""
for _p in RECORDS:
    if _p.entry is None and _p.entry_of is None and _p.id not in BUILT_IN:
        raise ValueError(f"player {_p.name}: no compiled callback (entry) in its record")
    if _p.rest_by not in (None, "heuristic"):
        raise ValueError(f"player {_p.name}: the engine leaves decisions to the heuristic only")
# ``W.hooks`` holds a player's callback at its strategy id, then the engine's own
# callbacks a kernel calls (sim.jit.entry_address): a block of hands, a game, a block
# of declarer items, a block of deals played on a bid plan.
H_PLAY_BLOCK, H_PLAY_GAME, H_PLAY_ITEMS = N_STRATEGIES, N_STRATEGIES + 1, N_STRATEGIES + 2
H_PLAY_PLANS = N_STRATEGIES + 3
N_HOOKS = N_STRATEGIES + 4

N_STRATEGY_PARAMS = 32

STRATEGIES = PLAYERS
"""Every player's record by name (:data:`sim.players.PLAYERS`)."""


def _slot(player: str, param: str) -> int:
    """The parameter slot of ``player.param`` (its place in the record's parameters)."""
    return list(PLAYERS[player].params).index(param)


def _mask(ids: Iterable[int]) -> int:
    """The strategy ids as one bit mask (a compile-time constant of the engine)."""
    return sum(1 << i for i in set(ids))


BID_MARGIN = _slot("heuristic", "bid_margin")
CONCEDE_MARGIN = _slot("heuristic", "concede_margin")  # every player keeps it in this slot
# The sampling player keeps the heuristic's parameters in the same slots (it bids,
# discards and decides reshuffles as the heuristic does) and adds its own after them.
WORLDS = _slot("pimc", "worlds")
BID_MAKE = _slot("pimc", "bid_make")
DISCARD = _slot("pimc", "discard")
BID = _slot("pimc", "bid")  # bidding by sampled expected scores
BID_WORLDS = _slot("pimc", "bid_worlds")
BID_BIAS = _slot("pimc", "bid_bias")
DISCARD_WORLDS = _slot("pimc", "discard_worlds")
READ_BIDS = _slot("pimc", "read_bids")
CONTRACT_BY = _slot("pimc", "contract")  # 1: the learned contract and concession
TIE_WORLDS = _slot("pimc", "tie_worlds")  # worlds solved exactly to break a card play's tie
TIE_NET = _slot("pimc", "tie_net")  # 1: a card play's tie broken by strong's card scores
BID_VALUE = _slot("strong", "bid_value")  # strong raises where the bid network says this
BID_NET = _slot("strong", "bid_net")  # 1: strong bids by the bid network
OPEN = _slot("cheater", "open")  # the slot that makes the sampling player see every card

SAMPLING = _mask(p.id for p in RECORDS if p.speed == "sampling")
"""The players that search sampled deals (the solver's larger table in their workspace)."""
BIDS_BY_HEURISTIC_RULE = _mask(p.id for p in RECORDS if p.bids_by_heuristic_rule)
"""The players whose raises follow the heuristic's hand model (``pimc.read_bids``)."""
SOME_BY_HEURISTIC = _mask(p.id for p in RECORDS if p.rest_by == "heuristic")
"""The players that leave some decisions to the heuristic (:data:`OWN_KINDS` says which)."""
N_KINDS = len(DECISIONS)
OWN_KINDS = np.zeros(N_STRATEGIES, dtype=np.int64)
"""By strategy id, the decision kinds (bits by ``Decision`` code) its own code makes."""
OWN_WHEN = np.full((N_STRATEGIES, N_KINDS, 2), -1, dtype=np.int64)
"""By strategy id and decision kind, up to two parameter slots: its own code makes that
decision too when the seat's value in one of them is above 0 (-1: none)."""
for _p in RECORDS:
    OWN_KINDS[_p.id] = sum(1 << DECISIONS.index(d) for d in _p.decides or DECISIONS)
    for _d, _keys in _p.decides_when.items():
        for _j, _key in enumerate(_keys):
            OWN_WHEN[_p.id, DECISIONS.index(_d), _j] = list(_p.params).index(_key)
del _p


class StrategyError(ValueError):
    """Unknown strategy or parameter; the message names it."""


def parse_strategies(text: str | Sequence[str], players: int = 3) -> list[str]:
    """``"heuristic,heuristic,random"`` (or one name for every seat) → one name per seat."""
    names = [t.strip() for t in text.split(",")] if isinstance(text, str) else list(text)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        why = _(
            "--strategies needs 1 or {players} names for {players} players, got {count}: {text}"
        )
        raise StrategyError(why.format(players=players, count=len(names), text=repr(text)))
    for n in names:
        if n not in STRATEGIES:
            why = _("unknown strategy {name}{hint} (known: {known})")
            hint = did_you_mean(n, STRATEGIES)
            raise StrategyError(why.format(name=repr(n), hint=hint, known=", ".join(STRATEGIES)))
    return names


def _param_refusal(param: Param, v: float) -> str:
    """Why ``v`` is no value of ``param`` (a message to format), or ``""``."""
    if param.kind == "count" and not (1 <= v <= 200 and v == int(v)):
        return _("--param {item}: {name} must be a whole number 1 to 200")
    if param.kind == "flag" and v not in (0, 1):
        return _("--param {item}: {name} must be 0 or 1")
    if param.kind == "share" and not 0 <= v <= 1:
        return _("--param {item}: {name} must be a share, 0 to 1")
    if param.kind == "mode" and v not in (0, 1, 2, 3):
        return _("--param {item}: {name} must be 0, 1, 2 or 3")
    if param.fixed is not None and v != param.fixed:
        return _("--param {item}: {strategy}'s {name} is fixed at {value}")
    return ""


def parse_params(names: Sequence[str], items: Sequence[str]) -> np.ndarray:
    """``["heuristic.aggression=0.3", ...]`` → the ``(seats, N_STRATEGY_PARAMS)`` float array.

    A parameter applies to every seat playing that strategy.
    """
    table = np.zeros((len(names), N_STRATEGY_PARAMS), dtype=np.float64)
    values: dict[tuple[str, str], float] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        strat, dot, pname = key.strip().partition(".")
        if not sep or not dot:
            why = _("--param {item}: expected STRATEGY.NAME=VALUE")
            raise StrategyError(why.format(item=repr(item)))
        spec = STRATEGIES.get(strat)
        if spec is None:
            why = _("--param {item}: unknown strategy {name}{hint}")
            hint = did_you_mean(strat, STRATEGIES)
            raise StrategyError(why.format(item=repr(item), name=repr(strat), hint=hint))
        if pname not in spec.params:
            why = (
                _("--param {item}: {strategy} has no parameter {name}{hint} ({known})")
                if spec.params
                else _("--param {item}: {strategy} has no parameter {name}{hint} (none)")
            )
            hint = did_you_mean(pname, spec.params)
            raise StrategyError(why.format(
                item=repr(item), strategy=strat, name=repr(pname), hint=hint,
                known=", ".join(spec.params),
            ))  # fmt: skip
        try:
            values[(strat, pname)] = float(raw)
        except ValueError:
            why = _("--param {item}: value {value} is not a number")
            raise StrategyError(why.format(item=repr(item), value=repr(raw))) from None
        v = values[(strat, pname)]
        why = _param_refusal(spec.params[pname], v)
        if why:
            fixed = spec.params[pname].fixed
            value = "" if fixed is None else f"{fixed:g}"
            words = {"item": repr(item), "name": pname, "strategy": strat, "value": value}
            raise StrategyError(why.format(**words))
    for seat, name in enumerate(names):
        for j, (pname, param) in enumerate(STRATEGIES[name].params.items()):
            table[seat, j] = values.get((name, pname), param.default)
    return table


def strategy_ids(names: Sequence[str]) -> np.ndarray:
    """Engine ids of the seats' strategy names."""
    return np.array([STRATEGIES[n].id for n in names], dtype=np.int64)


def seat_lineup(
    players: int,
    strategies: Sequence[str],
    params: Sequence[str] = (),
    seat_params: np.ndarray | None = None,
) -> tuple[list[str], np.ndarray]:
    """Strategy names and the parameter table by seat, checked against ``players``.

    ``strategies`` holds one name per seat or one for every seat; ``seat_params``, a
    ``(players, N_STRATEGY_PARAMS)`` table, replaces ``params`` when given (duels of
    two settings of one strategy).

    Raises:
        ValueError: for a wrong number of names or a wrongly shaped table.
    """
    names = list(strategies) * (players if len(strategies) == 1 else 1)
    if len(names) != players:
        raise ValueError(f"{players} strategies needed (one per seat), got {len(names)}")
    sp = parse_params(names, params)
    if seat_params is not None:
        sp = np.array(seat_params, dtype=np.float64)
        if sp.shape != (players, N_STRATEGY_PARAMS):
            raise ValueError(f"seat_params must have shape ({players}, {N_STRATEGY_PARAMS})")
    return names, sp
