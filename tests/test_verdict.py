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
    # the yielded half at 75 exactly, the other half as played (90 and its own noise)
    margin = np.where(at_table["yielded"][0], 75.0, cols["margin"][0])
    assert at_table["margin"][0] == pytest.approx(margin, rel=1e-12)
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


# --- the rule's boundaries (analysis.choices.best_choice), on tables written out ---------
def _table(rows: list[tuple[int, float, float, float]]):
    """A choice table of ``(level, mean, low, diff_high)`` rows; passing's gain is 0."""
    import polars as pl

    by = {level: mean for level, mean, _low, _dh in rows}
    base = by.get(0, 0.0)
    return pl.DataFrame(
        {
            "level": [r[0] for r in rows],
            "mean": [r[1] for r in rows],
            "low": [r[2] for r in rows],
            "diff_high": [r[3] for r in rows],
            "gain": [by[r[0]] - base for r in rows],
            "gain_low": [by[r[0]] - base - 1.0 for r in rows],
            "gain_high": [by[r[0]] - base + 1.0 for r in rows],
        }
    )


def test_the_rule_keeps_the_lowest_of_tied_means_and_measures_its_gain():
    from analysis.choices import best_choice

    tied = _table([(0, 5.0, 4.0, -1.0), (110, 9.0, 8.0, 0.0), (120, 9.0, 8.0, 0.0)])
    best = best_choice(tied)
    assert (best.level, best.low, best.high, best.leaned) == (110, 110, 120, False)
    assert best.gain == (4.0, 3.0, 5.0)
    # a passing plan of the tied means: passing, with nothing to gain
    first = best_choice(_table([(0, 9.0, 8.0, 0.0), (110, 9.0, 8.0, 0.0)]))
    assert (first.level, first.gain, first.leaned) == (0, (0.0, 0.0, 0.0), False)


@pytest.mark.parametrize(
    ("mean", "diff_high", "near"),
    [
        (8.0, -0.5, True),  # the mean at the best's interval's lower end: as good
        (7.999, -0.5, False),  # just below it, and shown worse deal by deal: not
        (7.0, 0.0, True),  # the paired difference's interval reaching 0 exactly: as good
        (7.0, -1e-9, False),  # just short of 0: not
    ],
)
def test_a_level_is_as_good_as_the_best_from_the_boundary_on(mean, diff_high, near):
    from analysis.choices import best_choice

    table = _table([(0, 2.0, 1.0, -3.0), (110, 10.0, 8.0, 0.0), (120, mean, mean - 1, diff_high)])
    best = best_choice(table)
    assert best.level == 110 and best.low == 110 and best.high == (120 if near else 110)
    # leaning up to 120 needs it as good as the best, and made at the risk (safe)
    assert best_choice(table, safe=120).level == (120 if near else 110)
    assert best_choice(table, safe=120).leaned == near


def test_the_rule_leans_only_to_bids_as_good_and_safe_and_never_from_passing():
    from analysis.choices import best_choice

    rows = [(0, 1.0, 0.0, -5.0), (110, 8.5, 7.0, 0.0), (120, 9.0, 8.0, 0.0),
            (130, 8.2, 7.0, 0.1), (140, 8.1, 7.0, 0.2), (150, 3.0, 2.0, -4.0)]  # fmt: skip
    table = _table(rows)
    for safe, level in [(None, 120), (100, 120), (120, 120), (129, 120), (130, 130),
                        (140, 140), (150, 140), (400, 140)]:  # fmt: skip
        best = best_choice(table, safe)
        assert (best.level, best.leaned) == (level, level != 120), safe
        assert (best.low, best.high) == (110, 140)  # whatever is safe
        assert best.gain[0] == pytest.approx(dict((r[0], r[1]) for r in rows)[level] - 1.0)
    # passing scores most: it stays the choice, however high the hand is safe
    ahead = _table([(0, 9.5, 8.0, 0.0), *rows[1:]])
    passing = best_choice(ahead, 400)
    assert (passing.level, passing.leaned, passing.low, passing.high) == (0, False, 0, 140)
    assert passing.gain == (0.0, 0.0, 0.0)


def test_the_gain_of_a_plan_without_a_passing_plan_or_an_interval_is_said_plainly():
    import math

    import polars as pl

    from analysis.choices import gain_of

    table = _table([(0, 1.0, 0.0, -1.0), (110, 4.0, 3.0, 0.0)])
    assert gain_of(table, 0) == (0.0, 0.0, 0.0) and gain_of(table, 999) == (0.0, 0.0, 0.0)
    assert gain_of(table, 110) == (3.0, 2.0, 4.0)
    none = table.with_columns(pl.lit(None, pl.Float64).alias("gain"))
    assert gain_of(none, 110) == (0.0, 0.0, 0.0)  # no passing plan: nothing to measure
    one_deal = table.with_columns(
        pl.lit(None, pl.Float64).alias(c) for c in ("gain_low", "gain_high")
    )
    gain, low, high = gain_of(one_deal, 110)
    assert gain == 3.0 and math.isnan(low) and math.isnan(high)


def test_a_defender_hears_make_from_an_even_chance_on():
    # the shown talon's verdict: "likely to make" from half the deals on, else "to fail"
    talon = hand_mask("KH QH 9D")
    for made, word in ((5, "make"), (4, "fail"), (6, "make")):
        made_to = np.array([120] * made + [0] * (10 - made))
        shown = ShownTalon.of(CLASSIC, PLAIN, "middle", "strong", talon, "dealer", 120, made_to,
                              made_to, None, "")  # fmt: skip
        v = verdict(shown)
        assert v.say.startswith(f"Dealer is likely to {word} 120"), (made, v.say)
        assert (v.action, v.level) == ("expect", 120)


# --- a comparison's verdict (analysis.compare): none shown, real, and its size ----------
def _row(low, high, base=100.0, diff=None):
    mid = None if low is None or high is None else (low + high) / 2
    return {"diff_ci_low": low, "diff_ci_high": high, "base": base,
            "diff": mid if diff is None else diff}  # fmt: skip


@pytest.mark.parametrize(
    ("low", "high", "clear"),
    [
        (0.0, 1.0, False),  # an interval that touches 0 holds it
        (-1.0, 0.0, False),
        (1e-9, 1.0, True),
        (-1.0, -1e-9, True),
        (-1.0, 1.0, False),
        (None, 1.0, False),  # no interval: nothing shown
        (float("nan"), 1.0, False),
        (0.5, float("nan"), False),
    ],
)
def test_a_difference_is_real_only_where_its_interval_excludes_0(low, high, clear):
    from analysis import compare
    from views import compare as words

    row = _row(low, high, diff=1.0)
    assert compare.clear(row) is clear
    if clear:
        assert words.difference_word(row) != "none shown"
    elif low is None or high is None or np.isnan(low) or np.isnan(high):
        assert words.difference_word(row) == "—"
    else:
        assert words.difference_word(row) == "none shown"


@pytest.mark.parametrize(
    ("diff", "base", "size"),
    [
        (1.999, 100.0, "negligible"),  # under 2 % of the base
        (2.0, 100.0, "small"),  # 2 % exactly is small
        (-2.0, 100.0, "small"),  # the size of a change either way
        (2.0, -100.0, "small"),
        (9.999, 100.0, "small"),
        (10.0, 100.0, "large"),  # 10 % exactly is large
        (-250.0, 100.0, "large"),
        (0.0, 100.0, "negligible"),
        (5.0, 0.0, None),  # no base to size it by
        (5.0, None, None),
        (5.0, float("nan"), None),
        (None, 100.0, None),
    ],
)
def test_a_real_differences_size_is_its_share_of_the_base(diff, base, size):
    from analysis import compare
    from views import compare as words

    assert compare.size_word({"base": base, "diff": diff}) == size
    assert compare.NEGLIGIBLE == 0.02 and compare.SMALL == 0.10  # what SIZE_RULE says
    assert "under 2 %" in words.size_rule() and "from 10 %" in words.size_rule()
    real = {**_row(1.0, 2.0, base=base), "diff": diff}
    # a real difference is called by its size, or just real where there is no size
    assert words.difference_word(real) == (size or "real")
    held = {**_row(-1.0, 2.0, base=base), "diff": diff}
    assert words.difference_word(held) == "none shown"  # whatever its size


def test_a_comparisons_sentence_ends_with_its_verdict_in_every_language():
    from views import compare

    base = {"meaning": "games won by the seat", "unit": None, "rules": "classic", "vs": "app",
            "base": 100.0, "other": 112.0, "diff": 12.0, "diff_ci_low": 8.0,
            "diff_ci_high": 16.0}  # fmt: skip
    ends = {
        (8.0, 16.0, 12.0): "a real and large difference (the interval excludes 0).",
        (1.0, 3.0, 2.0): "real but small (the interval excludes 0).",
        (0.5, 1.5, 1.0): "real but negligible (the interval excludes 0).",
        (-1.0, 25.0, 12.0): "no difference shown (the interval holds 0).",
    }
    for (low, high, diff), end in ends.items():
        row = {**base, "diff_ci_low": low, "diff_ci_high": high, "diff": diff}
        assert compare.compare_sentence(row).endswith(end), (row, end)
    no_base = {**base, "base": 0.0}
    assert compare.compare_sentence(no_base).endswith(
        "a real difference (the interval excludes 0)."
    )
    missing = {**base, "diff_ci_low": None}
    assert compare.compare_sentence(missing).endswith("no interval (too few games).")
    for lang in ("ru", "uk", "pl"):  # the verdict words are translated, not left in English
        with speaking(lang):
            said = compare.compare_sentence(base)
            assert "interval" not in said and "real" not in said, (lang, said)
            assert compare.difference_word(base) not in ("large", "real"), lang
