"""The offline page to tap a hand (``advisor.html``): the class tables it carries and its answer.

Its script's answer is checked in Chromium (tests/test_serve_browser.py); here the
embedded numbers against the class tables, the answer's rule and the printed table of
every class against :func:`analysis.advise.table_answer`.
"""

from __future__ import annotations

import html
import json
import re

import numpy as np
import pytest

from analysis.advise import class_of, table_answer
from analysis.advisor_page import class_answer
from sim.jobs.advise import TABLE_DEALS, TABLE_SEED, class_tables
from sim.jobs.table_advice import class_data, layout, load_tables, write_advisor_pages
from sim.rules import load_rules

CLASSIC = load_rules("classic")


def page_config(text: str) -> dict:
    start = text.index('id="advisor-config">') + len('id="advisor-config">')
    return json.loads(text[start : text.index("</script>", start)])


def random_hands(n: int, size: int = 7, seed: int = 5) -> list[int]:
    rng = np.random.default_rng(seed)
    return [sum(1 << int(c) for c in rng.choice(24, size, replace=False)) for _ in range(n)]


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("advisor")
    written = write_advisor_pages(CLASSIC, folder, ("en", "ru", "uk", "pl"))
    return {p.stem.split("-")[1]: p.read_text(encoding="utf-8") for p in written}


def test_the_page_embeds_the_class_tables_as_they_are(pages):
    by_class, by_marriages = class_tables(CLASSIC, "strong")
    tables = page_config(pages["en"])["tables"]
    assert (tables["player"], tables["deals"], tables["seed"]) == ("strong", TABLE_DEALS,
                                                                  TABLE_SEED)  # fmt: skip
    cols = ["level", "n", "made", "rate", "ci_low", "ci_high"]
    pairs = ((by_class, tables["by_class"], ["marriages", "aces"]),
             (by_marriages, tables["by_marriages"], ["marriages"]))  # fmt: skip
    for frame, entries, keys in pairs:
        rows = {(*[r[k] for k in keys], r["level"]): [r[c] for c in cols]
                for r in frame.iter_rows(named=True)}  # fmt: skip
        shown = {(*[e[k] for k in keys], lv[0]): lv for e in entries for lv in e["levels"]}
        assert shown == rows  # every number exactly, nothing more
        for e in entries:
            assert [lv[0] for lv in e["levels"]] == sorted(lv[0] for lv in e["levels"])


def test_every_language_carries_the_same_tables_and_links_the_others(pages):
    tables = [json.dumps(page_config(p)["tables"]) for p in pages.values()]
    assert len(set(tables)) == 1
    for lang, text in pages.items():
        config = page_config(text)
        assert config["lang"] == lang and f'<html lang="{lang}">' in text
        assert config["langs"] == {g: f"advisor-{g}.html" for g in ("en", "ru", "uk", "pl")}
        assert config["mode"] == "offline" and config["risk"] == 0.75


def test_the_page_is_one_file_that_fetches_nothing(pages):
    for text in pages.values():
        assert "Content-Security-Policy" in text and "default-src 'none'" in text
        assert not re.search(r"""(?:src|href)=["'](?:https?:)?//""", text)
        assert '<link rel="stylesheet"' not in text and "<script src" not in text
        assert 'name="viewport"' in text and "@media print" in text


def test_the_answer_rule_is_the_tables_answer():
    data = class_data(load_tables(CLASSIC, "strong"))
    by_class, by_marriages = class_tables(CLASSIC, "strong")
    for hand in random_hands(1500):
        want = table_answer(hand, 0.75, by_class, by_marriages, "strong", 1, 1).recommended
        assert class_answer(data, *class_of(hand), 0.75) == want, hand


def test_every_class_at_a_glance_is_the_tables_answer(pages):
    by_class, by_marriages = class_tables(CLASSIC, "strong")
    glance = pages["en"][pages["en"].index('<table class="glance">') :]
    glance = glance[: glance.index("</table>")]
    rows = {}
    for row in re.findall(r"<tr><th>(.*?)</th>(.*?)</tr>", glance):
        rows[html.unescape(row[0])] = re.findall(r"<td>(.*?)</td>", row[1])
    seen = set()
    for hand in random_hands(1500):
        marriages, aces = class_of(hand)
        want = table_answer(hand, 0.75, by_class, by_marriages, "strong", 1, 1).recommended
        label = "no marriage" if marriages == "none" else f"{marriages} marriage"
        assert rows[label][aces] == ("pass" if want is None else str(want)), (label, aces)
        seen.add((marriages, aces))
    assert len(seen) > 20


def test_the_layout_of_two_players():
    view = layout(load_rules("two_players")).json()
    assert view["hand_size"] == 10 and view["seats"] == ["forehand", "dealer"]
    assert view["levels"][0] == view["opening"] == 100
