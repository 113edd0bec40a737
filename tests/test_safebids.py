"""Every dealt hand as the declarer's (sim.runs.declarer) and the safe-bid tables built on it."""

from __future__ import annotations

import json
from math import comb

import numpy as np
import polars as pl
import pytest

from analysis.safebids import (
    SafeBidRun,
    bid_caps,
    build_result,
    curves,
    frame_of,
    items_frame,
    marriage_mask,
    safe_levels,
)
from analysis.stats import wilson_interval
from sim.cards import hand_mask
from sim.engine.bits import mask_points
from sim.engine.declarer import (
    D_CONCEDE_FROM,
    D_CONTRACT,
    D_DEALT,
    D_ERROR,
    D_GIVE1,
    D_GIVE2,
    D_KEPT,
    D_TALON,
    D_TOTAL,
    D_WIN_BID,
)
from sim.rules import load_rules
from sim.runs.declarer import (
    PAR,
    declarer_deals,
    levels_of,
    par_levels,
    play_as_declarer,
    run_items,
)
from sim.solver.position import OpenCardSolver, play_state
from sim.solver.talon import after_discard

CLASSIC = load_rules("classic")


@pytest.fixture(scope="module")
def played() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    masks, decls = declarer_deals(2000, 11, 3)
    return masks, decls, play_as_declarer(CLASSIC, masks, decls, 11)


def bits(mask: int) -> int:
    return bin(int(mask)).count("1")


def test_every_item_is_a_whole_deal_played_out(played):
    masks, decls, rows = played
    assert (rows[:, D_ERROR] == 0).all()
    for k in range(0, len(rows), 7):
        row, place = rows[k], masks[k]
        decl = int(decls[k])
        assert row[D_DEALT] == place[decl] and row[D_TALON] == place[3]
        # the forced auction: forehand at 100 without bidding, another seat one raise
        assert row[D_WIN_BID] == (100 if decl == 0 else 105)
        assert row[D_CONTRACT] >= row[D_WIN_BID]
        kept, given = int(row[D_KEPT]), (1 << int(row[D_GIVE1])) | (1 << int(row[D_GIVE2]))
        assert bits(kept) == 8 and kept & given == 0
        assert kept | given == int(place[decl]) | int(place[3])
        assert 0 <= row[D_TOTAL] <= 120 + 220


def test_items_do_not_depend_on_chunks_or_threads(played):
    masks, decls, rows = played
    a = play_as_declarer(CLASSIC, masks[:300], decls[:300], 11)
    b = play_as_declarer(CLASSIC, masks[300:600], decls[300:600], 11, start=300)
    assert (a == rows[:300]).all() and (b == rows[300:600]).all()


def test_an_item_won_at_a_given_bid_names_its_contract_from_there(played):
    # the advisor's shown talon: the declarer won the auction at the table's bid, not at
    # the lowest raise; every seat (the forehand too) wins there, the cards are played
    # as before (the heuristic's play does not read the contract) but the forehand's:
    # won at 100 its talon stays hidden (talon.hide_at_100), at 120 it is shown
    assert CLASSIC.talon.hide_at_100
    masks, decls, rows = played
    bids = np.full(300, 120, dtype=np.int64)
    won = play_as_declarer(CLASSIC, masks[:300], decls[:300], 11, bids=bids)
    assert (won[:, D_ERROR] == 0).all()
    assert (won[:, D_WIN_BID] == 120).all()
    assert (won[:, D_CONTRACT] >= 120).all()
    assert (rows[:300, D_CONTRACT] < 120).any()  # some named less when won lower
    same = decls[:300] != 0
    assert (won[same, D_TOTAL] == rows[:300][same, D_TOTAL]).all()
    assert (won[:, D_KEPT] == rows[:300, D_KEPT]).all()
    with pytest.raises(ValueError, match="bids"):
        play_as_declarer(CLASSIC, masks[:3], decls[:3], 11, bids=np.zeros(2, np.int64))
    zero = play_as_declarer(CLASSIC, masks[:300], decls[:300], 11, bids=np.zeros(300, np.int64))
    assert (zero == rows[:300]).all()  # 0: the lowest raise, as without bids


def test_concessions_follow_the_heuristic_margin(played):
    _, _, rows = played
    # the heuristic concedes when its estimate is 25 below the contract: once it
    # concedes at a level it concedes at every higher one, so one number says it
    conceded = rows[:, D_CONCEDE_FROM]
    assert ((conceded == 0) | (conceded >= 100)).all()
    off = CLASSIC.replace(**{"rospis.allowed": False})
    masks, decls = declarer_deals(300, 11, 3)
    assert (play_as_declarer(off, masks, decls, 11)[:, D_CONCEDE_FROM] == 0).all()


def test_made_levels_form_a_staircase_below_cap_and_concession(played):
    _, decls, rows = played
    items = items_frame(
        CLASSIC, "heuristic", rows[:, D_DEALT], decls, np.arange(len(rows)) // 3,
        rows[:, D_TOTAL], rows[:, D_CONCEDE_FROM],
    )  # fmt: skip
    levels = levels_of(CLASSIC)
    made_to = items["made_to"].to_numpy()
    cap = items["cap"].to_numpy()
    for k in range(len(rows)):
        made = [
            rows[k, D_TOTAL] >= L
            and L <= cap[k]
            and (rows[k, D_CONCEDE_FROM] == 0 or L < rows[k, D_CONCEDE_FROM])
            for L in levels
        ]
        # what items_frame records is exactly the set of levels made, a staircase
        assert made == [L <= made_to[k] for L in levels], k


def test_hand_classes_match_exact_combinatorics():
    """Forehand hands of independent deals: P(♥ marriage in 7 cards) exactly, within 4 SE."""
    masks, decls = declarer_deals(20000, 5, 3)
    forehand = masks[decls == 0, 0].astype(np.int64)
    heart = (marriage_mask(forehand) >> 3) & 1
    exact = comb(22, 5) / comb(24, 7)
    se = (exact * (1 - exact) / len(forehand)) ** 0.5
    assert abs(heart.mean() - exact) < 4 * se
    hand = hand_mask("KH QH AS TS 9C JD QD")
    assert marriage_mask(np.array([hand]))[0] == 8
    assert bid_caps(CLASSIC, np.array([8, 1, 0, 9])).tolist() == [220, 160, 120, 260]


def test_curves_fall_with_the_level_and_safe_levels_use_the_lower_bound():
    rng = np.random.default_rng(3)
    n = 400
    levels = levels_of(CLASSIC)
    dealt = np.full(n, hand_mask("KH QH AS TS 9C JD QD"), dtype=np.int64)  # ♥: cap 220
    made_to = rng.choice(np.append(levels[levels <= 220], 0), size=n)
    items = items_frame(CLASSIC, "x", dealt, np.zeros(n, int), np.arange(n), par_level=made_to)
    curve = curves(items, CLASSIC, ("marriages",))
    assert curve["level"].to_list() == list(range(100, 225, 5))
    assert (np.diff(curve["made"].to_numpy()) <= 0).all()
    # brute force: the highest level whose Wilson lower end reaches the risk
    for risk, column in ((0.5, "safe_50"), (0.75, "safe_75"), (0.9, "safe_90")):
        want = None
        for L in levels[levels <= 220]:
            low, _ = wilson_interval((made_to >= L).sum(), n)
            if low >= risk:
                want = int(L)
        got = safe_levels(curve, ("marriages",))[column].item()
        assert got == want, risk


def test_par_is_at_least_the_open_card_value_of_the_players_own_discard(played):
    masks, decls, rows = played
    solver = OpenCardSolver()
    par = par_levels(CLASSIC, masks[:12], decls[:12])
    for k in range(12):
        hands = [int(m) for m in masks[k, :3]]
        gives = (int(rows[k, D_GIVE1]), int(rows[k, D_GIVE2]))
        pos = after_discard(hands, int(masks[k, 3]), int(decls[k]), gives)
        S, P = play_state(pos, CLASSIC)
        assert par[k, 0] >= solver.value(S, P)
        cap = bid_caps(CLASSIC, marriage_mask(np.array([hands[decls[k]]])))[0]
        assert par[k, 1] == 0 or 100 <= par[k, 1] <= cap
        if par[k, 1]:  # the best total reaches the level it makes
            assert par[k, 0] >= par[k, 1]


def test_run_items_for_a_strategy_and_the_par_line_up():
    heur = run_items(CLASSIC, "heuristic", 6, 2)
    par = run_items(CLASSIC, PAR, 6, 2)
    assert (heur["dealt"] == par["dealt"]).all() and (heur["deal"] == np.repeat(range(6), 3)).all()
    frame = frame_of(CLASSIC, PAR, par)
    assert frame["made_to"].to_list() == par["par_level"].tolist()
    # the dealt hands' points as the engine counts them
    assert frame["points"].to_list() == [mask_points(int(m)) for m in par["dealt"]]


@pytest.mark.parametrize(
    ("preset", "positions"),
    [("two_players", {"forehand", "dealer"}), ("four_players", {"forehand", "middle", "rear"})],
)
def test_two_and_four_players(preset, positions):
    rules = load_rules(preset)
    cols = run_items(rules, "heuristic", 200, 1)
    frame = frame_of(rules, "heuristic", cols)
    hands = 2 if rules.players == 2 else 3
    assert frame.height == 200 * hands and set(frame["position"]) == positions
    assert [bits(m) for m in cols["dealt"][:4]] == [10 if hands == 2 else 7] * 4
    assert (frame["made_to"] <= frame["cap"]).all() and frame["made_to"].max() >= 100


def test_held_out_tables_are_calibrated():
    """Rates by marriage class built on one seed predict another's within 2 SE (95 % ± 5 %)."""
    items = {("heuristic", seed): run_items(CLASSIC, "heuristic", 6000, seed) for seed in (21, 22)}
    run = SafeBidRun(CLASSIC, ["heuristic"], [], 21, 22, {"heuristic": 6000}, items)
    result = build_result(run)
    summary = result.tables["calibration_summary"].row(0, named=True)
    assert summary["cells"] >= 100
    # each cell's |z| <= 1.96 holds 95 % of the time when calibrated; cells of one class
    # share hands, so allow a wide band (a table built on the wrong hands fails it)
    assert summary["share_within_2se"] >= 0.85
    bins = result.tables["calibration_bins"]
    assert (bins["hands"] > 0).all()


# --- command line ---------------------------------------------------------------------
def test_cli_safebids_writes_tables_and_prints_the_chart(thousand, tmp_path):
    out = tmp_path / "sb"
    r = thousand(
        "safebids", "--deals", "3000", "--sample", "3", "--players", "heuristic,par",
        "--seed", "4", "--out", str(out), "--quiet",
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "| marriages | heuristic | par |" in r.stdout
    assert max(len(line) for line in r.stdout.splitlines() if line.startswith("|")) <= 100
    for name in ("items.parquet", "holdout_items.parquet", "safe_by_marriages.csv",
                 "curve_by_marriages.csv", "calibration.csv", "safe_curves.png",
                 "calibration.png", "safebids.md", "run.json"):  # fmt: skip
        assert (out / name).exists(), name
    items = pl.read_parquet(out / "items.parquet")
    assert items.group_by("player").len().sort("player")["len"].to_list() == [9000, 9]
    manifest = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert manifest["players"] == ["heuristic", "par"] and manifest["holdout_seed"] == 5
    r = thousand(
        "safebids", "--deals", "500", "--players", "heuristic", "--no-holdout", "--json",
        "--quiet",
    )  # fmt: skip
    doc = json.loads(r.stdout)
    assert doc["holdout_seed"] is None and "calibration" not in doc["tables"]
    assert {row["marriages"] for row in doc["tables"]["safe_by_marriages"]} >= {"none", "♥"}


@pytest.mark.parametrize(
    ("args", "culprit"),
    [
        (["--players", "heuristic,nobody"], "nobody"),
        (["--players", "par,par"], "twice"),
        (["--deals", "0"], "--deals"),
        (["--holdout-seed", "0"], "--holdout-seed"),
        (["--param", "pimc.worlds=0"], "worlds"),
        (["--rules", "no_such_rules"], "no_such_rules"),
    ],
)
def test_cli_safebids_bad_input_is_one_line_and_exit_2(run_main, tmp_path, args, culprit):
    out = tmp_path / "sb"
    code, err = run_main("safebids", "--out", str(out), *args)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and culprit in err
    assert not out.exists()


def test_cli_safebids_bad_input_as_a_subprocess(cli, tmp_path):
    r = cli("safebids", "--out", str(tmp_path / "sb"), "--players", "heuristic,nobody")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "nobody" in r.stderr


def test_bid_caps_and_names_agree_with_the_engine():
    """The analysis layer's cap rule and the par's name are the engine's and the runs'."""
    from analysis.safebids import PAR
    from sim.engine.bidding import bid_cap
    from sim.engine.params import rules_vector
    from sim.runs.declarer import PAR as RUNS_PAR

    assert PAR == RUNS_PAR
    for preset in ("classic", "app", "ukraine_online"):
        rules = load_rules(preset)
        P = rules_vector(rules)
        for mask in range(16):  # every set of marriages, as K+Q of each suit held
            hand = sum(3 << (s * 6 + 2) for s in range(4) if mask >> s & 1)
            assert bid_caps(rules, np.array([mask]))[0] == bid_cap(hand, P), (preset, mask)


def test_the_fast_players_columns_carry_the_defence_caveat():
    from views.safebids import defence_caveat

    assert defence_caveat(["pimc", "par"]) is None
    text = defence_caveat(["strong", "heuristic", "pimc", "par"])
    assert text is not None and "`strong` and `heuristic` defend less well" in text
    assert "a few points high" in text and not any(ch.isdigit() for ch in text)


def test_a_wilson_interval_holds_its_rate_even_at_0_and_1():
    # at k = n the float arithmetic left the upper end at 1 - 1e-16 for 602 of these n,
    # which matplotlib refuses as a negative error bar
    n = np.arange(1, 2000)
    for k in (n, 0 * n, n // 3):
        low, high = wilson_interval(k, n)
        assert ((low <= k / n) & (k / n <= high)).all()
    low, high = wilson_interval([0], [0])
    assert np.isnan(low[0]) and np.isnan(high[0])


def test_the_safebids_job_gives_the_commands_tables(main_io):
    # a notebook's call (a spec, no command line) and `thousand safebids` agree
    from sim.jobs.safebids import SafeBidsSpec, safebids
    from sim.output import json_safe
    from sim.runs.folder import Feedback

    spec = SafeBidsSpec(
        rules=load_rules("classic"), players=("heuristic", "par"), deals=300, sample=2, seed=4,
        holdout_seed=5, workers=1,
    )  # fmt: skip
    seen = []

    class Bar:
        def __init__(self, total, unit, label):
            seen.append((total, unit))

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def update(self, n):
            seen.append(n)

    class Bars(Feedback):
        def bar(self, total, unit, label):
            return Bar(total, unit, label)

    doc = json_safe(safebids(spec, feedback=Bars()).json())
    code, out, _ = main_io(
        "safebids", "--players", "heuristic,par", "--deals", "300", "--sample", "2",
        "--seed", "4", "--holdout-seed", "5", "--workers", "1", "--json", "--quiet",
    )  # fmt: skip
    assert code == 0
    assert json.loads(out) == json.loads(json.dumps(doc))
    assert seen[0] == ((300 + 2) * 3 * 2, "hand") and sum(seen[1:]) == seen[0][0]
    assert spec.sizes() == {"heuristic": 300, "par": 2} and spec.seeds() == [4, 5]
