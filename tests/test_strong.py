"""The ``strong`` player: its cards are its fitted scores, the rest the heuristic's; its fit
is reproducible."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim.cards import hand_mask, parse_card
from sim.engine import decision_snapshots, play_hands
from sim.engine.actions import DECLARE, Decision
from sim.engine.params import rules_vector
from sim.engine.state import (
    N_STATE,
    S_DECL,
    S_GIVE1,
    S_HAND0,
    SNAP_KIND,
    SNAP_LEGAL,
    SNAP_N,
    SNAP_SEAT,
)
from sim.engine.strategies import strong
from sim.engine.strategies.discard import DISCARD_CANDIDATES, by_cost
from sim.engine.strategies.heuristic import heuristic_choose, heuristic_play
from sim.engine.strategies.learned import NOT_FITTED, learned_concede, learned_contract
from sim.engine.strategies.registry import parse_params
from sim.engine.strategies.strong import N_CARD_FEATURES, card_features, card_row, strong_choose
from sim.engine.strategies.strong_discard import (
    DISCARD_FEATURE_NAMES,
    N_DISCARD_FEATURES,
    discard_features,
    discard_view,
)
from sim.engine.strategies.strong_weights import CARD_WEIGHTS, DISCARD_WEIGHTS
from sim.rules import load_rules

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("preset", ["classic", "two_players"])
def test_a_card_is_the_highest_fitted_score_ties_to_the_heuristic(preset):
    rules = load_rules(preset)
    P = rules_vector(rules)
    params = parse_params(["strong"], [])[0]
    checked = differs = 0
    players = ("strong",) * rules.players
    for _k, snap in decision_snapshots(rules, 40, 5, players, (Decision.PLAY,)):
        S = snap[:N_STATE].copy()
        seat, n = int(snap[SNAP_SEAT]), int(snap[SNAP_N])
        legal = snap[SNAP_LEGAL : SNAP_LEGAL + 64].copy()
        plain = sum(1 << int(c) for c in legal[:n] if c < DECLARE)
        declaring = sum(1 << int(c - DECLARE) for c in legal[:n] if c >= DECLARE)
        h = heuristic_play(seat, S, P, plain, declaring)
        r = card_row(seat, S)
        if rules.players == 2:  # the two-hand rows, every one fitted
            r += strong.TWO_HANDS
            assert strong.CARD_NET_ROWS[r]
        scores = []
        for code in legal[:n]:
            f = np.array(card_features(seat, S, P, int(code), h))
            assert len(f) == N_CARD_FEATURES
            assert f[0] == (1.0 if code == h else 0.0)
            if strong.CARD_NET_ROWS[r]:  # the card network, as the player reads it
                hidden = np.maximum(strong.CARD_NET_B1[r] + strong.CARD_NET_W1[r] @ f, 0.0)
                bonus = strong.CARD_NET_BONUS[r] if code == h else 0.0
                scores.append(float(bonus + strong.CARD_NET_W2[r] @ hidden))
            else:
                scores.append(float(np.dot(CARD_WEIGHTS[r], f)))
        best = max(scores)
        tied = [int(c) for c, v in zip(legal[:n], scores, strict=True) if v == best]
        expected = h if h in tied else tied[0]
        got = strong_choose(Decision.PLAY, seat, S, P, legal, n, params, np.uint64(0))
        assert got == expected
        checked += 1
        differs += got != h
    # it is not the heuristic under another name, nor far from it
    assert checked > 250 and 0.05 * checked < differs < 0.6 * checked


def test_its_other_decisions_are_the_heuristics_and_the_networks():
    rules = load_rules("ukraine_online")  # reshuffles, dark and golden deals, the barrel
    P = rules_vector(rules)
    params = parse_params(["strong"], [])[0]
    kinds = set()
    for _k, snap in decision_snapshots(rules, 60, 3, ("strong",) * 3):
        kind = int(snap[SNAP_KIND])
        if kind in (Decision.PLAY, Decision.DISCARD):  # fitted (tested below)
            continue
        seat, n = int(snap[SNAP_SEAT]), int(snap[SNAP_N])
        legal = snap[SNAP_LEGAL : SNAP_LEGAL + 64].copy()
        tb = np.uint64(7)
        S = snap[:N_STATE]
        expected = heuristic_choose(kind, seat, S.copy(), P, legal, n, params, tb)
        if kind == Decision.CONTRACT:  # learned (test_teach.py checks the network)
            expected = learned_contract(S.copy(), P, int(legal[0]), n)
        elif kind == Decision.CONCEDE and learned_concede(S.copy(), P, 0.0) != NOT_FITTED:
            expected = learned_concede(S.copy(), P, params[1])  # concede_margin's slot
        assert strong_choose(kind, seat, S.copy(), P, legal, n, params, tb) == expected
        kinds.add(kind)
    assert {Decision.BID, Decision.CONTRACT, Decision.CONCEDE} <= kinds


@pytest.mark.parametrize("preset", ["classic", "two_players"])
def test_the_learned_contract_is_the_first_best_of_each_contract_alone(preset):
    """``learned_contract`` sums up to LEVELS_AT_ONCE contracts' reach side by side; its
    answer is the first best ``c (2 p - 1)`` of the reach computed one contract at a time."""
    from sim.engine.strategies.learned import LEVELS_AT_ONCE, contract_reach

    rules = load_rules(preset)
    P = rules_vector(rules)
    seen = 0
    for _k, snap in decision_snapshots(
        rules, 150, 5, ("strong",) * rules.players, (Decision.CONTRACT,)
    ):
        n = int(snap[SNAP_N])
        legal = snap[SNAP_LEGAL : SNAP_LEGAL + 64].copy()
        S = snap[:N_STATE]
        scores = [c * (2.0 * contract_reach(S.copy(), P, int(c)) - 1.0) for c in legal[:n]]
        want = int(legal[int(np.argmax(scores))])  # the first of the best
        assert learned_contract(S.copy(), P, int(legal[0]), n) == want
        seen += n > LEVELS_AT_ONCE  # contracts summed in more than one group
    assert seen > 10


def _fitted_discard(S, P) -> int:
    """The discard as documented: the best fitted score of the heuristic's 5 cheapest."""
    hand = int(S[S_HAND0 + S[S_DECL]])
    cards = np.empty(24, dtype=np.int64)
    costs = np.empty(24, dtype=np.int64)
    n = by_cost(hand, P, cards, costs)
    f = np.empty(N_DISCARD_FEATURES)
    scores = []
    for i in range(min(n, DISCARD_CANDIDATES)):
        discard_features(hand, int(cards[i]), i == 0, P, f)
        scores.append(float(np.dot(DISCARD_WEIGHTS, f)))
    return int(cards[int(np.argmax(scores))])  # ties: the cheaper


def test_the_discard_is_the_best_fitted_score_of_the_heuristics_cheapest():
    rules = load_rules("classic")
    P = rules_vector(rules)
    params = parse_params(["strong"], [])[0]
    checked = differs = 0
    for _k, snap in decision_snapshots(rules, 400, 6, ("strong",) * 3, (Decision.DISCARD,)):
        seat, n = int(snap[SNAP_SEAT]), int(snap[SNAP_N])
        legal = snap[SNAP_LEGAL : SNAP_LEGAL + 64].copy()
        S = snap[:N_STATE]
        tb = np.uint64(0)
        got = strong_choose(Decision.DISCARD, seat, S.copy(), P, legal, n, params, tb)
        assert got == _fitted_discard(S, P)
        h = heuristic_choose(Decision.DISCARD, seat, S.copy(), P, legal, n, params, tb)
        checked += 1
        differs += got != h
    # the weights were fitted: not the heuristic's cheapest card under another name (it
    # gives another card about 70 % of the time), nor blind to it
    assert checked > 300 and 0.05 * checked < differs < 0.95 * checked


def test_the_discard_features():
    P = rules_vector(load_rules("classic"))
    card = {c: parse_card(c) for c in ("9S", "JD", "QC", "9H")}
    hand = hand_mask("9S KH QH AC TC JD TD 9H JC QC")
    f = dict(zip(DISCARD_FEATURE_NAMES, discard_view(hand, card["9S"], True, P), strict=True))
    assert f["heuristic_card"] == 1 and f["points"] == 0 and f["suit_left"] == 0
    assert f["void"] == f["void_with_marriage"] == 1  # a void, and hearts to name trump
    assert f["master"] == 0 and f["higher_out"] == 5 / 6 and f["marriage_suit"] == 0
    assert f["suit_points_out"] == f["void_points_out"] == 30 / 30  # J Q K 10 A of spades
    f = dict(zip(DISCARD_FEATURE_NAMES, discard_view(hand, card["JD"], False, P), strict=True))
    assert f["heuristic_card"] == 0 and f["points"] == 0.2 and f["void"] == 0
    assert f["bares_ten"] == 1 and f["ace_in_suit"] == 0  # the ten alone, the ace out
    assert f["higher_out"] == 3 / 6 and f["suit_points_left"] == 10 / 30
    f = dict(zip(DISCARD_FEATURE_NAMES, discard_view(hand, card["QC"], False, P), strict=True))
    assert f["lone_half"] == 1 and f["ace_in_suit"] == 1 and f["marriage_suit"] == 0
    f = dict(zip(DISCARD_FEATURE_NAMES, discard_view(hand, card["9H"], False, P), strict=True))
    assert f["marriage_suit"] == 1 and f["lone_half"] == 0 and f["void_with_marriage"] == 0


def test_with_two_players_it_plays_its_two_hand_cards_and_gives_by_the_network():
    # its cards by the two-hand rows (the three-hand weights lost 4.7 a deal with two;
    # each card's score is checked above); the card given is the one of the heuristic's
    # cheapest whose kept hand the two-hand contract network values most (computed here
    # from its reach, contract by contract)
    from sim.engine.strategies.learned import contract_reach
    from sim.engine.talon import contract_range

    rules = load_rules("two_players")
    P = rules_vector(rules)
    params = parse_params(["strong"], [])[0]
    cards_out = np.empty(24, dtype=np.int64)
    costs = np.empty(24, dtype=np.int64)
    played = gives = not_cheapest = not_heuristic = 0
    kinds = (Decision.PLAY, Decision.DISCARD)
    for _k, snap in decision_snapshots(rules, 60, 4, ("strong",) * 2, kinds):
        kind, seat, n = int(snap[SNAP_KIND]), int(snap[SNAP_SEAT]), int(snap[SNAP_N])
        legal = snap[SNAP_LEGAL : SNAP_LEGAL + 64].copy()
        S = snap[:N_STATE]
        tb = np.uint64(0)
        got = strong_choose(kind, seat, S.copy(), P, legal, n, params, tb)
        if kind == Decision.PLAY:
            plain = sum(1 << int(c) for c in legal[:n] if c < DECLARE)
            declaring = sum(1 << int(c - DECLARE) for c in legal[:n] if c >= DECLARE)
            assert got == strong.strong_play(seat, S.copy(), P, plain, declaring)
            not_heuristic += got != heuristic_choose(kind, seat, S.copy(), P, legal, n, params, tb)
            played += 1
            continue
        hand = int(S[S_HAND0 + seat])
        m = by_cost(hand, P, cards_out, costs)
        values = []
        for card in cards_out[: min(m, DISCARD_CANDIDATES)]:
            T = S.copy()
            T[S_GIVE1] = card
            T[S_HAND0 + seat] = hand & ~(1 << int(card))
            lo, count = contract_range(T, P)
            values.append(max(c * (2 * contract_reach(T, P, c) - 1)
                              for c in lo + 5 * np.arange(count)))  # fmt: skip
        assert got == cards_out[int(np.argmax(values))]
        gives += 1
        not_cheapest += got != cards_out[0]
    assert played > 100 and gives > 20 and not_cheapest > 0
    assert 0.05 * played < not_heuristic < 0.6 * played  # its own cards, not the heuristic's


@pytest.mark.parametrize("preset", ["classic", "two_players", "four_players", "ukraine_online"])
def test_it_plays_whole_deals_on_every_player_count(preset):
    rules = load_rules(preset)
    batch = play_hands(rules, 300, 2, ("strong",) * rules.players)
    assert batch.column("error").max() == 0
    assert 0.2 < batch.column("made").mean() < 0.9


def _fit(tmp_path: Path, name: str) -> str:
    out = tmp_path / name
    subprocess.run(
        [sys.executable, "-m", "training.strong_fit", "--rounds", "heuristic:2:1",
         "--data-dir", str(tmp_path / f"{name}.data"), "--jobs", "1", "--out", str(out)],
        cwd=ROOT, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return out.read_text()


def test_the_network_fit_is_reproducible_and_writes_the_players_data_file(tmp_path):
    def fit(name: str) -> dict:
        out = tmp_path / f"{name}.npz"
        subprocess.run(
            [sys.executable, "-m", "training.strong_fit", "--rounds", "heuristic:2:1",
             "--data-dir", str(tmp_path / "data"), "--jobs", "1", "--model", "net",
             "--hidden", "3", "--net-out", str(out), "--out", str(tmp_path / "unused.py")],
            cwd=ROOT, check=True, capture_output=True, text=True,
        )  # fmt: skip
        with np.load(out) as data:
            return {k: data[k] for k in data.files}

    first = fit("a")
    second = fit("b")
    assert first.keys() == {"w1", "b1", "w2", "bonus"}
    for k, v in first.items():
        assert np.array_equal(v, second[k]), k
    assert first["w1"].shape == (4, 3, N_CARD_FEATURES) and np.isfinite(first["w1"]).all()
    assert np.abs(first["w2"]).sum() > 0
    assert not (tmp_path / "unused.py").exists()  # the line's weights are left alone


def test_the_fit_is_reproducible_from_its_seeds(tmp_path):
    first = _fit(tmp_path, "a.py")
    assert _fit(tmp_path, "b.py") == first
    ns: dict = {}
    exec(first, ns)
    assert ns["CARD_WEIGHTS"].shape == CARD_WEIGHTS.shape
    assert np.isfinite(ns["CARD_WEIGHTS"]).all()
    assert np.array_equal(ns["DISCARD_WEIGHTS"], DISCARD_WEIGHTS)  # left as they are


def _discard_fit(tmp_path: Path, name: str) -> tuple[str, str]:
    out = tmp_path / name
    out.write_text((ROOT / "sim/engine/strategies/strong_weights.py").read_text())
    run = subprocess.run(
        [sys.executable, "-m", "training.strong_discard_fit", "--deals", "120", "--seed", "3",
         "--worlds", "2", "--data-dir", str(tmp_path / f"{name}.data"), "--jobs", "1",
         "--out", str(out)],
        cwd=ROOT, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return out.read_text(), run.stdout


def test_the_discard_fit_is_reproducible_and_keeps_the_card_weights(tmp_path):
    first, log = _discard_fit(tmp_path, "a.py")
    assert _discard_fit(tmp_path, "b.py")[0] == first
    assert "held-out regret" in log and "wrote" in log
    ns: dict = {}
    exec(first, ns)
    assert np.array_equal(ns["CARD_WEIGHTS"], CARD_WEIGHTS)
    assert ns["DISCARD_WEIGHTS"].shape == (N_DISCARD_FEATURES,)
    assert np.isfinite(ns["DISCARD_WEIGHTS"]).all()
    assert not np.array_equal(ns["DISCARD_WEIGHTS"], DISCARD_WEIGHTS)  # refitted on 120 deals
