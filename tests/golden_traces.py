"""Golden traces: a fixed sample of deals and of whole games per preset, as JSON Lines.

``tests/test_golden.py`` fails on any difference. After an intended change of
behaviour (and an ENGINE_VERSION bump), regenerate them explicitly with
``make golden`` (``python tests/golden_traces.py --regenerate``) and review the diff.
"""

import json
import sys
from pathlib import Path

from support import PRESETS

from sim.engine import play_hands
from sim.engine.game import play_games
from sim.rules import load_rules

GOLDEN = Path(__file__).with_name("golden")
SEED = 20261130
# The frozen first heuristic: the traces check the engine, not the current player.
LINEUPS = {"heuristic": ("heuristic_v1", "heuristic_v1"), "mixed": ("random", "heuristic_v1")}
N = 40
GAMES = 2  # whole games per line-up (each a few dozen deals with its scores and events)


KINDS = ("hands", "games")  # deal traces, and whole-game traces


def golden_lines(preset: str, kind: str = "hands") -> list[str]:
    """The trace lines of one preset, seed fixed: N slots or GAMES games per line-up."""
    rules = load_rules(preset)
    lines = []
    for name, pattern in LINEUPS.items():
        lineup = [pattern[s % 2] for s in range(rules.players)]
        if kind == "hands":
            batch = play_hands(rules, N, SEED, lineup, trace=True)
        else:
            batch = play_games(rules, GAMES, SEED, lineup, trace=True)
        for doc in batch.traces():
            lines.append(json.dumps({"lineup": name, **doc}, separators=(",", ":")))
    return lines


def path_of(preset: str, kind: str = "hands") -> Path:
    return GOLDEN / f"{preset}.jsonl" if kind == "hands" else GOLDEN / kind / f"{preset}.jsonl"


def regenerate() -> None:
    for preset in PRESETS:
        for kind in KINDS:
            path = path_of(preset, kind)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("\n".join(golden_lines(preset, kind)) + "\n", encoding="utf-8")
            print(f"wrote {path}")


if __name__ == "__main__":
    if "--regenerate" not in sys.argv:
        sys.exit("usage: python tests/golden_traces.py --regenerate")
    regenerate()
