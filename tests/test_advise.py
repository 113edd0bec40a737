"""``thousand advise``: sampled deals around one hand, the levels it makes, the discard."""

from __future__ import annotations

import json

import numpy as np
import pytest

from analysis.advise import advise_talon, discard_table, level_table
from analysis.stats import wilson_interval
from sim.cards import cards_str, hand_mask
from sim.jobs.advise import AdviseSpec
from sim.jobs.advise import advise as advise_job
from sim.rules import load_rules
from sim.runs.advise import bid_samples, discard_candidates, discard_samples, sample_deals
from views.advise import advice_markdown

CLASSIC = load_rules("classic")
HAND = hand_mask("AH TH KH QH AS 9C JD")


def test_samples_keep_what_the_owner_sees_and_deal_the_rest_uniformly():
    talon = hand_mask("KS QS 9H")
    masks = sample_deals(CLASSIC, HAND, 1, 3000, 5)
    assert (masks[:, 1] == HAND).all()
    for row in masks[:50]:
        assert [bin(int(m)).count("1") for m in row] == [7, 7, 7, 3]
        assert int(row[0]) | int(row[1]) | int(row[2]) | int(row[3]) == (1 << 24) - 1
    # one unseen card (the ace of clubs, id 11) lies in the talon 3 times in 17
    in_talon = (masks[:, 3] >> 11) & 1
    p = 3 / 17
    assert abs(in_talon.mean() - p) < 4 * (p * (1 - p) / len(masks)) ** 0.5
    with_talon = sample_deals(CLASSIC, HAND, 0, 20, 5, talon)
    assert (with_talon[:, 3] == talon).all() and (with_talon[:, 0] == HAND).all()
    assert (sample_deals(CLASSIC, HAND, 1, 20, 5) == masks[:20]).all()  # reproducible


def test_level_table_and_the_recommended_bid():
    made_to = np.array([0, 100, 120, 120, 140, 150, 150, 160, 160, 220] * 5)
    table = level_table(CLASSIC, made_to, 220)
    assert table["level"].to_list() == list(range(100, 225, 5))
    p = table["p"].to_numpy()
    assert (np.diff(p) <= 0).all()
    assert np.allclose(table["expected"].to_numpy(), table["level"].to_numpy() * (2 * p - 1))
    want = None
    for L in range(100, 225, 5):
        if wilson_interval((made_to >= L).sum(), 50)[0] >= 0.6:
            want = L
    ok = table.filter(table["ci_low"] >= 0.6)["level"].to_list()
    assert max(ok) == want


def test_a_hand_of_the_heuristic_and_of_the_par():
    answer = advise_job(AdviseSpec(rules=CLASSIC, hand="AH TH KH QH AS 9C JD", seat="forehand",
                                   player="heuristic", samples=400, seed=3)).answer  # fmt: skip
    text = advice_markdown(answer)
    assert "played out on the same 400 deals by `heuristic` at every seat" in text
    # a heart marriage with two aces and a ten: 100 is made whenever the marriage counts
    first = answer.levels.row(0, named=True)
    assert first["level"] == 100 and first["p"] > 0.95
    assert answer.levels["level"].max() == 220  # the heart marriage's cap
    assert answer.choices["level"].to_list() == [0, *range(105, 225, 5)]
    weak = hand_mask("KS QS AC 9C JD 9H JH")  # the par of a strong hand costs seconds a deal
    par = bid_samples(CLASSIC, weak, 0, "par", 3, 3)
    assert ((par["par_level"] == 0) | (par["par_level"] >= 100)).all()
    assert (par["par_level"] <= 160).all()  # the spade marriage's cap
    assert len(par["plans"]) == 3  # the plans of the par's deals, played by the tables' player


def test_the_discard_table_solves_every_candidate_give():
    talon = hand_mask("KS QS 9H")
    ten = HAND | talon
    cands = discard_candidates(ten)
    assert len(cands) == 5 and all(ten >> c & 1 for c in cands)
    gives, made_to, caps, totals = discard_samples(CLASSIC, HAND, talon, 0, 100, 4, 2)
    assert len(gives) == 20 and made_to.shape == totals.shape == (4, 20)
    assert ((made_to == 0) | ((made_to >= 100) & (made_to <= caps))).all()
    # made_to is the highest level the open-card total reaches, within the cap
    for w, g in np.ndindex(*totals.shape):
        want = max([L for L in range(100, caps[g] + 1, 5) if totals[w, g] >= L], default=0)
        assert made_to[w, g] == want
    d = discard_table(CLASSIC, gives, made_to, caps, 100, totals)
    assert d.height == 20
    assert (np.diff(d["expected"].to_numpy()) <= 0).all()
    top = d.row(0, named=True)
    assert top["expected"] == top["contract"] * (2 * top["p"] - 1)


def test_every_give_and_contract_is_played_out_and_the_best_margin_leads():
    from sim.engine.state import ROW
    from sim.runs.advise import give_samples
    from sim.runs.plans import margins

    talon = hand_mask("KS QS 9H")
    gives, contracts, rows = give_samples(CLASSIC, HAND, talon, 0, 100, 60, 4, "strong")
    assert len(gives) == 20 and rows.shape[:2] == (60, 20)
    # every play: the hand declared at 100, gave the two cards, named the contract
    for g, (left, right) in enumerate(gives):
        for j, c in enumerate(contracts[g]):
            r = rows[:, g, j]
            assert (r[:, ROW["declarer"]] == 0).all() and (r[:, ROW["contract"]] == c).all()
            assert (r[:, ROW["discard_1"]] == left).all() and (
                r[:, ROW["discard_2"]] == right
            ).all()
    k, n, c, w = rows.shape
    played = margins(rows.reshape(-1, w), 0, 3).reshape(k, n, c)
    made = (rows.reshape(-1, w)[:, ROW["made"]] != 0).reshape(k, n, c)
    answer = advise_talon(CLASSIC, HAND, "forehand", talon, 100, 0.75, gives, contracts, played,
                          made, "strong")  # fmt: skip
    d = answer.discards
    assert d is not None and d.height == 21  # every give, and conceding
    assert (np.diff(d["margin"].to_numpy()) <= 0).all()
    top = d.row(0, named=True)
    g = next(i for i, (a, b) in enumerate(gives) if (cards_str([a]), cards_str([b])) ==
             (top["to_left"], top["to_right"]))  # fmt: skip
    best = max(range(len(contracts[g])), key=lambda j: played[:, g, j].mean())
    assert top["contract"] == contracts[g][best]
    assert top["margin"] == pytest.approx(played[:, g, best].mean())


def test_a_time_budget_keeps_the_first_blocks_of_the_same_deals():
    from sim.runs.advise import BLOCK

    weak = hand_mask("KS QS AC 9C JD 9H JH")
    full = bid_samples(CLASSIC, weak, 0, "heuristic", 3 * BLOCK, 5)
    # a budget spent at once: one block, the first deals of the full run, played alike
    cut = bid_samples(CLASSIC, weak, 0, "heuristic", 3 * BLOCK, 5, budget=1e-9)
    assert len(cut["total"]) == BLOCK
    for key in ("dealt", "total", "concede_from"):
        assert (cut[key] == full[key][:BLOCK]).all(), key
    head = full["plans"].head(BLOCK)
    assert (cut["plans"].first == head.first).all() and (cut["plans"].passed == head.passed).all()
    roomy = bid_samples(CLASSIC, weak, 0, "heuristic", 3 * BLOCK, 5, budget=1e6)
    assert (roomy["total"] == full["total"]).all()
    assert (roomy["plans"].rows(120) == full["plans"].rows(120)).all()  # blocks line up


def test_a_slow_play_shows_its_progress_and_a_quick_one_says_nothing(monkeypatch):
    import sim.runs.advise as runs
    from sim.runs.folder import Feedback

    class Recording(Feedback):
        """Every bar opened: [total, unit, label, items counted]."""

        def __init__(self) -> None:
            self.bars: list[list] = []

        def bar(self, total: int, unit: str, label: str):
            row = [total, unit, label, 0]
            self.bars.append(row)

            class Bar:
                def update(self, k: int = 1) -> None:
                    row[3] += k

                def __enter__(self):
                    return self

                def __exit__(self, *exc: object) -> None:
                    return None

            return Bar()

    weak = hand_mask("KS QS AC 9C JD 9H JH")
    n = 3 * runs.BLOCK
    quick = Recording()
    cols = bid_samples(CLASSIC, weak, 0, "heuristic", n, 5, budget=1e6, feedback=quick)
    assert quick.bars == []  # milliseconds: no bar
    monkeypatch.setattr(runs, "PROGRESS_AFTER", 0.0)  # every play looks slow now
    slow = Recording()
    again = bid_samples(CLASSIC, weak, 0, "heuristic", n, 5, budget=1e6, feedback=slow)
    # after the first block, a bar for the blocks still to play
    assert slow.bars == [[n - runs.BLOCK, "deal", "playing the sampled deals", n - runs.BLOCK]]
    assert (again["total"] == cols["total"]).all()  # the same play


def test_cli_advise_says_when_the_budget_ran_out(thousand):
    r = thousand("advise", "KS QS AC 9C JD 9H JH", "--player", "par", "--samples", "24",
                 "--budget", "0.000001", "--json")  # fmt: skip
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["samples"] == 8 and doc["samples_requested"] == 24 and doc["budget"] == 1e-6
    r = thousand("advise", "KS QS AC 9C JD 9H JH", "--player", "par", "--samples", "16",
                 "--budget", "0.000001")  # fmt: skip
    assert "8 sampled deals of 16: the 1e-06 s time budget ran out" in r.stdout


def test_cli_advise_prints_a_short_answer_and_json(thousand):
    r = thousand("advise", "AH TH KH QH AS 9C JD", "--player", "heuristic", "--samples", "500")
    assert r.returncode == 0, r.stderr
    assert "Winning the auction, the hand makes every level up to" in r.stdout
    assert max(len(line) for line in r.stdout.splitlines() if line.startswith("|")) <= 100
    r = thousand("advise", "AH TH KH QH AS 9C JD", "--player", "heuristic", "--samples", "300",
                 "--seat", "dealer", "--json")  # fmt: skip
    doc = json.loads(r.stdout)
    assert doc["seat"] == "dealer" and doc["levels"][0]["level"] == 100
    assert set(doc["passing"]) == {"mean", "se", "samples", "player"}
    assert doc["passing"]["player"] == "heuristic"  # who played the choices out
    r = thousand("advise", "AH TH KH QH AS 9C JD", "--player", "strong", "--json")
    doc = json.loads(r.stdout)  # a fast player: its 4,000 samples whatever the budget
    assert doc["player"] == "strong" and doc["samples"] == 4000
    r = thousand(
        "advise", "AH TH KH QH AS 9C JD", "--talon", "KS QS 9H", "--samples", "3", "--json"
    )
    doc = json.loads(r.stdout)
    assert doc["talon"] and len(doc["discards"]) == 21  # every give, and conceding


@pytest.mark.parametrize(
    ("args", "culprit"),
    [
        (["AH TH KH QH AS 9C"], "7 cards"),
        (["AH TH KH QH AS 9C XX"], "XX"),
        (["AH TH KH QH AS 9C AH"], "twice"),
        (["AH TH KH QH AS 9C JD", "--talon", "KS QS AH"], "already in the hand"),
        (["AH TH KH QH AS 9C JD", "--talon", "KS QS"], "3 cards"),
        (["AH TH KH QH AS 9C JD", "--budget", "-1"], "--budget"),
        (["AH TH KH QH AS 9C JD", "--seat", "north"], "--seat"),
        (["AH TH KH QH AS 9C JD", "--player", "nobody"], "nobody"),
        (["AH TH KH QH AS 9C JD", "--player", "random"], "not an advisor"),  # no meaning
        (
            ["AH TH KH QH AS 9C JD", "--player", "strnog"],
            "--player: 'strnog' is not an advisor (did you mean 'strong'?)",
        ),
        (["AH TH KH QH AS 9C JD", "--risk", "1.5"], "--risk"),
        (["AH TH KH QH AS 9C JD", "--talon", "KS QS 9H", "--bid", "103"], "--bid"),
    ],
)
def test_cli_advise_bad_input_is_one_line_and_exit_2(run_main, args, culprit):
    code, err = run_main("advise", *args)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and culprit in err


def test_advise_reads_the_russian_notation(thousand):
    ru = thousand("advise", "Т♥ 10♥ К♥ Д♥ Т♠ 9♣ В♦", "--samples", "200", "--json")
    en = thousand("advise", "AH TH KH QH AS 9C JD", "--samples", "200", "--json")
    assert ru.returncode == 0 and json.loads(ru.stdout) == json.loads(en.stdout)


def test_a_short_budget_keeps_the_tables_answer_never_no_level(thousand):
    # pimc's samples are cut after the first batch of 8 by a budget too short for more:
    # 8 deals cannot show 75 % at all (12 all made can), so the tables' answer stands
    hand = "AH TH KH QH AS 9C JD"
    r = thousand("advise", hand, "--player", "pimc", "--budget", "0.001", "--json")
    doc = json.loads(r.stdout)
    assert r.returncode == 0 and doc["samples"] < doc["minimum_samples"] == 12
    table = doc["table"]
    assert table["player"] == "strong" and table["class"] == "♥ marriage, 2 aces"
    assert doc["recommended"] == table["recommended"] is not None and table["n"] >= 1000
    # the tables do not depend on the samples: the same answer from strong's 4,000
    full = json.loads(thousand("advise", hand, "--samples", "4000", "--json").stdout)
    assert full["table"] == table
    assert full["recommended"] == full["sampled_recommended"]  # enough samples: theirs
    assert full["samples"] >= full["minimum_samples"]


def test_the_minimum_sample_count_is_the_first_that_can_reach_the_risk():
    from analysis.advise import minimum_samples
    from analysis.stats import wilson_interval

    for risk in (0.5, 0.75, 0.9):
        n = minimum_samples(risk)
        assert wilson_interval(n, n)[0] >= risk > wilson_interval(n - 1, n - 1)[0]


def test_cli_advise_bad_input_as_a_subprocess(cli):
    r = cli("advise", "AH TH KH QH AS 9C XX")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "XX" in r.stderr


CARDS = "AH TH KH QH AS 9C JD"


@pytest.mark.parametrize(
    ("spec", "args", "job_says", "command_says"),
    [
        ({"auction": "100 foo"}, [CARDS, "--auction", "100 foo"],
         "auction: a bid or 'pass', got 'foo'", "--auction: a bid or 'pass', got 'foo'"),
        ({"hand": "AH TH KH"}, ["AH TH KH"],
         "hand: 7 cards needed, got 3 ('AH TH KH')",
         "HAND: 7 cards needed, got 3 ('AH TH KH')"),
        ({"talon_shown": "9S TS 9H", "seat": "middle"},
         [CARDS, "--talon-shown", "9S TS 9H", "--seat", "middle"],
         "talon_shown: give the whole auction (auction), to know who took it",
         "--talon-shown: give the whole auction (--auction), to know who took it"),
        ({"auction": "100", "talon": "9S TS 9H"},
         [CARDS, "--auction", "100", "--talon", "9S TS 9H"],
         "auction: the bidding is over once the talon is taken (talon)",
         "--auction: the bidding is over once the talon is taken (--talon)"),
    ],
)  # fmt: skip
def test_the_job_names_the_specs_fields_and_the_command_its_flags(
    run_main, spec, args, job_says, command_says
):
    # the auction's own parsing is tested in tests/test_table_text.py
    from sim.jobs.advise import AdviseSpec, advise
    from sim.output import FieldError

    with pytest.raises(FieldError) as caught:
        advise(AdviseSpec(**{"rules": load_rules("classic"), "hand": CARDS, **spec}))
    assert str(caught.value) == job_says
    assert run_main("advise", *args) == (2, f"thousand advise: error: {command_says}\n")


def test_the_job_speaks_no_command_line():
    # the advisor job's messages name the spec's fields; only sim/cli/ writes flags (and
    # the command line's help of each field, which the question's records hold)
    from sim.i18n import extract
    from sim.jobs.advise import QUESTION

    helps = {field.help for field in QUESTION}
    for message in extract(["sim/jobs/advise.py", "sim/table_text.py"]):
        if message not in helps:
            assert "--" not in message and "HAND" not in message, message


def test_a_bid_above_120_deals_only_hands_whose_marriages_allow_it():
    # with bid.cap_by_marriages a seat's bid of B > 120 shows marriages worth B - 120:
    # a deal of the unseen cards that breaks it is never sampled
    from sim.cards import hand_mask, mask_marriages
    from sim.runs.advise import hand_cap, sample_deals

    rules = load_rules("classic")
    hand = hand_mask("AS TS AC TC KD JH 9H")  # holds K♦: the middle's 200 needs ♥ or ♠+♣
    free = sample_deals(rules, hand, 2, 2000, 5)
    held = sample_deals(rules, hand, 2, 2000, 5, bids=[(1, 200), (0, 100)])
    assert (free[:, 2] == hand).all() and (held[:, 2] == hand).all()
    assert all(hand_cap(rules, int(m)) >= 200 for m in held[:, 1])
    # exactly: the middle's 7 of the 17 unseen cards hold K♥Q♥, or K♠Q♠K♣Q♣ (♦ is out)
    from math import comb, sqrt

    total = comb(17, 7)
    p_hearts, p_black, p_all = comb(15, 5) / total, comb(13, 3) / total, comb(11, 1) / total
    exact = p_hearts + p_black - p_all
    share = sum(hand_cap(rules, int(m)) >= 200 for m in free[:, 1]) / 2000
    assert abs(share - exact) <= 4 * sqrt(exact * (1 - exact) / 2000)  # seeded, 4 SE
    hearts = sum(mask_marriages(int(m)) >> 3 & 1 for m in held[:, 1]) / 2000
    given = p_hearts / exact  # P(♥ marriage | the bid of 200)
    assert abs(hearts - given) <= 4 * sqrt(given * (1 - given) / 2000)
    for row in held:  # each sample is a whole deal: every card once
        assert sorted(c for m in row for c in range(24) if int(m) >> c & 1) == list(range(24))


def test_passes_and_raises_read_as_the_player_bids_narrow_the_unseen_hands():
    # the soft reading: a seat's action is read as the measured player would have bid
    # it; a pass makes its marriages rarer, a raise below 120 (which the rules do not
    # tie to a marriage) more common; every sample still keeps the hand and the rules
    from math import sqrt

    from sim.cards import mask_marriages
    from sim.runs.advise import auction_policy, hand_cap, sample_deals

    rules = load_rules("classic")
    policy = auction_policy(rules, "heuristic", 20_000, 11)
    played = policy.counts.sum(axis=(1, 2, 3))
    assert played[0] == played[1] == played[2] > 15_000  # first deals, every hand seat
    assert np.allclose(policy.likelihood(1, 0, passed=False), 1.0)  # "at least 0": no news
    assert policy.likelihood(0, 100, passed=True).min() >= 0  # forehand passing at 100
    hand = hand_mask("AS TS AC TC KD JH 9H")
    n = 3000

    def marriage_share(masks: np.ndarray) -> float:
        return float(np.mean([mask_marriages(int(m)) > 0 for m in masks[:, 1]]))

    plain = marriage_share(sample_deals(rules, hand, 2, n, 5))
    passed = sample_deals(rules, hand, 2, n, 5, policy=policy, acted=[(1, 0, True)])
    raised = sample_deals(rules, hand, 2, n, 5, policy=policy, acted=[(1, 115, False)])
    se = sqrt(2 * 0.25 / n)  # of a difference of two shares, at most
    assert marriage_share(passed) < plain - 4 * se  # seeded, 4 SE
    assert marriage_share(raised) > plain + 4 * se
    assert (passed[:, 2] == hand).all() and (raised[:, 2] == hand).all()
    again = sample_deals(rules, hand, 2, n, 5, policy=policy, acted=[(1, 0, True)])
    assert (again == passed).all()  # reproducible
    held = sample_deals(rules, hand, 2, 500, 5, bids=[(1, 200)], policy=policy,
                        acted=[(1, 200, False)])  # fmt: skip
    assert all(hand_cap(rules, int(m)) >= 200 for m in held[:, 1])  # the rules still hold


def test_advise_with_an_auction(thousand):
    hand = "Т♥ 10♥ К♥ Д♥ Т♠ 9♣ В♦"
    r = thousand("advise", hand, "--seat", "dealer", "--auction", "100 pass", "--json")
    doc = json.loads(r.stdout)
    assert r.returncode == 0 and doc["auction"] == "forehand 100, middle pass"
    assert doc["high_bid"] == 100 and doc["recommended"] > 100
    text = thousand("advise", hand, "--seat", "dealer", "--auction", "100 pass").stdout
    assert "Auction so far: forehand 100, middle pass; a raise must go above 100." in text
    assert text.startswith("**Raise, up to ") and doc["verdict"]["action"] == "raise"
    assert doc["best_from"] == "samples"  # the tables know no auction
    # without --seat the hand is the one whose turn it is
    turn = json.loads(thousand("advise", hand, "--auction", "100 pass", "--json").stdout)
    assert turn["seat"] == "dealer" and turn["recommended"] == doc["recommended"]
    reading = doc["auction_reading"]  # the middle's pass read as strong bids
    assert reading["player"] == "strong" and [r["seat"] for r in reading["seats"]] == ["middle"]
    assert reading["seats"][0]["passed"] and 0 < reading["kept"] < 1
    assert reading["seats"][0]["marriage"] < reading["seats"][0]["marriage_rules"]
    assert "middle, who passed, holds a marriage in" in text
    weak = thousand("advise", "AS TS AC TC KD JH 9H", "--seat", "dealer", "--auction", "100 160")
    assert weak.stdout.startswith("**Pass.** Without a marriage this hand may not bid above 120")
    for args, words in (
        (["--seat", "middle", "--auction", "100 pass"], "it is dealer's turn"),
        (["--auction", "100 pass", "--talon", "KS QS 9H"], "--auction: the bidding is over"),
    ):
        bad = thousand("advise", "AH TH KH QH AS 9C JD", *args)
        assert bad.returncode == 2 and words in bad.stderr
    none = thousand("advise", "KS KC KD KH AS AC AD", "--seat", "dealer", "--auction", "100 160")
    assert none.returncode == 2 and "no deal of the unseen cards allows the auction" in none.stderr


def test_the_game_situation_names_the_contract_that_wins_or_climbs():
    from analysis.advise import game_situation

    classic = load_rules("classic")
    on = game_situation(classic, 880, True, 220)
    assert (on.goal, on.level) == ("win", 120)  # 880 + 120 reaches 1000
    strict = game_situation(load_rules("thousand_one"), 880, True, 220)
    assert strict.level == 125  # more than 1000: 121 is no bid, 125 is the first
    assert game_situation(classic, 700, False, 220).level == 180  # 700 + 180 = 880
    assert game_situation(classic, 750, False, 120).level is None  # no marriage: cap 120
    silent = classic.replace(bid__silence_below=-120)
    assert game_situation(silent, -150, False, 220).goal == "silenced"
    no_barrel = game_situation(load_rules("five_hundred_one"), 400, False, 220)
    assert (no_barrel.goal, no_barrel.level) == ("win", 105)  # 400 + 105 passes 501


def test_advise_on_the_barrel_and_at_a_score(thousand):
    hand = "AH TH KH QH AS 9C JD"
    doc = json.loads(thousand("advise", hand, "--barrel", "--json").stdout)
    say = doc["game"].pop("say")
    assert doc["game"] == {"score": 880, "on_barrel": True, "goal": "win", "level": 120,
                           "bid_from": 0}  # fmt: skip
    assert say.startswith("On the barrel a contract of 120 made wins the game: P(make) ")
    text = thousand("advise", hand, "--score", "700").stdout
    row = next(r for r in json.loads(thousand("advise", hand, "--json").stdout)["levels"]
               if r["level"] == 180)  # fmt: skip
    line = f"At 700 a contract of 180 made takes the seat onto the barrel: P(make) {row['p']:.2f}"
    assert line in text
    bad = thousand("advise", hand, "--barrel", "--rules", "five_hundred_one")
    assert bad.returncode == 2 and "--barrel: there is no barrel" in bad.stderr
    # the barrel pins the score: another one is refused at once, in one line (§9)
    bad = thousand("advise", hand, "--barrel", "--score", "100")
    assert bad.returncode == 2 and not bad.stdout
    assert bad.stderr.strip() == (
        "thousand advise: error: --score 100: a seat on the barrel has exactly 880 (barrel.at)"
    )
    assert thousand("advise", hand, "--barrel", "--score", "880", "--samples", "50").returncode == 0
    from sim.jobs.advise import check_barrel_score
    from sim.output import FieldError

    piling = load_rules("classic").replace(**{"barrel.accumulate": True})
    check_barrel_score(piling, True, 905)  # with barrel.accumulate it may rise
    with pytest.raises(FieldError, match="has at least 880"):
        check_barrel_score(piling, True, 700)


def test_the_auction_shows_nothing_without_the_cap_and_the_barrel_bids_from_its_floor():
    from analysis.advise import game_situation
    from sim.cards import hand_mask
    from sim.runs.advise import sample_deals

    # without bid.cap_by_marriages a bid of 200 may be a bluff: no deal is redrawn
    free = load_rules("classic").replace(bid__cap_by_marriages=False)
    hand = hand_mask("AS TS AC TC KD JH 9H")
    plain = sample_deals(free, hand, 2, 300, 5)
    assert (sample_deals(free, hand, 2, 300, 5, bids=[(1, 200)]) == plain).all()
    # barrel.bid_from: the winning contract is the first the barrel player may bid
    floor = load_rules("classic").replace(barrel__bid_from=150)
    assert game_situation(floor, 880, True, 220).level == 150
    assert game_situation(floor, 880, True, 140).level is None  # the hand cannot bid 150


def test_a_shown_talons_declarer_wins_at_the_auctions_bid_and_names_from_there(monkeypatch):
    # the declarer items of a shown talon are won at the table's bid (120 here), not at
    # the lowest raise: the contract named is never below it
    import sim.runs.advise as runs
    from sim.engine.declarer import D_CONCEDE_FROM, D_CONTRACT, D_WIN_BID
    from sim.jobs.advise import AdviseSpec, advise

    real = runs.play_blocks
    rows = []

    def recording(*args, **kwargs):  # the real play, its rows kept
        out = real(*args, **kwargs)
        rows.append(out)
        return out

    monkeypatch.setattr(runs, "play_blocks", recording)
    spec = AdviseSpec(
        rules=load_rules("classic"),
        hand="TS AS TC AC KD 9H JH",
        seat="middle",
        auction="100 pass 120 pass",
        talon_shown="KH QH 9D",
        samples=200,
        budget=0,
    )  # fmt: skip  (every par deal, however loaded the machine)
    answer = advise(spec)
    assert len(rows) == 3  # the shown talon, the talon unknown, then the par's
    for played in rows[:2]:
        assert (played[:, D_WIN_BID] == 120).all()
        assert (played[:, D_CONTRACT] >= 120).all()
    assert rows[2].shape == (200, 2)  # the par on the first PAR_SAMPLE shown deals
    doc = answer.json()
    assert doc["bid"] == 120 and doc["makes"].startswith("card points and marriages")
    assert doc["contract_mean"] == pytest.approx(rows[0][:, D_CONTRACT].mean())
    # the share conceded: the declarer's concessions at the bid it won, counted again
    concede_from = rows[0][:, D_CONCEDE_FROM]
    assert doc["conceded"] == ((concede_from > 0) & (concede_from <= 120)).mean()
    assert doc["par_samples"] == 200
    assert doc["par_ci_low"] <= doc["p_make_par"] <= doc["par_ci_high"]
    text = answer.markdown()
    assert "open-card par" in text and "every bid read as `strong`" in text


def test_a_shown_talon_goes_to_the_declarer_and_moves_its_chance(thousand):
    # the talon shown after the auction is the declarer's in every sampled deal; a
    # marriage in it makes the declarer's bid likelier than three low cards do
    from sim.runs.advise import sample_deals

    rules = load_rules("classic")
    hand, talon = hand_mask("AS TS AC TC KD JH 9H"), hand_mask("KH QH 9D")
    deals = sample_deals(rules, hand, 1, 500, 3, talon=talon)
    assert (deals[:, 3] == talon).all() and (deals[:, 1] == hand).all()
    assert not any(int(m) & talon for m in deals[:, [0, 2]].ravel())

    def view(cards: str) -> dict:
        r = thousand("advise", "AS TS AC TC KD JH 9H", "--seat", "middle", "--auction",
                     "100 pass 110 pass", "--talon-shown", cards, "--json")  # fmt: skip
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)

    rich, poor = view("KH QH 9D"), view("9S 9C JC")
    assert rich["declarer"] == "dealer" and rich["bid"] == 110 and rich["samples"] == 4000
    se = ((rich["p_make"] * (1 - rich["p_make"]) + poor["p_make"] * (1 - poor["p_make"]))
          / 4000) ** 0.5  # fmt: skip
    assert rich["p_make"] - poor["p_make"] > 4 * se  # seeded, 4 SE
    assert poor["p_make"] < poor["p_make_talon_unknown"]  # three low cards: worse than average
    text = thousand("advise", "AS TS AC TC KD JH 9H", "--seat", "middle", "--auction",
                    "100 pass 110 pass", "--talon-shown", "9S 9C JC").stdout  # fmt: skip
    assert "Dealer makes 110 in" in text and "as a defender" in text
    for args, words in (
        (["--auction", "100 pass 110"], "is not over"),
        (["--auction", "100 pass pass"], "the talon is not shown (talon.hide_at_100)"),
        (["--auction", "100 110 pass pass"], "middle won the auction"),
        (["--auction", "100 pass 110 pass", "--talon", "KS QS 9D"], "either yours"),
    ):
        bad = thousand("advise", "AS TS AC TC KD JH 9H", "--seat", "middle",
                       "--talon-shown", "9S 9C JC", *args)  # fmt: skip
        assert bad.returncode == 2 and words in bad.stderr, bad.stderr
        assert len(bad.stderr.strip().splitlines()) == 1


def test_the_russian_answer_to_an_auction_does_not_depend_on_the_budget(thousand):
    # strong plays every sample whatever the budget: a loaded machine (a budget all
    # but spent) gives the same answer, the tables' line and the samples' refinement
    args = ("advise", "Т♥ 10♥ К♥ Д♥ Т♠ 9♣ В♦", "--lang", "ru", "--auction", "100 pass")
    unhurried = thousand(*args, "--budget", "0")
    hurried = thousand(*args, "--budget", "0.001")
    assert unhurried.returncode == hurried.returncode == 0, hurried.stderr
    assert unhurried.stdout == hurried.stdout
    text = unhurried.stdout
    assert "Таблицы:" in text and text.startswith("**Повышайте") and "сдающий" in text
    assert "спасовал" in text  # the middle's pass, read as strong bids


def test_a_hands_class_counts_its_card_points_and_marriages():
    from sim.cards import mask_points
    from sim.engine.bidding import marriage_sum
    from sim.engine.params import rules_vector
    from sim.runs.advise import POINTS_BAND, hand_class, hand_classes

    rules = load_rules("classic")
    P = rules_vector(rules)
    masks = np.random.default_rng(3).integers(0, 1 << 24, size=500)
    worth, band = hand_classes(rules, masks)
    for m, w, b in zip(masks.tolist(), worth.tolist(), band.tolist(), strict=True):
        assert (w, b) == hand_class(m, P)
        assert b == min(mask_points(m) // POINTS_BAND, 7)
        assert w == min(int(marriage_sum(m, P)) // 20, 15)
