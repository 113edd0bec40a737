"""Strategy duels in duplicate format: exact ties, a clear winner, determinism, CLI.

The duel is played by :mod:`sim.runs.duel` and its statistics are :mod:`analysis.duel`;
``duel_hands`` and ``duel_games`` here do both.
"""

import json

import numpy as np
import polars as pl
import pytest

from analysis.duel import DuelResult, duel_json, duel_result
from analysis.schema.duel import DUEL_SPLIT
from analysis.stats import Z95
from sim.engine.strategies.registry import StrategyError
from sim.rules import load_rules
from sim.runs import duel
from sim.runs.duel import Contestant
from views.duel import DECISION_WORDS, duel_markdown


def duel_hands(*args, **kwargs) -> DuelResult:
    return duel_result(duel.duel_hands(*args, **kwargs))


def duel_games(*args, **kwargs) -> DuelResult:
    return duel_result(duel.duel_games(*args, **kwargs))


BOLD = Contestant("heuristic", ("heuristic.aggression=0.3",))
PLAIN = Contestant("heuristic")
RANDOM = Contestant("random")


def _se(m: dict) -> float:
    """Standard error behind a 95 % interval (half-width / z)."""
    return (m["ci_high"] - m["ci_low"]) / (2 * Z95)


# --- the baseline: A = B ---------------------------------------------------------------
@pytest.mark.parametrize("rules_name", ["classic", "two_players", "four_players"])
@pytest.mark.parametrize("side", [BOLD, RANDOM], ids=["heuristic", "random"])
def test_equal_contestants_tie_on_every_deal(rules_name, side):
    rules = load_rules(rules_name)
    res = duel_hands(rules, side, Contestant(side.strategy, side.params), 1500, seed=3)
    diff_cols = [
        f"{c}{suffix}"
        for c in ("score_diff", "margin_diff")
        for suffix in ["", *(f"_{s}" for s in range(rules.players))]
    ]
    assert len(res.items) == 1500
    for c in diff_cols:
        assert (res.items[c] == 0).all(), c
    m = res.measure("score_diff")
    assert m["value"] == 0 and m["ci_low"] == 0 and m["ci_high"] == 0
    assert not m["excludes_reference"]
    g = res.measure("margin_diff")
    assert g["value"] == 0 and g["ci_low"] == 0 and g["ci_high"] == 0
    assert res.measure("a_make_rate")["value"] == res.measure("b_make_rate")["value"]
    assert res.measure("a_declare_rate")["value"] == res.measure("b_declare_rate")["value"]
    assert res.measure("b_declare_rate")["value"] == pytest.approx(1 / rules.players)
    # nothing parts the deals: every seat-deal is put down to "none", every part is 0
    assert res.split is not None
    for s in range(rules.players):
        assert (res.items[f"decision_{s}"] == "none").all()
    assert (
        res.split.filter(pl.col("decision") == "none")["seat_deals"].item() == 1500 * rules.players
    )
    assert (res.split["score_diff"] == 0).all() and (res.split["margin_diff"] == 0).all()


@pytest.mark.parametrize("rules_name", ["classic", "two_players", "four_players"])
def test_equal_contestants_win_their_fair_share(rules_name):
    """A = B replays one game per game id: A wins exactly one rotation of each."""
    rules = load_rules(rules_name)
    res = duel_games(rules, BOLD, Contestant("heuristic", ("aggression=0.3",)), 150, seed=5)
    w = res.measure("a_win_rate")
    unfinished = res.measure("unfinished_rate")["value"]
    assert (res.items["a_wins"] == (res.items["finished"] > 0).cast(pl.Int64)).all()
    assert np.allclose(res.items["score_diff"].to_numpy(), 0.0, atol=1e-9)
    if unfinished == 0:
        assert w["value"] == pytest.approx(1 / rules.players)
    assert w["ci_low"] <= 1 / rules.players <= w["ci_high"]
    assert not w["excludes_reference"]
    assert len(res.seats) == rules.players


# --- a clear winner ------------------------------------------------------------------------
def test_heuristic_beats_random_on_deals():
    """Heuristic A against random B gains points on every seat, > 10 standard errors."""
    res = duel_hands(load_rules("classic"), PLAIN, RANDOM, 2000, seed=7)
    m = res.measure("score_diff")
    assert m["value"] > 10 * _se(m) and m["excludes_reference"]
    assert (res.seats["ci_low"] > 0).all()
    assert res.measure("a_make_rate")["ci_low"] > res.measure("b_make_rate")["ci_high"]


def test_heuristic_beats_random_in_games():
    """A's win rate exceeds the fair share 1/3 by more than 5 standard errors."""
    res = duel_games(load_rules("classic"), PLAIN, RANDOM, 100, seed=7)
    w = res.measure("a_win_rate")
    se = max(_se(w), np.sqrt(w["value"] * (1 - w["value"]) / w["n"]), 1e-3)
    assert w["difference"] > 5 * se and w["excludes_reference"]
    assert res.measure("score_diff")["ci_low"] > 0


@pytest.mark.parametrize("rules_name", ["classic", "four_players"])
def test_the_margin_counts_the_other_seats_too(rules_name):
    """``margin_diff_s``: [seat s minus the mean of the others] with A at s, minus with B.

    Recomputed from the deals played directly; heuristic defenders against random
    declarers are where the margin and the own-seat difference part.
    """
    from sim.engine.api import play_hands

    rules = load_rules(rules_name)
    n, players = 300, rules.players
    res = duel_hands(rules, PLAIN, RANDOM, n, seed=4)

    def deltas(a_seat):
        names, table = duel.seat_setup(players, PLAIN, RANDOM, a_seat)
        b = play_hands(rules, n, 4, names, seat_params=table)
        return np.stack([np.asarray(b.column(f"delta_{t}")) for t in range(players)], axis=1)

    base = deltas(None)
    margins = []
    for s in range(players):
        run = deltas(s)
        others = [t for t in range(players) if t != s]
        want = (run[:, s] - run[:, others].mean(axis=1)) - (
            base[:, s] - base[:, others].mean(axis=1)
        )
        assert np.allclose(res.items[f"margin_diff_{s}"].to_numpy(), want), s
        assert np.allclose(res.items[f"score_diff_{s}"].to_numpy(), run[:, s] - base[:, s])
        margins.append(want)
    assert np.allclose(res.items["margin_diff"].to_numpy(), np.mean(margins, axis=0))
    g, m = res.measure("margin_diff"), res.measure("score_diff")
    assert g["value"] == pytest.approx(res.items["margin_diff"].mean())
    assert g["value"] != m["value"]
    assert list(res.seats["margin_diff"]) == pytest.approx([float(np.mean(x)) for x in margins])


@pytest.mark.parametrize("rules_name", ["classic", "two_players"])
def test_the_split_puts_each_difference_where_the_deals_part(rules_name):
    """Two settings that differ in one decision only: every difference is put down to it.

    ``heuristic`` conceding whenever it may (a margin of -1000) against it never
    conceding: the deals part at the concession and nowhere before, and the parts add
    up to the duel's differences.
    """
    rules = load_rules(rules_name)
    a = Contestant("heuristic", ("heuristic.concede_margin=-1000",))
    b = Contestant("heuristic", ("heuristic.concede_margin=1000",))
    res = duel_hands(rules, a, b, 600, seed=6)
    t = res.split
    assert t is not None
    assert list(t["decision"]) == list(duel.DECISIONS)
    assert t["seat_deals"].sum() == 600 * rules.players
    moved = t.filter(pl.col("seat_deals") > 0)["decision"].to_list()
    assert set(moved) == {"none", "concession"}
    for col in ("score_diff", "margin_diff"):
        assert t[col].sum() == pytest.approx(res.measure(col)["value"])
        assert t.filter(pl.col("decision") == "concession")[col].item() == pytest.approx(
            res.measure(col)["value"]
        )
    # conceding every contract it declares costs the declarer: a clear negative part
    part = t.filter(pl.col("decision") == "concession")
    assert part["ci_high"].item() < 0
    doc = duel_json(res)
    assert [r["decision"] for r in doc["split"]] == list(duel.DECISIONS)
    assert list(DECISION_WORDS) == list(duel.DECISIONS)  # each shown in words


def test_the_split_finds_the_auction_and_the_contract():
    """A bolder heuristic bids and names differently: the auction and the contract differ."""
    rules = load_rules("classic")
    res = duel_hands(rules, BOLD, PLAIN, 600, seed=7)
    t = res.split
    counts = dict(zip(t["decision"], t["seat_deals"], strict=True))
    assert counts["auction"] > 0 and counts["contract_higher"] > 0
    # bolder never names less with the same cards, and plays its cards alike
    for alike in ("discard", "contract_lower", "declarer_play", "defence"):
        assert counts[alike] == 0, alike
    for col in ("score_diff", "margin_diff"):
        assert t[col].sum() == pytest.approx(res.measure(col)["value"])
    assert "## Where the difference comes from" in duel_markdown(res)


# --- determinism and layout --------------------------------------------------------------
def test_same_seed_same_tables():
    rules = load_rules("classic")
    one = duel_hands(rules, BOLD, PLAIN, 1000, seed=11, chunk=300)
    two = duel_hands(rules, BOLD, PLAIN, 1000, seed=11)
    assert one.items.equals(two.items) and one.summary.equals(two.summary)
    assert one.seats.equals(two.seats)
    other = duel_hands(rules, BOLD, PLAIN, 1000, seed=12)
    assert not one.items.equals(other.items)
    g1 = duel_games(rules, BOLD, PLAIN, 60, seed=11, chunk=25)
    g2 = duel_games(rules, BOLD, PLAIN, 60, seed=11)
    assert g1.items.equals(g2.items) and g1.summary.equals(g2.summary)


def test_four_players_sitting_out_dealer_adds_nothing():
    rules = load_rules("four_players")
    res = duel_hands(rules, BOLD, PLAIN, 800, seed=2)
    for s in range(4):
        sits_out = res.items.filter(pl.col("dealer") == s)[f"score_diff_{s}"]
        assert len(sits_out) > 0 and (sits_out == 0).all()
    assert res.seats["a_declared"].sum() == round(
        res.measure("a_declare_rate")["value"] * res.measure("a_declare_rate")["n"]
    )


def test_fixed_first_dealer_is_used():
    res = duel_games(load_rules("two_players"), BOLD, PLAIN, 20, seed=1, first_dealer=1)
    assert (res.items["first_dealer"] == 1).all()
    doc = duel_json(res)
    assert doc["first_dealer"] == 1 and doc["games"] == 20 and doc["players"] == 2
    assert "first dealer seat 1" in duel_markdown(res)


def test_contestant_settings_and_label():
    assert BOLD.label == "heuristic(aggression=0.3)" and PLAIN.label == "heuristic"
    assert Contestant("heuristic", ("aggression=0.3",)).row().tolist() == BOLD.row().tolist()
    with pytest.raises(StrategyError, match="nope"):
        Contestant("heuristic", ("nope=1",)).row()
    with pytest.raises(StrategyError, match="not a setting of strategy 'random'"):
        Contestant("random", ("heuristic.aggression=0.3",)).row()
    with pytest.raises(ValueError, match="deals"):
        duel_hands(load_rules("classic"), BOLD, PLAIN, 0, seed=1)


# --- command line --------------------------------------------------------------------------
@pytest.fixture
def duel_cli(main_io):
    """Run ``thousand duel ARGS`` in this process → (rc, out, err)."""
    return lambda *argv: main_io("duel", *argv)


def test_cli_json_is_one_document(duel_cli):
    rc, out, err = duel_cli("--a", "heuristic", "--a-param", "heuristic.aggression=0.3",
                            "--deals", "500", "--seed", "4", "--json", "--quiet")  # fmt: skip
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["format"] == "hands" and doc["deals"] == 500 and doc["seed"] == 4
    assert doc["a"]["params"]["aggression"] == 0.3 and doc["b"]["params"]["aggression"] == 0.0
    m = doc["measures"]["score_diff"]
    assert m["ci_low"] <= m["value"] <= m["ci_high"] and m["reference"] == 0
    assert len(doc["seats"]) == 3 and err == ""


def test_cli_out_writes_tables(duel_cli, tmp_path):
    out = tmp_path / "d"
    rc, text, err = duel_cli("--rules", "four_players", "--a", "heuristic", "--b", "random",
                             "--games", "20", "--seed", "1", "--first-dealer", "2",
                             "--out", str(out), "--quiet")  # fmt: skip
    assert rc == 0, err
    assert text.startswith("# Strategy duel") and "A's win rate [95 % CI]" in text
    names = sorted(p.name for p in out.iterdir())
    assert names == [
        "duel.json",
        "duel.md",
        "duel_games.parquet",
        "duel_seats.csv",
        "duel_summary.csv",
        "run.json",
    ]
    run = json.loads((out / "run.json").read_text())
    assert run["command"] == "duel" and run["first_dealer"] == 2 and run["sizes"] == {"games": 20}
    assert pl.read_parquet(out / "duel_games.parquet").height == 20
    rc, _, err = duel_cli("--a", "heuristic", "--deals", "10", "--out", str(out))
    assert rc == 2 and "--out" in err and "not empty" in err
    deals = tmp_path / "deals"
    rc, _, err = duel_cli("--a", "heuristic", "--b", "random", "--deals", "30", "--out",
                          str(deals), "--quiet")  # fmt: skip
    assert rc == 0, err
    split = pl.read_csv(deals / "duel_split.csv")
    assert split.columns == list(DUEL_SPLIT.polars_schema())
    assert split["seat_deals"].sum() == 30 * 3
    assert json.loads((deals / "duel.json").read_text())["split"][0]["decision"] == "none"


@pytest.mark.parametrize(
    ("argv", "culprit"),
    [
        (["--a", "clever", "--deals", "10"], "clever"),
        (["--a", "heuristic", "--a-param", "heuristic.nope=1", "--deals", "10"], "nope"),
        (["--a", "random", "--a-param", "heuristic.aggression=0.3", "--deals", "10"], "--a"),
        (["--a", "heuristic", "--b-param", "aggression=bold", "--deals", "10"], "bold"),
        (["--a", "heuristic", "--deals", "0"], "--deals"),
        (["--a", "heuristic", "--games", "-3"], "--games"),
        (["--a", "heuristic", "--deals", "5", "--games", "5"], "--games"),
        (["--a", "heuristic"], "--deals"),
        (["--deals", "10"], "--a"),
        (["--a", "heuristic", "--deals", "10", "--first-dealer", "0"], "--first-dealer"),
        (
            ["--a", "heuristic", "--games", "10", "--first-dealer", "3", "--rules", "two_players"],
            "--first-dealer",
        ),
        (["--a", "heuristic", "--deals", "10", "--rules", "no_such_rules"], "no_such_rules"),
        (["--a", "heuristic", "--deals", "10", "--seed", "-1"], "--seed"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(duel_cli, argv, culprit):
    rc, out, err = duel_cli(*argv)
    assert rc == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and culprit in lines[0], err
    assert "Traceback" not in err


def _fake_duel(folder, seed: int, diffs: list[float]) -> None:
    folder.mkdir()
    run = {"rules_hash": "x", "seed": seed, "sizes": {"deals": len(diffs)}, "format": "hands"}
    run |= {"b": {"strategy": "heuristic"}, "first_dealer": None}
    (folder / "run.json").write_text(json.dumps(run))
    n = len(diffs)
    pl.DataFrame(
        {"deal_id": range(n), "score_diff": diffs, "margin_diff": [2 * d for d in diffs]}
    ).write_parquet(folder / "duel_deals.parquet")


def test_paired_duels_compare_two_versions_deal_by_deal(tmp_path) -> None:
    """``benchmarks/paired_duels.py``: the per-deal difference of two duels, with its
    normal 95 % interval; duels of other seeds are refused, not paired."""
    import subprocess
    import sys

    from benchmarks.paired_duels import paired

    _fake_duel(tmp_path / "old", 5, [1.0, 2.0, 3.0, 4.0])
    _fake_duel(tmp_path / "new", 5, [1.0, 4.0, 3.0, 7.0])  # +0, +2, +0, +3
    doc = paired(tmp_path / "old", tmp_path / "new")
    d = np.array([0.0, 2.0, 0.0, 3.0])
    half = Z95 * d.std(ddof=1) / 2
    assert doc["deals"] == 4 and doc["deals_differing"] == 2
    assert doc["score_diff"]["mean"] == pytest.approx(1.25)
    assert doc["score_diff"]["high"] - doc["score_diff"]["mean"] == pytest.approx(half, rel=1e-3)
    assert doc["margin_diff"]["mean"] == pytest.approx(2.5)
    _fake_duel(tmp_path / "other", 6, [1.0, 2.0, 3.0, 4.0])
    bad = subprocess.run(
        [sys.executable, "benchmarks/paired_duels.py", tmp_path / "old", tmp_path / "other"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "differ in 'seed'" in bad.stderr
