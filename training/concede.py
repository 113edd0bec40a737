"""Fit the defenders' line the concession weighs; write it into the learned weights.

Conceding is weighed by the declarer's margin (its deal score minus the mean of the
other hands'), as the duels count it (:func:`sim.engine.strategies.learned.
concession_gain`): playing on gives the defenders their card and marriage points,
conceding half the contract each (or 60). What the declarer must guess is the first:

1. **the states**: the contract decision of every dealt deal of ``--deals`` deals of
   ``--data-seed`` played by ``--player`` at every seat (:func:`sim.engine.api.
   played_outcomes`), each deal then played on to its end with no seat conceding;
2. **the label**: the other hands' deal scores together in that deal (with four players
   the dealer who sits out is left out: it scores alike either way);
3. **the fit**: least squares of the label / 100 on
   :func:`sim.engine.strategies.learned.concede_features` (a line: 12 numbers), the last
   ``--holdout`` of the deals held out and its error printed beside the error of the
   mean (the simplest rival);
4. **the chance to make it**: the contract network's share of open-card worlds that
   reach the contract named, recalibrated to whether the played deal made it: a
   logistic fit ``P(made) = sigmoid(a + b logit(share))`` (two numbers), its held-out
   log-loss printed beside the raw share's;
5. **write** the line and the calibration into ``sim/engine/strategies/learned.npz``
   (every other array kept) for the rules' network (three hands, or two), unless
   ``--dry-run``.

The same arguments give the same line. ``make weights`` clears the line first
(``--clear``: every other fit is made with the unfitted concession, which concedes only
where conceding costs nothing and the contract is more likely lost than made), fits it once
the imitating card network is fitted, and again last, on deals played by the final
player.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from sim.engine.api import played_outcomes
from sim.engine.params import rules_vector
from sim.engine.state import N_STATE
from sim.engine.strategies import learned
from sim.rules import load_rules

RIDGE = 1e-6  # keeps the normal equations solvable where a feature never varies


def rows(
    rules_name: str, deals: int, seed: int, player: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(X, y, deal, share, made)``: a row per contract decision.

    ``y``: the defenders' points / 100; ``share``: the contract network's share of worlds
    that reach the contract named; ``made``: 1 where the played deal made it.
    """
    rules = load_rules(rules_name)
    P = rules_vector(rules)
    n = rules.players
    X, y, where, share, made = [], [], [], [], []
    x = np.zeros(learned.N_CONCEDE_FEATURES)
    for deal, snap, trace in played_outcomes(rules, deals, seed, (player,) * n):
        S = snap[:N_STATE].copy()
        learned.concede_features(S, P, x)
        decl, dealer = trace["declarer"], trace["dealer"]
        others = [
            s for s in range(n) if s != decl and not (n == 4 and s == dealer)
        ]  # the defenders: a dealer who sits out scores alike either way
        X.append(x.copy())
        y.append(sum(trace["score_deltas"][s] for s in others) * 0.01)
        where.append(deal)
        share.append(learned.contract_reach(S, P, trace["contract"]))
        made.append(1.0 if trace["made"] else 0.0)
    return tuple(np.array(v) for v in (X, y, where, share, made))  # type: ignore[return-value]


def logit(share: np.ndarray) -> np.ndarray:
    """The log-odds of the shares, clipped as the engine clips them."""
    q = np.clip(share, learned.SHARE_CLIP, 1 - learned.SHARE_CLIP)
    return np.log(q / (1 - q))


def fit_calibration(share: np.ndarray, made: np.ndarray) -> np.ndarray:
    """``(a, b)`` of ``P(made) = sigmoid(a + b logit(share))`` by Newton's method."""
    Z = np.stack([np.ones_like(share), logit(share)], axis=1)
    w = np.array([0.0, 1.0])
    for _ in range(50):
        q = 1 / (1 + np.exp(-Z @ w))
        grad = Z.T @ (q - made)
        hess = (Z * (q * (1 - q))[:, None]).T @ Z + 1e-9 * np.eye(2)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return w


def log_loss(q: np.ndarray, made: np.ndarray) -> float:
    """The mean log-loss of chances ``q`` (clipped) for outcomes ``made``."""
    q = np.clip(q, 1e-6, 1 - 1e-6)
    return float(-np.mean(made * np.log(q) + (1 - made) * np.log(1 - q)))


def fit_line(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The least-squares line (a tiny ridge: :data:`RIDGE`)."""
    A = X.T @ X + RIDGE * np.eye(X.shape[1])
    return np.linalg.solve(A, X.T @ y)


def write(path: Path, w: np.ndarray, cal: np.ndarray, net: int) -> None:
    """Put the line and calibration of network ``net`` into the weights file, the rest kept."""
    old = dict(np.load(path)) if path.exists() else {}
    fitted = np.zeros(2, dtype=np.int8)
    lines = np.zeros((2, learned.N_CONCEDE_FEATURES))
    cals = np.array([[0.0, 1.0], [0.0, 1.0]])
    if "concede_cal" in old and old["concede_w"].shape == lines.shape:
        fitted[:], lines[:], cals[:] = old["concede_fitted"], old["concede_w"], old["concede_cal"]
    fitted[net] = 1
    lines[net] = w
    cals[net] = cal
    old.update(concede_fitted=fitted, concede_w=lines, concede_cal=cals)
    np.savez(path, **old)


def main(argv: list[str] | None = None) -> None:
    """Label, fit and write the defenders' line (the module's steps)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--deals", type=int, default=100_000, help="deals played out")
    ap.add_argument("--data-seed", type=int, default=1009)
    ap.add_argument("--player", default="strong", help="who bids and plays the deals")
    ap.add_argument("--holdout", type=float, default=0.2)
    ap.add_argument("--out", type=Path, default=learned.WEIGHTS_FILE)
    ap.add_argument("--dry-run", action="store_true", help="fit and print, write nothing")
    ap.add_argument("--rows", type=Path, help="an .npz of the labelled rows: read, or made")
    ap.add_argument(
        "--clear",
        action="store_true",
        help="take the concession's arrays out of the weights file and stop (make weights "
        "fits everything else with the unfitted concession)",
    )
    args = ap.parse_args(argv)
    if args.clear:
        if args.out.exists():
            kept = {k: v for k, v in np.load(args.out).items() if not k.startswith("concede_")}
            np.savez(args.out, **kept)
        print(f"cleared the concession's arrays from {args.out}")
        return
    if args.rows is not None and args.rows.exists():
        with np.load(args.rows) as saved:
            X, y, deal, share, made = (saved[k] for k in ("X", "y", "deal", "share", "made"))
    else:
        X, y, deal, share, made = rows(args.rules, args.deals, args.data_seed, args.player)
        if args.rows is not None:
            np.savez(args.rows, X=X, y=y, deal=deal, share=share, made=made)
    held = deal >= np.quantile(deal, 1 - args.holdout)
    w = fit_line(X[~held], y[~held])
    err = (X[held] @ w - y[held]) * 100
    base = (y[~held].mean() - y[held]) * 100
    rms, spread = np.sqrt(np.mean(err**2)), np.sqrt(np.mean(base**2))
    print(
        f"line: {(~held).sum()} deals fitted, {held.sum()} held out: error {rms:.2f} points "
        f"(rms; the mean's {spread:.2f}), bias {err.mean():+.2f}; mean defenders' points "
        f"{y.mean() * 100:.1f}"
    )
    for name, v in zip(learned.CONCEDE_FEATURE_NAMES, w, strict=True):
        print(f"  {name:18s} {v * 100:+8.2f}")
    cal = fit_calibration(share[~held], made[~held])
    q = 1 / (1 + np.exp(-(cal[0] + cal[1] * logit(share[held]))))
    print(
        f"chance to make: a {cal[0]:+.3f}, b {cal[1]:.3f}; "
        f"held-out log-loss {log_loss(q, made[held]):.4f} "
        f"(the raw share's {log_loss(share[held], made[held]):.4f}, the made rate's "
        f"{log_loss(np.full(held.sum(), made[~held].mean()), made[held]):.4f})"
    )
    if not args.dry_run:
        net = learned.network_of(rules_vector(load_rules(args.rules)))
        write(args.out, w, cal, net)
        print(f"wrote {args.out} (the defenders' line, network {net})")


if __name__ == "__main__":
    main()
