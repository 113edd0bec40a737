"""``thousand compare``, ``thousand duel`` and the command line's refusals in the languages.

The Markdown of a comparison and of a duel holds no English word of the English one
but names (rule sets, players, code, files) when written in Russian, Ukrainian or
Polish, and its tables are headed in words in English too; the JSON stays the
contract's. Bad input is refused in one line, exit code 2, in the language of
``--lang`` (argparse's own messages too), and in English as before without it.
"""

from __future__ import annotations

import json
import re
from itertools import pairwise

import pytest
from support import words

from sim.i18n import LANGS
from sim.rules import preset_names

# names an answer keeps as they are: the rule sets, the players, a rules hash
KEPT = re.compile(
    r"\b(?:" + "|".join(sorted(preset_names(), key=len, reverse=True)) + r")\b"
    r"|\b(?:random|heuristic|strong)\b|\b[0-9a-f]{16}\b"
    r"|\]\([\w.]+\.png\)"  # a picture's file name in a Markdown link
)
LANGUAGES = [pytest.param(g, marks=() if g == "ru" else pytest.mark.slow) for g in LANGS[1:]]


def english_left(en: str, other: str, *paths: object) -> set[str]:
    """The words of the English text still in the translated one (names and paths aside)."""

    def clean(text: str) -> str:
        for path in paths:
            text = text.replace(str(path), "")
        return KEPT.sub("", text)

    return words(clean(en)) & words(clean(other))


def headings(markdown: str) -> list[str]:
    """Every column heading of the Markdown tables."""
    lines = markdown.splitlines()
    return [
        cell.strip()
        for line, rule in pairwise(lines)
        if line.startswith("| ") and rule.startswith("| ---")
        for cell in line.strip("|").split("|")
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_compare_answers_in_the_language(thousand, tmp_path, lang):
    runs = []  # (stdout: the summary, stderr: the progress, compare.md: the tables)
    for g in ("en", lang):
        out = tmp_path / g
        r = thousand("compare", "--vs", "app,four_players", "--games", "30", "--workers", "1",
                     "--out", str(out), "--lang", g)  # fmt: skip
        assert r.returncode == 0, r.stderr
        runs.append((r.stdout, r.stderr, (out / "compare.md").read_text(encoding="utf-8")))
    en, other = runs
    for i in range(3):
        left = english_left(en[i], other[i], tmp_path / "en", tmp_path / lang)
        assert not left, (left, other[i])
    names = headings(en[2])
    assert names and not [n for n in names if "_" in n]  # words, not code names
    assert "width_crn" not in en[2] and "True" not in en[0]
    # the JSON is the contract's, whatever the language
    r = thousand("compare", "--vs", "app", "--games", "30", "--workers", "1", "--quiet",
                 "--json", "--lang", lang)  # fmt: skip
    effect = json.loads(r.stdout)["effects"][0]
    assert effect["metric"] == "game_length" and effect["meaning"] == "played deals per game (mean)"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_duel_answers_in_the_language(thousand, tmp_path, lang):
    for i, size in enumerate((["--deals", "30"], ["--games", "2", "--first-dealer", "1"])):
        args = ["duel", "--a", "heuristic", "--b", "random", *size, "--workers", "1"]
        folders = tmp_path / f"en{i}", tmp_path / f"{lang}{i}"
        en = thousand(*args, "--lang", "en", "--out", str(folders[0]))
        other = thousand(*args, "--lang", lang, "--out", str(folders[1]))
        assert en.returncode == other.returncode == 0, other.stderr
        assert (folders[1] / "duel.md").read_text(encoding="utf-8") == other.stdout
        for e, o in ((en.stdout, other.stdout), (en.stderr, other.stderr)):
            left = english_left(e, o, *folders)
            assert not left, (left, o)
        names = headings(en.stdout)
        assert names and not [n for n in names if "_" in n], names
    doc = json.loads(thousand(*args, "--lang", lang, "--json", "--quiet").stdout)
    assert set(doc["measures"]) == {"a_win_rate", "score_diff", "unfinished_rate"}
    assert doc["measures"]["unfinished_rate"]["meaning"].startswith("games without a winner")


# (arguments, the culprit the line names, the English line without --lang)
REFUSED = [
    (["advise", "XX 10♥ К♥ Д♥ Т♠ 9♣ В♦"], "'XX'",
     "thousand advise: error: HAND: malformed card 'XX': expected rank 9 J Q K 10/T A"),
    (["compare", "--vs", "app", "--games", "5", "--rules", "clasic"], "'clasic'",
     "thousand compare: error: unknown rules preset 'clasic' (did you mean 'classic'?)"),
    (["duel", "--a", "heuristic", "--deals", "5", "--rules", "no_such_rules"], "'no_such_rules'",
     "thousand duel: error: unknown rules preset 'no_such_rules'"),
    (["compare", "--vs", "app", "--games", "0"], "--games",
     "thousand compare: error: argument --games: must be a positive integer, got '0'"),
    (["duel", "--a", "heuristic"], "--deals",
     "thousand duel: error: one of the arguments --deals --games is required"),
    (["duel", "--a", "heuristic", "--deals", "5", "--first-dealer", "x"], "'x'",
     "thousand duel: error: argument --first-dealer: invalid int value: 'x'"),
    (["compare", "--vs", "app"], "--games",
     "thousand compare: error: the following arguments are required: --games"),
    (["compare", "--vs", "app", "--games", "5", "--bogus"], "--bogus",
     "thousand compare: error: unrecognized arguments: --bogus"),
    (["duel", "--a", "heuristic", "--deals", "5", "--first-dealer", "0"], "--first-dealer",
     "thousand duel: error: --first-dealer: only with --games"),
    (["compare", "--vs", "app", "--games", "5", "--resume"], "--resume",
     "thousand compare: error: --resume: give the --out of the interrupted compare"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "culprit", "english"), REFUSED)
def test_bad_input_is_refused_in_one_line_in_the_language(run_main, args, culprit, english):
    code, en = run_main(*args)
    assert code == 2 and en.count("\n") == 1 and en.startswith(english), en
    code, ru = run_main(*args, "--lang", "ru")
    assert code == 2 and ru.count("\n") == 1 and culprit in ru, ru
    assert ": ошибка: " in ru and re.search("[а-я]{4}", ru.partition(": ошибка: ")[2]), ru
    # the message's English words are gone (the program, the flags and the values aside)
    # (argparse's "invalid int value" is said in words too: "ожидалось целое число")
    code_words = re.compile(r"\bthousand(?: \w+)?:|--[\w-]+|'[^']*'|\bHAND\b|\.toml\b")
    left = words(KEPT.sub("", code_words.sub("", en))) & words(KEPT.sub("", code_words.sub("", ru)))
    assert not left, (left, ru)


def test_the_language_of_a_refusal_is_the_commands(run_main, monkeypatch):
    monkeypatch.setenv("THOUSAND_LANG", "ru")
    code, err = run_main("compare", "--vs", "app", "--games", "0")  # compare speaks it
    assert code == 2 and "ошибка" in err and "--games" in err
    code, err = run_main("odds", "--deals", "0")  # odds answers in English: refuses so too
    must = "must be a positive integer, got '0'"
    assert code == 2 and err == f"thousand odds: error: argument --deals: {must}\n"
    code, err = run_main("compare", "--vs", "app", "--games", "0", "--lang", "en")
    assert code == 2 and err.startswith("thousand compare: error: argument --games:")
    monkeypatch.setenv("THOUSAND_LANG", "xx")  # a language it does not speak: English
    code, err = run_main("compare", "--vs", "app", "--games", "0")
    assert code == 2 and err.startswith("thousand compare: error: argument --games:")


# (language, argparse's headings, the --deals help of odds) of every language's --help
HELP = [
    ("en", "usage: thousand odds", "options:", "deals to count (default 1,000,000)"),
    ("ru", "использование: thousand odds", "параметры:", "сколько раздач посчитать"),
    ("uk", "використання: thousand odds", "параметри:", "скільки роздач порахувати"),
    ("pl", "użycie: thousand odds", "opcje:", "ile rozdań policzyć"),
]


@pytest.mark.parametrize(("lang", "usage", "options", "deals"), HELP)
def test_help_is_written_in_the_language(main_io, monkeypatch, lang, usage, options, deals):
    monkeypatch.setenv("COLUMNS", "80")
    # --lang before the command (odds answers in English: its help follows the user's)
    code, out, _ = main_io("--lang", lang, "odds", "--help")
    assert code == 0 and out.startswith(usage) and f"\n{options}\n" in out, out
    assert deals in " ".join(out.split()), out
    assert max(len(line) for line in out.splitlines()) <= 80 or lang == "en", out
    # --lang after the command and after --help; the environment's language without it
    code, after, _ = main_io("odds", "--help", "--lang", lang)
    assert code == 0 and after == out
    monkeypatch.setenv("THOUSAND_LANG", lang)
    assert main_io("odds", "--help")[1] == out


# what a help keeps as the user types it: names of players, seats and decision kinds given
# in English, formats and programs (flags, metavars, files and quoted values go first)
HELP_CODE = {
    "thousand", "pimc", "par", "cheater", "first", "guide", "none", "cut", "forehand", "middle",
    "dealer", "rear", "contract", "bid", "discard", "play", "outcome", "dask", "localcluster",
    "html", "markdown", "png", "csv", "json", "parquet", "toml", "http", "stdout", "stderr",
    "dealid", "list", "local", "dir", "rules",
}  # fmt: skip
HELP_NOT_WORDS = re.compile(
    r"\[[^\]]*\]|\{[^}]*\}|'[^']*'|\"[^\"]*\"|--?[\w-]+|\$\w+|\S+[./:=]\S+|\w*_\w*"
    r"|\b[A-Z][A-Z\d]+\b"
)


# Polish words that are English ones too
POLISH = {"same", "folder", "port"}


def help_words(text: str, lang: str = "en") -> set[str]:
    """The words of a help, less what it keeps as typed (:data:`HELP_CODE`)."""
    text = re.sub(r"-\n\s+", "-", text)  # a flag wrapped at its hyphen
    found = words(KEPT.sub(" ", HELP_NOT_WORDS.sub(" ", text))) - HELP_CODE
    return found - POLISH if lang == "pl" else found


def test_every_help_is_translated_and_english_is_as_before(main_io, monkeypatch):
    from sim.cli import build_parser
    from sim.i18n import speaking

    monkeypatch.setenv("COLUMNS", "100")
    names = list(build_parser().commands)
    english = main_io("--help")[1]
    assert english.startswith("usage: thousand [-h] [--version] [--lang {en,ru,uk,pl}]")
    for lang in LANGS[1:]:
        with speaking(lang):
            parser = build_parser()
        for name in [None, *names]:
            args = ["--lang", lang, "--help"] if name is None else ["--lang", lang, name, "--help"]
            code, out, err = main_io(*args)
            # every help text and heading translated (the flags, the metavars and the names
            # of players and rules aside), wrapped to the terminal
            en = main_io(*([] if name is None else [name]), "--help")[1]
            left = help_words(en) & help_words(out, lang) - set(names)  # the commands' names
            assert code == 0 and not err and not left, (lang, name, left)
            assert max(len(line) for line in out.splitlines() if " " in line.strip()) <= 100
        assert parser.format_help() == main_io("--lang", lang, "--help")[1]


def test_a_mistyped_command_or_flag_gets_a_suggestion(run_main):
    code, err = run_main("odd")
    assert code == 2 and err == "thousand: error: unknown command 'odd' (did you mean 'odds'?)\n"
    code, err = run_main("odds", "--deal", "5")
    assert code == 2 and err == (
        "thousand odds: error: unrecognized arguments: --deal 5 (did you mean --deals?)\n"
    )
    code, err = run_main("advise", "AH", "--rules-file", "x.toml")
    assert code == 2 and err.endswith("(did you mean --rules?)\n") and err.count("\n") == 1
    code, err = run_main("rules", "shwo")
    assert code == 2 and "(did you mean 'show'?)" in err
    # in the language of the command's answer
    code, err = run_main("--lang", "ru", "odd")
    assert err == "thousand: ошибка: неизвестная команда 'odd' (может быть, 'odds'?)\n"
    code, err = run_main("advise", "AH", "--sead", "3", "--lang", "pl")
    assert code == 2 and err == (
        "thousand advise: błąd: nierozpoznane argumenty: --sead 3 (czy chodziło o --seed?)\n"
    )
    code, err = run_main("duel", "--a", "x", "--deals", "5", "--first-dealer", "x", "--lang", "uk")
    assert code == 2 and "очікувалося ціле число, отримано 'x'" in err, err
    # nothing near: no suggestion
    code, err = run_main("odds", "--bogus")
    assert code == 2 and err == "thousand odds: error: unrecognized arguments: --bogus\n"


def test_ctrl_c_is_answered_in_the_language(main_io, tmp_path, monkeypatch):
    import sim.cli.compare

    def interrupted(args):
        partial = tmp_path / ".c.partial"
        partial.mkdir(exist_ok=True)
        (partial / "manifest.jsonl").write_text('{"chunk": 0}\n')
        raise KeyboardInterrupt

    monkeypatch.setattr(sim.cli.compare, "cmd_compare", interrupted)
    args = ["compare", "--vs", "app", "--games", "5", "--lang", "ru"]
    code, _, err = main_io(*args, "--out", str(tmp_path / "c"))
    assert code == 130 and err.startswith("thousand compare: прервано;") and "--resume" in err
    code, _, err = main_io(*args, "--out", str(tmp_path / "d"))
    assert code == 130 and err == "thousand compare: прервано\n"


def test_the_process_speaks_as_before_after_a_command(thousand):
    from sim.i18n import language

    assert language() == "en"
    assert thousand("compare", "--vs", "app", "--games", "0", "--lang", "ru").returncode == 2
    assert language() == "en"
