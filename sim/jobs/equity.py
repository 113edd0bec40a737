"""The equity table of a rule set: each player's chance to win the game before a deal.

:func:`equity_model` gives the fitted :class:`analysis.equity.EquityModel` of a rule set
and player: the one shipped with the package (``sim/data/equity/``, fitted by
``python -m training.equity``) when it was fitted under the same rules, player and
engine version, else one fitted once on :data:`FIT_GAMES` games of seed
:data:`FIT_SEED` and kept under :func:`sim.cache.tables_root`. :func:`win_chance_after`
gives every seat's chance after each of a batch of a deal's possible results::

    from sim.jobs.equity import equity_model, win_chance_after
    from sim.rules import load_rules
    from sim.runs.equity import GameState

    rules = load_rules("classic")
    model = equity_model(rules)
    model.win_chance([[600, 450, 300]], [[-1, -1, -1]], [0])
    state = GameState(scores=(600, 450, 300), dealer=0)
    win_chance_after(model, rules, state, {"declarer": [1, 1], "contract": [120, 120],
        "made": [1, 0], "conceded": [0, 0], "delta_0": [40, 40], "delta_1": [120, -120],
        "delta_2": [0, 0], "bolt_0": [0, 0], "bolt_1": [0, 0], "bolt_2": [1, 1]})
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sim
from sim.players import DEFAULT
from sim.rules import Rules
from sim.runs.folder import QUIET, Feedback

if TYPE_CHECKING:
    import numpy as np

    from analysis.equity import EquityModel
    from sim.runs.equity import GameState

SHIPPED = Path(__file__).resolve().parents[1] / "data" / "equity"
"""The fitted models shipped with the package (``{rules}-{player}.npz``)."""
FIT_GAMES = 20_000  # games of a model fitted on demand (about 15 s on two cores)
FIT_SEED = 1_000


def shipped_path(rules: Rules, player: str = DEFAULT) -> Path:
    """Where the shipped model of ``rules`` (by its name) and ``player`` lies, if any."""
    return SHIPPED / f"{rules.name}-{player}.npz"


def cache_path(rules: Rules, player: str = DEFAULT) -> Path:
    """Where the model fitted on demand is kept (:func:`sim.cache.tables_root`)."""
    from sim.cache import tables_root

    name = f"{rules.rules_hash}-e{sim.ENGINE_VERSION}-{player}-equity-{FIT_GAMES}-{FIT_SEED}"
    return tables_root() / f"{name}.npz"


def fits(model: EquityModel, rules: Rules, player: str) -> bool:
    """Whether ``model`` was fitted under ``rules``, for ``player``, by this engine."""
    return (
        model.rules_hash == rules.rules_hash
        and model.player == player
        and model.engine_version == sim.ENGINE_VERSION
        and model.players == rules.players
    )


def _read(path: Path, rules: Rules, player: str) -> EquityModel | None:
    from analysis.equity import EquityModel

    try:
        model = EquityModel.load(path)
    except (OSError, ValueError, KeyError):
        return None
    return model if fits(model, rules, player) else None


def fit_model(
    rules: Rules,
    player: str = DEFAULT,
    games: int = FIT_GAMES,
    seed: int = FIT_SEED,
    feedback: Feedback = QUIET,
) -> EquityModel:
    """An equity model fitted on ``games`` games of seed ``seed``, ``player`` at every seat."""
    from analysis.equity import EquityModel
    from sim.runs.equity import game_states

    with feedback.bar(games, "game", "") as bar:
        states = game_states(rules, player, games, seed, progress=bar.update)
    return EquityModel.fit(states)


def equity_model(rules: Rules, player: str = DEFAULT, feedback: Feedback = QUIET) -> EquityModel:
    """The equity model of ``rules`` for ``player`` at every seat.

    The shipped one when it was fitted under the same rules (hash: whatever their
    name), player and engine version; else the one fitted once on :data:`FIT_GAMES` games of seed
    :data:`FIT_SEED` and kept under :func:`sim.cache.tables_root` (written to a
    temporary file, then put in place; a cache that cannot be written is fitted again
    next time).
    """
    named = shipped_path(rules, player)  # by the rules' name, else any that fits
    for shipped in [named, *sorted(p for p in SHIPPED.glob("*.npz") if p != named)]:
        model = _read(shipped, rules, player)
        if model is not None:
            return model
    path = cache_path(rules, player)
    model = _read(path, rules, player)
    if model is not None:
        return model
    model = fit_model(rules, player, FIT_GAMES, FIT_SEED, feedback)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.stem}.{os.getpid()}.npz")
        model.save(tmp)
        tmp.replace(path)
    except OSError:  # a read-only cache: fitted again next time
        pass
    return model


def win_chance_after(
    model: EquityModel, rules: Rules, state: GameState | Sequence[GameState], outcomes: Any
) -> np.ndarray:
    """Each seat's chance to win the game after each of a batch of the next deal's results.

    The results are applied to ``state`` by the game's rules
    (:func:`sim.runs.equity.after_deal`); where a result ends the game its winner's
    chance is 1 and the others' 0, elsewhere it is the model's chance from the state
    after it, the next deal dealt by the seat left of ``state.dealer``.

    Args:
        model: the equity model (:func:`equity_model`) of the rules.
        rules: house rules.
        state: the game before the deal (or one state per result).
        outcomes: the deal's results (see :func:`sim.runs.equity.after_deal`).

    Returns:
        ``(len(outcomes), players)`` chances, each row summing to 1.
    """
    import numpy as np

    from sim.runs.equity import after_deal

    if model.players != rules.players:
        raise ValueError(f"model: {model.players} seats, the rules {rules.players}")
    after = after_deal(rules, state, outcomes)
    chance = model.win_chance(after.scores, after.barrel, after.dealer)
    over = after.winner >= 0
    chance[over] = 0.0
    chance[np.flatnonzero(over), after.winner[over]] = 1.0
    return chance


__all__ = [
    "FIT_GAMES",
    "FIT_SEED",
    "SHIPPED",
    "cache_path",
    "equity_model",
    "fit_model",
    "fits",
    "shipped_path",
    "win_chance_after",
]
