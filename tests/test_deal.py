"""Deal generator: reproducibility, chunking, layout, uniformity, features."""

import itertools

import numba
import numpy as np
import pytest

from sim.cards import CARD_POINTS, MARRIAGE_MASK, mask_marriages, mask_of
from sim.engine.deal import (
    DealStream,
    deal_batch,
    deal_features,
    generate_deals,
    place_sizes,
)
from sim.engine.reshuffle import HAND_REASONS, TALON_REASONS
from sim.rules import Rules, RulesError, load_rules


def test_same_seed_same_deals_other_seed_other_deals():
    a = generate_deals(2000, seed=42)
    b = generate_deals(2000, seed=42)
    c = generate_deals(2000, seed=43)
    assert np.array_equal(a, b)
    assert (a != c).any(axis=1).mean() > 0.99


@pytest.mark.parametrize("players", [2, 3, 4])
def test_chunking_does_not_change_deals(players):
    whole = generate_deals(1000, seed=5, players=players)
    singles = np.concatenate(
        [generate_deals(1, seed=5, players=players, start=s) for s in range(40)]
    )
    assert np.array_equal(singles, whole[:40])
    for step in (7, 100, 333):
        parts = [
            generate_deals(min(step, 1000 - s), seed=5, players=players, start=s)
            for s in range(0, 1000, step)
        ]
        assert np.array_equal(np.concatenate(parts), whole)
    stream = DealStream(5, load_rules("two_players" if players == 2 else "classic"), chunk_size=64)
    if players != 4:
        got = np.concatenate(
            [stream.batch(s, min(64, 1000 - s)).cards.copy() for s in range(0, 1000, 64)]
        )
        assert np.array_equal(got, whole)


def test_thread_count_does_not_change_deals():
    # one thread and two (conftest.py lets numba start two on any machine)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = generate_deals(5000, seed=9)
        numba.set_num_threads(2)
        two = generate_deals(5000, seed=9)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one, two)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_deal_is_a_permutation_sorted_within_places(players):
    d = generate_deals(3000, seed=1, players=players)
    assert d.dtype == np.int8 and d.shape == (3000, 24)
    assert np.array_equal(np.sort(d, axis=1), np.tile(np.arange(24), (3000, 1)))
    bounds = np.cumsum((0, *place_sizes(players)))
    for lo, hi in itertools.pairwise(bounds):
        block = d[:, lo:hi]
        assert (np.diff(block, axis=1) > 0).all()


def test_deals_are_uniform_card_by_place():
    """Each card lands in each place with probability size/24 (4.5 SE, seeded)."""
    n = 200_000
    d = generate_deals(n, seed=2024)
    sizes = place_sizes(3)
    place_of_col = np.repeat(np.arange(4), sizes)
    for q, size in enumerate(sizes):
        cols = np.flatnonzero(place_of_col == q)
        freq = np.bincount(d[:, cols].ravel(), minlength=24) / n
        p = size / 24
        se = np.sqrt(p * (1 - p) / n)
        assert np.abs(freq - p).max() < 4.5 * se, (q, freq)


def test_deals_have_the_right_pair_and_serial_structure():
    """Pairs in one hand and consecutive deals match exact values (4.5 SE, seeded)."""
    n = 200_000
    d = generate_deals(n, seed=77)
    seat = np.full((n, 24), 3, dtype=np.int8)  # place of every card per deal
    rows = np.arange(n)[:, None]
    seat[rows, d[:, :7]] = 0
    seat[rows, d[:, 7:14]] = 1
    seat[rows, d[:, 14:21]] = 2
    # AH and TH in the same hand: 3 * 7/24 * 6/23, and both in the talon: 3/24 * 2/23
    same = ((seat[:, 23] == seat[:, 22]) & (seat[:, 23] < 3)).mean()
    p = 3 * 7 / 24 * 6 / 23
    assert abs(same - p) < 4.5 * np.sqrt(p * (1 - p) / n)
    # deal i and deal i+1 are independent: 9S in seat 0 both times has p = (7/24)^2
    both = ((seat[:-1, 0] == 0) & (seat[1:, 0] == 0)).mean()
    p = (7 / 24) ** 2
    assert abs(both - p) < 4.5 * np.sqrt(p * (1 - p) / (n - 1))


def _plain_features(row, players, rules):
    """Features of one deal written plainly from the card-level tables."""
    sizes = place_sizes(players)
    bounds = np.cumsum((0, *sizes))
    nh = 2 if players == 2 else 3
    r = rules.reshuffle
    out = []
    for q in range(4):
        cards = [int(c) for c in row[bounds[q] : bounds[q + 1]]]
        pts = sum(int(CARD_POINTS[c]) for c in cards)
        nines = sum(c % 6 == 0 for c in cards)
        jacks = sum(c % 6 == 1 for c in cards)
        aces = sum(c % 6 == 5 for c in cards)
        if q < nh:
            reasons = {
                "hand_points_below": r.hand_points_below > 0 and pts < r.hand_points_below,
                "hand_nines": r.hand_nines > 0 and nines >= r.hand_nines,
                "hand_four_jacks": r.hand_four_jacks and jacks == 4,
            }
            bits = sum(1 << i for i, k in enumerate(HAND_REASONS) if reasons[k])
        else:
            reasons = {
                "talon_points_below": r.talon_points_below > 0 and pts < r.talon_points_below,
                "talon_two_nines": r.talon_two_nines and nines >= 2,
                "talon_three_jacks": r.talon_three_jacks and jacks >= 3,
            }
            bits = sum(1 << i for i, k in enumerate(TALON_REASONS) if reasons[k])
        out.append((mask_of(cards), pts, mask_marriages(mask_of(cards)), nines, jacks, aces, bits))
    return out


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        load_rules("two_players"),
        load_rules("ukraine_online"),
        Rules().replace(
            reshuffle__hand_points_below=40,
            reshuffle__hand_nines=2,
            reshuffle__talon_points_below=15,
            reshuffle__hand_four_jacks=False,
        ),
    ],
    ids=["classic", "two_players", "ukraine_online", "loose"],
)
def test_features_match_a_plain_computation(rules):
    b = deal_batch(3000, seed=3, rules=rules)
    for k in range(len(b)):
        want = _plain_features(b.cards[k], rules.players, rules)
        for q, (mask, pts, marr, nines, jacks, aces, bits) in enumerate(want):
            got = (
                int(b.masks[k, q]),
                int(b.points[k, q]),
                int(b.marriages[k, q]),
                int(b.nines[k, q]),
                int(b.jacks[k, q]),
                int(b.aces[k, q]),
                int(b.reshuffle[k, q]),
            )
            assert got == (mask, pts, marr, nines, jacks, aces, bits), (k, q)
    assert (b.points.sum(axis=1) == 120).all()


def test_deal_features_of_given_deals_equal_the_fused_pass():
    rules = load_rules("ukraine_online")
    b = deal_batch(5000, seed=8, rules=rules)
    f = deal_features(b.cards, rules)
    for name in ("masks", "points", "marriages", "nines", "jacks", "aces", "reshuffle"):
        assert np.array_equal(getattr(b, name), getattr(f, name)), name


def test_marriage_masks_used_by_features_are_k_and_q():
    b = deal_batch(2000, seed=4)
    has_h = (b.masks[:, 0] & MARRIAGE_MASK[3]) == MARRIAGE_MASK[3]
    assert np.array_equal(has_h, (b.marriages[:, 0] >> 3) & 1 == 1)


def test_bad_arguments():
    with pytest.raises(ValueError, match="seed"):
        generate_deals(10, seed=-1)
    with pytest.raises(ValueError, match="n must"):
        generate_deals(-5, seed=1)
    with pytest.raises(ValueError, match="players"):
        generate_deals(5, seed=1, players=5)
    with pytest.raises(RulesError, match=r"deal\.method"):
        DealStream(1, Rules().replace(deal__method="cut"))
