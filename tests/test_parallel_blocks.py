"""The kernels hand out their blocks as threads free up; no result depends on it."""

import numba
import numpy as np
import pytest
from numba import njit, prange

from sim.engine.api import play_hands
from sim.engine.game import play_games
from sim.jit import claim
from sim.parallel import max_threads, set_threads
from sim.rules import load_rules
from sim.runs.declarer import run_items


@njit(parallel=True, cache=True)
def _claim_all(n: int, threads: int) -> np.ndarray:
    seen = np.zeros(n, dtype=np.int64)
    following = np.zeros(1, dtype=np.int64)
    for _ in prange(threads):
        while True:
            b = claim(following)
            if b >= n:
                break
            seen[b] += 1
    return seen


def test_every_block_is_claimed_once_whatever_the_threads():
    for threads in (1, 2, 4):
        seen = _claim_all(10_000, threads)
        assert (seen == 1).all(), threads


def _on(threads, fn):
    before = numba.get_num_threads()
    set_threads(threads)
    try:
        return fn()
    finally:
        numba.set_num_threads(before)


@pytest.mark.skipif(max_threads() < 2, reason="one core: nothing to compare")
def test_hands_games_and_items_are_the_same_on_one_thread_and_two():
    rules = load_rules("classic")
    runs = {
        "hands, pimc": lambda: play_hands(rules, 24, 3, ["pimc", "heuristic", "heuristic"]).out,
        "hands, heuristic": lambda: play_hands(rules, 3000, 3, ["heuristic"]).out,
        "games": lambda: play_games(rules, 64, 3).out,
        "items, pimc": lambda: run_items(rules, "pimc", 6, 3)["total"],
    }
    for name, run in runs.items():
        assert np.array_equal(_on(1, run), _on(2, run)), name
