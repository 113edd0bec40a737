"""The refusals of bad input below the command line, in the languages.

``advise``, ``solve``, ``show`` and the strategy and parameter flags refuse bad input
(cards, seats, an auction, a deal file that cannot be read, an unknown strategy or
parameter) in one line, exit code 2: in the ``--lang`` language with no English word
left but the culprit's own text (flags, values, cards, file names, tags and names the
user types), and without ``--lang`` in English as before.
"""

from __future__ import annotations

import re

import pytest
from support import words

from sim.engine.strategies.registry import STRATEGIES
from sim.i18n import LANGS, speaking
from sim.rules import preset_names

HAND = "AH TH KH QH AS 9C JD"
GOOD = """\
[Rules "classic"]
[Dealer "0"]
[Deal "9S TS JC QC QD KD 9H / KS KC JD TD JH KH TH / QS AS TC AC 9D QH AH / JS 9C AD"]
"""
FILES = {
    "good.tdn": GOOD,
    "two.tdn": GOOD + "\n" + GOOD,
    "dark.tdn": GOOD + '[Special "dark"]\n',
    "tag.tdn": GOOD + '[Colour "red"]\n',
    "cards.tdn": GOOD.replace("JS 9C AD", "JS 9C 9S"),
    "play.tdn": GOOD + '[Play "1: >1"]\n',
    "trace.jsonl": '{"a": 1}\n',
}
# (arguments, the English line without --lang: as it was before the translation)
REFUSED = [
    (["advise", "AH TH KH"],
     "thousand advise: error: HAND: 7 cards needed, got 3 ('AH TH KH')"),
    (["advise", HAND, "--talon", "AH 9S TS"],
     "thousand advise: error: --talon: AH already in the hand"),
    (["advise", HAND, "--player", "pimcc"],
     "thousand advise: error: --player: 'pimcc' is not an advisor (did you mean 'pimc'?) "
     "(one of strong, heuristic, pimc, par)"),
    (["advise", HAND, "--seat", "rear"],
     "thousand advise: error: --seat rear: one of forehand, middle, dealer"),
    (["advise", HAND, "--auction", "100 foo"],
     "thousand advise: error: --auction: a bid or 'pass', got 'foo'"),
    (["advise", HAND, "--auction", "100 pass pass"],
     "thousand advise: error: --auction: the auction is over: every seat but one passed"),
    (["advise", HAND, "--auction", "100", "--seat", "dealer"],
     "thousand advise: error: --auction: it is middle's turn after '100', not dealer's (--seat)"),
    (["advise", HAND, "--talon-shown", "9S TS 9H", "--seat", "middle"],
     "thousand advise: error: --talon-shown: give the whole auction (--auction), to know who "
     "took it"),
    (["advise", "KH QH KS QS KD QD KC", "--auction", "100 200", "--seat", "dealer",
      "--samples", "8"],
     "thousand advise: error: --auction: no deal of the unseen cards allows the auction "
     "(middle bid 200)"),
    (["advise", "--deal-file", "good.tdn", "--seat", "rear"],
     "thousand advise: error: --seat rear: one of forehand, middle, dealer"),
    (["solve", "--hands", "AH TH KH", "AH QS JS", "AD KD QD"],
     "thousand solve: error: AH is given twice (hand 0 (forehand) and hand 1 (middle))"),
    (["solve", "--hands", "AH TH KH", "KS QS JS", "AD KD QD", "--trump", "X"],
     "thousand solve: error: --trump must be a suit (S, C, D, H) or none, got 'X'"),
    (["solve", "--hands", "AH TH KH QH AS 9C", "KS QS JS TS 9S AC KC", "AD KD QD TD 9D QC JH",
      "--talon", "JC TC 9H"],
     "thousand solve: error: hand 0 (forehand) must hold 7 cards, got 6"),
    (["solve", "--deal-file", "dark.tdn"],
     "thousand solve: error: dark.tdn: a dark deal: nobody takes the talon"),
    (["solve", "--deal-file", "two.tdn"],
     "thousand solve: error: the file holds 2 deals: name one with --deal"),
    (["show", "good.tdn", "--deal", "4"],
     "thousand show: error: --deal 4: no deal of that number in the file"),
    (["show", "tag.tdn"],
     "thousand show: error: deal 1, line 4: unknown tag 'Colour'"),
    (["show", "cards.tdn"],
     "thousand show: error: deal 1, [Deal]: each of the 24 cards once: missing ['AD'], "
     "twice ['9S']"),
    (["show", "play.tdn"],
     "thousand show: error: deal 1, [Play]: a trick without cards: '1: >1'"),
    (["show", "trace.jsonl"],
     "thousand show: error: trace.jsonl, line 1: not a hand trace ('dealer')"),
    (["duel", "--a", "clever", "--deals", "5"],
     "thousand duel: error: --a: unknown strategy 'clever' (known: random, first, heuristic, "
     "heuristic_v1, guide, pimc, strong, cheater)"),
    (["duel", "--a", "heuristic", "--deals", "5", "--a-param", "heuristic.aggresion=1"],
     "thousand duel: error: --a: --param 'heuristic.aggresion=1': heuristic has no parameter "
     "'aggresion' (did you mean 'aggression'?) (aggression, concede_margin, reshuffle_below, "
     "talon_hope, dark_behind, bid_margin)"),
    (["duel", "--a", "pimc", "--deals", "5", "--a-param", "pimc.worlds=0"],
     "thousand duel: error: --a: --param 'pimc.worlds=0': worlds must be a whole number 1 to 200"),
    (["duel", "--a", "heuristic", "--games", "2", "--first-dealer", "5"],
     "thousand duel: error: --first-dealer 5: a seat 0..2 of 3 players"),
    (["compare", "--vs", "app", "--games", "5", "--strategies", "clever"],
     "thousand compare: error: unknown strategy 'clever' (did you mean 'cheater'?) (known: "
     "random, first, heuristic, heuristic_v1, guide, pimc, strong, cheater)"),
    (["compare", "--vs", "app", "--games", "5", "--scheduler", "bogus"],
     "thousand compare: error: --scheduler bogus: expected 'local' or tcp://HOST:PORT"),
]  # fmt: skip
ERROR = {"ru": "ошибка", "uk": "помилка", "pl": "błąd"}
LANGUAGES = [pytest.param(g, marks=() if g == "ru" else pytest.mark.slow) for g in LANGS[1:]]

# what a refusal names as the user types it, in every language: the program, flags
# (and the value before the colon: ``--seat rear:``), quoted values (not a possessive's
# apostrophe), tags and lists in brackets, metavars (HAND, SEAT:VALUE), rule keys
# (talon.hide_at_100), file names and addresses; then the names of seats, players,
# strategies, their parameters and the rule sets
CULPRIT = re.compile(
    r"^thousand(?: \w+)?:|--[\w-]+(?: [^\s:]+(?=:))?|(?<!\w)'[^']*'(?!\w)|\"[^\"]*\""
    r"|\[[^\]]*\]|\b[A-Z][A-Z_.:=]+\b|\b\w+\.\w+\b|\S+/\S+"
)
NAMES = re.compile(
    r"\b(?:"
    + "|".join(
        sorted(
            {"forehand", "middle", "dealer", "rear", "par", *STRATEGIES, *preset_names()}
            | {p for s in STRATEGIES.values() for p in s.params},
            key=len,
            reverse=True,
        )
    )
    + r")\b"
)


def english_left(english: str, other: str) -> set[str]:
    """The English words of ``english`` still in ``other``, the culprit's own text aside."""

    def clean(text: str) -> str:
        return NAMES.sub("", CULPRIT.sub("", text))

    return words(clean(english)) & words(clean(other))


@pytest.fixture
def deal_files(tmp_path, monkeypatch):
    """The deal files of :data:`REFUSED`, in the current folder (named as the lines name them)."""
    for name, text in FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("args", "english"), REFUSED, ids=[" ".join(a) for a, _ in REFUSED])
def test_bad_input_is_refused_in_one_line_in_the_language(
    run_main, deal_files, args, english, lang
):
    code, en = run_main(*args)
    assert (code, en) == (2, english + "\n")
    code, other = run_main(*args, "--lang", lang)
    assert code == 2 and other.count("\n") == 1, other
    prefix = f"{english.split(':')[0]}: {ERROR[lang]}: "
    assert other.startswith(prefix), other
    message = other[len(prefix) :]
    assert message != english.partition(": error: ")[2] + "\n", other
    if lang != "pl":  # Polish is written in Latin letters: the words below tell
        assert re.search("[а-яіїєґ]{3}", message.lower()), other
    left = english_left(en, other)
    assert not left, (left, other)


def test_the_seats_are_named_as_typed_and_in_the_language(run_main):
    code, err = run_main("advise", HAND, "--seat", "rear", "--lang", "ru")
    assert code == 2
    assert "одно из: первая рука, вторая рука, сдающий" in err  # the names it reads


def test_the_cards_of_a_refusal_are_written_in_the_language(run_main):
    code, err = run_main("solve", "--hands", "AH TH KH", "AH QS JS", "AD KD QD", "--lang", "ru")
    assert (
        code == 2 and "карта Т♥ указана дважды (рука 0 (первая рука) и рука 1 (вторая рука))" in err
    )


def test_the_compile_notice_is_in_the_language(monkeypatch):
    from sim.runs.folder import Feedback, compile_notice

    monkeypatch.setattr("sim.cache.is_cached", lambda module, function: False)

    class Notices(Feedback):
        def __init__(self) -> None:
            self.said: list[str] = []

        def say(self, text: str) -> None:
            self.said.append(text)

    for lang, word in (("en", "compiling the engine"), ("ru", "движок")):
        notices = Notices()
        with speaking(lang):
            assert compile_notice(notices, "sim.engine.driver.slots_kernel")
        assert len(notices.said) == 1 and word in notices.said[0], notices.said
