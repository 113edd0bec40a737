"""Whole games (fast loop): invariants under every preset, determinism, traces."""

import numpy as np
import pytest
from support import PRESETS

from sim.engine.game import GC, MAX_STINTS, OUTCOMES, play_games
from sim.rules import load_rules
from sim.runs.games import games_frame, stints_frame

_PENALTY_EVENTS = {
    "bolt_penalty",
    "samosval",
    "barrel_on",
    "barrel_fall",
    "barrel_win",
    "concession_penalty",
    "golden_reset",
}


def _reaches(score, rules):
    t = rules.game.target
    return score > t if rules.game.target_strict else score >= t


@pytest.mark.parametrize("preset", PRESETS)
def test_game_invariants(preset):
    rules = load_rules(preset)
    n = rules.players
    batch = play_games(rules, 300, seed=21, trace=True)
    frame = games_frame(batch)
    docs = batch.traces()
    for k, doc in enumerate(docs):
        row = batch.out[k]
        finished = not doc["unfinished"]
        assert finished  # heuristic players always finish within the safety cap
        winner = doc["winner"]
        final = doc["deals"][-1]["scores"]
        assert [int(row[GC[f"score_{s}"]]) for s in range(n)] == final
        # exactly one winner, at or over the target
        assert winner in range(n) and _reaches(final[winner], rules)
        if rules.barrel.at > 0:
            assert ["barrel_win", winner] in doc["deals"][-1]["events"]
            # before the winning deal every score above barrel.at was pinned there
            for d in doc["deals"][:-1]:
                assert max(d["scores"]) <= rules.barrel.at
        # the deal counter and the dealer rotation
        played = [d for d in doc["deals"] if not d["reshuffled"]]
        assert len(played) == row[GC["n_deals"]]
        dealers = [d["dealer"] for d in played]
        assert dealers == [(doc["first_dealer"] + i) % n for i in range(len(played))]
        # the 4-player dealer sits out: never declarer, never a bolt
        if n == 4:
            assert all(d["declarer"] != d["dealer"] and d["bolts"][d["dealer"]] == 0
                       for d in played)  # fmt: skip
        # golden deals open the game; dark ones are counted per declarer
        specials = [d["special"] for d in played]
        n_golden = specials.count("golden")
        assert row[GC["golden_deals"]] == n_golden
        if rules.golden.enabled:
            assert specials[:n] == ["golden"] * min(n, len(played))
            assert n_golden % n == 0 or n_golden == len(played)
        else:
            assert n_golden == 0
        dark = [d for d in played if d["special"] == "dark"]
        assert row[GC["dark_deals"]] == len(dark)
        for s in range(n):
            won = sum(1 for d in dark if d["declarer"] == s and d["made"])
            assert (row[GC[f"dark_won_{s}"]], row[GC[f"dark_lost_{s}"]]) == (
                won,
                sum(1 for d in dark if d["declarer"] == s) - won,
            )
        resets = [d for d in doc["deals"] if ["golden_reset"] in d["events"]]
        assert bool(row[GC["golden_reset"]]) == bool(resets)
        for d in resets:
            assert d["scores"] == [0] * n and d["events"][-1] == ["golden_reset"]
        # scores follow from deltas and events when nobody is pinned or penalised
        prev = [0] * n
        on_barrel = [False] * n
        entries = [0] * n
        for d in doc["deals"]:
            kinds = {e[0] for e in d["events"]}
            if not d["reshuffled"] and not (kinds & _PENALTY_EVENTS):
                for s in range(n):
                    expect = prev[s] + (0 if on_barrel[s] else d["deal_deltas"][s])
                    assert d["scores"][s] == expect
            for e in d["events"]:
                if e[0] == "barrel_on":
                    on_barrel[e[1]] = True
                    entries[e[1]] += 1
                    assert d["scores"][e[1]] == rules.barrel.at
                elif e[0] in ("barrel_fall", "barrel_win"):
                    on_barrel[e[1]] = False
                    if e[0] == "barrel_fall" and e[2] == "simultaneous":
                        entries[e[1]] += 1  # reached the barrel, fell at once
                elif e[0] == "golden_reset":
                    on_barrel = [False] * n
            prev = d["scores"]
        assert entries == [int(row[GC[f"barrel_entries_{s}"]]) for s in range(n)]
    # games.parquet keeps the game's seats (2 players: the _2 columns are null)
    assert f"score_{n - 1}" in frame.columns and "score_4" not in frame.columns
    if n == 2:
        assert frame["score_2"].null_count() == frame.height
    if n < 4:
        assert "score_3" not in frame.columns


def test_golden_round_resets_in_play():
    """Under ukraine_online (golden on, reset if nobody makes 120) resets do happen, and
    only after the whole golden round of 3 deals."""
    batch = play_games(load_rules("ukraine_online"), 400, seed=3, trace=True)
    resets = 0
    for doc in batch.traces():
        played = [d for d in doc["deals"] if not d["reshuffled"]]
        for i, d in enumerate(played):
            if ["golden_reset"] in d["events"]:
                resets += 1
                assert i == 2 and not any(x["made"] for x in played[:3])
    assert resets == int(batch.column("golden_reset").sum()) > 0


def test_bank_payoffs():
    rules = load_rules("classic").replace(game__bank=100)
    frame = games_frame(play_games(rules, 500, seed=6))
    pay = frame.select([f"bank_{s}" for s in range(3)]).to_numpy()
    assert np.allclose(pay.sum(axis=1), 0)  # the winner takes what the last pays
    won = pay[np.arange(500), frame["winner"].to_numpy()]
    assert (won == 100).all()
    scores = frame.select([f"score_{s}" for s in range(3)]).to_numpy()
    last = scores.argmin(axis=1)
    assert (pay[np.arange(500), last] < 0).all()
    assert (games_frame(play_games(load_rules("classic"), 50, seed=6))["bank_0"] == 0).all()


def test_stints_are_consistent_with_games():
    rules = load_rules("classic")
    batch = play_games(rules, 2000, seed=5)
    games = games_frame(batch)
    stints = stints_frame(batch)
    assert games.height == 2000 and set(stints["outcome"].unique()) <= set(OUTCOMES)
    assert (batch.column("n_stints") <= MAX_STINTS).all()
    per_game = stints.group_by("game_id").len()
    entries = (
        games.select("game_id", total=sum(games[f"barrel_entries_{s}"] for s in range(3)))
        .join(per_game, on="game_id", how="left")
        .fill_null(0)
    )
    assert (entries["total"] == entries["len"]).all()
    wins = stints.filter(stints["outcome"] == "won")
    assert wins.height == 2000  # every classic game ends with one barrel win
    assert (
        wins.join(games, on="game_id")["seat"] == wins.join(games, on="game_id")["winner"]
    ).all()


def test_games_are_reproducible_whatever_the_chunks():
    rules = load_rules("thousand_one")
    whole = play_games(rules, 600, seed=9)
    parts = np.concatenate([play_games(rules, 200, seed=9, start=s).out for s in (0, 200, 400)])
    assert np.array_equal(whole.out, parts)
    assert not np.array_equal(play_games(rules, 600, seed=10).out, whole.out)


def test_first_dealer_can_be_fixed_and_is_otherwise_drawn():
    rules = load_rules("classic")
    fixed = play_games(rules, 300, seed=2, first_dealer=1)
    assert (fixed.column("first_dealer") == 1).all()
    drawn = play_games(rules, 300, seed=2).column("first_dealer")
    assert set(np.unique(drawn)) == {0, 1, 2}


def test_no_barrel_game_ends_at_the_target():
    rules = load_rules("five_hundred_one")
    batch = play_games(rules, 300, seed=4)
    assert batch.column("unfinished").sum() == 0
    w = batch.column("winner")
    scores = np.stack([batch.column(f"score_{s}") for s in range(3)], axis=1)
    assert (scores[np.arange(300), w] >= 501).all()
    assert (batch.column("barrel_entries_0") == 0).all()


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="strategies"):
        play_games(load_rules("two_players"), 1, seed=0, strategies=("random",) * 3)
    with pytest.raises(ValueError, match="first_dealer"):
        play_games(load_rules("four_players"), 1, seed=0, first_dealer=4)
