"""Fit ``strong``'s card play on the search's value of every card; write its network's rows.

The first card network imitated ``pimc``'s chosen card (``training/strong_fit.py``).
Here every legal card is valued instead, as the search values it, and the player learns
which cards are worth most:

1. **the labels**: ``thousand teach --kinds play`` (``--data``): at every card decision of
   deals played by ``strong`` at every seat, for each legal card (or declaring lead), in
   how many of the worlds ``pimc`` samples there (its information set: the auction, the
   cards shown or given, the voids, the marriages declared, the cards played) the
   declarer still reaches the contract with every card face up and best play after it.
   A card's value is that share for the declarer, one minus it for a defender;
2. **the rows**: the decisions where the cards' values differ (where they are all
   alike, the contract is made or set whatever is played, and the search says nothing),
   by weight row of :func:`sim.engine.strategies.strong.card_row` (the declarer or a
   defender, leading or following), each card's features
   (:func:`~sim.engine.strategies.strong.card_features`);
3. **the fit**: per row of ``--rows``, a network of ``--hidden`` ReLUs scoring each
   card, a softmax over the legal cards, and the cross-entropy against the cards of the
   best value (shared equally among them); Adam, seeded, a tenth kept apart to stop;
   the last ``--holdout`` of the deals held out. Printed per row: held out, how often
   the fit's card is of the best value, and the value lost per decision, beside
   ``strong``'s card as shipped and the heuristic's; and on the first ``--pimc``
   held-out decisions how often each agrees with ``pimc``'s own card;
4. **write** the rows fitted into ``sim/engine/strategies/strong.npz`` (the other rows
   kept), unless ``--dry-run``.

With three hands (classic and the three-hand presets; four players play three hands)
the rows are the file's ``w1``, ``b1``, ``w2``; with two (``--rules two_players``) the
two-hand network's ``w1_two``, ``b1_two``, ``w2_two``, which the player plays with two
hands where fitted. The same data and arguments give the same weights.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import polars as pl
from numba import njit

from sim.engine.actions import DECLARE
from sim.engine.arena import arena_size
from sim.engine.params import P_NP, rules_vector
from sim.engine.state import N_STATE
from sim.engine.strategies.heuristic import heuristic_play
from sim.engine.strategies.pimc import pimc_play
from sim.engine.strategies.registry import parse_params
from sim.engine.strategies.strong import (
    N_CARD_FEATURES,
    NET_FILE,
    card_features,
    card_row,
    strong_play,
)
from sim.rules import load_rules
from training.adam import adam

ROW_NAMES = ("declarer lead", "declarer follow", "defender lead", "defender follow")
HIDDEN = 16


@njit(cache=False)  # not cached: an edit of the features it inlines must be seen
def _design(states, seats, offsets, codes, P, X, row, heur, shipped):
    """Every card's features, each decision's row, the heuristic's and ``strong``'s card."""
    for i in range(states.shape[0]):
        S = states[i].copy()
        seat = seats[i]
        plain = np.int64(0)
        declaring = np.int64(0)
        for k in range(offsets[i], offsets[i + 1]):
            c = codes[k]
            if c >= DECLARE:
                declaring |= np.int64(1) << (c - DECLARE)
            else:
                plain |= np.int64(1) << c
        h = heuristic_play(seat, S, P, plain, declaring)
        shipped[i] = strong_play(seat, S, P, plain, declaring)
        heur[i] = h
        row[i] = card_row(seat, S)
        for k in range(offsets[i], offsets[i + 1]):
            f = card_features(seat, S, P, codes[k], h)
            for j in range(N_CARD_FEATURES):
                X[k, j] = f[j]


def read(folders: list[Path]) -> dict[str, np.ndarray]:
    """The informative card decisions of the teacher's ``play.parquet`` files."""
    frames = []
    offset = 0
    for folder in folders:
        f = pl.read_parquet(folder / "play.parquet")
        frames.append(f.with_columns(pl.col("deal") + offset))
        offset += int(f["deal"].max()) + 1
    f = pl.concat(frames)
    made = f["made"].to_list()
    keep = np.array([min(m) != max(m) for m in made])
    f = f.filter(pl.Series(keep))
    lens = f["codes"].list.len().to_numpy()
    worlds = f["worlds"].to_numpy()
    decl = f["declarer"].to_numpy()
    made_flat = f["made"].explode().to_numpy().astype(np.float64)
    share = made_flat / np.repeat(worlds, lens)
    value = np.where(np.repeat(decl, lens), share, 1.0 - share)
    return {
        "states": np.array(f["state"].to_list(), dtype=np.int64)[:, :N_STATE],
        "seats": f["seat"].to_numpy().astype(np.int64),
        "deal": f["deal"].to_numpy(),
        "offsets": np.concatenate([[0], np.cumsum(lens)]).astype(np.int64),
        "codes": f["codes"].explode().to_numpy().astype(np.int64),
        "value": value,
    }


def design(data: dict[str, np.ndarray], P: np.ndarray) -> dict[str, np.ndarray]:
    """The features of every card and the per-decision columns (:func:`_design`)."""
    n = len(data["seats"])
    X = np.zeros((len(data["codes"]), N_CARD_FEATURES))
    row = np.zeros(n, dtype=np.int64)
    heur = np.zeros(n, dtype=np.int64)
    shipped = np.zeros(n, dtype=np.int64)
    _design(data["states"], data["seats"], data["offsets"], data["codes"], P, X, row, heur, shipped)
    return {"X": X, "row": row, "heur": heur, "shipped": shipped}


class Decisions:
    """The cards of a set of decisions, laid out for the softmax over each one's cards."""

    def __init__(self, X, value, offsets, codes, heur, pick):
        lens = np.diff(offsets)
        self.X = X
        self.lens = lens
        self.starts = offsets[:-1]
        self.group = np.repeat(np.arange(len(lens)), lens)
        best = np.maximum.reduceat(value, self.starts)
        top = value >= np.repeat(best, lens) - 1e-12
        self.target = top / np.repeat(np.add.reduceat(top.astype(float), self.starts), lens)
        self.value = value
        self.best = best
        self.codes = codes
        self.heur = heur
        self.pick = pick  # another player's card per decision (strong as shipped), or None

    def subset(self, idx: np.ndarray) -> Decisions:
        """The decisions ``idx`` (ascending)."""
        lens = self.lens[idx]
        offsets = np.concatenate([[0], np.cumsum(lens)])
        cards = np.repeat(self.starts[idx] - offsets[:-1], lens) + np.arange(offsets[-1])
        return Decisions(
            self.X[cards], self.value[cards], offsets, self.codes[cards], self.heur[idx],
            None if self.pick is None else self.pick[idx],
        )  # fmt: skip


def _scores(net: dict[str, np.ndarray], X: np.ndarray) -> np.ndarray:
    return np.maximum(X @ net["w1"].T + net["b1"], 0.0) @ net["w2"]


def fit_net(d: Decisions, hidden: int, seed: int, epochs: int = 30) -> dict[str, np.ndarray]:
    """One hidden layer scoring each card; softmax cross-entropy to the best cards (Adam)."""
    rng = np.random.default_rng(seed)
    F = d.X.shape[1]
    params = [
        rng.normal(0.0, np.sqrt(2.0 / F), (hidden, F)),
        np.zeros(hidden),
        rng.normal(0.0, np.sqrt(1.0 / hidden), hidden),
    ]
    n = len(d.lens)
    order = rng.permutation(n)
    cut = max(n // 10, 1)
    apart, fitted = np.sort(order[:cut]), order[cut:]

    def loss(ds: np.ndarray, grad: bool):
        ds = np.sort(ds)
        lens = d.lens[ds]
        offs = np.concatenate([[0], np.cumsum(lens)[:-1]])
        idx = np.repeat(d.starts[ds] - offs, lens) + np.arange(lens.sum())
        Z, t = d.X[idx], d.target[idx]
        W1, b1, w2 = params
        A = Z @ W1.T + b1
        z = np.maximum(A, 0.0) @ w2
        g = np.repeat(np.arange(len(ds)), lens)
        e = np.exp(z - np.maximum.reduceat(z, offs)[g])
        p = e / np.add.reduceat(e, offs)[g]
        value = float(-np.sum(t * np.log(p + 1e-12)) / len(ds))
        if not grad:
            return value, []
        dz = (p - t) / len(ds)
        dA = np.outer(dz, w2) * (A > 0)
        return value, [dA.T @ Z, dA.sum(axis=0), np.maximum(A, 0.0).T @ dz]

    kept = adam(params, loss, fitted, apart, rng, epochs, patience=3)
    return {"w1": kept[0], "b1": kept[1], "w2": kept[2]}


def picks(d: Decisions, net: dict[str, np.ndarray]) -> np.ndarray:
    """The network's card per decision (ties: the heuristic's, as the player breaks them)."""
    if len(d.lens) == 0:
        return np.zeros(0, dtype=np.int64)
    s = _scores(net, d.X) + 1e-9 * (d.codes == np.repeat(d.heur, d.lens))
    top = np.maximum.reduceat(s, d.starts)
    first = np.flatnonzero(s >= np.repeat(top, d.lens) - 1e-15)
    g = d.group[first]
    keep = np.concatenate([[True], g[1:] != g[:-1]])
    return d.codes[first[keep]]


def quality(d: Decisions, chosen: np.ndarray) -> tuple[float, float]:
    """How often ``chosen`` is of the best value, and the value lost per decision."""
    if len(d.lens) == 0:
        return float("nan"), float("nan")
    at = np.repeat(chosen, d.lens) == d.codes
    got = np.add.reduceat(np.where(at, d.value, 0.0), d.starts)
    return float(np.mean(got >= d.best - 1e-12)), float(np.mean(d.best - got))


def pimc_cards(data: dict[str, np.ndarray], idx: np.ndarray, P: np.ndarray) -> np.ndarray:
    """``pimc``'s own card (its defaults) at the decisions ``idx``."""
    params = parse_params(["pimc"], [])[0]
    arena = np.zeros(arena_size(18), dtype=np.int64)
    out = np.zeros(len(idx), dtype=np.int64)
    for j, i in enumerate(idx):
        codes = data["codes"][data["offsets"][i] : data["offsets"][i + 1]]
        plain = sum(1 << int(c) for c in codes if c < DECLARE)
        declaring = sum(1 << int(c - DECLARE) for c in codes if c >= DECLARE)
        S = data["states"][i].copy()
        out[j] = pimc_play(int(data["seats"][i]), S, P, plain, declaring, arena, params)
    return out


def write(
    path: Path, nets: dict[int, dict[str, np.ndarray]], hidden: int, suffix: str = ""
) -> None:
    """The rows ``nets`` into the card network's file, every other row kept (padded).

    ``suffix``: ``""`` for the three-hand network, ``"_two"`` for the two-hand one (a
    network not in the file yet starts with no row fitted).
    """
    data = dict(np.load(path)) if path.exists() else {}
    if f"w1{suffix}" in data:
        w1, b1, w2, bonus = (data[f"{k}{suffix}"] for k in ("w1", "b1", "w2", "bonus"))
    else:
        w1, b1, w2 = np.zeros((4, 1, N_CARD_FEATURES)), np.full((4, 1), -1.0), np.zeros((4, 1))
        bonus = np.zeros(4)
    width = max(hidden, w1.shape[1])
    W1 = np.zeros((4, width, N_CARD_FEATURES))
    B1 = np.full((4, width), -1.0)  # padding units never fire
    W2 = np.zeros((4, width))
    W1[:, : w1.shape[1]], B1[:, : w1.shape[1]], W2[:, : w1.shape[1]] = w1, b1, w2
    bonus = bonus.copy()
    for r, net in nets.items():
        W1[r], B1[r], W2[r] = 0.0, -1.0, 0.0
        W1[r, :hidden], B1[r, :hidden], W2[r, :hidden] = net["w1"], net["b1"], net["w2"]
        bonus[r] = 0.0
    data.update({f"w1{suffix}": W1, f"b1{suffix}": B1, f"w2{suffix}": W2, f"bonus{suffix}": bonus})
    np.savez(path, **data)


def main(argv: list[str] | None = None) -> None:
    """Read, fit, report and write the card rows (the module's steps)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, nargs="+", required=True, help="teach folders")
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--rows", default="2,3", help="the weight rows fitted (0-3)")
    ap.add_argument("--hidden", type=int, default=HIDDEN)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--holdout", type=float, default=0.2)
    ap.add_argument("--pimc", type=int, default=2000, help="held-out decisions pimc decides")
    ap.add_argument("--out", type=Path, default=NET_FILE)
    ap.add_argument("--dry-run", action="store_true", help="fit and print, write nothing")
    args = ap.parse_args(argv)
    P = rules_vector(load_rules(args.rules))
    suffix = "" if P[P_NP] == 3 else "_two"  # the three-hand network, or the two-hand one
    data = read(args.data)
    cols = design(data, P)
    deal = data["deal"]
    held_deal = deal >= np.quantile(deal, 1 - args.holdout)
    every = Decisions(cols["X"], data["value"], data["offsets"], data["codes"], cols["heur"],
                      cols["shipped"])  # fmt: skip
    print(f"{len(deal)} decisions where the cards' values differ")
    nets = {}
    for r in (int(x) for x in args.rows.split(",")):
        train = np.flatnonzero((cols["row"] == r) & ~held_deal)
        held = np.flatnonzero((cols["row"] == r) & held_deal)
        d_train, d_held = every.subset(train), every.subset(held)
        net = fit_net(d_train, args.hidden, args.seed + r)
        mine = picks(d_held, net)
        rows = {
            "fit": quality(d_held, mine),
            "strong": quality(d_held, d_held.pick),
            "heuristic": quality(d_held, d_held.heur),
        }
        words = ", ".join(
            f"{k} {b:.3f} best, {lost * 100:.2f} lost" for k, (b, lost) in rows.items()
        )
        print(f"{ROW_NAMES[r]:<16} {len(train)} fitted, {len(held)} held out: {words}")
        if args.pimc > 0 and len(held) and P[P_NP] == 3:
            some = held[: args.pimc]
            ref = pimc_cards(data, some, P)
            k = len(some)
            agree = {
                "fit": np.mean(mine[:k] == ref),
                "strong": np.mean(d_held.pick[:k] == ref),
                "heuristic": np.mean(d_held.heur[:k] == ref),
            }
            print(
                "   agrees with pimc on",
                k,
                ":",
                ", ".join(f"{a} {v:.3f}" for a, v in agree.items()),
            )
        nets[r] = fit_net(
            every.subset(np.flatnonzero(cols["row"] == r)), args.hidden, args.seed + r
        )
    if not args.dry_run:
        write(args.out, nets, args.hidden, suffix)
        print(f"wrote {args.out} (rows {args.rows}, {args.hidden} hidden units)")


if __name__ == "__main__":
    main()
