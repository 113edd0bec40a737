"""The test every player passes, over the players' records: a new record is checked here
the day it is added, with no other edit (``sim.players``).

For every player and every preset (two, three and four players):

* every move it makes is legal as the reference engine judges it, deal by deal: the
  fast engine's traces are replayed move by move through the reference engine
  (:func:`support.replay`), which must allow each move and reach the same trace;
* its choices ignore the cards it cannot see: at the decisions of randomly played
  deals, the hidden cards (the other hands, the set-aside talon) are dealt anew and
  the player must decide the same (the cheater, whose record says it sees every card,
  must not: the check can fail);
* the same seed gives the same bytes, also when the deals are played in two chunks;
* a player whose record says it is fast is timed by ``make bench`` against its class.
"""

from __future__ import annotations

import functools
import json
from dataclasses import replace

import numpy as np
import pytest
from support import PRESETS, decide, redistribute, replay, sizes

from sim.engine.api import decision_snapshots, play_hands
from sim.engine.params import rules_vector
from sim.engine.reshuffle import HAND_REASONS
from sim.engine.state import N_STATE, SNAP_KIND, SNAP_LEGAL, SNAP_N, SNAP_SEAT
from sim.engine.strategies.registry import parse_params
from sim.players import FAST_HANDS_PER_S, PLAYERS, RECORDS, check_records, fast
from sim.rules import Rules, load_rules

NAMES = list(PLAYERS)
RITUAL_KEYS = ("bottom_nines", "jack_moved")  # the bottom-card ritual's keys: the fast trace's


def _deals(name: str, quick: bool) -> int:
    """Deals per preset: the sampling players play a few a second."""
    if fast(name):
        return 30 if quick else 400
    return 2 if quick else 12


@sizes(True, False, "quick")
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("name", NAMES)
def test_every_move_is_legal_as_the_reference_engine_judges_it(name, preset, quick, monkeypatch):
    rules = load_rules(preset)
    batch = play_hands(rules, _deals(name, quick), 71, (name,), trace=True)
    replayed = 0
    for tr in batch.traces():
        if tr["reshuffle"] is not None and tr["reshuffle"]["reason"] not in HAND_REASONS:
            continue  # demanded after the auction: the trace keeps no bids to replay
        got = replay(rules, tr, monkeypatch)
        shown = {k: v for k, v in tr.items() if k not in RITUAL_KEYS}
        assert got == shown, (name, preset, tr["deal_id"])
        replayed += 1
    assert replayed >= _deals(name, quick) // 2


def test_the_replay_refuses_an_illegal_move(monkeypatch):
    rules = load_rules("classic")
    (tr,) = [t for t in play_hands(rules, 6, 3, ("heuristic",), trace=True).traces()
             if t["reshuffle"] is None and t.get("tricks")][:1]  # fmt: skip
    bad = json.loads(json.dumps(tr))
    first = bad["tricks"][0]  # the leader leads a card it does not hold
    held = {c for h in bad["hands"] for c in h} | set(bad["talon"])
    mine = set(bad["hands"][first["leader"]])
    first["cards"][0] = sorted(held - mine - set(first["cards"]))[0]
    with pytest.raises(AssertionError, match="not legal"):
        replay(rules, bad, monkeypatch)


def _rules(preset: str) -> Rules:
    if preset == "classic_discards_face_down":  # the other defender's card is hidden too
        return load_rules("classic").replace(talon__discard_face_down=True)
    return load_rules(preset)


@functools.cache
def _states(preset: str, deals: int) -> list[np.ndarray]:
    """The decisions of ``deals`` randomly played deals (shared by every player)."""
    return [snap.copy() for _deal, snap in decision_snapshots(_rules(preset), deals, seed=31)]


def _checked(name: str, preset: str, states: int, swaps: int) -> tuple[int, int]:
    """Hidden deals on which the choice changed, and how many were tried."""
    rules = _rules(preset)
    P = rules_vector(rules)
    params = parse_params([name], [])[0]
    rng = np.random.default_rng(12)
    asked = changed = tried = 0
    for snap in _states(preset, 20 if states <= 300 else 200):
        S = snap[:N_STATE].copy()
        kind, seat, n = int(snap[SNAP_KIND]), int(snap[SNAP_SEAT]), int(snap[SNAP_N])
        legal = snap[SNAP_LEGAL : SNAP_LEGAL + 64].copy()
        choice = decide(name, kind, seat, S, P, legal, n, params)
        assert choice in legal[:n], (name, kind, choice)
        for _ in range(swaps):
            T = redistribute(S, seat, P, rng)
            if T is None:
                continue
            tried += 1
            changed += decide(name, kind, seat, T, P, legal, n, params) != choice
        asked += 1
        if asked == states:
            break
    return changed, tried


@sizes(True, False, "quick")
@pytest.mark.parametrize("preset", [*PRESETS, "classic_discards_face_down"])
@pytest.mark.parametrize("name", [n for n in NAMES if not PLAYERS[n].sees_all_cards])
def test_choices_ignore_the_cards_a_player_cannot_see(name, preset, quick):
    states = (300 if quick else 2000) if fast(name) else (12 if quick else 60)
    changed, tried = _checked(name, preset, states, 4 if fast(name) else 2)
    assert tried > states // 2  # hidden cards were dealt anew at most decisions
    assert changed == 0


def test_the_hidden_card_check_catches_a_player_that_sees_them():
    seeing = [n for n in NAMES if PLAYERS[n].sees_all_cards]
    assert seeing == ["cheater"]
    changed, tried = _checked("cheater", "classic", 40, 3)
    assert tried > 20 and changed > 0


@pytest.mark.parametrize("name", NAMES)
def test_the_same_seed_gives_the_same_bytes(name):
    rules = load_rules("four_players" if fast(name) else "classic")
    n = 40 if fast(name) else 3
    strategies = (name,)
    whole = play_hands(rules, n, 5, strategies, trace=True)
    again = play_hands(rules, n, 5, strategies, trace=True)
    first = play_hands(rules, n // 2, 5, strategies, trace=True)
    rest = play_hands(rules, n - n // 2, 5, strategies, trace=True, start=n // 2)
    text = json.dumps(whole.traces())
    assert text == json.dumps(again.traces())
    assert text == json.dumps(first.traces() + rest.traces())
    rows = whole.out.tobytes()  # every output column of every deal
    assert rows == again.out.tobytes()
    assert rows == np.concatenate([first.out, rest.out]).tobytes()


def test_every_fast_player_is_timed_against_its_class():
    from sim.runs.bench import bench_players, slow_fast_players

    fast_ones = [n for n in NAMES if fast(n)]
    assert bench_players() == fast_ones and "heuristic" in fast_ones and "pimc" not in fast_ones
    at = {f"hands_{n}": {"hands_per_s_1_threads": float(FAST_HANDS_PER_S)} for n in fast_ones}
    assert slow_fast_players(at) == []
    below = {**at, "hands_strong": {"hands_per_s_1_threads": FAST_HANDS_PER_S - 1.0}}
    (line,) = slow_fast_players(below)
    assert line.startswith("strong: ")


def test_the_lists_that_name_players_come_from_the_records():
    from sim.engine.strategies.addresses import ENTRIES
    from sim.jobs.safebids import DEFAULT_PLAYERS, FAST
    from sim.players import ADVISORS, DEFAULT, PAR
    from views.safebids import FAST_DEFENCE

    assert FAST == tuple(n for n in NAMES if PLAYERS[n].speed == "fast")
    assert ADVISORS[0] == DEFAULT and ADVISORS[-1] == PAR
    assert set(ADVISORS[:-1]) == {n for n in NAMES if PLAYERS[n].advises}
    assert DEFAULT_PLAYERS == ADVISORS
    assert set(FAST_DEFENCE) == {n for n in NAMES if PLAYERS[n].defends_weaker}
    assert {PLAYERS[n].id for n in NAMES if PLAYERS[n].entry} == set(ENTRIES)


def _with(who: str, **changes: object) -> tuple:
    """The records with one player's record changed."""
    return tuple(replace(p, **changes) if p.name == who else p for p in RECORDS)


@pytest.mark.parametrize(
    ("records", "message"),
    [
        ((*RECORDS, replace(RECORDS[2], name="extra", id=len(RECORDS) + 1)), "ids 0"),
        (_with("strong", name="heuristic"), "unique"),
        (_with("strong", decides=("juggle",), rest_by="heuristic"), "unknown decision"),
        (_with("pimc", decides_when={"bid": ("nothing",)}), "unknown parameter"),
        (_with("pimc", rest_by="nobody"), "not a player"),
        (_with("cheater", entry_of="heuristic"), "no callback"),
        (_with("strong", decides=("play",)), "who makes"),
        (_with("strong", advice_samples=0), "advice_samples"),
    ],
)
def test_records_that_disagree_are_refused(records, message):
    check_records(RECORDS)
    with pytest.raises(ValueError, match=message):
        check_records(records)
