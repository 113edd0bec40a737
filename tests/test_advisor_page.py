"""The offline page to tap a hand (``advisor.html``): the class tables it carries and its answer.

Its script's answer is checked in Chromium (tests/test_serve_browser.py); here the
embedded numbers against the class tables and the printed table of every class against
the tables' choice (:func:`sim.jobs.advice_tables.table_of`).
"""

from __future__ import annotations

import html
import json
import re

import pytest

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
