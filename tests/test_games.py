"""Whole games (fast loop): invariants under every 3-player preset, determinism, traces."""

import numpy as np
import pytest
from presets import PRESETS_3P

from sim.game import GC, MAX_STINTS, OUTCOMES, games_frame, play_games, stints_frame
from sim.rules import load_rules

PLAYABLE = [
    p for p in PRESETS_3P if not (load_rules(p).golden.enabled or load_rules(p).dark.enabled)
]


def _reaches(score, rules):
    t = rules.game.target
    return score > t if rules.game.target_strict else score >= t


@pytest.mark.parametrize("preset", PLAYABLE)
def test_game_invariants(preset):
    rules = load_rules(preset)
    batch = play_games(rules, 300, seed=21, trace=True)
    docs = batch.traces()
    for k, doc in enumerate(docs):
        row = batch.out[k]
        finished = not doc["unfinished"]
        assert finished  # heuristic players always finish within the safety cap
        winner = doc["winner"]
        final = doc["deals"][-1]["scores"]
        assert [int(row[GC[f"score_{s}"]]) for s in range(3)] == final
        # exactly one winner, at or over the target
        assert winner in (0, 1, 2) and _reaches(final[winner], rules)
        if rules.barrel.at > 0:
            assert ["barrel_win", winner] in doc["deals"][-1]["events"]
            # before the winning deal every score above barrel.at was pinned there
            for d in doc["deals"][:-1]:
                assert max(d["scores"]) <= rules.barrel.at
        # the deal counter and the dealer rotation
        played = [d for d in doc["deals"] if not d["reshuffled"]]
        assert len(played) == row[GC["n_deals"]]
        dealers = [d["dealer"] for d in played]
        assert dealers == [(doc["first_dealer"] + i) % 3 for i in range(len(played))]
        # scores follow from deltas and events when nobody is pinned or penalised
        prev = [0, 0, 0]
        on_barrel = [False, False, False]
        entries = [0, 0, 0]
        for d in doc["deals"]:
            kinds = {e[0] for e in d["events"]}
            if not d["reshuffled"] and not (
                kinds
                & {
                    "bolt_penalty",
                    "samosval",
                    "barrel_on",
                    "barrel_fall",
                    "barrel_win",
                    "concession_penalty",
                }
            ):
                for s in range(3):
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
            prev = d["scores"]
        assert entries == [int(row[GC[f"barrel_entries_{s}"]]) for s in range(3)]


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


def test_unsupported_rules_are_refused():
    with pytest.raises(ValueError, match="golden"):
        play_games(load_rules("ukraine_online"), 1, seed=0)
    with pytest.raises(ValueError, match="players"):
        play_games(load_rules("two_players"), 1, seed=0)
