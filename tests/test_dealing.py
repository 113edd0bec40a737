"""Shuffled or cut? The report's comparison of the two ways of dealing (docs/rules.md §2)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from analysis.compare import RATE_COLUMNS, Z95, compare_folders, compare_rates
from sim.odds_keys import ODDS_KEYS
from sim.rules import load_rules
from sim.runs.compare import dealing_comparison, play_rule_sets
from sim.runs.folder import RunSpec, play_into
from sim.runs.odds import run_odds
from views.sections.dealing import dealing_section

CLASSIC = load_rules("classic")
CUT = CLASSIC.replace(deal__method="cut")


def test_compare_rates_wilson_and_independent_difference():
    table = compare_rates("a", (1000, {"k": 100}), "b", (2000, {"k": 300}), {"k": "a key"})
    assert table.columns == list(RATE_COLUMNS)
    r = table.row(0, named=True)
    assert r["base"] == pytest.approx(0.1) and r["other"] == pytest.approx(0.15)
    se = np.sqrt(0.1 * 0.9 / 1000 + 0.15 * 0.85 / 2000)
    assert r["diff"] == pytest.approx(0.05)
    assert r["diff_ci_low"] == pytest.approx(0.05 - Z95 * se)
    assert r["base_ci_low"] < 0.1 < r["base_ci_high"]  # Wilson, around the estimate
    assert (r["n_base"], r["n_other"]) == (1000, 2000)


@pytest.fixture(scope="module")
def dealing(tmp_path_factory):
    root = tmp_path_factory.mktemp("dealing")
    games, seed = 300, 4
    spec = RunSpec(
        kind="games", rules=CLASSIC, total=games, seed=seed, strategies=("heuristic",) * 3
    )
    play_into(spec, root / "games")
    odds = run_odds(CLASSIC, 20_000, seed)
    result = dealing_comparison(
        CLASSIC, odds, root / "games", games, seed, root / "cut",
        odds_of=lambda r: run_odds(r, 20_000, seed),
    )  # fmt: skip
    table = compare_folders(list(zip(result.names, result.games_dirs, strict=True)))
    return root, games, seed, result, table


def test_dealing_games_are_those_of_thousand_compare(dealing):
    root, games, seed, result, dealt = dealing
    assert result.games_dirs == (root / "games", root / "cut")
    runs = play_rule_sets([("s", CLASSIC), ("c", CUT)], games, seed, root / "compare")
    assert runs == [("s", root / "compare" / "runs" / "s"), ("c", root / "compare" / "runs" / "c")]
    table = compare_folders(runs)
    numbers = [c for c in table.columns if table[c].dtype == pl.Float64]
    assert dealt.select(numbers).equals(table.select(numbers))
    assert result.names == ("classic (shuffled)", "classic (cut)")


def test_dealing_odds_are_those_of_thousand_odds(dealing):
    _, _, seed, result, _ = dealing
    shuffled, cut = result.odds
    assert shuffled.deals_from == "independently shuffled deals" and shuffled.strategies is None
    assert cut.deals_from.startswith("cut deck") and cut.strategies == ("heuristic",) * 3
    assert cut.hits == run_odds(CUT, 20_000, seed).hits
    # cut decks make reshuffle conditions more common (+4 points at 2M deals)
    key = "deal.any_reshuffle"
    assert cut.hits[key] / cut.deals > shuffled.hits[key] / shuffled.deals


def test_dealing_section_says_what_changed(dealing):
    _, _, _, result, games = dealing
    sec = dealing_section(result.names, result.odds, games, result.strategies)
    text = sec.blocks[0].text
    assert text.startswith("**Not shuffling changes the game.**")
    counts = [(o.deals, o.hits) for o in result.odds]
    rates = compare_rates(result.names[0], counts[0], result.names[1], counts[1], ODDS_KEYS)
    differing = int(((rates["diff_ci_low"] > 0) | (rates["diff_ci_high"] < 0)).sum())
    assert f"{differing} of {len(ODDS_KEYS)} deal quantities" in text
    assert {"dealing_odds.csv", "dealing_games.csv"} <= set(sec.csvs)


def test_dealing_section_without_a_difference_says_so(dealing):
    _, _, _, result, games = dealing
    same = (result.odds[0], result.odds[0])  # the shuffled odds against themselves
    flat = games.with_columns(
        pl.lit(0.0).alias("diff"),
        pl.lit(-1.0).alias("diff_ci_low"),
        pl.lit(1.0).alias("diff_ci_high"),
    )
    text = dealing_section(result.names, same, flat, result.strategies).blocks[0].text
    assert text.startswith("**At these sample sizes, not shuffling does not measurably")
    n_games = games.height
    assert f"0 of {len(ODDS_KEYS)} deal quantities and 0 of {n_games} game measures" in text
