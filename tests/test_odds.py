"""Simulated deal odds against exact combinatorics, for every preset."""

import numpy as np
import pytest
from support import PRESETS

from analysis.exact import exact_odds
from sim.odds_keys import ODDS_KEYS
from sim.rules import load_rules
from sim.runs.odds import count_batch, simulate_odds

TOLERANCE_SE = 4.5
N_DEALS = 400_000


@pytest.mark.parametrize("name", PRESETS)
def test_every_key_within_tolerance_of_exact(name):
    """Every simulated rate lies within 4.5 standard errors of its exact value (seed 11)."""
    rules = load_rules(name)
    counts = simulate_odds(rules, N_DEALS, seed=11)
    exact = exact_odds(rules)
    assert list(exact) == list(ODDS_KEYS)
    for key in ODDS_KEYS:
        p = float(exact[key])
        est = counts.hits[key] / N_DEALS
        se = np.sqrt(max(p * (1 - p), 1e-12) / N_DEALS)
        assert abs(est - p) <= TOLERANCE_SE * se, (key, est, p, (est - p) / se)


def test_a_broken_condition_would_be_caught():
    """The check has power: swapping two thresholds moves the estimate far out of range."""
    rules = load_rules("classic")
    other = rules.replace(reshuffle__hand_points_below=15)
    counts = simulate_odds(other, N_DEALS, seed=11)
    p = float(exact_odds(rules)["hand.reshuffle"])
    se = np.sqrt(p * (1 - p) / N_DEALS)
    assert abs(counts.hits["hand.reshuffle"] / N_DEALS - p) > 10 * se


def test_counts_do_not_depend_on_chunk_size():
    rules = load_rules("classic")
    a = simulate_odds(rules, 100_003, seed=3, chunk_size=1 << 20)
    b = simulate_odds(rules, 100_003, seed=3, chunk_size=977)
    assert a.deals == b.deals == 100_003
    assert a.hits == b.hits


def test_deal_keys_honour_the_presets_reshuffle_settings():
    classic = exact_odds(load_rules("classic"))
    ukraine = exact_odds(load_rules("ukraine_online"))  # 13 or less, talon 5 or less
    assert ukraine["hand.reshuffle"] > classic["hand.reshuffle"]
    assert ukraine["deal.talon_reshuffle"] > classic["deal.talon_reshuffle"]
    off = load_rules("classic").replace(
        reshuffle__hand_points_below=0,
        reshuffle__hand_nines=0,
        reshuffle__hand_four_jacks=False,
        reshuffle__talon_points_below=0,
        reshuffle__talon_two_nines=False,
        reshuffle__talon_three_jacks=False,
    )
    counts = simulate_odds(off, 20_000, seed=1)
    assert counts.hits["deal.any_reshuffle"] == 0
    assert exact_odds(off)["deal.any_reshuffle"] == 0


@pytest.mark.parametrize("name", ["classic", "two_players", "four_players", "ukraine_online"])
def test_counts_equal_a_plain_count(name):
    """The compiled counter agrees exactly with a plain per-deal evaluation of each key."""
    from sim.cards import cards_of, mask_marriages, mask_of, mask_points
    from sim.engine.deal import deal_batch, place_sizes

    rules = load_rules(name)
    start, n = 12_345, 3000
    b = deal_batch(n, seed=21, rules=rules, start=start)
    got = count_batch(b)
    r = rules.reshuffle
    bounds = np.cumsum((0, *place_sizes(rules.players)))
    nh = 2 if rules.players == 2 else 3

    def rank(m, k):
        return sum(c % 6 == k for c in cards_of(m))

    def hand_cond(m):
        pts, n9, nj = mask_points(m), rank(m, 0), rank(m, 1)
        return (
            (r.hand_points_below > 0 and pts < r.hand_points_below)
            or (r.hand_nines > 0 and n9 >= r.hand_nines)
            or (r.hand_four_jacks and nj == 4)
        )

    def talon_cond(m):
        pts, n9, nj = mask_points(m), rank(m, 0), rank(m, 1)
        return (
            (r.talon_points_below > 0 and pts < r.talon_points_below)
            or (r.talon_two_nines and n9 >= 2)
            or (r.talon_three_jacks and nj >= 3)
        )

    want = dict.fromkeys(ODDS_KEYS, 0)
    for k in range(n):
        places = [mask_of(int(c) for c in b.cards[k, bounds[q] : bounds[q + 1]]) for q in range(4)]
        dealer = (start + k) % rules.players
        f = 0 if rules.players == 4 else (dealer + 1) % rules.players
        hand, talon = places[f], places[nh]
        mh = mask_marriages(hand)
        mt = mask_marriages(hand | talon)
        ev = {
            "hand.any_marriage": mh != 0,
            "hand.marriages_ge_2": bin(mh).count("1") >= 2,
            "hand.marriage.S": mh & 1,
            "hand.marriage.C": mh & 2,
            "hand.marriage.D": mh & 4,
            "hand.marriage.H": mh & 8,
            "hand_talon.any_marriage": mt != 0,
            "hand_talon.marriages_ge_2": bin(mt).count("1") >= 2,
            "hand_talon.marriage.S": mt & 1,
            "hand_talon.marriage.C": mt & 2,
            "hand_talon.marriage.D": mt & 4,
            "hand_talon.marriage.H": mt & 8,
            "hand.points_below_13": mask_points(hand) < 13,
            "hand.points_below_14": mask_points(hand) < 14,
            "hand.points_below_15": mask_points(hand) < 15,
            "hand.nines_ge_3": rank(hand, 0) >= 3,
            "hand.nines_eq_4": rank(hand, 0) == 4,
            "hand.jacks_eq_4": rank(hand, 1) == 4,
            "hand.aces_eq_4": rank(hand, 5) == 4,
            "hand.reshuffle": hand_cond(hand),
            "talon.points_below_5": mask_points(talon) < 5,
            "talon.nines_ge_2": rank(talon, 0) >= 2,
            "talon.jacks_eq_3": rank(talon, 1) == 3,
            "talon.reshuffle": talon_cond(talon),
            "deal.some_player_has_marriage": any(mask_marriages(places[q]) for q in range(nh)),
            "deal.any_hand_reshuffle": any(hand_cond(places[q]) for q in range(nh)),
            "deal.talon_reshuffle": talon_cond(talon),
            "deal.any_reshuffle": any(hand_cond(places[q]) for q in range(nh)) or talon_cond(talon),
            "talon.aces_ge_1": rank(talon, 5) >= 1,
            "talon.aces_ge_2": rank(talon, 5) >= 2,
            "talon.any_marriage": mask_marriages(talon) != 0,
            "talon.completes_marriage": (mt & ~mh) != 0,
        }
        for key, v in ev.items():
            want[key] += bool(v)
    assert got == want
