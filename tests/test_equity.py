"""The equity table: game states from traced games, one deal applied, the model, the file.

The states are read back from traces (sim.runs.equity.game_states) and every deal of
traced games is applied again to its state by the engine's own game rules
(after_deal): the scores, barrel, bolts, concessions and falls after it must be the
trace's exactly. The model (analysis.equity) is symmetric by construction, sums to 1,
grows with the own score; the shipped classic model is the one of its rules, engine
and player, and is calibrated on held-out games of a seed of its own.
"""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import numpy as np
import pytest

import sim
from analysis.equity import EquityModel, calibration, knots_for, one_per_game, skill
from sim.engine.api import play_hands
from sim.engine.game import play_games
from sim.engine.state import SPECIALS
from sim.jobs import equity as jobs_equity
from sim.jobs.equity import equity_model, shipped_path, win_chance_after
from sim.rules import load_rules
from sim.runs.equity import OUTCOME_COLUMNS, GameState, after_deal, game_states

ROOT = Path(__file__).resolve().parents[1]
CLASSIC = load_rules("classic")
# The held-out check of the shipped model: games of a seed neither its fit (1_000) nor
# the training script's held-out games (2_000) used; every bin of the calibration within
# CALIBRATION_SE standard errors (measured over games) of the observed share.
CALIBRATION_SEED = 3_000
CALIBRATION_GAMES = 1_500
CALIBRATION_SE = 4.0
MARTINGALE = 0.02


@pytest.fixture(scope="module")
def states():
    return game_states(CLASSIC, "strong", 300, 11)


@pytest.fixture(scope="module")
def small(states):
    return EquityModel.fit(states)


@pytest.fixture(scope="module")
def shipped():
    return EquityModel.load(shipped_path(CLASSIC))


# --- the states ------------------------------------------------------------------------------
def test_the_rows_are_one_per_played_deal_and_seat(states):
    c = states.columns
    n = 3
    batch = play_games(CLASSIC, 300, 11, ("strong",))
    assert states.unfinished == int(batch.column("unfinished").sum()) == 0
    assert states.rows == n * int(batch.column("n_deals").sum())
    assert np.array_equal(c["seat"], np.tile(np.arange(n), states.rows // n))
    groups = c["won"].reshape(-1, n)
    assert (groups.sum(axis=1) == 1).all()  # one winner per deal
    winner = batch.column("winner")[c["game"][::n]]
    assert np.array_equal(groups.argmax(axis=1), winner)
    # the others' scores are the next seats' own, clockwise
    score = c["score"].reshape(-1, n)
    for k in (1, 2):
        assert np.array_equal(c[f"score_{k}"].reshape(-1, n), np.roll(score, -k, axis=1))
        assert np.array_equal(
            c[f"barrel_{k}"].reshape(-1, n), np.roll(c["barrel"].reshape(-1, n), -k, axis=1)
        )
    assert np.array_equal(c["role"], (c["seat"] - c["dealer"] - 1) % n)
    first = c["deal"] == 0
    assert (c["score"][first] == 0).all() and (c["barrel"][first] == -1).all()
    # the barrel: pinned at barrel.at while on it, at most attempts - 1 deals used
    on = c["barrel"] >= 0
    assert on.any() and (c["score"][on] == CLASSIC.barrel.at).all()
    assert c["barrel"].max() == CLASSIC.barrel.attempts - 1
    assert (c["score"][~on] < CLASSIC.barrel.at).all()
    dealer, game = c["dealer"][::n], c["game"][::n]
    same = game[1:] == game[:-1]
    assert ((dealer[1:] - dealer[:-1]) % n == 1)[same].all()  # the dealer turns clockwise


@pytest.mark.parametrize("preset", ["two_players", "four_players"])
def test_two_and_four_players_give_their_rows(preset):
    rules = load_rules(preset)
    n = rules.players
    st = game_states(rules, "strong", 30, 5, chunk=7)
    c = st.columns
    assert st.games == 30 and st.rows % n == 0
    assert [k for k in c if k.startswith("score")] == ["score"] + [
        f"score_{k}" for k in range(1, n)
    ]
    assert set(np.unique(c["role"])) == set(range(n))
    assert (c["won"].reshape(-1, n).sum(axis=1) == 1).all()
    assert len(np.unique(c["game"])) == 30 - st.unfinished


def test_a_game_state_reads_back_its_row(states):
    row = int(np.flatnonzero((states["barrel"] >= 0) & (states["seat"] == 1))[0])
    state = states.state(row)
    assert state.scores[1] == CLASSIC.barrel.at and state.barrel[1] == states["barrel"][row]
    assert state.scores[2] == states["score_1"][row] and state.dealer == states["dealer"][row]


# --- one deal applied --------------------------------------------------------------------------
def _outcomes(deals, n):
    out = {
        "declarer": [d["declarer"] for d in deals],
        "contract": [d["contract"] for d in deals],
        "made": [int(d["made"]) for d in deals],
        "conceded": [int(d["conceded"]) for d in deals],
        "special": [SPECIALS.index(d["special"]) for d in deals],
    }
    for s in range(n):
        out[f"delta_{s}"] = [d["deal_deltas"][s] for d in deals]
        out[f"bolt_{s}"] = [d["bolts"][s] for d in deals]
    return out


@pytest.mark.parametrize(
    ("preset", "games"),
    [("classic", 300), ("two_players", 60), ("four_players", 60), ("thousand_one", 100)],
)
def test_after_deal_replays_every_deal_of_traced_games_exactly(preset, games):
    rules = load_rules(preset)
    n = rules.players
    st = game_states(rules, "strong", games, 21)
    docs = play_games(rules, games, 21, ("strong",), trace=True).traces()
    deals = [
        d for doc in docs if not doc["unfinished"] for d in doc["deals"] if not d["reshuffled"]
    ]
    rows = np.flatnonzero(st["seat"] == 0)
    assert len(rows) == len(deals)
    before = [st.state(int(r)) for r in rows]
    after = after_deal(rules, before, _outcomes(deals, n))
    assert after.scores.tolist() == [d["scores"] for d in deals]
    last = np.r_[st["game"][rows][1:] != st["game"][rows][:-1], True]
    winners = [doc["winner"] for doc in docs if not doc["unfinished"]]
    assert after.winner[last].tolist() == winners
    assert (after.winner[~last] == -1).all()
    for k in np.flatnonzero(~last):  # the next deal's state, as read from the trace
        nxt = before[k + 1]
        got = after.state(int(k))
        assert (got.scores, got.barrel, got.bolts, got.concessions, got.falls, got.dealer) == (
            nxt.scores,
            nxt.barrel,
            nxt.bolts,
            nxt.concessions,
            nxt.falls,
            nxt.dealer,
        )


def test_after_deal_scores_a_barrel_win_and_a_barrel_fall():
    state = GameState(scores=(880, 500, 300), dealer=2, barrel=(2, -1, -1))
    outcomes = {
        "declarer": [0, 0, 1],
        "contract": [120, 120, 140],
        "made": [1, 0, 1],
        "conceded": [0, 0, 0],
        "delta_0": [120, -120, 20],
        "delta_1": [0, 30, 140],
        "delta_2": [0, 50, 10],
        "bolt_0": [0, 0, 0],
        "bolt_1": [1, 0, 0],
        "bolt_2": [1, 0, 0],
    }
    after = after_deal(CLASSIC, state, outcomes)
    assert after.winner.tolist() == [0, -1, -1]
    assert after.scores[0, 0] == 1000
    assert after.scores[1].tolist() == [760, 530, 350]  # the third deal on the barrel: a fall
    assert after.barrel[1].tolist() == [-1, -1, -1] and after.falls[1].tolist() == [1, 0, 0]
    assert after.scores[2].tolist() == [760, 640, 310] and after.dealer.tolist() == [0, 0, 0]
    model = EquityModel.load(shipped_path(CLASSIC))
    chance = win_chance_after(model, CLASSIC, state, outcomes)
    assert chance[0].tolist() == [1.0, 0.0, 0.0]
    going_on = model.win_chance(after.scores[1:], after.barrel[1:], after.dealer[1:])
    assert np.array_equal(chance[1:], going_on) and np.allclose(chance.sum(axis=1), 1)


def test_the_chance_before_a_deal_is_the_mean_chance_after_it(shipped):
    # the equity of a state is what the next deal leaves on average: checked on the
    # deals strong plays from the state (a hands run at those scores), within
    # MARTINGALE of every seat's chance (the model's own error included)
    hands = play_hands(CLASSIC, 6000, 3, ("strong",), scores=[600, 450, 300])
    columns = [*OUTCOME_COLUMNS, "special"]
    columns += [f"{k}_{s}" for k in ("delta", "bolt") for s in range(3)]
    for dealer in range(3):
        mine = hands.column("dealer") == dealer
        outcomes = {c: hands.column(c)[mine] for c in columns}
        state = GameState(scores=(600, 450, 300), dealer=dealer)
        after = win_chance_after(shipped, CLASSIC, state, outcomes).mean(axis=0)
        before = shipped.win_chance([state.scores], [state.barrel], [dealer])[0]
        assert np.abs(after - before).max() < MARTINGALE, (dealer, before, after)


# --- the model ----------------------------------------------------------------------------------
def test_the_chances_sum_to_one_and_rotate_with_the_seats(small):
    rng = np.random.default_rng(1)
    scores = rng.integers(-80, 176, (500, 3)) * 5
    barrel = np.where(rng.random((500, 3)) < 0.1, rng.integers(0, 3, (500, 3)), -1)
    scores[barrel >= 0] = 880
    dealer = rng.integers(0, 3, 500)
    p = small.win_chance(scores, barrel, dealer)
    assert np.allclose(p.sum(axis=1), 1) and (p > 0).all()
    for k in (1, 2):  # seats exchangeable: the same states a seat further give the same chances
        q = small.win_chance(
            np.roll(scores, k, axis=1), np.roll(barrel, k, axis=1), (dealer + k) % 3
        )
        assert np.allclose(q, np.roll(p, k, axis=1))


def test_seats_in_the_same_state_have_the_same_chance(states, small):
    scores = np.array([[0, 0, 0], [450, 450, 450], [880, 880, 880]])
    barrel = np.array([[-1] * 3, [-1] * 3, [1] * 3])
    plain = EquityModel.fit(states, terms=("score", "barrel"))  # no role: the seats alike
    assert np.allclose(plain.win_chance(scores, barrel, [0, 1, 2]), 1 / 3)
    # with roles: each seat's chance over the three dealers averages 1/3 exactly
    total = sum(small.win_chance(scores, barrel, [d] * 3) for d in range(3))
    assert np.allclose(total, 1)


def test_a_seat_at_990_or_on_the_barrel_is_far_ahead(shipped):
    p = shipped.win_chance(
        [[990, 0, 0], [880, 0, 0], [0, 990, 0]], [[-1] * 3, [0, -1, -1], [-1] * 3], [2, 2, 2]
    )
    assert p[0, 0] > 0.8 and p[1, 0] > 0.8 and p[2, 1] > 0.8


def test_the_own_chance_grows_with_the_own_score(shipped):
    own = np.arange(-300, CLASSIC.barrel.at, 25)
    for others in [(0, 0), (-100, 400), (600, 800), (850, 200)]:
        for dealer in range(3):
            scores = np.array([[s, *others] for s in own])
            p = shipped.win_chance(scores, -np.ones_like(scores), [dealer] * len(own))[:, 0]
            assert (np.diff(p) > -0.005).all(), (others, dealer, p)
            assert p[-1] > p[0] + 0.2


def test_the_knots_follow_the_rules():
    assert knots_for(CLASSIC).tolist()[:3] == [-300, -250, -200]
    assert 880 in knots_for(CLASSIC) and knots_for(CLASSIC)[-1] == 1000
    assert knots_for(load_rules("five_hundred_one"))[-1] == 501


def test_a_model_is_saved_and_read_back(small, tmp_path):
    path = tmp_path / "model"
    small.save(path)
    back = EquityModel.load(path)
    for name in ("knots", "f", "barrel", "role"):
        assert np.array_equal(getattr(back, name), getattr(small, name))
    assert (back.rules_hash, back.player, back.games, back.seeds) == (
        CLASSIC.rules_hash,
        "strong",
        300,
        (11,),
    )
    assert back.engine_version == sim.ENGINE_VERSION and back.terms == small.terms


# --- the shipped model -------------------------------------------------------------------------
def test_the_shipped_model_is_the_classic_rules_and_ships_with_the_package(shipped, monkeypatch):
    assert shipped.rules_hash == CLASSIC.rules_hash and shipped.player == "strong"
    assert shipped.engine_version == sim.ENGINE_VERSION and shipped.players == 3
    assert shipped.games >= 100_000 and shipped.seeds
    monkeypatch.setattr(jobs_equity, "fit_model", _no_fit)
    model = equity_model(CLASSIC)
    assert np.array_equal(model.f, shipped.f)
    renamed = dataclasses.replace(CLASSIC, name="mine")  # the same rules by another name
    assert np.array_equal(equity_model(renamed).f, shipped.f)
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["sim"]
    rel = shipped_path(CLASSIC).relative_to(ROOT / "sim")
    assert any(rel.match(p) for p in patterns), patterns


def _no_fit(*args, **kwargs):
    raise AssertionError("fitted, where a file was there to read")


def test_the_shipped_model_is_calibrated_on_held_out_games(shipped):
    held = game_states(CLASSIC, "strong", CALIBRATION_GAMES, CALIBRATION_SEED)
    table = calibration(shipped, held)
    big = table.filter(table["games"] >= 50)
    assert big.height >= 7
    assert (big["z"].abs() <= CALIBRATION_SE).all(), table
    assert ((big["low"] <= big["observed"]) & (big["observed"] <= big["high"])).all()
    scored = skill({"equity": shipped}, held)
    assert scored["log_loss"][1] < scored["log_loss"][0] - 0.05  # far better than 1/3


def test_another_rule_set_is_fitted_once_and_cached(monkeypatch, tmp_path):
    rules = load_rules("thousand_one")
    monkeypatch.setenv("THOUSAND_TABLES_DIR", str(tmp_path))
    monkeypatch.setattr(jobs_equity, "FIT_GAMES", 60)
    model = equity_model(rules)
    assert model.rules_hash == rules.rules_hash and model.games == 60
    assert jobs_equity.cache_path(rules).is_file()
    assert not list(tmp_path.glob(".*"))  # the temporary file was put in place
    monkeypatch.setattr(jobs_equity, "fit_model", _no_fit)
    assert np.array_equal(equity_model(rules).f, model.f)


def test_a_cache_that_cannot_be_written_fits_again(monkeypatch, tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv("THOUSAND_TABLES_DIR", str(blocked / "tables"))
    monkeypatch.setattr(jobs_equity, "FIT_GAMES", 40)
    assert equity_model(load_rules("two_players")).players == 2


# --- bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("scores", "barrel", "dealer", "message"),
    [
        ([[0, 0]], [[-1, -1]], [0], r"scores: an array of shape \(n, 3\)"),
        ([0, 0, 0], [-1, -1, -1], [0], r"scores: an array of shape \(n, 3\)"),
        ([[0, 0, 0]], [[-1, -1]], [0], r"barrel: an array of shape \(1, 3\)"),
        ([[0, 0, 0]], [[-1, -1, -1]], [0, 1], r"dealer: an array of shape \(1,\)"),
        ([[0, 0, 0]], [[-1, -1, -1]], [3], r"dealer: a seat 0\.\.2"),
        ([[0, 0, 0]], [[-2, -1, -1]], [0], "barrel: deals played on the barrel"),
        ([[0.5, 0, 0]], [[-1, -1, -1]], [0], "scores: whole numbers"),
    ],
)
def test_bad_arrays_are_refused(small, scores, barrel, dealer, message):
    with pytest.raises(ValueError, match=message):
        small.win_chance(scores, barrel, dealer)


def test_bad_states_and_outcomes_are_refused(states):
    with pytest.raises(ValueError, match="scores: one score per seat"):
        GameState(scores=(0,), dealer=0)
    with pytest.raises(ValueError, match=r"dealer: a seat 0\.\.2"):
        GameState(scores=(0, 0, 0), dealer=3)
    with pytest.raises(ValueError, match="barrel: 3 whole numbers"):
        GameState(scores=(0, 0, 0), dealer=0, barrel=(0, 1))
    state = GameState(scores=(0, 0, 0), dealer=0)
    with pytest.raises(ValueError, match="the state has 3 seats"):
        after_deal(load_rules("two_players"), state, {})
    with pytest.raises(ValueError, match="barrel: at most 2 deals"):
        after_deal(CLASSIC, GameState(scores=(880, 0, 0), dealer=0, barrel=(3, -1, -1)), {})
    good = {"declarer": [1], "contract": [100], "made": [1], "conceded": [0]}
    good |= {f"delta_{s}": [0] for s in range(3)} | {f"bolt_{s}": [0] for s in range(3)}
    with pytest.raises(ValueError, match="outcomes: no column 'delta_2'"):
        after_deal(CLASSIC, state, {k: v for k, v in good.items() if k != "delta_2"})
    with pytest.raises(ValueError, match="outcomes: column 'made' must be one value per result"):
        after_deal(CLASSIC, state, good | {"made": [1, 0]})
    with pytest.raises(ValueError, match=r"outcomes: declarer must be a seat 0\.\.2"):
        after_deal(CLASSIC, state, good | {"declarer": [3]})
    with pytest.raises(ValueError, match=r"state: one state, or one per result \(1\), got 2"):
        after_deal(CLASSIC, [state, state], good)
    with pytest.raises(ValueError, match="states: no column 'winner'"):
        EquityModel.fit({k: v for k, v in states.items() if k != "winner"}, CLASSIC)
    with pytest.raises(ValueError, match="rules: the rules of the games needed"):
        EquityModel.fit(dict(states))


def test_one_row_a_game_is_drawn_from_a_fixed_range_of_deals(states):
    rows = one_per_game(states, seed=3, horizon=20)
    assert len(np.unique(rows["game"])) == len(rows["game"]) <= 300
    assert rows["deal"].max() < 20
    assert set(rows) == set(states)
