"""The page to tap a hand in a real headless Chromium: the served page and the offline one.

In each language, on a 390 px phone and a 1280 px screen: seven cards tapped, the seat
picked, a bid entered, and the verdict shown is ``thousand advise --json``'s for that
question (the class tables' answer first); no console error. The offline page's
script answers as :func:`analysis.advise.table_answer` for 400 hands and reads
every card notation :func:`sim.cards.parse_card` reads.

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
    from sim.jobs.table_advice import write_advisor_pages

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
        assert level == str(doc["table"]["recommended"])
    if width == WIDTHS[0]:  # then the advisor's answer replaces it (once per language)
        page.wait_for_selector('#verdict[data-source="advisor"][data-pending="false"]')
        level = page.get_attribute("#verdict", "data-level")  # the advisor's own verdict
        assert level == str(doc["verdict"]["level"] or "")
        assert page.inner_text("#say") == doc["verdict"]["say"]
    page.click('#seats button[data-seat="dealer"]')
    page.click('#bids button[data-bid="110"]')  # middle bids 110: the dealer's turn
    page.wait_for_selector('#bids button[data-bid="115"]')
    page.wait_for_selector('#verdict[data-source="advisor"][data-pending="false"]')
    doc = advise_json(thousand, HAND, "--seat", "dealer", "--auction", "100 110", "--lang", lang)
    say = page.inner_text("#say")
    if "verdict" in doc:  # the advisor's own words
        assert say == said(lang, doc["verdict"]["say"]) or say == doc["verdict"]["say"]
        assert page.get_attribute("#verdict", "data-level") == str(doc["verdict"]["level"] or "")
    elif doc["recommended"] is not None and doc["recommended"] > 110:
        assert page.get_attribute("#verdict", "data-action") == "raise"
        assert page.get_attribute("#verdict", "data-level") == str(doc["recommended"])
        assert say == said(lang, "raise, up to {level}", level=doc["recommended"])
        assert page.inner_text("#detail tr.rec td:first-child") == str(doc["recommended"])
    else:
        assert page.get_attribute("#verdict", "data-action") == "pass"
        assert say == said(lang, "pass: no level above {high} reaches {risk}", high=110,
                           risk="75 %")  # fmt: skip
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
    doc = advise_json(thousand, HAND)
    assert page.get_attribute("#verdict", "data-source") == "tables"
    assert page.get_attribute("#verdict", "data-level") == str(doc["table"]["recommended"])
    assert page.inner_text("#say") == said(lang, "bid up to {level}",
                                           level=doc["table"]["recommended"])  # fmt: skip
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"advisor-{lang}-{width}")
    assert not errors, errors
    page.close()


def test_the_offline_script_is_the_tables_answer_and_reads_every_notation(browser, offline):
    from analysis.advise import table_answer
    from analysis.advisor_page import table_json
    from sim.cards import card_str, parse_card
    from sim.i18n import cards_text
    from sim.jobs.advise import TABLE_DEALS, TABLE_SEED, class_tables
    from sim.rules import load_rules

    page, errors = open_page(browser, (offline / "advisor-en.html").as_uri(), 390)
    rng = np.random.default_rng(11)
    hands = [sorted(int(c) for c in rng.choice(24, 7, replace=False)) for _ in range(400)]
    got = page.evaluate(
        """hands => {
          const T = JSON.parse(document.getElementById('advisor-config').textContent).tables;
          return hands.map(h => window.thousandAdvisor.tableAnswer(h, 0.75, T));
        }""",
        hands,
    )
    by_class, by_marriages = class_tables(load_rules("classic"), "strong")
    for cards, answer in zip(hands, got, strict=True):
        mask = sum(1 << c for c in cards)
        want = table_answer(mask, 0.75, by_class, by_marriages, "strong", TABLE_DEALS, TABLE_SEED)
        assert answer == table_json(want), cards
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
