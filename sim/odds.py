"""Monte Carlo counts of the deal-level quantities of ``thousand odds``.

The meaning of every key is in :mod:`sim.odds_keys`. Counting streams over chunks
of deals (:class:`sim.deal.DealStream`), so memory stays flat in the number of
deals, and the counts of a run depend only on ``(seed, rules, deals)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from sim.cards import MARRIAGE_MASK, N_SUITS, SUIT_LETTERS
from sim.deal import DealBatch, DealStream
from sim.odds_keys import ODDS_KEYS
from sim.rules import Rules

_POPCOUNT4 = np.array([bin(i).count("1") for i in range(16)], dtype=np.int8)


def forehand_place(batch: DealBatch) -> np.ndarray:
    """Place (column block) of forehand's hand in every deal of a batch.

    The dealer of deal ``i`` is seat ``i % players`` (dealing rotates, RULES.md §2)
    and forehand sits on the dealer's left. With 4 players the deal lists only the
    three active players, forehand first.
    """
    n = len(batch)
    if batch.players == 4:
        return np.zeros(n, dtype=np.intp)
    deal_ids = batch.start + np.arange(n, dtype=np.int64)
    return ((deal_ids % batch.players + 1) % batch.players).astype(np.intp)


def _marriage_bits(masks: np.ndarray) -> np.ndarray:
    out = np.zeros(masks.shape, dtype=np.uint8)
    for s in range(N_SUITS):
        mm = MARRIAGE_MASK[s]
        out |= (((masks & mm) == mm).astype(np.uint8) << s).astype(np.uint8)
    return out


def count_batch(batch: DealBatch) -> dict[str, int]:
    """Number of deals of a batch meeting each key of :data:`ODDS_KEYS`."""
    nh = batch.n_hands
    rows = np.arange(len(batch))
    fh = forehand_place(batch)
    fh_marr = batch.marriages[rows, fh]
    fh_points = batch.points[rows, fh]
    fh_nines = batch.nines[rows, fh]
    talon = nh  # first talon place
    ht_marr = _marriage_bits(batch.masks[rows, fh] | batch.masks[:, talon])
    hand_resh = batch.reshuffle[:, :nh] != 0
    talon_resh = batch.reshuffle[:, talon] != 0

    events: dict[str, np.ndarray] = {
        "hand.any_marriage": fh_marr != 0,
        "hand.marriages_ge_2": _POPCOUNT4[fh_marr] >= 2,
    }
    for s in range(N_SUITS):
        events[f"hand.marriage.{SUIT_LETTERS[s]}"] = (fh_marr >> s) & 1 == 1
    events.update({
        "hand_talon.any_marriage": ht_marr != 0,
        "hand_talon.marriages_ge_2": _POPCOUNT4[ht_marr] >= 2,
        "hand.points_below_13": fh_points < 13,
        "hand.points_below_14": fh_points < 14,
        "hand.points_below_15": fh_points < 15,
        "hand.nines_ge_3": fh_nines >= 3,
        "hand.nines_eq_4": fh_nines == 4,
        "hand.jacks_eq_4": batch.jacks[rows, fh] == 4,
        "hand.aces_eq_4": batch.aces[rows, fh] == 4,
        "hand.reshuffle": hand_resh[rows, fh],
        "talon.points_below_5": batch.points[:, talon] < 5,
        "talon.nines_ge_2": batch.nines[:, talon] >= 2,
        "talon.jacks_eq_3": batch.jacks[:, talon] == 3,
        "talon.reshuffle": talon_resh,
        "deal.some_player_has_marriage": (batch.marriages[:, :nh] != 0).any(axis=1),
        "deal.any_hand_reshuffle": hand_resh.any(axis=1),
        "deal.talon_reshuffle": talon_resh,
        "deal.any_reshuffle": hand_resh.any(axis=1) | talon_resh,
    })
    assert events.keys() == ODDS_KEYS.keys()
    return {k: int(np.count_nonzero(v)) for k, v in events.items()}


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


def simulate_odds(
    rules: Rules,
    deals: int,
    seed: int,
    chunk_size: int = 1 << 20,
    progress: Callable[[int], None] | None = None,
) -> OddsCounts:
    """Count every odds key over deals ``0 .. deals-1`` of the run seeded ``seed``.

    Args:
        rules: house rules (player count, reshuffle conditions).
        deals: number of deals (positive).
        seed: the run's seed.
        chunk_size: deals per chunk; changes memory use, never the result.
        progress: called with the number of deals finished after each chunk.
    """
    stream = DealStream(seed, rules, chunk_size=min(chunk_size, max(deals, 1)))
    counts = OddsCounts()
    for start in range(0, deals, stream.chunk_size):
        n = min(stream.chunk_size, deals - start)
        counts.add(n, count_batch(stream.batch(start, n)))
        if progress is not None:
            progress(n)
    return counts
