"""The page to tap a hand in a real headless Chromium: the served page and the offline one.

In each language, on a 390 px phone and a 1280 px screen: seven cards tapped, the seat
picked, a bid entered, and the verdict shown is ``thousand advise --json``'s for that
question (the class tables' answer first); no console error; no value of the answer's
table wraps at 390 px and no Markdown shows. The page keeps what was typed: a score and
the barrel are asked and their line shown; once the auction is over the bid's verdict
gives way to the talon; a bad card in the talon gets a message. The offline page's
script answers as :func:`sim.jobs.advice_tables.table_of` for 400 hands and reads every
card notation :func:`sim.cards.parse_card` reads.

Chromium is the system's (``apt-get install chromium``; ``make report-check`` installs
it), driven by Playwright, which never downloads a browser here. Without Chromium the
tests are skipped. ``$THOUSAND_SHOTS`` (``make report-check``: reports/screenshots)
keeps screenshots: ``serve-LANG-WIDTH.png`` and ``advisor-LANG-WIDTH.png``.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from serve_helpers import running_server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SHOTS = os.environ.get("THOUSAND_SHOTS")
# skipped without Chromium, but not where screenshots are asked for (make report-check)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not SHOTS, reason="no Chromium installed (apt-get install chromium)"
)
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
LANGS = ("en", "ru", "uk", "pl")
WIDTHS = (390, 1280)
HAND = "AH TH KH QH AS 9C JD"


@pytest.fixture(scope="module")
def browser():
    assert CHROMIUM is not None, "no Chromium installed (apt-get install chromium)"
    if SHOTS:
        import playwright.sync_api as sync
    else:
        sync = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="module")
def url():
    with running_server() as address:
        yield address


@pytest.fixture(scope="module")
def offline(tmp_path_factory):
    from sim.jobs.advice_tables import write_advisor_pages
    from sim.rules import load_rules

    folder = tmp_path_factory.mktemp("advisor")
    write_advisor_pages(load_rules("classic"), folder, LANGS)
    return folder


def open_page(browser, address: str, width: int):
    """A page at ``width`` px that records its console errors."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(address)
    return page, errors


def tap(page, hand: str) -> None:
    for code in hand.split():
        page.click(f'#grid button[data-code="{code}"]')


def shot(page, name: str) -> None:
    """The whole page as ``$THOUSAND_SHOTS/NAME.png`` (256 colours, as report_check's)."""
    if not SHOTS:
        return
    from PIL import Image

    path = Path(SHOTS) / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=True)
    Image.open(path).convert("RGB").quantize(colors=256).save(path, optimize=True)


ANSWERS: dict[tuple[str, ...], dict] = {}


def level_of(best: int) -> str:
    """A choice as the verdict's ``data-level`` holds it: the level, or nothing to pass."""
    return "" if not best else str(best)


def assert_no_wrapped_cell(page) -> None:
    """No value in the answer's table breaks over two lines (each cell one line box)."""
    lines = page.evaluate(
        """() => Array.from(document.querySelectorAll('#detail td')).map(td => {
          const r = document.createRange(); r.selectNodeContents(td);
          return new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top))).size;
        })"""
    )
    assert lines and max(lines) == 1, lines


def test_the_page_keeps_the_score_the_barrel_the_auctions_end_and_a_bad_talon(
    browser, url, thousand
):
    # the address: dealer after forehand 100 and middle's pass, on the barrel
    address = f"{url}?lang=en#h=AH.TH.KH.QH.AS.9C.JD&s=dealer&a=100.pass&sc=880&b=1"
    page, errors = open_page(browser, address, 390)
    page.wait_for_selector('#verdict[data-source="advisor"][data-pending="false"]')
    doc = advise_json(thousand, HAND, "--seat", "dealer", "--auction", "100 pass", "--score",
                      "880", "--barrel")  # fmt: skip
    assert page.inner_text("#say") == doc["verdict"]["say"]
    assert page.inner_text("#game") == doc["game"]["say"] and "barrel" in doc["game"]["say"]
    assert page.input_value("#score") == "880" and page.is_checked("#barrel")
    # the dealer raises to 120, forehand passes: the auction is over, won by the dealer
    page.click('#bids button[data-bid="120"]')
    page.wait_for_selector("#bids button.pass")
    page.click("#bids button.pass")
    page.wait_for_selector('#verdict[data-source="none"]')
    assert page.inner_text("#say") == "The auction is over: dealer won at 120."
    assert "talon" in page.inner_text("#why")
    # a talon with a card no notation reads: a message naming it, no question asked
    page.click("#extras summary")
    page.fill("#talon", "К♥ Д♥ Х♦")
    page.wait_for_selector("#talon-error:not(:empty)")
    assert "Х♦" in page.inner_text("#talon-error")
    page.fill("#talon", "KS QS 9H")
    page.wait_for_selector('#verdict[data-source="advisor"][data-action="give"]')
    assert page.inner_text("#talon-error") == ""
    assert not errors, errors
    page.close()


def advise_json(thousand, *args: str) -> dict:
    """``thousand advise ARGS --json`` (asked once per module: the same at both widths)."""
    if args not in ANSWERS:
        r = thousand("advise", *args, "--json")
        assert r.returncode == 0, r.stderr
        ANSWERS[args] = json.loads(r.stdout)
    return ANSWERS[args]


def said(lang: str, template: str, **values: object) -> str:
    """What the page shows for an advisor's phrase: translated, the first letter capital."""
    from sim.i18n import _, speaking

    with speaking(lang):
        text = _(template).format(**values)
    return text[:1].upper() + text[1:]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGS)
def test_tap_a_hand_pick_the_seat_enter_a_bid_read_the_verdict(browser, url, thousand, lang,
                                                               width):  # fmt: skip
    page, errors = open_page(browser, f"{url}?lang={lang}", width)
    tap(page, HAND)
    page.wait_for_selector('#verdict:not([data-source="none"])')  # no eval: the page's CSP
    doc = advise_json(thousand, HAND, "--lang", lang)
    source, level = page.evaluate(  # at one moment: the advisor's may land any time
        "(v => [v.dataset.source, v.dataset.level])(document.getElementById('verdict'))"
    )
    if source == "tables":  # the tables come first
        assert level == level_of(doc["table"]["best"])
    if width == WIDTHS[0]:  # then the advisor's answer replaces it (once per language)
        page.wait_for_selector('#verdict[data-source="advisor"][data-pending="false"]')
        level = page.get_attribute("#verdict", "data-level")  # the advisor's own verdict
        assert level == str(doc["verdict"]["level"] or "")
        assert page.inner_text("#say") == doc["verdict"]["say"]
        assert "`" not in page.inner_text("#verdict")  # no Markdown shows
        assert_no_wrapped_cell(page)
    page.click('#seats button[data-seat="dealer"]')
    page.click('#bids button[data-bid="110"]')  # middle bids 110: the dealer's turn
    page.wait_for_selector('#bids button[data-bid="115"]')
    page.wait_for_selector('#verdict[data-source="advisor"][data-pending="false"]')
    doc = advise_json(thousand, HAND, "--seat", "dealer", "--auction", "100 110", "--lang", lang)
    assert page.inner_text("#say") == doc["verdict"]["say"]
    assert page.get_attribute("#verdict", "data-level") == str(doc["verdict"]["level"] or "")
    assert_no_wrapped_cell(page)
    shot(page, f"serve-{lang}-{width}")
    if lang == "en" and width == 390:  # undo: the bid goes, middle's turn again
        page.click("#undo")
        page.wait_for_selector('#bids button[data-bid="105"]')
        assert "110" not in page.inner_text("#auction-line")
        page.wait_for_selector('#verdict[data-pending="false"]')
    width_now = page.evaluate("document.documentElement.scrollWidth")
    assert width_now <= width, f"the page is {width_now} px wide at {width} px"
    assert not errors, errors
    page.close()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_offline_page_answers_a_tapped_hand_as_the_tables(browser, offline, thousand, lang,
                                                              width):  # fmt: skip
    page, errors = open_page(browser, (offline / f"advisor-{lang}.html").as_uri(), width)
    tap(page, HAND)
    doc = advise_json(thousand, HAND, "--lang", lang)
    assert page.get_attribute("#verdict", "data-source") == "tables"
    assert page.get_attribute("#verdict", "data-level") == level_of(doc["table"]["best"])
    assert page.inner_text("#say") == doc["table"]["verdict"]["say"]
    assert "`" not in page.inner_text("#verdict")
    assert_no_wrapped_cell(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"advisor-{lang}-{width}")
    assert not errors, errors
    page.close()


def test_the_offline_script_is_the_tables_answer_and_reads_every_notation(browser, offline):
    from sim.cards import card_str, parse_card
    from sim.i18n import cards_text
    from sim.jobs.advice_tables import load_tables, table_of
    from sim.rules import load_rules
    from views.advise import table_json

    page, errors = open_page(browser, (offline / "advisor-en.html").as_uri(), 390)
    rng = np.random.default_rng(11)
    hands = [sorted(int(c) for c in rng.choice(24, 7, replace=False)) for _ in range(400)]
    seats = [("forehand", "middle", "dealer")[k % 3] for k in range(400)]
    got = page.evaluate(
        """([hands, seats]) => {
          const T = JSON.parse(document.getElementById('advisor-config').textContent).tables;
          return hands.map((h, k) => window.thousandAdvisor.tableAnswer(h, seats[k], T));
        }""",
        [hands, seats],
    )
    tables = load_tables(load_rules("classic"), "strong")
    for k, (cards, answer) in enumerate(zip(hands, got, strict=True)):
        want = table_json(table_of(tables, sum(1 << c for c in cards), k % 3, 0.75))
        assert (answer["best"], answer["class"], answer["seat"], answer["n"]) == (
            want["best"], want["class"], want["seat"], want["n"]), cards  # fmt: skip
        assert [r["level"] for r in answer["levels"]] == [r["level"] for r in want["levels"]]
        assert [r["mean"] for r in answer["levels"]] == [
            round(r["mean"], 1) for r in want["levels"]]  # fmt: skip
    texts = [card_str(c) for c in range(24)] + [t.lower() for t in cards_text(range(24)).split()]
    for lang in LANGS:
        texts += cards_text(range(24), lang).split()
    texts += ["Тп", "10ч", "Дб", "Вт", "Кх", "A♡", "10♦\ufe0f", "WD", "ah", "т♥"]
    read = page.evaluate("texts => texts.map(t => window.thousandAdvisor.parseCards(t)[0])", texts)
    assert read == [parse_card(t) for t in texts]
    refused = page.evaluate(
        """() => ['1H', 'AX', 'AH AH', 'Q'].map(t => {
          try { window.thousandAdvisor.parseCards(t); return null; } catch (e) { return e.message; }
        })"""
    )
    assert all(refused), refused
    assert not errors, errors
    page.close()
