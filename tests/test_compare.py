"""House-rule comparisons: the statistics on hand-made games, the command end to end."""

import json

import numpy as np
import polars as pl
import pytest

from analysis.compare import COLUMNS, METRICS, QUANTILE_METRICS, Z95, compare_games, ranked


def _games(n_deals, winner, first_dealer=None, falls=None, entries=None, **extra):
    n = len(n_deals)
    cols = {
        "game_id": list(range(n)),
        "n_deals": n_deals,
        "winner": winner,
        "unfinished": [w < 0 for w in winner],
        "first_dealer": first_dealer or [0] * n,
        "contracts": extra.get("contracts", [10] * n),
        "contracts_made": extra.get("made", [5] * n),
        "contracts_conceded": extra.get("conceded", [0] * n),
        "contract_sum": extra.get("contract_sum", [1200] * n),
    }
    for s in range(extra.get("seats", 3)):
        cols[f"barrel_falls_{s}"] = falls[s] if falls else [0] * n
        cols[f"barrel_entries_{s}"] = entries[s] if entries else [1] * n
        cols[f"bolt_penalties_{s}"] = [s] * n
        cols[f"samosvals_{s}"] = [0] * n
        cols[f"score_{s}"] = extra["scores"][s] if "scores" in extra else [0] * n
    return pl.DataFrame(cols)


def _row(table, metric):
    return table.filter(pl.col("metric") == metric).row(0, named=True)


def test_a_constant_shift_has_an_exact_effect_and_no_crn_width():
    base = _games([10, 20, 30, 40], [0, 1, 2, 0])
    other = _games([12, 22, 32, 42], [0, 1, 2, 0])
    table = compare_games("a", base, [("b", other)], {"a": 3, "b": 3})
    assert table.columns == list(COLUMNS)
    r = _row(table, "game_length")
    assert r["base"] == 25 and r["other"] == 27 and r["diff"] == pytest.approx(2)
    assert r["width_crn"] == pytest.approx(0)  # every game moved by exactly 2 deals
    sd = np.std([10, 20, 30, 40], ddof=1)
    assert r["width_independent"] == pytest.approx(2 * Z95 * np.sqrt(2 * sd**2 / 4))
    assert (r["diff_ci_low"], r["diff_ci_high"]) == (pytest.approx(2), pytest.approx(2))
    assert _row(table, "bolt_penalties")["base"] == 0 + 1 + 2


def test_ratio_metrics_pool_the_games():
    # falls / entries over all games: base 2/8, other 6/8
    falls_b = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0]]
    falls_o = [[1, 1, 1, 0], [1, 1, 0, 0], [0, 0, 1, 0]]
    ent = [[1, 1, 1, 1], [1, 1, 0, 0], [0, 0, 1, 1]]
    base = _games([5] * 4, [0] * 4, falls=falls_b, entries=ent)
    other = _games([5] * 4, [0] * 4, falls=falls_o, entries=ent)
    r = _row(compare_games("a", base, [("b", other)], {"a": 3, "b": 3}), "barrel_fall_rate")
    assert r["base"] == pytest.approx(2 / 8) and r["other"] == pytest.approx(6 / 8)
    assert r["diff"] == pytest.approx(0.5)
    # the make rate counts played contracts only (conceded ones are left out)
    base = _games([5] * 2, [0, 0], made=[3, 5], conceded=[2, 0], contracts=[10, 10])
    r = _row(compare_games("a", base, [("b", base)], {"a": 3, "b": 3}), "declarer_make_rate")
    assert r["base"] == pytest.approx(8 / 18) and r["diff"] == 0


def test_seat_metrics_are_relative_to_the_first_dealer_and_skip_unfinished_games():
    # winners 1, 2, -1, 0 with first dealers 1, 1, 0, 2: offsets 0, 1, -, 1
    base = _games([5] * 4, [1, 2, -1, 0], first_dealer=[1, 1, 0, 2])
    t = compare_games("a", base, [("b", base)], {"a": 3, "b": 3})
    assert _row(t, "first_dealer_wins")["base"] == pytest.approx(1 / 3)
    assert _row(t, "forehand_wins")["base"] == pytest.approx(2 / 3)


def test_games_must_pair_up():
    with pytest.raises(ValueError, match="same games"):
        compare_games("a", _games([1, 2], [0, 0]), [("b", _games([1], [0]))], {"a": 3, "b": 3})


def test_compare_command_end_to_end(thousand, tmp_path):
    out = tmp_path / "c"
    r = thousand("compare", "--rules", "classic", "--vs", "app,four_players", "--games", "1500",
                 "--seed", "1", "--out", str(out), "--json", "--quiet",
                 "--skill-games", "300")  # fmt: skip
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["vs"] == ["app", "four_players"] and doc["games"] == 1500
    assert doc["strategies"] == "strong"  # the default: who played every game
    assert doc["skill"] == {"player": "strong", "against": "heuristic", "games": 300}
    effects = pl.DataFrame(doc["effects"])
    # + seat_imbalance; - rear_points, which only a four-hand table has (against three: no row)
    assert effects.height == 2 * (len(METRICS) + len(QUANTILE_METRICS) + 1 - 1)
    for f in ("compare.csv", "compare_seats.csv", "compare_lengths.csv", "compare.md",
              "compare.json", "run.json", "compare.png", "compare_seats.png",
              "compare_lengths.png"):  # fmt: skip
        assert (out / f).is_file(), f
    assert "compare_seats.png" in (out / "compare.md").read_text(encoding="utf-8")
    for name in ("classic", "app", "four_players"):
        assert (out / "runs" / name / "games.parquet").is_file()
    # the skill index: strong wins more than the fair share of a table of heuristics
    skill = effects.filter(pl.col("metric") == "skill_index").row(0, named=True)
    assert skill["base_ci_low"] > 1 / 3, skill
    seats = pl.read_csv(out / "compare_seats.csv")
    assert (
        seats.group_by("rules").agg(pl.col("share").sum())["share"].round(9).to_list() == [1.0] * 3
    )
    assert seats.filter(pl.col("rules") == "four_players")["position"].to_list()[-1] == "rear"
    # a four-hand table's seats are not an effect against a three-hand one's
    four = effects.filter((pl.col("vs") == "four_players") & (pl.col("metric") == "forehand_wins"))
    assert four["own_switch"].to_list() == [True]
    # the same deals make the paired intervals narrower where play is correlated
    app = effects.filter(pl.col("vs") == "app")
    for metric in ("declarer_make_rate", "average_contract", "game_length"):
        row = app.filter(pl.col("metric") == metric).row(0, named=True)
        assert row["width_crn"] < row["width_independent"], metric
    barrel = thousand("barrel", str(out / "runs" / "app"), "--json")
    assert barrel.returncode == 0, barrel.stderr


@pytest.mark.parametrize(
    "args, culprit",
    [
        (["--vs", "no_such_rules"], "no_such_rules"),
        (["--vs", ","], "--vs"),
        (["--vs", "app", "--strategies", "random,heuristic,random"], "--strategies"),
        (["--vs", "app", "--resume"], "--resume"),
        (["--vs", "app", "--games", "0"], "--games"),
        (["--vs", "app", "--skill", "strongg"], "--skill"),
        (["--vs", "app", "--skill-against", "nobody"], "--skill-against"),
        (["--vs", "app", "--skill-games", "-1"], "--skill-games"),
    ],
)
def test_compare_bad_input(thousand, tmp_path, args, culprit):
    base = ["compare", "--games", "10", "--out", str(tmp_path / "o")]
    r = thousand(*base, *args)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and culprit in lines[0], r.stderr
    assert not (tmp_path / "o").exists()


def test_compare_resume_needs_the_out_of_the_interrupted_run(thousand, tmp_path):
    r = thousand("compare", "--vs", "app", "--games", "10", "--resume")
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "--resume" in lines[0] and "--out" in lines[0], r.stderr


def test_every_seat_has_its_share_and_a_seat_a_table_lacks_is_not_an_effect():
    # winners 2, 2, 0, 1 with first dealer 0: offsets 2, 2, 0, 1 (the middle seat wins half)
    three = _games([5] * 4, [2, 2, 0, 1])
    four = _games([5] * 4, [3, 2, 0, 1], seats=4)  # the fourth seat (offset 3) wins one of four
    t = compare_games("a", three, [("b", four)], {"a": 3, "b": 4})
    middle, rear = _row(t, "middle_wins"), _row(t, "rear_wins")
    assert middle["base"] == pytest.approx(0.5) and middle["other"] == pytest.approx(0.25)
    assert middle["unit"] == "share" and middle["base_on"] and middle["other_on"]
    assert rear["other"] == pytest.approx(0.25) and rear["base"] == 0
    assert not rear["base_on"] and rear["other_on"] and rear["own_switch"]
    # tables of three and four hands have other fair shares: no seat is an effect
    assert not ranked(middle) and not ranked(rear) and not ranked(_row(t, "forehand_wins"))
    same = compare_games("a", three, [("b", three)], {"a": 3, "b": 3})
    assert ranked(_row(same, "middle_wins")) and not _row(same, "rear_wins")["base_on"]


def test_a_switched_counter_is_flagged_as_its_own_switch():
    g = _games([5] * 3, [0] * 3)
    options = {
        "a": {"score.samosval": True, "score.samosval_negative": True, "barrel.at": 880},
        "b": {"score.samosval": False, "score.samosval_negative": True, "barrel.at": 0},
        "c": {"score.samosval": True, "score.samosval_negative": True, "barrel.at": 760},
    }
    t = compare_games("a", g, [("b", g), ("c", g)], {"a": 3, "b": 3, "c": 3}, options)
    resets = t.filter(pl.col("metric") == "samosvals")
    # −555 still resets under b: on, but counting something else than under a
    assert resets["other_on"].to_list() == [True, True]
    assert resets["own_switch"].to_list() == [True, False]
    falls = t.filter(pl.col("metric") == "barrel_fall_rate")
    assert falls["other_on"].to_list() == [False, True]  # barrel.at 0: no barrel
    assert [ranked(r) for r in falls.iter_rows(named=True)] == [False, True]


def test_spread_skill_and_first_climb_on_known_games():
    scores = [[1000, 500, 1000], [200, 1010, 300], [-50, 100, 100]]  # seat s, games 0..2
    base = _games([5] * 3, [0, 1, -1], scores=scores)
    # the winner less the lowest, finished games only: 1050 and 910
    assert _row(compare_games("a", base, [("b", base)], {"a": 3, "b": 3}), "score_spread")[
        "base"
    ] == pytest.approx((1050 + 910) / 2)
    with_skill = base.with_columns(
        pl.Series("skill_won", [3, 0, 1]),
        pl.Series("skill_finished", [3, 3, 2]),
        pl.Series("first_climb", [4, None, 10]),
    )
    t = compare_games("a", with_skill, [("b", with_skill)], {"a": 3, "b": 3})
    assert _row(t, "skill_index")["base"] == pytest.approx(4 / 8)
    assert _row(t, "first_climb_deal")["base"] == pytest.approx(7)  # games with a climb
    assert (
        "skill_index"
        not in compare_games("a", base, [("b", base)], {"a": 3, "b": 3})["metric"].to_list()
    )  # no skill runs: no skill row


def test_length_quantiles_have_paired_bootstrap_intervals():
    rng = np.random.default_rng(5)
    lengths = rng.integers(10, 60, size=400)
    base = _games(list(lengths), [0] * 400)
    other = _games(list(lengths + 3), [0] * 400)
    t = compare_games("a", base, [("b", other)], {"a": 3, "b": 3})
    for metric, q in (("game_length_median", 0.5), ("game_length_p90", 0.9)):
        r = _row(t, metric)
        assert r["base"] == pytest.approx(np.quantile(lengths, q))
        assert r["diff"] == pytest.approx(3)
        # every game moved by 3: the paired interval is exactly 3, independent runs' wide
        assert (r["diff_ci_low"], r["diff_ci_high"]) == (pytest.approx(3), pytest.approx(3))
        assert r["width_independent"] > 1
        assert r["base_ci_low"] <= r["base"] <= r["base_ci_high"]


def test_seat_shares_and_their_test_of_equal_shares():
    from analysis.compare import length_histograms, seat_shares

    # 90 finished games: the forehand wins 60, the others 15 each; 10 unfinished
    winner = [1] * 60 + [0] * 15 + [2] * 15 + [-1] * 10
    g = _games([7] * 100, winner)
    t = seat_shares(
        "a", g, [("b", g.with_columns(pl.lit(0).alias("first_dealer")))], {"a": 3, "b": 3}
    )
    a = t.filter(pl.col("rules") == "a")
    assert a["position"].to_list() == ["dealer", "forehand", "middle"]
    assert a["wins"].to_list() == [15, 60, 15] and a["finished"][0] == 90
    assert a["share"][1] == pytest.approx(60 / 90) and a["fair"][0] == pytest.approx(1 / 3)
    assert a["chi2"][0] == pytest.approx(((15 - 30) ** 2 * 2 + 30**2) / 30)
    assert a["p_value"][0] < 1e-6 and a["dof"][0] == 2
    even = seat_shares("a", _games([7] * 90, [0, 1, 2] * 30), [], {"a": 3})
    assert even["chi2"][0] == 0 and even["p_value"][0] == pytest.approx(1)
    h = length_histograms("a", _games([3, 7, 12], [0] * 3), [("b", _games([22, 7, 7], [0] * 3))])
    assert h.filter(pl.col("rules") == "a")["games"].to_list() == [1, 1, 1, 0, 0]
    assert h.filter(pl.col("rules") == "b")["bin_low"].to_list() == [0, 5, 10, 15, 20]
    assert h.filter(pl.col("rules") == "b")["share"].to_list()[1] == pytest.approx(2 / 3)


def test_seat_imbalance_is_the_largest_gap_from_the_fair_share():
    # first dealer 0; winners' places 0, 0, 0, 1: shares 3/4, 1/4, 0 against 1/3 each
    base = _games([5] * 4, [0, 0, 0, 1])
    even = _games([5] * 3, [0, 1, 2])
    r = _row(compare_games("a", base, [("b", base)], {"a": 3, "b": 3}), "seat_imbalance")
    assert r["base"] == pytest.approx(3 / 4 - 1 / 3) and r["diff"] == 0
    assert r["unit"] == "share" and ranked(r)
    r = _row(compare_games("a", even, [("b", even)], {"a": 3, "b": 3}), "seat_imbalance")
    assert r["base"] == pytest.approx(0)


def test_points_a_deal_by_role_pool_the_deals_of_every_game():
    # role 1 (the forehand of each deal) scored 100 over 10 deals and 20 over 30 deals
    base = _games([10, 30], [0, 1]).with_columns(
        pl.Series("role_points_0", [0, 60]),
        pl.Series("role_points_1", [100, 20]),
        pl.Series("role_points_2", [-50, 0]),
    )
    t = compare_games("a", base, [("b", base)], {"a": 3, "b": 3})
    assert _row(t, "forehand_points")["base"] == pytest.approx(120 / 40)
    assert _row(t, "dealer_points")["base"] == pytest.approx(60 / 40)
    assert _row(t, "middle_points")["unit"] == "points"
    assert "rear_points" not in t["metric"].to_list()  # three hands: no fourth role
