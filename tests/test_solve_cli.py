"""``thousand solve`` as a user runs it: the three ways to give cards, JSON, bad input."""

from __future__ import annotations

import json

import pytest

from sim.cards import parse_card
from sim.cli import main
from sim.reference.solver import lead_values, minimax
from sim.rules import load_rules

DEAL = ["AH TH KH QH AS 9C JD", "KS QS JS 9S AC TC KC", "QC JC AD TD KD QD 9D"]


def test_play_position_json_is_the_documented_document(thousand):
    hands = ["AH AS", "KH QH", "JH 9S"]
    r = thousand("solve", "--hands", *hands, "--leader", "1", "--marriage-allowed", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert set(doc) == {"value", "moves"}
    ids = [[parse_card(c) for c in h.split()] for h in hands]
    rules = load_rules("classic")
    assert doc["value"] == minimax(rules, ids, 0, 1, marriage_allowed=True) == 16
    want = lead_values(rules, ids, 0, 1, marriage_allowed=True)
    got = {parse_card(m["card"]) + (24 if m["declare"] else 0): m["value"] for m in doc["moves"]}
    assert got == want
    assert [set(m) for m in doc["moves"]] == [{"card", "declare", "value"}] * 4


def test_deal_json_gives_the_best_discard_contracts_and_a_line(thousand):
    r = thousand("solve", "--hands", *DEAL, "--talon", "9H JH TS", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["declarer"] == 0 and len(doc["best"]["gives"]) == 2
    value = doc["best"]["value"]
    makes = [c["make"] for c in doc["contracts"]]
    assert makes == sorted(makes, reverse=True)  # made levels, then the first failure
    # the line is a whole deal: 24 cards, each once, and its declarer total is the value
    cards = [c["card"] for c in doc["line"]]
    assert len(cards) == 24 and len(set(cards)) == 24
    assert doc["contracts"][0] == {"contract": 100, "make": value >= 100}


def test_deal_text_names_the_discard_and_the_line(thousand):
    r = thousand("solve", "--hands", *DEAL, "--talon", "9H JH TS")
    assert r.returncode == 0, r.stderr
    assert "best discard:" in r.stdout and "trick 8:" in r.stdout
    assert r.stdout.startswith("declarer: forehand\n")  # seats by role, as show names them


def test_the_declarer_is_named_by_its_role_in_any_language_or_by_number(thousand):
    by_number = thousand("solve", "--hands", *DEAL, "--talon", "9H JH TS", "--declarer", "2",
                         "--json")  # fmt: skip
    doc = json.loads(by_number.stdout)
    assert doc["declarer"] == 2 and doc["declarer_role"] == "dealer"
    for word in ("dealer", "сдающий", "роздаючий", "rozdający"):
        named = thousand("solve", "--hands", *DEAL, "--talon", "9H JH TS", "--declarer", word,
                         "--json")  # fmt: skip
        assert named.returncode == 0, named.stderr
        assert json.loads(named.stdout) == doc
    text = thousand("solve", "--hands", *DEAL, "--talon", "9H JH TS", "--declarer", "middle",
                    "--lang", "ru").stdout  # fmt: skip
    assert text.startswith("играющий: вторая рука\n") and "вторая рука: " in text


def test_run_deal_replays_the_runs_declarer(thousand, tmp_path):
    out = tmp_path / "h"
    r = thousand("hands", "--deals", "40", "--seed", "3", "--out", str(out), "--quiet")
    assert r.returncode == 0, r.stderr
    import polars as pl

    frame = pl.read_parquet(out / "hands.parquet")
    played = frame.filter(~pl.col("conceded") & pl.col("declarer").is_not_null())
    deal = int(played["deal_id"][0])
    r = thousand("solve", "--run", str(out), "--deal", str(deal), "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["played"]["contract"] == int(played["contract"][0])
    # the best discard is at least as good as the one the run made
    assert doc["best"]["value"] >= doc["played"]["value"]


@pytest.mark.parametrize(
    ("args", "culprit"),
    [
        (["--hands", "AH TX", "KH QH", "JH 9S"], "TX"),
        (["--hands", "AH TH", "KH QH", "JH AH"], "AH is given twice"),
        (["--hands", "AH TH", "KH", "JH 9S"], "one size"),
        (["--hands", "AH", "KH"], "needs 3 hands"),
        (["--hands", *DEAL, "--talon", "9H JH"], "--talon must be 3 cards"),
        (["--hands", *DEAL, "--talon", "9H JH AH"], "AH is given twice"),
        (["--hands", "AH", "KH", "9H", "--declarer", "5"], "--declarer"),
        (["--hands", "AH", "KH", "9H", "--trump", "X"], "--trump"),
        (["--run", "/nonexistent", "--deal", "0"], "run.json"),
        ([], "give the cards"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, args, culprit):
    with pytest.raises(SystemExit) as exc:  # argparse errors exit; ours return 2
        raise SystemExit(main(["solve", *args]))
    assert exc.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and culprit in lines[0], err


def test_bad_input_as_a_subprocess(cli):
    r = cli("solve", "--hands", "AH TH", "KH QH", "JH AH")
    assert r.returncode == 2 and r.stdout == ""
    assert (
        r.stderr.strip()
        == "thousand solve: error: AH is given twice (hand 0 (forehand) and hand 2 (dealer))"
    )


def test_hands_par_columns_are_the_solvers_values(thousand, tmp_path):
    out = tmp_path / "p"
    r = thousand("hands", "--deals", "16", "--seed", "2", "--par", "--out", str(out), "--quiet")
    assert r.returncode == 0, r.stderr
    import polars as pl

    frame = pl.read_parquet(out / "hands.parquet")
    played = frame.filter(~pl.col("reshuffled"))
    assert played["par_total"].null_count() == 0
    assert (played["par_best"] >= played["par_total"]).all()
    assert frame.filter(pl.col("reshuffled"))["par_total"].null_count() == (
        frame["reshuffled"].sum()
    )
    assert json.loads((out / "run.json").read_text())["par"] is True
    # deal 0 as `thousand solve --run` replays it: the same two numbers
    row = played.row(0, named=True)
    r = thousand("solve", "--run", str(out), "--deal", str(row["deal_id"]), "--json")
    doc = json.loads(r.stdout)
    assert doc["played"]["value"] == row["par_total"]
    assert doc["best"]["value"] == row["par_best"]


def test_par_with_aggregate_only_is_refused(capsys, tmp_path):
    args = ["hands", "--deals", "5", "--par", "--aggregate-only", "--out", str(tmp_path / "x")]
    code = main(args)
    assert code == 2
    assert "--aggregate-only" in capsys.readouterr().err
