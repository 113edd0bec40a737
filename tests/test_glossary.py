"""One name, one definition: the contract rates across outputs (analysis.glossary).

The bid tables, the rule comparison, the duel, the report's pages and their JSON
name three contract rates. Each name has one definition wherever it appears, every
output prints that definition's words, and on the same play two outputs that name
the same definition give the same number.
"""

from __future__ import annotations

import math
import re

import polars as pl
import pytest

from analysis import glossary
from analysis.bids import bid_tables
from analysis.compare import compare_folders
from analysis.duel import duel_json, duel_result
from analysis.glossary import CONCEDED_ALL, DEFINITIONS, MADE_ALL, MADE_PLAYED, NAMES
from sim.rules import load_rules
from sim.runs import duel
from sim.runs.duel import Contestant
from sim.runs.folder import simulate_report
from views.bids import bids_short
from views.sections.bids import bids_section
from views.sections.compare import compare_section

SEED = 4
DEALS = 3000
GAMES = 40

# a rate of contracts is named with one of these; every such name must be defined
RATE_NAME = re.compile(r"(make|concede|concession)_rate|^rate(_all)?$")


def test_a_name_has_one_definition_in_every_output():
    seen: dict[str, glossary.RateDefinition] = {}
    for output, names in NAMES.items():
        for name, definition in names.items():
            assert seen.setdefault(name, definition) == definition, (output, name)
    assert "concession_rate" in NAMES["bids"] and "concession_rate" in NAMES["compare"]
    assert len({d.words for d in DEFINITIONS}) == len(DEFINITIONS)
    assert len({d.label for d in DEFINITIONS}) == len(DEFINITIONS)


def test_each_definition_counts_what_it_says():
    # 10 contracts: 6 made, 2 conceded, 2 played and lost
    assert MADE_PLAYED.value(6, 2, 10) == 6 / 8
    assert MADE_ALL.value(6, 2, 10) == 6 / 10
    assert CONCEDED_ALL.value(6, 2, 10) == 2 / 10
    assert math.isnan(MADE_PLAYED.value(0, 3, 3))  # every contract conceded: none played


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A hands and a games run of `heuristic`, and a duel whose B plays the same deals."""
    rules = load_rules("classic")
    runs = simulate_report(rules, DEALS, GAMES, SEED, tmp_path_factory.mktemp("runs"))
    fight = duel_result(
        duel.duel_hands(rules, Contestant("random"), Contestant("heuristic"), DEALS, SEED)
    )
    return {
        "bids": bid_tables(runs.hands_dir),
        "games": pl.read_parquet(runs.games_dir / "games.parquet"),
        "compare": compare_folders([("classic", runs.games_dir), ("again", runs.games_dir)]),
        "duel": fight,
        "hands": runs.hands_dir,
    }


def _counts(made: int, conceded: int, contracts: int) -> dict[str, int]:
    return {"made": made, "conceded": conceded, "contracts": contracts}


def test_every_rate_an_output_names_is_defined_and_printed_in_its_words(played):
    compare = played["compare"]
    duel_measures = duel_json(played["duel"])["measures"]
    printed = {
        "compare": dict(zip(compare["metric"], compare["meaning"], strict=True)),
        "duel": {k: m["meaning"] for k, m in duel_measures.items()},
    }
    for output, meanings in printed.items():
        rates = {name for name in meanings if RATE_NAME.search(name)}
        assert rates == set(NAMES[output]), output
        for name in rates:
            words = glossary.definition(output, name).words
            assert meanings[name] == words or meanings[name].endswith(f": {words}"), name
    for name, words in glossary.DIFFERENCES.items():  # the duel's two differences
        assert duel_measures[name]["meaning"] == words, name
    summary = played["bids"]["summary"]
    assert {c for c in summary.columns if RATE_NAME.search(c)} == set(NAMES["bids"])
    short = bids_short(played["bids"])
    for name in NAMES["bids"]:
        assert f"- {glossary.definition('bids', name).words}: " in short


def test_the_report_heads_its_rate_columns_with_the_definitions(played):
    page = bids_section(played["hands"]).markdown
    for d in DEFINITIONS:
        assert f"{d.label} [95 % CI]" in page
    assert "| made [95 % CI]" not in page  # a bare "made": of which contracts?
    compared = compare_section(played["compare"]).markdown
    assert MADE_PLAYED.words in compared and CONCEDED_ALL.words in compared


def test_the_same_definition_gives_the_same_number_on_the_same_play(played):
    """The duel's B plays the hands run's deals: its rates are the bid tables' rates."""
    s = played["bids"]["summary"].row(0, named=True)
    counts = _counts(s["made"], s["conceded"], s["contracts"])
    for name, definition in NAMES["bids"].items():
        assert s[name] == pytest.approx(definition.value(**counts), rel=1e-12), name
    fight = played["duel"]
    for name in ("b_make_rate", "b_concede_rate"):
        definition = glossary.definition("duel", name)
        same = next(n for n, d in NAMES["bids"].items() if d == definition)
        assert fight.measure(name)["value"] == pytest.approx(s[same], rel=1e-12), name
    g = played["games"]
    counts = _counts(
        int(g["contracts_made"].sum()),
        int(g["contracts_conceded"].sum()),
        int(g["contracts"].sum()),
    )
    rows = {r["metric"]: r for r in played["compare"].iter_rows(named=True)}
    for name, definition in NAMES["compare"].items():
        assert rows[name]["base"] == pytest.approx(definition.value(**counts), rel=1e-12), name
