"""House-rule comparisons: the statistics on hand-made games, the command end to end."""

import json

import numpy as np
import polars as pl
import pytest

from analysis.compare import COLUMNS, Z95, compare_games


def _games(n_deals, winner, first_dealer=None, falls=None, entries=None, **extra):
    n = len(n_deals)
    cols = {
        "game_id": list(range(n)),
        "n_deals": n_deals,
        "winner": winner,
        "first_dealer": first_dealer or [0] * n,
        "contracts": extra.get("contracts", [10] * n),
        "contracts_made": extra.get("made", [5] * n),
        "contracts_conceded": extra.get("conceded", [0] * n),
        "contract_sum": extra.get("contract_sum", [1200] * n),
    }
    for s in range(3):
        cols[f"barrel_falls_{s}"] = falls[s] if falls else [0] * n
        cols[f"barrel_entries_{s}"] = entries[s] if entries else [1] * n
        cols[f"bolt_penalties_{s}"] = [s] * n
        cols[f"samosvals_{s}"] = [0] * n
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
                 "--seed", "1", "--out", str(out), "--json", "--quiet")  # fmt: skip
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["vs"] == ["app", "four_players"] and doc["games"] == 1500
    assert doc["strategies"] == "strong"  # the default: who played every game
    effects = pl.DataFrame(doc["effects"])
    assert effects.height == 2 * 9
    for f in ("compare.csv", "compare.md", "compare.json", "run.json"):
        assert (out / f).is_file()
    for name in ("classic", "app", "four_players"):
        assert (out / "runs" / name / "games.parquet").is_file()
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
