"""Every translated answer reads as the language writes: no English, one decimal mark, plurals.

The commands a player meets (``advise`` in its three kinds, ``show``, ``solve``,
``bids``, ``barrel``, ``duel`` and their refusals) are run in English and in
the language; the translated output must hold

* no English word of the English output outside code (backticks), file names and the
  names of rules and players;
* no number written with a decimal point where the language writes a comma
  (``31.27`` beside ``0,502``);
* every count of a plural message in the form the catalogue's own plural rule gives
  that count (the forms and the rule are read from the compiled catalogue, not
  written here), and no count in a plain message written straight before its noun,
  where the noun's form would depend on the number ("100 873 заходов");
* no decimal number before a noun in a count's form: a fraction takes the genitive
  singular ("66,4 очка", "34,27 раздачи", "0,50 punktu"), never "66,4 очков";
* every number the English groups (``4,084``) grouped as the language groups it, with
  a no-break space (``4 084`` in Russian and Ukrainian; from ``12 345`` in Polish);
* no name of a player or a rule set bare inside a sentence (``strong``, ``classic``):
  in backticks, as the answers write code;
* no ASCII arrow (``->``): the words say it, or an arrow (``→``);
* every past tense and pronoun about a seat in the seat's gender: "вторая рука
  (спасовала)" but "сдающий (спасовал)"; and no message of the catalogues joins a seat
  field to a past tense or a pronoun without a translation for each seat
  (:func:`sim.i18n.seat_`).

Russian runs in ``make test``, Ukrainian and Polish in ``make test-all``.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from sim.i18n import LANGS, catalogue, extract, read_po

CODE = re.compile(r"`[^`]*`|\b[\w-]+(?:[./_:][\w-]+)+\b|--[\w-]+|\[[A-Z]\w*\b")
NAMES = {"classic", "strong", "heuristic", "pimc", "par", "chi", "tdn", "json", "csv"}
FIELD = re.compile(r"\{(\w+)(?:[^}]*)\}")
# fields that hold a count of things (a noun after them takes the count's form)
COUNTS = {
    "n", "count", "games", "deals", "hands", "climbs", "cells", "cases", "total", "samples",
    "requested", "players", "stints", "falls", "chunks", "items", "unfinished", "finished",
    "open",
}  # fmt: skip
# words that may follow a count without being its noun (conjunctions, prepositions)
NOT_NOUNS = {
    "ru": {"и", "из", "за", "в", "на", "с", "до", "от", "или", "по", "—"},
    "uk": {"і", "й", "з", "за", "в", "у", "на", "до", "від", "або", "по", "—"},
    "pl": {"i", "z", "w", "na", "do", "od", "lub", "po", "—", "×"},
}


# a noun (or an adjective) in a count's form, which a decimal number never takes: a
# fraction takes the genitive singular (2,5 очка, 2,5 раздачи, 2,5 punktu, 2,5 rozdania)
COUNT_FORMS = {
    "ru": r"очк(?:о|ов|и)|раздач|партий|взяток|карт|игроков|\w+[ыи]х",
    "uk": r"оч(?:ко|ок|ки)|роздач|партій|хабарів|карт|гравців|\w+[иі]х",
    "pl": r"punkt(?:y|ów)?|rozdań|lew|kart|graczy|\w+ych",
}
DECIMAL = r"(?<![\w.,])[-+]?\d+,\d+(?:\s*\[[^\]]*\]|\s*±\s*[\d,]+)?"
# names a translated sentence writes as code (in backticks), never bare
CODE_NAMES = re.compile(
    r"(?<![\w`./-])(?:strong|pimc|heuristic|cheater|classic|par|open-card)(?![\w`/-])"
)
# the grammatical gender of each seat's name (рука, ręka; сдающий, rozdający) and a past
# tense or a third-person pronoun of the other gender, in each language
SEAT_GENDER = {"forehand": "f", "middle": "f", "rear": "f", "dealer": "m"}
OTHER_GENDER = {
    "ru": {"f": r"\w+[аяиеыуё]л(?:ся)?|его|он", "m": r"\w+ла(?:сь)?|её|она"},
    "uk": {"f": r"\w+[аяиіуе]в(?:ся)?|його|він", "m": r"\w+ла(?:ся)?|її|вона"},
    "pl": {"f": r"\w+(?:ał|ył|ił|ął|ół|eł)|jego|on", "m": r"\w+(?:ała|yła|iła|ęła)|jej|ona"},
}


def _decimal_counts(text: str, lang: str) -> list[str]:
    """Decimal numbers followed by a noun in a count's form (``66,4 очков``)."""
    found = re.finditer(rf"{DECIMAL}\s+(?:{COUNT_FORMS[lang]})\b", text)
    return [m.group(0) for m in found]


def _ungrouped(text: str, english: str, lang: str) -> list[str]:
    """Numbers the English groups (``4,084``) that ``text`` writes ungrouped (``4084``)."""
    least = 10_000 if lang == "pl" else 1_000
    wrong = []
    for m in re.finditer(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d,])", english):
        digits = m.group(0).replace(",", "")
        if int(digits) >= least and re.search(rf"(?<![\d\u00a0.,]){digits}(?![\d])", text):
            wrong.append(digits)
    return wrong


def _bare_names(text: str) -> list[str]:
    """Names of players and rule sets in a sentence outside backticks and paths."""
    prose = re.sub(r"`[^`]*`|\S*/\S*|--[\w-]+ \S+|\b[\w-]+\.\w+\b", " ", text)
    return CODE_NAMES.findall(prose)


def _seat_genders(text: str, lang: str) -> list[str]:
    """A seat's name next to a past tense or a pronoun of the other gender."""
    from sim.i18n import role, speaking

    wrong = []
    with speaking(lang):
        names = {seat: role(seat) for seat in SEAT_GENDER}
    for seat, name in names.items():
        other = OTHER_GENDER[lang][SEAT_GENDER[seat]]
        for pattern in (
            rf"(?i)\b{name}\s*\(?(?:{other})\b",
            rf"(?i)\b(?:{other})\s+{name}\b",
        ):
            wrong += [m.group(0) for m in re.finditer(pattern, text)]
    return wrong


def _words(text: str) -> set[str]:
    text = CODE.sub(" ", text)
    return {w.lower() for w in re.findall(r"[A-Za-z]{3,}", text)} - NAMES


def _points(text: str) -> list[str]:
    """Numbers written with a decimal point, outside code and file names."""
    return re.findall(r"(?<![\w.,/-])\d+\.\d+(?![\w./])", CODE.sub(" ", text))


@cache
def _plural_keys() -> tuple[str, ...]:
    """The plural messages of the sources (read once: extracting parses every source)."""
    return tuple(k for k in extract() if "\0" in k)


def _plural_checks(text: str, lang: str) -> list[str]:
    """Counts of the catalogue's plural messages in ``text`` whose form is not the count's."""
    cat = catalogue(lang)
    rule = cat.plural  # type: ignore[attr-defined]
    wrong = []
    for key in _plural_keys():
        one, many = key.split("\0")
        forms = tuple(cat.ngettext(one, many, n) for n in (1, 2, 5))
        # the count is the field just before the first word that differs between forms
        parts = [re.split(r"(\{\w+\})", f) for f in forms]
        if len({len(p) for p in parts}) != 1:
            continue
        count_field = None
        for k in range(len(parts[0])):
            if len({p[k] for p in parts}) > 1 and k > 0:
                count_field = parts[0][k - 1]
                break
        if count_field is None:
            continue
        for form in set(forms):
            pattern = ""
            for piece in re.split(r"(\{\w+\})", form):
                if piece == count_field:
                    pattern += r"(?P<n>\d[\d\u00a0]*)"
                elif FIELD.fullmatch(piece):
                    pattern += r".+?"
                else:
                    pattern += re.escape(piece)
            for m in re.finditer(pattern, text):
                n = int(m.group("n").replace("\u00a0", ""))
                right = cat.ngettext(one, many, n)
                if form != right:
                    wrong.append(f"{m.group(0)!r}: {n} takes form {rule(n)}, {right!r}")
    return wrong


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[list[str]]]:
    """Each command's arguments (the runs it reads made once)."""
    from sim.cli import main

    work = tmp_path_factory.mktemp("outputs")
    trace = work / "t.jsonl"
    main(["hands", "--deals", "300", "--seed", "3", "--out", str(work / "h"), "--trace",
          str(trace), "--workers", "1", "--quiet"])  # fmt: skip
    main(["games", "--games", "40", "--seed", "3", "--out", str(work / "g"), "--workers", "1",
          "--quiet"])  # fmt: skip
    hand = "Т♥ 10♥ К♥ Д♥ Т♠ 9♣ В♦"
    weak = "AS TS AC TC KD JH 9H"
    quick = ["--player", "heuristic", "--samples", "300"]
    deal = ["--hands", "AH TH KH QH AS 9C JD", "KS QS JS TS 9S AC KC", "AD KD QD TD 9D QC JH"]
    return {
        "ok": [
            ["advise", hand, *quick],
            ["advise", hand, "--seat", "dealer", "--auction", "100 pass", *quick],
            ["advise", weak, "--seat", "forehand", "--auction", "100 120 pass", *quick],
            ["advise", weak, "--seat", "dealer", "--auction", "100 160", *quick],
            [
                "advise",
                weak,
                "--seat",
                "middle",
                "--auction",
                "100 pass 120 pass",
                "--talon-shown",
                "KH QH 9D",
                *quick,
                "--budget",
                "0.001",
            ],
            ["advise", hand, "--talon", "KS QS 9H", "--bid", "120", "--samples", "4"],
            ["advise", hand, "--score", "800", *quick],
            ["show", str(trace), "--deal", "7"],
            ["solve", *deal, "--talon", "JC TC 9H", "--declarer", "middle"],
            ["bids", str(work / "h")],
            ["barrel", str(work / "g")],
            [
                "duel",
                "--a",
                "strong",
                "--b",
                "heuristic",
                "--deals",
                "200",
                "--seed",
                "2",
                "--quiet",
            ],
        ],
        "refused": [
            ["bids", str(work / "missing")],
            ["barrel", str(work / "h")],
            ["advise", hand, "--seat", "north"],
            ["advise", hand, "--auction", "100 pass 90"],
            ["solve", *deal, "--talon", "JC TC 9H", "--declarer", "north"],
            ["show", str(work / "missing.tdn")],
        ],
    }


def _both(run_main, args: list[str], lang: str) -> tuple[str, str, int]:
    code_en, out_en, err_en = run_main(*args, "--lang", "en")
    code, out, err = run_main(*args, "--lang", lang)
    assert code == code_en, (args, err)
    return out_en + err_en, out + err, code


LANG_PARAMS = [pytest.param(g, marks=() if g == "ru" else pytest.mark.slow) for g in LANGS[1:]]


@pytest.mark.parametrize("lang", LANG_PARAMS)
def test_every_translated_answer_is_in_the_language(outputs, main_io, lang):
    problems = []
    for kind in ("ok", "refused"):
        for args in outputs[kind]:
            en, text, code = _both(main_io, args, lang)
            assert (code == 0) == (kind == "ok"), (args, text)
            # the program's own name before a refusal and the words the user typed stay
            said = re.sub(r"(?m)^thousand \w+:", "", text)
            typed = {w.lower() for a in args for w in re.findall(r"[A-Za-z]{3,}", a)}
            english = _words(said) & _words(en) - typed
            if english:
                problems.append(f"{args[0]}: English {sorted(english)}")
            if _points(text):
                problems.append(f"{args[0]}: decimal points {_points(text)}")
            problems += [f"{args[0]}: {p}" for p in _plural_checks(text, lang)]
            for what, found in (
                ("a decimal before a count's form", _decimal_counts(text, lang)),
                ("not grouped", _ungrouped(text, en, lang)),
                ("a name outside code", _bare_names(said)),
                ("a seat's gender", _seat_genders(text, lang)),
                ("an ASCII arrow, not words or →", re.findall(r".{12}->.{12}", text)),
            ):
                if found:
                    problems.append(f"{args[0]}: {what}: {found}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS[1:])
def test_no_count_stands_before_its_noun_outside_a_plural_message(lang):
    # in a plain (not plural) message a count must not be followed by its noun: the
    # noun's form would be right for some counts only; write "noun: {n}", or use n_()
    po = read_po(Path(__file__).parents[1] / "sim/locale" / lang / "LC_MESSAGES/thousand.po")
    wrong = []
    for msgid, text in po.items():
        if not msgid or "\0" in msgid:
            continue
        for m in re.finditer(r"\{(\w+)\}\s+([^\W\d_][\w'’]*)", text):
            field, word = m.group(1), m.group(2)
            if field in COUNTS and word.lower() not in NOT_NOUNS[lang]:
                wrong.append(f"{{{field}}} {word}: {text[:90]!r}")
    assert not wrong, "\n".join(wrong)


def test_a_plural_message_reads_each_count_in_the_catalogues_form():
    from sim.i18n import n_, speaking

    key = ("runs of {games} game", "runs of {games} games")
    with speaking("ru"):
        shown = [n_(*key, n).format(games=n) for n in (1, 2, 5, 21, 22, 111)]
    assert shown == [
        "серий из 1 партии", "серий из 2 партий", "серий из 5 партий", "серий из 21 партии",
        "серий из 22 партий", "серий из 111 партий",
    ]  # fmt: skip
    assert _plural_checks("серий из 21 партий", "ru")  # the check sees a wrong form
    assert not _plural_checks("серий из 21 партии, серий из 25 партий", "ru")
    with speaking("pl"):
        assert n_(*key, 22).format(games=22) == "serii po 22 partie"


# the fields that name a seat in a message, and a past tense or a pronoun of any gender
SEAT_FIELDS = r"\{(?:seat|declarer|turn|leader|winner)\}"
PAST_OR_PRONOUN = {
    "ru": r"\w+(?:л|ла|ло|ли)(?:ся|сь)?|его|её|он|она",
    "uk": r"\w+(?:в|ла|ло|ли)(?:ся)?|його|її|він|вона",
    "pl": r"\w+(?:ł|ła|ło|li|ły)|jego|jej|on|ona",
}


def seat_words_without_gender(po: dict[str, str], lang: str) -> list[str]:
    """Messages joining a seat field to a past tense or a pronoun, one form for every seat.

    A seat's name is feminine or masculine (вторая рука, сдающий): such a message needs
    a translation for each seat (:func:`sim.i18n.seat_`, a message with a context), or
    words that agree with any seat ("прикуп взял играющий ({declarer})").
    """
    words = PAST_OR_PRONOUN[lang]
    joined = re.compile(rf"{SEAT_FIELDS}\s*\(?(?:{words})\b|\b(?:{words})\s+{SEAT_FIELDS}")
    return [text for msgid, text in po.items() if "\x04" not in msgid and joined.search(text)]


@pytest.mark.parametrize("lang", LANGS[1:])
def test_a_seat_is_never_joined_to_words_of_one_gender(lang):
    po = read_po(Path(__file__).parents[1] / "sim/locale" / lang / "LC_MESSAGES/thousand.po")
    assert not seat_words_without_gender(po, lang)
    # each seat's own translation agrees with it
    from sim.i18n import seat_, speaking

    with speaking(lang):
        passed = {seat: seat_(seat, "passed") for seat in SEAT_GENDER}
    for seat, gender in SEAT_GENDER.items():
        assert not re.fullmatch(OTHER_GENDER[lang][gender], passed[seat]), (seat, passed)


def test_the_checks_see_each_kind_of_mistake():
    # a decimal before a count's form; the genitive singular passes
    assert _decimal_counts("получит +57,0 ± 0,6 очков, играя", "ru")
    assert _decimal_counts("отримає +66,4 ± 1,5 очок, граючи", "uk")
    assert _decimal_counts("partia trwa 34,27 [30,01; 38,54] rozegranych rozdań", "pl")
    assert not _decimal_counts("+57,0 ± 0,6 очка; 34,27 [30,01; 38,54] сыгранной раздачи", "ru")
    assert not _decimal_counts("daje +0,50 [+0,25; +0,75] punktu na rozdanie", "pl")
    # a number the English groups, written without its space
    assert _ungrouped("(их 2000)", "(2,000 of them)", "ru") == ["2000"]
    assert not _ungrouped("(их 2\u00a0000), зерно 1000", "(2,000 of them), seed 1000", "uk")
    assert not _ungrouped("(jest ich 2000)", "(2,000 of them)", "pl")
    assert _ungrouped("rozdań: 100000", "100,000 deals", "pl") == ["100000"]
    # a name bare in a sentence; in backticks, a path or a flag's value it is code
    assert _bare_names("Раздача 7 — правила classic (9dc76ec03af7a856)") == ["classic"]
    assert not _bare_names("правила `classic`, --player pimc, runs/strong/run.json")
    # a seat's gender, in a sentence and in a catalogue
    assert _seat_genders("druga ręka (spasował) ma meldunek", "pl")
    assert _seat_genders("вторая рука (торговался до 160)", "ru")
    assert _seat_genders("прикуп взяв друга рука", "uk")
    assert not _seat_genders("вторая рука (спасовала), сдающий (спасовал)", "ru")
    old = {
        "Auction": "Торги: {auction}; прикуп {talon} взяв {declarer}.",
        "moves": "ходы, {seat} (его ход):",
    }
    assert len(seat_words_without_gender(old, "uk")) == 1
    assert len(seat_words_without_gender(old, "ru")) == 1
