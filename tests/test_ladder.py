"""``thousand ladder``: every pair's duel as ``duel`` plays it, and ratings that fit them."""

from __future__ import annotations

import json
import math

import numpy as np
import polars as pl
import pytest

from analysis.ladder import elo, fit_ratings
from analysis.stats import Z95
from sim.cli import main


@pytest.fixture(scope="module")
def ladder_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("ladder") / "l"
    args = ["ladder", "--players", "first,heuristic,strong", "--deals", "300", "--seed", "4",
            "--workers", "1", "--quiet", "--out", str(out)]  # fmt: skip
    assert main(args) == 0
    return out


def test_every_pair_is_the_duel_that_duel_plays(ladder_run, tmp_path, capsys):
    pairs = pl.read_csv(ladder_run / "ladder_pairs.csv")
    assert pairs.select("a", "b").rows() == [
        ("first", "heuristic"), ("first", "strong"), ("heuristic", "strong"),
    ]  # fmt: skip
    for a, b, diff, margin in pairs.select("a", "b", "score_diff", "margin_diff").rows():
        capsys.readouterr()
        assert main(["duel", "--a", a, "--b", b, "--deals", "300", "--seed", "4",
                     "--workers", "1", "--quiet", "--json"]) == 0  # fmt: skip
        measures = json.loads(capsys.readouterr().out)["measures"]
        assert diff == pytest.approx(measures["score_diff"]["value"])
        assert margin == pytest.approx(measures["margin_diff"]["value"])


def test_the_ratings_fit_the_duels_around_the_anchor(ladder_run):
    ratings = pl.read_csv(ladder_run / "ladder_ratings.csv")
    by = {p: r for p, r in ratings.select("player", "rating").rows()}
    assert by["heuristic"] == 0.0
    assert ratings["rank"].to_list() == [1, 2, 3]
    assert ratings["player"].to_list() == ["strong", "heuristic", "first"]
    assert (ratings["ci_low"] <= ratings["rating"]).all()
    pairs = pl.read_csv(ladder_run / "ladder_pairs.csv")
    # the weighted least squares of the three duels, solved here again: two free ratings
    # (heuristic's is 0), each duel weighted by 1 / se², se from its 95 % interval
    free = ["first", "strong"]
    rows = pairs.select("a", "b", "score_diff", "ci_high").rows()
    A = np.array([[(a == p) - (b == p) for p in free] for a, b, _d, _h in rows], float)
    y = np.array([d for _a, _b, d, _h in rows])
    se = np.array([(h - d) / Z95 for _a, _b, d, h in rows])
    solved = np.linalg.lstsq(A / se[:, None], y / se, rcond=None)[0]
    assert [by[p] for p in free] == pytest.approx(solved, rel=1e-9, abs=1e-9)
    cov = np.linalg.inv(A.T @ (A / se[:, None] ** 2))
    low = dict(ratings.select("player", "ci_low").rows())
    for j, p in enumerate(free):
        assert by[p] - low[p] == pytest.approx(Z95 * math.sqrt(cov[j, j]), rel=1e-9)
    # three duels, two free ratings: each fitted difference lies within 6 standard
    # errors of its duel (the residual's: se * sqrt(1 - leverage))
    leverage = np.diag(A @ cov @ A.T) / se**2
    for (a, b, diff, _h), s, h in zip(rows, se, leverage, strict=True):
        fitted = by[a] - by[b]
        assert abs(fitted - diff) <= 6 * s * math.sqrt(1 - h), (a, b, fitted, diff, s, h)
    run = json.loads((ladder_run / "run.json").read_text())
    assert run["command"] == "ladder" and run["players"] == ["first", "heuristic", "strong"]
    assert run["sizes"] == {"deals": 300, "sampling_deals": 200, "pairs": 3}


def test_fit_ratings_recovers_consistent_differences():
    true = {"heuristic": 0.0, "a": 2.0, "b": -3.0}
    duels = [("a", "heuristic", 2.0, 0.5), ("b", "a", -5.0, 0.1), ("b", "heuristic", -3.0, 1.0)]
    r, se = fit_ratings(["a", "heuristic", "b", "alone"], duels, "heuristic")
    assert r[:3] == pytest.approx([true["a"], 0.0, true["b"]])
    assert se[1] == 0.0 and 0 < se[0] < 0.5
    assert math.isnan(r[3]) and math.isnan(se[3])  # in no duel: no rating


def test_elo_is_1500_at_the_anchor_and_rises_with_the_rating():
    assert elo(0.0, 30.0) == 1500.0
    values = [elo(x, 30.0) for x in np.linspace(-20, 20, 9)]
    assert values == sorted(values) and values[0] < 1500 < values[-1]


@pytest.mark.parametrize(
    ("players", "culprit"),
    [("heuristic,nobody", "nobody"), ("heuristic", "at least two"), ("first,first", "twice")],
)
def test_bad_players_are_one_line_and_exit_2(players, culprit, tmp_path, capsys):
    code = main(["ladder", "--players", players, "--deals", "10", "--quiet",
                 "--out", str(tmp_path / "l")])  # fmt: skip
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and culprit in err and "--players" in err
    assert not (tmp_path / "l").exists()


def test_fitted_ratings_are_rounded_so_every_machine_writes_the_same_file():
    # the pseudo-inverse's last digits differ between linear-algebra libraries; a
    # perturbation far below the kept decimals must not change a written rating
    pairs = [("a", "h", 1.0 / 3.0, 0.7), ("b", "h", -2.0 / 7.0, 0.9), ("a", "b", 0.6, 1.1)]
    rating, se = fit_ratings(["a", "b", "h"], pairs, "h")
    nudged = [(a, b, d * (1 + 1e-13), e) for a, b, d, e in pairs]
    again, se_again = fit_ratings(["a", "b", "h"], nudged, "h")
    assert rating.tolist() == again.tolist() and se.tolist() == se_again.tolist()
    assert all(r == round(r, 9) for r in rating) and all(s == round(s, 9) for s in se)
    assert rating[0] != round(rating[0], 6)  # kept to 9 decimals, not cut short
