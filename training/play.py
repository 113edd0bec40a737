"""Fit ``strong``'s card play on the teacher's labels of every legal card.

The teacher (``thousand teach --kinds play``) counts, for every legal card at a card
decision, the sampled worlds where the declarer still reaches the contract after it
(cards face up). Here each card's features (:func:`sim.engine.strategies.strong.card_features`,
its seat's view only) are fitted to that share, less the decision's mean (only the
differences between the cards decide), by least squares, one weight row per role and
position (the declarer leading, following; a defender leading, following): the
declarer plays the card of the highest fitted share, a defender the lowest.

On the held-out last ``--holdout`` of the deals, the share of worlds each way of
choosing loses to the best card (the declarer's highest made count, a defender's
lowest), per decision: the fit, ``strong``'s weights as shipped, and the heuristic.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import polars as pl

from sim.engine.params import rules_vector
from sim.engine.state import S_DECL, S_NPLAYED
from sim.engine.strategies.heuristic import heuristic_play
from sim.engine.strategies.strong import N_CARD_FEATURES, card_features, strong_play
from sim.rules import load_rules

ROWS = ("declarer leading", "declarer following", "defender leading", "defender following")


def design(frame: pl.DataFrame, P: np.ndarray) -> dict[str, list]:
    """Per decision: its row, features per card, shares, and the shipped and heuristic picks."""
    out: dict[str, list] = {"row": [], "X": [], "y": [], "strong": [], "heuristic": [], "deal": []}
    cols = frame.select("deal", "state", "seat", "codes", "made", "worlds")
    for deal, state, seat, codes, made, worlds in cols.iter_rows():
        S = np.array(state, dtype=np.int64)
        plain = sum(1 << c for c in codes if c < 24)
        declaring = sum(1 << (c - 24) for c in codes if c >= 24)
        h = int(heuristic_play(seat, S, P, plain, declaring))
        s = int(strong_play(seat, S.copy(), P, plain, declaring))
        X = np.array([card_features(seat, S, P, c, h) for c in codes])
        decl = seat == S[S_DECL]
        out["row"].append((0 if decl else 2) + (0 if S[S_NPLAYED] == 0 else 1))
        out["X"].append(X)
        out["y"].append(np.array(made) / worlds)
        out["strong"].append(codes.index(s))
        out["heuristic"].append(codes.index(h))
        out["deal"].append(deal)
    return out


def fit(d: dict[str, list], keep: np.ndarray, ridge: float) -> np.ndarray:
    """Least squares per row of the centred shares on the centred features."""
    W = np.zeros((4, N_CARD_FEATURES))
    for r in range(4):
        Xs, ys = [], []
        for i in np.flatnonzero(keep):
            if d["row"][i] != r or len(d["y"][i]) < 2:
                continue
            X, y = d["X"][i], d["y"][i]
            Xs.append(X - X.mean(axis=0))
            ys.append(y - y.mean())
        A = np.concatenate(Xs)
        b = np.concatenate(ys)
        W[r] = np.linalg.solve(A.T @ A + ridge * len(b) * np.eye(A.shape[1]), A.T @ b)
    return W


def losses(d: dict[str, list], keep: np.ndarray, pick) -> np.ndarray:
    """Per kept decision: the share of worlds ``pick(i)`` loses to the best card (by row)."""
    out = np.zeros((len(keep), 2))
    for i in np.flatnonzero(keep):
        y = d["y"][i]
        declarer = d["row"][i] < 2
        best = y.max() if declarer else y.min()
        k = pick(i)
        out[i] = (d["row"][i], best - y[k] if declarer else y[k] - best)
    return out[keep]


def main() -> None:
    """Fit, report the held-out losses, write nothing yet (the weights are chosen by duels)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("runs/teach/play"))
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--holdout", type=float, default=0.2)
    ap.add_argument("--ridge", type=float, default=1e-4)
    ap.add_argument("--limit", type=int, default=0, help="the first N decisions only")
    ap.add_argument("--save", type=Path, default=None, help="write the fitted rows (.npy)")
    args = ap.parse_args()
    frame = pl.read_parquet(args.data / "play.parquet")
    if args.limit:
        frame = frame.head(args.limit)
    P = rules_vector(load_rules(args.rules))
    d = design(frame, P)
    deal = np.array(d["deal"])
    held = deal > deal.max() * (1 - args.holdout)
    W = fit(d, ~held, args.ridge)

    def fitted(i: int) -> int:
        s = d["X"][i] @ W[d["row"][i]]
        return int(np.argmax(s) if d["row"][i] < 2 else np.argmin(s))

    for name, pick in (
        ("fit", fitted),
        ("strong", lambda i: d["strong"][i]),
        ("heuristic", lambda i: d["heuristic"][i]),
    ):
        lo = losses(d, held, pick)
        parts = [f"{ROWS[r]} {100 * lo[lo[:, 0] == r, 1].mean():.2f}" for r in range(4)]
        print(f"{name:<10} held-out loss, worlds per 100 decisions: all "
              f"{100 * lo[:, 1].mean():.2f}; " + ", ".join(parts))  # fmt: skip
    if args.save:
        np.save(args.save, W)
        print("rows", np.round(W, 3).tolist())


if __name__ == "__main__":
    main()
