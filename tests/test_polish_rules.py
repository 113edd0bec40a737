"""The Polish rule options (docs/rules.md §5, §7, §12): scenarios on both engines.

``score.round_mode`` (rounding up), ``talon.sitter_scores`` (the four-player sitter's
aces), ``score.lock_at`` (from 800 only one's own contracts count) and
``rospis.when`` (the bomb: a concession right after the talon, before the discard).
The deals are those of ``tests/test_scenarios.py`` and ``tests/test_special_deals.py``
with outcomes computed by hand.
"""

from __future__ import annotations

from typing import Any

import pytest
from support import ENGINES
from test_scenarios import CLASSIC, P_ZERO, R_LAYOUT, ZERO_SCRIPT, r_script, rules, run
from test_special_deals import FOUR

from sim.engine.params import rules_vector
from sim.engine.scoring import least_total

engines = pytest.mark.parametrize("play", ENGINES.values(), ids=ENGINES.keys())
UP = rules(score__round_mode="up")
UP10 = rules(score__round_mode="up", score__round_to=10)


# =================================================================================
# §7 score.round_mode = "up"
# =================================================================================
@pytest.mark.parametrize(
    "layout, lead, throw, x, nearest, up5, up10",
    [
        ("A", "KS", "JC", 17, 15, 20, 20),
        ("A", "KS", "QC", 18, 20, 20, 20),
        ("B", "9S", "AC", 22, 20, 25, 30),
        ("A", "JS", "TC", 23, 25, 25, 30),
    ],
)
@engines
def test_round_up_takes_any_remainder_up(play, layout, lead, throw, x, nearest, up5, up10):
    got = {}
    for name, r in (("nearest", CLASSIC), ("up5", UP), ("up10", UP10)):
        tr = run(play, r, R_LAYOUT[layout], r_script(lead, throw))
        assert tr["card_points"][1] == x
        got[name] = tr["score_deltas"][1]
    assert got == {"nearest": nearest, "up5": up5, "up10": up10}


@engines
def test_round_up_rounds_the_declarer_and_the_zero_points_bolt(play):
    # The declarer takes 97 on a contract of 100: nearest 95 fails, up 100 makes.
    script = r_script("JS", "TC")
    assert run(play, rules(score__round_declarer=True), R_LAYOUT["A"], script)["made"] is False
    tr = run(play, UP.replace(score__round_declarer=True), R_LAYOUT["A"], script)
    assert tr["card_points"][0] == 97 and tr["made"] is True and tr["score_deltas"][0] == 100
    # Seat 1's 2 points round up to 5: no zero-points bolt (nearest: a bolt).
    assert run(play, rules(bolt__on="zero_points"), P_ZERO, ZERO_SCRIPT)["bolts"][1] == 1
    tr = run(play, UP.replace(bolt__on="zero_points"), P_ZERO, ZERO_SCRIPT)
    assert tr["card_points"][1] == 2 and tr["score_deltas"][1] == 5 and tr["bolts"][1] == 0


@pytest.mark.parametrize(
    "to, mode, need", [(5, "nearest", 98), (10, "nearest", 95), (5, "up", 96), (10, "up", 91)]
)
def test_least_total_making_follows_the_rounding(to, mode, need):
    r = rules(score__round_declarer=True, score__round_to=to, score__round_mode=mode)
    assert r.least_total_making(100) == need
    assert least_total(100, rules_vector(r)) == need
    assert r.round_total(need) == 100 and r.round_total(need - 1) < 100


# =================================================================================
# §12 talon.sitter_scores = "aces"
# =================================================================================
ACES = FOUR.replace(talon__sitter_scores="aces")
# Dealer 0 sits out; seat 1 declares at 100 with "first" after two passes.
# S_TWO_ACES: the talon A♠ A♥ 9♥: points 22 -> 20; aces 2 x 50 = 100.
S_TWO_ACES = (
    ["", "KH TS KS QS JS 9S AC", "KC KD TC JC 9C AD JD", "QC QD 9D QH TH JH TD"],
    "AS AH 9H",
)
# S_MARRIAGE: the talon K♦ Q♦ A♣: points 18 + ♦80 = 98 -> 100; aces 50 + 80 = 130.
S_MARRIAGE = (
    ["", "AS TS KS QS JS 9S KH", "KC QH TC JC 9C AD JD", "QC 9H 9D AH TH JH TD"],
    "KD QD AC",
)


@pytest.mark.parametrize(
    "deal, points, aces, marriages", [(S_TWO_ACES, 20, 100, 0), (S_MARRIAGE, 100, 130, 80)]
)
@engines
def test_sitter_scores_aces(play, deal, points, aces, marriages):
    hands, talon = deal
    kw: dict[str, Any] = {"strategies": ("first",) * 4}
    tr = play(FOUR, hands, talon, 0, script=["pass", "pass"], **kw)
    assert tr["declarer"] == 1 and tr["score_deltas"][0] == points
    tr = play(ACES, hands, talon, 0, script=["pass", "pass"], **kw)
    assert tr["score_deltas"][0] == aces
    assert tr["card_points"][0] == 0 and tr["marriage_points"][0] == marriages
    assert tr["tricks_taken"][0] == 0 and tr["bolts"][0] == 0
    # doubled in a golden deal like an opponent's total (marriages doubled too)
    golden = ACES.replace(golden__enabled=True)
    tr = play(golden, hands, talon, 0, script=[], special="golden", **kw)
    assert tr["score_deltas"][0] == 2 * aces
    tr = play(golden.replace(golden__double_marriages=False), hands, talon, 0, script=[],
              special="golden", **kw)  # fmt: skip
    assert tr["score_deltas"][0] == 2 * aces - marriages
