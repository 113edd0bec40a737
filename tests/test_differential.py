"""Fast engine against the plain reference engine: identical traces, deal by deal.

Both engines are driven by the ``random`` strategy from the same counter-based
stream (PROTOCOL.md), so any difference in legal actions, their order, forced
decisions, trick winners, trump changes or scoring shows up as a differing trace.
"""

import pytest
from presets import PRESETS_3P

from sim import reference
from sim.engine import play_hands
from sim.rules import load_rules

N_PER_PRESET = 20_000

VARIANTS = {
    "no_jumps_no_cap": {"bid__jumps": False, "bid__cap_by_marriages": False},
    "must_beat_no_must_trump": {"play__must_beat": True, "play__must_trump": False},
    "next_trick_first_lead": {"marriage__trump_from": "next_trick", "marriage__first_lead": True},
    "ace_marriage": {
        "marriage__ace": True,
        "marriage__ace_sets_trump": True,
        "marriage__first_lead": True,
    },
    "capture_only_declarer": {"marriage__requires_capture": True, "marriage__only_declarer": True},
    "fixed_trump": {"marriage__changes_trump": False, "trump__named_by_declarer": True},
    "lead_rules": {"play__no_lead_foreign_trump": True, "play__must_lead_trump": True},
    "scoring": {
        "score__round_to": 10,
        "score__round_declarer": True,
        "bolt__on": "zero_points",
        "bolt__declarer_exempt": True,
        "bonus__four_nines": 200,
    },
    "concession": {"rospis__opponents_get": "sixty", "rospis__no_subtract": True},
    "reshuffles": {
        "reshuffle__talon_only_at_100": True,
        "reshuffle__after_discard_four_nines": True,
        "reshuffle__after_discard_points_below": 25,
        "reshuffle__hand_nines": 2,
    },
    "talon_and_step": {"talon__hide_at_100": False, "bid__step": 10},
}


def _compare(rules, n, seed, strategies=("random",) * 3, scores=(0, 0, 0)):
    fast = play_hands(rules, n, seed, strategies, trace=True, scores=scores).traces()
    ref = []
    for i in range(n):
        ref.extend(reference.play_slot(rules, seed, i, strategies=strategies, scores=scores))
    assert len(fast) == len(ref)
    for a, b in zip(fast, ref, strict=True):
        assert a == b, f"deal {a['deal_id']} attempt {a['attempt']} differs"
        assert list(a) == list(b)  # the same keys in the same order
    return fast


@pytest.mark.parametrize("preset", PRESETS_3P)
def test_fast_engine_equals_reference_on_every_preset(preset):
    docs = _compare(load_rules(preset), N_PER_PRESET, seed=2024)
    played = [d for d in docs if d["reshuffle"] is None and not d["conceded"]]
    assert len(played) > N_PER_PRESET // 3  # most deals reach the play phase
    assert any(t["marriage"] for d in played for t in d["tricks"])


@pytest.mark.parametrize("name", list(VARIANTS))
def test_fast_engine_equals_reference_under_option_variants(name):
    _compare(load_rules("classic").replace(**VARIANTS[name]), 3000, seed=7)


def test_fast_engine_equals_reference_with_silenced_players():
    rules = load_rules("classic").replace(bid__silence_below=-120)
    docs = _compare(rules, 2000, seed=5, scores=(-200, 0, 50))
    for d in docs:
        if d["reshuffle"] is None:
            assert all(b == "pass" for s, b in d["bids"][1:] if s == 0)
