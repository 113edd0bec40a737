"""The house-rule options in words (sim/option_words.py), in every language.

Every option has a short phrase and every choice that is a word its words, all marked
for the catalogues; :func:`option_name` and :func:`option_value` show them in the
current language, taking values as ``analysis.compare.rule_differences`` writes them
(strings: ``"True"``, ``"off"``, ``"3"``, ``"one_falls"``) as well as typed ones.
"""

from __future__ import annotations

import re

import pytest

from sim.i18n import LANGS, _, extract, speaking
from sim.option_words import CHOICE_WORDS, OPTION_WORDS, option_name, option_value
from sim.rules import RULE_KEYS, rule_choices

CODE = re.compile(r"\b[a-z]+_[a-z_]+\b|\b[a-z]+\.[a-z_]+\b")  # one_falls, barrel.at


def choices(key: str) -> tuple[object, ...]:
    try:
        return rule_choices(key)
    except KeyError:  # an option without choices
        return ()


def test_every_option_has_a_short_phrase_a_player_would_say():
    assert set(OPTION_WORDS) == set(RULE_KEYS)
    for key, phrase in OPTION_WORDS.items():
        assert phrase and phrase[0] == phrase[0].lower(), key
        assert len(phrase) <= 60, key
        assert "§" not in phrase and not CODE.search(phrase), (key, phrase)
    assert len(set(OPTION_WORDS.values())) == len(OPTION_WORDS), "two options read the same"


def test_every_choice_that_is_a_word_has_words_and_a_number_stays_a_number():
    wanted = {(k, c) for k in RULE_KEYS for c in choices(k) if isinstance(c, str)}
    assert set(CHOICE_WORDS) == wanted
    for (key, choice), words in CHOICE_WORDS.items():
        assert words and not CODE.search(words), (key, choice, words)
    with speaking("en"):
        for key in RULE_KEYS:
            for c in choices(key):
                shown = option_value(key, c)
                assert shown == (str(c) if isinstance(c, int) else CHOICE_WORDS[key, c])
    # the samosval options name what triggers them
    assert "555" in OPTION_WORDS["score.samosval"] and "−555" not in OPTION_WORDS["score.samosval"]
    assert "−555" in OPTION_WORDS["score.samosval_negative"]


def test_every_phrase_is_marked_for_the_catalogues():
    marked = set(extract())
    missing = {w for w in [*OPTION_WORDS.values(), *CHOICE_WORDS.values()] if w not in marked}
    assert not missing, missing
    assert {"yes", "no", "off"} <= marked


@pytest.mark.parametrize("lang", LANGS[1:])
def test_the_names_and_values_are_in_the_language(lang):
    with speaking(lang):
        for key in RULE_KEYS:
            assert option_name(key) != OPTION_WORDS[key], (lang, key)
        for (key, choice), words in CHOICE_WORDS.items():
            assert option_value(key, choice) not in (words, choice), (lang, key, choice)
        assert option_value("rospis.allowed", True) == _("yes") != "yes"
        assert option_value("rospis.allowed", "False") == _("no") != "no"
        assert option_value("bid.silence_below", None) == _("off") != "off"


def test_some_words_in_russian_and_polish():
    with speaking("ru"):
        assert "бочк" in option_name("barrel.at")
        assert "распис" in option_name("rospis.allowed")
        assert option_value("rospis.opponents_get", "sixty") == "по 60"
        assert option_value("barrel.simultaneous", "all_fall") == "падают все"
        assert option_value("rospis.allowed", "True") == "да"
    with speaking("pl"):
        assert "beczk" in option_name("barrel.at")
        assert "wywrotka" in option_name("score.samosval")
        assert option_value("barrel.simultaneous", "one_falls") == "spada ten z niższym wynikiem"
        assert option_value("golden.enabled", "off") == "wył."


def test_values_given_as_strings_or_typed():
    with speaking("en"):
        assert option_value("rospis.allowed", "True") == "yes"
        assert option_value("rospis.allowed", "false") == "no"
        assert option_value("rospis.allowed", False) == "no"
        assert option_value("game.bank", "off") == "off"
        assert option_value("game.bank", None) == "off"
        assert option_value("barrel.attempts", "3") == "3"
        assert option_value("barrel.attempts", 3) == "3"
        assert option_value("bid.silence_below", "-120") == "-120"
        assert option_value("barrel.simultaneous", "one_falls") == "the lower score falls"
        assert option_value("players", "4") == "4"
        assert option_value("barrel.at", 0.5) == "0.5"
        assert option_value("barrel.at", "2.25") == "2.25"
        assert option_value("barrel.at", 880.0) == "880"
        assert option_value("barrel.simultaneous", "no_such_choice") == "no_such_choice"
    with speaking("ru"):
        assert option_value("barrel.at", 0.5) == "0,5"
        assert option_value("barrel.at", "2.25") == "2,25"
        assert option_value("barrel.attempts", "3") == "3"
    with speaking("pl"):
        assert option_value("barrel.at", 12.5) == "12,5"


def test_an_unknown_key_is_shown_as_it_is():
    with speaking("ru"):
        assert option_name("no.such_key") == "no.such_key"
        assert option_value("no.such_key", "True") == "да"
        assert option_value("no.such_key", "something") == "something"
