"""The report in the player's language (``thousand report --lang``): pages, tables, figures.

The same small runs make the report once in English and once in each language. An
English word of the English page left on the translated one is a string that was not
translated (names of rules and players, code and file names aside); so is one in the
texts of a figure (titles, axis labels, legends, ticks). The shown tables are headed
in words in every language, English included: no code name (``fell_attempts``)
heads a column. The CSV files are the data contract: the same in every language.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text as FigureText
from support import words as page_words

from analysis.compare import compare_folders
from analysis.odds import odds_result
from analysis.safebids import SafeBidRun, build_result
from sim.i18n import LANGS, speaking
from sim.jobs.advise import AdviseSpec
from sim.jobs.advise import advise as advise_job
from sim.jobs.ladder import LadderSpec, ladder
from sim.odds_keys import ODDS_KEYS
from sim.rules import load_rules
from sim.runs.compare import dealing_comparison, play_rule_sets
from sim.runs.declarer import PAR, run_items
from sim.runs.folder import simulate_report
from sim.runs.odds import run_odds
from views import pages
from views.odds import ODDS_WORDS
from views.pages import Table
from views.report import write_report_folder
from views.sections.ladder import ladder_section

SEED = 5
DEALS, HANDS, GAMES, SAFE_DEALS = 4000, 600, 40, 600
RULE_SETS = ("classic", "app")
# words a translated page may keep: the rule sets' names (tests.test_i18n.words drops
# the players' and `code`), the formats' and the words Polish writes as English does
FORMATS = {"html", "markdown"}
# Polish words spelt as English ones: "minus" is Polish too, and Elo a name ("jak Elo")
KEPT = {"ru": FORMATS, "uk": FORMATS, "pl": FORMATS | {"test", "same", "one", "minus", "elo"}}
# a rule key (reshuffle.hand_nines), a choice's code name (one_falls), a file or a path
# (docs/rules.md, index.html), a link's target
CODE = re.compile(r"\b[\w-]+(?:[./_][\w-]+)+\b|\]\([^)]*\)")


def words(text: str) -> set[str]:
    """The English-looking words of a page or a figure, less names and code."""
    return page_words(CODE.sub(" ", text)) - set(RULE_SETS)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict:
    work = tmp_path_factory.mktemp("runs")
    rules = load_rules("classic")
    odds_run = run_odds(rules, DEALS, SEED)
    played = simulate_report(rules, HANDS, GAMES, SEED, work)
    dealing = dealing_comparison(
        rules, odds_run, played.games_dir, GAMES, SEED, work / "cut",
        odds_of=lambda r: run_odds(r, DEALS, SEED),
    )  # fmt: skip
    sets = [(name, load_rules(name)) for name in RULE_SETS]
    compared = compare_folders(play_rule_sets(sets, GAMES, SEED, work / "compare"))
    items = {
        (p, seed): run_items(rules, p, n, seed)
        for seed in (SEED, SEED + 1)
        for p, n in (("heuristic", SAFE_DEALS), (PAR, 2))
    }
    sizes = {"heuristic": SAFE_DEALS, PAR: 2}
    safe = build_result(SafeBidRun(rules, ["heuristic", PAR], [], SEED, SEED + 1, sizes, items))
    ask = AdviseSpec(
        rules=rules,
        hand="AH TH KH QH AS 9C JD",
        seat="forehand",
        player="heuristic",
        samples=100,
        seed=SEED,
        budget=0.0,
    )
    example = advise_job(ask).answer
    board = LadderSpec(rules=rules, players=("first", "heuristic", "strong"), deals=40, seed=SEED)
    return {
        "odds": odds_result(odds_run),
        "hands": played.hands_dir,
        "games": played.games_dir,
        "dealing": dealing,
        "compare": compared,
        "rule_sets": sets,
        "safe": safe,
        "examples": [example],
        "ladder": ladder(board).result,
    }


def figure_texts(fig: Figure) -> str:
    """Every text a figure draws: titles, axis labels, legends, tick labels."""
    return "\n".join(t.get_text() for t in fig.findobj(FigureText))


def report(runs: dict, out: Path, lang: str, monkeypatch: pytest.MonkeyPatch) -> dict:
    """The report in ``lang``: its Markdown page, sections and figures' texts."""
    drawn: list[str] = []
    png = pages.figure_png

    def keep_texts(fig: Figure) -> bytes:
        drawn.append(figure_texts(fig))
        return png(fig)

    monkeypatch.setattr(pages, "figure_png", keep_texts)
    with speaking(lang):
        sections = write_report_folder(
            out,
            runs["odds"],
            runs["hands"],
            runs["games"],
            compare=runs["compare"],
            dealing=runs["dealing"],
            safebids=runs["safe"],
            examples=runs["examples"],
            rule_sets=runs["rule_sets"],
            ladder=ladder_section(runs["ladder"], 40, 40, SEED),
        )
    monkeypatch.undo()
    page = (out / "report.md").read_text(encoding="utf-8")
    return {"page": page, "sections": sections, "figures": drawn, "out": out}


@pytest.fixture(scope="module")
def english(runs: dict, tmp_path_factory: pytest.TempPathFactory) -> dict:
    with pytest.MonkeyPatch.context() as mp:
        return report(runs, tmp_path_factory.mktemp("en") / "report", "en", mp)


def test_the_english_tables_are_headed_in_words(english):
    names = set(RULE_SETS)
    tables = [b for s in english["sections"] for b in s.blocks if isinstance(b, Table)]
    assert len(tables) >= 20
    for table in tables:
        coded = [c for c in table.frame.columns if "_" in c and c not in names]
        assert not coded, (table.title, coded)
    anchors = [s.anchor for s in english["sections"]]
    assert anchors == [
        "summary", "marriages", "safebids", "bids", "barrel", "seats", "compare",
        "run", "odds", "dealing", "ladder",  # the analysts' appendix, folded at the end
    ]  # fmt: skip


def test_every_odds_key_has_its_meaning_marked():
    assert ODDS_WORDS == ODDS_KEYS  # the same words, marked for the catalogues


@pytest.mark.parametrize(
    "lang", [pytest.param(g, marks=() if g == "ru" else pytest.mark.slow) for g in LANGS[1:]]
)
def test_the_report_is_written_in_the_language(runs, english, tmp_path, lang, monkeypatch):
    other = report(runs, tmp_path / "report", lang, monkeypatch)
    left = words(other["page"]) & words(english["page"]) - KEPT[lang]
    assert not left, f"English words left on the {lang} page: {sorted(left)}"
    assert len(other["figures"]) == len(english["figures"]) == 11
    for en, shown in zip(english["figures"], other["figures"], strict=True):
        left = words(shown) & words(en) - KEPT[lang]
        assert not left, f"English words left in a {lang} figure: {sorted(left)}\n{shown}"
    # the same sections, tables and files; the CSV files are the same in every language
    assert [s.anchor for s in other["sections"]] == [s.anchor for s in english["sections"]]
    for mine, theirs in zip(english["sections"], other["sections"], strict=True):
        assert mine.csvs.keys() == theirs.csvs.keys()
        for name, frame in mine.csvs.items():
            assert frame.equals(theirs.csvs[name]), name
    for name in ("odds.csv", "games_barrel_outcomes.csv", "compare.csv"):
        assert (other["out"] / name).read_bytes() == (english["out"] / name).read_bytes()
    assert f'<html lang="{lang}">' in (other["out"] / "index.html").read_text(encoding="utf-8")


def test_a_section_says_it_in_the_language():
    from views.sections.summary import p_value_words

    with speaking("ru"):
        assert "p = 0,033" in p_value_words(0.033, 300, 0.057, 1 / 3)
    assert "p = 0.033" in p_value_words(0.033, 300, 0.057, 1 / 3)
