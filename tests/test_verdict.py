"""The advice's verdict: one thing to do, why in a sentence, and the table it assumes."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from analysis.advise import Opponents, ShownTalon, advise, advise_talon, game_situation
from sim.cards import hand_mask
from sim.i18n import speaking
from sim.rules import load_rules
from views.advise import advice_markdown, opponents_text, verdict

CLASSIC = load_rules("classic")
HEARTS = hand_mask("AH TH KH QH AS 9C JD")  # the ♥ marriage: bids up to 220
PLAIN = hand_mask("AS TS AC TC KD JH 9H")  # no marriage: bids up to 120
N = 400


def _choices(hand: int, means: dict[int, float], *, apart: float = 0.0, failed: float = 0.0,
             declared: float = 1.0) -> dict:  # fmt: skip
    """Plans that score ``means[level]`` a deal (level 0: passing), the seat middle.

    Every plan's deals are the same noise around its mean (so each difference is
    exact), plus noise of its own of spread ``apart``. In ``failed`` of the passing
    plan's deals forehand plays 100 out and fails (-100) while the seat scores 150 and
    the dealer 60: a margin of 170 for the seat, where conceding would have cost
    forehand less. The seat declares in ``declared`` of every bidding plan's deals.
    """
    levels = np.array(sorted(means))
    rng = np.random.default_rng(3)
    noise = rng.normal(0, 10.0, N)
    own = rng.normal(0, apart, (len(levels), N)) if apart else np.zeros((len(levels), N))
    shared = noise - noise.mean() + own - own.mean(axis=1, keepdims=True)
    margin = np.array([means[int(L)] + shared[i] for i, L in enumerate(levels)])
    k = len(levels)
    fail = np.arange(N) < failed * N
    margin[0, fail] = 170.0
    took = np.arange(N) < declared * N
    d0 = np.where(fail, -100.0, 60.0)
    d2 = np.where(fail, 60.0, 20.0)
    d0s, d2s = np.tile(d0, (k, 1)), np.tile(d2, (k, 1))
    d0s[1:], d2s[1:] = 60.0, 20.0
    deltas = np.stack([d0s, margin + (d0s + d2s) / 2, d2s], axis=2)
    return {
        "level": levels,
        "seat": np.array(1),
        "margin": margin,
        "own": deltas[:, :, 1],
        "declared": np.array([np.zeros(N, bool) if L == 0 else took for L in levels]),
        "made": np.array([~fail if L == 0 else took for L in levels]),
        "conceded": np.zeros((k, N), bool),
        "contract": np.full((k, N), 100),
        "declarer": np.array([np.where(fail, 0, 1) if L == 0 else np.ones(N, int) for L in levels]),
        "deltas": deltas,
        "bolts": np.zeros((k, N, 3), int),
    }


def _answer(hand: int, means: dict[int, float], seat: str = "middle", **kw):
    """The answer of :func:`_choices`' plans (at the table as played: no concession)."""
    cols = {"dealt": np.full(N, hand), "par_level": np.full(N, max(means))}
    return advise(CLASSIC, hand, seat, "par", 0.75, cols, choices=_choices(hand, means, **kw),
                  plan_player="strong")  # fmt: skip


BID = {0: 20.0, 105: 30.0, 110: 35.0, 115: 41.0, 120: 41.0, 125: 38.0}


def test_the_verdict_is_the_choice_of_the_best_margin_with_the_levels_not_shown_worse():
    answer = _answer(HEARTS, BID)
    v = verdict(answer)
    # a tie keeps the lower (115), and among the bids as good, the hand leans up to the
    # highest it makes at the risk: every level up to 125 is made in every deal
    assert (v.action, v.level, v.say) == ("bid", 120, "Bid up to 120.")
    assert answer.best is not None and (answer.best.low, answer.best.high) == (115, 120)
    assert answer.best.leaned and answer.recommended == 125
    assert "scores a margin of +41.0" in v.why and "+21.0 [+21.0, +21.0] more than passing" in v.why
    assert (
        "from 115 to 120 scores within the interval; of those bids, 120 is the highest the "
        "hand makes in at least 75% of the deals" in v.why
    )
    # deals that differ between plans widen every difference's interval: more levels
    # are then not shown worse than the best
    noisy = _answer(HEARTS, BID, apart=60.0)
    assert noisy.best is not None and noisy.best.low <= noisy.best.level <= noisy.best.high
    assert noisy.best.low < 115 or noisy.best.high > 120
    assert noisy.best.level == min(noisy.best.high, 125)  # leaning up to what is made


def test_among_bids_as_good_the_choice_leans_up_to_the_highest_made_at_the_risk():
    from dataclasses import fields

    from analysis.choices import TABLE_RISK, best_choice, choice_table
    from sim.jobs.advise import AdviseSpec

    # the class tables lean at the advisor's default risk
    assert next(f.default for f in fields(AdviseSpec) if f.name == "risk") == TABLE_RISK

    levels = np.array([0, 110, 120, 130, 140, 150])
    rng = np.random.default_rng(1)
    noise = rng.normal(0, 30.0, 2000)
    values = np.array([[-10.0], [50.0], [51.0], [50.5], [50.2], [20.0]]) + noise
    table = choice_table(levels, values)
    plain = best_choice(table)
    assert (plain.level, plain.low, plain.high, plain.leaned) == (120, 110, 140, False)
    for safe, want in ((None, 120), (100, 120), (120, 120), (135, 130), (140, 140), (200, 140)):
        best = best_choice(table, safe)
        # never below the best mean's bid, never above the levels as good, nor above safe
        # unless the best mean's bid already is
        assert (best.level, best.leaned) == (want, want != 120), safe
        assert (best.low, best.high) == (110, 140)
        row = values[list(levels).index(want)]
        assert best.gain[0] == pytest.approx(row.mean() - values[0].mean())
    # passing stays passing, whatever is safe
    ahead = values.copy()
    ahead[0] += 62.0  # passing scores most, 110 to 140 within its interval
    passing = best_choice(choice_table(levels, ahead), 150)
    assert (passing.level, passing.leaned, passing.low) == (0, False, 0) and passing.high > 0


def test_passing_is_the_verdict_when_it_scores_most_and_the_forehand_keeps_its_100():
    worse = {0: 50.0, 105: 30.0, 110: 20.0}
    v = verdict(_answer(HEARTS, worse))
    assert (v.action, v.level, v.say) == ("pass", None, "Pass.")
    assert v.why.startswith("Passing scores a margin of +50.0")
    assert "the best bid, up to 105, scores a margin of +30.0" in v.why
    assert "-20.0 [-20.0, -20.0] against passing" in v.why
    forehand = verdict(_answer(HEARTS, worse, seat="forehand"))
    assert forehand.action == "pass" and "automatic 100, then pass" in forehand.say
    only_100 = verdict(_answer(HEARTS, {0: 10.0, 100: 20.0, 105: 15.0}, seat="forehand"))
    assert (only_100.action, only_100.level) == ("bid", 100)
    assert "automatic 100 and no higher" in only_100.say


def test_the_answer_says_where_the_table_as_played_would_choose_otherwise():
    # half the passing plan's deals: forehand plays 100 out and fails while the seat
    # scores 150 (margin 170); the answer's table concedes it: forehand's -100 stands
    # and the others get 50 each, the seat's margin 50 - (-100 + 50) / 2 = 75
    from analysis.choices import conceding_columns

    means = {0: 90.0, 105: 100.0}
    assert _answer(HEARTS, means, failed=0.5).best.level == 0  # as played: passing
    cols = _choices(HEARTS, means, failed=0.5)
    at_table = {"level": cols["level"], **conceding_columns(CLASSIC, cols, 1)}
    assert at_table["yielded"][0].mean() == pytest.approx(0.5)
    assert at_table["margin"][0].mean() == pytest.approx((75.0 + 90.0) / 2, abs=1.0)
    cards = {"dealt": np.full(N, HEARTS), "par_level": np.full(N, 105)}
    answer = advise(CLASSIC, HEARTS, "middle", "par", 0.75, cards, choices=at_table,
                    plan_player="strong")  # fmt: skip
    assert answer.best is not None and answer.best.level == 105
    p = answer.played
    assert p is not None and (p.level, p.share) == (0, pytest.approx(0.5))
    v = verdict(answer)
    assert v.action == "bid" and "played out (50% of the deals when you pass)" in v.why
    assert f"the choice would be: pass ({p.value:+.1f})." in v.why
    # nothing conceded, nothing to say
    calm = _choices(HEARTS, means)
    plain = {"level": calm["level"], **conceding_columns(CLASSIC, calm, 1)}
    quiet = advise(CLASSIC, HEARTS, "middle", "par", 0.75, cards, choices=plain,
                   plan_player="strong")  # fmt: skip
    assert quiet.played is None and "as it plays" not in verdict(quiet).why
    # no concession where the rules forbid it (§5): rospis.allowed, and while a seat sits
    # on the barrel, rospis.on_barrel
    from analysis.choices import may_concede

    on_barrel = CLASSIC.replace(rospis__on_barrel=True)
    assert may_concede(CLASSIC) and may_concede(on_barrel, barrel=True)
    assert not may_concede(CLASSIC, barrel=True)
    assert not may_concede(CLASSIC.replace(rospis__allowed=False))
    assert conceding_columns(on_barrel, cols, 1, barrel=True)["yielded"].any()
    for rules, barrel in ((CLASSIC.replace(rospis__allowed=False), False), (CLASSIC, True)):
        kept = conceding_columns(rules, cols, 1, barrel)
        assert not kept["yielded"].any() and not kept["conceded"].any()
        assert np.array_equal(kept["margin"], cols["margin"])
        assert np.array_equal(kept["margin_played"], cols["margin"])


def test_a_table_that_concedes_concedes_where_that_costs_it_less():
    from analysis.choices import conceding_deltas

    deltas = np.array([[-100, 150, 60], [-100, 30, 20], [100, 10, 10], [-120, 80, 80]])
    declarer, contract = np.array([0, 0, 0, 0]), np.array([100, 100, 100, 120])
    made, conceded = np.array([0, 0, 1, 0], bool), np.zeros(4, bool)
    new, better = conceding_deltas(CLASSIC, deltas, declarer, contract, made, conceded)
    # conceding 100 costs -100 and 50 to each other: better than -100 - (150 + 60) / 2,
    # worse than -100 - (30 + 20) / 2; a made contract stays; 120: 60 each, -120 - 60
    # against -120 - 80
    assert better.tolist() == [True, False, False, True]
    assert new.tolist() == [[-100, 50, 50], [-100, 30, 20], [100, 10, 10], [-120, 60, 60]]
    half = CLASSIC.replace(rospis__no_subtract=True, rospis__opponents_get="sixty")
    new, better = conceding_deltas(half, deltas, declarer, contract, made, conceded)
    assert new[1].tolist() == [0, 60, 60] and better[1]  # 0 - 60 beats -100 - 25


def test_mid_auction_the_verdict_raises_or_passes():
    answer = replace(_answer(HEARTS, BID, seat="dealer"), auction="forehand 100, middle pass",
                     high_bid=100)  # fmt: skip
    v = verdict(answer)
    assert (v.action, v.level, v.say) == ("raise", 120, "Raise, up to 120.")
    plain = _answer(PLAIN, {0: 5.0}, seat="dealer")
    v = verdict(replace(plain, auction="forehand 100, middle 160", high_bid=160))
    assert v.action == "pass"
    assert v.why == "Without a marriage this hand may not bid above 120; the bid is 160."


def test_a_silenced_seat_passes():
    answer = _answer(HEARTS, BID)
    silenced = replace(answer, game=replace(game_situation(CLASSIC, 0, False, 220),
                                            goal="silenced"))  # fmt: skip
    v = verdict(silenced)
    assert v.action == "pass" and "silenced" in v.why


def test_after_the_talon_the_verdict_is_the_best_give_and_its_contract():
    gives = [(hand_mask("9C").bit_length() - 1, hand_mask("JD").bit_length() - 1),
             (hand_mask("AS").bit_length() - 1, hand_mask("9C").bit_length() - 1)]  # fmt: skip
    contracts = [[120, 140, 160], [120, 140]]
    n = 50
    margins = np.zeros((n, 2, 3))
    margins[:, 0, :] = [90.0, 110.0, 100.0]  # give 0: 140 scores most
    margins[:, 1, :2] = [80.0, 70.0]
    margins += np.linspace(-5, 5, n)[:, None, None]
    made = np.ones((n, 2, 3), bool)
    answer = advise_talon(CLASSIC, HEARTS, "forehand", hand_mask("KS QS 9H"), 120, 0.75, gives,
                          contracts, margins, made, "strong")  # fmt: skip
    v = verdict(answer)
    assert (v.action, v.give, v.level) == ("give", ("9C", "JD"), 140)
    assert "name 140" in v.say and "a margin of +110.0" in v.why
    # conceding 120: -120, the others +60 each: a margin of -180, worse than any give
    assert answer.discards is not None and answer.discards["margin"][-1] == pytest.approx(-180)
    # every give loses more than conceding: concede
    poor = advise_talon(CLASSIC, HEARTS, "forehand", hand_mask("KS QS 9H"), 120, 0.75, gives,
                        contracts, margins - 400, made, "strong")  # fmt: skip
    v = verdict(poor)
    assert (v.action, v.say) == ("concede", "Concede 120.")
    assert "the best give, 9C to the left and JD to the right, and name 140" in v.why


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
    answer = _answer(HEARTS, BID)
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
