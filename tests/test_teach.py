"""The teacher's data (``thousand teach``) and the learned decisions fitted on it.

The labels must be what the sampling player weighs (its own choice is the best label,
on the same worlds), the files the same whatever the workers, the learned contract
the one the shipped network computes, and a fit on a teacher's folder must write
weights the engine reads as the fit predicts.
"""

from __future__ import annotations

import io
import itertools
import json
import sys

import numpy as np
import polars as pl
import pytest
from support import decide

from sim.batch.runner import Chunk
from sim.cards import cards_str
from sim.cli import main
from sim.engine import play_hand_text
from sim.engine.actions import Decision
from sim.engine.deal import generate_deals
from sim.engine.params import rules_vector
from sim.engine.scoring import least_total
from sim.engine.search import arena_size
from sim.engine.state import N_STATE, S_CONTRACT, S_DECL
from sim.engine.strategies import learned
from sim.engine.strategies.pimc import pimc_contract, pimc_discard, pimc_play
from sim.engine.strategies.registry import parse_params
from sim.rules import load_rules
from sim.runs.teach import KINDS, TeachJob, label_chunk

WORLDS = 4


@pytest.fixture(scope="module")
def taught(tmp_path_factory):
    """A small teacher's folder of classic deals, every kind, and its frames."""
    out = tmp_path_factory.mktemp("teach") / "classic"
    args = ["teach", "--deals", "8", "--seed", "5", "--worlds", str(WORLDS), "--workers", "1",
            "--chunk", "3", "--quiet", "--out", str(out), "--kinds", ",".join(KINDS)]  # fmt: skip
    assert main(args) == 0
    return out, {k: pl.read_parquet(out / f"{k}.parquet") for k in KINDS}


def _pimc(rules: str = "classic"):
    P = rules_vector(load_rules(rules))
    params = parse_params(["pimc"], [f"pimc.worlds={WORLDS}", f"pimc.discard_worlds={WORLDS}"])
    return P, params[0], np.zeros(arena_size(14), dtype=np.int64)


def test_every_kind_is_labelled_and_run_json_says_what(taught):
    out, frames = taught
    assert all(len(frames[k]) > 0 for k in KINDS), {k: len(f) for k, f in frames.items()}
    run = json.loads((out / "run.json").read_text())
    assert run["command"] == "teach" and run["worlds"] == WORLDS and run["kinds"] == list(KINDS)
    assert run["sizes"] == {"deals": 8, **{f"decisions_{k}": len(frames[k]) for k in KINDS}}
    for frame in frames.values():
        assert frame["deal"].is_sorted() and frame["deal"].max() < 8
    for kind, frame in frames.items():
        assert (frame["worlds"] == (1 if kind == "outcome" else WORLDS)).all(), kind
        assert (frame["state"].list.len() == N_STATE).all()


def test_the_sampling_player_picks_the_best_label_on_the_same_worlds(taught):
    _, frames = taught
    P, params, arena = _pimc()
    for state, lo, n, value, pick in (
        frames["contract"].select("state", "lo", "levels", "value", "pimc").iter_rows()
    ):
        S = np.array(state, dtype=np.int64)
        assert pimc_contract(S, P, arena, lo, n, params) == pick
        assert max(value) == value[(pick - lo) // 5]
    for state, score, cards, pick in (
        frames["discard"].select("state", "score", "cards", "pimc").iter_rows()
    ):
        S = np.array(state, dtype=np.int64)
        assert pimc_discard(S, P, arena, params) == pick == cards[int(np.argmax(score))]
    clear = 0
    for state, seat, declarer, codes, made in (
        frames["play"].select("state", "seat", "declarer", "codes", "made").iter_rows()
    ):
        best = max(made) if declarer else min(made)
        if made.count(best) != 1:
            continue  # a tie: pimc breaks it by mean totals, not in the label
        clear += 1
        S = np.array(state, dtype=np.int64)
        plain = sum(1 << c for c in codes if c < 24)
        declaring = sum(1 << (c - 24) for c in codes if c >= 24)
        assert pimc_play(seat, S, P, plain, declaring, arena, params) == codes[made.index(best)]
    assert clear > 5


def test_a_bid_label_is_the_value_of_the_highest_contract_reached(taught):
    _, frames = taught
    bids = frames["bid"].select("lo", "step", "reached", "value")
    for lo, step, reached, value in bids.iter_rows():
        r = np.array(reached)
        for k, v in enumerate(value):
            level = lo + k * step
            want = np.where(r >= k, lo + step * r, -level).mean()
            assert v == pytest.approx(want)
        assert len(value) == max(int(r.max()) + 1, 1)


def test_the_files_are_the_same_whatever_the_workers(taught, tmp_path):
    out, _ = taught
    args = ["teach", "--deals", "8", "--seed", "5", "--worlds", str(WORLDS), "--workers", "2",
            "--chunk", "3", "--quiet", "--out", str(tmp_path / "two"), "--kinds",
            ",".join(KINDS)]  # fmt: skip
    assert main(args) == 0
    for kind in KINDS:
        name = f"{kind}.parquet"
        assert (tmp_path / "two" / name).read_bytes() == (out / name).read_bytes(), kind


def test_a_chunk_is_the_same_alone(taught):
    _, frames = taught
    job = TeachJob(rules=load_rules("classic"), seed=5, player="strong", params=(),
                   worlds=WORLDS, kinds=("contract",))  # fmt: skip
    part = label_chunk(job, Chunk(1, 3, 3))
    alone = pl.read_parquet(io.BytesIO(part["contract.parquet"]))
    whole = frames["contract"].filter(pl.col("deal").is_between(3, 5))
    assert alone.equals(whole)


def test_an_outcome_is_the_deal_played_on_with_no_concession(taught):
    _, frames = taught
    rules = load_rules("classic")
    outcome, contract = frames["outcome"], frames["contract"]
    # the same contract decisions as the search's labels, in the same states
    assert outcome["deal"].to_list() == contract["deal"].to_list()
    assert outcome["state"].to_list() == contract["state"].to_list()
    cards = generate_deals(8, seed=5)
    for deal, contract_named, total in outcome.select("deal", "contract", "total").iter_rows():
        hands = [cards_str(cards[deal][7 * i : 7 * i + 7]) for i in range(3)]
        trace = play_hand_text(
            rules, hands, cards_str(cards[deal][21:]), deal % 3, strategies=["strong"] * 3,
            seed=5 * 1_000_003 + deal, no_concede=[True] * 3,
        )  # fmt: skip
        d = trace["declarer"]
        assert not trace["conceded"] and trace["contract"] == contract_named
        assert total == trace["card_points"][d] + trace["marriage_points"][d]


def test_a_fit_on_outcomes_writes_the_two_player_network(tmp_path, monkeypatch):
    pytest.importorskip("sklearn")
    from training import contract as fit

    out = tmp_path / "two"
    args = ["teach", "--rules", "two_players", "--deals", "40", "--seed", "3", "--player",
            "heuristic", "--kinds", "outcome", "--workers", "1", "--quiet",
            "--out", str(out)]  # fmt: skip
    assert main(args) == 0
    frame = pl.read_parquet(out / "outcome.parquet")
    assert frame.height > 20 and (frame["total"] >= 0).all()
    weights = tmp_path / "learned.npz"
    argv = ["contract", "--data", str(out), "--rules", "two_players", "--labels", "outcome",
            "--net", "two", "--hidden", "4", "--holdout", "0.3", "--out", str(weights)]  # fmt: skip
    monkeypatch.setattr(sys, "argv", argv)
    fit.main()
    w = np.load(weights)
    assert list(w["contract_fitted"]) == [0, 1]
    assert w["contract_w1"].shape == (2, 4, learned.N_CONTRACT_FEATURES)
    # the targets: 1 exactly where the played total reaches the contract's least total
    P = rules_vector(load_rules("two_players"))
    _, y, who = fit.outcome_rows(frame, P, 0, None)
    for i, (lo, total) in enumerate(frame.select("lo", "total").iter_rows()):
        made = y[who == i]
        want = [float(total >= least_total(lo + 5 * k, P)) for k in range(len(made))]
        assert list(made) == want


@pytest.mark.parametrize(
    ("args", "culprit"),
    [
        (["--kinds", "contract,trick"], "--kinds"),
        (["--player", "nobody"], "--player nobody"),
        (["--worlds", "500"], "--worlds 500"),
        (["--param", "strong.nothing=1"], "nothing"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, culprit, tmp_path, capsys):
    code = main(["teach", "--deals", "2", "--quiet", "--out", str(tmp_path / "t"), *args])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and culprit in err, err
    assert not (tmp_path / "t").exists()


def test_strong_names_the_contract_the_network_computes(taught):
    _, frames = taught
    rules = load_rules("classic")
    P = rules_vector(rules)
    sp = parse_params(["strong"], [])[0]
    assert learned.CONTRACT_FITTED[learned.THREE]
    for state, lo, n in frames["contract"].select("state", "lo", "levels").iter_rows():
        S = np.array(state, dtype=np.int64)
        legal = lo + 5 * np.arange(n, dtype=np.int64)
        got = decide("strong", int(Decision.CONTRACT), int(S[S_DECL]), S, P, legal, n, sp)
        assert got == learned.learned_contract(S, P, lo, n)
        reach = [learned.contract_reach(S, P, int(c)) for c in legal]
        scores = legal * (2 * np.array(reach) - 1)
        assert got == legal[int(np.argmax(scores))]


def test_a_fit_writes_weights_the_engine_reads_as_the_fit_predicts(taught, tmp_path, monkeypatch):
    pytest.importorskip("sklearn")
    from training import contract as fit

    out, frames = taught
    weights = tmp_path / "learned.npz"
    argv = ["contract", "--data", str(out), "--hidden", "4", "--holdout", "0.3",
            "--out", str(weights)]  # fmt: skip
    monkeypatch.setattr(sys, "argv", argv)
    fit.main()
    w = np.load(weights)
    assert list(w["contract_fitted"]) == [1, 0]
    assert w["contract_w1"].shape == (2, 4, learned.N_CONTRACT_FEATURES)
    # the engine's inference (the shipped network) against the fit's own prediction
    P = rules_vector(load_rules("classic"))
    shipped = {
        "w1": learned.CONTRACT_W1[0], "b1": learned.CONTRACT_B1[0],
        "w2": learned.CONTRACT_W2[0], "b2": learned.CONTRACT_B2[0],
    }  # fmt: skip
    X, _, who = fit.rows(frames["contract"], P)
    mine = fit.predict(shipped, X)
    for i, (state, lo) in enumerate(frames["contract"].select("state", "lo").iter_rows()):
        S = np.array(state, dtype=np.int64)
        for j, row in enumerate(np.flatnonzero(who == i)):
            assert learned.contract_reach(S, P, lo + 5 * j) == pytest.approx(mine[row], abs=1e-9)


def test_the_weights_file_is_part_of_the_compiled_code_cache_key(tmp_path, monkeypatch):
    from sim import cache

    modules = ("sim.engine.strategies.learned", "sim.engine.strategies.strong")
    before = [cache.module_digest(m) for m in modules]
    cache.module_digest.cache_clear()
    data = learned.WEIGHTS_FILE.read_bytes()
    monkeypatch.setattr(
        type(learned.WEIGHTS_FILE), "read_bytes",
        lambda self: data + b"x" if self == learned.WEIGHTS_FILE else open(self, "rb").read(),
    )  # fmt: skip
    try:
        after = [cache.module_digest(m) for m in modules]
        assert all(a != b for a, b in zip(after, before, strict=True))
    finally:
        cache.module_digest.cache_clear()


def test_pimc_names_the_learned_contract_when_asked(taught):
    _, frames = taught
    P = rules_vector(load_rules("classic"))
    learned_params = parse_params(["pimc"], ["pimc.contract=1"])[0]
    searched = parse_params(["pimc"], [f"pimc.worlds={WORLDS}"])[0]  # contract=0, the default
    for state, lo, n, pick in (
        frames["contract"].select("state", "lo", "levels", "pimc").iter_rows()
    ):
        S = np.array(state, dtype=np.int64)
        legal = lo + 5 * np.arange(n, dtype=np.int64)
        seat = int(S[S_DECL])
        got = decide("pimc", int(Decision.CONTRACT), seat, S, P, legal, n, learned_params)
        assert got == learned.learned_contract(S, P, lo, n)
        assert decide("pimc", int(Decision.CONTRACT), seat, S, P, legal, n, searched) == pick


def test_the_learned_concession_and_contract_follow_their_rules(taught):
    _, frames = taught
    classic = load_rules("classic")
    free = rules_vector(classic.replace(rospis__no_subtract=True))  # conceding costs no contract
    paid = rules_vector(classic)  # conceding costs the contract and half of it to each defender
    sixty = rules_vector(classic.replace(rospis__opponents_get="sixty"))
    named = rules_vector(classic.replace(trump__named_by_declarer=True))
    assert learned.concede_fitted(paid) and learned.concede_fitted(free)
    conceded = {"free": 0, "paid": 0}
    for state, lo, n in frames["contract"].select("state", "lo", "levels").iter_rows():
        S = np.array(state, dtype=np.int64)
        S[S_CONTRACT] = lo + 5 * (n - 1)  # the highest contract: the likeliest to concede
        c = int(S[S_CONTRACT])
        d = learned.defenders_points(S, paid)
        # the margin by hand (rules §5): playing c (2q - 1) less the defenders' mean,
        # conceding -c (0 without the subtraction) less each defender's share
        gets = (c // 2 + 4) // 5 * 5
        for q in (0.0, 0.3, 1.0):
            play = c * (2 * q - 1) - d / 2
            assert learned.concession_gain(S, paid, q, d) == pytest.approx(-c - gets - play)
            assert learned.concession_gain(S, free, q, d) == pytest.approx(-gets - play)
            assert learned.concession_gain(S, sixty, q, d) == pytest.approx(-c - 60 - play)
        for name, P in (("free", free), ("paid", paid)):
            q = learned.made_chance(P, learned.contract_reach(S, P, c))
            want = int(learned.concession_gain(S, P, q, d) > 7.5)
            assert learned.learned_concede(S, P, 7.5) == want
            conceded[name] += want
        # no network for a trump the declarer names: the caller's decision
        assert learned.learned_contract(S, named, lo, n) == learned.NOT_FITTED
        assert learned.learned_concede(S, named, 0.0) == learned.NOT_FITTED
    # conceding costs less without the subtraction, so it is chosen at least as often
    assert conceded["free"] > 0
    assert conceded["free"] >= conceded["paid"]


def test_the_made_chance_is_monotone_and_inverted():
    P = rules_vector(load_rules("classic"))
    shares = np.linspace(0.0, 1.0, 21)
    chances = [learned.made_chance(P, q) for q in shares]
    assert all(b >= a for a, b in itertools.pairwise(chances))
    for q in (0.05, 0.3, 0.5, 0.9):
        assert learned.share_for_chance(P, learned.made_chance(P, q)) == pytest.approx(q)


def test_the_card_fit_reads_values_and_writes_only_its_rows(taught, tmp_path):
    """training.cards: the best cards share the target; a fit writes its rows, keeps the rest."""
    from sim.engine.strategies.strong import NET_FILE
    from training import cards

    out, frames = taught
    data = cards.read([out])
    # only the decisions where the cards' values differ, each value a share of the worlds
    assert 0 < len(data["seats"]) < len(frames["play"])
    v = data["value"]
    made = v * WORLDS  # the worlds made (or, for a defender, not made) of WORLDS
    assert ((made >= 0) & (made <= WORLDS)).all() and np.allclose(made, np.round(made))
    P = rules_vector(load_rules("classic"))
    cols = cards.design(data, P)
    d = cards.Decisions(cols["X"], v, data["offsets"], data["codes"], cols["heur"], cols["shipped"])
    sums = np.add.reduceat(d.target, d.starts)
    assert np.allclose(sums, 1.0)
    # the target sits on the cards of the best value only
    assert (d.target[v < np.repeat(d.best, d.lens) - 1e-12] == 0).all()
    # a card of the best value scores as such; the worst loses its gap
    best_pick = d.codes[
        np.flatnonzero(d.target > 0)[np.unique(d.group[d.target > 0], return_index=True)[1]]
    ]
    assert cards.quality(d, best_pick) == (1.0, 0.0)
    file = tmp_path / "strong.npz"
    file.write_bytes(NET_FILE.read_bytes())
    net = cards.fit_net(d, hidden=4, seed=1, epochs=2)
    cards.write(file, {3: net}, hidden=4)
    with np.load(NET_FILE) as old, np.load(file) as new:
        h = old["w1"].shape[1]
        for r in (0, 1, 2):  # the rows not fitted, as they were (padded with units that never fire)
            assert np.array_equal(new["w1"][r, :h], old["w1"][r])
            assert np.array_equal(new["w2"][r, :h], old["w2"][r])
            assert (new["w2"][r, h:] == 0).all()
        assert np.array_equal(new["w1"][3, :4], net["w1"]) and (new["w1"][3, 4:] == 0).all()
        assert new["bonus"][3] == 0.0
    # the two-hand network goes beside it, the three-hand one untouched
    with np.load(file) as three:
        kept = {k: three[k] for k in three.files if not k.endswith("_two")}
    cards.write(file, {0: net}, hidden=4, suffix="_two")
    with np.load(file) as two:
        for k, v in kept.items():
            assert np.array_equal(two[k], v), k
        w1 = two["w1_two"]
        assert w1.shape[0] == 4 and w1.shape[2] == 24 and w1.shape[1] >= 4
        assert np.array_equal(w1[0, :4], net["w1"]) and not w1[0, 4:].any()
        assert two["bonus_two"][0] == 0.0
