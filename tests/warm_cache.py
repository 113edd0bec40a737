"""Compile the engine's big kernels before the tests, on every core, each kernel once.

``make test`` runs this first. The tests run on two processes (pytest-xdist); from
an empty compiled-code cache both would compile the same kernels at the same time
(the hands, games, odds and declarer kernels, the players, the solver). Here each is
compiled once, in two groups on two processes, and the tests then load them from the
cache (:mod:`sim.cache`). With a warm cache this takes a few seconds (loading only).
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _hands() -> str:
    from sim.engine.api import play_hands
    from sim.rules import load_rules

    play_hands(load_rules("classic"), 8, 0, ("heuristic", "guide", "heuristic_v1"), trace=True)
    return "hands"


def _games() -> str:
    from sim.engine.game import play_games
    from sim.rules import load_rules

    play_games(load_rules("classic"), 2, 0)
    return "games"


def _odds() -> str:
    from sim.odds import simulate_odds
    from sim.rules import load_rules

    simulate_odds(load_rules("classic"), 1000, 0)
    return "odds"


def _declarer() -> str:
    from sim.declarer import run_items
    from sim.rules import load_rules

    run_items(load_rules("classic"), "heuristic", 4, 0)
    return "declarer"


def _solver() -> str:
    from sim.declarer import run_items
    from sim.rules import load_rules

    run_items(load_rules("classic"), "par", 1, 0)  # the solver through the par
    return "solver"


def _pimc() -> str:
    from sim.engine.strategies.addresses import player_address
    from sim.engine.strategies.registry import PIMC

    player_address(PIMC)  # the sampling player's callback (the engine is the other group's)
    return "pimc"


def _strong() -> str:
    from sim.engine.strategies.addresses import player_address
    from sim.engine.strategies.registry import STRONG

    player_address(STRONG)  # the fitted player's callback (it holds the heuristic's code)
    return "strong"


# The engine's kernels share their compiled parts (cached per module): the hands kernel
# compiles the deal engine, the games kernel then reuses it. The sampling player and
# the solver share nothing with them; the fitted player, after the sampling player,
# loads the heuristic's code it shares with it (9 s, against 25-35 s alone); the
# declarer kernel comes last, by when the engine's phases it shares are cached. From an
# empty cache (2 cores): hands 83 + games 24 s against pimc 79, strong 9, solver 7,
# odds 4 and declarer 8 s.
GROUPS = ((_hands, _games), (_pimc, _strong, _solver, _odds, _declarer))


def _group(k: int) -> list[str]:
    """Compile one group's kernels in this process; their names and seconds."""
    out = []
    for fn in GROUPS[k]:
        t0 = time.perf_counter()
        out.append(f"{fn()} {time.perf_counter() - t0:.0f} s")
    return out


def main() -> int:
    t0 = time.perf_counter()
    with ProcessPoolExecutor(len(GROUPS)) as pool:
        done = list(pool.map(_group, range(len(GROUPS))))
    print(f"compiled-code cache ready in {time.perf_counter() - t0:.0f} s: {done}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
