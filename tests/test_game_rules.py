"""Game-level rule scenarios: one test per rule of docs/rules.md §7–§9 (GAME_PROTOCOL.md).

Each test scripts a short sequence of synthetic hand results through
:func:`sim.reference.game.apply_deal` (no cards are played) and checks the scores,
the events and the counters exactly. The hand inputs the game passes to the hand
engine (``no_concede``, ``on_barrel``) are checked on scripted deals of
:func:`sim.reference.play_hand_text`, and a few tests play whole games.

Unless said otherwise: classic rules, dealer 0 (so seat 1 is forehand and the order
from the dealer's left is 1, 2, 0), seat 0 declares.
"""

from __future__ import annotations

from typing import Any

import pytest
from support import ENGINES

from sim.reference import ScriptError, play_hand_text
from sim.reference.game import (
    GameState,
    Stint,
    apply_deal,
    close_game,
    game_row,
    hand_inputs,
    play_game,
    played,
    redealt,
)
from sim.rules import Rules, load_rules

CLASSIC = Rules()
FIRST = ("first", "first", "first")


def rules(**flat: Any) -> Rules:
    """Classic rules with options changed: rules(barrel__accumulate=True)."""
    return CLASSIC.replace(**flat)


def game(scores=(0, 0, 0), dealer=0, barrel=(), **kw: Any) -> GameState:
    """A game state; seats in ``barrel`` sit on the barrel (an open stint each)."""
    st = GameState(dealer=dealer, scores=list(scores), **kw)
    for s in barrel:
        st.on_barrel[s] = True
        st.barrel_entries[s] += 1
        st.stints.append(Stint(s, 0))
    return st


def deal(
    st: GameState,
    r: Rules = CLASSIC,
    deltas=(0, 0, 0),
    declarer: int = 0,
    contract: int = 120,
    made: bool = True,
    bolts=(0, 0, 0),
    conceded: bool = False,
) -> dict[str, Any]:
    """Apply one synthetic played deal; return its game-trace entry."""
    return apply_deal(st, played(declarer, contract, made, deltas, bolts, conceded), r)


def stints(st: GameState) -> list[tuple[int, int, int, str | None]]:
    return [(x.seat, x.entered_deal, x.deals_on_barrel, x.outcome) for x in st.stints]


# =================================================================================
# One deal: deltas, the dealer, the trace entry
# =================================================================================
def test_deal_deltas_are_added_and_the_dealer_moves():
    st = game(scores=(100, 50, -20), dealer=2)
    e = deal(st, deltas=(120, 35, -15), contract=120)
    assert st.scores == [220, 85, -35]
    assert (st.dealer, st.deals, st.winner) == (0, 1, None)
    assert e == {
        "dealer": 2,
        "special": None,
        "reshuffled": False,
        "declarer": 0,
        "contract": 120,
        "conceded": False,
        "made": True,
        "deal_deltas": [120, 35, -15],
        "bolts": [0, 0, 0],
        "scores": [220, 85, -35],
        "events": [],
    }
    assert list(e) == [
        *("dealer", "special", "reshuffled", "declarer", "contract", "conceded"),
        *("made", "deal_deltas", "bolts", "scores", "events"),
    ]


def test_redeal_changes_nothing_and_keeps_the_dealer():
    st = game(scores=(100, 50, -20), dealer=1)
    st.bolts = [1, 2, 0]
    e = apply_deal(st, redealt("hand_points_below", seat=2), CLASSIC)
    assert st.scores == [100, 50, -20] and st.bolts == [1, 2, 0]
    assert (st.dealer, st.deals) == (1, 0)
    assert e == {
        "dealer": 1,
        "special": None,
        "reshuffled": True,
        "declarer": None,
        "contract": None,
        "conceded": None,
        "made": None,
        "deal_deltas": [0, 0, 0],
        "bolts": [0, 0, 0],
        "scores": [100, 50, -20],
        "events": [],
    }


def test_dealer_penalty_three_nines():
    r = rules(reshuffle__dealer_penalty=120)
    st = game(scores=(100, 50, -20), dealer=1)
    e = apply_deal(st, redealt("hand_nines", seat=2), r)
    assert e["events"] == [["dealer_penalty", 1, 120]]
    assert st.scores == [100, -70, -20] and (st.dealer, st.deals) == (1, 0)
    # another reason, the option off, or a dealer on the barrel: no penalty
    assert apply_deal(st, redealt("hand_points_below", 2), r)["events"] == []
    assert apply_deal(st, redealt("talon_two_nines", 2), r)["events"] == []
    assert apply_deal(st, redealt("hand_nines", 2), CLASSIC)["events"] == []
    assert st.scores == [100, -70, -20]
    st = game(scores=(0, 880, 0), dealer=1, barrel=[1])
    assert apply_deal(st, redealt("hand_nines", 0), r)["events"] == []
    assert st.scores == [0, 880, 0]


def test_apply_deal_after_the_game_is_over_raises():
    st = game(scores=(0, 0, 900), barrel=())
    st.winner = 2
    with pytest.raises(ValueError, match="over"):
        deal(st)


# =================================================================================
# §5 Concessions
# =================================================================================
def test_third_concession_penalty():
    r = rules(rospis__third_penalty=120)
    st = game()
    for _ in range(2):
        assert deal(st, r, (-100, 50, 50), contract=100, made=False, conceded=True)["events"] == []
    e = deal(st, r, (-100, 50, 50), contract=100, made=False, conceded=True)
    assert e["events"] == [["concession_penalty", 0, 120]]
    assert e["made"] is False and e["conceded"] is True
    assert st.concessions == [3, 0, 0] and st.scores == [-420, 150, 150]
    # the fourth concession costs nothing more; other seats count their own
    assert deal(st, r, (-100, 50, 50), 0, 100, False, conceded=True)["events"] == []
    assert deal(st, r, (50, -100, 50), 1, 100, False, conceded=True)["events"] == []
    assert st.concessions == [4, 1, 0] and st.scores == [-470, 100, 250]
    # without the option nobody pays
    st = game()
    for _ in range(3):
        assert deal(st, CLASSIC, (-100, 50, 50), 0, 100, False, conceded=True)["events"] == []
    assert st.scores == [-300, 150, 150]


def test_third_concession_penalty_not_on_barrel():
    r = rules(rospis__third_penalty=120, rospis__on_barrel=True, barrel__accumulate=True)
    st = game(scores=(880, 0, 0), barrel=[0], concessions=[2, 0, 0])
    e = deal(st, r, (-100, 50, 50), contract=100, made=False, conceded=True)
    assert e["events"] == [] and st.scores == [780, 50, 50] and st.concessions[0] == 3


def test_concession_limit_per_game():
    r = rules(rospis__max_per_game=3)
    st = game(concessions=[3, 2, 0])
    assert hand_inputs(st, r) == ([True, False, False], [False, False, False])
    assert hand_inputs(st, CLASSIC) == ([False, False, False], [False, False, False])
    deal(st, r, (50, -100, 50), declarer=1, contract=100, made=False, conceded=True)
    assert hand_inputs(st, r)[0] == [True, True, False]
    # the hand engine offers a flagged declarer no CONCEDE decision
    script = ["pass", "pass", "9D", "9C", 100, "concede"]
    assert play_hand_text(CLASSIC, *P1, 2, script=script, strategies=FIRST)["conceded"]
    with pytest.raises(ScriptError):
        play_hand_text(CLASSIC, *P1, 2, script=script, strategies=FIRST, no_concede=[True] * 3)
    tr = play_hand_text(
        CLASSIC, *P1, 2, script=script, strategies=FIRST, no_concede=[False, True, True]
    )
    assert tr["conceded"]  # only the declarer's own flag counts


def test_no_concession_while_on_barrel():
    st = game(scores=(0, 880, 0), barrel=[1])
    assert hand_inputs(st, CLASSIC) == ([True, True, True], [False, True, False])
    assert hand_inputs(st, rules(rospis__on_barrel=True)) == (
        [False, False, False],
        [False, True, False],
    )
    r = rules(rospis__on_barrel=True, rospis__max_per_game=2)
    st.concessions = [0, 0, 2]
    assert hand_inputs(st, r)[0] == [False, False, True]
    st = game()
    assert hand_inputs(st, CLASSIC)[0] == [False, False, False]


# =================================================================================
# §7 Bolts
# =================================================================================
def test_third_bolt_costs_120():
    st = game(scores=(0, 200, 0))
    for _ in range(2):
        e = deal(st, deltas=(120, 0, 40), bolts=(0, 1, 0))
        assert e["events"] == [["bolt", 1]]
    assert st.bolts == [0, 2, 0] and st.scores[1] == 200
    e = deal(st, deltas=(120, 0, 40), bolts=(0, 1, 0))
    assert e["events"] == [["bolt", 1], ["bolt_penalty", 1, 120]]
    assert st.scores == [360, 80, 120] and st.bolts == [0, 0, 0] and st.bolt_penalties == [0, 1, 0]
    # bolts need not be in a row: the count goes on across bolt-free deals
    deal(st, bolts=(0, 1, 0))
    deal(st)
    deal(st, bolts=(1, 1, 0))
    e = deal(st, bolts=(0, 1, 1))
    assert e["events"] == [["bolt", 1], ["bolt_penalty", 1, 120], ["bolt", 2]]
    assert st.bolts == [1, 0, 1] and st.bolt_penalties == [0, 2, 0]


def test_bolt_count_and_penalty_options():
    r = rules(bolt__count=2, bolt__penalty=200)
    st = game()
    deal(st, r, bolts=(0, 0, 1))
    e = deal(st, r, bolts=(0, 0, 1))
    assert e["events"] == [["bolt", 2], ["bolt_penalty", 2, 200]] and st.scores == [0, 0, -200]


def test_a_bolt_penalty_of_nothing_is_not_counted_as_charged():
    # bolt.penalty 0 (the `app` preset): every bolt.count-th bolt still resets the count
    # and shows in the trace, but no penalty is charged, so none is counted
    r = rules(bolt__penalty=0)
    st = game(scores=(0, 200, 0))
    for _ in range(3):
        e = deal(st, r, deltas=(120, 0, 40), bolts=(0, 1, 0))
    assert e["events"] == [["bolt", 1], ["bolt_penalty", 1, 0]]
    assert st.scores[1] == 200 and st.bolts == [0, 0, 0] and st.bolt_penalties == [0, 0, 0]


def test_the_fast_engine_counts_bolt_penalties_only_where_they_cost():
    from sim.engine.game import play_games

    counted = {}
    for preset in ("app", "classic"):
        batch = play_games(load_rules(preset), 200, 3)
        counted[preset] = sum(int(batch.column(f"bolt_penalties_{s}").sum()) for s in range(3))
    assert load_rules("app").bolt.penalty == 0 and counted["app"] == 0
    assert counted["classic"] > 0  # the same games charge them at 120


def test_bolts_in_a_row_reset():
    r = rules(bolt__in_a_row=True)
    st = game()
    deal(st, r, bolts=(0, 1, 0))
    deal(st, r, bolts=(0, 1, 0))
    deal(st, r, bolts=(0, 0, 0))  # the row is broken
    assert st.bolts == [0, 0, 0]
    deal(st, r, bolts=(0, 1, 0))
    e = deal(st, r, bolts=(0, 1, 0))
    assert e["events"] == [["bolt", 1]] and st.bolts == [0, 2, 0] and st.scores[1] == 0
    e = deal(st, r, bolts=(0, 1, 0))
    assert e["events"] == [["bolt", 1], ["bolt_penalty", 1, 120]] and st.scores[1] == -120
    # the same sequence without in_a_row is penalised at the third bolt
    st = game()
    for b in (1, 1, 0):
        deal(st, bolts=(0, b, 0))
    assert deal(st, bolts=(0, 1, 0))["events"] == [["bolt", 1], ["bolt_penalty", 1, 120]]


def test_bolt_not_counted_on_barrel():
    st = game(scores=(0, 880, 0), barrel=[1])
    st.bolts = [0, 2, 0]
    e = deal(st, deltas=(120, 0, 30), bolts=(0, 1, 0), contract=120)
    assert e["events"] == [] and st.bolts == [0, 2, 0] and st.scores[1] == 880
    # with in_a_row, a barrel player's count is not reset either
    st = game(scores=(0, 880, 0), barrel=[1])
    st.bolts = [0, 2, 0]
    deal(st, rules(bolt__in_a_row=True), bolts=(0, 0, 0))
    assert st.bolts == [0, 2, 0]
    # bolt.on_barrel: counted and penalised on the barrel too
    st = game(scores=(0, 880, 0), barrel=[1])
    st.bolts = [0, 2, 0]
    e = deal(st, rules(bolt__on_barrel=True), deltas=(120, 0, 30), bolts=(0, 1, 0))
    assert e["events"] == [["bolt", 1], ["bolt_penalty", 1, 120]]
    assert st.scores[1] == 760 and st.bolts == [0, 0, 0]


# =================================================================================
# §7 555
# =================================================================================
def test_555_resets_to_zero():
    st = game(scores=(435, 500, 0))
    e = deal(st, deltas=(120, 55, 0))
    assert e["events"] == [["samosval", 0], ["samosval", 1]]
    assert st.scores == [0, 0, 0] and st.samosvals == [1, 1, 0]
    st = game(scores=(435, 0, 0))
    deal(st, rules(score__samosval=False), deltas=(120, 0, 0))
    assert st.scores == [555, 0, 0] and st.samosvals == [0, 0, 0]
    st = game(scores=(435, 0, 0))
    deal(st, deltas=(125, 0, 0), contract=125)
    assert st.scores == [560, 0, 0]  # only exactly 555


def test_555_resets_to_five():
    st = game(scores=(435, 0, 0))
    e = deal(st, rules(score__samosval_to=5), deltas=(120, 0, 0))
    assert e["events"] == [["samosval", 0]] and st.scores == [5, 0, 0]


def test_minus_555_resets():
    st = game(scores=(-435, 0, 0))
    e = deal(st, deltas=(-120, 0, 0), made=False)
    assert e["events"] == [["samosval", 0]] and st.scores == [0, 0, 0]
    st = game(scores=(-435, 0, 0))
    deal(st, rules(score__samosval_negative=False), deltas=(-120, 0, 0), made=False)
    assert st.scores == [-555, 0, 0]
    st = game(scores=(-435, 0, 0))
    deal(st, rules(score__samosval_to=5), deltas=(-120, 0, 0), made=False)
    assert st.scores == [5, 0, 0]


def test_555_after_the_bolt_penalty():
    # order of effects: the bolt penalty lands on 555, which then resets
    st = game(scores=(0, 675, 0))
    st.bolts = [0, 2, 0]
    e = deal(st, deltas=(120, 0, 0), bolts=(0, 1, 0))
    assert e["events"] == [["bolt", 1], ["bolt_penalty", 1, 120], ["samosval", 1]]
    assert st.scores == [120, 0, 0]


# =================================================================================
# §9 The barrel
# =================================================================================
def test_climbing_on_the_barrel_pins_the_score_at_880():
    st = game(scores=(800, 0, 0), dealer=2)
    e = deal(st, deltas=(140, 0, 0), contract=140)  # 940: a jump past it lands on 880
    assert e["events"] == [["barrel_on", 0]] and e["scores"] == [880, 0, 0]
    assert st.on_barrel == [True, False, False] and st.barrel_deals == [0, 0, 0]
    assert stints(st) == [(0, 0, 0, None)] and st.barrel_entries == [1, 0, 0]
    st = game(scores=(850, 0, 0))
    deal(st, deltas=(200, 0, 0), contract=200)  # past the target: still the barrel
    assert st.scores == [880, 0, 0] and st.winner is None
    st = game(scores=(0, 875, 0))
    deal(st, deltas=(120, 5, 0))  # exactly 880 climbs
    assert st.on_barrel == [False, True, False]


def test_barrel_pins_score():
    st = game(scores=(0, 880, 300), barrel=[1])
    e = deal(st, deltas=(120, 40, 15))  # defender's points are lost
    assert e["scores"] == [120, 880, 315] and e["events"] == []
    deal(st, deltas=(20, 100, 0), declarer=1, contract=100)  # made below 120: nothing
    assert st.scores == [140, 880, 315] and st.barrel_deals[1] == 2


def test_barrel_failed_contract_changes_nothing():
    st = game(scores=(0, 880, 0), barrel=[1])
    deal(st, deltas=(40, -160, 25), declarer=1, contract=160, made=False)
    assert st.scores == [40, 880, 25] and st.on_barrel[1] and st.barrel_deals[1] == 1


def test_barrel_accumulate():
    r = rules(barrel__accumulate=True)
    st = game(scores=(0, 880, 0), barrel=[1])
    deal(st, r, deltas=(120, 40, 0))
    assert st.scores == [120, 920, 0] and st.on_barrel[1] and st.winner is None
    e = deal(st, r, deltas=(-120, 80, 40), made=False)  # 1000 as a defender: wins
    assert e["events"] == [["barrel_win", 1]]
    assert st.winner == 1 and st.scores == [0, 1000, 40]
    assert stints(st) == [(1, 0, 2, "won")]


def test_barrel_accumulate_win_ties():
    # declarer's barrel win (1000) and a defender on the barrel at 1010: higher score wins
    r = rules(barrel__accumulate=True, barrel__simultaneous="both_stay")
    st = game(scores=(880, 960, 0), barrel=[0, 1])
    e = deal(st, r, deltas=(120, 50, 0))
    assert e["events"] == [["barrel_win", 1]] and st.winner == 1
    assert st.scores == [1000, 1010, 0]
    assert stints(st) == [(0, 0, 1, "game_over"), (1, 0, 1, "won")]


def test_barrel_win_needs_120():
    st = game(scores=(880, 300, 0), barrel=[0])
    e = deal(st, deltas=(115, 40, 0), contract=115)
    assert e["events"] == [] and st.scores == [880, 340, 0] and st.winner is None
    e = deal(st, deltas=(120, 40, 0), contract=120)
    assert e["events"] == [["barrel_win", 0]] and e["scores"] == [1000, 380, 0]
    assert st.winner == 0 and stints(st) == [(0, 0, 2, "won")]
    st = game(scores=(880, 0, 0), barrel=[0])
    deal(st, deltas=(160, 0, 0), contract=160)
    assert st.scores[0] == 1040 and st.winner == 0  # barrel.at + contract
    st = game(scores=(880, 0, 0), barrel=[0])
    deal(st, deltas=(-120, 0, 0), contract=120, made=False)
    assert st.winner is None and st.scores[0] == 880


def test_thousand_one_needs_125_on_barrel():
    r = load_rules("thousand_one")
    st = game(scores=(880, 0, 0), barrel=[0])
    e = deal(st, r, deltas=(120, 0, 0), contract=120)
    assert e["events"] == [] and st.scores[0] == 880 and st.barrel_deals[0] == 1
    e = deal(st, r, deltas=(125, 0, 0), contract=125)
    assert e["events"] == [["barrel_win", 0]] and st.scores[0] == 1005 and st.winner == 0


def test_barrel_fall_after_three_attempts():
    st = game(scores=(880, 0, 0), barrel=[0], dealer=1)
    for k in range(2):
        assert deal(st, deltas=(0, 60, 60), declarer=1, made=True)["events"] == []
        assert st.barrel_deals[0] == k + 1 and st.scores[0] == 880
    e = deal(st, deltas=(0, 60, 60), declarer=1)
    assert e["events"] == [["barrel_fall", 0, "attempts"]]
    assert st.scores == [760, 180, 180] and st.on_barrel == [False] * 3 and st.falls == [1, 0, 0]
    assert stints(st) == [(0, 0, 3, "fell_attempts")]
    r = rules(barrel__attempts=1, barrel__fall_penalty=200)
    st = game(scores=(880, 0, 0), barrel=[0])
    assert deal(st, r, declarer=1)["events"] == [["barrel_fall", 0, "attempts"]]
    assert st.scores[0] == 680


def test_third_fall_to_zero():
    r = rules(barrel__third_fall_zero=True)
    st = game(scores=(880, 0, 0), barrel=[0], falls=[2, 0, 0])
    st.barrel_deals = [2, 0, 0]
    e = deal(st, r, declarer=1)
    assert e["events"] == [["barrel_fall", 0, "attempts"]] and st.scores[0] == 0
    assert st.falls == [3, 0, 0]
    st = game(scores=(880, 0, 0), barrel=[0], falls=[2, 0, 0])
    st.barrel_deals = [2, 0, 0]
    deal(st, CLASSIC, declarer=1)
    assert st.scores[0] == 760
    st = game(scores=(880, 0, 0), barrel=[0], falls=[1, 0, 0])  # second fall: 760
    st.barrel_deals = [2, 0, 0]
    deal(st, r, declarer=1)
    assert st.scores[0] == 760
    st = game(scores=(880, 0, 0), barrel=[0], falls=[3, 0, 0])  # fourth fall: 760
    st.barrel_deals = [2, 0, 0]
    deal(st, r, declarer=1)
    assert st.scores[0] == 760


def test_second_player_on_barrel_knocks_first_off():
    st = game(scores=(0, 880, 800), barrel=[1])
    st.barrel_deals = [0, 1, 0]
    e = deal(st, deltas=(-120, 40, 100), made=False)
    assert e["events"] == [["barrel_on", 2], ["barrel_fall", 1, "knocked_off"]]
    assert st.scores == [-120, 760, 880] and st.on_barrel == [False, False, True]
    assert stints(st) == [(1, 0, 2, "knocked_off"), (2, 0, 0, None)]
    assert st.falls == [0, 1, 0] and st.barrel_entries == [0, 1, 1]


def test_one_climber_knocks_off_every_barrel_player():
    # two sat on the barrel together (both_stay); a third climber knocks both off,
    # in seat order from the dealer's left (dealer 1: seats 2, 0, 1)
    r = rules(barrel__simultaneous="both_stay")
    st = game(scores=(880, 800, 880), barrel=[0, 2], dealer=1)
    e = deal(st, r, deltas=(0, 100, 0), declarer=1, contract=100)
    assert e["events"] == [
        ["barrel_on", 1],
        ["barrel_fall", 2, "knocked_off"],
        ["barrel_fall", 0, "knocked_off"],
    ]
    assert st.scores == [760, 880, 760] and st.on_barrel == [False, True, False]


def test_no_knock_off_without_one_at_a_time():
    r = rules(barrel__one_at_a_time=False)
    st = game(scores=(0, 880, 800), barrel=[1])
    e = deal(st, r, deltas=(-120, 40, 100), made=False)
    assert e["events"] == [["barrel_on", 2]] and st.on_barrel == [False, True, True]
    assert st.scores == [-120, 880, 880]


def test_fall_from_attempts_happens_before_the_climb():
    # seat 1's last attempt ends as a fall; seat 2 climbs without knocking anyone off
    st = game(scores=(0, 880, 800), barrel=[1])
    st.barrel_deals = [0, 2, 0]
    e = deal(st, deltas=(-120, 40, 100), made=False)
    assert e["events"] == [["barrel_fall", 1, "attempts"], ["barrel_on", 2]]
    assert stints(st) == [(1, 0, 3, "fell_attempts"), (2, 0, 0, None)]


ALL_FALL = rules(barrel__simultaneous="all_fall")


def test_simultaneous_default_is_one_falls():
    # classic: two climbers in one deal, the lower score (seat 1, 890) falls
    assert CLASSIC.barrel.simultaneous == "one_falls"
    st = game(scores=(800, 820, 0), dealer=0)
    e = deal(st, deltas=(100, 70, -170), declarer=2, contract=170, made=False)
    assert e["events"] == [["barrel_fall", 1, "simultaneous"], ["barrel_on", 0]]
    assert st.scores == [880, 760, -170] and st.on_barrel == [True, False, False]


def test_simultaneous_all_fall():
    st = game(scores=(800, 820, 0), dealer=0)
    e = deal(st, ALL_FALL, deltas=(100, 70, -170), declarer=2, contract=170, made=False)
    # from the dealer's left: seat 1 first, then seat 0
    assert e["events"] == [["barrel_fall", 1, "simultaneous"], ["barrel_fall", 0, "simultaneous"]]
    assert st.scores == [760, 760, -170] and st.on_barrel == [False] * 3
    assert st.falls == [1, 1, 0] and st.barrel_entries == [1, 1, 0]
    assert stints(st) == [(1, 0, 0, "fell_simultaneous"), (0, 0, 0, "fell_simultaneous")]


def test_simultaneous_all_fall_leaves_the_barrel_player():
    st = game(scores=(800, 820, 880), barrel=[2], dealer=0)
    e = deal(st, ALL_FALL, deltas=(100, 70, 0), declarer=2, contract=120, made=False)
    assert e["events"] == [["barrel_fall", 1, "simultaneous"], ["barrel_fall", 0, "simultaneous"]]
    assert st.on_barrel == [False, False, True] and st.scores == [760, 760, 880]


def test_simultaneous_one_falls():
    r = rules(barrel__simultaneous="one_falls")
    st = game(scores=(800, 820, 880), barrel=[2], dealer=0)
    e = deal(st, r, deltas=(100, 70, 0), declarer=2, contract=120, made=False)
    # 900 (seat 0) against 890 (seat 1): seat 1 falls, seat 0 climbs, knocks seat 2 off
    assert e["events"] == [
        ["barrel_fall", 1, "simultaneous"],
        ["barrel_on", 0],
        ["barrel_fall", 2, "knocked_off"],
    ]
    assert st.scores == [880, 760, 760] and st.on_barrel == [True, False, False]
    # equal scores: the later seat from the dealer's left falls (dealer 0: seat 0)
    st = game(scores=(800, 800, 0), dealer=0)
    e = deal(st, r, deltas=(90, 90, 0), declarer=2, contract=120, made=False)
    assert e["events"] == [["barrel_fall", 0, "simultaneous"], ["barrel_on", 1]]
    st = game(scores=(800, 800, 0), dealer=1)  # from the left: 2, 0, 1 -> seat 1 falls
    e = deal(st, r, deltas=(90, 90, 0), declarer=2, contract=120, made=False)
    assert e["events"] == [["barrel_fall", 1, "simultaneous"], ["barrel_on", 0]]


def test_simultaneous_both_stay():
    r = rules(barrel__simultaneous="both_stay")
    st = game(scores=(800, 820, 880), barrel=[2], dealer=0)
    e = deal(st, r, deltas=(100, 70, 0), declarer=2, contract=120, made=False)
    assert e["events"] == [["barrel_on", 1], ["barrel_on", 0], ["barrel_fall", 2, "knocked_off"]]
    assert st.scores == [880, 880, 760] and st.on_barrel == [True, True, False]
    # both on the barrel: each uses its attempts, neither knocks the other off
    e = deal(st, r, deltas=(0, 0, 60), declarer=2)
    assert e["events"] == [] and st.barrel_deals == [1, 1, 0]
    # one of them wins: the other's stint ends with the game
    e = deal(st, r, deltas=(0, 150, 0), declarer=1, contract=150)
    assert e["events"] == [["barrel_win", 1]] and st.winner == 1
    assert stints(st)[-2:] == [(1, 0, 2, "won"), (0, 0, 2, "game_over")]


def test_barrel_bid_from_120():
    r = rules(barrel__bid_from=120)
    # P1, dealer 2: seat 1 (cap 260) bids first; on the barrel only 120..260 are legal
    assert _legal_bids(r, on_barrel=[False, True, False]) == {"pass", *range(120, 261, 5)}
    assert _legal_bids(r, on_barrel=[False, False, False]) == {"pass", *range(105, 261, 5)}
    assert _legal_bids(CLASSIC, on_barrel=[False, True, False]) == {"pass", *range(105, 261, 5)}
    # without jumps the only raise (105) is below 120: seat 1 passes without a decision
    nj = rules(barrel__bid_from=120, bid__jumps=False)
    tr = play_hand_text(nj, *P1, 2, script=[105], strategies=FIRST, on_barrel=[False, True, False])
    assert tr["bids"][:3] == [[0, 100], [1, "pass"], [2, 105]]
    # forehand on the barrel keeps its automatic 100 and may win there
    tr = play_hand_text(r, *P1, 2, script=["pass", "pass"], strategies=FIRST, on_barrel=[True] * 3)
    assert tr["bids"] == [[0, 100], [1, "pass"], [2, "pass"]] and tr["winning_bid"] == 100
    # the game passes the flag for the seat on the barrel
    assert hand_inputs(game(scores=(0, 880, 0), barrel=[1]), r)[1] == [False, True, False]


def _legal_bids(r: Rules, on_barrel) -> set[Any]:
    out = set()
    for tok in ["pass", *range(95, 300, 5)]:
        try:
            play_hand_text(r, *P1, 2, script=[tok], strategies=FIRST, on_barrel=on_barrel)
        except ScriptError:
            continue
        out.add(tok)
    return out


# =================================================================================
# §8 Winning without the barrel
# =================================================================================
NO_BARREL = rules(barrel__at=0)


def test_no_barrel_target_reached():
    st = game(scores=(900, 0, 0))
    e = deal(st, NO_BARREL, deltas=(100, 0, 0), contract=100)
    assert e["events"] == [] and st.winner == 0 and st.scores == [1000, 0, 0]
    st = game(scores=(900, 0, 0))
    deal(st, NO_BARREL, deltas=(95, 0, 0), contract=100)
    assert st.winner is None


def test_no_barrel_highest_score_wins():
    st = game(scores=(900, 960, 0))
    deal(st, NO_BARREL, deltas=(100, 50, 0), contract=100)
    assert st.winner == 1  # 1000 / 1010: the higher score, not the declarer


def test_no_barrel_tie_goes_to_the_declarer():
    st = game(scores=(900, 980, 0))
    deal(st, NO_BARREL, deltas=(120, 40, 0), declarer=0)
    assert st.winner == 0
    st = game(scores=(900, 980, 0))
    deal(st, NO_BARREL, deltas=(120, 40, 0), declarer=1, made=False)
    assert st.winner == 1


def test_no_barrel_tie_without_declarer_goes_to_dealer_left():
    st = game(scores=(980, 980, 0), dealer=0)  # from the left: 1, 2, 0
    deal(st, NO_BARREL, deltas=(40, 40, -120), declarer=2, made=False)
    assert st.winner == 1
    st = game(scores=(980, 980, 0), dealer=1)  # from the left: 2, 0, 1
    deal(st, NO_BARREL, deltas=(40, 40, -120), declarer=2, made=False)
    assert st.winner == 0


def test_target_strict():
    r = rules(barrel__at=0, game__target_strict=True)
    st = game(scores=(880, 0, 0))
    deal(st, r, deltas=(120, 0, 0))
    assert st.winner is None and st.scores[0] == 1000
    deal(st, r, deltas=(5, 0, 0), contract=5)
    assert st.winner == 0
    st = game(scores=(880, 0, 0))
    deal(st, NO_BARREL, deltas=(120, 0, 0))
    assert st.winner == 0


def test_five_hundred_one_target():
    r = load_rules("five_hundred_one")
    st = game(scores=(440, 0, 0))
    deal(st, r, deltas=(60, 0, 0), contract=60)
    assert st.winner is None
    deal(st, r, deltas=(1, 0, 0), contract=1)
    assert st.winner == 0 and st.scores[0] == 501


def test_order_of_effects():
    # the third concession's penalty lands on 555, which resets; then the climb
    r = rules(rospis__third_penalty=120)
    st = game(scores=(820, 300, 795), concessions=[0, 0, 2], dealer=1)
    e = deal(st, r, deltas=(60, 60, -120), declarer=2, contract=120, made=False, conceded=True)
    assert e["events"] == [["concession_penalty", 2, 120], ["samosval", 2], ["barrel_on", 0]]
    assert st.scores == [880, 360, 0]


# =================================================================================
# Whole games
# =================================================================================
def test_unfinished_game_marked():
    out = play_game(CLASSIC, 5, 0, max_deals=7)
    tr, row = out["trace"], out["row"]
    assert tr["unfinished"] is True and tr["winner"] is None
    assert row["unfinished"] is True and row["winner"] == -1 and row["n_deals"] == 7
    assert sum(not d["reshuffled"] for d in tr["deals"]) == 7
    # an open stint ends as game_over when the game is cut off
    st = game(scores=(0, 880, 0), barrel=[1])
    deal(st)
    close_game(st)
    assert stints(st) == [(1, 0, 1, "game_over")]
    assert game_row(st, 3, 2)["winner"] == -1


def test_game_row_counts():
    r = rules(rospis__third_penalty=120)
    st = game(dealer=2)
    deal(st, r, (-100, 50, 50), contract=100, made=False, conceded=True)
    deal(st, r, bolts=(0, 1, 1))
    row = game_row(st, 9, 2)
    assert row == {
        "game_id": 9,
        "first_dealer": 2,
        "n_deals": 2,
        "winner": -1,
        "unfinished": True,
        "score_0": -100,
        "score_1": 50,
        "score_2": 50,
        "barrel_entries_0": 0,
        "barrel_entries_1": 0,
        "barrel_entries_2": 0,
        "barrel_falls_0": 0,
        "barrel_falls_1": 0,
        "barrel_falls_2": 0,
        "bolt_penalties_0": 0,
        "bolt_penalties_1": 0,
        "bolt_penalties_2": 0,
        "samosvals_0": 0,
        "samosvals_1": 0,
        "samosvals_2": 0,
        "concessions_0": 1,
        "concessions_1": 0,
        "concessions_2": 0,
        "golden_reset": False,
        "golden_deals": 0,
        "dark_deals": 0,
        "contracts": 2,
        "contracts_made": 1,
        "contracts_conceded": 1,
        "contract_sum": 100 + 120,
        "dark_won_0": 0,
        "dark_won_1": 0,
        "dark_won_2": 0,
        "dark_lost_0": 0,
        "dark_lost_1": 0,
        "dark_lost_2": 0,
        "nine_cut_penalties_0": 0,
        "nine_cut_penalties_1": 0,
        "nine_cut_penalties_2": 0,
        "max_behind_0": 150,  # -100 against 50 after the first deal
        "max_behind_1": 0,
        "max_behind_2": 0,
        # by role: dealer 2 then 0; the deals' deltas (-100, 50, 50) and (0, 0, 0)
        "role_points_0": 50,
        "role_points_1": -100,
        "role_points_2": 50,
        "bank_0": 0.0,
        "bank_1": 0.0,
        "bank_2": 0.0,
    }


def test_game_with_low_target_finishes():
    # without the barrel a game ends as soon as someone reaches the target
    r = rules(barrel__at=0, game__target=200)
    out = play_game(r, 1, 4)
    tr = out["trace"]
    assert not tr["unfinished"] and tr["winner"] in (0, 1, 2)
    last = tr["deals"][-1]["scores"]
    assert last[tr["winner"]] == max(last) >= 200
    assert all(max(d["scores"]) < 200 for d in tr["deals"][:-1])


# P1 of tests/test_scenarios.py, dealer 2: seat 0 forehand (cap 120), seat 1 holds
# ♠ and ♥ (cap 260), seat 2 holds ♣ (cap 180).
P1 = (["AS TS AC QD AH TH 9D", "KS QS AD TD JD KH QH", "JS 9S KC QC JC JH 9H"], "9C TC KD")


@pytest.mark.parametrize("play", ENGINES.values(), ids=ENGINES.keys())
def test_hand_inputs_of_games_on_both_engines(play):
    """The per-seat inputs a game passes (barrel bid floor, concession ban) act alike."""
    r = rules(barrel__bid_from=120)
    legal = set()
    for tok in ["pass", *range(95, 300, 5)]:
        try:
            play(r, *P1, 2, script=[tok], strategies=FIRST, on_barrel=[False, True, False])
        except ScriptError:
            continue
        legal.add(tok)
    assert legal == {"pass", *range(120, 261, 5)}
    script = ["pass", "pass", "9D", "9C", 100, "concede"]
    with pytest.raises(ScriptError):
        play(CLASSIC, *P1, 2, script=script, strategies=FIRST, no_concede=[True] * 3)
    tr = play(CLASSIC, *P1, 2, script=script, strategies=FIRST, no_concede=[False, True, True])
    assert tr["conceded"]
