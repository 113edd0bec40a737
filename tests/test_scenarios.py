"""Rule scenarios: one test per clause of docs/rules.md §3–§7, run on every hand engine.

Every deal is written as card text and driven by a script (sim/engine/actions.py
tokens, consumed at every NON-forced decision in order); after the script the seats
play the ``first`` strategy (lowest legal action: keep, pass, lowest card id, the
winning bid as contract, play on, trump spades). Legal sets are measured by scripting
each candidate token after a prefix: an illegal token raises ``ScriptError``.

Dealer 2 throughout unless said otherwise, so seat 0 is forehand and bids are asked
of seat 1, then seat 2, then seat 0. Card ids ascend by suit S C D H, then rank
9 J Q K T A: "first" leads spades before clubs before diamonds before hearts.
"""

from __future__ import annotations

from typing import Any

import pytest
from support import ENGINES

from sim.cards import card_str
from sim.reference import ScriptError
from sim.rules import Rules, load_rules

FIRST = ("first", "first", "first")
CLASSIC = Rules()
ALL_CARDS = [card_str(c) for c in range(24)]
PLAY_TOKENS = ALL_CARDS + [c + "!" for c in ALL_CARDS]
BID_TOKENS: list[Any] = ["pass", *range(95, 420, 5), 107, 112]

engines = pytest.mark.parametrize("play", ENGINES.values(), ids=ENGINES.keys())


def rules(**flat: Any) -> Rules:
    """Classic rules with options changed: rules(bid__jumps=False)."""
    return CLASSIC.replace(**flat)


def run(play, r, deal, script, dealer=2, **kw) -> dict[str, Any]:
    hands, talon = deal
    kw.setdefault("strategies", FIRST)
    return play(r, list(hands), talon, dealer, script=list(script), **kw)


def accepted(play, r, deal, script, dealer=2, **kw) -> bool:
    try:
        run(play, r, deal, script, dealer, **kw)
    except ScriptError:
        return False
    return True


def legal(play, r, deal, prefix, tokens=PLAY_TOKENS, dealer=2, **kw) -> set[Any]:
    """The tokens accepted at the first non-forced decision after ``prefix``."""
    return {t for t in tokens if accepted(play, r, deal, [*prefix, t], dealer, **kw)}


def cards(s: str) -> set[str]:
    return set(s.split())


def tricks(trace) -> list[tuple[str, int]]:
    return [(" ".join(t["cards"]), t["winner"]) for t in trace["tricks"]]


# ---------------------------------------------------------------------------------
# Deals. Every one is checked against the classic reshuffle conditions (hand points
# >= 13, < 3 nines, < 4 jacks; talon points >= 5, < 2 nines, < 3 jacks) unless said.
#
# P1: seat 0 strong with the ♦ marriage after taking KD from the talon; seat 1 holds
# the ♠ and ♥ marriages and is void in clubs; seat 2 is void in diamonds.
#   seat 0: AS TS AC QD AH TH 9D   56 points, no marriage (bid cap 120)
#   seat 1: KS QS AD TD JD KH QH   37 points, ♠+♥ (cap 120+40+100 = 260)
#   seat 2: JS 9S KC QC JC JH 9H   13 points (not < 13), 2 nines, ♣ (cap 180)
#   talon:  9C TC KD               14 points, 1 nine
# P1_BASE: both pass, seat 0 wins at 100, gives 9D to seat 1 and 9C to seat 2,
# contracts 100 (cap 120 + ♦80 = 200 with KD QD), plays on. After the discard:
#   seat 0: AS TS AC TC KD QD AH TH
#   seat 1: KS QS AD TD JD 9D KH QH
#   seat 2: JS 9S KC QC JC 9C JH 9H
P1 = (["AS TS AC QD AH TH 9D", "KS QS AD TD JD KH QH", "JS 9S KC QC JC JH 9H"], "9C TC KD")
P1_BASE: list[Any] = ["pass", "pass", "9D", "9C", 100, "play"]
# Line G of P1, fully scripted up to trick 5 (forced plays consume no token):
#   T1 seat 0 AS, seat 1 QS, seat 2 9S            -> seat 0 (AS)
#   T2 seat 0 KD! (♦ 80, trump ♦), 9D, JH         -> seat 0 (KD over 9D)
#   T3 seat 0 AC, seat 1 must trump: JD, seat 2 KC -> seat 1 (JD trump)
#   T4 seat 1 KH! (♥ 100, trump ♥), seat 2 9H (forced), seat 0 AH -> seat 0
#   T5 seat 0 TC, seat 1 QH (forced: void ♣, trump ♥), seat 2 9C -> seat 1
# then "first": T6 seat 1 KS, JS, TS (forced) -> seat 0 (10 over K)
#               T7 seat 0 QD, seat 1 TD (lowest ♦), seat 2 JC (void ♦ and ♥) -> seat 1
#               T8 seat 1 AD, seat 2 QC, seat 0 TH (all forced) -> seat 0 (TH trump)
G_TO_T3: list[Any] = [*P1_BASE, "AS", "QS", "9S", "KD!", "9D", "JH", "AC", "JD", "KC"]
G: list[Any] = [*G_TO_T3, "KH!", "AH", "TC", "9C"]
G_TRICKS = [
    ("AS QS 9S", 0),  # 11+3+0 = 14 to seat 0
    ("KD 9D JH", 0),  # 4+0+2 = 6 to seat 0
    ("AC JD KC", 1),  # 11+2+4 = 17 to seat 1
    ("KH 9H AH", 0),  # 4+0+11 = 15 to seat 0
    ("TC QH 9C", 1),  # 10+3+0 = 13 to seat 1
    ("KS JS TS", 0),  # 4+2+10 = 16 to seat 0
    ("QD TD JC", 1),  # 3+10+2 = 15 to seat 1
    ("AD QC TH", 0),  # 11+3+10 = 24 to seat 0
]  # seat 0: 14+6+15+16+24 = 75, seat 1: 17+13+15 = 45, seat 2: 0; sum 120

# P_TOPS: seat 0 ends with the ace and ten of every suit and wins all 8 tricks.
#   seat 0: AS TS AC TC AD TH 9D   63 points
#   seat 1: KS QS JS KC QC JC 9C   20 points, ♠+♣ (cap 220)
#   seat 2: KD QD JD KH QH JH 9H   22 points, ♦+♥ (cap 300)
#   talon:  9S TD AH               21 points, 1 nine
# After giving 9S to seat 1 and 9D to seat 2, seat 0 holds AS TS AC TC AD TD AH TH
# (no marriage: contract 100..120).
P_TOPS = (["AS TS AC TC AD TH 9D", "KS QS JS KC QC JC 9C", "KD QD JD KH QH JH 9H"], "9S TD AH")


def tops_base(contract: int) -> list[Any]:
    return ["pass", "pass", "9S", "9D", contract, "play"]


# P_NINES: seat 2 is dealt three nines (and 12 points) and receives the fourth.
#   seat 0: AS TS AC TC TD AH TH   73 points
#   seat 1: KS QS JS KC QC JC JD   20 points, 3 jacks, ♠+♣ (cap 220)
#   seat 2: 9S 9C 9D QD KH QH JH   12 points < 13 AND 3 nines: reshuffle offered
#   talon:  9H KD AD               15 points, 1 nine
# Seat 0 gives KD to seat 1 and 9H to seat 2 and keeps AS TS AC TC AD TD AH TH.
# Seat 2 then holds 9S 9C 9D 9H QD KH QH JH: 0+3+4+3+2 = 12 points.
P_NINES = (["AS TS AC TC TD AH TH", "KS QS JS KC QC JC JD", "9S 9C 9D QD KH QH JH"], "9H KD AD")
NINES_BASE: list[Any] = ["keep", "pass", "pass", "KD", "9H", 120, "play"]

# R: the declarer loses exactly trick 1 to seat 1, worth X = L + 11 (AS) + D, and
# wins the other 7; seat 2 takes nothing. Layout "A" (seat 1's low spade 9S):
#   seat 0: JS KS TS AH KH QH 9D   34 points
#   seat 1: AS 9S 9H QD KD TD AD   39 points, 2 nines, ♦ (cap 200)
#   seat 2: JH JC QC KC TC AC JD   34 points, 3 jacks, ♣ (cap 180)
#   talon:  9C TH QS               13 points
# Layout "B" swaps 9S (to seat 0) and JS (to seat 1). Script: both pass, seat 0
# gives 9C to seat 1 and 9D to seat 2, contracts 100, plays on, leads L; seat 1
# takes with AS; seat 2 (void in spades) throws D; seat 1 leads 9H; seat 2 follows JH
# (forced), seat 0 wins with QH ("first"); seat 0 then leads its 3 spades (all above
# seat 1's low spade) and KH TH AH into two players void in hearts.
R_LAYOUT = {
    "A": (["JS KS TS AH KH QH 9D", "AS 9S 9H QD KD TD AD", "JH JC QC KC TC AC JD"], "9C TH QS"),
    "B": (["9S KS TS AH KH QH 9D", "AS JS 9H QD KD TD AD", "JH JC QC KC TC AC JD"], "9C TH QS"),
}


def r_script(lead: str, throw: str, contract: int = 100) -> list[Any]:
    return ["pass", "pass", "9C", "9D", contract, "play", lead, "AS", throw, "9H"]


# P_TRUMP: seat 0 holds six clubs; both opponents are void in clubs and hold hearts.
#   seat 0: 9C JC QC KC TC AC 9S   30 points, ♣ (contract cap 180)
#   seat 1: KS QS JS KH QH 9D JD   18 points, ♠+♥ (cap 260)
#   seat 2: AH TH JH AD TD KD QD   51 points, ♦ (cap 200)
#   talon:  9H AS TS               21 points, 1 nine
# Seat 0 gives 9S to seat 1 and 9H to seat 2.
P_TRUMP = (["9C JC QC KC TC AC 9S", "KS QS JS KH QH 9D JD", "AH TH JH AD TD KD QD"], "9H AS TS")
TRUMP_BASE: list[Any] = ["pass", "pass", "9S", "9H", 100, "play"]

# P_TALON9: P_TOPS with the talon 9S 9D AH: 11 points, two nines.
P_TALON9 = (["AS TS AC TC AD TD TH", "KS QS JS KC QC JC 9C", "KD QD JD KH QH JH 9H"], "9S 9D AH")
# P_JACKS3: a talon of three jacks (6 points, no nine).
P_JACKS3 = (["AS TS AC TC AD TD AH", "KS QS 9S KC QC 9C TH", "KD QD 9D KH QH 9H JH"], "JS JC JD")
# P_JACKS4: seat 1 is dealt four jacks (15 points, 1 nine); nothing else qualifies.
P_JACKS4 = (["AS TS AC TC AD TH 9H", "JS JC JD JH 9C KS QS", "9D KC QC KD QD KH QH"], "9S TD AH")


# =================================================================================
# §3 Reshuffle
# =================================================================================
@engines
def test_hand_points_below_allows_reshuffle(play):
    # Seat 2 holds 12 points (nines rule off): offered below 13, not below 12.
    r = rules(reshuffle__hand_nines=0)
    tr = run(play, r, P_NINES, ["demand"])
    assert tr["reshuffle"] == {"seat": 2, "reason": "hand_points_below"}
    r12 = rules(reshuffle__hand_nines=0, reshuffle__hand_points_below=12)
    with pytest.raises(ScriptError):  # "demand" reaches seat 1's BID decision
        run(play, r12, P_NINES, ["demand"])


@engines
def test_hand_nines_allows_reshuffle(play):
    # Seat 2 holds three nines: enough at hand_nines = 3, not at 4.
    tr = run(play, rules(reshuffle__hand_points_below=0), P_NINES, ["demand"])
    assert tr["reshuffle"] == {"seat": 2, "reason": "hand_nines"}
    r4 = rules(reshuffle__hand_points_below=0, reshuffle__hand_nines=4)
    with pytest.raises(ScriptError):
        run(play, r4, P_NINES, ["demand"])


@engines
def test_hand_four_jacks_allows_reshuffle(play):
    tr = run(play, CLASSIC, P_JACKS4, ["demand"])
    assert tr["reshuffle"] == {"seat": 1, "reason": "hand_four_jacks"}
    with pytest.raises(ScriptError):
        run(play, rules(reshuffle__hand_four_jacks=False), P_JACKS4, ["demand"])


@engines
def test_reshuffle_reason_is_lowest_condition(play):
    # Seat 2 meets both points (bit 0) and nines (bit 1): the reason is the points.
    tr = run(play, CLASSIC, P_NINES, ["demand"])
    assert tr["reshuffle"] == {"seat": 2, "reason": "hand_points_below"}


@engines
def test_reshuffle_asked_from_forehand(play):
    # Seat 1 holds four jacks (25 points), seat 2 three nines (14 points); seat 0
    # 74 points; talon 9H KC QC (7 points, 1 nine). Seats are asked f, f+1, f+2.
    deal = (["AS TS AC TC AD TH AH", "JS JC JD JH KS QS TD", "9S 9C 9D KD QD KH QH"], "9H KC QC")
    # Dealer 2: order 0, 1, 2 - seat 0 meets nothing, seat 1 is asked first.
    assert run(play, CLASSIC, deal, ["demand"])["reshuffle"] == {
        "seat": 1,
        "reason": "hand_four_jacks",
    }
    tr = run(play, CLASSIC, deal, ["keep", "demand"])
    assert tr["reshuffle"] == {"seat": 2, "reason": "hand_nines"}
    # Dealer 1: forehand is seat 2, asked before seat 1.
    tr = run(play, CLASSIC, deal, ["demand"], dealer=1)
    assert tr["reshuffle"] == {"seat": 2, "reason": "hand_nines"}
    # A kept hand leads on to bidding: two keeps, then seat 1's BID (dealer 2).
    assert run(play, CLASSIC, deal, ["keep", "keep", 105])["bids"][1] == [1, 105]


@engines
def test_redealt_trace_stops_at_reshuffle(play):
    tr = run(play, CLASSIC, P_NINES, ["demand"], deal_id=5, attempt=3)
    assert list(tr) == ["deal_id", "dealer", "hands", "talon", "reshuffle", "attempt"]
    assert tr["deal_id"] == 5 and tr["attempt"] == 3 and tr["dealer"] == 2
    # hands are the dealt hands, ascending ids (suit S C D H, then rank 9 J Q K T A)
    assert tr["hands"][2] == ["9S", "9C", "9D", "QD", "JH", "QH", "KH"]
    assert tr["talon"] == ["KD", "AD", "9H"]


@engines
def test_no_reshuffle_at_max_redeals(play):
    # Attempt 32 of a slot is played with every reshuffle demand disallowed.
    assert run(play, CLASSIC, P_NINES, ["demand"], attempt=31)["reshuffle"] is not None
    with pytest.raises(ScriptError):
        run(play, CLASSIC, P_NINES, ["keep"], attempt=32)


@engines
def test_talon_two_nines_reshuffle(play):
    tr = run(play, CLASSIC, P_TALON9, ["pass", "pass", "demand"])
    assert tr["reshuffle"] == {"seat": 0, "reason": "talon_two_nines"}
    with pytest.raises(ScriptError):  # "demand" reaches the DISCARD decision
        run(play, rules(reshuffle__talon_two_nines=False), P_TALON9, ["pass", "pass", "demand"])


@engines
def test_talon_points_below_reshuffle(play):
    # The P_TALON9 talon holds 11 points: below 12, not below 11.
    r = rules(reshuffle__talon_two_nines=False, reshuffle__talon_points_below=12)
    tr = run(play, r, P_TALON9, ["pass", "pass", "demand"])
    assert tr["reshuffle"] == {"seat": 0, "reason": "talon_points_below"}
    r11 = rules(reshuffle__talon_two_nines=False, reshuffle__talon_points_below=11)
    with pytest.raises(ScriptError):
        run(play, r11, P_TALON9, ["pass", "pass", "demand"])


@engines
def test_talon_three_jacks_reshuffle(play):
    tr = run(play, CLASSIC, P_JACKS3, ["pass", "pass", "demand"])
    assert tr["reshuffle"] == {"seat": 0, "reason": "talon_three_jacks"}
    with pytest.raises(ScriptError):
        run(play, load_rules("app"), P_JACKS3, ["pass", "pass", "demand"])


@engines
def test_talon_reshuffle_by_the_bid_winner(play):
    # Seat 1 bids 105, seat 2 passes, seat 0 (cap 120: may raise) passes: seat 1 wins
    # and is the one offered the talon reshuffle.
    tr = run(play, CLASSIC, P_TALON9, [105, "pass", "pass", "demand"])
    assert tr["reshuffle"] == {"seat": 1, "reason": "talon_two_nines"}


@engines
def test_talon_only_at_100(play):
    r = rules(reshuffle__talon_only_at_100=True)
    tr = run(play, r, P_TALON9, ["pass", "pass", "demand"])  # won at 100: offered
    assert tr["reshuffle"] == {"seat": 0, "reason": "talon_two_nines"}
    with pytest.raises(ScriptError):  # won at 105: not offered
        run(play, r, P_TALON9, [105, "pass", "pass", "demand"])


@engines
def test_after_discard_four_nines(play):
    # Seat 0 gives 9H to seat 2, who then holds all four nines.
    r = rules(reshuffle__after_discard_four_nines=True)
    tr = run(play, r, P_NINES, ["keep", "pass", "pass", "KD", "9H", "demand"])
    assert tr["reshuffle"] == {"seat": 2, "reason": "after_discard_four_nines"}
    with pytest.raises(ScriptError):  # classic: "demand" reaches the CONTRACT decision
        run(play, CLASSIC, P_NINES, ["keep", "pass", "pass", "KD", "9H", "demand"])
    # Giving seat 2 a different card leaves it with three nines: nothing offered.
    with pytest.raises(ScriptError):
        run(play, r, P_NINES, ["keep", "pass", "pass", "9H", "KD", "demand"])


@engines
def test_after_discard_points_below(play):
    # After the discard seat 2 holds 9S 9C 9D 9H QD KH QH JH = 12 points; seat 1
    # KS QS JS KC QC JC KD JD = 24; seat 0 84.
    script = ["keep", "pass", "pass", "KD", "9H", "demand"]
    tr = run(play, rules(reshuffle__after_discard_points_below=13), P_NINES, script)
    assert tr["reshuffle"] == {"seat": 2, "reason": "after_discard_points_below"}
    with pytest.raises(ScriptError):
        run(play, rules(reshuffle__after_discard_points_below=12), P_NINES, script)


# =================================================================================
# §4 Bidding
# =================================================================================
@engines
def test_forehand_bids_100_automatically(play):
    # Dealer 0: forehand is seat 1; seat 2 and seat 0 are asked, both pass.
    tr = run(play, CLASSIC, P1, ["pass", "pass"], dealer=0)
    assert tr["bids"] == [[1, 100], [2, "pass"], [0, "pass"]]
    assert tr["declarer"] == 1 and tr["winning_bid"] == 100


@engines
def test_forehand_wins_on_the_hundred(play):
    tr = run(play, CLASSIC, P1, P1_BASE)
    assert tr["bids"] == [[0, 100], [1, "pass"], [2, "pass"]]
    assert (tr["declarer"], tr["winning_bid"], tr["contract"]) == (0, 100, 100)
    assert tr["tricks"][0]["leader"] == 0  # the declarer leads the first trick


@engines
def test_bidding_goes_clockwise_and_a_pass_is_final(play):
    # 1: 105, 2: 110, 0: pass, then only 1 and 2 are asked: 1: 120, 2: pass.
    tr = run(play, CLASSIC, P1, [105, 110, "pass", 120, "pass"])
    assert tr["bids"] == [[0, 100], [1, 105], [2, 110], [0, "pass"], [1, 120], [2, "pass"]]
    assert (tr["declarer"], tr["winning_bid"]) == (1, 120)
    assert tr["tricks"][0]["leader"] == 1  # the declarer leads the first trick


@engines
def test_bids_are_multiples_of_step(play):
    # Seat 1 (cap 260) may bid any multiple of 5 from 105 to 260.
    assert legal(play, CLASSIC, P1, [], BID_TOKENS) == {"pass", *range(105, 265, 5)}
    r10 = rules(bid__step=10)
    assert legal(play, r10, P1, [], BID_TOKENS) == {"pass", *range(110, 270, 10)}


@engines
def test_jumps_off_raises_by_step_only(play):
    assert legal(play, rules(bid__jumps=False), P1, [], BID_TOKENS) == {"pass", 105}
    # After seat 1's 105 seat 2 may only say 110.
    assert legal(play, rules(bid__jumps=False), P1, [105], BID_TOKENS) == {"pass", 110}


@engines
def test_cap_by_marriages_limits_bids(play):
    # Seat 2 holds only ♣ (60): cap 180. Seat 0 holds no marriage: cap 120.
    assert max(legal(play, CLASSIC, P1, ["pass"], BID_TOKENS) - {"pass"}) == 180
    assert legal(play, CLASSIC, P1, [105, "pass"], BID_TOKENS) == {"pass", 110, 115, 120}
    # Seat 1 holds ♠ 40 + ♥ 100: cap 260 (test_bids_are_multiples_of_step).


@engines
def test_no_raise_possible_passes_automatically(play):
    # Seat 2 bids 150; seat 0 (cap 120) cannot raise: passed without a decision.
    tr = run(play, CLASSIC, P1, ["pass", 150])
    assert tr["bids"] == [[0, 100], [1, "pass"], [2, 150], [0, "pass"]]
    assert (tr["declarer"], tr["winning_bid"]) == (2, 150)


@engines
def test_no_cap_allows_bluff(play):
    r = rules(bid__cap_by_marriages=False)
    assert legal(play, r, P1, [105, "pass"], BID_TOKENS) == {"pass", *range(110, 405, 5)}


@engines
def test_silence_below_always_passes(play):
    r = rules(bid__silence_below=-120)
    # Seat 1 at -125 is silenced: the first token is seat 2's.
    tr = run(play, r, P1, [150], scores=(0, -125, 0))
    assert tr["bids"] == [[0, 100], [1, "pass"], [2, 150], [0, "pass"]]
    # At exactly -120 seat 1 is not below the threshold and bids.
    tr = run(play, r, P1, [150], scores=(0, -120, 0))
    assert tr["bids"][:2] == [[0, 100], [1, 150]] and tr["declarer"] == 1


# =================================================================================
# §5 Talon, discard, contract, concession
# =================================================================================
@engines
def test_talon_hidden_at_100(play):
    assert run(play, CLASSIC, P1, P1_BASE)["talon_shown"] is False
    assert run(play, CLASSIC, P1, [105, "pass", "pass"])["talon_shown"] is True
    assert run(play, rules(talon__hide_at_100=False), P1, P1_BASE)["talon_shown"] is True


@engines
def test_discard_gives_one_card_to_each_opponent(play):
    tr = run(play, CLASSIC, P1, G)
    assert tr["discards"] == [[1, "9D"], [2, "9C"]]
    # Everyone holds 8 cards and plays each once: seat 1 plays the 9D it was given,
    # seat 2 the 9C, seat 0 the talon's TC.
    played: dict[int, list[str]] = {0: [], 1: [], 2: []}
    for t in tr["tricks"]:
        for k, c in enumerate(t["cards"]):
            played[(t["leader"] + k) % 3].append(c)
    assert cards(" ".join(played[1])) == cards("KS QS AD TD JD 9D KH QH")
    assert cards(" ".join(played[2])) == cards("JS 9S KC QC JC 9C JH 9H")
    assert cards(" ".join(played[0])) == cards("AS TS AC TC KD QD AH TH")
    # The declarer chooses among its 10 cards (hand + talon), to seat 1 first.
    assert legal(play, CLASSIC, P1, ["pass", "pass"], ALL_CARDS) == cards(
        "AS TS AC TC KD QD 9D AH TH 9C"
    )
    assert legal(play, CLASSIC, P1, ["pass", "pass", "9D"], ALL_CARDS) == cards(
        "AS TS AC TC KD QD AH TH 9C"
    )


@engines
def test_contract_at_least_winning_bid(play):
    # Seat 0 keeps KD QD: 100 up to 120 + 80 = 200 in steps of 5.
    got = legal(play, CLASSIC, P1, P1_BASE[:4], BID_TOKENS[1:])
    assert got == set(range(100, 205, 5))


@engines
def test_contract_raise_capped_by_marriages_kept(play):
    # Seat 0 gives KD away: no marriage left, contract 100..120 only.
    got = legal(play, CLASSIC, P1, ["pass", "pass", "KD", "9C"], BID_TOKENS[1:])
    assert got == set(range(100, 125, 5))
    # Seat 2 wins at 150 (cap 180 with KC QC); giving KC away leaves 120 + 0 < 150:
    # the contract is forced at the winning bid (no decision, so 155 would reach the
    # CONCEDE decision and fail).
    tr = run(play, CLASSIC, P1, ["pass", 150, "KC", "9S"])
    assert (tr["declarer"], tr["contract"]) == (2, 150)
    with pytest.raises(ScriptError):
        run(play, CLASSIC, P1, ["pass", 150, "KC", "9S", 155])
    # Keeping KC QC: 150..180.
    got = legal(play, CLASSIC, P1, ["pass", 150, "9S", "9H"], BID_TOKENS[1:])
    assert got == {150, 155, 160, 165, 170, 175, 180}


@engines
def test_concession_half(play):
    # Contract 125 conceded: declarer -125, each opponent 125/2 = 62.5 -> 65.
    tr = run(play, CLASSIC, P1, ["pass", "pass", "9D", "9C", 125, "concede"])
    assert tr["conceded"] is True and "tricks" not in tr
    assert tr["score_deltas"] == [-125, 65, 65]
    assert tr["card_points"] == tr["marriage_points"] == tr["tricks_taken"] == [0, 0, 0]
    assert tr["bolts"] == [0, 0, 0] and tr["made"] is False
    # 120 -> 60 exactly.
    tr = run(play, CLASSIC, P1, ["pass", "pass", "9D", "9C", 120, "concede"])
    assert tr["score_deltas"] == [-120, 60, 60]


@engines
def test_concession_sixty(play):
    r = rules(rospis__opponents_get="sixty")
    tr = run(play, r, P1, ["pass", "pass", "9D", "9C", 125, "concede"])
    assert tr["score_deltas"] == [-125, 60, 60]


@engines
def test_concession_no_subtract(play):
    r = rules(rospis__no_subtract=True)
    tr = run(play, r, P1, ["pass", "pass", "9D", "9C", 125, "concede"])
    assert tr["score_deltas"] == [0, 65, 65]


@engines
def test_concession_not_allowed(play):
    with pytest.raises(ScriptError):  # no CONCEDE decision: "concede" reaches PLAY
        run(play, rules(rospis__allowed=False), P1, ["pass", "pass", "9D", "9C", 100, "concede"])


@engines
def test_concession_on_barrel(play):
    script = ["pass", "pass", "9D", "9C", 100, "concede"]
    with pytest.raises(ScriptError):  # someone on the barrel blocks it by default
        run(play, CLASSIC, P1, script, barrel=True)
    assert run(play, rules(rospis__on_barrel=True), P1, script, barrel=True)["conceded"]


# =================================================================================
# §6 Play
# =================================================================================
@engines
def test_follow_suit(play):
    # AS led: seat 1 must play a spade (KS QS), seat 2 too (JS 9S).
    assert legal(play, CLASSIC, P1, [*P1_BASE, "AS"]) == cards("QS KS")
    assert legal(play, CLASSIC, P1, [*P1_BASE, "AS", "QS"]) == cards("9S JS")


@engines
def test_no_trump_before_marriage(play):
    # AC led on trick 1: seat 1 (void in clubs) may play anything, and its AD does
    # not win: there is no trump before a marriage.
    assert legal(play, CLASSIC, P1, [*P1_BASE, "AC"]) == cards("KS QS AD TD JD 9D KH QH")
    tr = run(play, CLASSIC, P1, [*P1_BASE, "AC", "AD", "9C"])
    assert tricks(tr)[0] == ("AC AD 9C", 0)


@engines
def test_void_player_must_trump(play):
    # After seat 0's ♦ marriage, AC is led: seat 1 (void in clubs) must trump.
    prefix = [*P1_BASE, "AS", "QS", "9S", "KD!", "9D", "JH", "AC"]
    assert legal(play, CLASSIC, P1, prefix) == cards("JD TD AD")


@engines
def test_must_trump_off_allows_discard(play):
    prefix = [*P1_BASE, "AS", "QS", "9S", "KD!", "9D", "JH", "AC"]
    r = rules(play__must_trump=False)
    assert legal(play, r, P1, prefix) == cards("KS JD TD AD KH QH")


@engines
def test_trick_goes_to_highest_trump(play):
    # Line G trick 3: JD (the lowest trump) beats the led AC.
    assert tricks(run(play, CLASSIC, P1, G_TO_T3))[2] == ("AC JD KC", 1)
    # P_TRUMP, trump ♥ named: 9C led, both opponents void in clubs must trump; the
    # higher trump takes the trick.
    r = rules(trump__named_by_declarer=True)
    base = [*TRUMP_BASE, "H", "9C"]
    assert legal(play, r, P_TRUMP, base) == cards("QH KH")
    tr = run(play, r, P_TRUMP, [*base, "KH", "TH"])
    assert tricks(tr)[0] == ("9C KH TH", 2)
    tr = run(play, r, P_TRUMP, [*base, "KH", "JH"])
    assert tricks(tr)[0] == ("9C KH JH", 1)


@engines
def test_trick_goes_to_highest_card_of_led_suit(play):
    # Line G trick 6: KS led, TS (10 ranks above K) wins; trick 7: TD beats QD while
    # JC (another suit) counts for nothing.
    tr = run(play, CLASSIC, P1, G)
    assert tricks(tr)[5] == ("KS JS TS", 0)
    assert tricks(tr)[6] == ("QD TD JC", 1)


@engines
def test_no_duty_to_beat(play):
    # Classic: seat 2 (void in clubs) may under-trump KH with 9H or JH.
    r = rules(trump__named_by_declarer=True)
    assert legal(play, r, P_TRUMP, [*TRUMP_BASE, "H", "9C", "KH"]) == cards("9H JH TH AH")


@engines
def test_must_beat(play):
    r = rules(trump__named_by_declarer=True, play__must_beat=True)
    # Seat 2 must over-trump KH when it can.
    assert legal(play, r, P_TRUMP, [*TRUMP_BASE, "H", "9C", "KH"]) == cards("TH AH")
    # R, layout A: KS led; seat 1 holds AS 9S. "first" would play 9S, must_beat
    # forces AS (a forced play: no token consumed).
    tr = run(play, rules(play__must_beat=True), R_LAYOUT["A"], r_script("KS", "JC")[:7])
    assert tr["tricks"][0]["cards"][:2] == ["KS", "AS"]
    tr = run(play, CLASSIC, R_LAYOUT["A"], r_script("KS", "JC")[:7])
    assert tr["tricks"][0]["cards"][:2] == ["KS", "9S"]


@engines
def test_no_marriage_on_first_trick(play):
    with pytest.raises(ScriptError):
        run(play, CLASSIC, P1, [*P1_BASE, "KD!"])
    # The first lead offers plain cards only.
    assert legal(play, CLASSIC, P1, P1_BASE) == cards("AS TS AC TC KD QD AH TH")
    # After winning trick 1 seat 0 may declare with either card of the marriage;
    # no other card declares (AH, TH: no marriage).
    assert legal(play, CLASSIC, P1, [*P1_BASE, "AS", "QS", "9S"]) == cards(
        "TS AC TC KD QD AH TH KD! QD!"
    )


@engines
def test_marriage_first_lead_allowed(play):
    r = rules(marriage__first_lead=True)
    tr = run(play, r, P1, [*P1_BASE, "QD!"])
    assert tr["tricks"][0]["marriage"] == "D"
    assert tr["marriage_points"][0] == 80
    # The lead is already a trump lead: seat 1 follows diamonds, seat 2 (void in
    # diamonds and without trumps) plays its lowest card 9S; QD holds against 9D.
    assert tricks(tr)[0] == ("QD 9D 9S", 0)


@engines
def test_marriage_scores_and_makes_trump(play):
    tr = run(play, CLASSIC, P1, G)
    assert [t["marriage"] for t in tr["tricks"]] == [None, "D", None, "H", None, None, None, None]
    assert tr["marriage_points"] == [80, 100, 0]


@engines
def test_new_marriage_replaces_trump(play):
    # Line G: seat 1 declares ♥ on trick 4; on trick 5 TC is led and seat 1, void in
    # clubs, must trump with its QH although it still holds diamonds (the old trump),
    # and QH wins.
    tr = run(play, CLASSIC, P1, G)
    assert tricks(tr)[:5] == G_TRICKS[:5]
    assert tricks(tr)[7] == ("AD QC TH", 0)  # TH trumps the led AD


@engines
def test_trump_from_next_trick(play):
    # Trump ♠ named first; seat 0 declares ♦ on trick 2 by leading KD. Seat 2 is
    # void in diamonds and holds only JS of the old trump.
    r = rules(trump__named_by_declarer=True, marriage__trump_from="next_trick")
    script = [*P1_BASE, "S", "AS", "QS", "9S", "KD!", "9D"]
    # next_trick: spades still trump this trick, seat 2 must trump with JS and wins.
    tr = run(play, r, P1, script)
    assert tricks(tr)[1] == ("KD 9D JS", 2)
    # From trick 3 diamonds are trump: seat 2 leads 9C, seat 0 follows TC, and seat 1
    # (void in clubs) must trump with a diamond, no longer with its KS.
    assert legal(play, r, P1, [*script, "9C", "TC"]) == cards("JD TD AD")
    # this_trick: diamonds are trump at once; seat 2 may play anything ("first"
    # plays JS) and KD keeps the trick.
    tr = run(play, rules(trump__named_by_declarer=True), P1, script)
    assert tricks(tr)[1] == ("KD 9D JS", 0)


@engines
def test_changes_trump_off_first_marriage_sets_trump(play):
    r = rules(marriage__changes_trump=False)
    prefix = [*P1_BASE, "AS", "QS", "9S", "KD!", "9D", "JH", "AC"]
    # The deal's first marriage (♦, trick 2) makes diamonds trump: seat 1, void in
    # clubs, must trump with a diamond.
    assert legal(play, r, P1, prefix) == cards("JD TD AD")
    assert run(play, r, P1, prefix)["marriage_points"][0] == 80


@engines
def test_changes_trump_off_later_marriage_scores_but_keeps_trump(play):
    r = rules(marriage__changes_trump=False)
    # Line G: seat 1 declares ♥ on trick 4. It scores 100 but diamonds stay trump, so
    # on trick 5 seat 1 (void in clubs) must trump TC with a diamond, not with QH.
    prefix = [*G_TO_T3, "KH!", "AH", "TC"]
    assert legal(play, r, P1, prefix) == cards("TD AD")
    tr = run(play, r, P1, [*prefix, "TD", "9C"])
    assert tr["marriage_points"][:2] == [80, 100]
    assert tricks(tr)[4] == ("TC TD 9C", 1)
    assert tricks(run(play, CLASSIC, P1, G))[4] == ("TC QH 9C", 1)  # classic: ♥ trump


@engines
def test_changes_trump_off_next_trick_timing(play):
    # With trump_from = next_trick the first marriage's trump starts on trick 3.
    r = rules(marriage__changes_trump=False, marriage__trump_from="next_trick")
    prefix = [*P1_BASE, "AS", "QS", "9S", "KD!", "9D", "JH", "AC"]
    assert legal(play, r, P1, prefix) == cards("JD TD AD")


@engines
def test_named_trump(play):
    r = load_rules("five_hundred_one")
    assert legal(play, r, P1, P1_BASE, ["S", "C", "D", "H", "X"]) == {"S", "C", "D", "H"}
    # Hearts named: on the first trick AC is led, seat 1 (void in clubs) must trump.
    assert legal(play, r, P1, [*P1_BASE, "H", "AC"]) == cards("QH KH")
    tr = run(play, r, P1, [*P1_BASE, "H", "AC", "QH"])
    assert tr["trump_named"] == "H"
    assert tricks(tr)[0][1] == 1
    # 501: the ♦ marriage (40 there) scores but trump stays ♥: seat 2, void in
    # diamonds, must trump KD with a heart, and JH takes the trick.
    prefix = [*P1_BASE, "H", "AS", "QS", "9S", "KD!", "9D"]
    assert legal(play, r, P1, prefix) == cards("9H JH")
    tr = run(play, r, P1, [*prefix, "JH"])
    assert tr["marriage_points"][0] == 40
    assert tricks(tr)[1] == ("KD 9D JH", 2)
    assert run(play, CLASSIC, P1, P1_BASE)["trump_named"] is None


@engines
def test_requires_capture(play):
    r = rules(marriage__requires_capture=True)
    # Line G: seat 0 captured KD (trick 2), seat 1 captured QH (trick 5): both count.
    assert run(play, r, P1, G)["marriage_points"] == [80, 100, 0]
    # Seat 0 declares ♦ but seat 1 takes KD with AD, then draws QD with TD.
    script = [*P1_BASE, "AS", "QS", "9S", "KD!", "AD", "KC", "TD", "QC"]
    tr = run(play, r, P1, script)
    assert tricks(tr)[1:3] == [("KD AD KC", 1), ("TD QC QD", 1)]
    assert tr["marriage_points"][0] == 0
    assert run(play, CLASSIC, P1, script)["marriage_points"][0] == 80


@engines
def test_only_declarer_defender_declares_for_nothing(play):
    r = rules(marriage__only_declarer=True)
    # Line G trick 4: seat 1 (a defender) may still declare its ♥ marriage.
    assert legal(play, r, P1, G_TO_T3) == cards("KS TD AD QH KH QH! KH!")
    tr = run(play, r, P1, G)
    # The declaration changes trump as usual (the tricks are those of classic: on
    # trick 5 seat 1 must trump with QH) but scores 0; the declarer's ♦ counts.
    assert tricks(tr) == G_TRICKS
    assert tr["tricks"][3]["marriage"] == "H"
    assert tr["marriage_points"] == [80, 0, 0]
    assert tr["score_deltas"] == [100, 45, 0]
    assert run(play, CLASSIC, P1, G)["marriage_points"] == [80, 100, 0]


@engines
def test_only_declarer_with_requires_capture(play):
    # Seat 1 captured QH of its own marriage (trick 5): still 0 for a defender.
    r = rules(marriage__only_declarer=True, marriage__requires_capture=True)
    assert run(play, r, P1, G)["marriage_points"] == [80, 0, 0]


@engines
def test_ace_marriage(play):
    r = rules(marriage__ace=True)
    # P_TOPS: seat 0 holds all four aces. Not on trick 1; on trick 2 any ace declares.
    assert legal(play, r, P_TOPS, tops_base(100)) == cards("AS TS AC TC AD TD AH TH")
    prefix = [*tops_base(100), "TS", "9S", "9D"]
    assert legal(play, r, P_TOPS, prefix) == cards("AS AC TC AD TD AH TH AS! AC! AD! AH!")
    tr = run(play, r, P_TOPS, [*prefix, "AC!"])
    assert tr["tricks"][1]["marriage"] == "A"
    # Seat 0 still wins all 8 tricks (no trump): 120 card points + 200.
    assert tr["card_points"] == [120, 0, 0] and tr["marriage_points"] == [200, 0, 0]
    assert tr["score_deltas"] == [100, 0, 0]
    # Three aces are no ace marriage (P1, seat 0 holds AS AC AH; the first lead is
    # opened to declaring so that the aces are all still in hand).
    r_first = rules(marriage__ace=True, marriage__first_lead=True)
    assert legal(play, r_first, P1, P1_BASE) == cards("AS TS AC TC KD QD AH TH KD! QD!")
    # Off by default.
    assert "AC!" not in legal(play, CLASSIC, P_TOPS, prefix)


@engines
def test_ace_sets_trump(play):
    prefix = [*tops_base(100), "TS", "9S", "9D", "AC!", "9C", "9H", "TD"]
    # TD led on trick 3: seat 1 (void in diamonds) must trump with clubs.
    r = rules(marriage__ace=True, marriage__ace_sets_trump=True)
    assert legal(play, r, P_TOPS, prefix) == cards("JC QC KC")
    assert legal(play, rules(marriage__ace=True), P_TOPS, prefix) == cards("KS QS JS KC QC JC")


@engines
def test_no_lead_foreign_trump(play):
    # Line G trick 4: trump ♦ set by seat 0; seat 1 may not lead TD or AD.
    r = rules(play__no_lead_foreign_trump=True)
    assert legal(play, r, P1, G_TO_T3) == cards("KS QH KH QH! KH!")
    # Its own trump the setter may lead (seat 0, trick 3).
    prefix = [*P1_BASE, "AS", "QS", "9S", "KD!", "9D", "JH"]
    assert legal(play, r, P1, prefix) == cards("TS AC TC QD AH TH")


@engines
def test_must_lead_trump(play):
    r = rules(play__must_lead_trump=True)
    # Line G up to trick 2 (trump ♦). On trick 3 seat 0 holds only QD of the trump:
    # the lead is forced ("first" would otherwise lead TS).
    prefix = [*P1_BASE, "AS", "QS", "9S", "KD!", "9D", "JH"]
    tr = run(play, r, P1, prefix)
    assert tr["tricks"][2]["cards"][0] == "QD"
    assert tricks(run(play, CLASSIC, P1, prefix))[2][0].startswith("TS")
    # Seat 1 takes QD with AD (seat 2 throws KC) and must lead a trump (JD, TD) or
    # declare its ♥ marriage: not KS, KH or QH plainly.
    tr = run(play, r, P1, [*prefix, "AD", "KC"])
    assert tricks(tr)[2] == ("QD AD KC", 1)
    assert legal(play, r, P1, [*prefix, "AD", "KC"]) == cards("JD TD QH! KH!")
    assert legal(play, CLASSIC, P1, G_TO_T3) == cards("KS TD AD QH KH QH! KH!")


@engines
@pytest.mark.parametrize("trump_from", ["this_trick", "next_trick"])
def test_must_lead_trump_still_lets_the_leader_declare_a_marriage(play, trump_from):
    # Declaring a marriage is a lead the rules always allow: seat 1 holds trumps (JD,
    # TD) and may still lead KH or QH declaring its ♥ marriage, whenever trump starts.
    r = rules(play__must_lead_trump=True, marriage__trump_from=trump_from)
    prefix = [*P1_BASE, "AS", "QS", "9S", "KD!", "9D", "JH", "AD", "KC"]
    assert legal(play, r, P1, prefix) == cards("JD TD QH! KH!")
    tr = run(play, r, P1, [*prefix, "KH!"])
    assert tr["tricks"][3]["cards"][0] == "KH" and tr["tricks"][3]["marriage"] == "H"


@engines
@pytest.mark.parametrize("trump_from", ["this_trick", "next_trick"])
def test_no_lead_foreign_trump_still_lets_the_leader_declare_a_marriage(play, trump_from):
    # Seat 1 may not lead seat 0's trump ♦ (TD, AD), but may declare its ♥ marriage.
    r = rules(play__no_lead_foreign_trump=True, marriage__trump_from=trump_from)
    assert legal(play, r, P1, G_TO_T3) == cards("KS QH KH QH! KH!")
    tr = run(play, r, P1, [*G_TO_T3, "QH!"])
    assert tr["tricks"][3]["cards"][0] == "QH" and tr["tricks"][3]["marriage"] == "H"


@engines
def test_four_nines_bonus_is_a_separate_entry(play):
    # P_NINES: seat 2 holds four nines after the discard and takes no trick.
    r = rules(bonus__four_nines=120)
    tr = run(play, r, P_NINES, NINES_BASE)
    assert tr["card_points"] == [120, 0, 0]
    assert tr["marriage_points"] == [0, 0, 0]  # not a marriage, not in the total
    assert tr["score_deltas"] == [120, 0, 120]
    assert run(play, CLASSIC, P_NINES, NINES_BASE)["score_deltas"] == [120, 0, 0]
    # Holding only three nines after the discard (seat 0 keeps 9H): no bonus.
    script = ["keep", "pass", "pass", "KD", "AD", 100, "play"]
    assert (
        run(play, r, P_NINES, script)["score_deltas"]
        == run(play, CLASSIC, P_NINES, script)["score_deltas"]
    )


@engines
def test_four_nines_bonus_whatever_the_result(play):
    # The deal is conceded: the bonus is paid on top of the half contract.
    r = rules(bonus__four_nines=120)
    script = ["keep", "pass", "pass", "KD", "9H", 120, "concede"]
    assert run(play, r, P_NINES, script)["score_deltas"] == [-120, 60, 180]
    # Doubled in a golden deal (contract 120 blind; no bidding).
    golden = ["keep", "KD", "9H", "play"]
    tr = run(play, r, P_NINES, golden, special="golden")
    assert tr["special"] == "golden"
    assert tr["score_deltas"] == [240, 0, 240]


# =================================================================================
# §7 Scoring
# =================================================================================
@engines
def test_deal_total_is_cards_plus_marriages(play):
    tr = run(play, CLASSIC, P1, G)
    assert tricks(tr) == G_TRICKS
    # the winner of a trick leads the next
    assert [t["leader"] for t in tr["tricks"]] == [0, 0, 0, 1, 0, 1, 0, 1]
    assert tr["card_points"] == [75, 45, 0]
    assert tr["marriage_points"] == [80, 100, 0]
    assert tr["tricks_taken"] == [5, 3, 0]
    # seat 0: 155 >= 100 made; seat 1: 145 (already a multiple of 5); seat 2: 0
    assert tr["score_deltas"] == [100, 145, 0]
    assert tr["made"] is True and tr["bolts"] == [0, 0, 1]


@engines
def test_declarer_made_contract_scores_plus(play):
    # P_TOPS: seat 0 takes all 120 points; contract 120 is made exactly.
    tr = run(play, CLASSIC, P_TOPS, tops_base(120))
    assert tr["card_points"] == [120, 0, 0] and tr["tricks_taken"] == [8, 0, 0]
    assert tr["score_deltas"] == [120, 0, 0] and tr["made"] is True
    # Extra points are lost: 120 points on a contract of 100 score +100.
    assert run(play, CLASSIC, P_TOPS, tops_base(100))["score_deltas"] == [100, 0, 0]


@engines
def test_declarer_failed_scores_minus(play):
    # R layout A, X = KS 4 + AS 11 + JC 2 = 17: seat 0 takes 120 - 17 = 103 < 105.
    tr = run(play, CLASSIC, R_LAYOUT["A"], r_script("KS", "JC", contract=105))
    assert tr["card_points"] == [103, 17, 0]
    assert tr["score_deltas"] == [-105, 15, 0] and tr["made"] is False


@pytest.mark.parametrize(
    "layout, lead, throw, x, rounded, declarer",
    [
        ("A", "KS", "JC", 17, 15, 100),  # 4 + 11 + 2; seat 0 103 >= 100
        ("A", "KS", "QC", 18, 20, 100),  # 4 + 11 + 3; seat 0 102
        ("B", "9S", "AC", 22, 20, -100),  # 0 + 11 + 11; seat 0 98 < 100
        ("A", "JS", "TC", 23, 25, -100),  # 2 + 11 + 10; seat 0 97
    ],
)
@engines
def test_opponent_rounding_to_5(play, layout, lead, throw, x, rounded, declarer):
    tr = run(play, CLASSIC, R_LAYOUT[layout], r_script(lead, throw))
    assert tricks(tr)[0] == (f"{lead} AS {throw}", 1)
    assert tr["card_points"] == [120 - x, x, 0]
    assert tr["tricks_taken"] == [7, 1, 0]
    assert tr["score_deltas"] == [declarer, rounded, 0]


@engines
def test_round_to_10(play):
    r = rules(score__round_to=10)
    # KS 4 + AS 11 + 9D 0 = 15 -> 20 (5 rounds up); QS 3 + 11 + 0 = 14 -> 10.
    tr = run(play, r, R_LAYOUT["A"], r_script("KS", "9D"))
    assert tr["card_points"][1] == 15 and tr["score_deltas"][1] == 20
    tr = run(play, r, R_LAYOUT["A"], r_script("QS", "9D"))
    assert tr["card_points"][1] == 14 and tr["score_deltas"][1] == 10
    # Classic rounds 14 to 15.
    assert run(play, CLASSIC, R_LAYOUT["A"], r_script("QS", "9D"))["score_deltas"][1] == 15


@engines
def test_round_declarer(play):
    # Seat 0 takes 98 (X = 22) on a contract of 100: 98 rounds to 100, made.
    script = r_script("9S", "AC")
    assert run(play, CLASSIC, R_LAYOUT["B"], script)["score_deltas"][0] == -100
    tr = run(play, rules(score__round_declarer=True), R_LAYOUT["B"], script)
    assert tr["card_points"][0] == 98
    assert tr["score_deltas"][0] == 100 and tr["made"] is True
    # 97 rounds to 95: still failed.
    tr = run(play, rules(score__round_declarer=True), R_LAYOUT["A"], r_script("JS", "TC"))
    assert tr["card_points"][0] == 97 and tr["score_deltas"][0] == -100


@engines
def test_bolt_no_tricks(play):
    tr = run(play, CLASSIC, P_TOPS, tops_base(120))
    assert tr["tricks_taken"] == [8, 0, 0] and tr["bolts"] == [0, 1, 1]
    # R: seat 1 takes one trick, seat 2 none.
    tr = run(play, CLASSIC, R_LAYOUT["A"], r_script("KS", "JC"))
    assert tr["bolts"] == [0, 0, 1]


@engines
def test_bolt_zero_points(play):
    # P_NINES with the four-nines bonus: seat 2 takes no trick and 0 points; the
    # bonus is not part of its deal total, so it has a bolt under either reading.
    r = rules(bonus__four_nines=120)
    assert run(play, r, P_NINES, NINES_BASE)["bolts"] == [0, 1, 1]
    tr = run(play, rules(bonus__four_nines=120, bolt__on="zero_points"), P_NINES, NINES_BASE)
    assert tr["bolts"] == [0, 1, 1]


@engines
def test_bolt_zero_points_counts_a_total_that_rounds_to_0(play):
    # P_ZERO: seat 1 takes one trick, worth 2 points (JS 9S 9C); seat 2 none.
    tr = run(play, CLASSIC, P_ZERO, ZERO_SCRIPT)
    assert tricks(tr)[0] == ("9S JS 9C", 1) and tr["card_points"][1] == 2
    assert tr["tricks_taken"][1] == 1 and tr["bolts"] == [0, 0, 1]
    tr = run(play, rules(bolt__on="zero_points"), P_ZERO, ZERO_SCRIPT)
    assert tr["bolts"] == [0, 1, 1]  # 2 points round to 0: a bolt


# P_ZERO: seat 0 declares at 100 and loses only trick 1 (9S under JS, seat 2 throws 9C).
#   seat 0: 9S TS AS AC TC AD TD   63 points (keeps them and AH; gives 9H and KD)
#   seat 1: JS QS KS 9D JD QD JH   16 points, 3 jacks, ♠ (cap 160)
#   seat 2: 9C JC QC KC TH QH KH   26 points, ♣+♥
#   talon:  AH 9H KD               15 points, 1 nine
# After trick 1 seat 1 leads QS ("first"), seat 0 takes it with TS and every later
# trick with its aces and tens: seat 0 118 points, seat 1 2, seat 2 0.
P_ZERO = (["9S TS AS AC TC AD TD", "JS QS KS 9D JD QD JH", "9C JC QC KC TH QH KH"], "AH 9H KD")
ZERO_SCRIPT: list[Any] = ["pass", "pass", "9H", "KD", 100, "play", "9S", "JS", "9C"]


P_WEAK = (["QS AS 9C JC QC 9D JD", "TS KS AC TC KC QD KD", "TD AD 9H JH QH KH TH"], "9S JS AH")
# P_WEAK: seat 0 keeps 9S JS QS 9C JC QC 9D JD (gives AS to seat 1, AH to seat 2):
# every opponent card outranks seat 0's in its suit and seat 0 holds no heart, so
# seat 0 loses trick 1 (9S under KS) and never leads again: 0 tricks, 0 points.
#   seat 0: 21 points, 2 nines; seat 1: 46, ♦ (cap 200); seat 2: 40, ♥ (cap 220);
#   talon 9S JS AH: 13 points, 1 nine.
WEAK_BASE: list[Any] = ["pass", "pass", "AS", "AH", 100, "play"]


@engines
def test_bolt_declarer_exempt(play):
    tr = run(play, CLASSIC, P_WEAK, WEAK_BASE)
    assert tr["tricks_taken"][0] == 0 and tr["card_points"][0] == 0
    assert tr["score_deltas"][0] == -100 and tr["bolts"][0] == 1
    tr = run(play, rules(bolt__declarer_exempt=True), P_WEAK, WEAK_BASE)
    assert tr["bolts"][0] == 0
    assert sum(tr["card_points"]) == 120


@pytest.mark.parametrize(
    "table, d_value, h_value, c_cap",
    [
        ("standard", 80, 100, 180),
        ("spades_high", 40, 80, 180),
        ("spades_clubs_high", 40, 60, 200),
        ("five_hundred_one", 40, 80, 140),
    ],
)
@engines
def test_marriage_values_presets(play, table, d_value, h_value, c_cap):
    r = rules(marriage__values=table)
    tr = run(play, r, P1, G)
    assert tr["marriage_points"] == [d_value, h_value, 0]
    # seat 0 75 + d_value, seat 1 45 + h_value
    assert tr["score_deltas"] == [100, 45 + h_value, 0]
    # The bid cap follows the table: seat 2 holds the ♣ marriage.
    assert max(legal(play, r, P1, ["pass"], BID_TOKENS) - {"pass"}) == c_cap


@engines
def test_trace_keys_in_order(play):
    tr = run(play, CLASSIC, P1, G, deal_id=7)
    assert list(tr) == [
        "deal_id", "dealer", "hands", "talon", "reshuffle", "bids", "declarer",
        "winning_bid", "talon_shown", "discards", "contract", "conceded", "tricks",
        "card_points", "marriage_points", "tricks_taken", "score_deltas", "bolts",
        "attempt", "made", "trump_named", "special", "undarkened_by",
    ]  # fmt: skip
    assert tr["deal_id"] == 7 and tr["attempt"] == 0
    assert tr["hands"][0] == ["TS", "AS", "AC", "9D", "QD", "TH", "AH"]
    assert tr["talon"] == ["9C", "TC", "KD"]
    assert tr["tricks"][0] == {"leader": 0, "cards": ["AS", "QS", "9S"], "marriage": None,
                               "winner": 0}  # fmt: skip
