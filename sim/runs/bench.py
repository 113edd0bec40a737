"""Throughput of the compiled parts on this machine (``thousand bench``, ``make bench``).

Figures are per core (one numba thread) and for all cores. Each timing is the best
of several repeats after a warm-up, so compilation and first-touch page faults are
excluded; whole-process figures belong to an external timer.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numba

from sim.batch.runner import frame_part
from sim.engine.deal import DealStream
from sim.parallel import max_threads
from sim.players import FAST_HANDS_PER_S, PLAYERS, fast
from sim.rules import load_rules
from sim.runs.odds import count_batch


def _best_rate(fn: Callable[[int], object], items: int, repeats: int) -> float:
    fn(0)  # warm-up: compile / load cache, touch buffers
    best = float("inf")
    for r in range(repeats):
        t0 = time.perf_counter()
        fn(r + 1)
        best = min(best, time.perf_counter() - t0)
    return items / best


def bench_deals(
    rules_name: str = "classic", chunk: int = 1 << 20, chunks: int = 4, repeats: int = 3
) -> dict[str, float]:
    """Deals per second: generation plus all deal features; and with odds counting."""
    rules = load_rules(rules_name)
    stream = DealStream(seed=1, rules=rules, chunk_size=chunk)

    def gen(rep: int) -> None:
        for c in range(chunks):
            stream.batch((rep * chunks + c) * chunk, chunk)

    def odds(rep: int) -> None:
        for c in range(chunks):
            count_batch(stream.batch((rep * chunks + c) * chunk, chunk))

    out: dict[str, float] = {}
    before = numba.get_num_threads()
    try:
        for threads in sorted({1, max_threads()}):
            numba.set_num_threads(threads)
            out[f"deals_per_s_{threads}_threads"] = _best_rate(gen, chunk * chunks, repeats)
            out[f"odds_deals_per_s_{threads}_threads"] = _best_rate(odds, chunk * chunks, repeats)
    finally:
        numba.set_num_threads(before)
    return out


def _per_threads(
    unit: str, fn: Callable[[int], None], items: int, repeats: int
) -> dict[str, float]:
    """``{UNIT_per_s_T_threads: rate}`` with one thread and with every core."""
    out: dict[str, float] = {}
    before = numba.get_num_threads()
    try:
        for threads in sorted({1, max_threads()}):
            numba.set_num_threads(threads)
            out[f"{unit}_per_s_{threads}_threads"] = _best_rate(fn, items, repeats)
    finally:
        numba.set_num_threads(before)
    return out


def _bench_play(
    play: Callable[..., Any],
    rules_name: str,
    strategies: tuple[str, ...],
    size: int,
    chunks: int,
    repeats: int,
    unit: str,
    counted: str,
    per: str,
) -> dict[str, float]:
    """Items per second of ``play`` (hands or games) in ``chunks`` batches of ``size``.

    ``per``: the mean of the batches' column ``counted`` per item (redeals per deal,
    deals per game).
    """
    rules = load_rules(rules_name)
    mean = [0.0]

    def run(rep: int) -> None:
        total = 0
        for c in range(chunks):
            b = play(rules, size, seed=rep, strategies=strategies, start=c * size)
            total += int(b.column(counted).sum())
        mean[0] = total / (size * chunks)

    out = _per_threads(unit, run, size * chunks, repeats)
    out[per] = mean[0]
    return out


def bench_hands(
    rules_name: str = "classic",
    strategies: tuple[str, str, str] = ("heuristic", "heuristic", "heuristic"),
    chunk: int = 1 << 17,
    chunks: int = 8,
    repeats: int = 3,
) -> dict[str, float]:
    """Played deals per second through the whole hand engine, per thread count.

    A slot redealt after a reshuffle demand counts once (its redeals are work done
    on the way); ``redeals_per_deal`` says how many extra deals that was.
    """
    from sim.engine import play_hands

    return _bench_play(
        play_hands, rules_name, strategies, chunk, chunks, repeats, "hands", "redeals",
        "redeals_per_deal",
    )  # fmt: skip


def bench_games(
    rules_name: str = "classic",
    n: int = 4096,
    chunks: int = 4,
    repeats: int = 3,
    strategies: tuple[str, ...] = ("heuristic",),
) -> dict[str, float]:
    """Whole games per second with ``strategies`` (default the heuristic), per thread count."""
    from sim.engine.game import play_games

    return _bench_play(
        play_games, rules_name, strategies, n, chunks, repeats, "games", "n_deals",
        "deals_per_game",
    )  # fmt: skip


_PLAIN = ("redeals_per_deal", "deals_per_game")


def format_bench(doc: dict[str, Any]) -> list[str]:
    """The lines ``thousand bench`` and ``make bench`` print for a :func:`run_all` result."""
    lines = [f"cores: {doc['cores']}"]
    for label, section in doc.items():
        if not isinstance(section, dict):
            continue
        for k, v in section.items():
            value = f"{v:8.3f}" if k in _PLAIN else f"{v / 1e6:8.3f} M/s"
            lines.append(f"{label:<18} {k:<30} {value}")
    return lines


def bench_writer(
    rules_name: str = "classic", chunk: int = 1 << 17, repeats: int = 3
) -> dict[str, float]:
    """Deals per second of a ``thousand hands`` chunk's writer after its play.

    On one chunk of ``chunk`` slots played by ``heuristic``: its rows laid out as a frame
    (:func:`sim.runs.hands.hands_frame`, redealt deals included) and that frame written
    as the chunk's Parquet part (:func:`sim.batch.runner.frame_part`), each per slot of
    the chunk; and the part the run writes, straight from the rows, the same bytes
    (:func:`sim.runs.hands.hands_part`). In this process, with polars' own threads (a
    run's workers have one each).
    """
    from sim.engine import play_hands
    from sim.runs.hands import hands_frame, hands_part

    batch = play_hands(load_rules(rules_name), chunk, seed=1, strategies=("heuristic",) * 3)
    frame = hands_frame(batch)
    return {
        "frame_deals_per_s": _best_rate(lambda _r: hands_frame(batch), chunk, repeats),
        "parquet_deals_per_s": _best_rate(lambda _r: frame_part(frame), chunk, repeats),
        "part_deals_per_s": _best_rate(lambda _r: hands_part(batch), chunk, repeats),
    }


def run_all(quick: bool = False) -> dict[str, Any]:
    """Every benchmark, as a flat document.

    The deals, then every fast player's hands and games (:func:`bench_players`), then the
    hands writer (:func:`bench_writer`). ``quick``: tiny workloads, one repeat each (to
    check that every part runs; its figures are not the machine's throughput).
    """
    if quick:
        deal_chunk, hand_chunk, games, repeats = 1 << 12, 512, 16, 1
        deal_chunks, deal_chunks_2p, hand_chunks, game_chunks = 1, 1, 1, 1
    else:
        deal_chunk, hand_chunk, games, repeats = 1 << 20, 1 << 17, 4096, 3
        deal_chunks, deal_chunks_2p, hand_chunks, game_chunks = 4, 2, 8, 4
    doc: dict[str, Any] = {
        "cores": max_threads(),
        "deals": bench_deals("classic", deal_chunk, deal_chunks, repeats),
        "deals_two_players": bench_deals("two_players", deal_chunk, deal_chunks_2p, repeats),
    }
    for name in bench_players():
        doc[f"hands_{name}"] = bench_hands("classic", (name,) * 3, hand_chunk, hand_chunks, repeats)
        doc[f"games_{name}"] = bench_games("classic", games, game_chunks, repeats, (name,))
    doc["hands_writer"] = bench_writer("classic", hand_chunk, repeats)
    return doc


def bench_players() -> list[str]:
    """The players :func:`run_all` times: every player whose record says it is fast."""
    return [name for name in PLAYERS if fast(name)]


def slow_fast_players(doc: dict[str, Any]) -> list[str]:
    """The fast players below their speed class in ``doc`` (:func:`run_all`), as lines.

    A player whose record says ``fast`` must play at least
    :data:`sim.players.FAST_HANDS_PER_S` hands a second on one thread.
    """
    slow = []
    for name in bench_players():
        rate = doc.get(f"hands_{name}", {}).get("hands_per_s_1_threads")
        if rate is not None and rate < FAST_HANDS_PER_S:
            slow.append(
                f"{name}: {rate / 1e3:.0f} k hands/s on one thread, below its speed class "
                f"(fast: {FAST_HANDS_PER_S / 1e3:.0f} k)"
            )
    return slow
