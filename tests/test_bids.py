"""Bid-success tables (analysis/bids.py) on hand-made hands.parquet files with known answers."""

import json
import math
from statistics import NormalDist

import polars as pl
import pytest

from analysis.bids import bid_tables, bid_tables_json, marriage_set_label
from sim.output import UsageError
from views.bids import write_bid_tables

Z = NormalDist().inv_cdf(0.975)


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval, written out from the textbook formula."""
    p = k / n
    centre = p + Z * Z / (2 * n)
    spread = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    denom = 1 + Z * Z / n
    return (centre - spread) / denom, (centre + spread) / denom


def deal(
    contract=120,
    made=True,
    conceded=False,
    reshuffled=False,
    declarer=0,
    dealer=2,
    at_100=False,
    marriages_after=0,
    hand_points=(30, 30, 30),
):
    return {
        "deal_id": 0,
        "dealer": dealer,
        "reshuffled": reshuffled,
        "declarer": None if reshuffled else declarer,
        "at_100": at_100,
        "contract": None if reshuffled else contract,
        "conceded": conceded,
        "made": made,
        "declarer_marriages_after": marriages_after,
        "hand_points_0": hand_points[0],
        "hand_points_1": hand_points[1],
        "hand_points_2": hand_points[2],
    }


def many(count, **kw):
    return [deal(**kw) for _ in range(count)]


SCHEMA = {
    "deal_id": pl.Int64,
    "dealer": pl.Int8,
    "reshuffled": pl.Boolean,
    "declarer": pl.Int8,
    "at_100": pl.Boolean,
    "contract": pl.Int16,
    "conceded": pl.Boolean,
    "made": pl.Boolean,
    "declarer_marriages_after": pl.UInt8,
    "hand_points_0": pl.Int16,
    "hand_points_1": pl.Int16,
    "hand_points_2": pl.Int16,
}


@pytest.fixture
def run_dir(tmp_path):
    """Write rows as a run folder (hands.parquet + run.json) and return its path."""

    def make(rows, marriage_values="standard", drop=()):
        df = pl.DataFrame(rows, schema=SCHEMA).with_row_index("i").drop("deal_id", *drop)
        df.rename({"i": "deal_id"}).write_parquet(tmp_path / "hands.parquet")
        rules = {"players": 3, "marriage.values": marriage_values}
        manifest = {"rules_name": "test", "rules_hash": "0123456789abcdef", "rules": rules}
        (tmp_path / "run.json").write_text(json.dumps(manifest))
        return tmp_path

    return make


def row(table, **keys):
    rows = table.filter(**keys).to_dicts()
    assert len(rows) == 1, (keys, rows)
    return rows[0]


def test_make_rate_and_exact_wilson_bounds_by_contract(run_dir):
    rows = many(7, contract=120) + many(3, contract=120, made=False) + many(4, contract=100)
    t = bid_tables(run_dir(rows))
    r = row(t["by_contract"], contract=120)
    low, high = wilson(7, 10)
    assert (r["n"], r["made"], r["rate"]) == (10, 7, 0.7)
    assert r["ci_low"] == pytest.approx(low, rel=1e-12)
    assert r["ci_high"] == pytest.approx(high, rel=1e-12)
    assert t["by_contract"]["contract"].to_list() == [100, 120]
    all_made = row(t["by_contract"], contract=100)
    assert (all_made["n"], all_made["rate"], all_made["ci_high"]) == (4, 1.0, 1.0)


def test_reshuffled_rows_are_not_contracts_and_concessions_are_failures(run_dir):
    rows = (
        many(7, contract=120)
        + many(3, contract=120, made=False)
        # conceded: never made, even if the file says so
        + many(2, contract=120, conceded=True, made=True)
        + many(1, contract=120, conceded=True, made=False)
        # redealt deals: no contract at all, even with made set
        + many(5, reshuffled=True, made=True)
    )
    t = bid_tables(run_dir(rows))
    r = row(t["by_contract"], contract=120)
    assert (r["n"], r["made"], r["contracts"], r["conceded"]) == (10, 7, 13, 3)
    assert r["rate"] == 0.7
    assert r["concession_rate"] == pytest.approx(3 / 13)
    assert r["rate_all"] == pytest.approx(7 / 13)
    assert (r["ci_low_all"], r["ci_high_all"]) == pytest.approx(wilson(7, 13), rel=1e-12)
    assert (r["concession_ci_low"], r["concession_ci_high"]) == pytest.approx(
        wilson(3, 13), rel=1e-12
    )
    assert t["by_contract"].height == 1  # no null-contract row from the redeals
    s = t["summary"].row(0, named=True)
    assert (s["deals"], s["reshuffled"], s["contracts"], s["n"], s["made"]) == (18, 5, 13, 10, 7)
    assert (s["rules"], s["min_n"]) == ("test", 30)


def test_marriage_bitmask_decoding():
    assert marriage_set_label(0) == "none"
    assert marriage_set_label(1) == "S"
    assert marriage_set_label(8) == "H"
    assert marriage_set_label(9) == "S+H"
    assert marriage_set_label(6) == "C+D"
    assert marriage_set_label(15) == "S+C+D+H"


def test_marriage_tables_count_sets_and_values(run_dir):
    masks = {0: 2, 1: 3, 8: 1, 9: 4, 6: 1, 15: 2}  # mask -> contracts
    rows = [d for mask, k in masks.items() for d in many(k, marriages_after=mask)]
    t = bid_tables(run_dir(rows))
    by_set = t["by_marriage_set"]
    expected = {
        0: ("none", 0, 0),
        1: ("S", 1, 40),
        8: ("H", 1, 100),
        9: ("S+H", 2, 140),
        6: ("C+D", 2, 140),
        15: ("S+C+D+H", 4, 280),
    }
    for mask, (label, count, value) in expected.items():
        r = row(by_set, mask=mask)
        assert (r["marriage_set"], r["marriages"], r["value"], r["n"]) == (
            label,
            count,
            value,
            masks[mask],
        )
    by_count = {r["marriages"]: r["n"] for r in t["by_marriage_count"].to_dicts()}
    assert by_count == {"0": 2, "1": 4, "2+": 7}


def test_marriage_values_follow_the_run_rules(run_dir):
    rows = many(2, marriages_after=9) + many(1, marriages_after=4)
    t = bid_tables(run_dir(rows, marriage_values="spades_high"))  # S 100, D 40, H 80
    assert row(t["by_marriage_set"], mask=9)["value"] == 180
    assert row(t["by_marriage_set"], mask=4)["value"] == 40


def test_points_band_uses_the_declarers_own_hand(run_dir):
    rows = (
        many(2, declarer=1, hand_points=(55, 9, 55))  # 0-9
        + many(3, declarer=2, hand_points=(0, 0, 10))  # 10-19
        + many(1, declarer=0, hand_points=(19, 40, 40), made=False)  # 10-19
        + many(4, declarer=0, hand_points=(20, 0, 0))  # 20-29
    )
    t = bid_tables(run_dir(rows))
    bands = t["by_points_band"].select("band_low", "points_band", "n", "made").rows()
    assert bands == [(0, "0-9", 2, 2), (10, "10-19", 4, 3), (20, "20-29", 4, 4)]


def test_at_100_versus_bid_up(run_dir):
    rows = (
        many(3, at_100=True, contract=100)
        + many(1, at_100=True, contract=100, made=False)
        + many(2, at_100=False, contract=130, made=False)
    )
    t = bid_tables(run_dir(rows))
    got = t["by_at_100"].select("at_100", "how_won", "n", "made").rows()
    assert got == [(True, "at 100", 4, 3), (False, "bid up", 2, 0)]


def test_declarer_seat_relative_to_dealer(run_dir):
    rows = (
        many(3, dealer=2, declarer=0)  # forehand
        + many(1, dealer=1, declarer=2)  # forehand
        + many(2, dealer=0, declarer=2)  # middle
        + many(5, dealer=1, declarer=1)  # dealer
    )
    t = bid_tables(run_dir(rows))
    got = t["by_relative_seat"].select("position", "offset", "n").rows()
    assert got == [("forehand", 1, 4), ("middle", 2, 2), ("dealer", 0, 5)]
    assert t["by_seat"].select("seat", "n").rows() == [(0, 3), (1, 5), (2, 3)]


def safe_rows():
    """Class (0 marriages, 30-39): 100 made 40/40, 120 32/40, 140 10/40, 160 5/5.

    Class (1 marriage, 50-59): 100 made 20/20, 120 made 15/20 (exactly 75 %).
    """
    cls = {"marriages_after": 0, "hand_points": (35, 0, 0)}
    rows = many(40, contract=100, **cls)
    rows += many(32, contract=120, **cls) + many(8, contract=120, made=False, **cls)
    rows += many(10, contract=140, **cls) + many(30, contract=140, made=False, **cls)
    rows += many(5, contract=160, **cls)  # perfect but too few to count
    rows += many(6, contract=160, conceded=True, **cls)  # concessions are not played
    small = {"marriages_after": 4, "hand_points": (52, 0, 0)}
    rows += many(20, contract=100, **small)
    rows += many(15, contract=120, **small) + many(5, contract=120, made=False, **small)
    return rows


def test_safe_bid_levels(run_dir):
    t = bid_tables(run_dir(safe_rows()))
    safe = t["safe_bids"]
    assert safe.height == 6  # 2 classes x 3 thresholds
    level = {r["threshold"]: r for r in safe.filter(marriages="0", points_band="30-39").to_dicts()}
    assert {th: r["level"] for th, r in level.items()} == {0.5: 120, 0.75: 120, 0.9: 100}
    assert level[0.5]["n_class"] == 125
    assert (level[0.75]["n"], level[0.75]["rate"]) == (40, 0.8)
    assert level[0.75]["ci_low"] == pytest.approx(wilson(32, 40)[0], rel=1e-12)
    assert level[0.9]["ci_low"] == pytest.approx(wilson(40, 40)[0], rel=1e-12)
    # Wilson lower bounds: 40/40 -> 0.912, 32/40 -> 0.652, 10/40 -> 0.142
    assert wilson(40, 40)[0] > 0.9 and 0.5 < wilson(32, 40)[0] < 0.75
    assert {th: r["level_conservative"] for th, r in level.items()} == {
        0.5: 120,
        0.75: 100,
        0.9: 100,
    }
    assert level[0.75]["ci_low_conservative"] == pytest.approx(wilson(40, 40)[0], rel=1e-12)
    small = safe.filter(marriages="1", points_band="50-59")
    assert small["level"].null_count() == 3 and small["level_conservative"].null_count() == 3
    assert small["n"].null_count() == 3


def test_safe_bid_levels_respect_min_n(run_dir):
    t = bid_tables(run_dir(safe_rows()), min_n=5)
    big = t["safe_bids"].filter(marriages="0", points_band="30-39", threshold=0.9)
    assert big["level"].to_list() == [160]  # 5/5 now counts
    small = t["safe_bids"].filter(marriages="1", points_band="50-59")
    assert small["threshold"].to_list() == [0.5, 0.75, 0.9]
    assert small["level"].to_list() == [120, 120, 100]  # a rate equal to 75 % qualifies
    assert small["n_class"].to_list() == [40, 40, 40]
    # Wilson lower bounds: 20/20 -> 0.839, 15/20 -> 0.531
    assert wilson(20, 20)[0] > 0.75 and 0.5 < wilson(15, 20)[0] < 0.75
    assert small["level_conservative"].to_list() == [120, 100, None]


def test_missing_folder_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="nowhere") as err:
        bid_tables(tmp_path / "nowhere")
    assert "\n" not in str(err.value)


def test_missing_parquet_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match=r"hands\.parquet") as err:
        bid_tables(tmp_path)
    assert "\n" not in str(err.value)


def test_missing_column_is_a_usage_error(run_dir):
    with pytest.raises(UsageError, match="'declarer_marriages_after'"):
        bid_tables(run_dir(many(3), drop=("declarer_marriages_after",)))


def test_missing_hand_points_column_is_a_usage_error(run_dir):
    with pytest.raises(UsageError, match="'hand_points_2'"):
        bid_tables(run_dir(many(3), drop=("hand_points_2",)))


def test_unreadable_parquet_is_a_usage_error(tmp_path):
    (tmp_path / "hands.parquet").write_text("not parquet")
    with pytest.raises(UsageError, match="Parquet"):
        bid_tables(tmp_path)


def test_json_is_strict_json_with_null_rates(run_dir):
    rows = many(3, contract=100) + many(2, contract=140, conceded=True)
    tables = bid_tables(run_dir(rows))
    assert row(tables["by_contract"], contract=140)["rate"] is None  # null, not NaN
    doc = bid_tables_json(tables)
    text = json.dumps(doc, allow_nan=False)  # raises on NaN
    r = next(r for r in json.loads(text)["by_contract"] if r["contract"] == 140)
    assert (r["n"], r["rate"], r["ci_low"], r["ci_high"]) == (0, None, None, None)
    assert (r["concession_rate"], r["rate_all"]) == (1.0, 0.0)
    assert doc["by_contract"][0]["rate"] == 1.0


def test_write_bid_tables_writes_csv_and_markdown(run_dir, tmp_path):
    tables = bid_tables(run_dir(safe_rows()))
    out = tmp_path / "out"
    write_bid_tables(tables, out)
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [f"{name}.csv" for name in tables] + ["bids.md"]
    )
    for name, table in tables.items():
        back = pl.read_csv(out / f"{name}.csv")
        assert back.columns == table.columns and back.height == table.height, name
    md = (out / "bids.md").read_text()
    assert "rules `test`" in md and "## Safe bid levels" in md
    assert "| contract | n | made | rate | ci_low | ci_high |" in md
    assert "| 140 | 40 | 10 | 0.2500 |" in md
