import dataclasses
import tomllib

import numpy as np
import pytest

from sim.rules import RULE_KEYS, Rules, RulesError, load_rules, preset_names, rules_from_dict

PRESETS = [
    "classic",
    "app",
    "ukraine_online",
    "thousand_one",
    "five_hundred_one",
    "two_players",
    "four_players",
    "polish",
    "polish_two",
    "polish_four",
]


def test_all_presets_of_rules_md_section_13_are_shipped():
    assert sorted(PRESETS) == preset_names()


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_loads_and_round_trips_through_rules_show(name, tmp_path):
    r = load_rules(name)
    assert r.name == name and r.description
    f = tmp_path / "shown.toml"
    f.write_text(r.to_toml())
    again = load_rules(str(f))
    assert again == r and again.rules_hash == r.rules_hash


def test_classic_has_the_rules_md_defaults():
    r = load_rules("classic")
    assert r == Rules()
    d = r.to_dict()
    expected = {
        "players": 3,
        "reshuffle.hand_points_below": 13,
        "reshuffle.hand_nines": 3,
        "reshuffle.hand_four_jacks": True,
        "reshuffle.talon_points_below": 5,
        "reshuffle.talon_two_nines": True,
        "reshuffle.talon_three_jacks": True,
        "reshuffle.talon_only_at_100": False,
        "reshuffle.dealer_penalty": 0,
        "bid.step": 5,
        "bid.jumps": True,
        "bid.cap_by_marriages": True,
        "bid.silence_below": None,
        "talon.hide_at_100": True,
        "talon.discard_face_down": False,
        "rospis.allowed": True,
        "rospis.opponents_get": "half",
        "play.must_trump": True,
        "play.must_beat": False,
        "marriage.values": "standard",
        "marriage.trump_from": "this_trick",
        "marriage.first_lead": False,
        "marriage.changes_trump": True,
        "score.round_to": 5,
        "score.samosval": True,
        "bolt.on": "no_tricks",
        "bolt.count": 3,
        "bolt.penalty": 120,
        "game.target": 1000,
        "game.target_strict": False,
        "barrel.at": 880,
        "barrel.attempts": 3,
        "barrel.fall_penalty": 120,
        "barrel.one_at_a_time": True,
        "barrel.simultaneous": "one_falls",
        "deal.method": "shuffle",
        "deal.nine_cut_penalty": 0,
        "deal.jack_to_middle": False,
        "deal.cut_chain": 40,
        "golden.enabled": False,
        "dark.enabled": False,
    }
    for k, v in expected.items():
        assert d[k] == v, k


def test_preset_specifics_of_section_13():
    assert load_rules("five_hundred_one").game.target == 501
    assert load_rules("five_hundred_one").marriage_values == (60, 20, 40, 80)  # S C D H
    assert load_rules("five_hundred_one").trump.named_by_declarer
    assert not load_rules("five_hundred_one").marriage.changes_trump
    assert load_rules("thousand_one").game.target_strict
    assert load_rules("thousand_one").barrel.third_fall_zero
    u = load_rules("ukraine_online")
    assert u.barrel.bid_from == 120 and u.golden.enabled and u.dark.enabled
    assert u.reshuffle.hand_points_below == 14 and u.reshuffle.hand_nines == 3
    assert load_rules("two_players").players == 2
    assert load_rules("four_players").players == 4


def test_rules_are_frozen_hashable_and_the_hash_is_stable():
    r = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.players = 2  # type: ignore[misc]
    assert hash(r) == hash(Rules())
    assert len({Rules(), Rules(), load_rules("classic")}) == 1
    assert r.rules_hash == Rules().rules_hash
    assert r.replace(bid__jumps=False).rules_hash != r.rules_hash
    # a pure relabel does not change the hash
    assert rules_from_dict({"description": "x"}).rules_hash == r.rules_hash


def test_to_array_covers_every_key():
    a = Rules().to_array()
    assert a.shape == (len(RULE_KEYS),)
    assert a[RULE_KEYS.index("barrel.at")] == 880
    assert a[RULE_KEYS.index("bid.jumps")] == 1


def test_base_inheritance_from_preset_and_from_file(tmp_path):
    parent = tmp_path / "parent.toml"
    parent.write_text('base = "ukraine_online"\n[bid]\njumps = false\n')
    child = tmp_path / "child.toml"
    child.write_text('base = "parent.toml"\n[reshuffle]\nhand_nines = 4\n')
    r = load_rules(str(child))
    assert r.golden.enabled and not r.bid.jumps and r.reshuffle.hand_nines == 4
    assert r.name == "child"


def test_base_loop_is_an_error(tmp_path):
    a = tmp_path / "a.toml"
    b = tmp_path / "b.toml"
    a.write_text('base = "b.toml"\n')
    b.write_text('base = "a.toml"\n')
    with pytest.raises(RulesError, match="loops"):
        load_rules(str(a))


@pytest.mark.parametrize(
    "body, culprit",
    [
        ("[bid]\nstepp = 5\n", "unknown key 'bid.stepp'"),
        ("[bidding]\nstep = 5\n", "unknown section 'bidding'"),
        ("colour = 1\n", "unknown key 'colour'"),
        ('[bid]\nstep = "five"\n', "key 'bid.step' must be an integer"),
        ("[bid]\njumps = 1\n", "key 'bid.jumps' must be true or false"),
        ("[reshuffle]\nhand_nines = true\n", "key 'reshuffle.hand_nines' must be an integer"),
        ("[bid]\nstep = 7\n", "key 'bid.step' must be one of 5, 10"),
        ("[reshuffle]\nhand_nines = 5\n", "key 'reshuffle.hand_nines' must be at most 4"),
        ("[barrel]\nattempts = 0\n", "key 'barrel.attempts' must be at least 1"),
        ("players = 5\n", "key 'players' must be one of 2, 3, 4"),
        ('[barrel]\nsimultaneous = "some"\n', "key 'barrel.simultaneous' must be one of"),
        ("[marriage]\nace_sets_trump = true\n", "key 'marriage.ace_sets_trump' needs marriage.ace"),
        ("[golden]\nrepeat_if_none = true\n", "key 'golden.repeat_if_none' cannot be true"),
        ("[barrel]\nat = 1000\n", "key 'barrel.at' must be below game.target"),
        ("[barrel]\nbid_from = 123\n", "key 'barrel.bid_from' must be a multiple of bid.step"),
        ('base = "nosuch"\n', "unknown rules preset 'nosuch'"),
        ("[bid\n", "not valid TOML"),
    ],
)
def test_bad_rules_files_name_the_key_and_the_file(tmp_path, body, culprit):
    f = tmp_path / "table.toml"
    f.write_text(body)
    with pytest.raises(RulesError) as exc:
        load_rules(str(f))
    msg = str(exc.value)
    assert culprit in msg
    if "preset" not in culprit:
        assert "table.toml" in msg
    assert "\n" not in msg


def test_off_values_parse_and_print(tmp_path):
    f = tmp_path / "s.toml"
    f.write_text('[bid]\nsilence_below = -120\n[game]\nbank = "off"\n')
    r = load_rules(str(f))
    assert r.bid.silence_below == -120 and r.game.bank is None
    assert tomllib.loads(r.to_toml())["game"]["bank"] == "off"


def test_unknown_preset_lists_the_presets():
    with pytest.raises(RulesError, match="classic"):
        load_rules("clasic")


@pytest.mark.parametrize("get", ["half", "sixty"])
@pytest.mark.parametrize("no_subtract", [False, True])
def test_concession_scores_as_the_engine(get, no_subtract):
    """The rules' concession scores (analysis) equal the engine's on every contract."""
    from sim.engine.params import rules_vector
    from sim.engine.scoring import concession_share

    rules = rules_from_dict({"rospis.opponents_get": get, "rospis.no_subtract": no_subtract})
    P = rules_vector(rules)
    contracts = np.arange(100, 305, 5)
    engine = np.array([concession_share(int(c), P) for c in contracts], dtype=np.float64)
    assert np.array_equal(rules.rospis.each_opponent_gets(contracts), engine)
    assert [rules.rospis.each_opponent_gets(int(c)) for c in contracts] == list(engine)
    assert rules.rospis.each_opponent_gets(105) == (60.0 if get == "sixty" else 55.0)
    assert rules.rospis.declarer_gets(120) == (0.0 if no_subtract else -120.0)
    assert np.array_equal(
        rules.rospis.declarer_gets(contracts), 0.0 * contracts if no_subtract else -contracts
    )
