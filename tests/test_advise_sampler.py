"""The advisor's sampler draws the deals an auction leaves as plain rejection would.

:func:`sim.runs.advise.sample_deals` draws the deals the auction allows, weighted by how
the table's player would have bid each other hand (the soft reading), exactly and
without rejection. :func:`reference` is the definition it replaces, one deal at a time:
shuffle the unseen cards, deal them, draw again while a seat's cap is below its bid,
then keep the deal with probability ``prod L / max L``. Both are run with fixed seeds
and compared on the bidder's marriage share, its card-points mean and the histogram of
its hand class, with the tolerance stated in standard errors.
"""

from __future__ import annotations

import random
from math import sqrt

import numpy as np
import pytest

from sim.cards import hand_mask, mask_marriages, mask_points
from sim.engine.bidding import bid_cap
from sim.engine.deal import n_hands, place_sizes
from sim.engine.params import rules_vector
from sim.rules import Rules, load_rules
from sim.runs.advise import (
    AuctionPolicy,
    auction_policy,
    hand_class,
    hand_classes,
    sample_deals,
)

CLASSIC = load_rules("classic")
HAND = hand_mask("AS TS AC TC KD JH 9H")  # holds K♦: no ♦ marriage for anyone else
N_NEW, N_REF = 4000, 1500  # deals of the sampler and of the reference
SE = 4.0  # tolerance of every comparison, in standard errors of the difference

# (what, hand seat, talon shown, bids, acted): the job's arguments for three auctions
AUCTIONS = {
    # "100 160", the dealer to bid: the middle's 160 shows a marriage and reads strong
    "a 160 bid": (2, 0, [(0, 100), (1, 160)], [(1, 160, False)]),
    # "100 110 pass", forehand to bid: a raise, then a pass
    "a pass after a raise": (0, 0, [(0, 100), (1, 110)], [(1, 110, False), (2, 0, True)]),
    # "100 pass 120 pass" won by the dealer, the talon shown to the middle
    "a shown talon": (
        1,
        hand_mask("KH QH 9D"),
        [(0, 100), (2, 120)],
        [(0, 100, True), (2, 120, False)],
    ),
}


@pytest.fixture(scope="module")
def policy() -> AuctionPolicy:
    return auction_policy(CLASSIC, "heuristic", 20_000, 11)


def reference(
    rules: Rules,
    hand: int,
    seat: int,
    n: int,
    seed: int,
    talon: int,
    bids: list[tuple[int, int]],
    policy: AuctionPolicy,
    acted: list[tuple[int, int, bool]],
) -> np.ndarray:
    """Plain rejection, one deal at a time: the distribution ``sample_deals`` must draw."""
    P = rules_vector(rules)
    sizes, hands = place_sizes(rules.players), n_hands(rules.players)
    need = [(s, b) for s, b in bids if b > 120 and s != seat]
    reads = [(s, policy.keep(s, h, passed)) for s, h, passed in acted if s != seat]
    fill = [q for q in range(4) if q != seat and not (talon and q == hands)]
    deck = [c for c in range(24) if not (hand | talon) >> c & 1]
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        rng.shuffle(deck)
        row = [0, 0, 0, 0]
        row[seat], row[hands] = hand, talon
        col = 0
        for q in fill:
            row[q] = sum(1 << c for c in deck[col : col + sizes[q]])
            col += sizes[q]
        if any(bid_cap(row[s], P) < b for s, b in need):
            continue
        keep = 1.0
        for s, share in reads:
            keep *= float(share[hand_class(row[s], P)])
        if rng.random() < keep:
            out.append(row)
    return np.array(out, dtype=np.int64)


def cards(mask: int) -> int:
    """Cards in a mask."""
    return bin(mask).count("1")


def marriages(masks: np.ndarray) -> np.ndarray:
    """Whether each hand holds a marriage."""
    return np.array([mask_marriages(int(m)) > 0 for m in masks])


def points(masks: np.ndarray) -> np.ndarray:
    """Each hand's card points."""
    return np.array([mask_points(int(m)) for m in masks], dtype=np.float64)


def same_share(a: np.ndarray, b: np.ndarray) -> None:
    """Two samples' shares (booleans) agree within SE standard errors of the difference."""
    pa, pb = a.mean(), b.mean()
    pool = (a.sum() + b.sum()) / (len(a) + len(b))
    se = sqrt(pool * (1 - pool) * (1 / len(a) + 1 / len(b))) or 1.0 / len(b)
    assert abs(pa - pb) <= SE * se, (pa, pb, se)


def same_mean(a: np.ndarray, b: np.ndarray) -> None:
    """Two samples' means agree within SE standard errors of the difference."""
    se = sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    assert abs(a.mean() - b.mean()) <= SE * se, (a.mean(), b.mean(), se)


def same_histogram(a: np.ndarray, b: np.ndarray) -> None:
    """Two samples' class histograms agree: a two-sample chi-square within SE of its mean.

    Classes with fewer than 10 hands in both samples together are pooled into one. The
    statistic has mean ``df`` and standard deviation ``sqrt(2 df)`` under the same law.
    """
    classes = np.union1d(a, b)
    ca = np.array([(a == k).sum() for k in classes], dtype=np.float64)
    cb = np.array([(b == k).sum() for k in classes], dtype=np.float64)
    rare = ca + cb < 10
    ca = np.append(ca[~rare], ca[rare].sum())
    cb = np.append(cb[~rare], cb[rare].sum())
    keep = ca + cb > 0
    ca, cb = ca[keep], cb[keep]
    na, nb = ca.sum(), cb.sum()
    expect_a = (ca + cb) * na / (na + nb)
    expect_b = (ca + cb) * nb / (na + nb)
    chi2 = (((ca - expect_a) ** 2 / expect_a) + ((cb - expect_b) ** 2 / expect_b)).sum()
    df = len(ca) - 1
    assert chi2 <= df + SE * sqrt(2 * df), (chi2, df)


@pytest.mark.parametrize("what", list(AUCTIONS))
def test_the_sampler_draws_the_deals_plain_rejection_keeps(policy, what):
    seat, talon, bids, acted = AUCTIONS[what]
    new = sample_deals(CLASSIC, HAND, seat, N_NEW, 7, talon, bids, policy, acted).astype(np.int64)
    ref = reference(CLASSIC, HAND, seat, N_REF, 7, talon, bids, policy, acted)
    for deals in (new, ref):  # every sample keeps what the owner sees and the rules
        assert (deals[:, seat] == HAND).all()
        assert (np.bitwise_or.reduce(deals, axis=1) == (1 << 24) - 1).all()
        assert all(sum(cards(int(m)) for m in row) == 24 for row in deals)
    if talon:
        assert (new[:, 3] == talon).all()
    for s, _highest, _passed in acted:  # each seat the reading narrows
        same_share(marriages(new[:, s]), marriages(ref[:, s]))
        same_mean(points(new[:, s]), points(ref[:, s]))
        worth, band = (np.ravel(x) for x in hand_classes(CLASSIC, new[:, s]))
        ref_worth, ref_band = (np.ravel(x) for x in hand_classes(CLASSIC, ref[:, s]))
        same_histogram(worth * 8 + band, ref_worth * 8 + ref_band)
    # the comparison can tell the reading from none: the rules alone deal other hands
    bidder = max(acted, key=lambda a: a[1])[0]
    plain = sample_deals(CLASSIC, HAND, seat, N_NEW, 7, talon, bids).astype(np.int64)
    read, loose = points(new[:, bidder]), points(plain[:, bidder])
    se = sqrt(read.var() / len(read) + loose.var() / len(loose))
    assert read.mean() - loose.mean() > SE * se  # the bidder reads stronger


def test_a_deal_is_the_same_in_every_run_longer_than_its_number(policy):
    seat, talon, bids, acted = AUCTIONS["a 160 bid"]
    long = sample_deals(CLASSIC, HAND, seat, 300, 3, talon, bids, policy, acted)
    assert (sample_deals(CLASSIC, HAND, seat, 40, 3, talon, bids, policy, acted) == long[:40]).all()
    other = sample_deals(CLASSIC, HAND, seat, 40, 4, talon, bids, policy, acted)
    assert (other != long[:40]).any()  # another seed, other deals


def test_an_auction_no_deal_allows_is_refused_with_the_same_message(policy):
    kings = hand_mask("KS KC KD KH AS AC AD")  # every king: no marriage for the others
    for reading in ({}, {"policy": policy, "acted": [(1, 160, False)]}):
        with pytest.raises(ValueError) as err:
            sample_deals(CLASSIC, kings, 2, 100, 5, bids=[(0, 100), (1, 160)], **reading)
        why = "no deal of the unseen cards allows the auction (middle bid 160)"
        assert str(err.value) == why
    # the same hand may see bids of 120 and below: no marriage needed
    assert len(sample_deals(CLASSIC, kings, 2, 10, 5, bids=[(1, 120)])) == 10


def test_a_reading_no_allowed_deal_can_meet_falls_back_to_the_rules_alone():
    # a made-up player who bids 160 or more only with marriages worth 300: impossible
    # while the hand holds K♦, so every allowed deal would be turned down
    levels = (0, *CLASSIC.bid_levels())
    counts = np.zeros((3, 16, 8, len(levels)), dtype=np.int64)
    counts[:, :, :, 0] = 100
    counts[:, 15, 7, levels.index(160)] = 100
    odd = AuctionPolicy("odd", 1000, 0, levels, counts)
    read = sample_deals(CLASSIC, HAND, 2, 200, 5, bids=[(1, 160)], policy=odd,
                        acted=[(1, 160, False)])  # fmt: skip
    plain = sample_deals(CLASSIC, HAND, 2, 200, 5, bids=[(1, 160)])
    assert (read == plain).all()


def test_two_players_deal_the_other_hand_and_split_the_rest_between_the_talons():
    rules = load_rules("two_players")
    hand = hand_mask("AH TH KH QH AS 9C JD KC QC 9S")
    deals = sample_deals(rules, hand, 0, 6000, 2, bids=[(1, 160)])
    assert (deals[:, 0] == hand).all()
    assert [cards(int(m)) for m in deals[0]] == [10, 10, 2, 2]
    assert (np.bitwise_or.reduce(deals, axis=1) == (1 << 24) - 1).all()
    P = rules_vector(rules)
    assert all(bid_cap(int(m), P) >= 160 for m in deals[:, 1])  # the ♦ or ♠ marriage
    # a card no marriage needs (the ace of clubs, id 11) lies in each talon equally
    first, second = (deals[:, 2] >> 11) & 1, (deals[:, 3] >> 11) & 1
    same_share(first, second)
    assert 0 < first.mean() < 0.5
