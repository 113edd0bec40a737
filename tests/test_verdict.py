"""The advice's verdict: one thing to do, why in a sentence, and the table it assumes."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from analysis.advise import (
    Opponents,
    ShownTalon,
    advice_markdown,
    advise,
    advise_talon,
    game_situation,
    opponents_text,
    verdict,
)
from analysis.stats import wilson_interval
from sim.cards import hand_mask
from sim.i18n import speaking
from sim.rules import load_rules

CLASSIC = load_rules("classic")
HEARTS = hand_mask("AH TH KH QH AS 9C JD")  # the ♥ marriage: bids up to 220
PLAIN = hand_mask("AS TS AC TC KD JH 9H")  # no marriage: bids up to 120
MADE_TO = np.array([0, 100, 120, 120, 140, 150, 150, 160, 160, 220] * 8)


def _answer(hand: int, made_to: np.ndarray, pass_score: float, seat: str = "middle",
            risk: float = 0.6):  # fmt: skip
    n = len(made_to)
    cols = {"dealt": np.full(n, hand), "par_level": made_to, "pass_score": np.full(n, pass_score)}
    return advise(CLASSIC, hand, seat, "par", risk, cols, pass_player="par")


def _by_hand(made_to: np.ndarray, pass_score: float, risk: float, cap: int) -> int | None:
    """The verdict's level counted here: the highest level that reaches both tests."""
    n = len(made_to)
    best = None
    for level in range(100, cap + 1, 5):
        made = int((made_to >= level).sum())
        low = float(wilson_interval(made, n)[0])
        if low >= risk and level * (2 * made / n - 1) > pass_score:
            best = level
    return best


def test_the_verdict_bids_to_the_highest_level_that_reaches_the_risk_and_beats_passing():
    answer = _answer(HEARTS, MADE_TO, 20.0)
    v = verdict(answer)
    assert v.action == "bid" and v.level == _by_hand(MADE_TO, 20.0, 0.6, 220)
    assert v.level == answer.recommended  # passing's 20 stops nothing here
    assert v.say == f"Bid up to {v.level}." and "interval's lower end is below 60%" in v.why
    # passing worth more than the risky levels: the verdict stops below the risk's level
    rich = _answer(HEARTS, MADE_TO, 75.0)
    v = verdict(rich)
    assert v.level == _by_hand(MADE_TO, 75.0, 0.6, 220)
    assert v.level is not None and rich.recommended is not None and v.level < rich.recommended
    assert "for passing" in v.why.split(";")[1]  # the next level loses to passing


def test_a_hand_that_makes_nothing_passes_and_the_forehand_keeps_its_automatic_100():
    nothing = np.zeros(80, dtype=np.int64)
    v = verdict(_answer(HEARTS, nothing, 0.0))
    assert (v.action, v.level, v.say) == ("pass", None, "Pass.")
    assert v.why.startswith("At 100 it makes it in 0%")
    forehand = verdict(_answer(HEARTS, nothing, 0.0, seat="forehand"))
    assert forehand.action == "pass" and "automatic 100, then pass" in forehand.say
    only_100 = np.full(80, 100)
    v = verdict(_answer(HEARTS, only_100, 0.0, seat="forehand"))
    assert (v.action, v.level) == ("bid", 100) and "automatic 100 and no higher" in v.say


def test_mid_auction_the_verdict_raises_or_names_the_ceiling_that_stops_the_hand():
    answer = replace(_answer(HEARTS, MADE_TO, 20.0, seat="dealer"),
                     auction="forehand 100, middle pass", high_bid=100)  # fmt: skip
    v = verdict(answer)
    assert v.action == "raise" and v.say == f"Raise, up to {v.level}."
    plain = _answer(PLAIN, np.full(80, 120), 20.0, seat="dealer")
    v = verdict(replace(plain, auction="forehand 100, middle 160", high_bid=160))
    assert v.action == "pass"
    assert v.why == "Without a marriage this hand may not bid above 120; the bid is 160."
    v = verdict(plain)  # no auction: it makes all it may bid, and the ceiling stops it
    assert v.level == 120 and "no higher bid is open to this hand (120" in v.why


def test_a_silenced_seat_and_a_barrel_floor_above_the_hand_pass():
    answer = _answer(HEARTS, MADE_TO, 20.0)
    silenced = replace(answer, game=replace(game_situation(CLASSIC, 0, False, 220),
                                            goal="silenced"))  # fmt: skip
    v = verdict(silenced)
    assert v.action == "pass" and "silenced" in v.why
    plain = _answer(PLAIN, np.full(80, 120), 20.0)
    barrel = replace(plain, game=replace(game_situation(CLASSIC, 880, True, 120), bid_from=140))
    v = verdict(barrel)
    assert v.action == "pass" and "bids start at 140" in v.why


def test_after_the_talon_the_verdict_is_the_best_give_and_its_contract():
    gives = [(hand_mask("9C").bit_length() - 1, hand_mask("JD").bit_length() - 1),
             (hand_mask("AS").bit_length() - 1, hand_mask("9C").bit_length() - 1)]  # fmt: skip
    made_to = np.array([[160, 120]] * 6 + [[120, 120]] * 2)
    caps = np.array([220, 220])
    answer = advise_talon(CLASSIC, HEARTS, "forehand", hand_mask("KS QS 9H"), 120, 0.75, gives,
                          made_to, caps)  # fmt: skip
    v = verdict(answer)
    assert (v.action, v.give) == ("give", ("9C", "JD"))
    top = answer.discards.row(0, named=True) if answer.discards is not None else {}
    assert v.level == top["contract"] and f"name {v.level}" in v.say
    # both gives break the marriage the bid needed: no contract at the bid is open
    none = advise_talon(CLASSIC, HEARTS, "forehand", hand_mask("KS QS 9H"), 140, 0.75, gives,
                        made_to, np.array([120, 120]))  # fmt: skip
    v = verdict(none)
    assert v.action == "concede" and v.say == "Concede 140: no give reaches it."


def test_a_defender_shown_the_talon_hears_whether_the_declarer_makes_its_bid():
    made, plain = np.array([120] * 7 + [0] * 3), np.array([120] * 5 + [0] * 5)
    shown = ShownTalon.of(CLASSIC, PLAIN, "middle", "strong", hand_mask("KH QH 9D"), "dealer",
                          120, made, plain, np.full(10, 30.0), "forehand 100, middle pass, "
                          "dealer 120, forehand pass")  # fmt: skip
    v = verdict(shown)
    assert (v.action, v.level) == ("expect", 120)
    assert v.say.startswith("Dealer is likely to make 120: 70%") and "+30.0" in v.why
    weak = ShownTalon.of(CLASSIC, PLAIN, "middle", "strong", hand_mask("KH QH 9D"), "dealer",
                         120, plain[::-1] * 0, plain, None, "")  # fmt: skip
    assert verdict(weak).say.startswith("Dealer is likely to fail 120")


def test_the_table_assumed_names_the_player_and_its_measured_distance():
    o = Opponents("strong", "pimc", (-3.39, -5.90, -0.88), 300, "classic")
    text = opponents_text(o)
    assert "`strong`" in text and "3.4 [0.9, 5.9] points a deal below `pimc`" in text
    assert "(`classic`, 300 deals)" in text
    with speaking("ru"):
        assert "3,4 [0,9; 5,9]" in opponents_text(o)
    assert "face up" in opponents_text(Opponents("par"))
    assert opponents_text(None) == ""


def test_the_job_reads_the_distance_from_the_players_ladder():
    from sim.jobs.advise import opponents
    from sim.jobs.players import read_ladder

    ladder = read_ladder()
    if ladder is None:
        pytest.skip("docs/ladder.json is missing (make players)")
    pair = next(p for p in ladder["pairs"] if {p["a"], p["b"]} == {"strong", "pimc"})
    sign = 1 if pair["a"] == "strong" else -1
    o = opponents("strong")
    assert o.compared == "pimc" and o.deals == pair["deals"]
    assert o.diff is not None and o.diff[0] == pytest.approx(sign * pair["score_diff"])
    assert o.diff[1] <= o.diff[0] <= o.diff[2]
    assert opponents("pimc").compared == "strong"  # the sampling player: against the default


def test_every_answer_opens_with_its_verdict_in_text_and_json(thousand):
    answer = _answer(HEARTS, MADE_TO, 20.0)
    text = advice_markdown(answer)
    assert text.startswith(f"**Bid up to {verdict(answer).level}.** ")
    r = thousand("advise", "AH TH KH QH AS 9C JD", "--player", "heuristic", "--samples", "400",
                 "--json")  # fmt: skip
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    v = doc["verdict"]
    assert set(v) == {"action", "level", "give", "say", "why", "table"}
    assert v["action"] == "bid" and v["say"] == f"Bid up to {v['level']}."
    assert doc["opponents"]["player"] == "heuristic" and "`heuristic`" in v["table"]
    r = thousand("advise", "Т♥ 10♥ К♥ Д♥ Т♠ 9♣ В♦", "--player", "heuristic", "--samples", "400",
                 "--lang", "ru")  # fmt: skip
    first = r.stdout.splitlines()
    assert first[0].startswith("**Торгуйтесь до ") and first[1].startswith("Предполагаемый стол")
