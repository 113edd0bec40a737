"""Monte Carlo counts of the deal-level quantities of ``thousand odds``.

The meaning of every key is in :mod:`sim.odds_keys`. Counting streams over chunks
of deals (:class:`sim.engine.deal.DealStream`), so memory stays flat in the number of
deals, and the counts of a run depend only on ``(seed, rules, deals)``.
:func:`run_odds` is an odds run as the commands make it: the counts and what they
were counted over, as an :class:`OddsRun`; the estimates, intervals and exact values
are :mod:`analysis.odds`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numba import njit, prange

import sim.jit  # noqa: F401  (the compiled-code cache: sim.cache)
from sim.batch.runner import (
    Backend,
    Chunk,
    PartStore,
    json_part,
    parts_in,
    plan_chunks,
    read_json_parts,
    run_chunks,
)
from sim.engine.deal import (
    DealBatch,
    DealStream,
    deal_batch,
    deal_features,
    dealt_by_play,
    marriages_of,
)
from sim.odds_keys import ODDS_KEYS
from sim.output import now_iso
from sim.rules import Rules

_N_KEYS = len(ODDS_KEYS)
_BLOCK = 4096  # deals per partial count; partial counts are summed in a fixed order


@njit(cache=True, inline="always")
def _popcount4(x: int) -> int:
    return (x & 1) + ((x >> 1) & 1) + ((x >> 2) & 1) + ((x >> 3) & 1)


@njit(cache=True, parallel=True)
def _count_kernel(
    start: np.int64,
    players: int,
    n_hands: int,
    masks: np.ndarray,
    points: np.ndarray,
    marriages: np.ndarray,
    nines: np.ndarray,
    jacks: np.ndarray,
    aces: np.ndarray,
    reshuffle: np.ndarray,
    partial: np.ndarray,
) -> None:
    """Per block of deals, how many meet each key, in the order of ``ODDS_KEYS``."""
    n = masks.shape[0]
    n_blocks = partial.shape[0]
    talon = n_hands  # first talon place
    for b in prange(n_blocks):
        c = partial[b]
        for k in range(b * _BLOCK, min(n, (b + 1) * _BLOCK)):
            # forehand sits left of the dealer, who is seat (deal id % players); with 4
            # players the deal lists the three active players from forehand.
            f = 0 if players == 4 else ((start + k) % players + 1) % players
            fm = int(marriages[k, f])
            ht = marriages_of(masks[k, f] | masks[k, talon])
            fp = points[k, f]
            f9 = nines[k, f]
            hand_any = False
            some_marriage = False
            for q in range(n_hands):
                hand_any |= reshuffle[k, q] != 0
                some_marriage |= marriages[k, q] != 0
            talon_resh = reshuffle[k, talon] != 0
            c[0] += fm != 0  # hand.any_marriage
            c[1] += _popcount4(fm) >= 2  # hand.marriages_ge_2
            c[2] += fm & 1  # hand.marriage.S
            c[3] += (fm >> 1) & 1  # hand.marriage.C
            c[4] += (fm >> 2) & 1  # hand.marriage.D
            c[5] += (fm >> 3) & 1  # hand.marriage.H
            c[6] += ht != 0  # hand_talon.any_marriage
            c[7] += _popcount4(ht) >= 2  # hand_talon.marriages_ge_2
            c[8] += ht & 1  # hand_talon.marriage.S
            c[9] += (ht >> 1) & 1  # hand_talon.marriage.C
            c[10] += (ht >> 2) & 1  # hand_talon.marriage.D
            c[11] += (ht >> 3) & 1  # hand_talon.marriage.H
            c[12] += fp < 13  # hand.points_below_13
            c[13] += fp < 14  # hand.points_below_14
            c[14] += fp < 15  # hand.points_below_15
            c[15] += f9 >= 3  # hand.nines_ge_3
            c[16] += f9 == 4  # hand.nines_eq_4
            c[17] += jacks[k, f] == 4  # hand.jacks_eq_4
            c[18] += aces[k, f] == 4  # hand.aces_eq_4
            c[19] += reshuffle[k, f] != 0  # hand.reshuffle
            c[20] += points[k, talon] < 5  # talon.points_below_5
            c[21] += nines[k, talon] >= 2  # talon.nines_ge_2
            c[22] += jacks[k, talon] == 3  # talon.jacks_eq_3
            c[23] += talon_resh  # talon.reshuffle
            c[24] += some_marriage  # deal.some_player_has_marriage
            c[25] += hand_any  # deal.any_hand_reshuffle
            c[26] += talon_resh  # deal.talon_reshuffle
            c[27] += hand_any or talon_resh  # deal.any_reshuffle
            c[28] += aces[k, talon] >= 1  # talon.aces_ge_1
            c[29] += aces[k, talon] >= 2  # talon.aces_ge_2
            c[30] += marriages[k, talon] != 0  # talon.any_marriage
            c[31] += (ht & ~fm) != 0  # talon.completes_marriage


def count_batch(batch: DealBatch) -> dict[str, int]:
    """Number of deals of a batch meeting each key of :data:`ODDS_KEYS`."""
    n_blocks = -(-len(batch) // _BLOCK)
    partial = np.zeros((n_blocks, _N_KEYS), dtype=np.int64)
    _count_kernel(
        np.int64(batch.start),
        batch.players,
        batch.n_hands,
        batch.masks,
        batch.points,
        batch.marriages,
        batch.nines,
        batch.jacks,
        batch.aces,
        batch.reshuffle,
        partial,
    )
    totals = partial.sum(axis=0)
    return {k: int(totals[i]) for i, k in enumerate(ODDS_KEYS)}


@dataclass
class OddsCounts:
    """Hits per key over ``deals`` simulated deals."""

    deals: int = 0
    hits: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ODDS_KEYS, 0))

    def add(self, n: int, hits: dict[str, int]) -> None:
        """Accumulate the counts of ``n`` more deals."""
        self.deals += n
        for k, v in hits.items():
            self.hits[k] += v


PLAYED_CHUNK = 1 << 18  # deals per chunk when the hand engine deals (memory per chunk)


def played_first_deals(
    rules: Rules, seed: int, start: int, n: int, strategies: Sequence[str]
) -> DealBatch:
    """Deals ``start .. start+n-1`` as the hand engine deals them, with features.

    For rules whose deals are not independent shuffles (:func:`sim.engine.deal.dealt_by_play`):
    each slot's first deal of a ``hands`` run played by ``strategies``. Under
    ``deal.method = "cut"`` it is dealt from the previous deal gathered (chains of
    ``deal.cut_chain``), so the players' play shapes it; the bottom-card ritual acts
    under either method.
    """
    from sim.engine import play_hands

    batch = play_hands(rules, n, seed, strategies, start=start, first_deals=True)
    return deal_features(batch.first_deals(), rules, start=start)


def deals_for_odds(
    rules: Rules, seed: int, start: int, n: int, strategies: Sequence[str]
) -> DealBatch:
    """The deals an odds run counts: shuffled ones, or the engine's (cut, ritual)."""
    if dealt_by_play(rules):
        return played_first_deals(rules, seed, start, n, strategies)
    return deal_batch(n, seed, rules, start=start)


def simulate_odds(
    rules: Rules,
    deals: int,
    seed: int,
    chunk_size: int = 1 << 20,
    progress: Callable[[int], None] | None = None,
    strategies: Sequence[str] = ("heuristic",),
) -> OddsCounts:
    """Count every odds key over deals ``0 .. deals-1`` of the run seeded ``seed``.

    Args:
        rules: house rules (player count, reshuffle conditions, dealing).
        deals: number of deals (positive).
        seed: the run's seed.
        chunk_size: deals per chunk; changes memory use, never the result.
        progress: called with the number of deals finished after each chunk.
        strategies: who plays the deals under ``deal.method = "cut"``, where the play
            of one deal makes the next deck (:func:`played_first_deals`).
    """
    counts = OddsCounts()
    if dealt_by_play(rules):
        for start in range(0, deals, PLAYED_CHUNK):
            n = min(PLAYED_CHUNK, deals - start)
            counts.add(n, count_batch(played_first_deals(rules, seed, start, n, strategies)))
            if progress is not None:
                progress(n)
        return counts
    stream = DealStream(seed, rules, chunk_size=min(chunk_size, max(deals, 1)))
    for start in range(0, deals, stream.chunk_size):
        n = min(stream.chunk_size, deals - start)
        counts.add(n, count_batch(stream.batch(start, n)))
        if progress is not None:
            progress(n)
    return counts


@dataclass(frozen=True)
class OddsJob:
    """What a worker needs to count a chunk of an odds run (pickled to it)."""

    rules: Rules
    seed: int
    strategies: tuple[str, ...] = ("heuristic",)


def odds_chunk(job: OddsJob, chunk: Chunk) -> dict[str, bytes]:
    """Count every odds key over one chunk of deals; the counts as a JSON part."""
    batch = deals_for_odds(job.rules, job.seed, chunk.start, chunk.n, job.strategies)
    hits = count_batch(batch)
    return {"counts.json": json_part({"deals": chunk.n, "hits": hits})}


def run_odds_chunks(
    rules: Rules,
    deals: int,
    seed: int,
    backend: Backend,
    store: PartStore | None = None,
    chunk_size: int = 1 << 22,
    progress: Callable[[int], None] | None = None,
    strategies: Sequence[str] = ("heuristic",),
) -> OddsCounts:
    """:func:`simulate_odds` on the runner's backend, chunk by chunk (sim.batch.runner)."""
    if dealt_by_play(rules):
        chunk_size = min(chunk_size, PLAYED_CHUNK)
    chunks = plan_chunks(deals, chunk_size)
    counts = OddsCounts()
    job = OddsJob(rules, seed, tuple(strategies))
    with parts_in(store) as part_store:
        run_chunks(odds_chunk, job, chunks, part_store, backend, progress)
        for doc in read_json_parts(part_store, "counts.json", chunks):
            counts.add(doc["deals"], doc["hits"])
    return counts


@dataclass(frozen=True)
class OddsRun:
    """An odds run: how many of its deals met each odds key, and over which deals.

    The estimates, intervals and exact values are computed from it by
    :func:`analysis.odds.odds_result`.

    Attributes:
        rules: the house rules.
        deals: deals counted.
        seed: the run's seed.
        hits: deals that met each key of :data:`sim.odds_keys.ODDS_KEYS`, in that order.
        deals_from: how the deals were made, in words (the ``deals_from`` of ``odds --json``).
        strategies: under ``deal.method = "cut"`` the strategy of each seat that played
            the deals (their play makes the next deck); None otherwise.
        started: when the run started (UTC, ISO 8601).
        seconds: how long it took.
    """

    rules: Rules
    deals: int
    seed: int
    hits: Mapping[str, int]
    deals_from: str
    strategies: tuple[str, ...] | None
    started: str
    seconds: float


def deals_from(rules: Rules, strategies: Sequence[str]) -> str:
    """How an odds run under ``rules`` makes its deals, in words."""
    if rules.deal.method == "cut":
        return (
            f"cut deck: each deal dealt from the previous one as {','.join(strategies)} played"
            f" it, in chains of {rules.deal.cut_chain} deals from one shuffle"
        )
    if dealt_by_play(rules):
        return "shuffled deck with the bottom-card ritual"
    return "independently shuffled deals"


def run_odds(
    rules: Rules,
    deals: int,
    seed: int,
    strategies: str | Sequence[str] = "heuristic",
    backend: Backend | None = None,
    progress: Callable[[int], None] | None = None,
) -> OddsRun:
    """Count every odds key over deals ``0 .. deals-1`` of the run seeded ``seed``.

    Deals are independent shuffles, unless the rules cut the deck (``deal.method =
    "cut"``: each slot's first deal comes from the previous deal as ``strategies``
    played it, in chains of ``deal.cut_chain``) or hold the bottom-card ritual; the
    run's ``deals_from`` says which.

    Args:
        rules: the house rules.
        deals: deals to count (positive).
        seed: the run's seed.
        strategies: one strategy for every seat, or one per seat (a comma-separated
            string or a sequence); they play the deals where the deals are played.
        backend: None counts in this process on compiled threads; a backend counts in
            chunks on its workers (:mod:`sim.batch.runner`). The counts are the same.
        progress: called with the deals finished after each chunk.

    Raises:
        StrategyError: an unknown strategy or a wrong number of them.
    """
    from sim.engine.strategies.registry import parse_strategies

    names = parse_strategies(strategies, rules.players)
    started = now_iso()
    t0 = time.perf_counter()
    if backend is None:
        counts = simulate_odds(rules, deals, seed, progress=progress, strategies=names)
    else:
        counts = run_odds_chunks(rules, deals, seed, backend, progress=progress, strategies=names)
    return OddsRun(
        rules=rules,
        deals=deals,
        seed=seed,
        hits=dict(counts.hits),
        deals_from=deals_from(rules, names),
        strategies=tuple(names) if rules.deal.method == "cut" else None,
        started=started,
        seconds=time.perf_counter() - t0,
    )
