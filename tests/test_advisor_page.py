"""The offline page to tap a hand (``advisor.html``): the class tables it carries and its answer.

The embedded numbers against the class tables, the printed table of every class against
the tables' choice (:func:`sim.jobs.advice_tables.table_of`), and the page's own script
(views/assets/advisor.js, as the page carries it) run in V8 without a browser
(tests/advisor_js.py): its card reader, tables' answer, auction and shown verdict
against the Python they mirror, on many inputs. Chromium, where installed, drives the
same script in the page (tests/test_serve_browser.py).
"""

from __future__ import annotations

import html
import json
import re

import numpy as np
import pytest
from advisor_js import PageScript, scripts_of

from analysis.advise import class_of
from analysis.safebids import marriage_label
from sim.jobs.advice_tables import (
    TABLE_HANDS,
    TABLE_SEED,
    layout,
    load_tables,
    table_of,
    write_advisor_pages,
)
from sim.rules import load_rules
from sim.runs.classes import class_hands

CLASSIC = load_rules("classic")


def page_config(text: str) -> dict:
    start = text.index('id="advisor-config">') + len('id="advisor-config">')
    return json.loads(text[start : text.index("</script>", start)])


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("advisor")
    written = write_advisor_pages(CLASSIC, folder, ("en", "ru", "uk", "pl"))
    return {p.stem.split("-")[1]: p.read_text(encoding="utf-8") for p in written}


def test_the_page_embeds_the_class_tables_as_they_are(pages):
    tables = load_tables(CLASSIC, "strong")
    data = page_config(pages["en"])["tables"]
    assert (data["player"], data["deals"], data["seed"]) == ("strong", TABLE_HANDS, TABLE_SEED)
    seats = ["forehand", "middle", "dealer"]
    shown = {}
    for entry in data["classes"]:
        for cell in entry["cells"]:
            key = (entry["mask"], entry["aces"], seats.index(cell["seat"]))
            shown[key] = (cell["best"], cell["low"], cell["high"], cell["rows"])
    want = {}
    for v in tables.verdicts.iter_rows(named=True):
        key = (v["marriages"], v["aces"], v["seat"])
        rows = tables.choices.filter(
            (tables.choices["marriages"] == key[0]) & (tables.choices["aces"] == key[1])
            & (tables.choices["seat"] == key[2])
        ).sort("level")  # fmt: skip
        r1 = lambda x: None if x is None else round(x, 1)  # noqa: E731
        r3 = lambda x: None if x is None else round(x, 3)  # noqa: E731
        want[key] = (v["best"], v["low"], v["high"], [
            [r["level"], r1(r["mean"]), r1(r["low"]), r1(r["high"]), r3(r["p"]), r3(r["ci_low"]),
             r3(r["ci_high"])] for r in rows.iter_rows(named=True)
        ])  # fmt: skip
    assert shown == want  # every class and seat, every number as rounded, nothing more


def test_every_language_carries_the_same_tables_and_links_the_others(pages):
    tables = [json.dumps(page_config(p)["tables"]) for p in pages.values()]
    assert len(set(tables)) == 1
    for lang, text in pages.items():
        config = page_config(text)
        assert config["lang"] == lang and f'<html lang="{lang}">' in text
        assert config["langs"] == {g: f"advisor-{g}.html" for g in ("en", "ru", "uk", "pl")}
        assert config["mode"] == "offline"


def test_the_page_is_one_file_that_fetches_nothing(pages):
    for text in pages.values():
        assert "Content-Security-Policy" in text and "default-src 'none'" in text
        assert not re.search(r"""(?:src|href)=["'](?:https?:)?//""", text)
        assert '<link rel="stylesheet"' not in text and "<script src" not in text
        assert 'name="viewport"' in text and "@media print" in text


def test_every_class_at_a_glance_is_the_tables_choice_at_every_seat(pages):
    tables = load_tables(CLASSIC, "strong")
    glance = pages["en"][pages["en"].index('<table class="glance">') :]
    glance = glance[: glance.index("</table>")]
    rows = {}
    for row in re.findall(r"<tr><th>(.*?)</th>(.*?)</tr>", glance):
        rows[html.unescape(row[0])] = re.findall(r"<td>(.*?)</td>", row[1])
    seen = set()
    for members in class_hands(7).values():  # a hand of every class, however rare
        hand = int(members[len(members) // 2])
        mask, aces = class_of(hand)
        name = marriage_label(mask)
        label = "no marriage" if name == "none" else f"{name} marriage"
        want = [table_of(tables, hand, seat, 0.75).best.level for seat in range(3)]
        words = "\u00a0/ ".join("pass" if w == 0 else str(w) for w in want)  # breaks after a /
        assert rows[label][aces] == words, (label, aces)
        seen.add((mask, aces))
    assert len(seen) == 57


def test_the_layout_of_two_players():
    view = layout(load_rules("two_players")).json()
    assert view["hand_size"] == 10 and view["seats"] == ["forehand", "dealer"]
    assert view["levels"][0] == view["opening"] == 100


# --- the page's own script, in V8 -----------------------------------------------------
@pytest.fixture(scope="module")
def script(pages):
    """The English page's script, started as the page starts it."""
    with PageScript(pages["en"]) as started:
        yield started


def _hands(n: int, seed: int) -> list[list[int]]:
    """``n`` random hands of 7 cards, and a hand of every class (however rare) first."""
    every = [
        [c for c in range(24) if int(m[len(m) // 2]) >> c & 1] for m in class_hands(7).values()
    ]
    rng = np.random.default_rng(seed)
    return every + [sorted(int(c) for c in rng.choice(24, 7, replace=False)) for _ in range(n)]


def test_the_script_carried_is_the_asset_and_starts_with_nothing_tapped(pages, script):
    from views.advisor_page import asset

    for page in pages.values():
        assert scripts_of(page)[1] == asset("advisor.js")
    shown = script("() => window.thousandAdvisor.state")
    assert shown["cards"] == [] and shown["seat"] == "forehand" and shown["bids"] == ["100"]


def test_the_scripts_tables_answer_and_hand_class_are_the_pythons(script):
    from views.advise import table_json

    tables = load_tables(CLASSIC, "strong")
    hands = _hands(60, 11)
    seats = [("forehand", "middle", "dealer")[k % 3] for k in range(len(hands))]
    got = script(
        """(hands, seats) => {
          const T = JSON.parse(document.getElementById('advisor-config').textContent).tables;
          return hands.map((h, k) => [window.thousandAdvisor.tableAnswer(h, seats[k], T),
                                      window.thousandAdvisor.handClass(h)]);
        }""",
        hands, seats,
    )  # fmt: skip
    for k, (cards, (answer, klass)) in enumerate(zip(hands, got, strict=True)):
        mask = sum(1 << c for c in cards)
        assert (klass["mask"], klass["aces"]) == class_of(mask), cards
        want = table_json(table_of(tables, mask, k % 3, 0.75))
        assert (answer["best"], answer["class"], answer["seat"], answer["n"]) == (
            want["best"], want["class"], want["seat"], want["n"]), cards  # fmt: skip
        assert (answer["player"], answer["deals"], answer["seed"]) == (
            want["player"], want["deals"], want["seed"])  # fmt: skip
        for mine, theirs in zip(answer["levels"], want["levels"], strict=True):
            assert mine["level"] == theirs["level"] and mine["mean"] == round(theirs["mean"], 1)
            assert mine["p"] == (None if theirs["p"] is None else round(theirs["p"], 3))


def test_the_script_reads_every_notation_the_python_reads_and_refuses_the_rest(script):
    from sim.cards import card_str, parse_card
    from sim.i18n import LANGS, cards_text
    from sim.output import UsageError

    texts = [card_str(c) for c in range(24)] + [t.lower() for t in cards_text(range(24)).split()]
    for lang in LANGS:
        texts += cards_text(range(24), lang).split()
    texts += ["Тп", "10ч", "Дб", "Вт", "Кх", "A♡", "10♦\ufe0f", "WD", "ah", "т♥", " 9s "]
    read = script("texts => texts.map(t => window.thousandAdvisor.parseCards(t)[0])", texts)
    assert read == [parse_card(t) for t in texts]
    bad = ["1H", "AX", "Q", "10", "AHS", "♥A", "11H", "AH AH"]
    refused = script(
        """texts => texts.map(t => {
          try { window.thousandAdvisor.parseCards(t); return null; } catch (e) { return e.message; }
        })""",
        bad,
    )  # fmt: skip
    for text, message in zip(bad, refused, strict=True):
        assert message, text
        if " " not in text:  # one card: the Python refuses it too
            with pytest.raises((UsageError, ValueError)):
                parse_card(text)
    assert "twice" in refused[-1]


def _auctions(n: int, seed: int) -> list[list[str]]:
    """``n`` legal auctions of the classic rules (3 seats), some over, some not."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        tokens, high, passed, turn = ["100"], 100, set(), 0
        for _step in range(int(rng.integers(0, 9))):
            if len(passed) >= 2:
                break
            turn = (turn + 1) % 3
            while turn in passed:
                turn = (turn + 1) % 3
            if rng.random() < 0.4 or high >= 300:
                tokens.append("pass")
                passed.add(turn)
            else:
                high += 5 * int(rng.integers(1, 5))
                tokens.append(str(high))
        out.append(tokens)
    return out


def test_the_scripts_auction_is_the_pythons(script):
    from sim.table_text import read_auction

    auctions = _auctions(300, 5)
    got = script("all => all.map(t => window.thousandAdvisor.auction(t))", auctions)
    assert {a["over"] for a in got} == {True, False}
    for tokens, mine in zip(auctions, got, strict=True):
        theirs = read_auction(CLASSIC, " ".join(tokens), 3, over=mine["over"])
        assert [tuple(b) for b in mine["bids"]] == list(theirs.bids), tokens
        assert (mine["high"], mine["highSeat"], mine["next"]) == (
            theirs.high, theirs.high_seat, theirs.next_seat), tokens  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "pl"])
def test_a_hand_tapped_shows_the_tables_verdict_in_the_pages_language(pages, lang):
    from sim.i18n import cards_text, number, speaking
    from views.advise import table_verdict

    tables = load_tables(CLASSIC, "strong")
    with PageScript(pages[lang]) as page:
        for k, cards in enumerate(_hands(40, 3)):
            seat = k % 3
            shown = page("__tap", cards, ("forehand", "middle", "dealer")[seat])
            with speaking(lang):
                answer = table_of(tables, sum(1 << c for c in cards), seat, 0.75)
                v = table_verdict(answer)
                hand = cards_text(sorted(cards, key=lambda c: (-(c // 6), -(c % 6))), lang)
                count = number(answer.n)
            assert shown["source"] == "tables" and shown["action"] == v.action, cards
            assert shown["level"] == ("" if v.level is None else str(v.level)), cards
            assert shown["say"] == v.say[:1].upper() + v.say[1:], (cards, shown["say"])
            assert shown["hand"] == hand, cards
            # the count of hands is written by the page's Intl and by number() alike, as
            # CLDR groups it (2 000 in Russian and Ukrainian, 2000 in Polish)
            assert count in v.why, (count, v.why)
            assert shown["why"] == v.why.replace("`", ""), (cards, shown["why"])
