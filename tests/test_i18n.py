"""The game's own languages (sim/i18n.py): complete catalogues, one word per term, output.

The catalogues must hold a translation of every marked string in Russian, Ukrainian
and Polish, keep every field of the English, be compiled from their ``.po`` files and
be current with the sources; a game term (marriage, talon, concession ...) is
translated one way everywhere. The translated answers hold no English word but
names (the rules, the players), and write cards in the language's notation.
"""

from __future__ import annotations

import json
import re

import pytest
from support import words

from sim.cards import parse_cards
from sim.i18n import (
    DOMAIN,
    LANGS,
    LOCALE_DIR,
    TERMS,
    cards_text,
    compile_mo,
    extract,
    read_po,
)

FIELD = re.compile(r"\{[^}]*\}")
# words an answer may keep in English: the names of rules and players, the seed


def catalogue(lang: str) -> dict[str, str]:
    return read_po(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po")


@pytest.mark.parametrize("lang", LANGS[1:])
def test_every_marked_string_is_translated_keeping_its_fields(lang):
    po = catalogue(lang)
    marked = extract()
    missing = [m for m in marked if not po.get(m)]
    assert not missing, f"{lang}: not translated: {missing}"
    for msgid in marked:
        # a plural message: each of the language's forms keeps the English plural's fields
        wanted = sorted(FIELD.findall(msgid.split("\0")[-1]))
        for form in po[msgid].split("\0"):
            assert sorted(FIELD.findall(form)) == wanted, (lang, msgid)
    assert not set(po) - set(marked) - {""}, f"{lang}: translations of strings no longer marked"


@pytest.mark.parametrize("lang", LANGS[1:])
def test_the_compiled_catalogues_are_their_po_files(lang):
    mo = (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo").read_bytes()
    assert mo == compile_mo(catalogue(lang)), "run make locale"
    pot = read_po(LOCALE_DIR / f"{DOMAIN}.pot")
    assert [m for m in pot if m] == extract(), "run make locale"


@pytest.mark.parametrize("lang", LANGS[1:])
def test_a_game_term_is_translated_one_way_everywhere(lang):
    po = catalogue(lang)
    wrong = []
    for msgid, msgstr in po.items():
        # fields, code and file names (`--out DIR`, barrel.md) are no words of the game,
        # nor a message's context (the seat it agrees with: "dealer\x04passed")
        words = FIELD.sub("", msgid.rpartition("\x04")[2])
        words = re.sub(r"`[^`]*`|\b\w+\.(?:md|csv|json|jsonl|parquet|html|toml)\b", "", words)
        words = words.lower()
        for term, words_of in TERMS.items():
            if re.search(rf"\b{term}", words) and words_of[lang] not in msgstr.lower():
                wrong.append(f"{term} -> {words_of[lang]}: {msgid!r} = {msgstr!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", LANGS)
def test_cards_in_each_notation_read_back(lang):
    ids = list(range(24))
    assert parse_cards(cards_text(ids, lang)) == ids


_ENGLISH: dict[tuple[str, ...], str] = {}  # the English answers, asked once per file


@pytest.mark.parametrize("lang", LANGS[1:])
def test_each_language_answers_a_hand_in_its_words_marks_and_cards(thousand, lang):
    """One small answer of each kind in every language, in make test (the whole answers
    in make test-all below; every answer in Russian: test_i18n_outputs.py)."""
    from sim.i18n import _, speaking

    def both(*args: str) -> tuple[str, str]:
        if args not in _ENGLISH:
            en = thousand(*args, "--lang", "en")
            assert en.returncode == 0, en.stderr
            _ENGLISH[args] = en.stdout
        other = thousand(*args, "--lang", lang)
        assert other.returncode == 0, other.stderr
        assert not words(other.stdout) & words(_ENGLISH[args]), words(other.stdout)
        return _ENGLISH[args], other.stdout

    hand = "Т♥ 10♥ К♥ Д♥ Т♠ 9♣ В♦"
    quick = ("--player", "heuristic", "--samples", "300", "--seed", "2")
    en, out = both("advise", hand, "--seat", "dealer", "--auction", "100 pass", *quick)
    with speaking(lang):  # the verdict first, in the catalogue's words
        raise_to = _("Raise, up to {level}.").split("{level}")[0]
    assert raise_to != "Raise, up to " and out.startswith(f"**{raise_to}"), out[:80]
    assert en.startswith("**Raise, up to ")
    rank = {"ru": "Т♥", "uk": "Т♥", "pl": "A♥"}[lang]
    head = out.split("\n\n")[1].splitlines()[0]  # the detail's first line, after the verdict
    assert rank in head  # the hand in the language's notation
    # the language's decimal comma, never the point: a margin of +12,3
    assert re.search(r"[+-]\d+,\d", out) and not re.search(r"[+-]\d+\.\d", out), out
    both("solve", "--hands", "AH TH KH", "KS QS JS", "AD KD QD", "--trump", "H")
    # JSON stays the contract's, whatever the language
    doc = json.loads(thousand("advise", hand, *quick, "--lang", lang, "--json").stdout)
    assert doc["hand"] == "AS 9C JD QH KH TH AH"


# make test-all, every language (the small answers of each above run in make test; the
# Russian answers of every command: test_i18n_outputs.py)
@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS[1:])
def test_the_advisor_and_show_answer_in_the_language(thousand, tmp_path, lang):
    # an English word of the English answer left in the translated one is a string
    # that was not translated (Polish is written in Latin letters too)
    def both(*args: str) -> tuple[str, str]:
        en = thousand(*args, "--lang", "en")
        other = thousand(*args, "--lang", lang)
        assert en.returncode == other.returncode == 0, other.stderr
        return en.stdout, other.stdout

    hand = "Т♥ 10♥ К♥ Д♥ Т♠ 9♣ В♦"
    en, out = both("advise", hand, "--seat", "dealer", "--auction", "100 pass")
    assert not words(out) & words(en), words(out) & words(en)
    rank = {"ru": "Т♥", "uk": "Т♥", "pl": "A♥"}[lang]
    head = out.split("\n\n")[1].splitlines()[0]  # the detail's first line, after the verdict
    assert rank in head  # the hand in the language's notation
    en, out = both("advise", hand, "--talon", "KS QS 9H", "--bid", "120", "--samples", "8")
    assert not words(out) & words(en), words(out) & words(en)
    trace = tmp_path / "t.jsonl"
    thousand("hands", "--deals", "20", "--seed", "3", "--out", str(tmp_path / "h"), "--trace",
             str(trace), "--workers", "1", "--quiet")  # fmt: skip
    en, out = both("show", str(trace))
    assert not words(out) & words(en), words(out) & words(en)
    en, out = both("bids", str(tmp_path / "h"))
    assert not words(out) & words(en), words(out) & words(en)
    thousand("games", "--games", "30", "--out", str(tmp_path / "g"), "--workers", "1", "--quiet")
    en, out = both("barrel", str(tmp_path / "g"))
    assert not words(out) & words(en), words(out) & words(en)
    deal = ["--hands", "AH TH KH QH AS 9C JD", "KS QS JS TS 9S AC KC", "AD KD QD TD 9D QC JH"]
    en, out = both("solve", *deal, "--talon", "JC TC 9H")
    assert not words(out) & words(en), words(out) & words(en)
    en, out = both("solve", "--hands", "AH TH KH", "KS QS JS", "AD KD QD", "--trump", "H")
    assert not words(out) & words(en), words(out) & words(en)
    # JSON stays the contract's, whatever the language
    doc = json.loads(thousand("advise", hand, "--lang", lang, "--json").stdout)
    assert doc["hand"] == "AS 9C JD QH KH TH AH"


def test_the_language_comes_from_the_flag_the_environment_or_the_locale(thousand, monkeypatch):
    from sim.i18n import language, set_language

    monkeypatch.setenv("THOUSAND_LANG", "uk")
    assert set_language(None) == "uk"
    monkeypatch.delenv("THOUSAND_LANG")
    monkeypatch.setenv("LC_ALL", "pl_PL.UTF-8")
    assert set_language(None) == "pl"
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert set_language(None) == "en"
    assert set_language("RU") == "ru" and language() == "ru"
    set_language(None)
    bad = thousand("advise", "AH TH KH QH AS 9C JD", "--lang", "de")
    assert bad.returncode == 2 and "--lang" in bad.stderr
    monkeypatch.setenv("THOUSAND_LANG", "xx")
    bad = thousand("show", "nothing.tdn")
    assert bad.returncode == 2 and "$THOUSAND_LANG xx: one of en, ru, uk, pl" in bad.stderr


def test_a_command_not_yet_translated_answers_in_english_whatever_the_locale(
    thousand, tmp_path, monkeypatch
):
    monkeypatch.setenv("THOUSAND_LANG", "ru")
    trace = tmp_path / "t.jsonl"
    thousand("hands", "--deals", "5", "--out", str(tmp_path / "h"), "--trace", str(trace),
             "--workers", "1", "--quiet")  # fmt: skip
    assert "Раздача" in thousand("show", str(trace)).stdout  # show speaks the locale's
    odds = thousand("odds", "--deals", "2000", "--workers", "1")
    assert odds.returncode == 0 and "deals, seed 0" in odds.stdout  # odds is not translated


def test_speaking_sets_the_language_for_a_block_only():
    from sim.i18n import _, language, set_language, speaking

    set_language("pl")
    try:
        with speaking("ru") as lang:
            assert lang == "ru" and _("talon") == "прикуп"
        assert language() == "pl" and _("talon") == "musik"
    finally:
        set_language(None)


def test_a_translators_file_is_merged_into_a_preview_and_bad_files_refused(tmp_path, capsys):
    from sim.i18n import main

    msgid = extract()[0]
    good = tmp_path / "tr.json"
    good.write_text(json.dumps({msgid: {"ru": "ПРОБА"}}), encoding="utf-8")
    assert main(["--merge", str(good), "--locale-dir", str(tmp_path / "loc")]) == 0
    assert catalogue("ru")[msgid] != "ПРОБА"  # the package's catalogue is untouched
    preview = read_po(tmp_path / "loc/ru/LC_MESSAGES" / f"{DOMAIN}.po")
    assert preview[msgid] == "ПРОБА" and preview.keys() == catalogue("ru").keys()
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    assert main(["--merge", str(bad), "--locale-dir", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--merge" in err[0] and "bad.json" in err[0]
    assert not (tmp_path / "none").exists()


def test_a_seat_is_read_by_any_name_players_give_it():
    from sim.i18n import role_of

    for word in ("dealer", "сдающий", "раздающий", "роздаючий", "роздавач", "здаючий",
                 "здавач", "Дилер", "rozdający", "rozdawca"):  # fmt: skip
        assert role_of(word) == "dealer", word
    assert role_of("друга  рука") == "middle" and role_of("пас") == "pass"
    assert role_of("здача") is None


def test_a_message_about_a_seat_agrees_with_it_and_keeps_its_context(tmp_path):
    from sim.i18n import format_po, seat_, speaking

    with speaking("ru"):
        said = [seat_(s, "passed at {bid}").format(bid=120) for s in ("middle", "dealer")]
    assert said == ["спасовала на 120", "спасовал на 120"]
    with speaking("en"):
        assert seat_("middle", "passed") == "passed"
    assert "middle\x04passed" in extract() and "passed" not in extract()
    # the context survives a round trip through a .po file, as msgctxt
    entries = {"middle\x04passed": "спасовала", "passed": "спасовал"}
    po = tmp_path / "t.po"
    po.write_text(format_po(entries, "h"), encoding="utf-8")
    assert 'msgctxt "middle"\nmsgid "passed"' in po.read_text(encoding="utf-8")
    assert {k: v for k, v in read_po(po).items() if k} == entries


def test_numbers_are_grouped_as_each_language_groups_them():
    from sim.i18n import number, speaking

    shown = {}
    for lang in LANGS:
        with speaking(lang):
            shown[lang] = [number(v, p) for v, p in ((999, 0), (4084.5, 1), (12345, 0))]
    assert shown["en"] == ["999", "4,084.5", "12,345"]
    assert shown["ru"] == shown["uk"] == ["999", "4\u00a0084,5", "12\u00a0345"]
    assert shown["pl"] == ["999", "4084,5", "12\u00a0345"]
