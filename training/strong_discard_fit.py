"""Fit the ``strong`` player's discard on the sampling player's scores; write its weights.

1. **collect**: classic deals played by ``--positions`` at every seat (default
   ``heuristic``, whose bids, talon and first give are ``strong``'s before this fit, so
   the data does not depend on the weights it fits), in chunks of 50 seeded by
   ``--seed`` and the chunk; at every discard
   decision, the sampling player's expected deal score of each of the heuristic's
   cheapest cards (:func:`sim.engine.strategies.pimc.discard_scores`, ``--worlds``
   sampled worlds, default 20), saved under ``--data-dir``;
2. **fit**: least squares of each candidate's score less its decision's mean on its
   features less theirs (:func:`sim.engine.strategies.strong_discard.discard_features`),
   a small ridge; decisions split by deal into fitting and held-out parts (``--holdout``),
   and on the held-out part the points per decision that the fitted choice and the
   heuristic's cheapest card lose to the best-scored candidate (its regret);
3. **write** the weights into ``sim/engine/strategies/strong_weights.py``
   (``DISCARD_WEIGHTS``; the card weights are left as they are), unless ``--dry-run``.

Strength is measured by duels afterwards (``thousand duel --a strong``), on seeds
not used here. The same seeds give the same data and weights.
"""

from __future__ import annotations

import argparse
import pathlib
import re
import time

import numpy as np
from joblib import Parallel, delayed

from sim.engine.actions import Decision
from sim.engine.arena import arena_size
from sim.engine.params import rules_vector
from sim.engine.state import N_STATE, S_DECL, S_HAND0, SNAP_KIND, SNAP_LEN
from sim.engine.strategies.pimc import discard_scores
from sim.engine.strategies.registry import parse_params
from sim.engine.strategies.strong_discard import N_DISCARD_FEATURES, discard_features
from sim.rules import load_rules
from training.snapshots import snapshots

WEIGHTS_FILE = pathlib.Path(__file__).parents[1] / "sim/engine/strategies/strong_weights.py"
CANDIDATES = 5
RIDGE = 1e-3


def _collect_chunk(deals: int, seed: int, positions: str, worlds: int):
    """One seeded chunk: the discard snapshots, their candidates and pimc's scores."""
    rules = load_rules("classic")
    P = rules_vector(rules)
    params = parse_params(["pimc"], [f"pimc.discard_worlds={worlds}"])[0]
    arena = np.zeros(arena_size(18), dtype=np.int64)
    snaps, cands, scores = [], [], []
    c = np.empty(24, dtype=np.int64)
    v = np.empty(24, dtype=np.float64)
    settings = ("strong.bid_net=0",) if positions == "strong" else ()  # bids as dealt then
    for snap in snapshots(rules, deals, seed, (positions,) * 3, settings):
        if int(snap[SNAP_KIND]) != Decision.DISCARD:
            continue
        m = discard_scores(snap[:N_STATE].copy(), P, arena, params, c, v)
        if m < CANDIDATES:
            continue
        snaps.append(snap.copy())
        cands.append(c[:CANDIDATES].copy())
        scores.append(v[:CANDIDATES].copy())
    return (
        np.array(snaps, dtype=np.int64).reshape(-1, SNAP_LEN),
        np.array(cands, dtype=np.int64).reshape(-1, CANDIDATES),
        np.array(scores, dtype=np.float64).reshape(-1, CANDIDATES),
    )


def collect(deals: int, seed: int, positions: str, worlds: int, jobs: int) -> dict:
    """The discard decisions of ``deals`` deals, in chunks of 50 (seeded by chunk)."""
    chunks = [(min(50, deals - k), seed * 100_000 + k // 50) for k in range(0, deals, 50)]
    out = Parallel(n_jobs=jobs)(delayed(_collect_chunk)(n, s, positions, worlds) for n, s in chunks)
    return {
        "snaps": np.concatenate([o[0] for o in out]),
        "cands": np.concatenate([o[1] for o in out]),
        "scores": np.concatenate([o[2] for o in out]),
        "chunk": np.concatenate([np.full(len(o[1]), i) for i, o in enumerate(out)]),
    }


def design(data: dict, P: np.ndarray) -> np.ndarray:
    """``X[d, i]``: the features of decision ``d``'s candidate ``i``."""
    n = len(data["cands"])
    X = np.empty((n, CANDIDATES, N_DISCARD_FEATURES))
    for d in range(n):
        S = data["snaps"][d]
        hand = int(S[S_HAND0 + S[S_DECL]])
        for i in range(CANDIDATES):
            discard_features(hand, int(data["cands"][d, i]), i == 0, P, X[d, i])
    return X


def fit(X: np.ndarray, scores: np.ndarray, ridge: float = RIDGE) -> np.ndarray:
    """Least squares of the centred scores on the centred features (points per unit)."""
    Xc = (X - X.mean(axis=1, keepdims=True)).reshape(-1, X.shape[2])
    yc = (scores - scores.mean(axis=1, keepdims=True)).reshape(-1)
    A = Xc.T @ Xc + ridge * len(yc) * np.eye(X.shape[2])
    return np.linalg.solve(A, Xc.T @ yc)


def regret(X: np.ndarray, scores: np.ndarray, w: np.ndarray) -> tuple[float, float, float]:
    """What the fitted pick loses to the best-scored candidate.

    Returns the points per decision lost, their standard error, and the share of
    decisions where it picks the best.
    """
    pick = np.argmax(X @ w, axis=1)
    got = scores[np.arange(len(scores)), pick]
    loss = scores.max(axis=1) - got
    return (
        float(loss.mean()),
        float(loss.std(ddof=1) / np.sqrt(len(loss))),
        float((loss == 0).mean()),
    )


DISCARD_BLOCK = re.compile(r"# The discard \(columns.*?# fmt: on\n", re.S)  # in the module


def discard_block(w: np.ndarray, note: str) -> str:
    """The ``DISCARD_WEIGHTS`` block of the weights module."""
    values = [f"{x:.4f}" for x in w]
    lines = "".join(f"    {', '.join(values[k : k + 8])},\n" for k in range(0, len(values), 8))
    return (
        "# The discard (columns :data:`sim.engine.strategies.strong_discard."
        "DISCARD_FEATURE_NAMES`):\n"
        f"{note}\n# fmt: off\nDISCARD_WEIGHTS = np.array([\n{lines}])\n# fmt: on\n"
    )


def write(w: np.ndarray, note: str, out: pathlib.Path) -> None:
    """Replace the ``DISCARD_WEIGHTS`` block of the weights module ``out``."""
    text, n = DISCARD_BLOCK.subn(lambda _m: discard_block(w, note), out.read_text())
    if n != 1:
        raise SystemExit(f"{out}: no DISCARD_WEIGHTS block to replace")
    out.write_text(text)
    print(f"wrote {out}")


def main() -> None:
    """Collect the discard decisions, fit the line and write its weights."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=6)
    ap.add_argument("--positions", default="heuristic")
    ap.add_argument("--worlds", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--holdout", type=float, default=0.25)
    ap.add_argument("--data-dir", type=pathlib.Path, default=pathlib.Path("runs/strong_fit"))
    ap.add_argument("--out", type=pathlib.Path, default=WEIGHTS_FILE, help="the weights module")
    ap.add_argument("--dry-run", action="store_true", help="fit and print, write nothing")
    args = ap.parse_args()
    path = args.data_dir / f"discard_{args.positions}_{args.deals}_{args.seed}_{args.worlds}.npz"
    if path.exists():
        data = dict(np.load(path))
    else:
        t0 = time.perf_counter()
        data = collect(args.deals, args.seed, args.positions, args.worlds, args.jobs)
        args.data_dir.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **data)
        print(f"collected {len(data['cands'])} decisions in {time.perf_counter() - t0:.0f} s")
    P = rules_vector(load_rules("classic"))
    X = design(data, P)
    scores = data["scores"]
    chunks = data["chunk"]
    cut = max(1, round((chunks.max() + 1) * (1 - args.holdout)))  # the last chunks are held out
    held = chunks >= cut
    w = fit(X[~held], scores[~held])
    heur = np.zeros(N_DISCARD_FEATURES)
    heur[0] = 1.0
    for name, ww in (("heuristic", heur), ("fitted", w)):
        if held.sum() < 2:
            break
        lo, se, share = regret(X[held], scores[held], ww)
        print(
            f"{name:10s} held-out regret {lo:.2f} ± {se:.2f} points per decision"
            f" ({held.sum()} decisions), best-scored card {share:.1%}"
        )
    print("weights", np.round(w, 3).tolist())
    if not args.dry_run:
        note = (
            f"# least squares on the sampling player's scores of {int((~held).sum())} discard\n"
            f"# decisions (classic, {args.positions} at every seat, {args.deals} deals, seed"
            f" {args.seed},\n# {args.worlds} worlds each): training/strong_discard_fit.py"
        )
        write(w, note, args.out)


if __name__ == "__main__":
    main()
