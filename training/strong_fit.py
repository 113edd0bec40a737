"""Fit the ``strong`` player's card play on the sampling player's choices; write its weights.

``--rounds`` lists rounds ``POSITIONS:DEALS:SEED``, done in order:

1. **collect** (once: saved in ``--data-dir``, reused after): ``DEALS`` classic deals of
   the round's seed are bid and played by ``POSITIONS`` at every seat (``heuristic``,
   or ``strong`` with the weights written so far: then the player also learns in the
   positions its own play reaches); at every card decision ``pimc`` searching every
   choice (:data:`sim.players.SEARCH_SETTINGS`: its defaults take ties from this fit)
   decides from the same state. Chunks of 50 deals on ``--jobs`` processes, each
   chunk seeded by its number: the same arguments give the same decisions.
2. **fit**, on every round so far: a multinomial logit over the legal cards (features:
   :func:`sim.engine.strategies.strong.card_features`), one weight row for each of the
   declarer and a defender, leading and following, by Newton's method with a small
   ridge; then ``--bonus`` is added to the weight of the heuristic's card (by row, or
   one for all: chosen by duplicate duels, see :mod:`sim.engine.strategies.strong`).
   Printed: the share of held-out decisions (the last ``--holdout`` of the chunks, fitted
   without them) where the fit and where the heuristic choose ``pimc``'s card.
3. **write** the weights module (``--out``, default the package's).

With ``--model net`` the last step fits, on every round, a network of ``--hidden``
ReLUs for each row of ``--net-rows`` in place of the line (:func:`fit_card_net`: the
same softmax over the legal cards, with a hidden layer), with ``--bonus`` on the
heuristic card's score, and writes it to the player's data file (``--net-out``,
``sim/engine/strategies/strong.npz``), which the player then plays in place of the
line. A round played by ``strong`` is played with the line's weights, so it is
collected only while that file is absent.

    python -m training.strong_fit        # the line: 7,200 deals, ~20 min on 2 cores
    make weights                           # the line's data, then the network's

Strength is measured afterwards by duplicate duels, on seeds not used here.
"""

from __future__ import annotations

import argparse
import pathlib
import textwrap
import time

import numpy as np
from joblib import Parallel, delayed
from joblib.externals.loky import get_reusable_executor
from numba import njit

from sim.engine.actions import DECLARE, Decision
from sim.engine.arena import arena_size
from sim.engine.params import rules_vector
from sim.engine.state import (
    N_STATE,
    SNAP_KIND,
    SNAP_LEGAL,
    SNAP_LEN,
    SNAP_N,
    SNAP_SEAT,
)
from sim.engine.strategies.heuristic import heuristic_play
from sim.engine.strategies.pimc import pimc_play
from sim.engine.strategies.registry import parse_params
from sim.engine.strategies.strong import (
    CARD_FEATURE_NAMES,
    N_CARD_FEATURES,
    NET_FILE,
    card_features,
    card_row,
)
from sim.players import SEARCH_SETTINGS
from sim.rules import load_rules
from training.adam import adam
from training.snapshots import snapshots
from training.strong_discard_fit import DISCARD_BLOCK

ROUNDS = "heuristic:1200:1,strong:3000:3,heuristic:3000:2"
BONUS = "0.5"
WEIGHTS_FILE = pathlib.Path(__file__).parents[1] / "sim/engine/strategies/strong_weights.py"
MAX_MOVES = 24  # legal codes of a card decision: 8 cards, 8 declaring K-Q, 4 aces, and room
RIDGE = 1e-2


def _masks(snap: np.ndarray) -> tuple[int, int]:
    n = int(snap[SNAP_N])
    legal = snap[SNAP_LEGAL : SNAP_LEGAL + n]
    plain = sum(1 << int(c) for c in legal if c < DECLARE)
    declaring = sum(1 << int(c - DECLARE) for c in legal if c >= DECLARE)
    return plain, declaring


def _collect_chunk(deals: int, seed: int, positions: str) -> tuple[np.ndarray, np.ndarray]:
    """The card-play snapshots of one seeded chunk of deals, with pimc's choices."""
    rules = load_rules("classic")
    P = rules_vector(rules)
    params = parse_params(["pimc"] * 3, list(SEARCH_SETTINGS))[0]
    arena = np.zeros(arena_size(18), dtype=np.int64)
    snaps, labels = [], []
    # strong's rounds bid as the heuristic, as they were dealt before its bid network
    settings = ("strong.bid_net=0",) if positions == "strong" else ()
    for snap in snapshots(rules, deals, seed, (positions,) * 3, settings):
        kind = int(snap[SNAP_KIND])
        S = snap[:N_STATE].copy()
        if kind == Decision.PLAY:
            plain, declaring = _masks(snap)
            choice = pimc_play(int(snap[SNAP_SEAT]), S, P, plain, declaring, arena, params)
        else:
            continue
        snaps.append(snap.copy())
        labels.append(int(choice))
    return np.array(snaps, dtype=np.int64).reshape(-1, SNAP_LEN), np.array(labels, np.int64)


def collect(deals: int, seed: int, positions: str, jobs: int) -> dict[str, np.ndarray]:
    """Snapshots and pimc's choices of ``deals`` deals, in chunks of 50 (seeded by chunk)."""
    chunks = [(min(50, deals - k), seed * 100_000 + k // 50) for k in range(0, deals, 50)]
    out = Parallel(n_jobs=jobs)(delayed(_collect_chunk)(n, s, positions) for n, s in chunks)
    deal_no = np.concatenate([np.full(len(o[1]), i) for i, o in enumerate(out)])
    return {
        "snaps": np.concatenate([o[0] for o in out]),
        "labels": np.concatenate([o[1] for o in out]),
        "chunk": deal_no,
    }


@njit  # not cached: numba's own cache would not see an edit of the features it inlines
def _card_design(snaps, labels, P, X, valid, y, row, heur):
    """Features of every legal card of every PLAY snapshot (-1 rows: not a card decision)."""
    for i in range(snaps.shape[0]):
        snap = snaps[i]
        row[i] = -1
        if snap[SNAP_KIND] != Decision.PLAY:
            continue
        S = snap[:N_STATE].copy()
        seat = snap[SNAP_SEAT]
        n = snap[SNAP_N]
        plain = np.int64(0)
        declaring = np.int64(0)
        for k in range(n):
            c = snap[SNAP_LEGAL + k]
            if c >= DECLARE:
                declaring |= np.int64(1) << (c - DECLARE)
            else:
                plain |= np.int64(1) << c
        h = heuristic_play(seat, S, P, plain, declaring)
        row[i] = card_row(seat, S)
        for k in range(n):
            code = snap[SNAP_LEGAL + k]
            f = card_features(seat, S, P, code, h)
            for j in range(N_CARD_FEATURES):
                X[i, k, j] = f[j]
            valid[i, k] = True
            if code == labels[i]:
                y[i] = k
            if code == h:
                heur[i] = k


def card_design(data, P):
    """Every card decision of a round's data: features, legal moves, label, row, heuristic's."""
    snaps, labels = data["snaps"], data["labels"]
    N = len(snaps)
    X = np.zeros((N, MAX_MOVES, N_CARD_FEATURES))
    valid = np.zeros((N, MAX_MOVES), dtype=np.bool_)
    y = np.full(N, -1, dtype=np.int64)
    heur = np.full(N, -1, dtype=np.int64)
    row = np.full(N, -1, dtype=np.int64)
    _card_design(snaps, labels, P, X, valid, y, row, heur)
    return X, valid, y, row, heur


def fit_logit(X, valid, y, ridge=RIDGE, iters=30):
    """Weights maximising the conditional logit's likelihood of the choices ``y`` (Newton)."""
    F = X.shape[2]
    w = np.zeros(F)
    w[0] = 1.0
    n = len(y)
    if n == 0:
        return w
    for _ in range(iters):
        s = np.where(valid, X @ w, -np.inf)
        s -= s.max(axis=1, keepdims=True)
        p = np.exp(s)
        p /= p.sum(axis=1, keepdims=True)
        mean = np.einsum("nk,nkf->nf", p, X)
        chosen = X[np.arange(n), y]
        grad = (chosen - mean).sum(0) - ridge * n * w
        second = np.einsum("nk,nkf,nkg->fg", p, X, X) - mean.T @ mean
        H = second + ridge * n * np.eye(F)
        step = np.linalg.solve(H, grad)
        w += step
        if np.abs(step).max() < 1e-7:
            break
    return w


def agreement(X, valid, y, w, heur):
    """Share of decisions where the model's card is pimc's, and the heuristic's share."""
    s = np.where(valid, X @ w, -np.inf)
    # ties go to the heuristic's card, as the player breaks them
    s[np.arange(len(y)), heur] += 1e-9
    pick = s.argmax(axis=1)
    return float((pick == y).mean()), float((heur == y).mean())


ROW_NAMES = ("declarer lead", "declarer follow", "defender lead", "defender follow")


def read_rounds(data_dir: pathlib.Path, rounds: list[tuple[str, int, int]]) -> dict:
    """The decisions of every round so far, with chunk ids distinct across rounds."""
    parts = [dict(np.load(round_file(data_dir, *r))) for r in rounds]
    out = {k: np.concatenate([p[k] for p in parts]) for k in ("snaps", "labels")}
    offset = 0
    chunks = []
    for p in parts:
        chunks.append(p["chunk"] + offset)
        offset += int(p["chunk"].max()) + 1
    out["chunk"] = np.concatenate(chunks)
    return out


def round_file(data_dir: pathlib.Path, positions: str, deals: int, seed: int) -> pathlib.Path:
    """The file of one round of collected decisions."""
    return data_dir / f"{positions}_{deals}_{seed}.npz"


def fit_card_net(
    X: np.ndarray, valid: np.ndarray, y: np.ndarray, hidden: int, seed: int, epochs: int = 40
) -> dict[str, np.ndarray]:
    """A network scoring each legal card, fitted to give ``pimc``'s card the most weight.

    The cards of a decision (``X[i][valid[i]]``) are scored by one hidden layer of
    ReLUs; their scores go through a softmax and the loss is the cross-entropy of
    ``pimc``'s card ``y[i]`` (the multinomial logit of :func:`fit_logit`, with a hidden
    layer). Adam (step 1e-3, batches of 512 decisions), a tenth of the decisions kept
    apart to stop once their loss has not fallen for 4 epochs; seeded.
    """
    rng = np.random.default_rng(seed)
    if len(y) == 0:  # no decision of this row: a network that never fires
        return {"w1": np.zeros((hidden, X.shape[2])), "b1": np.full(hidden, -1.0),
                "w2": np.zeros(hidden)}  # fmt: skip
    lens = valid.sum(axis=1).astype(np.int64)
    rows = X[valid]
    starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
    F = rows.shape[1]
    W1 = rng.normal(0.0, np.sqrt(2.0 / F), (hidden, F))
    b1 = np.zeros(hidden)
    w2 = rng.normal(0.0, np.sqrt(1.0 / hidden), hidden)
    params = [W1, b1, w2]
    order = rng.permutation(len(y))
    cut = max(len(y) // 10, 1)
    apart, fitted = order[:cut], order[cut:]

    def loss(ds: np.ndarray, grad: bool) -> tuple[float, list[np.ndarray]]:
        offs = np.concatenate([[0], np.cumsum(lens[ds])[:-1]])
        idx = np.repeat(starts[ds] - offs, lens[ds]) + np.arange(lens[ds].sum())
        Zb = rows[idx]
        A = Zb @ W1.T + b1
        z = np.maximum(A, 0.0) @ w2
        g = np.repeat(np.arange(len(ds)), lens[ds])
        e = np.exp(z - np.maximum.reduceat(z, offs)[g])
        p = e / np.add.reduceat(e, offs)[g]
        t = offs + y[ds]
        value = float(-np.mean(np.log(p[t] + 1e-12)))
        if not grad:
            return value, []
        dz = p
        dz[t] -= 1.0
        dz /= len(ds)
        dA = np.outer(dz, w2) * (A > 0)
        return value, [dA.T @ Zb, dA.sum(axis=0), np.maximum(A, 0.0).T @ dz]

    kept = adam(params, loss, fitted, apart, rng, epochs, patience=4)
    return {"w1": kept[0], "b1": kept[1], "w2": kept[2]}


def net_scores(net: dict[str, np.ndarray], X: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """The network's score of every card (``-inf`` where not legal), as the player scores."""
    s = np.maximum(X @ net["w1"].T + net["b1"], 0.0) @ net["w2"]
    return np.where(valid, s, -np.inf)


def fit_card_nets(
    data: dict, P: np.ndarray, holdout: float, bonus: list[float], hidden: int, rows: list[int]
) -> dict[str, np.ndarray]:
    """The card network of each of ``rows`` (:func:`fit_card_net`), as the player's file holds it.

    Printed: the held-out agreement with ``pimc`` of the network (fitted without the
    held-out chunks), of the line (:func:`fit_logit`) and of the heuristic; the written
    networks are then fitted on every decision. A row not listed keeps an output layer
    of zeros: the player scores its cards by the line.
    """
    chunks = data["chunk"]
    test = chunks >= np.quantile(chunks, 1 - holdout)
    X, valid, y, row, heur = card_design(data, P)
    out = {
        "w1": np.zeros((4, hidden, N_CARD_FEATURES)),
        "b1": np.zeros((4, hidden)),
        "w2": np.zeros((4, hidden)),
        "bonus": np.array(bonus, dtype=np.float64),
    }
    for r in rows:
        train = (row == r) & ~test
        held = (row == r) & test
        net = fit_card_net(X[train], valid[train], y[train], hidden, seed=r)
        s = net_scores(net, X[held], valid[held])
        s[np.arange(held.sum()), heur[held]] += 1e-9  # ties: the heuristic's card
        a_net = float((s.argmax(axis=1) == y[held]).mean()) if held.any() else np.nan
        line = fit_logit(X[train], valid[train], y[train])
        a_line, a_heur = agreement(X[held], valid[held], y[held], line, heur[held])
        print(
            f"{ROW_NAMES[r]:<16} {train.sum():6d} fit {held.sum():5d} held out: agrees "
            f"with pimc {a_net:.3f} (line {a_line:.3f}, heuristic {a_heur:.3f})"
        )
        net = fit_card_net(X[row == r], valid[row == r], y[row == r], hidden, seed=r)
        for k in ("w1", "b1", "w2"):
            out[k][r] = net[k]
    return out


def fit_cards(data: dict, P: np.ndarray, holdout: float, bonus: list[float]) -> np.ndarray:
    """The card weights (:func:`fit_logit` per row, plus ``bonus`` on the heuristic's card)."""
    chunks = data["chunk"]
    test = chunks >= np.quantile(chunks, 1 - holdout)
    X, valid, y, row, heur = card_design(data, P)
    weights = np.zeros((4, N_CARD_FEATURES))
    for r in range(4):
        train = (row == r) & ~test
        held = (row == r) & test
        w = fit_logit(X[train], valid[train], y[train])
        a_fit, a_heur = agreement(X[held], valid[held], y[held], w, heur[held])
        print(
            f"{ROW_NAMES[r]:<16} {train.sum():6d} fit {held.sum():5d} held out: "
            f"agrees with pimc {a_fit:.3f} (heuristic {a_heur:.3f})"
        )
        weights[r] = fit_logit(X[row == r], valid[row == r], y[row == r])
        weights[r, 0] += bonus[r]
        print(
            "   ",
            " ".join(f"{n}={v:+.2f}" for n, v in zip(CARD_FEATURE_NAMES, weights[r], strict=True)),
        )
    return weights


def main() -> None:
    """Play the rounds, collect the card decisions, fit and write the weights."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--rounds",
        default=ROUNDS,
        help="POSITIONS:DEALS:SEED,... collected in order; the weights are written after each",
    )
    ap.add_argument("--data-dir", type=pathlib.Path, default=pathlib.Path("runs/strong_fit"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--holdout", type=float, default=0.2)
    ap.add_argument("--bonus", default=BONUS, help="added to the heuristic card's weight, by row")
    ap.add_argument("--out", type=pathlib.Path, default=WEIGHTS_FILE, help="the weights module")
    ap.add_argument(
        "--model",
        choices=("line", "net"),
        default="line",
        help="line: the logit's weights (the weights module); net: a network of --hidden "
        "units per row (the player's data file, sim/engine/strategies/strong.npz)",
    )
    ap.add_argument("--hidden", type=int, default=8, help="the network's hidden units")
    ap.add_argument(
        "--net-rows",
        default="0,2",
        help="the rows the network plays (0 the declarer leading, 1 following, 2 a defender "
        "leading, 3 following; the others by the line)",
    )
    ap.add_argument("--net-out", type=pathlib.Path, default=NET_FILE, help="the network's file")
    args = ap.parse_args()
    P = rules_vector(load_rules("classic"))
    bonus = [float(b) for b in args.bonus.split(",")]
    bonus = bonus * 4 if len(bonus) == 1 else bonus
    rounds = [(p, int(d), int(s)) for p, d, s in (r.split(":") for r in args.rounds.split(","))]
    args.data_dir.mkdir(parents=True, exist_ok=True)
    if args.out.resolve() != WEIGHTS_FILE.resolve() and any(r[0] == "strong" for r in rounds):
        ap.error("a round played by strong plays the package's weights: leave --out alone")
    for k, (positions, deals, seed) in enumerate(rounds):
        path = round_file(args.data_dir, positions, deals, seed)
        if not path.exists() and positions == "strong" and NET_FILE.is_file():
            ap.error(
                f"round {positions}:{deals}:{seed} is played by strong's line weights: "
                f"remove {NET_FILE} first (make weights does)"
            )
        if not path.exists():
            t = time.perf_counter()
            data = collect(deals, seed, positions, args.jobs)
            print(f"{path}: {len(data['labels'])} decisions in {time.perf_counter() - t:.0f} s")
            np.savez_compressed(path, **data)
            # the next round's workers must load the weights written below
            get_reusable_executor().shutdown(wait=True)
        data = read_rounds(args.data_dir, rounds[: k + 1])
        print(f"# after round {k + 1} ({positions}, {deals} deals, seed {seed}):")
        if args.model == "net":
            if k + 1 < len(rounds):
                continue  # the rounds played by strong play the package's weights
            net_rows = [int(r) for r in args.net_rows.split(",")]
            nets = fit_card_nets(data, P, args.holdout, bonus, args.hidden, net_rows)
            np.savez(args.net_out, **nets)
            print(f"wrote {args.net_out}")
            continue
        weights = fit_cards(data, P, args.holdout, bonus)
        done = ",".join(args.rounds.split(",")[: k + 1])
        note = (
            f"Card play fitted on ``pimc``'s choices at {len(data['labels'])} decisions of "
            f"classic deals, rounds (positions:deals:seed) ``{done}``, "
            f"held-out share {args.holdout}, heuristic-card bonus ``{args.bonus}``."
        )
        write(weights, note, args.out)


def write(card: np.ndarray, note: str, out: pathlib.Path) -> None:
    """Write the weights module (``sim/engine/strategies/strong_weights.py``)."""
    rows = []
    for r in card:
        values = [f"{v:.4f}" for v in r]
        lines = [", ".join(values[k : k + 8]) for k in range(0, len(values), 8)]
        rows.append("        [\n" + ",\n".join(f"            {x}" for x in lines) + ",\n        ],")
    body = "\n".join(rows)
    old = out if out.exists() else WEIGHTS_FILE  # the discard's weights are kept as they are
    kept = DISCARD_BLOCK.search(old.read_text())
    discard = "\n" + kept.group(0) if kept else ""
    text = f'''"""The ``strong`` player's fitted weights: its card play and its discard.

Card play written by ``training/strong_fit.py``, the discard by
``training/strong_discard_fit.py``.

{textwrap.fill(note, 88)}

Rows of :data:`CARD_WEIGHTS`: the declarer leading and following, a defender leading
and following; columns :data:`sim.engine.strategies.strong.CARD_FEATURE_NAMES`.
"""

import numpy as np

# fmt: off
CARD_WEIGHTS = np.array(
    [
{body}
    ]
)
# fmt: on
{discard}'''
    out.write_text(text)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
