"""Fit the learned contract (and concession) on the teacher's labels; write the weights.

1. **the data**: ``thousand teach --kinds contract`` folders (``--data``, one or more;
   made by ``--deals`` and ``--seed`` when missing), the declarer's state at every
   contract decision and, per sampled world, the highest contract it reaches with every
   card face up; or with ``--labels outcome``, ``thousand teach --kinds outcome``
   folders: the declarer's deal total when the dealt deal is played on by the player
   (the contracts its own cards make, not the open-card search's);
2. **the rows**: per decision and contract, the features of
   :func:`sim.engine.strategies.learned.contract_features` and the points the contract
   needs; the target is the share of worlds that reach it (``outcome``: 1 where the
   total reaches it, else 0; ``--levels-per`` contracts of each decision drawn, seeded);
3. **the fit**: scikit-learn's ``MLPRegressor`` (one hidden layer of ReLUs, squared
   error: the Brier score of the share), inputs standardised, seeded; or ``--model
   line`` (least squares, the same inputs), the simpler class it is compared with;
4. **held out**: the decisions of the last ``--holdout`` share of the deals are not
   fitted; on them, the points per decision the fitted contract loses to the best
   contract over the worlds (its regret) and the share of decisions where it picks the
   sampling player's contract (``outcome``: the deal score its contract scores with the
   total played, against the contract the player named);
5. **write** the network into ``sim/engine/strategies/learned.npz`` (``--net three`` or
   ``two``; the other network is kept), unless ``--dry-run``.

Strength is measured by duels afterwards (``thousand duel --a strong``), on seeds not
used here. The same data and seed give the same weights.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl

from sim.engine.params import rules_vector
from sim.engine.scoring import least_total
from sim.engine.state import N_STATE, S_DECL
from sim.engine.strategies import learned
from sim.rules import load_rules

HIDDEN = 32


def teach(
    out: Path, rules: str, deals: int, seed: int, workers: int, kind: str, player: str
) -> None:
    """Make the teacher's data of ``kind`` with ``thousand teach`` (``--resume`` if cut off)."""
    cmd = [sys.executable, "-m", "sim", "teach", "--rules", rules, "--deals", str(deals),
           "--seed", str(seed), "--kinds", kind, "--player", player, "--out", str(out),
           "--workers", str(workers)]  # fmt: skip
    if player == "strong":  # its states as the weights were fitted: bidding as the heuristic
        cmd += ["--param", "strong.bid_net=0"]
    if out.with_name(f".{out.name}.partial").exists():
        cmd.append("--resume")
    subprocess.run(cmd, check=True)


def rows(frame: pl.DataFrame, P: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(X, y, decision)``: a row per decision and contract; the share reaching it; whose."""
    from sim.engine.scoring import deal_points

    states = np.array(frame["state"].to_list(), dtype=np.int64)
    x = np.zeros(64)
    X, y, who = [], [], []
    for i, (lo, step, n, reached) in enumerate(
        frame.select("lo", "step", "levels", "reached").iter_rows()
    ):
        S = states[i, :N_STATE]
        learned.contract_features(S, P, x)
        cp, mp = deal_points(S, P, S[S_DECL])
        r = np.array(reached)
        for k in range(n):
            row = x[: learned.N_CONTRACT_FEATURES].copy()
            row[learned.NEED] = (least_total(lo + k * step, P) - cp - mp) * 0.01
            X.append(row)
            y.append(float((r >= k).mean()))
            who.append(i)
    return np.array(X), np.array(y), np.array(who)


def outcome_rows(
    frame: pl.DataFrame, P: np.ndarray, per: int, rng: np.random.Generator | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`rows` of ``outcome`` data: the target 1 where the played total makes the contract.

    ``per`` contracts of each decision drawn by ``rng`` (all with ``rng`` None).
    """
    from sim.engine.scoring import deal_points

    x = np.zeros(64)
    X, y, who = [], [], []
    for i, (state, lo, step, n, total) in enumerate(
        frame.select("state", "lo", "step", "levels", "total").iter_rows()
    ):
        S = np.array(state, dtype=np.int64)
        learned.contract_features(S, P, x)
        cp, mp = deal_points(S, P, S[S_DECL])
        ks = range(n) if rng is None or per >= n else sorted(rng.choice(n, per, replace=False))
        for k in ks:
            row = x[: learned.N_CONTRACT_FEATURES].copy()
            least = least_total(lo + k * step, P)
            row[learned.NEED] = (least - cp - mp) * 0.01
            X.append(row)
            y.append(1.0 if total >= least else 0.0)
            who.append(i)
    return np.array(X), np.array(y), np.array(who)


def outcome_gain(frame: pl.DataFrame, p: np.ndarray, P: np.ndarray) -> tuple[float, float, float]:
    """Points per decision the fitted contract scores over the player's, with the totals played.

    ``(mean, standard error, mean contract)``; ``p`` by decision and contract, in order.
    """
    gain, named = [], []
    start = 0
    for lo, step, n, total, contract in frame.select(
        "lo", "step", "levels", "total", "contract"
    ).iter_rows():
        levels = lo + step * np.arange(n)
        c = int(levels[int(np.argmax(levels * (2 * p[start : start + n] - 1)))])
        score = c if total >= least_total(c, P) else -c
        base = contract if total >= least_total(contract, P) else -contract
        gain.append(score - base)
        named.append(c)
        start += n
    a = np.array(gain)
    return float(a.mean()), float(a.std(ddof=1) / np.sqrt(len(a))), float(np.mean(named))


def fit(X: np.ndarray, y: np.ndarray, model: str, seed: int, hidden: int) -> dict[str, np.ndarray]:
    """The network's arrays (inputs' scaling folded into the first layer)."""
    mean = X.mean(axis=0)
    sd = X.std(axis=0)
    sd[sd == 0] = 1.0
    Z = (X - mean) / sd
    if model == "line":
        A = np.c_[Z, np.ones(len(Z))]
        coef = np.linalg.lstsq(A.T @ A + 1e-6 * np.eye(A.shape[1]), A.T @ y, rcond=None)[0]
        # a line as a network of one unit that never clips: a big offset, taken off after
        big = 1e3
        W1 = (coef[:-1] / sd)[None, :]
        b1 = np.array([coef[-1] - W1[0] @ mean + big])
        return {"w1": W1, "b1": b1, "w2": np.array([1.0]), "b2": np.array(-big)}
    from sklearn.neural_network import MLPRegressor

    batch = min(512, int(0.9 * len(Z)))  # early stopping keeps a tenth apart
    net = MLPRegressor(
        hidden_layer_sizes=(hidden,), activation="relu", alpha=1e-4, batch_size=batch,
        learning_rate_init=1e-3, max_iter=60, early_stopping=True, n_iter_no_change=6,
        random_state=seed,
    )  # fmt: skip
    net.fit(Z, y)
    W1 = net.coefs_[0].T / sd[None, :]  # (hidden, features)
    b1 = net.intercepts_[0] - W1 @ mean
    return {"w1": W1, "b1": b1, "w2": net.coefs_[1][:, 0], "b2": np.array(net.intercepts_[1][0])}


def predict(w: dict[str, np.ndarray], X: np.ndarray) -> np.ndarray:
    """The network's share for rows ``X`` (as the engine computes it, clipped to 0..1)."""
    h = np.maximum(X @ w["w1"].T + w["b1"], 0.0)
    return np.clip(h @ w["w2"] + w["b2"], 0.0, 1.0)


def regret(frame: pl.DataFrame, p: np.ndarray, who: np.ndarray) -> tuple[float, float, float]:
    """Points per decision lost to the best contract over the worlds (mean, standard error).

    And the share of decisions where the fitted contract is the sampling player's.
    """
    loss, same = [], []
    start = 0
    for i, (lo, step, n, value, pimc) in enumerate(
        frame.select("lo", "step", "levels", "value", "pimc").iter_rows()
    ):
        assert who[start] == i
        levels = lo + step * np.arange(n)
        score = levels * (2 * p[start : start + n] - 1)
        k = int(np.argmax(score))
        loss.append(max(value) - value[k])
        same.append(levels[k] == pimc)
        start += n
    a = np.array(loss)
    return float(a.mean()), float(a.std(ddof=1) / np.sqrt(len(a))), float(np.mean(same))


def heuristic_regret(frame: pl.DataFrame, P: np.ndarray) -> tuple[float, float, float]:
    """:func:`regret` of the heuristic's contract (what ``strong`` named before), to compare."""
    from sim.engine.actions import Decision
    from sim.engine.strategies.heuristic import heuristic_range
    from sim.engine.strategies.registry import parse_params

    sp = parse_params(["heuristic"], [])[0]
    p, who = [], []
    for i, (state, lo, step, n) in enumerate(
        frame.select("state", "lo", "step", "levels").iter_rows()
    ):
        S = np.array(state, dtype=np.int64)
        c = heuristic_range(int(Decision.CONTRACT), int(S[S_DECL]), S, P, lo, n, sp)
        k = (c - lo) // step
        p.extend(1.0 if j <= k else 0.0 for j in range(n))  # the levels up to its contract
        who.extend([i] * n)
    return regret(frame, np.array(p), np.array(who))


def main() -> None:
    """Fit and write the contract network (the module's steps)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, nargs="+", default=[Path("runs/teach/classic")])
    ap.add_argument("--rules", default="classic", help="the rules of the data (made if missing)")
    ap.add_argument("--deals", type=int, default=20_000, help="deals of data made if missing")
    ap.add_argument("--data-seed", type=int, default=1001, help="the teacher's seed if made")
    ap.add_argument("--player", default="strong", help="the teacher's player if made")
    ap.add_argument("--seed", type=int, default=1, help="the fit's seed")
    ap.add_argument("--model", choices=("net", "line"), default="net")
    ap.add_argument("--hidden", type=int, default=HIDDEN)
    ap.add_argument("--net", choices=("three", "two"), default="three")
    ap.add_argument("--holdout", type=float, default=0.2)
    ap.add_argument(
        "--labels",
        choices=("search", "outcome"),
        default="search",
        help="the open-card search's shares, or the totals the player's play made",
    )
    ap.add_argument(
        "--levels-per",
        type=int,
        default=4,
        help="outcome: contracts drawn per decision to fit (seeded)",
    )
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=learned.WEIGHTS_FILE)
    ap.add_argument("--dry-run", action="store_true", help="fit and print, write nothing")
    args = ap.parse_args()
    frames = []
    kind = "contract" if args.labels == "search" else "outcome"
    for folder in args.data:
        if not (folder / f"{kind}.parquet").exists():
            teach(folder, args.rules, args.deals, args.data_seed, args.workers, kind, args.player)
        frames.append(pl.read_parquet(folder / f"{kind}.parquet"))
    frame = pl.concat(frames)
    P = rules_vector(load_rules(args.rules))
    cut = frame["deal"].max() * (1 - args.holdout)
    held = frame.filter(pl.col("deal") > cut)
    train = frame.filter(pl.col("deal") <= cut)
    if kind == "outcome":
        X, y, _ = outcome_rows(train, P, args.levels_per, np.random.default_rng(args.seed))
        w = fit(X, y, args.model, args.seed, args.hidden)
        Xh, yh, who = outcome_rows(held, P, 0, None)
        ph = predict(w, Xh)
        gain, se, mean = outcome_gain(held, ph, P)
        print(
            f"{args.model}: {len(train)} decisions fitted ({len(X)} rows), {len(held)} held "
            f"out: Brier {np.mean((ph - yh) ** 2):.4f}, {gain:+.2f} ± {se:.2f} points per "
            f"decision over the player's contract ({held['contract'].mean():.1f}), mean "
            f"contract {mean:.1f}"
        )
    else:
        X, y, _ = rows(train, P)
        w = fit(X, y, args.model, args.seed, args.hidden)
        Xh, yh, who = rows(held, P)
        ph = predict(w, Xh)
        lo, se, same = regret(held, ph, who)
        print(
            f"{args.model}: {len(train)} decisions fitted ({len(X)} rows), {len(held)} held "
            f"out: Brier {np.mean((ph - yh) ** 2):.4f}, regret {lo:.2f} ± {se:.2f} points "
            f"per decision, the sampling player's contract {same:.1%}"
        )
        lo, se, same = heuristic_regret(held, P)
        print(f"heuristic: regret {lo:.2f} ± {se:.2f}, the sampling player's contract {same:.1%}")
    if args.dry_run:
        return
    old = dict(np.load(args.out)) if args.out.exists() else {}
    k = learned.TWO if args.net == "two" else learned.THREE
    hidden = w["w1"].shape[0]
    width = max(hidden, *(old["contract_w1"].shape[1:2] if old else (1,)))
    out = {k: v for k, v in old.items() if not k.startswith("contract_")}  # the bid network
    out |= {
        "contract_fitted": np.zeros(2, dtype=np.int8),
        "contract_w1": np.zeros((2, width, learned.N_CONTRACT_FEATURES)),
        "contract_b1": np.full((2, width), -1.0),  # padding units never fire
        "contract_w2": np.zeros((2, width)),
        "contract_b2": np.zeros(2),
    }
    if old and old["contract_w1"].shape[2] == learned.N_CONTRACT_FEATURES:
        h = old["contract_w1"].shape[1]
        for name in ("contract_fitted", "contract_b2"):
            out[name][:] = old[name]
        out["contract_w1"][:, :h] = old["contract_w1"]
        out["contract_b1"][:, :h] = old["contract_b1"]
        out["contract_w2"][:, :h] = old["contract_w2"]
    out["contract_fitted"][k] = 1
    out["contract_w1"][k] = 0.0
    out["contract_w1"][k, :hidden] = w["w1"]
    out["contract_b1"][k] = -1.0
    out["contract_b1"][k, :hidden] = w["b1"]
    out["contract_w2"][k] = 0.0
    out["contract_w2"][k, :hidden] = w["w2"]
    out["contract_b2"][k] = w["b2"]
    np.savez(args.out, **out)
    print(f"wrote {args.out} (network {args.net}, {hidden} hidden units)")


if __name__ == "__main__":
    main()
