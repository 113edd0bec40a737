"""The ``strong`` player: its cards are its fitted scores, the rest the heuristic's; its fit
is reproducible."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim.engine import decision_snapshots, play_hands
from sim.engine.actions import DECLARE, Decision
from sim.engine.params import rules_vector
from sim.engine.state import N_STATE, SNAP_KIND, SNAP_LEGAL, SNAP_N, SNAP_SEAT
from sim.engine.strategies.heuristic import heuristic_choose, heuristic_play
from sim.engine.strategies.registry import parse_params
from sim.engine.strategies.strong import N_CARD_FEATURES, card_features, card_row, strong_choose
from sim.engine.strategies.strong_weights import CARD_WEIGHTS
from sim.rules import load_rules

ROOT = Path(__file__).resolve().parents[1]


def test_a_card_is_the_highest_fitted_score_ties_to_the_heuristic():
    rules = load_rules("classic")
    P = rules_vector(rules)
    params = parse_params(["strong"], [])[0]
    checked = differs = 0
    for _k, snap in decision_snapshots(rules, 40, 5, ("strong",) * 3, (Decision.PLAY,)):
        S = snap[:N_STATE].copy()
        seat, n = int(snap[SNAP_SEAT]), int(snap[SNAP_N])
        legal = snap[SNAP_LEGAL : SNAP_LEGAL + 64].copy()
        plain = sum(1 << int(c) for c in legal[:n] if c < DECLARE)
        declaring = sum(1 << int(c - DECLARE) for c in legal[:n] if c >= DECLARE)
        h = heuristic_play(seat, S, P, plain, declaring)
        w = CARD_WEIGHTS[card_row(seat, S)]
        scores = []
        for code in legal[:n]:
            f = card_features(seat, S, P, int(code), h)
            assert len(f) == N_CARD_FEATURES
            assert f[0] == (1.0 if code == h else 0.0)
            scores.append(float(np.dot(w, f)))
        best = max(scores)
        tied = [int(c) for c, v in zip(legal[:n], scores, strict=True) if v == best]
        expected = h if h in tied else tied[0]
        got = strong_choose(Decision.PLAY, seat, S, P, legal, n, params, np.uint64(0))
        assert got == expected
        checked += 1
        differs += got != h
    # it is not the heuristic under another name, nor far from it
    assert checked > 300 and 0.05 * checked < differs < 0.6 * checked


def test_its_other_decisions_are_the_heuristics():
    rules = load_rules("ukraine_online")  # reshuffles, dark and golden deals, the barrel
    P = rules_vector(rules)
    params = parse_params(["strong"], [])[0]
    kinds = set()
    for _k, snap in decision_snapshots(rules, 60, 3, ("strong",) * 3):
        kind = int(snap[SNAP_KIND])
        if kind == Decision.PLAY:
            continue
        seat, n = int(snap[SNAP_SEAT]), int(snap[SNAP_N])
        legal = snap[SNAP_LEGAL : SNAP_LEGAL + 64].copy()
        tb = np.uint64(7)
        S = snap[:N_STATE]
        expected = heuristic_choose(kind, seat, S.copy(), P, legal, n, params, tb)
        assert strong_choose(kind, seat, S.copy(), P, legal, n, params, tb) == expected
        kinds.add(kind)
    assert {Decision.BID, Decision.CONTRACT, Decision.DISCARD} <= kinds


def test_with_two_players_it_plays_the_heuristics_cards():
    rules = load_rules("two_players")  # fitted on three hands: the weights lost 4.7 a deal
    P = rules_vector(rules)
    params = parse_params(["strong"], [])[0]
    checked = 0
    for _k, snap in decision_snapshots(rules, 30, 4, ("strong",) * 2, (Decision.PLAY,)):
        seat, n = int(snap[SNAP_SEAT]), int(snap[SNAP_N])
        legal = snap[SNAP_LEGAL : SNAP_LEGAL + 64].copy()
        S = snap[:N_STATE]
        tb = np.uint64(0)
        expected = heuristic_choose(Decision.PLAY, seat, S.copy(), P, legal, n, params, tb)
        assert strong_choose(Decision.PLAY, seat, S.copy(), P, legal, n, params, tb) == expected
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("preset", ["classic", "two_players", "four_players", "ukraine_online"])
def test_it_plays_whole_deals_on_every_player_count(preset):
    rules = load_rules(preset)
    batch = play_hands(rules, 300, 2, ("strong",) * rules.players)
    assert batch.column("error").max() == 0
    assert 0.2 < batch.column("made").mean() < 0.9


def _fit(tmp_path: Path, name: str) -> str:
    out = tmp_path / name
    subprocess.run(
        [sys.executable, "-m", "benchmarks.strong_fit", "--rounds", "heuristic:2:1",
         "--data-dir", str(tmp_path / f"{name}.data"), "--jobs", "1", "--out", str(out)],
        cwd=ROOT, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return out.read_text()


def test_the_fit_is_reproducible_from_its_seeds(tmp_path):
    first = _fit(tmp_path, "a.py")
    assert _fit(tmp_path, "b.py") == first
    ns: dict = {}
    exec(first, ns)
    assert ns["CARD_WEIGHTS"].shape == CARD_WEIGHTS.shape
    assert np.isfinite(ns["CARD_WEIGHTS"]).all()
