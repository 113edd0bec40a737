"""Fast engine: invariants on random deals under every preset (tests/trace_checks.py),
determinism, columns."""

import numba
import numpy as np
import polars as pl
import pytest
from support import PRESETS_3P, check_deal, sizes

from sim.engine import play_hands
from sim.engine.state import OUT
from sim.rules import load_rules
from sim.runs.hands import hands_frame

CLI_MD_HANDS_COLUMNS = (
    "deal_id, dealer, reshuffled, reshuffle_seat, reshuffle_reason, declarer, winning_bid, "
    "at_100, contract, conceded, made, declarer_total, talon_points, hand_points_0, "
    "hand_points_1, hand_points_2, marriages_held_0, marriages_held_1, marriages_held_2, "
    "declarer_marriages_after, max_bid_0, max_bid_1, max_bid_2, card_points_0, card_points_1, "
    "card_points_2, marriage_points_0, marriage_points_1, marriage_points_2, declared_0, "
    "declared_1, declared_2, tricks_0, tricks_1, tricks_2, delta_0, delta_1, delta_2, bolt_0, "
    "bolt_1, bolt_2"
).split(", ")


@sizes(700, 2000)
@pytest.mark.parametrize("preset", PRESETS_3P)
@pytest.mark.parametrize("strategy", ["random", "heuristic", "strong"])
def test_invariants_on_random_deals(preset, strategy, size):
    rules = load_rules(preset)
    batch = play_hands(rules, size, seed=17, strategies=(strategy,) * 3, trace=True)
    assert batch.column("error").max() == 0
    docs = batch.traces()
    assert len(docs) == size + int(batch.column("redeals").sum())
    for doc in docs:
        check_deal(rules, doc, 17)


@pytest.mark.parametrize(
    "change",
    [
        {"bid__jumps": False},
        {"bid__cap_by_marriages": False},
        {"play__must_beat": True, "play__must_trump": False},
        {"marriage__trump_from": "next_trick", "marriage__first_lead": True},
        {
            "marriage__ace": True,
            "marriage__ace_sets_trump": True,
            "marriage__requires_capture": True,
        },
        {"score__round_to": 10, "score__round_declarer": True, "bolt__on": "zero_points"},
        {"rospis__opponents_get": "sixty", "rospis__no_subtract": True},
        {"bolt__declarer_exempt": True, "bonus__four_nines": 120, "talon__hide_at_100": False},
        {"play__no_lead_foreign_trump": True, "marriage__only_declarer": True},
        {"play__must_lead_trump": True, "reshuffle__after_discard_points_below": 20},
    ],
    ids=lambda c: ",".join(c),
)
@sizes(500, 1500)
def test_invariants_under_option_changes(change, size):
    rules = load_rules("classic").replace(**change)
    batch = play_hands(rules, size, seed=3, strategies=("random",) * 3, trace=True)
    for doc in batch.traces():
        check_deal(rules, doc, 3)


def test_same_seed_same_results_whatever_chunks_or_threads():
    rules = load_rules("ukraine_online")
    strategies = ("heuristic", "random", "heuristic")
    whole = play_hands(rules, 3000, seed=8, strategies=strategies)
    parts = [
        play_hands(rules, 1000, seed=8, strategies=strategies, start=s).out for s in (0, 1000, 2000)
    ]
    assert np.array_equal(whole.out, np.concatenate(parts))
    # one thread and two (conftest.py lets numba start two on any machine)
    before = numba.get_num_threads()
    try:
        threads = {}
        for n in (1, 2):
            numba.set_num_threads(n)
            threads[n] = play_hands(rules, 3000, seed=8, strategies=strategies).out
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(threads[1], whole.out) and np.array_equal(threads[2], whole.out)
    other = play_hands(rules, 3000, seed=9, strategies=strategies)
    assert not np.array_equal(other.out, whole.out)


def test_hands_frame_has_the_documented_columns_and_redeal_rows():
    batch = play_hands(load_rules("classic"), 3000, seed=2, strategies=("heuristic",) * 3)
    frame = hands_frame(batch)
    assert set(CLI_MD_HANDS_COLUMNS) <= set(frame.columns)
    redeals = int(batch.column("redeals").sum())
    assert frame.height == 3000 + redeals and redeals > 0
    redealt = frame.filter(frame["reshuffled"])
    assert redealt["reshuffle_reason"].null_count() == 0
    assert redealt["declarer"].null_count() == redealt.height  # nothing after the reason
    played = frame.filter(~frame["reshuffled"])
    assert played["deal_id"].to_list() == list(range(3000))
    assert (played["delta_0"] + played["delta_1"] + played["delta_2"]).abs().max() <= 420
    assert set(frame["dealer"].unique().to_list()) == {0, 1, 2}


@pytest.mark.parametrize("preset", ["classic", "two_players", "four_players"])
def test_hands_frame_rows_are_the_batch_rows_and_a_subset_of_columns_the_same(preset):
    from sim.engine.state import ROW, SEAT_BASES, SPECIALS

    rules = load_rules(preset)
    batch = play_hands(rules, 700, seed=3, strategies=("heuristic",))
    frame = hands_frame(batch)
    played = frame.filter(~frame["reshuffled"])
    redealt = frame.filter(frame["reshuffled"])
    assert played.height == 700 and redealt.height == int(batch.column("redeals").sum()) > 0
    checked = 0
    for c in frame.columns:
        if c not in ROW or c in ("dealer", "redeals") or frame[c].dtype == pl.String:
            continue
        want = batch.column(c)
        if rules.players == 2 and c[:-2] in SEAT_BASES and c.endswith("_2"):
            assert frame[c].null_count() == frame.height
            continue
        got = played[c].cast(pl.Int64).to_numpy()
        assert np.array_equal(got, want if frame[c].dtype != pl.Boolean else want != 0), c
        assert redealt[c].null_count() == redealt.height, c
        checked += 1
    assert checked >= 30
    special = [SPECIALS[k] for k in batch.column("special")]
    assert played["special"].to_list() == special
    subset = ["declarer", "contract", "made", "special", "hand_points_1", "reshuffle_reason"]
    assert hands_frame(batch, subset).equals(frame.select(subset), null_equal=True)


def test_dealer_rotates_and_forehand_opens():
    batch = play_hands(load_rules("classic"), 300, seed=4, strategies=("first",) * 3)
    dealers = batch.column("dealer")
    assert np.array_equal(dealers, np.arange(300) % 3)
    # "first" always passes, so forehand wins every deal on the hundred
    assert np.array_equal(batch.column("declarer"), (dealers + 1) % 3)
    assert (batch.column("winning_bid") == 100).all() and (batch.column("at_100") == 1).all()


def test_output_columns_are_named():
    assert OUT["delta_2"] == OUT["delta_0"] + 2


def test_a_batch_played_without_traces_refuses_to_give_them():
    from sim.engine.game import play_games

    rules = load_rules("classic")
    hands, games = play_hands(rules, 4, 1), play_games(rules, 2, 1)
    assert hands.column("contract").shape == (len(hands),) == (4,)
    assert games.column("winner").shape == (len(games),) == (2,)
    for batch in (hands, games):
        with pytest.raises(ValueError, match="without trace=True"):
            batch.traces()
