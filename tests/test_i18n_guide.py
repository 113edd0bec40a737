"""The strategy guide in the game's languages: ``thousand guide --lang ru|uk|pl``.

One small guide is played once and written in English and in each language. The
translated pages (``guide.md``, ``index.html``), the report's guide section, the duel's
sentence and the safe-bid words the report shows hold no English word of the English
ones but names (rules, players, files, code); the English tables are headed in words;
the CSV files and ``guide_params.txt`` are the same in every language.
"""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import pytest
from support import NAMES, seen_text

from sim.i18n import LANGS, _, speaking
from sim.rules import load_rules

# make test runs Russian; make test-all Ukrainian and Polish too
LANG_PARAMS = [pytest.param(g, marks=() if g == "ru" else pytest.mark.slow) for g in LANGS[1:]]


def words(text: str) -> set[str]:
    """English words of three or more letters, less names, code, files and link targets.

    As :func:`tests.test_i18n.words`, but a word is a whole word: the Latin letters of a
    Polish one (``zawyżone``) are no English word (``one``).
    """
    text = re.sub(r"`[^`]*`|\]\([^)]*\)|\b[\w-]+\.(?:md|csv|json|png|html|txt)\b|\bCSV\b", "", text)
    found = {w.lower() for w in re.findall(r"[^\W\d_]{3,}", text) if w.isascii()}
    return found - NAMES - {"html", "markdown"}


def page_text(path: Path) -> str:
    return seen_text(path.read_text(encoding="utf-8"))


def md_headings(md: str) -> list[str]:
    """The column headings of every table of a Markdown page."""
    lines = md.splitlines()
    found = []
    for head, rule in pairwise(lines):
        if head.startswith("| ") and rule.startswith("| ---"):
            found += [c.strip() for c in head.strip("| ").split(" | ")]
    return found


@pytest.fixture(scope="module")
def book():
    from sim.jobs.guide import GuideSpec, build_guide

    spec = GuideSpec(rules=load_rules("classic"), seed=7, deals=1500, hands=1500, games=40,
                     odds_deals=5000, duel_deals=200, workers=1)  # fmt: skip
    return build_guide(spec)


@pytest.fixture(scope="module")
def english(book, tmp_path_factory):
    out = tmp_path_factory.mktemp("guide") / "en"
    with speaking("en"):
        book.write(out, {}, player_page=True)
    return out


def test_the_english_guide_heads_its_tables_in_words(english):
    md = (english / "guide.md").read_text(encoding="utf-8")
    headings = md_headings(md)
    assert len(headings) >= 25 and "hand before the talon" in headings
    assert not [h for h in headings if "_" in h], headings
    html = (english / "index.html").read_text(encoding="utf-8")
    assert not [h for h in re.findall(r"<th>([^<]*)</th>", html) if "_" in h]


@pytest.mark.parametrize("lang", LANG_PARAMS)
def test_the_guide_is_written_in_the_language(book, english, tmp_path, lang):
    from sim.players import PAR, PLAYERS
    from sim.players import words as player_words
    from views.safebids import class_words, defence_caveat

    everyone = [player_words(p) for p in (*PLAYERS, PAR)]  # every player's words

    out = tmp_path / lang
    with speaking(lang):
        book.write(out, {}, player_page=True)
        section = book.section().markdown  # the page kit's words too
        sentence = book.sentence()
        written = book.written("/g/1")
        safe = [class_words(c) for c in ("none", "♥", "♥♦")]
        safe += [defence_caveat(["strong", "heuristic"]) or ""]
        safe += [_(w) for w in everyone]
    with speaking("en"):
        en_section = book.section().markdown
        en_safe = [class_words(c) for c in ("none", "♥", "♥♦")]
        en_safe += [defence_caveat(["strong", "heuristic"]) or ""]
        en_safe += everyone
        pairs = [(book.sentence(), sentence), (book.written("/g/0"), written)]
    pairs += [
        ((english / "guide.md").read_text(encoding="utf-8"),
         (out / "guide.md").read_text(encoding="utf-8")),
        (page_text(english / "index.html"), page_text(out / "index.html")),
        (en_section, section),
        ("\n".join(en_safe), "\n".join(safe)),
    ]  # fmt: skip
    for en, other in pairs:
        left = words(other) & words(en)
        assert not left, left
    md = (out / "guide.md").read_text(encoding="utf-8")
    assert md.startswith("# " + {"ru": "Тысяча", "uk": "Тисяча", "pl": "Tysiąc"}[lang])
    assert re.search(r"\d,\d+ \[[-+]?\d+,\d+; ", md)  # 0,483 [0,452; 0,513]
    # the data is the contract's, whatever the language
    for name in [*sorted(p.name for p in english.glob("*.csv")), "guide_params.txt"]:
        assert (out / name).read_bytes() == (english / name).read_bytes(), name
