"""Fit the learned bid on the contract network's values of every talon; write the weights.

A bid is worth what winning the auction there is worth. The contract network
(:mod:`sim.engine.strategies.learned`, fitted on the sampling player's search) values a
declarer's kept hand at every contract; what a bidding seat lacks is the talon. So:

1. **the states**: every bid decision of ``--deals`` classic deals of ``--data-seed``
   played by ``--player`` at every seat (``sim.engine.decision_snapshots``; ``strong``
   bidding as the heuristic, ``strong.bid_net=0``, so that the data never depends on
   the network it fits);
2. **the labels**: for each, every talon the seat may find among the cards it cannot
   see (680 with three hands), its two cheapest cards given away
   (:func:`sim.engine.strategies.discard.next_cheapest`), and the contract network's best
   expected deal score ``c (2 p - 1)`` over the contracts it may name having won at each
   level (the level itself where its kept hand may not raise); the label of a level is
   the mean over the talons: no search, every talon counted, so no sampling noise;
3. **the fit**: scikit-learn's ``MLPRegressor`` (one hidden layer of ReLUs, squared
   error on the value / 100) on the features of
   :func:`sim.engine.strategies.learned.bid_features` and the level, inputs
   standardised, seeded; the last ``--holdout`` of the deals held out, its error printed
   beside the error of the hand's mean value (the simplest rival);
4. **write** the network into ``sim/engine/strategies/learned.npz`` (the contract
   networks kept), unless ``--dry-run``.

``strong`` then raises where the value at the lowest raise reaches its ``bid_value``
(chosen by duels: ``thousand duel --a strong --a-param strong.bid_value=V``). The same
arguments give the same weights.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from numba import njit

from sim.engine import decision_snapshots
from sim.engine.actions import Decision
from sim.engine.bidding import bid_cap
from sim.engine.params import P_NP, P_STEP, rules_vector
from sim.engine.state import (
    N_STATE,
    S_DECL,
    S_GIVE1,
    S_GIVE2,
    S_HAND0,
    S_WIN_BID,
    SNAP_LEGAL,
    SNAP_N,
    SNAP_SEAT,
)
from sim.engine.strategies import learned
from sim.engine.strategies.discard import next_cheapest
from sim.rules import load_rules
from training.contract import fit

LEVELS = 8  # the levels labelled per decision, from the lowest raise up
HIDDEN = 64


@njit(cache=False)
def talon_values(S: np.ndarray, P: np.ndarray, seat: int, lo: int, out: np.ndarray) -> None:
    """``out[k]``: the mean over every talon of the best value having won at ``lo + k step``.

    Each talon's hand gives away its two cheapest cards one after the other; the state
    is changed while a talon is weighed and put back.
    """
    step = P[P_STEP]
    levels = out.shape[0]
    hand = S[S_HAND0 + seat]
    unseen = np.empty(24, dtype=np.int64)
    u = 0
    for c in range(24):
        if not (hand >> c) & 1:
            unseen[u] = c
            u += 1
    saved = (S[S_DECL], S[S_GIVE1], S[S_GIVE2], S[S_WIN_BID])
    for k in range(levels):
        out[k] = 0.0
    talons = 0
    S[S_DECL] = seat
    for i in range(u):
        for j in range(i + 1, u):
            for t in range(j + 1, u):
                full = hand | (1 << unseen[i]) | (1 << unseen[j]) | (1 << unseen[t])
                g1 = next_cheapest(full, -1, -1, P)[1]
                nine = full & ~(1 << g1)
                g2 = next_cheapest(nine, -1, -1, P)[1]
                kept = nine & ~(1 << g2)
                S[S_HAND0 + seat] = kept
                S[S_GIVE1] = g1
                S[S_GIVE2] = g2
                cap = bid_cap(kept, P)
                for k in range(levels):
                    level = lo + k * step
                    count = 1 + max((cap - level) // step, 0)
                    out[k] += learned.best_contract_value(S, P, level, count)
                talons += 1
    for k in range(levels):
        out[k] /= talons
    S[S_HAND0 + seat] = hand
    S[S_DECL], S[S_GIVE1], S[S_GIVE2], S[S_WIN_BID] = saved


def rows(
    rules_name: str, deals: int, seed: int, player: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(X, y, deal)``: a row per bid decision and legal level (at most :data:`LEVELS`)."""
    rules = load_rules(rules_name)
    P = rules_vector(rules)
    if P[P_NP] == 2:
        raise SystemExit("the bid network is fitted with three hands (three or four players)")
    X, y, where = [], [], []
    x = np.zeros(learned.N_BID_FEATURES)
    out = np.zeros(LEVELS)
    players = (player,) * rules.players
    # the states do not depend on the bid network being fitted: strong bids as the
    # heuristic while its data is made
    params = ["strong.bid_net=0"] if player == "strong" else []
    for deal, snap in decision_snapshots(
        rules, deals, seed, players, (Decision.BID,), params=params
    ):
        S = snap[:N_STATE].copy()
        seat, n = int(snap[SNAP_SEAT]), int(snap[SNAP_N])
        legal = snap[SNAP_LEGAL : SNAP_LEGAL + n]
        levels = [int(v) for v in legal if v > 0]  # the raises (0 or less: pass)
        if not levels:
            continue
        talon_values(S, P, seat, levels[0], out)
        learned.bid_features(seat, S, P, x)
        for k, level in enumerate(levels[:LEVELS]):
            x[learned.LEVEL] = level * 0.01
            X.append(x.copy())
            y.append(out[k] * 0.01)
            where.append(deal)
    return np.array(X), np.array(y), np.array(where)


def predict(w: dict[str, np.ndarray], X: np.ndarray) -> np.ndarray:
    """The network's value / 100 for rows ``X``, as the engine computes it."""
    return np.asarray(np.maximum(X @ w["w1"].T + w["b1"], 0.0) @ w["w2"] + w["b2"])


def write(path: Path, w: dict[str, np.ndarray], net: int) -> None:
    """Put the bid network ``net`` into the weights file, every other array kept."""
    old = dict(np.load(path)) if path.exists() else {}
    hidden = w["w1"].shape[0]
    out = {k: v for k, v in old.items() if not k.startswith("bid_")}
    fitted = np.zeros(2, dtype=np.int8)
    w1 = np.zeros((2, hidden, learned.N_BID_FEATURES))
    b1 = np.full((2, hidden), -1.0)
    w2 = np.zeros((2, hidden))
    b2 = np.zeros(2)
    if "bid_w1" in old and old["bid_w1"].shape[1:] == w1.shape[1:]:
        fitted[:], w1[:], b1[:], w2[:], b2[:] = (
            old["bid_fitted"], old["bid_w1"], old["bid_b1"], old["bid_w2"], old["bid_b2"]
        )  # fmt: skip
    fitted[net] = 1
    w1[net], b1[net], w2[net], b2[net] = w["w1"], w["b1"], w["w2"], w["b2"]
    out.update(bid_fitted=fitted, bid_w1=w1, bid_b1=b1, bid_w2=w2, bid_b2=b2)
    np.savez(path, **out)


def main(argv: list[str] | None = None) -> None:
    """Label, fit and write the bid network (the module's steps)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--deals", type=int, default=20_000, help="deals whose bids are labelled")
    ap.add_argument("--data-seed", type=int, default=1007)
    ap.add_argument("--player", default="strong", help="who bids and plays the deals")
    ap.add_argument("--seed", type=int, default=1, help="the fit's seed")
    ap.add_argument("--hidden", type=int, default=HIDDEN)
    ap.add_argument("--holdout", type=float, default=0.2)
    ap.add_argument("--out", type=Path, default=learned.WEIGHTS_FILE)
    ap.add_argument("--dry-run", action="store_true", help="fit and print, write nothing")
    ap.add_argument("--rows", type=Path, help="an .npz of the labelled rows: read, or made")
    args = ap.parse_args(argv)
    if args.rows is not None and args.rows.exists():
        with np.load(args.rows) as saved:
            X, y, deal = saved["X"], saved["y"], saved["deal"]
    else:
        X, y, deal = rows(args.rules, args.deals, args.data_seed, args.player)
        if args.rows is not None:
            np.savez(args.rows, X=X, y=y, deal=deal)
    held = deal >= np.quantile(deal, 1 - args.holdout)
    w = fit(X[~held], y[~held], "net", args.seed, args.hidden)
    err = (predict(w, X[held]) - y[held]) * 100
    base = (y[~held].mean() - y[held]) * 100
    rms, spread = np.sqrt(np.mean(err**2)), np.sqrt(np.mean(base**2))
    print(
        f"net: {(~held).sum()} rows fitted, {held.sum()} held out: error {rms:.2f} points "
        f"(rms; the mean value's {spread:.2f}), bias {err.mean():+.2f}"
    )
    if not args.dry_run:
        net = learned.network_of(rules_vector(load_rules(args.rules)))
        write(args.out, w, net)
        print(f"wrote {args.out} (bid network, {args.hidden} hidden units)")


if __name__ == "__main__":
    main()
