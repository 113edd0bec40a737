"""Measure the heuristic's hand model and print its weights (sim.engine.strategies.hand_model).

Every dealt hand of ``--deals`` random deals is played as the declarer's (the
``thousand safebids`` items: forced auction, talon, the player's own discard and
play, ``heuristic`` at every seat). The deal total is then fitted by least squares
on the hand features (:func:`hand_features`) twice: of the dealt hand (the model the
bids read) and of the hand kept after the discard (contract and concession). The
spread is fitted as ``sigma = a + b * mu`` on the absolute residuals (times
``sqrt(pi / 2)``, which turns a mean absolute deviation into a normal sigma).

The card play reads neither model, so the totals do not depend on the weights being
fitted and one pass is enough. The script prints the ``WEIGHTS`` and ``SPREAD`` rows
to paste into the module, the fit's R², and how well the normal model's P(total >= L)
matches the measured rates on a second seed (by level, the mean absolute error).

    python training/heuristic_fit.py --deals 100000 --seed 11   # the weights in the module
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sim.engine.params import rules_vector
from sim.engine.strategies.hand_model import (
    FEATURE_NAMES,
    N_FEATURES,
    hand_features,
)
from sim.rules import load_rules
from sim.runs.declarer import run_items


@njit(cache=True)
def features_of(hands: np.ndarray, P: np.ndarray) -> np.ndarray:
    """The feature matrix of an array of hand masks."""
    X = np.zeros((hands.shape[0], N_FEATURES))
    for i in range(hands.shape[0]):
        f = hand_features(hands[i], P)
        for k in range(N_FEATURES):
            X[i, k] = f[k]
    return X


def fit(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Least-squares weights, the spread line ``(a, b)`` and R²."""
    w, *_ = np.linalg.lstsq(X, y, rcond=None)
    mu = X @ w
    r2 = 1 - np.var(y - mu) / np.var(y)
    A = np.column_stack([np.ones_like(mu), mu])
    ab, *_ = np.linalg.lstsq(A, np.abs(y - mu) * np.sqrt(np.pi / 2), rcond=None)
    return w, ab, float(r2)


def check(X: np.ndarray, y: np.ndarray, w: np.ndarray, ab: np.ndarray) -> float:
    """Mean absolute gap between the model's and the measured P(total >= L), L = 100..200."""
    from math import erfc, sqrt

    mu = X @ w
    sigma = np.maximum(5.0, ab[0] + ab[1] * mu)
    gaps = []
    for level in range(100, 205, 5):
        model = np.array(
            [0.5 * erfc((level - 0.5 - m) / (s * sqrt(2))) for m, s in zip(mu, sigma, strict=True)]
        )
        # compare in bins of the model's probability
        bins = np.clip((model * 10).astype(int), 0, 9)
        for b in range(10):
            sel = bins == b
            if sel.sum() >= 200:
                gaps.append(abs(model[sel].mean() - (y[sel] >= level).mean()))
    return float(np.mean(gaps))


def main() -> None:
    """Fit the hand model on the dealt hands played as the declarer's; print its weights."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    for preset in ("classic", "two_players"):
        rules = load_rules(preset)
        P = rules_vector(rules)
        rows = {}
        for which, seed in (("fit", args.seed), ("check", args.seed + 1)):
            cols = run_items(rules, "heuristic", args.deals, seed, workers=args.workers)
            rows[which] = cols
        print(f"# {preset}: {len(rows['fit']['total'])} hands")
        for name, col in (("dealt", "dealt"), ("kept", "kept")):
            X = features_of(rows["fit"][col].astype(np.int64), P)
            y = rows["fit"]["total"].astype(np.float64)
            w, ab, r2 = fit(X, y)
            Xc = features_of(rows["check"][col].astype(np.int64), P)
            yc = rows["check"]["total"].astype(np.float64)
            gap = check(Xc, yc, w, ab)
            print(
                f"# {name}: R2 {r2:.3f}, spread a {ab[0]:.2f} b {ab[1]:.3f}, held-out gap {gap:.4f}"
            )
            print("  [" + ", ".join(f"{v:.3f}" for v in w) + "],")
            for n, v in zip(FEATURE_NAMES, w, strict=True):
                print(f"#   {n:30s} {v:8.3f}")
            print(f"  SPREAD [{ab[0]:.3f}, {ab[1]:.4f}]")


if __name__ == "__main__":
    main()
