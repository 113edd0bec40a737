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
    from sim.batch.parquet_write import write_frame
    from sim.engine.api import play_hands
    from sim.rules import load_rules
    from sim.runs.hands import hands_frame, hands_part

    lineup = ("heuristic", "guide", "heuristic_v1")
    batch = play_hands(load_rules("classic"), 8, 0, lineup, trace=True)
    hands_frame(batch)  # and the frame's kernel
    # the Parquet writer's, on the hands file's column types (dictionary and plain), from
    # a frame and straight from a batch's rows
    batch = play_hands(load_rules("classic"), 300, 0, ("heuristic",))
    write_frame(hands_frame(batch))
    hands_part(batch)
    return "hands"


def _games() -> str:
    from sim.engine.game import play_games
    from sim.rules import load_rules

    play_games(load_rules("classic"), 2, 0)
    return "games"


def _odds() -> str:
    from sim.rules import load_rules
    from sim.runs.odds import simulate_odds

    simulate_odds(load_rules("classic"), 1000, 0)
    return "odds"


def _declarer() -> str:
    from sim.rules import load_rules
    from sim.runs.declarer import run_items

    run_items(load_rules("classic"), "heuristic", 4, 0)
    return "declarer"


def _plans() -> str:
    from sim.engine.deal import generate_deals
    from sim.rules import load_rules
    from sim.runs.declarer import masks_of_cards
    from sim.runs.plans import play_plans

    play_plans(load_rules("classic"), masks_of_cards(generate_deals(2, 0, 3), 3), 2, 0, "strong")
    return "plans"


def _advice() -> str:
    from sim.jobs.advice_tables import bidding_policy, load_tables
    from sim.rules import load_rules
    from sim.runs.equity import game_states

    # the class tables and the auction reading the advisor's tests share (built once,
    # kept under the tables' cache), and the game replay's two loops
    rules = load_rules("classic")
    load_tables(rules, "strong")
    bidding_policy(rules, "strong")
    game_states(rules, "strong", 2, 0)
    return "advice"


def _solver() -> str:
    from sim.rules import load_rules
    from sim.runs.declarer import run_items

    run_items(load_rules("classic"), "par", 1, 0)  # the solver through the par
    return "solver"


def _open_card() -> str:
    import numpy as np

    from sim.engine import search
    from sim.rules import load_rules
    from sim.solver.position import OpenCardSolver, Position, play_state

    # the open-card solver's entries as its callers in Python use them (the talon's
    # bound, `thousand solve`, the solver's tests), beside the par's (the other group's)
    solver = OpenCardSolver(tt_bits=12)
    S, P = play_state(Position((0b11, 0b1100, 0b110000), 0, 0), load_rules("classic"))
    solver.value(S, P)
    solver.moves(S, P)
    memo = np.zeros((1 << 10, 4), np.int64), np.zeros(1 << 10, np.int64)
    search.exhaustive(solver.ws, P, S, *memo)
    return "open_card"


def _pimc_types() -> tuple[object, object, object]:
    """The types the sampling player's callback passes: int64, and its C arrays."""
    from numba import types

    return types.int64, types.Array(types.int64, 1, "C"), types.Array(types.float64, 1, "C")


def _pimc_play() -> str:
    from sim.engine.strategies import pimc

    i, a, f = _pimc_types()
    pimc.pimc_play.compile((i, a, a, i, i, a, f))  # as pimc_entry calls it
    return "pimc_play"


def _pimc_rest() -> str:
    from sim.engine.strategies import pimc

    i, a, f = _pimc_types()
    pimc.pimc_give.compile((a, a, a, f))
    pimc.pimc_contract.compile((a, a, a, i, i, f))
    pimc.pimc_concede.compile((a, a, a, f))
    pimc.pimc_bid.compile((a, a, a, i, i, i, f))
    pimc.pimc_bid_sampled.compile((a, a, a, i, i, i, f))
    return "pimc_rest"


def _teach() -> str:
    from sim.engine.strategies.pimc.discard import discard_scores
    from sim.engine.strategies.pimc.labels import bid_reached, contract_reached, play_made

    i, a, f = _pimc_types()
    contract_reached.compile((a, a, a, i, i, f, a))  # as sim.runs.teach calls them
    bid_reached.compile((a, a, a, i, i, f, a))
    play_made.compile((i, a, a, a, f, a, a))
    discard_scores.compile((a, a, a, f, a, f))
    return "teach"


def _pimc() -> str:
    from sim.engine.strategies.addresses import player_address
    from sim.players import PLAYERS

    # the sampling player's callback (the engine is the other group's)
    player_address(PLAYERS["pimc"].id)
    return "pimc"


def _strong() -> str:
    from sim.engine.strategies.addresses import player_address
    from sim.players import PLAYERS

    # the fitted player's callback (it holds the heuristic's code)
    player_address(PLAYERS["strong"].id)
    return "strong"


# The engine's kernels share their compiled parts (cached per module): the hands kernel
# compiles the deal engine, the games kernel then reuses it. The sampling player is
# the longest (about 70 s alone on one core, 2026-12-05; 200-290 s before its worlds'
# sampler became a C callback its decisions call by name, sim.engine.strategies.pimc.
# worlds): its card play is compiled first in the engine's group, its other decisions
# first in the other, whose callback then loads them all from the cache. The solver
# shares nothing with the engine; the fitted player, after the sampling player, loads
# the heuristic's code it shares with it; the declarer kernel comes after, by when the
# engine's phases it shares are cached, and the bid plans' kernel (the advisor's) after
# it, then the advisor's class tables and auction reading built with it (about 12 s on
# two cores) and the game replay; the teacher's labels (the solver's probes) last. The
# open-card solver's own entries (not the par's) end the engine's group, which is the
# shorter by then.
# From an empty cache on 2 cores: 78 s (164 s before the callback).
GROUPS = (
    (_pimc_play, _hands, _games, _open_card),
    (_pimc_rest, _pimc, _strong, _solver, _odds, _declarer, _plans, _advice, _teach),
)


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
