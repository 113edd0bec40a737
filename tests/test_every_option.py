"""No option may do nothing: changing any field of ``Rules`` changes what the engine plays.

The test walks every option key (:data:`sim.rules.RULE_KEYS`, so a new option is
walked too): for each, a probe changes that one key from a base rule set and plays
the same small seeded runs (hands and whole games) under both; the outputs must
differ. A new option whose probe finds no difference fails here.

Most options act on the engine directly (legal actions, scoring, dealing, the game
loop). Some act only through the choices of a strategy that uses them; those are
listed in :data:`THROUGH_CHOICES` with the strategy whose play shows the effect.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from sim.engine import play_hands
from sim.engine.game import play_games
from sim.rules import _FIELD_META, RULE_KEYS, Rules, load_rules
from sim.runs.games import games_frame

SEED = 3
HANDS = 2000
GAMES = 150

# Options whose effect comes only through a player's choices (the engine offers or
# shows something; a player must use it), with a strategy that does:
THROUGH_CHOICES = {
    "bid.jumps": "random",  # the raises offered; heuristic raises one step (issue 13)
    "bid.cap_by_marriages": "random",  # bids beyond the cap are offered
    "talon.discard_face_down": "heuristic",  # a defender sees the other's card or not
    "reshuffle.talon_only_at_100": "random",  # whether a talon redeal is offered
    "rospis.allowed": "random",  # whether a concession is offered
}


@dataclass(frozen=True)
class Probe:
    """A base rule set (preset plus overrides), the changed value and what to play."""

    value: Any = None  # None: another value of the option (:func:`other_value`)
    base: str = "classic"
    overrides: dict[str, Any] = field(default_factory=dict)
    strategy: str = "random"
    runs: tuple[str, ...] = ("hands", "games")


# Options whose effect needs another base, another value or a sensible player.
PROBES: dict[str, Probe] = {
    "deal.cut_chain": Probe(7, overrides={"deal__method": "cut"}, runs=("hands",)),
    "reshuffle.after_discard_points_below": Probe(30),
    "talon.discard_face_down": Probe(True, strategy="heuristic"),
    "talon.two_players": Probe("discard", base="two_players"),  # §12: two players only
    "marriage.ace_sets_trump": Probe(True, overrides={"marriage__ace": True}),
    "bolt.double_in_special": Probe(False, base="ukraine_online", runs=("games",)),
    "golden.repeat_if_none": Probe(
        True,
        base="ukraine_online",
        overrides={"golden__reset_if_none": False},
        strategy="heuristic",
        runs=("games",),
    ),
    **{
        key: Probe(base="ukraine_online", strategy="heuristic", runs=("games",))
        for key in RULE_KEYS
        if key.startswith(("golden.", "dark.")) and key != "golden.repeat_if_none"
    },
    "game.target": Probe(1200, strategy="heuristic", runs=("games",)),
    "game.target_strict": Probe(True, strategy="heuristic", runs=("games",)),
    "game.bank": Probe(50, strategy="heuristic", runs=("games",)),
    "barrel.one_at_a_time": Probe(False, strategy="heuristic", runs=("games",)),
    "barrel.simultaneous": Probe("all_fall", strategy="heuristic", runs=("games",)),
    "barrel.bid_from": Probe(120, strategy="heuristic", runs=("games",)),
    "talon.sitter_scores": Probe(base="four_players", runs=("hands",)),
    "score.lock_at": Probe(500, strategy="heuristic", runs=("games",)),
}


def other_value(key: str, value: Any) -> Any:
    """A valid value of ``key`` other than ``value``: the flipped bool, the next choice,
    ``value ± 5`` or ``± 1`` within its bounds, or a typical setting for an option off."""
    meta = _FIELD_META[key]
    if isinstance(value, bool):
        return not value
    if "choices" in meta:
        return next(c for c in meta["choices"] if c != value)
    if value is None:
        return -120 if key == "bid.silence_below" else 60
    lo, hi = meta.get("lo", value - 5), meta.get("hi", value + 5)
    return next(v for v in (value + 5, value - 5, value + 1, value - 1) if lo <= v <= hi)


def _output(rules: Rules, probe: Probe, run: str) -> Any:
    if run == "hands":
        return play_hands(rules, HANDS, SEED, (probe.strategy,) * rules.players).out
    return games_frame(play_games(rules, GAMES, SEED, (probe.strategy,)))


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray):
        return a.shape == b.shape and np.array_equal(a, b)
    return bool(a.equals(b))


@pytest.mark.parametrize("key", RULE_KEYS)
def test_changing_the_option_changes_the_play(key):
    probe = PROBES.get(key, Probe(strategy=THROUGH_CHOICES.get(key, "random")))
    assert key not in THROUGH_CHOICES or probe.strategy == THROUGH_CHOICES[key]
    base = load_rules(probe.base).replace(**probe.overrides)
    value = probe.value if probe.value is not None else other_value(key, base.to_dict()[key])
    changed = base.replace(**{key.replace(".", "__"): value})
    assert changed.to_dict()[key] != base.to_dict()[key]
    # the runs in order, up to the first that differs (the games take longest)
    differs = (
        not _same(_output(base, probe, run), _output(changed, probe, run)) for run in probe.runs
    )
    assert any(differs), (
        f"{key}: {base.to_dict()[key]!r} -> {value!r} changed nothing in {probe.runs}"
    )


def test_choice_only_options_change_nothing_for_a_player_that_ignores_them():
    """The listed options act through choices: the ``first`` player, who always takes
    the lowest action, plays the same under the options that only widen its choices."""
    base = load_rules("classic")
    for key in ("bid.jumps", "bid.cap_by_marriages"):
        changed = base.replace(**{key.replace(".", "__"): not base.to_dict()[key]})
        a = play_hands(base, 500, SEED, ("first",) * 3).out
        b = play_hands(changed, 500, SEED, ("first",) * 3).out
        assert np.array_equal(a, b), key
