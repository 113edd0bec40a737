"""Special deals and other player counts (docs/rules.md §8, §10–§12): both engines.

One scenario per rule clause of PROTOCOL.md "Special deals, 2 and 4 players" and
GAME_PROTOCOL.md "Golden round", "Dark play", "Two and four players", "The bank",
with outcomes computed by hand: hands are scripted through both engines'
``play_hand_text`` (``tests/engines.py``), game rules through
:func:`sim.reference.game.apply_deal` with synthetic hand results. Then invariants
over random 2- and 4-player hands and random games with golden and dark deals.

Unless said otherwise the hands use ``QUIET`` rules: classic without reshuffle
conditions and without concessions, so that a script needs no keep/play tokens;
seats play "first" (the lowest legal action) once the script is used up.
"""

from __future__ import annotations

from typing import Any

import pytest
from support import ENGINES

from sim import reference as ref
from sim.cards import RANK_POINTS, card_str, parse_card
from sim.engine.actions import ScriptError
from sim.engine.deal import generate_deals
from sim.reference.game import (
    GameState,
    Stint,
    apply_deal,
    bank_payoffs,
    deal_special,
    game_row,
    hand_inputs,
    play_game,
    played,
    redealt,
)
from sim.rules import Rules, load_rules

QUIET = Rules().replace(
    reshuffle__hand_points_below=0,
    reshuffle__hand_nines=0,
    reshuffle__hand_four_jacks=False,
    reshuffle__talon_points_below=0,
    reshuffle__talon_two_nines=False,
    reshuffle__talon_three_jacks=False,
    rospis__allowed=False,
)
GOLDEN = QUIET.replace(golden__enabled=True)
DARK = QUIET.replace(dark__enabled=True)
FIRST3 = ("first",) * 3
engines = pytest.mark.parametrize("play", list(ENGINES.values()), ids=list(ENGINES))


def says(play: Any, reference_text: str, fast_text: str) -> str:
    """The error text to expect: the reference names the decision and its legal
    actions, the fast engine the position of the script token that failed."""
    return reference_text if play is ENGINES["reference"] else fast_text


def run(
    play: Any, r: Rules, hands: list[str], talon: str, dealer: int, script: list, **kw: Any
) -> dict:
    """Play a scripted hand on an engine; every seat plays "first" after the script."""
    kw.setdefault("strategies", ("first",) * r.players)
    return play(r, hands, talon, dealer, script=script, **kw)


def pts(cards: list[str]) -> int:
    return sum(RANK_POINTS[parse_card(c) % 6] for c in cards)


# ------------------------------------------------------------------------------------
# Deal G (dealer 2, forehand 0): seat 0 plays 120 and fails; seat 1 declares hearts.
#   seat 0 takes the talon 9S 9D 9H, gives 9D to seat 1 and 9H to seat 2.
#   T1 0:JH 1:AH 2:9H -> 1 (13)    T2 1:KH! 2:JD 0:9S -> 1 (6), hearts trump, +100
#   T3 1:QH 2:QD 0:TD -> 1 (16)    T4 1:TH 2:KD 0:AD -> 1 (25)
#   T5 1:9D 2:9C 0:TC -> 1 (10)    T6 1:JS 2:JC 0:AS -> 0 (15)
#   T7 0:AC 1:QS 2:QC -> 0 (17)    T8 0:TS 1:KS 2:KC -> 0 (18)   (T8 all forced)
# Seat 0: 50 points; seat 1: 70 + 100 marriage; seat 2: nothing (a bolt).
G_HANDS = ["AS TS AC TC AD TD JH", "KH QH AH TH KS QS JS", "KC QC JC 9C KD QD JD"]
G_TALON = "9S 9D 9H"
G_PLAY = [
    "JH", "AH",  # T1 (seat 2's 9H is forced)
    "KH!", "JD", "9S",
    "QH", "QD", "TD",
    "TH", "KD", "AD",
    "9D", "9C", "TC",
    "JS", "JC", "AS",
    "AC", "QS", "QC",
]  # fmt: skip
G_SCRIPT = ["9D", "9H", *G_PLAY]

# Deal W (dealer 2, forehand 0): seat 0 holds every spade and wins every trick with
# the "first" strategy (its 9S..AS, then TC, AC); nobody else holds a marriage.
W_HANDS = ["AS TS KS QS JS 9S AC", "KC KD KH JC 9C AD JD", "QC QD QH AH TH JH TD"]
W_TALON = "TC 9D 9H"


@engines
def test_deal_scripts_as_computed_by_hand(play):
    """The scenario deals play as the comments above say (an ordinary deal)."""
    tr = run(play, QUIET, G_HANDS, G_TALON, 2, ["pass", "pass", "9D", "9H", 120, *G_PLAY])
    assert [t["winner"] for t in tr["tricks"]] == [1, 1, 1, 1, 1, 0, 0, 0]
    assert tr["card_points"] == [50, 70, 0] and tr["marriage_points"] == [0, 100, 0]
    assert tr["score_deltas"] == [-120, 170, 0] and tr["bolts"] == [0, 0, 1]
    tr = run(play, QUIET, W_HANDS, W_TALON, 2, ["pass", "pass", "9D", "9H"])
    assert tr["card_points"] == [120, 0, 0] and tr["tricks_taken"] == [8, 0, 0]


# =====================================================================================
# Golden deals (PROTOCOL.md "Golden deal", docs/rules.md §10)
# =====================================================================================
@pytest.mark.parametrize("double_marriages, seat1", [(True, 340), (False, 240)])
@engines
def test_golden_deal_doubles_the_scores(play, double_marriages, seat1):
    # no bidding: forehand plays 120 blind with the talon hidden; the declarer fails:
    # -2 * 120; seat 1 has 70 + 100: 2 * 170 = 340, or 2 * 170 - 100 = 240 with
    # marriages undoubled
    r = GOLDEN.replace(golden__double_marriages=double_marriages)
    tr = run(play, r, G_HANDS, G_TALON, 2, G_SCRIPT, special="golden")
    assert tr["bids"] == [[0, 120]] and (tr["declarer"], tr["winning_bid"]) == (0, 120)
    assert tr["talon_shown"] is False and tr["contract"] == 120
    assert tr["card_points"] == [50, 70, 0] and tr["marriage_points"] == [0, 100, 0]
    assert tr["made"] is False and tr["score_deltas"] == [-240, seat1, 0]
    assert tr["bolts"] == [0, 0, 1]  # bolts are doubled by the game, not the hand
    assert tr["special"] == "golden" and tr["undarkened_by"] is None
    assert list(tr)[-4:] == ["made", "trump_named", "special", "undarkened_by"]


@engines
def test_golden_deal_made_scores_twice_the_contract(play):
    tr = run(play, GOLDEN, W_HANDS, W_TALON, 2, ["9D", "9H"], special="golden")
    assert tr["made"] is True and tr["score_deltas"] == [240, 0, 0]


P1_HANDS = ["AS TS AC QD AH TH 9D", "KS QS AD TD JD KH QH", "JS 9S KC QC JC JH 9H"]
P1_TALON = "9C TC KD"  # seat 0 (forehand of dealer 2) keeps the diamond marriage: cap 200


@engines
def test_golden_contract_is_120_blind_and_may_be_raised_otherwise(play):
    blind = run(play, GOLDEN, P1_HANDS, P1_TALON, 2, ["9C", "9D"], special="golden")
    assert blind["contract"] == 120
    with pytest.raises(ScriptError):  # no CONTRACT decision: 140 meets the first lead
        run(play, GOLDEN, P1_HANDS, P1_TALON, 2, ["9C", "9D", 140], special="golden")
    seen = run(play, GOLDEN.replace(golden__blind=False), P1_HANDS, P1_TALON, 2, ["9C", "9D", 140],
               special="golden")  # fmt: skip
    assert seen["contract"] == 140 and seen["winning_bid"] == 120
    with pytest.raises(ScriptError, match=says(play, r"legal: 120 125 .* 200$", "token 2 ")):
        run(play, GOLDEN.replace(golden__blind=False), P1_HANDS, P1_TALON, 2, ["9C", "9D", 205],
            special="golden")  # fmt: skip


@pytest.mark.parametrize(
    "flat, deltas",
    [({}, [-240, 120, 120]), ({"rospis__no_subtract": True}, [0, 120, 120])],
)
@engines
def test_golden_concession_is_doubled(play, flat, deltas):
    # ordinary: -120 and half of 120 = 60 each; golden: all doubled
    r = GOLDEN.replace(rospis__allowed=True, **flat)
    tr = run(play, r, G_HANDS, G_TALON, 2, ["9D", "9H", "concede"], special="golden")
    assert tr["conceded"] is True and tr["made"] is False
    assert tr["score_deltas"] == deltas and tr["special"] == "golden"


@engines
def test_hands_runs_never_offer_dark(play):
    with pytest.raises(ScriptError, match=says(play, "BID of seat 1", "token 0 ")):  # the first
        run(play, DARK, W_HANDS, W_TALON, 2, ["dark"], special="none")
    tr = ref.play_slot(load_rules("ukraine_online"), 1, 0)[-1]
    assert tr["special"] is None and tr["undarkened_by"] is None


# =====================================================================================
# Dark deals (PROTOCOL.md "Dark", docs/rules.md §11)
# =====================================================================================
# Deal W played dark: trick 1 9S 9C QC, then seat 0 declares spades (+40) and wins all.
W_DARK = ["dark", "9D", "9H", "9S", "9C", "QC", "KS!"]


@pytest.mark.parametrize("cap_240, declarer", [(True, 240), (False, 320)])
@engines
def test_dark_declared_and_made(play, cap_240, declarer):
    # 120 card points + 40 marriage = 160: +240, or 2 * round(160) = 320 uncapped
    r = DARK.replace(dark__cap_240=cap_240)
    tr = run(play, r, W_HANDS, W_TALON, 2, W_DARK, special="dark_allowed")
    assert tr["special"] == "dark" and tr["undarkened_by"] is None
    assert tr["bids"] == [[0, 120]] and tr["contract"] == 120 and tr["talon_shown"] is False
    assert tr["card_points"] == [120, 0, 0] and tr["marriage_points"] == [40, 0, 0]
    assert tr["made"] is True and tr["score_deltas"] == [declarer, 0, 0]
    assert tr["bolts"] == [0, 1, 1]


@engines
def test_dark_failed_costs_240_and_marriages_stay_undoubled(play):
    # deal G dark (nobody may undarken): seat 1 gets 2 * 170 - 100
    r = DARK.replace(dark__undarken=False)
    tr = run(play, r, G_HANDS, G_TALON, 2, ["dark", *G_SCRIPT], special="dark_allowed")
    assert tr["special"] == "dark" and tr["made"] is False
    assert tr["score_deltas"] == [-240, 240, 0]


@engines
def test_dark_declined_is_an_ordinary_deal(play):
    tr = run(play, DARK, W_HANDS, W_TALON, 2, ["light", "pass", "pass"], special="dark_allowed")
    assert tr["special"] is None and tr["bids"] == [[0, 100], [1, "pass"], [2, "pass"]]
    assert tr["talon_shown"] is False  # won at 100: hidden as usual
    # DARK is a real decision: the random strategy draws a number for it
    a = ref.play_hand_text(DARK, W_HANDS, W_TALON, 2, seed=3, special="dark_allowed")
    b = ref.play_hand_text(DARK, W_HANDS, W_TALON, 2, seed=3, special="none")
    assert a != b


@engines
def test_dark_concession_is_doubled(play):
    r = DARK.replace(rospis__allowed=True)
    tr = run(play, r, W_HANDS, W_TALON, 2, ["dark", "9D", "9H", "concede"], special="dark_allowed")
    assert tr["special"] == "dark" and tr["score_deltas"] == [-240, 120, 120]


# Deal U (dealer 2, forehand 0): only seat 2 holds a marriage (spades).
U_HANDS = ["AS TS JS 9S AC TD JH", "KC KD KH JC 9C AD JD", "KS QS QC QD QH AH TH"]
U_TALON = "TC 9D 9H"


@engines
def test_undarken_by_125_and_bidding_goes_on_from_the_next_seat(play):
    # seat 1 has no marriage: not asked; seat 2 undarkens; seats 0 and 1 cannot bid
    # above 125 (no marriage: cap 120) and pass automatically
    tr = run(play, DARK, U_HANDS, U_TALON, 2, ["dark", "undarken"], special="dark_allowed")
    assert tr["special"] is None and tr["undarkened_by"] == 2
    assert tr["bids"] == [[0, 100], [2, 125], [0, "pass"], [1, "pass"]]
    assert (tr["declarer"], tr["winning_bid"], tr["talon_shown"]) == (2, 125, True)
    # deal P1: seat 1 (♠, ♥) undarkens; seat 2 (♣: cap 180) bids next, seat 0 passes
    # automatically, then seat 1 raises and seat 2 passes
    script = ["dark", "undarken", 130, 140, "pass"]
    tr = run(play, DARK, P1_HANDS, P1_TALON, 2, script, special="dark_allowed")
    assert tr["undarkened_by"] == 1
    assert tr["bids"] == [[0, 100], [1, 125], [2, 130], [0, "pass"], [1, 140], [2, "pass"]]
    assert (tr["declarer"], tr["winning_bid"]) == (1, 140)
    # seat 1 declines, seat 2 is asked next
    tr = run(play, DARK, P1_HANDS, P1_TALON, 2, ["dark", "no", "undarken", "pass"],
             special="dark_allowed")  # fmt: skip
    assert tr["undarkened_by"] == 2 and tr["bids"][:2] == [[0, 100], [2, 125]]


@engines
def test_undarken_is_offered_only_to_a_seat_with_a_marriage(play):
    # deal W: nobody but forehand holds a marriage: no UNDARKEN, the next is a discard
    with pytest.raises(ScriptError, match=says(play, "DISCARD", "token 1 ")):
        run(play, DARK, W_HANDS, W_TALON, 2, ["dark", "undarken"], special="dark_allowed")
    # deal U: seat 2 silenced, or on the barrel with bids from 130: not asked
    silenced = DARK.replace(bid__silence_below=-100)
    with pytest.raises(ScriptError, match=says(play, "DISCARD", "token 1 ")):
        run(play, silenced, U_HANDS, U_TALON, 2, ["dark", "undarken"], special="dark_allowed",
            scores=(0, 0, -200))  # fmt: skip
    on = (False, False, True)
    with pytest.raises(ScriptError, match=says(play, "DISCARD", "token 1 ")):
        run(play, DARK.replace(barrel__bid_from=130), U_HANDS, U_TALON, 2, ["dark", "undarken"],
            special="dark_allowed", on_barrel=on)  # fmt: skip
    tr = run(play, DARK.replace(barrel__bid_from=120), U_HANDS, U_TALON, 2, ["dark", "undarken"],
             special="dark_allowed", on_barrel=on)  # fmt: skip
    assert tr["undarkened_by"] == 2
    # without dark.undarken nobody is asked
    with pytest.raises(ScriptError, match=says(play, "DISCARD", "token 1 ")):
        run(play, DARK.replace(dark__undarken=False), U_HANDS, U_TALON, 2, ["dark", "undarken"],
            special="dark_allowed")  # fmt: skip


# =====================================================================================
# The game's hand input ``special`` (GAME_PROTOCOL.md "Golden round", "Dark play")
# =====================================================================================
def test_dark_is_allowed_only_at_min_score_and_off_the_barrel():
    r = Rules().replace(dark__enabled=True, dark__min_score=0)
    st = GameState(dealer=0, scores=[0, -5, 0])  # forehand: seat 1
    assert deal_special(st, r) == "none"
    st.scores[1] = 0
    assert deal_special(st, r) == "dark_allowed"
    st.on_barrel[2] = True  # someone on the barrel
    assert deal_special(st, r) == "none"
    assert deal_special(st, r.replace(dark__not_on_barrel=False)) == "dark_allowed"
    assert deal_special(st, Rules()) == "none"  # dark off


def test_a_dark_deal_is_checked_against_the_input():
    r = Rules().replace(dark__enabled=True, dark__min_score=100)
    st = GameState(dealer=0)
    with pytest.raises(ValueError, match="special"):
        apply_deal(st, played(1, 120, True, (240, 0, 0), special="dark"), r)


# =====================================================================================
# The golden round in games (GAME_PROTOCOL.md "Golden round")
# =====================================================================================
G3 = Rules().replace(golden__enabled=True)


def golden(decl: int, made: bool, deltas, bolts=(0, 0, 0), conceded: bool = False) -> dict:
    return played(decl, 120, made, deltas, bolts, conceded, special="golden")


def test_golden_reset_when_nobody_makes_120():
    st = GameState(dealer=2)
    r = G3.replace(barrel__attempts=4)
    st.scores = [0, 880, 0]  # seat 1 on the barrel (a synthetic start)
    st.on_barrel[1] = True
    st.barrel_entries[1] = 1
    st.stints.append(Stint(1, 0))
    assert deal_special(st, r) == "golden"
    e1 = apply_deal(st, golden(0, False, (-240, 40, 60)), r)
    e2 = apply_deal(st, golden(1, False, (80, -240, 30), conceded=True), r)
    assert [e1["special"], e2["special"]] == ["golden", "golden"]
    assert st.scores == [-160, 880, 90]
    e3 = apply_deal(st, golden(2, False, (100, 60, -240), bolts=(0, 0, 1)), r)
    assert e3["events"] == [["bolt", 2], ["golden_reset"]]  # the reset comes last
    assert e3["scores"] == st.scores == [0, 0, 0]
    assert st.on_barrel == [False, False, False] and st.falls == [0, 0, 0]
    assert (st.stints[0].outcome, st.stints[0].deals_on_barrel) == ("knocked_off", 3)
    assert st.bolts == [0, 0, 1] and st.concessions == [0, 1, 0]  # counters stay
    assert deal_special(st, r) == "none"  # the golden round is over
    row = game_row(st, 0, 2, r)
    assert row["golden_reset"] is True and row["golden_deals"] == 3
    assert row["barrel_falls_1"] == 0


def test_no_golden_reset_when_someone_made_it():
    st = GameState(dealer=0)
    apply_deal(st, golden(1, False, (40, -240, 60)), G3)
    apply_deal(st, golden(2, True, (40, 60, 240)), G3)
    e = apply_deal(st, golden(0, False, (-240, 40, 60)), G3)
    assert e["events"] == [] and st.scores == [-160, -140, 360] and not st.golden_reset
    assert deal_special(st, G3) == "none"
    with pytest.raises(ValueError, match="special"):  # a golden deal after the round
        apply_deal(st, golden(1, True, (0, 240, 0)), G3)


def test_golden_round_repeats_if_nobody_makes_120():
    r = G3.replace(golden__reset_if_none=False, golden__repeat_if_none=True)
    st = GameState(dealer=0)
    for decl in (1, 2, 0):
        apply_deal(st, golden(decl, False, (-80, -80, -80)), r)
    assert st.scores == [-240, -240, -240] and not st.golden_reset  # scores kept
    assert deal_special(st, r) == "golden"  # a second golden round
    with pytest.raises(ValueError, match="special"):
        apply_deal(st, played(1, 120, True, (0, 120, 0)), r)
    apply_deal(st, golden(1, True, (0, 240, 0)), r)
    apply_deal(st, golden(2, False, (0, 0, -240)), r)
    assert deal_special(st, r) == "golden"
    apply_deal(st, golden(0, False, (-240, 0, 0)), r)
    assert deal_special(st, r) == "none"  # the second round had a made contract
    assert st.golden_deals == 6


def test_golden_round_is_the_first_n_played_deals_redeals_excluded():
    st = GameState(dealer=0, players=4)
    r = G3.replace(players=4)
    for k in range(4):
        assert deal_special(st, r) == "golden"
        e = apply_deal(st, redealt("hand_points_below"), r)
        assert e["special"] is None and deal_special(st, r) == "golden"
        apply_deal(st, played(k + 1 if k < 3 else 0, 120, k == 1, (0, 0, 0, 0),
                              (0, 0, 0, 0), special="golden"), r)  # fmt: skip
    assert deal_special(st, r) == "none" and st.golden_deals == 4


# =====================================================================================
# Bolts doubled in special deals (GAME_PROTOCOL.md "Golden round", last clause)
# =====================================================================================
def test_bolts_are_doubled_in_golden_and_dark_deals():
    r = Rules().replace(dark__enabled=True, bolt__double_in_special=True)
    st = GameState(dealer=0, bolts=[0, 1, 0])  # forehand 1 may play dark
    e = apply_deal(st, played(1, 120, True, (0, 240, 0), (1, 0, 1), special="dark"), r)
    # seat 0: 0 -> 1 -> 2; seat 2: 0 -> 1 -> 2
    assert e["events"] == [["bolt", 0], ["bolt", 0], ["bolt", 2], ["bolt", 2]]
    assert st.bolts == [2, 1, 2]
    # seat 0's first bolt is its third: the penalty, then the second counts anew
    st = GameState(dealer=0, bolts=[2, 0, 0])
    e = apply_deal(st, played(1, 120, True, (0, 240, 0), (1, 0, 0), special="dark"), r)
    assert e["events"] == [["bolt", 0], ["bolt_penalty", 0, 120], ["bolt", 0]]
    assert st.bolts == [1, 0, 0] and st.scores == [-120, 240, 0]
    # an ordinary (or undarkened) deal: one bolt
    st = GameState(dealer=0, bolts=[1, 0, 0])
    e = apply_deal(st, played(1, 120, True, (0, 120, 0), (1, 0, 0)), r)
    assert e["events"] == [["bolt", 0]] and st.bolts == [2, 0, 0]
    # without bolt.double_in_special: one bolt in a dark deal too
    st = GameState(dealer=0, bolts=[1, 0, 0])
    e = apply_deal(st, played(1, 120, True, (0, 240, 0), (1, 0, 0), special="dark"),
                   r.replace(bolt__double_in_special=False))  # fmt: skip
    assert e["events"] == [["bolt", 0]]


def test_dark_deals_are_tallied_by_declarer():
    r = Rules().replace(dark__enabled=True)
    st = GameState(dealer=0)
    apply_deal(st, played(1, 120, True, (0, 240, 0), special="dark"), r)
    apply_deal(st, played(2, 120, False, (0, 0, -240), special="dark"), r)
    apply_deal(st, played(0, 120, False, (-240, 120, 120), conceded=True, special="dark"), r)
    apply_deal(st, played(1, 125, True, (0, 125, 0)), r)  # undarkened or light
    row = game_row(st, 0, 0, r)
    assert row["dark_deals"] == 3 and row["golden_deals"] == 0
    assert [row[f"dark_won_{s}"] for s in range(3)] == [0, 1, 0]
    assert [row[f"dark_lost_{s}"] for s in range(3)] == [1, 0, 1]


# =====================================================================================
# Four players (PROTOCOL.md "Four players", GAME_PROTOCOL.md "Two and four players")
# =====================================================================================
FOUR = QUIET.replace(players=4)
# Dealer 0 sits out; seat 1 (forehand) declares; the talon holds the ♥ marriage: the
# dealer scores 4 + 3 + 0 points + 100 marriage = 107 -> 105.
F_HANDS = ["", "AS TS KS QS JS 9S AC", "KC KD TC JC 9C AD JD", "QC QD 9D AH TH JH TD"]
F_TALON = "KH QH 9H"


@engines
def test_four_players_sitter_scores_the_talon(play):
    hands, talon = F_HANDS, F_TALON
    tr = run(play, FOUR, hands, talon, 0, ["pass", "pass", "9H", "9S", 100])
    assert tr["hands"][0] == [] and len(tr["hands"]) == 4
    assert tr["bids"] == [[1, 100], [2, "pass"], [3, "pass"]] and tr["declarer"] == 1
    assert tr["discards"] == [[2, "9H"], [3, "9S"]]  # to d+2, then d+3
    assert tr["card_points"][0] == 7 and tr["marriage_points"][0] == 100
    assert tr["score_deltas"][0] == 105 and tr["tricks_taken"][0] == 0 and tr["bolts"][0] == 0
    assert sum(tr["card_points"][1:]) == 120  # the active seats play all 24 cards
    assert all(len(t["cards"]) == 3 and t["leader"] != 0 for t in tr["tricks"])
    # conceded: the sitter still scores the talon; golden: doubled like an opponent
    r = FOUR.replace(rospis__allowed=True, golden__enabled=True)
    tr = run(play, r, hands, talon, 0, ["pass", "pass", "9H", "9S", 100, "concede"])
    assert tr["score_deltas"] == [105, -100, 50, 50] and tr["card_points"] == [7, 0, 0, 0]
    tr = run(play, r, hands, talon, 0, ["9H", "9S", "concede"], special="golden")
    assert tr["score_deltas"] == [210, -240, 120, 120]
    r = r.replace(golden__double_marriages=False)
    tr = run(play, r, hands, talon, 0, ["9H", "9S", "concede"], special="golden")
    assert tr["score_deltas"][0] == 2 * 105 - 100


def test_four_players_places_go_to_the_seats_from_the_dealers_left():
    cards = ref.deal_cards(4, 9, players=4)
    assert cards == [int(c) for c in generate_deals(1, 4, players=4, start=9)[0]]
    tr = ref.play_hand(FOUR, cards, 2, strategies=("first",) * 4)
    names = [[card_str(c) for c in cards[7 * k : 7 * k + 7]] for k in range(3)]
    assert tr["hands"] == [names[1], names[2], [], names[0]]  # place k -> seat 3 + k
    assert tr["talon"] == [card_str(c) for c in cards[21:]]


def test_four_player_sitter_uses_no_barrel_attempt_and_keeps_its_bolts():
    r = Rules().replace(players=4, bolt__in_a_row=True)
    st = GameState(dealer=0, players=4, bolts=[2, 1, 1, 1])
    st.scores[0] = 880
    st.on_barrel[0] = True
    st.barrel_deals[0] = 1
    st.barrel_entries[0] = 1
    st.stints.append(Stint(0, 0))
    # seat 0 deals and sits out: its talon score is pinned, no attempt, no bolt reset
    e = apply_deal(st, played(1, 120, True, (105, 120, 20, 0), (0, 0, 0, 1)), r)
    assert st.scores == [880, 120, 20, 0] and st.barrel_deals == [1, 0, 0, 0]
    assert e["events"] == [["bolt", 3]] and st.bolts == [2, 0, 0, 2]
    assert st.dealer == 1 and e["deal_deltas"] == [105, 120, 20, 0]
    # seat 1 deals: seat 0 plays on the barrel and uses an attempt
    apply_deal(st, played(2, 120, False, (30, 0, -120, 25), (0, 0, 0, 0)), r)
    assert st.barrel_deals == [2, 0, 0, 0] and st.dealer == 2


def test_four_players_in_games():
    r = Rules().replace(players=4)
    st = GameState(dealer=3, players=4)
    assert hand_inputs(st, r) == ([False] * 4, [False] * 4)
    assert deal_special(st, r.replace(dark__enabled=True)) == "dark_allowed"
    out = play_game(r.replace(game__target=200, barrel__at=0), 5, 0, max_deals=60)
    dealers = [e["dealer"] for e in out["trace"]["deals"] if not e["reshuffled"]]
    assert dealers == [(out["trace"]["first_dealer"] + k) % 4 for k in range(len(dealers))]
    assert "score_3" in out["row"] and "bank_3" in out["row"] and "dark_lost_3" in out["row"]


# =====================================================================================
# Two players (PROTOCOL.md "Two players")
# =====================================================================================
TWO = QUIET.replace(players=2)
# dealer 1, forehand 0; talons: QH KH (place 2), 9H JH (place 3)
T_HANDS = ["AS TS KS QS JS 9S AC TC KC QC", "JC 9C AD TD KD QD JD 9D AH TH"]
T_TALON = "KH QH 9H JH"


@engines
def test_two_players_talon_pick_and_last_trick_captures_the_other_talon(play):
    # seat 1 passes: bidding ends after one pass. Seat 0 takes the second talon
    # (9H JH), gives 9H, plays 100; with "first" it leads 9S..AS, QC..AC (seat 1
    # follows low) and wins 10 tricks; the last, JH led, goes to seat 1's AH, which
    # also captures the set-aside KH QH: 2 + 11 + 4 + 3 = 20
    tr = run(play, TWO, T_HANDS, T_TALON, 1, ["pass", 1, "9H", 100])
    assert tr["bids"] == [[0, 100], [1, "pass"]] and tr["declarer"] == 0
    assert tr["talon"] == ["QH", "KH", "9H", "JH"] and tr["discards"] == [[1, "9H"]]
    assert len(tr["tricks"]) == 11 and all(len(t["cards"]) == 2 for t in tr["tricks"])
    assert tr["tricks"][-1] == {"leader": 0, "cards": ["JH", "AH"], "marriage": None,
                                "winner": 1}  # fmt: skip
    assert tr["tricks_taken"] == [10, 1] and tr["card_points"] == [100, 20]
    assert tr["made"] is True and tr["score_deltas"] == [100, 20] and tr["bolts"] == [0, 0]
    assert (tr["talon_pick"], tr["last_talon_to"]) == (1, 1)
    assert list(tr)[-6:] == [
        "made", "trump_named", "special", "undarkened_by", "talon_pick", "last_talon_to",
    ]  # fmt: skip
    # the first talon holds QH KH: only with pick 0 may seat 0 give away the QH
    tr = run(play, TWO, T_HANDS, T_TALON, 1, ["pass", 0, "QH", 100])
    assert tr["talon_pick"] == 0 and tr["discards"] == [[1, "QH"]]
    with pytest.raises(ScriptError, match="QH"):
        run(play, TWO, T_HANDS, T_TALON, 1, ["pass", 1, "QH"])


@engines
def test_two_players_bidding_ends_after_one_pass(play):
    # seat 1 (♦ marriage: cap 200) raises; seat 0 (♠ and ♣: cap 220) passes
    tr = run(play, TWO, T_HANDS, T_TALON, 1, [120, "pass", 0, "9D", 120])
    assert tr["bids"] == [[0, 100], [1, 120], [0, "pass"]] and tr["declarer"] == 1
    assert tr["discards"] == [[0, "9D"]]


@engines
def test_two_player_concession_and_trace(play):
    r = TWO.replace(rospis__allowed=True)
    tr = run(play, r, T_HANDS, T_TALON, 1, ["pass", 1, "9H", 120, "concede"])
    assert tr["score_deltas"] == [-120, 60] and tr["last_talon_to"] is None
    assert tr["card_points"] == [0, 0] and tr["talon_pick"] == 1


@engines
def test_two_player_deals_and_slots(play):
    cards = ref.deal_cards(6, 11, players=2)
    assert cards == [int(c) for c in generate_deals(1, 6, players=2, start=11)[0]]
    tr = ref.play_slot(load_rules("two_players"), 6, 11)[-1]
    assert tr["dealer"] == 1 and [len(h) for h in tr["hands"]] == [10, 10]
    with pytest.raises(ValueError, match=says(play, "talon must hold 4", r"\[10, 10, 2, 2\]")):
        run(play, TWO, T_HANDS, "KH QH 9H", 1, [])
    with pytest.raises(ValueError, match=says(play, "2 hands", r"one entry per seat \(2\)")):
        run(play, TWO, [*T_HANDS, ""], T_TALON, 1, [])


# =====================================================================================
# The bank (docs/rules.md §8, GAME_PROTOCOL.md "The bank")
# =====================================================================================
@pytest.mark.parametrize(
    "players, scores, winner, pay",
    [
        (3, [1000, 200, -50], 0, [100.0, 0.0, -100.0]),
        (3, [-50, 1020, -50], 1, [-50.0, 100.0, -50.0]),  # a tie for last shares it
        (4, [0, 0, 1000, 0], 2, [-100 / 3, -100 / 3, 100.0, -100 / 3]),
        (2, [400, 1000], 1, [-100.0, 100.0]),
    ],
)
def test_bank_payoffs(players, scores, winner, pay):
    r = Rules().replace(players=players, game__bank=100)
    st = GameState(players=players, scores=scores, winner=winner)
    assert bank_payoffs(st, r) == pytest.approx(pay)
    row = game_row(st, 0, 0, r)
    assert [row[f"bank_{s}"] for s in range(players)] == pytest.approx(pay)
    assert all(isinstance(row[f"bank_{s}"], float) for s in range(players))
    assert (f"bank_{players}" in row) is False
    st.winner = None  # unfinished: nobody pays
    assert bank_payoffs(st, r) == [0.0] * players
    assert bank_payoffs(GameState(players=players, scores=scores, winner=winner),
                        Rules().replace(players=players)) == [0.0] * players  # fmt: skip


# =====================================================================================
# Invariants: random 2- and 4-player hands, random special hands, random games
# =====================================================================================
def check_hand(r: Rules, tr: dict[str, Any]) -> None:
    """Cards accounted for, points sum to 120 among the players, deltas as the rules say."""
    n, d = r.players, tr["dealer"]
    assert len(tr["hands"]) == n
    for key in ("card_points", "marriage_points", "tricks_taken", "score_deltas", "bolts"):
        if tr["reshuffle"] is None:
            assert len(tr[key]) == n
    dealt = [c for h in tr["hands"] for c in h] + tr["talon"]
    assert sorted(parse_card(c) for c in dealt) == list(range(24))
    if tr["reshuffle"] is not None:
        return
    talon_pts = pts(tr["talon"])
    if n == 4:
        assert tr["hands"][d] == [] and tr["card_points"][d] == talon_pts
        assert tr["tricks_taken"][d] == 0 and tr["bolts"][d] == 0
    if tr["conceded"]:
        return
    active = [s for s in range(n) if not (n == 4 and s == d)]
    assert sum(tr["card_points"][s] for s in active) == 120
    if n == 4:  # over all seats: the sitter's talon points come on top
        assert sum(tr["card_points"]) == 120 + talon_pts
    assert sum(tr["tricks_taken"]) == (11 if n == 2 else 8)
    assert all(len(t["cards"]) == (2 if n == 2 else 3) for t in tr["tricks"])
    if n == 2:
        assert tr["last_talon_to"] == tr["tricks"][-1]["winner"]


@pytest.mark.parametrize("preset", ["two_players", "four_players"])
def test_random_hands_of_two_and_four_players(preset):
    r = load_rules(preset)
    played_hands = 0
    for slot in range(150):
        for tr in ref.play_slot(r, 2024, slot):
            check_hand(r, tr)
            played_hands += tr["reshuffle"] is None and not tr["conceded"]
    assert played_hands > 20


@pytest.mark.parametrize("preset", ["two_players", "ukraine_online", "four_players"])
def test_random_special_hands(preset):
    """Golden and dark hands under random play: 120 points, the doubled formulas."""
    r = load_rules(preset).replace(golden__enabled=True, dark__enabled=True)
    kinds: dict[Any, int] = {}
    for k, special in enumerate(["golden", "dark_allowed"] * 60):
        n = r.players
        cards = ref.deal_cards(9, k, players=n)
        tr = ref.play_hand(r, cards, k % n, seed=9, deal_id=k, special=special)
        check_hand(r, tr)
        if tr["reshuffle"] is not None:
            continue
        kinds[tr["special"]] = kinds.get(tr["special"], 0) + 1
        f = (k % n + 1) % n
        if tr["special"] is not None:
            assert tr["declarer"] == f and tr["bids"] == [[f, 120]] and not tr["talon_shown"]
        if special == "golden":
            assert tr["special"] == "golden"
        if tr["special"] == "dark" and not tr["conceded"]:
            assert tr["score_deltas"][f] == (240 if tr["made"] else -240)
    assert kinds.get("golden", 0) > 20 and kinds.get("dark", 0) > 5 and kinds.get(None, 0) > 5


@pytest.mark.parametrize("preset", ["two_players", "four_players", "ukraine_online"])
def test_random_games_end_with_one_winner_at_the_target(preset):
    """Lowered target (200, no barrel) and a bank: a finished game has one winner.

    (Random 2-player games drift below zero and some never finish.)
    """
    r = load_rules(preset).replace(game__target=200, barrel__at=0, game__bank=50)
    n = r.players
    finished = 0
    for g in range(8):
        out = play_game(r, 11, g, max_deals=300)
        tr, row = out["trace"], out["row"]
        final = tr["deals"][-1]["scores"]
        assert all(len(e["deal_deltas"]) == n and len(e["scores"]) == n for e in tr["deals"])
        assert [row[f"score_{s}"] for s in range(n)] == final and f"score_{n}" not in row
        specials = [e["special"] for e in tr["deals"] if not e["reshuffled"]]
        assert row["golden_deals"] == specials.count("golden")
        assert row["dark_deals"] == specials.count("dark")
        if r.golden.enabled:  # the first n played deals are golden
            assert specials[:n] == ["golden"] * min(n, len(specials))
        if tr["unfinished"]:
            assert row["n_deals"] == 300 and max(final) < 200 and tr["winner"] is None
            assert [row[f"bank_{s}"] for s in range(n)] == [0.0] * n
            continue
        finished += 1
        assert tr["winner"] in range(n) and row["winner"] == tr["winner"]
        assert final[tr["winner"]] >= 200 and final[tr["winner"]] == max(final)
        assert all(max(e["scores"]) < 200 for e in tr["deals"][:-1])
        assert sum(row[f"bank_{s}"] for s in range(n)) == pytest.approx(0.0)
        assert row[f"bank_{tr['winner']}"] == 50.0
    assert finished >= (3 if n > 2 else 2)


def test_random_golden_and_dark_games_keep_their_counts():
    """ukraine_online with a lowered target and the barrel: golden resets and dark deals."""
    r = load_rules("ukraine_online").replace(game__target=300, barrel__at=180)
    resets = darks = 0
    for g in range(12):
        out = play_game(r, 3, g, max_deals=120)
        deals = [e for e in out["trace"]["deals"] if not e["reshuffled"]]
        assert [e["special"] for e in deals[:3]] == ["golden"] * 3
        assert all(e["special"] != "golden" for e in deals[3:])
        reset = any(ev == ["golden_reset"] for e in deals for ev in e["events"])
        assert reset == out["row"]["golden_reset"]
        if reset:
            assert deals[2]["events"][-1] == ["golden_reset"] and deals[2]["scores"] == [0, 0, 0]
            assert not any(e["made"] for e in deals[:3])
        resets += reset
        darks += out["row"]["dark_deals"]
    assert resets > 0 and darks > 0
