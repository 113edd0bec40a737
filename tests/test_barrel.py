"""Barrel, game-length and seat tables (analysis/barrel.py) on hand-made run folders."""

import json
import math
import re
import statistics
from statistics import NormalDist

import polars as pl
import pytest

from analysis.barrel import OUTCOMES, barrel_tables, barrel_tables_json, chi2_sf
from sim.output import UsageError
from views.barrel import barrel_markdown, write_barrel_tables

Z = NormalDist().inv_cdf(0.975)


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval, written out from the textbook formula."""
    p = k / n
    centre = p + Z * Z / (2 * n)
    spread = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    denom = 1 + Z * Z / n
    return max(0.0, (centre - spread) / denom), min(1.0, (centre + spread) / denom)


PER_SEAT = ("barrel_entries", "barrel_falls", "bolt_penalties", "samosvals", "concessions")


def game(
    game_id=0,
    first_dealer=0,
    n_deals=20,
    winner=0,
    unfinished=False,
    golden=False,
    players=3,
    **per_seat,
):
    """One games.parquet row; per_seat gives NAME=(seat0, seat1, ...) tuples."""
    row = {
        "game_id": game_id,
        "first_dealer": first_dealer,
        "n_deals": n_deals,
        "winner": -1 if unfinished else winner,
        "unfinished": unfinished,
    }
    for s in range(players):
        row[f"score_{s}"] = 0
    for name in PER_SEAT:
        values = per_seat.get(name, (0,) * players)
        for s in range(players):
            row[f"{name}_{s}"] = values[s]
    row["golden_reset"] = golden
    return row


def games_with_ids(rows):
    return [{**r, "game_id": i} for i, r in enumerate(rows)]


def stint(game_id=0, seat=0, entered_deal=10, deals_on_barrel=1, outcome="won"):
    return {
        "game_id": game_id,
        "seat": seat,
        "entered_deal": entered_deal,
        "deals_on_barrel": deals_on_barrel,
        "outcome": outcome,
    }


STINT_SCHEMA = {
    "game_id": pl.Int64,
    "seat": pl.Int8,
    "entered_deal": pl.Int32,
    "deals_on_barrel": pl.Int16,
    "outcome": pl.String,
}

RULES = {"players": 3, "game.target": 1000, "barrel.at": 880, "barrel.attempts": 3}


@pytest.fixture
def run_dir(tmp_path):
    """Write games and stints as a run folder and return its path."""

    def make(games, stints=(), drop_games=(), drop_stints=(), rules=RULES, manifest=True):
        gdf = pl.DataFrame(games)
        gdf = gdf.with_columns(
            pl.col("unfinished", "golden_reset").cast(pl.Boolean),
            pl.col("n_deals").cast(pl.Int32),
            pl.col("first_dealer", "winner").cast(pl.Int8),
        )
        gdf.drop(*drop_games).write_parquet(tmp_path / "games.parquet")
        sdf = pl.DataFrame(list(stints), schema=STINT_SCHEMA)
        sdf.drop(*drop_stints).write_parquet(tmp_path / "barrel.parquet")
        if manifest:
            doc = {
                "rules_name": "test",
                "rules_hash": "0123456789abcdef",
                "rules": rules,
                "sizes": {"games": len(games)},
            }
            (tmp_path / "run.json").write_text(json.dumps(doc))
        return tmp_path

    return make


def one(table, **keys):
    rows = table.filter(**keys).to_dicts()
    assert len(rows) == 1, (keys, rows)
    return rows[0]


def outcome_stints():
    """12 stints: 4 won, 3 fell_attempts, 2 knocked_off, 1 fell_simultaneous, 2 game_over."""
    spec = {
        "won": [0, 1, 2, 2],
        "fell_attempts": [3, 3, 3],
        "knocked_off": [1, 1],
        "fell_simultaneous": [0],
        "game_over": [2, 5],
    }
    return [
        stint(game_id=i, deals_on_barrel=d, outcome=o)
        for i, (o, d) in enumerate((o, d) for o, ds in spec.items() for d in ds)
    ]


# --- stint tables -----------------------------------------------------------------
def test_outcome_shares_with_exact_wilson_bounds(run_dir):
    t = barrel_tables(run_dir([game()], outcome_stints()))
    out = t["barrel_outcomes"]
    assert out["outcome"].to_list() == list(OUTCOMES)
    expected = {"won": 4, "fell_attempts": 3, "knocked_off": 2, "fell_simultaneous": 1}
    expected["game_over"] = 2
    for outcome, k in expected.items():
        r = one(out, outcome=outcome)
        assert (r["stints"], r["n"]) == (k, 12)
        assert r["share"] == pytest.approx(k / 12, rel=1e-12)
        assert (r["ci_low"], r["ci_high"]) == pytest.approx(wilson(k, 12), rel=1e-12)
    assert one(out, outcome="won")["mean_deals_on_barrel"] == pytest.approx(5 / 4)
    assert one(out, outcome="game_over")["mean_deals_on_barrel"] == pytest.approx(3.5)

    s = t["barrel_summary"].row(0, named=True)
    assert (s["stints"], s["won"], s["fell"], s["game_over"], s["resolved"]) == (12, 4, 6, 2, 10)
    assert s["fall_rate"] == pytest.approx(0.5)
    assert (s["fall_ci_low"], s["fall_ci_high"]) == pytest.approx(wilson(6, 12), rel=1e-12)
    assert s["win_rate_resolved"] == pytest.approx(0.4)
    assert (s["win_ci_low"], s["win_ci_high"]) == pytest.approx(wilson(4, 10), rel=1e-12)


def test_an_outcome_never_seen_has_a_zero_row(run_dir):
    stints = [stint(outcome="won"), stint(outcome="won"), stint(outcome="fell_attempts")]
    t = barrel_tables(run_dir([game()], stints))
    r = one(t["barrel_outcomes"], outcome="knocked_off")
    assert (r["stints"], r["share"], r["ci_low"]) == (0, 0.0, 0.0)
    assert r["ci_high"] == pytest.approx(wilson(0, 3)[1], rel=1e-12)
    assert r["mean_deals_on_barrel"] is None


def test_an_unknown_outcome_is_listed_not_dropped(run_dir):
    stints = [stint(outcome="won"), stint(outcome="fell_attempts"), stint(outcome="mystery")]
    t = barrel_tables(run_dir([game()], stints))
    out = t["barrel_outcomes"]
    assert out["outcome"].to_list() == [*OUTCOMES, "mystery"]
    assert one(out, outcome="mystery")["share"] == pytest.approx(1 / 3)
    assert one(out, outcome="won")["n"] == 3
    assert t["attempts_used"]["stints"].sum() == 3


def test_attempts_used_distribution_mean_and_se(run_dir):
    stints = outcome_stints()
    values = [s["deals_on_barrel"] for s in stints]  # 0..5, no 4
    t = barrel_tables(run_dir([game()], stints))
    a = t["attempts_used"]
    assert a.columns == ["deals_on_barrel", "stints", "share", *OUTCOMES]
    assert a["deals_on_barrel"].to_list() == [0, 1, 2, 3, 4, 5]
    assert a["stints"].to_list() == [2, 3, 3, 3, 0, 1]
    assert a["share"].to_list() == pytest.approx([2 / 12, 3 / 12, 3 / 12, 3 / 12, 0, 1 / 12])
    assert (
        one(a, deals_on_barrel=0)["won"] == 1
        and one(a, deals_on_barrel=0)["fell_simultaneous"] == 1
    )
    assert one(a, deals_on_barrel=1)["knocked_off"] == 2
    assert one(a, deals_on_barrel=2)["game_over"] == 1 and one(a, deals_on_barrel=2)["won"] == 2
    assert one(a, deals_on_barrel=3)["fell_attempts"] == 3
    assert one(a, deals_on_barrel=5)["game_over"] == 1
    s = t["barrel_summary"].row(0, named=True)
    assert s["mean_deals_on_barrel"] == pytest.approx(statistics.mean(values), rel=1e-12)
    se = statistics.stdev(values) / math.sqrt(len(values))
    assert s["se_deals_on_barrel"] == pytest.approx(se, rel=1e-12)


# --- climbing back ----------------------------------------------------------------
def test_climb_back_after_a_fall(run_dir):
    games = [
        # g0: seat 0 fell after its attempts, then climbed again and won (rows out of
        # order in the file); seat 1 was knocked off and never came back.
        game(0, winner=0, barrel_entries=(2, 1, 0), barrel_falls=(1, 1, 0)),
        # g1: seat 2 fell climbing on together with seat 0, later climbed on alone;
        # seat 0 fell that way twice and never got on.
        # (like the engine, a fall while climbing on counts as an entry)
        game(1, winner=1, barrel_entries=(2, 0, 2), barrel_falls=(2, 0, 2)),
        # g2: nobody fell; seat 1 won from the barrel at once.
        game(2, winner=1, barrel_entries=(0, 1, 0)),
        # g3: unfinished: seat 0 fell and climbed again, but the game does not count.
        game(3, unfinished=True, n_deals=1000, barrel_entries=(2, 0, 0), barrel_falls=(1, 0, 0)),
        # g4: games.parquet counts a fall that barrel.parquet lacks.
        game(4, winner=0, barrel_falls=(0, 0, 1)),
    ]
    stints = [
        stint(0, 0, 20, 1, "won"),
        stint(0, 0, 10, 3, "fell_attempts"),
        stint(0, 1, 14, 2, "knocked_off"),
        # seat 2's later fall comes first in the file: the first fall is found by deal
        stint(1, 2, 12, 3, "fell_attempts"),
        stint(1, 2, 8, 0, "fell_simultaneous"),
        stint(1, 0, 8, 0, "fell_simultaneous"),
        stint(1, 0, 15, 0, "fell_simultaneous"),
        stint(2, 1, 30, 0, "won"),
        stint(3, 0, 5, 3, "fell_attempts"),
        stint(3, 0, 900, 100, "game_over"),
    ]
    t = barrel_tables(run_dir(games, stints))
    c = t["climb_back"]
    assert c["first_fall"].to_list() == [
        "any",
        "fell_attempts",
        "knocked_off",
        "fell_simultaneous",
        "unrecorded",
    ]
    got = {r["first_fall"]: (r["players_fell"], r["climbed_back"]) for r in c.to_dicts()}
    assert got == {
        "any": (5, 2),
        "fell_attempts": (1, 1),
        "knocked_off": (1, 0),
        "fell_simultaneous": (2, 1),
        "unrecorded": (1, 0),
    }
    r = one(c, first_fall="any")
    assert r["share"] == pytest.approx(0.4)
    assert (r["ci_low"], r["ci_high"]) == pytest.approx(wilson(2, 5), rel=1e-12)
    s = t["summary"].row(0, named=True)
    # games.parquet vs barrel.parquet totals, unfinished games included
    assert (s["barrel_entries"], s["stints"]) == (10, 10)
    assert (s["barrel_falls"], s["fall_stints"]) == (8, 7)


def test_climb_back_rows_are_stable_without_falls(run_dir):
    t = barrel_tables(run_dir([game(barrel_entries=(1, 0, 0))], [stint(outcome="won")]))
    c = t["climb_back"]
    assert c["first_fall"].to_list() == ["any", "fell_attempts", "knocked_off", "fell_simultaneous"]
    assert c["players_fell"].to_list() == [0, 0, 0, 0]
    assert c["share"].null_count() == 4


# --- game length ------------------------------------------------------------------
def test_game_length_quantiles_and_unfinished_games(run_dir):
    lengths = [30, 10, 50, 20, 40]
    games = [game(n_deals=n) for n in lengths]
    games += [game(n_deals=1000, unfinished=True), game(n_deals=1000, unfinished=True)]
    t = barrel_tables(run_dir(games_with_ids(games)))
    g = t["game_length"].row(0, named=True)
    assert (g["games"], g["finished"], g["unfinished"]) == (7, 5, 2)
    assert g["unfinished_share"] == pytest.approx(2 / 7)
    assert g["mean"] == 30.0
    assert g["sd"] == pytest.approx(math.sqrt(250), rel=1e-12)
    assert g["se"] == pytest.approx(math.sqrt(250) / math.sqrt(5), rel=1e-12)
    assert (g["min"], g["max"]) == (10, 50)
    # linear interpolation between order statistics: position q * (n - 1)
    quantiles = [g[k] for k in ("q05", "q25", "q50", "q75", "q95")]
    assert quantiles == pytest.approx([12.0, 20.0, 30.0, 40.0, 48.0], rel=1e-12)
    s = t["summary"].row(0, named=True)
    assert (s["games"], s["finished"], s["unfinished"], s["deals"]) == (7, 5, 2, 2150)
    assert s["games_requested"] == 7
    # the histogram holds finished games only: no bin near 1000 deals
    h = t["length_histogram"]
    assert h["bin_low"].to_list() == [10, 15, 20, 25, 30, 35, 40, 45, 50]
    assert h["games"].sum() == 5


def test_length_histogram_bins_of_five(run_dir):
    games = [game(n_deals=n) for n in (4, 5, 9, 14, 15, 15, 27)]
    games.append(game(n_deals=1000, unfinished=True))
    t = barrel_tables(run_dir(games_with_ids(games)))
    h = t["length_histogram"]
    assert h.select("bin_low", "bin_high", "deals", "games").rows() == [
        (0, 4, "0-4", 1),
        (5, 9, "5-9", 2),
        (10, 14, "10-14", 1),
        (15, 19, "15-19", 2),
        (20, 24, "20-24", 0),
        (25, 29, "25-29", 1),
    ]
    assert h["share"].to_list() == pytest.approx([1 / 7, 2 / 7, 1 / 7, 2 / 7, 0, 1 / 7])
    assert h["cumulative_share"].to_list() == pytest.approx([1 / 7, 3 / 7, 4 / 7, 6 / 7, 6 / 7, 1])


# --- seat advantage ---------------------------------------------------------------
def seat_games():
    """60 finished games: offset 1 x30, offset 2 x20, offset 0 x10; 3 unfinished."""
    spec = [
        (15, 0, 1),  # (count, first_dealer, winner): offset 1
        (15, 2, 0),  # offset (0 - 2) mod 3 = 1
        (10, 0, 2),  # offset 2
        (10, 2, 1),  # offset (1 - 2) mod 3 = 2
        (10, 1, 1),  # offset 0
    ]
    rows = [game(first_dealer=d, winner=w) for k, d, w in spec for _ in range(k)]
    # unfinished games do not count, even with a winner cell filled in
    rows += [{**game(unfinished=True, n_deals=1000), "winner": 0} for _ in range(3)]
    return games_with_ids(rows)


def test_seat_relative_to_first_dealer_with_chi_square(run_dir):
    t = barrel_tables(run_dir(seat_games()))
    rel = t["seat_relative"]
    assert rel.select("position", "offset", "wins", "games").rows() == [
        ("forehand", 1, 30, 60),
        ("middle", 2, 20, 60),
        ("dealer", 0, 10, 60),
    ]
    for r, k in zip(rel.to_dicts(), (30, 20, 10), strict=True):
        assert r["rate"] == pytest.approx(k / 60, rel=1e-12)
        assert (r["ci_low"], r["ci_high"]) == pytest.approx(wilson(k, 60), rel=1e-12)
        assert r["expected"] == pytest.approx(1 / 3)
    chi = one(t["seat_chi2"], test="relative to first dealer")
    # expected 20 each: (10² + 0² + 10²) / 20 = 10
    assert (chi["games"], chi["dof"]) == (60, 2)
    assert chi["statistic"] == pytest.approx(10.0, rel=1e-12)
    assert chi["p_value"] == pytest.approx(math.exp(-5.0), rel=1e-12)


def test_seat_absolute_with_chi_square(run_dir):
    t = barrel_tables(run_dir(seat_games()))
    ab = t["seat_absolute"]
    assert ab.select("seat", "wins", "games").rows() == [(0, 15, 60), (1, 35, 60), (2, 10, 60)]
    assert one(ab, seat=1)["rate"] == pytest.approx(35 / 60)
    assert (one(ab, seat=2)["ci_low"], one(ab, seat=2)["ci_high"]) == pytest.approx(
        wilson(10, 60), rel=1e-12
    )
    chi = one(t["seat_chi2"], test="absolute seat")
    # (5² + 15² + 10²) / 20 = 17.5
    assert chi["statistic"] == pytest.approx(17.5, rel=1e-12)
    assert chi["p_value"] == pytest.approx(math.exp(-8.75), rel=1e-12)


def test_chi2_survival_function_without_scipy():
    assert chi2_sf(0.0, 2) == 1.0
    for x in (0.5, 3.0, 10.0, 40.0):
        assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)
    # textbook 5 % critical values
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(7.814727903251178, 3) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(9.487729036781154, 4) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(11.070497693516351, 5) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(6.634896601021213, 1) == pytest.approx(0.01, rel=1e-9)


def test_players_read_off_the_columns_without_run_json(run_dir):
    games = [
        game(first_dealer=0, winner=1, players=4),
        game(first_dealer=0, winner=3, players=4),
        game(first_dealer=1, winner=0, players=4),
    ]
    t = barrel_tables(run_dir(games_with_ids(games), manifest=False))
    rel = t["seat_relative"]
    assert rel.select("position", "offset", "wins").rows() == [
        ("forehand", 1, 1),
        ("middle", 2, 0),
        ("rear", 3, 2),
        ("dealer", 0, 0),
    ]
    assert one(t["seat_chi2"], test="absolute seat")["dof"] == 3
    s = t["summary"].row(0, named=True)
    assert (s["players"], s["rules"], s["target"], s["games_requested"]) == (4, None, None, None)


# --- events per game --------------------------------------------------------------
def event_games():
    rows = [
        game(n_deals=10, bolt_penalties=(0, 0, 0), samosvals=(1, 0, 0), golden=True),
        game(n_deals=20, bolt_penalties=(1, 0, 0), concessions=(0, 2, 1)),
        game(n_deals=30, bolt_penalties=(1, 1, 1)),
        game(n_deals=40, barrel_entries=(1, 1, 0), barrel_falls=(1, 0, 0)),
        # unfinished: left out of the per-game frequencies
        game(n_deals=1000, unfinished=True, bolt_penalties=(9, 9, 9), golden=True),
    ]
    return games_with_ids(rows)


def test_events_per_game_means_se_and_shares(run_dir):
    t = barrel_tables(run_dir(event_games()))
    ev = t["events_per_game"]
    assert ev["event"].to_list() == [
        "bolt_penalties",
        "samosvals",
        "concessions",
        "barrel_entries",
        "barrel_falls",
        "golden_resets",
    ]
    bolts = one(ev, event="bolt_penalties")
    per_game = [0, 1, 3, 0]
    assert (bolts["games"], bolts["total"], bolts["games_with"]) == (4, 4, 2)
    assert bolts["mean"] == pytest.approx(1.0)
    assert bolts["se"] == pytest.approx(statistics.stdev(per_game) / 2, rel=1e-12)
    assert bolts["per_100_deals"] == pytest.approx(100 * 4 / 100)
    assert bolts["share_with"] == 0.5
    assert (bolts["ci_low"], bolts["ci_high"]) == pytest.approx(wilson(2, 4), rel=1e-12)
    assert bolts["source"] == "bolt_penalties_{0,1,2}"
    con = one(ev, event="concessions")
    assert (con["total"], con["games_with"], con["mean"]) == (3, 1, 0.75)
    golden = one(ev, event="golden_resets")
    assert (golden["source"], golden["total"], golden["games_with"]) == ("golden_reset", 1, 1)
    assert golden["mean"] == 0.25
    entries = one(ev, event="barrel_entries")
    assert (entries["total"], entries["games_with"]) == (2, 1)


def test_dark_game_columns_are_counted_when_present(tmp_path, run_dir):
    folder = run_dir(event_games())
    frame = pl.read_parquet(folder / "games.parquet").with_columns(
        pl.Series("dark_won_0", [1, 0, 0, 0, 5]),
        pl.Series("dark_won_1", [0, 0, 2, 0, 5]),
        pl.Series("dark_won_2", [0, 0, 0, 0, 5]),
        pl.Series("dark_lost", [0, 1, 1, 1, 5]),  # a game-level column also works
    )
    frame.write_parquet(folder / "games.parquet")
    ev = barrel_tables(folder)["events_per_game"]
    assert ev["event"].to_list()[-2:] == ["dark_won", "dark_lost"]
    won = one(ev, event="dark_won")
    assert (won["total"], won["games_with"], won["source"]) == (3, 2, "dark_won_{0,1,2}")
    lost = one(ev, event="dark_lost")
    assert (lost["total"], lost["games_with"], lost["source"]) == (3, 3, "dark_lost")


# --- summary, output --------------------------------------------------------------
def test_summary_reads_the_run_manifest(run_dir):
    t = barrel_tables(run_dir([game(), game(game_id=1)], outcome_stints()))
    s = t["summary"].row(0, named=True)
    assert (s["rules"], s["rules_hash"], s["players"]) == ("test", "0123456789abcdef", 3)
    assert (s["target"], s["barrel_at"], s["barrel_attempts"]) == (1000, 880, 3)
    assert (s["games"], s["stints"], s["fall_stints"]) == (2, 12, 6)
    assert list(t) == [
        "summary",
        "barrel_outcomes",
        "barrel_summary",
        "attempts_used",
        "climb_back",
        "game_length",
        "length_histogram",
        "seat_relative",
        "seat_absolute",
        "seat_chi2",
        "events_per_game",
    ]


def test_json_is_strict_json_with_nulls_for_empty_samples(run_dir):
    # no stints at all and no finished game: every rate and mean is null
    tables = barrel_tables(run_dir([game(unfinished=True, n_deals=1000)]))
    assert one(tables["barrel_outcomes"], outcome="won")["share"] is None
    doc = barrel_tables_json(tables)
    text = json.dumps(doc, allow_nan=False)  # raises on NaN
    back = json.loads(text)
    assert back["game_length"][0]["mean"] is None
    assert back["game_length"][0]["unfinished"] == 1
    assert back["game_length"][0]["unfinished_share"] == 1.0
    assert back["seat_chi2"][0]["statistic"] is None
    assert back["seat_chi2"][0]["p_value"] is None
    assert back["length_histogram"] == []
    assert back["barrel_summary"][0]["fall_rate"] is None
    bolts = next(r for r in back["events_per_game"] if r["event"] == "bolt_penalties")
    assert (bolts["games"], bolts["mean"], bolts["share_with"]) == (0, None, None)


def test_json_values_match_the_tables(run_dir):
    tables = barrel_tables(run_dir(seat_games(), outcome_stints()))
    doc = barrel_tables_json(tables)
    assert set(doc) == set(tables)
    assert doc["seat_chi2"][0]["statistic"] == pytest.approx(10.0)
    assert doc["barrel_outcomes"][0] == one(tables["barrel_outcomes"], outcome="won")
    assert doc["summary"][0]["unfinished"] == 3


def test_write_barrel_tables_writes_csv_and_markdown(run_dir, tmp_path):
    tables = barrel_tables(run_dir(seat_games(), outcome_stints()))
    out = tmp_path / "out"
    write_barrel_tables(tables, out)
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [f"{name}.csv" for name in tables] + ["barrel.md"]
    )
    for name, table in tables.items():
        back = pl.read_csv(out / f"{name}.csv")
        assert back.columns == table.columns and back.height == table.height, name
    md = (out / "barrel.md").read_text()
    assert md == barrel_markdown(tables)
    assert "rules `test`" in md
    assert "## How barrel stints end" in md and "## Seat uniformity tests" in md
    assert "| outcome | stints | n | share | ci_low | ci_high | mean_deals_on_barrel |" in md
    assert "| won | 4 | 12 | 0.3333 |" in md
    assert "| forehand | 1 | 30 | 60 | 0.5000 |" in md


# --- bad input --------------------------------------------------------------------
def test_missing_folder_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="nowhere") as err:
        barrel_tables(tmp_path / "nowhere")
    assert "\n" not in str(err.value)


def test_missing_games_parquet_is_a_usage_error(run_dir):
    folder = run_dir([game()])
    (folder / "games.parquet").unlink()
    with pytest.raises(UsageError, match=r"games\.parquet") as err:
        barrel_tables(folder)
    assert "\n" not in str(err.value)


def test_missing_barrel_parquet_is_a_usage_error(run_dir):
    folder = run_dir([game()])
    (folder / "barrel.parquet").unlink()
    with pytest.raises(UsageError, match=r"barrel\.parquet") as err:
        barrel_tables(folder)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("column", ["n_deals", "first_dealer", "golden_reset", "barrel_falls_2"])
def test_missing_games_column_is_a_usage_error(run_dir, column):
    with pytest.raises(
        UsageError, match=re.escape(f"games.parquet: missing column '{column}'")
    ) as err:
        barrel_tables(run_dir([game()], drop_games=(column,)))
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("column", ["outcome", "deals_on_barrel", "entered_deal"])
def test_missing_barrel_column_is_a_usage_error(run_dir, column):
    with pytest.raises(UsageError, match=re.escape(f"barrel.parquet: missing column '{column}'")):
        barrel_tables(run_dir([game()], [stint()], drop_stints=(column,)))


def test_unreadable_parquet_is_a_usage_error(run_dir):
    folder = run_dir([game()])
    (folder / "barrel.parquet").write_text("not parquet")
    with pytest.raises(UsageError, match=r"barrel\.parquet: not a readable Parquet"):
        barrel_tables(folder)


def test_malformed_run_json_is_a_usage_error(run_dir):
    folder = run_dir([game()])
    (folder / "run.json").write_text("{not json")
    with pytest.raises(UsageError, match=r"run\.json"):
        barrel_tables(folder)


def test_a_section_without_a_barrel_says_so_and_keeps_its_files(run_dir):
    """Rules without a barrel (``barrel.at = 0``, the Polish tables): the section says
    there is none instead of who "sits on the barrel", shows no empty barrel table, and
    still writes the barrel's CSV files (the run's data contract)."""
    from sim.rules import load_rules
    from views.sections.barrel import barrel_section

    rules = load_rules("polish")
    t = barrel_tables(run_dir([game()], rules=rules.to_dict()))
    sec = barrel_section(t, rules)
    text = sec.markdown
    assert "These rules have no barrel" in text and "sits on the barrel" not in text
    assert "Barrel falls and wins" not in text and "Game length" in text
    assert {"games_barrel_summary.csv", "games_climb_back.csv"} <= set(sec.csvs)
    with_barrel = barrel_section(barrel_tables(run_dir([game()], rules=RULES)))
    assert "sits on the barrel" in with_barrel.markdown
