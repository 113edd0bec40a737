"""Exact deal odds (analysis.exact): hand-computed values, brute force, independent methods."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from math import comb, factorial, prod

import numpy as np
import pytest

from analysis.exact import (
    HandCondition,
    TalonCondition,
    count_clean_deals,
    exact_odds,
    multinomial,
    prob_any_hand_reshuffle,
    prob_any_reshuffle,
    prob_hand,
    prob_marriages_at_least,
    prob_some_hand_has_marriage,
    prob_some_place_triggers,
    prob_specific_marriage,
    prob_talon_completes_marriage,
    rank_count_distribution,
    rank_points,
)
from sim.cards import CARD_POINTS, CARD_RANK, MARRIAGE_MASK, Rank
from sim.engine.deal import place_sizes
from sim.odds_keys import ODDS_KEYS
from sim.rules import Rules

CLASSIC = Rules()
MODIFIED = CLASSIC.replace(
    reshuffle__hand_points_below=15, reshuffle__hand_nines=4, reshuffle__talon_points_below=10
)
ODD = CLASSIC.replace(
    reshuffle__hand_points_below=0,
    reshuffle__hand_nines=2,
    reshuffle__hand_four_jacks=False,
    reshuffle__talon_points_below=0,
    reshuffle__talon_two_nines=False,
)
TWO = CLASSIC.replace(players=2)
TWO_MODIFIED = MODIFIED.replace(players=2)
FOUR = CLASSIC.replace(players=4)
ALL_OFF = CLASSIC.replace(
    reshuffle__hand_points_below=0,
    reshuffle__hand_nines=0,
    reshuffle__hand_four_jacks=False,
    reshuffle__talon_points_below=0,
    reshuffle__talon_two_nines=False,
    reshuffle__talon_three_jacks=False,
)
HANDS_OFF = CLASSIC.replace(
    reshuffle__hand_points_below=0, reshuffle__hand_nines=0, reshuffle__hand_four_jacks=False
)
TALON_OFF = CLASSIC.replace(
    reshuffle__talon_points_below=0,
    reshuffle__talon_two_nines=False,
    reshuffle__talon_three_jacks=False,
)

NAMES = {
    CLASSIC: "classic",
    MODIFIED: "modified",
    ODD: "odd",
    TWO: "two",
    TWO_MODIFIED: "two_modified",
    FOUR: "four",
}


def rules_id(rules: Rules) -> str:
    return NAMES.get(rules, rules.rules_hash)


DEAL_KEYS = ("deal.some_player_has_marriage", "deal.any_hand_reshuffle", "deal.any_reshuffle")
SINGLE_KEYS = tuple(k for k in ODDS_KEYS if k not in DEAL_KEYS)

SIZES = {2: (10, 2), 3: (7, 3), 4: (7, 3)}  # players -> (hand, talon)


def C(n: int, k: int) -> int:
    return comb(n, k) if 0 <= k <= n else 0


@cache
def odds(rules: Rules) -> dict[str, Fraction | None]:
    return exact_odds(rules)


# --- hand-computed values --------------------------------------------------------------
def test_keys_match_odds_keys_in_order() -> None:
    for rules in (CLASSIC, TWO, FOUR):
        got = odds(rules)
        assert list(got) == list(ODDS_KEYS)
        # every key is an event of one uniformly shuffled deal: a whole number of the
        # deals (the ways to fill the places) over their number
        deals = multinomial(24, place_sizes(rules.players))
        for key, value in got.items():
            assert isinstance(value, Fraction), key
            assert 0 <= value <= 1 and (value * deals).denominator == 1, key


def test_hand_values_by_hand_3_players() -> None:
    o = odds(CLASSIC)
    h = C(24, 7)
    four = Fraction(C(20, 3), h)
    assert o["hand.nines_eq_4"] == four
    assert o["hand.jacks_eq_4"] == four
    assert o["hand.aces_eq_4"] == four
    assert o["hand.nines_ge_3"] == Fraction(C(4, 3) * C(20, 4) + C(20, 3), h)
    for suit in "SCDH":
        assert o[f"hand.marriage.{suit}"] == Fraction(C(22, 5), h)
    # inclusion–exclusion over the four suits, written out
    s1, s2, s3, s4 = 4 * C(22, 5), 6 * C(20, 3), 4 * C(18, 1), 1 * C(16, -1)
    assert o["hand.any_marriage"] == Fraction(s1 - s2 + s3 - s4, h)
    assert o["hand.marriages_ge_2"] == Fraction(s2 - 2 * s3 + 3 * s4, h)
    assert float(o["hand.any_marriage"] or 0) == pytest.approx(0.284793, abs=1e-6)
    # 10 cards: hand plus talon
    t1, t2, t3, t4 = 4 * C(22, 8), 6 * C(20, 6), 4 * C(18, 4), 1 * C(16, 2)
    assert o["hand_talon.any_marriage"] == Fraction(t1 - t2 + t3 - t4, C(24, 10))
    assert o["hand_talon.marriages_ge_2"] == Fraction(t2 - 2 * t3 + 3 * t4, C(24, 10))
    assert o["hand_talon.marriage.H"] == Fraction(C(22, 8), C(24, 10)) == Fraction(15, 92)


def test_talon_values_by_hand_3_players() -> None:
    o = odds(CLASSIC)
    t = C(24, 3)
    assert o["talon.nines_ge_2"] == Fraction(C(4, 2) * C(20, 1) + C(4, 3), t)
    assert o["talon.jacks_eq_3"] == Fraction(C(4, 3), t)
    # points < 5 from 9 (0), J (2), Q (3), K (4): 999, 99J, 99Q, 99K, 9JJ
    below5 = C(4, 3) + 3 * C(4, 2) * 4 + 4 * C(4, 2)
    assert o["talon.points_below_5"] == Fraction(below5, t)
    # the classic talon condition: points < 5, or two nines, or three jacks;
    # overlaps: 999, 99J, 99Q, 99K are in both the first two
    union = below5 + (C(4, 2) * C(20, 1) + C(4, 3)) + C(4, 3) - (C(4, 3) + 3 * C(4, 2) * 4)
    assert o["talon.reshuffle"] == Fraction(union, t)
    assert o["deal.talon_reshuffle"] == o["talon.reshuffle"]


def test_hand_values_by_hand_2_players() -> None:
    o = odds(TWO)
    assert o["hand.marriage.H"] == Fraction(C(22, 8), C(24, 10))
    assert o["hand.aces_eq_4"] == Fraction(C(20, 6), C(24, 10))
    assert o["talon.nines_ge_2"] == Fraction(C(4, 2), C(24, 2))
    assert o["talon.jacks_eq_3"] == 0
    s = [k * C(24 - 2 * j, 12 - 2 * j) for j, k in ((1, 4), (2, 6), (3, 4), (4, 1))]
    assert o["hand_talon.any_marriage"] == Fraction(s[0] - s[1] + s[2] - s[3], C(24, 12))


def test_building_blocks() -> None:
    for n in (0, 2, 3, 7, 10, 12, 24):
        dist = rank_count_distribution(n)
        assert sum(dist.values()) == 1
        assert all(sum(c) == n for c in dist)
    assert prob_specific_marriage(7) == Fraction(C(22, 5), C(24, 7))
    assert prob_specific_marriage(1) == 0
    assert prob_marriages_at_least(0, 7) == 1
    assert prob_marriages_at_least(4, 8) == Fraction(1, C(24, 8))
    assert prob_marriages_at_least(5, 24) == 0
    assert prob_marriages_at_least(4, 24) == 1
    assert prob_hand(lambda c: rank_points(c) == 120, 24) == 1
    assert prob_hand(lambda c: c[Rank.ACE] == 4, 7) == Fraction(C(20, 3), C(24, 7))
    assert multinomial(24, (7, 7, 7, 3)) == C(24, 7) * C(17, 7) * C(10, 7)


# --- brute force over every hand and talon ---------------------------------------------
Stats = Counter[tuple[int, int, int, int, int]]  # (points, nines, jacks, aces, marriage bits)

PTS = [int(p) for p in CARD_POINTS]
RNK = [int(r) for r in CARD_RANK]
MARRIAGE_CARDS = [(s * 6 + Rank.QUEEN, s * 6 + Rank.KING) for s in range(4)]


@cache
def brute_stats_combinations(n: int) -> Stats:
    """Every n-card subset with itertools.combinations, stats from card ids."""
    out: Stats = Counter()
    for hand in itertools.combinations(range(24), n):
        held = set(hand)
        points = sum(PTS[c] for c in hand)
        ranks = [RNK[c] for c in hand]
        marr = sum(1 << s for s, (q, k) in enumerate(MARRIAGE_CARDS) if q in held and k in held)
        out[points, ranks.count(0), ranks.count(1), ranks.count(5), marr] += 1
    return out


@cache
def brute_stats_masks() -> dict[int, Stats]:
    """Every subset of 2, 3, 7, 10 and 12 cards as a bit mask of all 2**24 (numpy).

    The stats come from the card tables of sim.cards through per-byte lookup tables.
    """
    masks = np.arange(1 << 24, dtype=np.uint32)
    idx = [((masks >> (8 * k)) & 0xFF).astype(np.uint8) for k in range(3)]
    byte_bits = (np.arange(256)[:, None] >> np.arange(8)[None, :]) & 1  # (256, 8)

    def per_mask(per_card: np.ndarray) -> np.ndarray:
        total = np.zeros(1 << 24, dtype=np.int32)
        for k in range(3):
            table = (byte_bits * per_card[8 * k : 8 * k + 8][None, :]).sum(axis=1)
            total += table.astype(np.int32)[idx[k]]
        return total

    count = per_mask(np.ones(24, dtype=np.int32))
    code = per_mask(CARD_POINTS.astype(np.int32))
    code |= per_mask((CARD_RANK == Rank.NINE).astype(np.int32)) << 8
    code |= per_mask((CARD_RANK == Rank.JACK).astype(np.int32)) << 11
    code |= per_mask((CARD_RANK == Rank.ACE).astype(np.int32)) << 14
    for s in range(4):
        mm = MARRIAGE_MASK[s]
        code |= ((masks & mm) == mm).astype(np.int32) << (17 + s)
    out: dict[int, Stats] = {}
    for n in (2, 3, 7, 10, 12):
        values, counts = np.unique(code[count == n], return_counts=True)
        stats: Stats = Counter()
        for v, c in zip(values.tolist(), counts.tolist(), strict=True):
            stats[v & 0xFF, v >> 8 & 7, v >> 11 & 7, v >> 14 & 7, v >> 17 & 15] = c
        out[n] = stats
    return out


def brute_stats(n: int) -> Stats:
    return brute_stats_combinations(n) if n <= 7 else brute_stats_masks()[n]


def share(stats: Stats, pred: Callable[[int, int, int, int, int], bool]) -> Fraction:
    total = sum(stats.values())
    return Fraction(sum(c for key, c in stats.items() if pred(*key)), total)


def hand_trig(rules: Rules, points: int, nines: int, jacks: int) -> bool:
    r = rules.reshuffle
    return (
        (r.hand_points_below > 0 and points < r.hand_points_below)
        or (r.hand_nines > 0 and nines >= r.hand_nines)
        or (r.hand_four_jacks and jacks == 4)
    )


def talon_trig(rules: Rules, points: int, nines: int, jacks: int) -> bool:
    r = rules.reshuffle
    return (
        (r.talon_points_below > 0 and points < r.talon_points_below)
        or (r.talon_two_nines and nines >= 2)
        or (r.talon_three_jacks and jacks >= 3)
    )


def married(suit: int) -> Callable[[int, int, int, int, int], bool]:
    def pred(points: int, nines: int, jacks: int, aces: int, marriage_bits: int) -> bool:
        return bool(marriage_bits >> suit & 1)

    return pred


def brute_single_keys(rules: Rules) -> dict[str, Fraction]:
    h, t = SIZES[rules.players]
    hs, ts, hts = brute_stats(h), brute_stats(t), brute_stats(h + t)

    def nm(bits: int) -> int:
        return bin(bits).count("1")

    out = {
        "hand.any_marriage": share(hs, lambda p, n9, nj, na, m: nm(m) >= 1),
        "hand.marriages_ge_2": share(hs, lambda p, n9, nj, na, m: nm(m) >= 2),
        "hand_talon.any_marriage": share(hts, lambda p, n9, nj, na, m: nm(m) >= 1),
        "hand_talon.marriages_ge_2": share(hts, lambda p, n9, nj, na, m: nm(m) >= 2),
        "hand.points_below_13": share(hs, lambda p, n9, nj, na, m: p < 13),
        "hand.points_below_14": share(hs, lambda p, n9, nj, na, m: p < 14),
        "hand.points_below_15": share(hs, lambda p, n9, nj, na, m: p < 15),
        "hand.nines_ge_3": share(hs, lambda p, n9, nj, na, m: n9 >= 3),
        "hand.nines_eq_4": share(hs, lambda p, n9, nj, na, m: n9 == 4),
        "hand.jacks_eq_4": share(hs, lambda p, n9, nj, na, m: nj == 4),
        "hand.aces_eq_4": share(hs, lambda p, n9, nj, na, m: na == 4),
        "hand.reshuffle": share(hs, lambda p, n9, nj, na, m: hand_trig(rules, p, n9, nj)),
        "talon.points_below_5": share(ts, lambda p, n9, nj, na, m: p < 5),
        "talon.nines_ge_2": share(ts, lambda p, n9, nj, na, m: n9 >= 2),
        "talon.jacks_eq_3": share(ts, lambda p, n9, nj, na, m: nj == 3),
        "talon.reshuffle": share(ts, lambda p, n9, nj, na, m: talon_trig(rules, p, n9, nj)),
        "talon.aces_ge_1": share(ts, lambda p, n9, nj, na, m: na >= 1),
        "talon.aces_ge_2": share(ts, lambda p, n9, nj, na, m: na >= 2),
        "talon.any_marriage": share(ts, lambda p, n9, nj, na, m: nm(m) >= 1),
        # the musik's completions are checked by enumeration on small layouts below
        "talon.completes_marriage": prob_talon_completes_marriage(h, t),
    }
    for s, letter in enumerate("SCDH"):
        out[f"hand.marriage.{letter}"] = share(hs, married(s))
        out[f"hand_talon.marriage.{letter}"] = share(hts, married(s))
    out["deal.talon_reshuffle"] = out["talon.reshuffle"]
    return out


def test_brute_force_sanity() -> None:
    assert sum(brute_stats(7).values()) == C(24, 7) == 346104
    assert sum(brute_stats(3).values()) == 2024
    assert sum(brute_stats(2).values()) == 276
    assert sum(brute_stats(10).values()) == 1961256
    assert sum(brute_stats(12).values()) == C(24, 12)
    # the two enumerations agree where both are cheap
    for n in (2, 3, 7):
        assert brute_stats_masks()[n] == brute_stats_combinations(n)


@pytest.mark.parametrize("rules", [CLASSIC, MODIFIED, ODD, TWO, TWO_MODIFIED, FOUR], ids=rules_id)
def test_single_hand_and_talon_keys_match_brute_force(rules: Rules) -> None:
    expected = brute_single_keys(rules)
    got = odds(rules)
    assert set(expected) == set(SINGLE_KEYS)
    for key in SINGLE_KEYS:
        assert got[key] == expected[key], key


def _marriage_bits(mask: int) -> int:
    return sum(1 << s for s in range(4) if mask & int(MARRIAGE_MASK[s]) == MARRIAGE_MASK[s])


@pytest.mark.parametrize(("hand", "talon"), [(2, 2), (3, 2), (4, 1), (2, 3)])
def test_the_talon_completing_a_marriage_matches_enumeration(hand: int, talon: int) -> None:
    """Every hand and talon of a small layout enumerated, the event read off the cards."""
    hits = total = 0
    for h in itertools.combinations(range(24), hand):
        hm = sum(1 << c for c in h)
        own = _marriage_bits(hm)
        rest = [c for c in range(24) if not hm >> c & 1]
        for t in itertools.combinations(rest, talon):
            total += 1
            hits += (_marriage_bits(hm | sum(1 << c for c in t)) & ~own) != 0
    assert prob_talon_completes_marriage(hand, talon) == Fraction(hits, total)


def test_rank_count_distribution_matches_enumeration() -> None:
    counts: Counter[tuple[int, ...]] = Counter()
    for hand in itertools.combinations(range(24), 7):
        ranks = [RNK[c] for c in hand]
        counts[tuple(ranks.count(r) for r in range(6))] += 1
    dist = rank_count_distribution(7)
    assert set(dist) == set(counts)
    for vec, n in counts.items():
        assert dist[vec] == Fraction(n, C(24, 7))


# --- deal.some_player_has_marriage: direct complement count ----------------------------
def no_marriage_deals(hand_sizes: tuple[int, ...]) -> Fraction:
    """Place the 8 kings and queens one by one; count the deals where no hand is married."""
    rest = 24 - sum(hand_sizes)
    places = len(hand_sizes) + 1  # the hands, then everything else
    caps = (*hand_sizes, rest)
    kq = [c for pair in MARRIAGE_CARDS for c in pair]  # Q, K of each suit, suit by suit
    good = 0
    for where in itertools.product(range(places), repeat=len(kq)):
        used = [where.count(p) for p in range(places)]
        if any(u > cap for u, cap in zip(used, caps, strict=True)):
            continue
        married = any(where[2 * s] == where[2 * s + 1] < len(hand_sizes) for s in range(4))
        if married:
            continue
        free = [cap - u for cap, u in zip(caps, used, strict=True)]
        good += factorial(16) // prod(factorial(f) for f in free)
    total = factorial(24) // prod(factorial(c) for c in caps)
    return Fraction(good, total)


@pytest.mark.parametrize("rules", [CLASSIC, TWO, FOUR], ids=rules_id)
def test_some_player_has_marriage_by_complement(rules: Rules) -> None:
    h, _ = SIZES[rules.players]
    hands = (h,) * (2 if rules.players == 2 else 3)
    expected = 1 - no_marriage_deals(hands)
    assert odds(rules)["deal.some_player_has_marriage"] == expected
    assert prob_some_hand_has_marriage(hands) == expected


def test_some_player_has_marriage_bounds() -> None:
    o = odds(CLASSIC)
    single = o["hand.any_marriage"]
    union = o["deal.some_player_has_marriage"]
    assert single is not None and union is not None
    assert single < union < 3 * single
    assert prob_some_hand_has_marriage((7,)) == single
    assert prob_some_hand_has_marriage((2, 2, 2, 2)) == 1 - no_marriage_deals((2, 2, 2, 2))


# --- deal.*reshuffle: an independent inclusion–exclusion -------------------------------
RankPred = Callable[[tuple[int, ...]], bool]


def vectors(total: int, cap: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [v for v in itertools.product(*(range(c + 1) for c in cap)) if sum(v) == total]


def all_trigger_count(
    sizes: tuple[int, ...], preds: list[RankPred], subset: tuple[int, ...]
) -> int:
    """Deals (of the real 24-card deck) in which every place in ``subset`` triggers.

    Enumerates the triggering rank vectors of those places jointly (pruning when a
    rank runs out) and weighs a combination by the product over ranks of the
    multinomial 4! / (a_1! ... a_k! rest!), times the ways to fill the other places
    with the remaining cards.
    """
    options = [[v for v in vectors(sizes[i], (4,) * 6) if preds[i](v)] for i in subset]
    others = [s for i, s in enumerate(sizes) if i not in subset]
    n_left = 24 - sum(sizes[i] for i in subset)
    fill = factorial(n_left) // prod(factorial(s) for s in others)
    chosen: list[tuple[int, ...]] = []

    def rec(j: int, used: tuple[int, ...]) -> int:
        if j == len(options):
            w = 1
            for r in range(6):
                w *= factorial(4) // (
                    prod(factorial(v[r]) for v in chosen) * factorial(4 - used[r])
                )
            return w * fill
        total = 0
        for v in options[j]:
            nxt = tuple(u + x for u, x in zip(used, v, strict=True))
            if max(nxt) <= 4:
                chosen.append(v)
                total += rec(j + 1, nxt)
                chosen.pop()
        return total

    return rec(0, (0,) * 6)


def union_by_inclusion_exclusion(sizes: tuple[int, ...], preds: list[RankPred | None]) -> Fraction:
    active = [i for i, p in enumerate(preds) if p is not None]
    full = [p if p is not None else (lambda v: False) for p in preds]
    total = factorial(24) // prod(factorial(s) for s in sizes)
    acc = 0
    for k in range(1, len(active) + 1):
        for subset in itertools.combinations(active, k):
            acc += (-1) ** (k + 1) * all_trigger_count(sizes, full, subset)
    return Fraction(acc, total)


def rules_preds(rules: Rules) -> tuple[RankPred, RankPred]:
    def hand(v: tuple[int, ...]) -> bool:
        return hand_trig(
            rules, sum(c * p for c, p in zip(v, (0, 2, 3, 4, 10, 11), strict=True)), v[0], v[1]
        )

    def talon(v: tuple[int, ...]) -> bool:
        return talon_trig(
            rules, sum(c * p for c, p in zip(v, (0, 2, 3, 4, 10, 11), strict=True)), v[0], v[1]
        )

    return hand, talon


# make test checks classic; make test-all the other layouts too (seconds each).
@pytest.mark.parametrize(
    "rules",
    [
        CLASSIC,
        pytest.param(MODIFIED, marks=pytest.mark.slow),
        pytest.param(TWO, marks=pytest.mark.slow),
    ],
    ids=rules_id,
)
def test_deal_reshuffle_by_inclusion_exclusion(rules: Rules) -> None:
    hand, talon = rules_preds(rules)
    if rules.players == 2:
        sizes: tuple[int, ...] = (10, 10, 2, 2)
        hand_preds: list[RankPred | None] = [hand, hand, None, None]
        all_preds: list[RankPred | None] = [hand, hand, talon, None]
    else:
        sizes = (7, 7, 7, 3)
        hand_preds = [hand, hand, hand, None]
        all_preds = [hand, hand, hand, talon]
    o = odds(rules)
    assert o["deal.any_hand_reshuffle"] == union_by_inclusion_exclusion(sizes, hand_preds)
    assert o["deal.any_reshuffle"] == union_by_inclusion_exclusion(sizes, all_preds)


@pytest.mark.parametrize("rules", [CLASSIC, MODIFIED, ODD, TWO, FOUR], ids=rules_id)
def test_deal_reshuffle_bounds(rules: Rules) -> None:
    o = odds(rules)
    n_hands = 2 if rules.players == 2 else 3
    single, talon = o["hand.reshuffle"], o["talon.reshuffle"]
    any_hand, any_all = o["deal.any_hand_reshuffle"], o["deal.any_reshuffle"]
    assert single is not None and talon is not None
    assert any_hand is not None and any_all is not None
    assert single <= any_hand <= n_hands * single
    assert max(any_hand, talon) <= any_all <= any_hand + talon
    assert any_hand < n_hands * single  # overlaps exist: two hands can both be poor
    # the deal is not independent of the talon, but both events are rare-ish
    assert any_all < 1


def test_deal_reshuffle_switches() -> None:
    o_off = odds(ALL_OFF)
    assert o_off["deal.any_hand_reshuffle"] == 0
    assert o_off["deal.any_reshuffle"] == 0
    assert o_off["hand.reshuffle"] == 0 and o_off["talon.reshuffle"] == 0
    o_hands_off = odds(HANDS_OFF)
    assert o_hands_off["deal.any_hand_reshuffle"] == 0
    assert o_hands_off["deal.any_reshuffle"] == o_hands_off["talon.reshuffle"]
    assert o_hands_off["talon.reshuffle"] == odds(CLASSIC)["talon.reshuffle"]
    o_talon_off = odds(TALON_OFF)
    assert o_talon_off["deal.any_reshuffle"] == o_talon_off["deal.any_hand_reshuffle"]
    assert o_talon_off["deal.any_hand_reshuffle"] == odds(CLASSIC)["deal.any_hand_reshuffle"]
    # four players deal like three
    assert odds(FOUR) == odds(CLASSIC)


def test_deal_reshuffle_depends_on_thresholds() -> None:
    base = odds(CLASSIC)["deal.any_hand_reshuffle"]
    assert base is not None
    looser = odds(CLASSIC.replace(reshuffle__hand_points_below=15))["deal.any_hand_reshuffle"]
    assert looser is not None and looser > base
    stricter = odds(CLASSIC.replace(reshuffle__hand_nines=4))["deal.any_hand_reshuffle"]
    assert stricter is not None and stricter < base


def test_single_place_layout_equals_single_hand() -> None:
    cond = HandCondition.from_rules(CLASSIC)
    assert prob_some_place_triggers((7, 17), (cond, None)) == prob_hand(cond, 7)
    tcond = TalonCondition.from_rules(CLASSIC)
    assert prob_some_place_triggers((3, 21), (tcond, None)) == prob_hand(tcond, 3)
    assert prob_any_hand_reshuffle(3, cond) == odds(CLASSIC)["deal.any_hand_reshuffle"]
    assert prob_any_reshuffle(2, cond, tcond) == odds(TWO)["deal.any_reshuffle"]


# --- the recursion on scaled-down decks, by brute force --------------------------------
def brute_clean_deals(sizes: tuple[int, ...], preds: list[RankPred | None], copies: int) -> int:
    """Deal a deck of ``copies`` cards per rank into the places in every possible way."""
    deck = list(range(6 * copies))  # card k has rank k % 6

    def rec(i: int, left: tuple[int, ...]) -> int:
        if all(p is None for p in preds[i:]):
            return factorial(len(left)) // prod(factorial(s) for s in sizes[i:])
        n = 0
        for chosen in itertools.combinations(left, sizes[i]):
            pred = preds[i]
            if pred is not None:
                ranks = [c % 6 for c in chosen]
                if pred(tuple(ranks.count(r) for r in range(6))):
                    continue
            rest = tuple(c for c in left if c not in chosen)
            n += rec(i + 1, rest)
        return n

    return rec(0, tuple(deck))


def _poor(v: tuple[int, ...]) -> bool:
    return rank_points(v) < 8


def _nines(v: tuple[int, ...]) -> bool:
    return v[0] >= 2


def _mixed(v: tuple[int, ...]) -> bool:
    return v[1] >= 2 or rank_points(v) < 5


# the 12-card four-place decks take seconds each by brute force: make test-all
@pytest.mark.parametrize(
    ("sizes", "copies", "preds"),
    [
        pytest.param((3, 3, 3, 3), 2, [_poor, _nines, _mixed, None], marks=pytest.mark.slow),
        pytest.param((3, 3, 3, 3), 2, [_mixed, _mixed, _mixed, _nines], marks=pytest.mark.slow),
        ((4, 3, 5), 2, [None, _nines, _poor]),
        ((2, 2, 2), 1, [_poor, _mixed, None]),
        ((3, 2, 13), 3, [_poor, _mixed, None]),
    ],
)
def test_count_clean_deals_against_brute_force(
    sizes: tuple[int, ...], copies: int, preds: list[RankPred | None]
) -> None:
    expected = brute_clean_deals(sizes, preds, copies)
    assert count_clean_deals(sizes, preds, copies=copies) == expected
    # with no trigger at all, every deal is clean
    n_all = factorial(6 * copies) // prod(factorial(s) for s in sizes)
    assert count_clean_deals(sizes, [None] * len(sizes), copies=copies) == n_all
    assert 0 < expected < n_all
