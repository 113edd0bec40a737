"""``strong``'s learned bid: its labels, its fit, the engine's inference and the rule it bids by."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from sim.engine import decision_snapshots
from sim.engine.actions import PASS, Decision
from sim.engine.bidding import bid_cap
from sim.engine.params import rules_vector
from sim.engine.state import (
    N_STATE,
    S_DECL,
    S_GIVE1,
    S_GIVE2,
    S_HAND0,
    SNAP_LEGAL,
    SNAP_N,
    SNAP_SEAT,
)
from sim.engine.strategies import learned
from sim.engine.strategies.barrel import barrel_raise, barrel_rival_bidding
from sim.engine.strategies.discard import discard_cost
from sim.engine.strategies.heuristic import heuristic_range
from sim.engine.strategies.registry import parse_params
from sim.engine.strategies.strong import strong_range
from sim.rules import load_rules


def _bids(preset, deals, seed, params=("strong.bid_net=0",)):
    """``(S, seat, levels)`` of the bid decisions of ``deals`` deals played by ``strong``."""
    rules = load_rules(preset)
    players = ("strong",) * rules.players
    snaps = decision_snapshots(rules, deals, seed, players, (Decision.BID,), params=params)
    for _deal, snap in snaps:
        n = int(snap[SNAP_N])
        levels = [int(v) for v in snap[SNAP_LEGAL : SNAP_LEGAL + n] if v > 0]
        if levels:
            yield snap[:N_STATE].copy(), int(snap[SNAP_SEAT]), levels


def _cheapest(hand, P):
    cards = [c for c in range(24) if hand >> c & 1]
    return min(cards, key=lambda c: (discard_cost(hand, c, P), c))


def test_a_label_is_the_mean_over_every_talon_of_the_contract_networks_best_value():
    from training.bid import LEVELS, talon_values

    P = rules_vector(load_rules("classic"))
    checked = 0
    for S, seat, levels in itertools.islice(_bids("classic", 6, 11), 3):
        out = np.zeros(LEVELS)
        before = S.copy()
        talon_values(S, P, seat, levels[0], out)
        assert np.array_equal(S, before)  # the state is put back
        hand = int(S[S_HAND0 + seat])
        unseen = [c for c in range(24) if not hand >> c & 1]
        want = np.zeros(LEVELS)
        talons = list(itertools.combinations(unseen, 3))
        assert len(talons) == 680  # 17 cards unseen with three hands
        for talon in talons:
            full = hand | sum(1 << c for c in talon)
            g1 = _cheapest(full, P)
            g2 = _cheapest(full & ~(1 << g1), P)
            kept = full & ~(1 << g1) & ~(1 << g2)
            T = S.copy()
            T[S_DECL], T[S_HAND0 + seat], T[S_GIVE1], T[S_GIVE2] = seat, kept, g1, g2
            cap = bid_cap(kept, P)
            for k in range(LEVELS):
                level = levels[0] + 5 * k
                count = 1 + max((cap - level) // 5, 0)
                want[k] += learned.best_contract_value(T, P, level, count)
        assert out == pytest.approx(want / len(talons), abs=1e-9)
        checked += 1
    assert checked == 3


def test_a_fit_writes_the_bid_network_and_keeps_the_contract_networks(tmp_path):
    pytest.importorskip("sklearn")
    import shutil

    from training import bid

    weights = tmp_path / "learned.npz"
    shutil.copy(learned.WEIGHTS_FILE, weights)
    bid.main(["--deals", "40", "--data-seed", "5", "--hidden", "4", "--holdout", "0.3",
              "--out", str(weights)])  # fmt: skip
    w = np.load(weights)
    assert list(w["bid_fitted"]) == [1, 0]
    assert w["bid_w1"].shape == (2, 4, learned.N_BID_FEATURES)
    assert np.abs(w["bid_w2"][0]).sum() > 0 and not w["bid_w1"][1].any()
    with np.load(learned.WEIGHTS_FILE) as shipped:
        for name in shipped.files:
            if name.startswith("contract_"):
                assert np.array_equal(w[name], shipped[name]), name


def test_the_engine_values_a_bid_as_the_fit_predicts():
    from training.bid import LEVELS, predict, rows

    shipped = {
        "w1": learned.BID_W1[0], "b1": learned.BID_B1[0],
        "w2": learned.BID_W2[0], "b2": learned.BID_B2[0],
    }  # fmt: skip
    assert learned.BID_FITTED[0] == 1  # the shipped network plays three hands
    P = rules_vector(load_rules("classic"))
    X, _, _ = rows("classic", 8, 13, "strong")  # a row per decision and level, in order
    mine = predict(shipped, X) * 100
    engine = [
        learned.bid_value(seat, S, P, level)
        for S, seat, levels in _bids("classic", 8, 13)
        for level in levels[:LEVELS]
    ]
    assert len(engine) == len(mine) > 20
    assert engine == pytest.approx(list(mine), abs=1e-7)


@pytest.mark.parametrize("preset", ["classic", "four_players", "two_players"])
def test_strong_raises_where_the_network_values_the_lowest_raise_at_bid_value(preset):
    rules = load_rules(preset)
    P = rules_vector(rules)
    default = parse_params(["strong"], [])[0]
    heuristic = parse_params(["heuristic"], [])[0]
    raised = passed = 0
    for S, seat, levels in _bids(preset, 60, 17):
        lo, count = levels[0], len(levels)
        got = strong_range(int(Decision.BID), seat, S.copy(), P, lo, count, default)
        theirs = heuristic_range(int(Decision.BID), seat, S.copy(), P, lo, count, heuristic)
        if preset == "two_players":  # no bid network with two hands: the heuristic's bid
            assert not learned.bid_fitted(P)
            assert got == theirs
            continue
        if barrel_raise(seat, S, P, lo):
            assert got == theirs
            continue
        value = learned.bid_value(seat, S, P, lo)
        if value >= 10.0:  # strong.bid_value's default
            assert got == max(theirs, lo)
            raised += 1
        elif not barrel_rival_bidding(seat, S, P):
            assert got == PASS
            passed += 1
    if preset != "two_players":
        assert raised > 5 and passed > 5
