"""Strategy names, their numeric ids in the compiled engine, and their parameters."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from sim.i18n import _
from sim.rules import did_you_mean

RANDOM = 0
FIRST = 1
HEURISTIC = 2
PIMC = 3
CHEATER = 4  # the sampling player's code on the one true deal: it sees every card
HEURISTIC_V1 = 5  # the first scripted player, frozen for comparisons
GUIDE = 6  # bids and concedes by the strategy guide's tables (sim.engine.strategies.guide)
STRONG = 7  # fitted on the sampling player's decisions (sim.engine.strategies.strong)
N_STRATEGIES = 8  # strategy ids are 0 .. N_STRATEGIES - 1
# ``W.hooks`` holds a player's callback at its strategy id, then the engine's own
# callbacks a kernel calls (sim.jit.entry_address): a block of hands, a game, a block
# of declarer items.
H_PLAY_BLOCK, H_PLAY_GAME, H_PLAY_ITEMS = N_STRATEGIES, N_STRATEGIES + 1, N_STRATEGIES + 2
N_HOOKS = N_STRATEGIES + 3

N_STRATEGY_PARAMS = 32


@dataclass(frozen=True)
class StrategySpec:
    """A strategy: its engine id and its numeric parameters with defaults and meaning."""

    name: str
    id: int
    params: dict[str, tuple[float, str]] = field(default_factory=dict)


_V1_PARAMS: dict[str, tuple[float, str]] = {
    "aggression": (0.0, "bid up to estimate * (1 + aggression); -0.5 timid, 0.5 bold"),
    "concede_margin": (25.0, "concede when the estimate is this far below the contract"),
    "reshuffle_below": (90.0, "demand an allowed reshuffle when the estimate is below"),
    "talon_hope": (12.0, "points the unseen talon is expected to add when bidding"),
    "dark_behind": (
        400.0,
        "as forehand, declare dark (docs/rules.md §11) when this far behind the leader",
    ),
}
_HEURISTIC_PARAMS: dict[str, tuple[float, str]] = {
    "aggression": (0.0, "bid and name contracts as if the hand took (1 + aggression) times more"),
    "concede_margin": (
        0.0,
        "concede only when conceding is expected to score this many points more than playing",
    ),
    "reshuffle_below": (90.0, "demand an allowed reshuffle when the estimate is below"),
    "talon_hope": (12.0, "points the unseen talon is expected to add (reshuffles, undarkening)"),
    "dark_behind": (
        400.0,
        "as forehand, declare dark (docs/rules.md §11) when this far behind the leader",
    ),
    "bid_margin": (
        35.0,
        "raise only when declaring the level is expected to score at least this many points",
    ),
}
BID_MARGIN = list(_HEURISTIC_PARAMS).index("bid_margin")  # the slot of bid_margin
# The sampling player keeps the heuristic's parameters in the same slots (it bids,
# discards and decides reshuffles as the heuristic does) and adds its own after them.
WORLDS = len(_HEURISTIC_PARAMS)  # the parameter slot of pimc.worlds
BID_MAKE = WORLDS + 1  # the slot of pimc.bid_make
DISCARD = WORLDS + 2  # the slot of pimc.discard
BID = WORLDS + 3  # the slot of pimc.bid (bidding by sampled expected scores)
BID_WORLDS = WORLDS + 4  # the slot of pimc.bid_worlds
BID_BIAS = WORLDS + 5  # the slot of pimc.bid_bias
DISCARD_WORLDS = WORLDS + 6  # the slot of pimc.discard_worlds
READ_BIDS = WORLDS + 7  # the slot of pimc.read_bids
OPEN = WORLDS + 8  # the slot that makes the sampling player see every card (cheater)

_MARRIAGE_WORDS = {
    "none": "no marriage",
    "spades": "the ♠ marriage alone",
    "clubs": "the ♣ marriage alone",
    "diamonds": "the ♦ marriage alone",
    "hearts": "the ♥ marriage alone",
    "two": "two marriages or more",
}
# The classic guide at risk 0.75 (thousand guide --rules classic --deals 100000 --seed 0;
# measured with `strong`):
# the highest level each class of dealt hand makes in three deals of four (0: pass), by
# aces 0, 1, 2+; and the highest contract at which playing beats conceding, by the
# marriages kept (400: always play).
GUIDE_BIDS = {
    "none": (0, 0, 0),
    "spades": (0, 0, 105),
    "clubs": (0, 105, 125),
    "diamonds": (0, 120, 145),
    "hearts": (0, 140, 160),
    "two": (0, 135, 150),
}
GUIDE_CONCEDE_ABOVE = {m: 400 for m in _MARRIAGE_WORDS}
_GUIDE_PARAMS: dict[str, tuple[float, str]] = {
    **{
        f"bid_{m}_{a}": (
            float(GUIDE_BIDS[m][a]),
            f"highest bid with {words} and {a}{'+' if a == 2 else ''} aces (0: pass)",
        )
        for m, words in _MARRIAGE_WORDS.items()
        for a in range(3)
    },
    **{
        f"concede_above_{m}": (
            float(GUIDE_CONCEDE_ABOVE[m]),
            f"concede a contract above this with {words} kept",
        )
        for m, words in _MARRIAGE_WORDS.items()
    },
}

_DISCARD_DOC = (
    "0: give cards away as the heuristic does; 1: by sampled deal scores; 2: by strong's "
    "line fitted on those scores (2.4 times faster, measured -0.45 [-1.26, +0.37] a deal)"
)
_BID_PARAMS: dict[str, tuple[float, str]] = {
    "bid": (
        0.0,
        "0: bid as the heuristic (or by bid_make); 1: raise when declaring is expected to "
        "score at least bid_margin over sampled deals (open-card, the talon seen)",
    ),
    "bid_worlds": (40.0, "deals sampled at each bid with pimc.bid=1 (1 to 200)"),
    "bid_bias": (
        10.0,
        "points taken off each sampled deal's open-card total when bidding (pimc.bid=1)",
    ),
    "discard_worlds": (
        10.0,
        "deals sampled at each card given away with pimc.discard=1 (1 to 200)",
    ),
    "read_bids": (
        1.0,
        "1: deal only worlds where each heuristic-bidding opponent would have bid as it did "
        "(its raises, a first pass at 105), by the heuristic's hand model; 0: marriages only",
    ),
}

STRATEGIES: dict[str, StrategySpec] = {
    "random": StrategySpec("random", RANDOM),
    "first": StrategySpec("first", FIRST),
    "heuristic": StrategySpec("heuristic", HEURISTIC, dict(_HEURISTIC_PARAMS)),
    "heuristic_v1": StrategySpec("heuristic_v1", HEURISTIC_V1, dict(_V1_PARAMS)),
    "guide": StrategySpec("guide", GUIDE, {**_HEURISTIC_PARAMS, **_GUIDE_PARAMS}),
    "pimc": StrategySpec(
        "pimc",
        PIMC,
        {
            **_HEURISTIC_PARAMS,
            "worlds": (
                10.0,
                "worlds sampled at each card play, contract and concession (1 to 200)",
            ),
            "bid_make": (
                0.0,
                "0: bid as the heuristic; above 0: raise when the hand makes the next level "
                "in at least this share of sampled deals (open-card, as the declarer)",
            ),
            "discard": (1.0, _DISCARD_DOC),
            **_BID_PARAMS,
        },
    ),
    "strong": StrategySpec("strong", STRONG, dict(_HEURISTIC_PARAMS)),
    "cheater": StrategySpec(
        "cheater",
        CHEATER,
        {
            **_HEURISTIC_PARAMS,
            "worlds": (1.0, "fixed at 1: the one true deal"),
            "bid_make": (0.5, "raise when the true deal makes the next level"),
            "discard": (1.0, _DISCARD_DOC),
            **_BID_PARAMS,
            "discard_worlds": (1.0, "fixed at 1: the one true deal"),
            "open": (1.0, "fixed at 1: sees every card (an upper bound, not a player)"),
        },
    ),
}


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
        counts = ("worlds", "bid_worlds", "discard_worlds")
        why = ""
        if pname in counts and not (1 <= v <= 200 and v == int(v)):
            why = _("--param {item}: {name} must be a whole number 1 to 200")
        elif pname in ("bid", "read_bids") and v not in (0, 1):
            why = _("--param {item}: {name} must be 0 or 1")
        elif pname == "bid_make" and not 0 <= v <= 1:
            why = _("--param {item}: {name} must be a share, 0 to 1")
        elif pname == "discard" and v not in (0, 1, 2):
            why = _("--param {item}: {name} must be 0, 1 or 2")
        elif strat == "cheater" and pname in ("worlds", "discard_worlds", "open") and v != 1:
            why = _("--param {item}: the cheater's {name} is fixed at 1")
        if why:
            raise StrategyError(why.format(item=repr(item), name=pname))
    for seat, name in enumerate(names):
        for j, (pname, (default, _doc)) in enumerate(STRATEGIES[name].params.items()):
            table[seat, j] = values.get((name, pname), default)
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
