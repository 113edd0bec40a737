"""Deals played once per bid plan of one seat (sim/engine/plans.py, sim/runs/plans.py).

A plan raises to the lowest raise open to the seat while it is at most the plan's
level, and passes at the first turn where it is not. The kernel plays every plan of a
deal from one play that raises to the cap and one play per turn at which the seat
could pass; these tests check that against the hands engine playing the same deal
with the seat's player told the same limit (the ``guide`` player bids exactly so), with
and without an auction already begun.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import cards_str
from sim.engine.api import play_hand_text
from sim.engine.state import ROW
from sim.rules import load_rules, rules_from_dict
from sim.runs.declarer import masks_of_cards
from sim.runs.plans import PASS_PLAN, margins, play_plans

# no reshuffle demand is ever offered (the hands engine would offer one, the plans not)
NO_RESHUFFLE = {
    "reshuffle.hand_points_below": 0,
    "reshuffle.hand_nines": 0,
    "reshuffle.hand_four_jacks": False,
    "reshuffle.talon_points_below": 0,
    "reshuffle.talon_two_nines": False,
    "reshuffle.talon_three_jacks": False,
}
MARRIAGE_CLASSES = ("none", "spades", "clubs", "diamonds", "hearts", "two")


def _rules(name: str = "classic"):
    return rules_from_dict(NO_RESHUFFLE, base=load_rules(name))


def _deals(rules, n: int, seed: int) -> np.ndarray:
    from sim.engine.deal import generate_deals

    return masks_of_cards(generate_deals(n, seed, rules.players), rules.players)


def _limit(level: int) -> list[str]:
    """The guide's bid chart set to one limit for every class: it bids as plan ``level``."""
    return [f"guide.bid_{m}_{a}={level}" for m in MARRIAGE_CLASSES for a in range(3)]


def _text(mask: int) -> str:
    return cards_str([c for c in range(24) if int(mask) >> c & 1])


def _bids(tr: dict) -> list[tuple[int, int]]:
    return [(s, 0 if b == "pass" else b) for s, b in tr["bids"]]


@pytest.mark.parametrize("me", [0, 1, 2])
def test_every_plan_is_the_deal_played_with_the_seat_bidding_up_to_its_level(me):
    rules = _rules()
    masks = _deals(rules, 24, seed=5)
    lineup = ["strong"] * 3
    lineup[me] = "guide"
    seen_turns = 0
    for level in (PASS_PLAN, 105, 120, 145, 180):
        params = _limit(level)
        plays = play_plans(rules, masks, me, 7, seat_players=lineup, params=params)
        rows = plays.rows(level)
        seen_turns += int(plays.n_turns.sum())
        for k in range(len(masks)):
            tr = play_hand_text(
                rules, [_text(masks[k, s]) for s in range(3)], _text(masks[k, 3]), 2,
                seed=7, deal_id=k, strategies=lineup, params=params,
            )  # fmt: skip
            row = rows[k]
            assert int(row[ROW["declarer"]]) == tr["declarer"], (level, k)
            assert int(row[ROW["winning_bid"]]) == tr["winning_bid"], (level, k)
            assert int(row[ROW["contract"]]) == tr["contract"], (level, k)
            assert [int(row[ROW[f"delta_{s}"]]) for s in range(3)] == tr["score_deltas"]
            assert [int(row[ROW[f"max_bid_{s}"]]) for s in range(3)] == [
                max([b for s2, b in _bids(tr) if s2 == s] or [0]) for s in range(3)
            ], (level, k)
    assert seen_turns > 24  # the seat had turns to pass at


def test_a_begun_auction_is_replayed_before_anyone_decides():
    rules = _rules()
    # forehand 100, middle 110, dealer (the seat) to speak
    masks = _deals(rules, 40, seed=11)
    me, prefix = 2, [110]
    lineup = ["strong", "strong", "guide"]
    for level in (PASS_PLAN, 120, 150):
        params = _limit(level)
        rows = play_plans(rules, masks, me, 3, prefix=prefix, seat_players=lineup,
                          params=params).rows(level)  # fmt: skip
        for k in range(len(masks)):
            tr = play_hand_text(
                rules, [_text(masks[k, s]) for s in range(3)], _text(masks[k, 3]), 2,
                seed=3, deal_id=k, strategies=lineup, params=params, script=prefix,
            )  # fmt: skip
            assert _bids(tr)[:2] == [(0, 100), (1, 110)]
            row_decl = int(rows[k][ROW["declarer"]])
            assert row_decl == tr["declarer"], (level, k)
            assert [int(rows[k][ROW[f"delta_{s}"]]) for s in range(3)] == tr["score_deltas"]
            if row_decl == me:
                assert 110 < rows[k][ROW["winning_bid"]] <= max(level, 110)


def test_the_seat_never_bids_above_its_plan_and_passing_hands_the_deal_over():
    rules = load_rules("classic")
    masks = _deals(rules, 400, seed=2)
    for me in range(3):
        plays = play_plans(rules, masks, me, 1)
        for level in (PASS_PLAN, 100, 115, 140, 200):
            rows = plays.rows(level)
            mine = rows[:, ROW[f"max_bid_{me}"]]
            # forehand's automatic 100 is the only bid above a plan below it
            assert (mine <= max(level, 100 if me == 0 else 0)).all()
            declared = rows[:, ROW["declarer"]] == me
            assert (rows[declared, ROW["winning_bid"]] <= max(level, 100)).all()
        never = plays.rows(10_000)
        assert (never[:, ROW["declarer"]] == me).mean() > (plays.rows(PASS_PLAN)[:, ROW[
            "declarer"]] == me).mean()  # fmt: skip


def test_the_margin_is_the_seats_score_less_the_others_mean():
    rules = load_rules("classic")
    rows = play_plans(rules, _deals(rules, 50, seed=4), 1, 0).rows(120)
    d = np.stack([rows[:, ROW[f"delta_{s}"]] for s in range(3)], axis=1).astype(float)
    assert np.allclose(margins(rows, 1, 3), d[:, 1] - (d[:, 0] + d[:, 2]) / 2)
    assert np.allclose(sum(margins(rows, s, 3) for s in range(3)), 0)


@pytest.mark.parametrize("name", ["two_players", "four_players"])
def test_plans_play_with_two_and_four_players(name):
    rules = load_rules(name)
    masks = _deals(rules, 30, seed=9)
    plays = play_plans(rules, masks, 0, 2)
    for level in (PASS_PLAN, 120):
        rows = plays.rows(level)
        assert (rows[:, ROW["error"]] == 0).all()
        seats = 4 if rules.players == 4 else rules.players
        total = sum(margins(rows, s, seats) for s in range(seats))
        assert np.allclose(total, 0)


def test_plans_throw_the_bomb_as_the_hands_engine_does():
    """Under ``rospis.when = "talon"`` a plan's deal is conceded (before the discard)
    exactly where the hands engine's is."""
    rules = _rules("polish")
    masks = _deals(rules, 40, seed=13)
    lineup = ["strong", "strong", "guide"]
    bombs = 0
    for level in (PASS_PLAN, 120, 150):
        params = _limit(level)
        rows = play_plans(rules, masks, 2, 5, seat_players=lineup, params=params).rows(level)
        for k in range(len(masks)):
            tr = play_hand_text(
                rules, [_text(masks[k, s]) for s in range(3)], _text(masks[k, 3]), 2,
                seed=5, deal_id=k, strategies=lineup, params=params,
            )  # fmt: skip
            row = rows[k]
            assert bool(row[ROW["conceded"]]) == tr["conceded"], (level, k)
            assert int(row[ROW["contract"]]) == tr["contract"], (level, k)
            assert [int(row[ROW[f"delta_{s}"]]) for s in range(3)] == tr["score_deltas"]
            bombs += tr["conceded"]
    assert bombs > 5
