"""The page for players (``thousand guide --player-page``; the report's first section).

One small guide is played once and its page written in English and in Russian. The
page answers how high to bid from the class tables by the one rule: a grid of every
class of hand (its marriages and aces) with the choice at every seat, the very grid of
the offline page to tap a hand and ``thousand advise``'s answer for a hand of each
class; and states the guide's own numbers, each with its interval: forehand's forced
100, what to give away, the barrel and bidding on it, bolts and the 555 reset. Its
picture is written, embedded and decodes;
no value breaks across lines; no parameter settings are dumped on a page; the Russian
page keeps no English word but names in backticks; and a report's page is the guide's
page when both have the same rules, sizes and seed.
"""

from __future__ import annotations

import base64
import io
import math
import re
from dataclasses import replace
from html import unescape
from pathlib import Path
from types import SimpleNamespace

import polars as pl
import pytest
from support import seen_text

from sim.i18n import speaking
from sim.rules import load_rules

CLASSIC = load_rules("classic")
NB = "\u00a0"
SPEC = {"seed": 7, "deals": 1500, "hands": 1500, "games": 60, "odds_deals": 5000}


def small_spec(**more):
    from sim.jobs.guide import GuideSpec

    return GuideSpec(**{"rules": CLASSIC, "duel_deals": None, "workers": 1, **SPEC, **more})


@pytest.fixture(scope="module")
def book():
    from sim.jobs.guide import build_guide

    return build_guide(small_spec())


@pytest.fixture(scope="module")
def pages(book, tmp_path_factory):
    """The guide folder with its page for players in English and in Russian."""
    out = {}
    for lang in ("en", "ru"):
        folder = tmp_path_factory.mktemp("guide") / lang
        with speaking(lang):
            book.write(folder, {}, player_page=True)
        out[lang] = folder
    return out


def share(p: float, low: float, high: float, sep: str = ", ") -> str:
    """A share as the page writes it, spaces unbreakable: ``28 % [25, 31]``.

    The interval rounded outward: it holds what the unrounded one held.
    """
    down, up = math.floor(100 * low + 1e-9), math.ceil(100 * high - 1e-9)
    return f"{100 * p:.0f}{NB}%{NB}[{down}{sep.replace(' ', NB)}{up}]"


def points(v: float, low: float, high: float, places: int = 1, signed: bool = False) -> str:
    fmt = f"{{:{'+' if signed else ''},.{places}f}}"
    return f"{fmt.format(v)}{NB}[{fmt.format(low)},{NB}{fmt.format(high)}]"


def md_rows(md: str, first: str) -> list[list[str]]:
    """The cells of the Markdown table whose first heading is ``first``."""
    lines = md.splitlines()
    start = lines.index(next(line for line in lines if line.startswith(f"| {first} |")))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("| "):
            break
        rows.append([c.strip() for c in line.strip("| ").split(" | ")])
    return rows


def seen(page: str) -> str:
    return seen_text(page, ("code", "style", "script", "title"))


def grid_rows(page: str) -> dict[str, list[str]]:
    """The cells of the first ``<table class="glance">`` of an HTML page, by row heading."""
    table = page[page.index('<table class="glance">') :]
    table = table[: table.index("</table>")]
    rows = {}
    for head, cells in re.findall(r"<tr><th>(.*?)</th>(.*?)</tr>", table):
        if "<td>" in cells:  # not the heading
            rows[unescape(head)] = [unescape(c) for c in re.findall(r"<td>(.*?)</td>", cells)]
    return rows


def test_the_grid_is_the_advisors_answer_and_the_offline_pages_glance(pages):
    """For a hand of each of the 57 classes at each seat: the sheet's level is the tables'."""
    from analysis.advise import class_of
    from analysis.safebids import marriage_label
    from sim.jobs.advice_tables import load_tables, table_of
    from sim.runs.classes import class_hands

    tables = load_tables(CLASSIC, "strong")
    for lang in ("en", "ru"):
        sheet = grid_rows((pages[lang] / "player.html").read_text(encoding="utf-8"))
        glance = grid_rows((pages[lang] / "advisor.html").read_text(encoding="utf-8"))
        assert sheet == glance, lang  # the same grid, word for word
    sheet = grid_rows((pages["en"] / "player.html").read_text(encoding="utf-8"))
    md = md_rows((pages["en"] / "player.md").read_text(encoding="utf-8"), "marriages \\ aces")
    assert {r[0]: r[1:] for r in md} == sheet  # and the Markdown page's
    labels = list(sheet)
    assert labels[:5] == ["no marriage", "♠ marriage", "♣ marriage", "♦ marriage", "♥ marriage"]
    assert len(labels) == 15 and all(len(cells) == 5 for cells in sheet.values())
    seen = set()
    for members in class_hands(7).values():  # a hand of every class, however rare
        hand = int(members[len(members) // 3])
        mask, aces = class_of(hand)
        name = marriage_label(mask)
        label = "no marriage" if name == "none" else f"{name} marriage"
        want = [table_of(tables, hand, seat, 0.75).best.level for seat in range(3)]
        assert sheet[label][aces] == f"{NB}/ ".join(str(w) if w else "pass" for w in want), label
        seen.add((mask, aces))
    assert len(seen) == 57
    shown = sum(c != "—" for cells in sheet.values() for c in cells)
    assert shown == 57  # every other cell: no hand of 7 cards is of that class


def test_the_grid_reads_the_guides_bid_choices_and_its_player_pools_them(pages):
    folder = pages["en"]
    choices = pl.read_csv(folder / "guide_bid_choices.csv")
    assert choices.height == 57 * 3
    sheet = grid_rows((folder / "player.html").read_text(encoding="utf-8"))
    for (marriages, aces), cell in choices.group_by(["marriages", "aces"], maintain_order=True):
        name = "no marriage" if marriages == "none" else f"{marriages} marriage"
        levels = cell["choice"].to_list()  # forehand, middle, dealer
        assert sheet[name][aces] == f"{NB}/ ".join(str(v) if v else "pass" for v in levels)
    player = pl.read_csv(folder / "guide_player.csv")
    assert player.height == 18 and (player["low"] <= player["level"]).all()
    assert (player["level"] <= player["high"]).all()
    # the guide player's 18 classes hold every class of the grid, each once
    every = choices.filter(pl.col("seat") == "forehand")["class_hands"].sum()
    assert player["class_hands"].sum() == every


def test_each_answer_states_its_measure_with_its_interval(pages):
    folder = pages["en"]
    md = (folder / "player.md").read_text(encoding="utf-8")
    ev = {r["measure"]: r for r in pl.read_csv(folder / "guide_events.csv").iter_rows(named=True)}

    def ev_share(key: str) -> str:
        return share(ev[key]["value"], ev[key]["ci_low"], ev[key]["ci_high"])

    def ev_points(key: str, places: int, signed: bool = False) -> str:
        return points(ev[key]["value"], ev[key]["ci_low"], ev[key]["ci_high"], places, signed)

    # the forced 100: how often forehand plays it, makes it, what it scores
    assert f"plays it, in {ev_share('forehand_100')} of deals" in md
    assert f"makes it in {ev_share('forehand_100_made')} of them" in md
    assert f"scores {ev_points('forehand_100_score', 1, signed=True)} points" in md
    # bolts: how often, and the penalties per game in count and points
    assert f"{ev_share('bolt_share')} of the players of a deal" in md
    assert f"a game has {ev_points('bolt_penalties_per_game', 2)} such penalties" in md
    assert f"{ev_points('bolt_points_per_game', 0)} points, all players" in md
    assert "lose 120 points" in md  # bolt.penalty
    # the 555 reset: what it costs, how often
    assert "drops to 0 (the samosval): it costs 555 points" in md
    assert f"A game has {ev_points('samosvals_per_game', 2)} of them" in md
    assert f"{ev_share('games_with_samosval')} of games have one" in md
    # what to give away: the cost of a give, by suit, with its interval
    for r in pl.read_csv(folder / "guide_discards.csv").iter_rows(named=True):
        assert f"{r['suit']}{NB}{points(r['cost'], r['cost_low'], r['cost_high'], 1)}" in md
    # the barrel: falls, and what to bid on it (target 1000 - barrel 880)
    assert "of climbs onto the barrel end in a fall" in md
    assert "only a made contract of 120 or more wins" in md
    assert "Hands that make 120 in at least 75" in md  # the safe bids
    # the events table holds what it says it is measured over
    assert (
        ev["forehand_100"]["n"] == SPEC["hands"] and ev["samosvals_per_game"]["n"] == SPEC["games"]
    )
    assert ev["forehand_100_made"]["n"] == round(ev["forehand_100"]["value"] * SPEC["hands"])
    for key in ("forehand_100", "forehand_100_made", "bolt_share", "games_with_samosval"):
        assert 0 <= ev[key]["ci_low"] <= ev[key]["value"] <= ev[key]["ci_high"] <= 1, key
    for title in ("How high to bid.", "Forehand's forced 100.", "What the talon brings.",
                  "What to give away.", "When to concede.", "The barrel.", "Bolts.",
                  "The 555 reset."):  # fmt: skip
        assert f"## {title}" in md


def test_the_bid_picture_is_written_embedded_and_decodes(pages):
    from PIL import Image

    folder = pages["en"]
    png = (folder / "player-bids.png").read_bytes()
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG" and 250 <= image.width <= 390  # a phone's width, unscaled
    html = (folder / "player.html").read_text(encoding="utf-8")
    assert 'name="viewport"' in html and "@page{size:A4" in html  # a phone and a printer
    embedded = re.findall(r'<img alt="([^"]+)" src="data:image/png;base64,([^"]+)"', html)
    assert len(embedded) == 1 and base64.b64decode(embedded[0][1]) == png  # self-contained
    assert embedded[0][0].startswith("Bid chart")
    md = (folder / "player.md").read_text(encoding="utf-8")
    assert re.search(r"^!\[Bid chart[^\]]*\]\(player-bids\.png\)$", md, re.M)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_value_breaks_across_lines(pages, lang):
    folder = pages[lang]
    html = (folder / "player.html").read_text(encoding="utf-8")
    for text in (seen(html), (folder / "player.md").read_text(encoding="utf-8")):
        intervals = re.findall(r"\[[-+]?\d[^\]]*\]", text)
        assert len(intervals) >= 12
        assert not [i for i in intervals if " " in i], "a breakable space inside an interval"
        assert not re.findall(r"\d %|% \[|\d \[", text), "a value split at a breakable space"
    # the grid's cells hold levels only (a cell may break between its seats' levels)
    cells = re.findall(r"<td([^>]*)>([^<]*)</td>", html)
    word = "pass" if lang == "en" else "пас"
    level = rf"(?:{word}|\d+)"
    assert len(cells) == 15 * 5 and all(attrs == "" for attrs, _ in cells)
    assert all(re.fullmatch(rf"{level}(?:{NB}/ {level}){{2}}|—", c) for _, c in cells), cells


def test_no_parameter_settings_on_any_page(pages, book):
    folder = pages["en"]
    with speaking("en"):
        section = book.player_section().markdown + book.section().markdown
    texts = [(folder / n).read_text(encoding="utf-8") for n in
             ("player.md", "player.html", "guide.md", "index.html")]  # fmt: skip
    for text in [*texts, section]:
        assert "guide.bid_" not in text and "concede_above" not in text
    assert "`guide_params.txt`" in texts[2]  # the guide page points at the file
    lines = (folder / "guide_params.txt").read_text().split()
    assert lines and all(line.startswith("guide.") for line in lines)  # kept for scripts


def test_the_russian_page_keeps_no_english_word(pages):
    def words(text: str) -> set[str]:
        text = re.sub(r"`[^`]*`|\]\([^)]*\)", "", text)  # names in backticks, link targets
        return {w.lower() for w in re.findall(r"[^\W\d_]{3,}", text) if w.isascii()}

    en, ru = pages["en"], pages["ru"]
    pairs = [
        (seen((en / "player.html").read_text(encoding="utf-8")),
         seen((ru / "player.html").read_text(encoding="utf-8"))),
        ((en / "player.md").read_text(encoding="utf-8"),
         (ru / "player.md").read_text(encoding="utf-8")),
    ]  # fmt: skip
    for english, russian in pairs:
        assert not words(russian) & words(english), words(russian) & words(english)
        assert not words(russian), words(russian)  # not even a name outside backticks
    md = (ru / "player.md").read_text(encoding="utf-8")
    assert md.startswith("# Тысяча, правила `classic`")
    for term in ("марьяж", "прикуп", "болт", "самосвал", "бочк", "первая рука", "пас"):
        assert term in md, term


def test_the_report_page_is_the_guides_page_for_the_same_sizes_and_seed(
    book, pages, tmp_path, monkeypatch
):
    """The report's guide plays the guide's sizes and reuses only the same hands."""
    from sim.jobs import report as report_job
    from sim.jobs.guide import DUEL_DEALS, SIZES, GuideSpec, check_guide
    from sim.jobs.report import ReportSpec, guide_items
    from sim.runs.declarer import run_items
    from sim.runs.folder import QUIET
    from views.player import write_player_page

    # by default both play the same sizes, seed and risk
    default = ReportSpec(rules=CLASSIC).guide_spec()
    guide = GuideSpec(rules=CLASSIC)
    assert (default.deals, default.hands, default.games, default.odds_deals) == (
        guide.deals, guide.hands, guide.games, guide.odds_deals
    ) == tuple(SIZES.values())  # fmt: skip
    assert (default.seed, default.risk, default.duel_deals) == (0, guide.risk, DUEL_DEALS)
    # a small report: the guide's sizes, its hands cut from a larger safe-bid run
    monkeypatch.setitem(report_job.GUIDE_SIZES, "deals", SPEC["deals"])
    spec = ReportSpec(rules=CLASSIC, seed=SPEC["seed"], deals=SPEC["odds_deals"],
                      hands=SPEC["hands"], games=SPEC["games"], safe_deals=2 * SPEC["deals"],
                      guide_duel_deals=50, workers=1)  # fmt: skip
    played = spec.guide_spec()
    assert (played.deals, played.hands, played.games, played.odds_deals) == (
        SPEC["deals"], SPEC["hands"], SPEC["games"], SPEC["odds_deals"]
    )  # fmt: skip
    items = run_items(CLASSIC, "strong", 2 * SPEC["deals"], SPEC["seed"])
    run = SimpleNamespace(players=["heuristic", "strong"], items={("strong", SPEC["seed"]): items})
    safe = SimpleNamespace(result=SimpleNamespace(run=run))
    assert guide_items(ReportSpec(rules=CLASSIC, params=("strong.bid=0",)), safe) is None
    runs = report_job._guide_runs(spec, safe, QUIET)  # type: ignore[arg-type]
    tables, _duel = check_guide(replace(played, duel_deals=None), runs)
    with speaking("en"):
        write_player_page(tmp_path, tables, CLASSIC.name)
    for name in ("player.md", "player.html", "player-bids.png"):
        assert (tmp_path / name).read_bytes() == (pages["en"] / name).read_bytes(), name
    assert tables.bid_classes.equals(book.guide.bid_classes)
    assert tables.bid_choices.equals(book.guide.bid_choices)


def test_the_reports_section_shows_the_chart_the_picture_and_the_answers(book):
    from PIL import Image

    with speaking("en"):
        section = book.player_section()
    md = section.markdown
    assert "![Bid chart" in md and "(player_bids.png)" in md
    Image.open(io.BytesIO(section.figures["player_bids.png"])).load()
    assert len(md_rows(md, "marriages \\ aces")) == 15  # none, 4 alone, 6 pairs, 4 triples
    assert {"guide_bid_choices.csv", "guide_events.csv"} <= set(section.csvs)
    for title in ("Forehand's forced 100.", "What to give away.", "Bolts.", "The 555 reset."):
        assert f"**{title}**" in md
    assert not re.findall(r"\d %|% \[", md)
    html = section.html
    assert 'src="data:image/png;base64,' in html


def test_a_page_under_other_rules_says_what_is_off(tmp_path):
    """No barrel, no bolt penalty, no 555 reset: the page says so instead of numbers."""
    from analysis.guide import guide_tables
    from sim.jobs.advice_tables import load_tables
    from sim.jobs.guide import collect_runs
    from views.player import write_player_page

    rules = CLASSIC.replace(barrel__at=0, bolt__penalty=0, score__samosval=False)
    # the class tables play single deals from a score of 0, which none of these options
    # touches: the classic ones (kept), instead of building them again for these rules
    tables = load_tables(CLASSIC, "strong")
    runs = collect_runs(small_spec(rules=rules, deals=300, hands=300, games=10), tables=tables)
    with speaking("en"):
        write_player_page(tmp_path, guide_tables(runs), "house")
    md = (tmp_path / "player.md").read_text(encoding="utf-8")
    assert "There is no barrel under these rules." in md
    assert "Bolts cost nothing under these rules." in md
    assert "There is no 555 reset under these rules." in md
    assert Path(tmp_path / "player-bids.png").stat().st_size > 1000


def test_beside_the_page_the_offline_page_to_tap_a_hand_in_the_same_language(pages):
    # guide --player-page writes advisor.html beside player.html: one file, offline
    assert '<html lang="ru">' in (pages["ru"] / "advisor.html").read_text(encoding="utf-8")
    assert '"mode":"offline"' in (pages["en"] / "advisor.html").read_text(encoding="utf-8")
