"""The equity table: each player's chance to win the game from the state before a deal.

In a race to the target a deal is worth what it does to each player's chance of
winning the game. :class:`EquityModel` gives that chance from the state before a
deal, fitted on whole games of one player at every seat (the rows of
:func:`sim.runs.equity.game_states`: a state and who went on to win):

    P(seat i wins) = exp(v_i) / sum_j exp(v_j),   v_i = f(score_i) + b(barrel_i) + r(role_i)

over the game's seats, where

* ``f`` is piecewise linear in the seat's score, with knots every 50 points from
  -300 to the target (and at ``barrel.at``), flat outside; ``f(0) = 0``;
* ``b`` is a small table of the seat's barrel status: off (0), or on with 0, 1, ...
  deals already played on it in the current stint;
* ``r`` is a value per role in the coming deal (0 forehand, 1 middle, 2 dealer; with
  4 players 3 = the dealer, who sits out; with 2 players 0 forehand, 1 dealer),
  ``r(forehand) = 0``.

Every seat has the same ``f``, ``b`` and ``r``, so the chances are symmetric by
construction (seats in the same state have the same chance) and sum to 1. The
weights maximise the likelihood of the winners (a convex problem, solved by
Newton's method), with a small ridge on the second differences of ``f`` at its knots
(smoothness where the games are few) and a tiny one on every weight (a barrel
status no game reached stays at 0).

:func:`calibration` bins predicted chances against the observed win share (95 %
Wilson intervals); :func:`skill` gives log-loss and Brier score against the
baselines (``1 / players``; a model of the own score alone, ``terms=("score",)``).
The states of one game are not independent: intervals over all rows of a set of
games are too narrow; :func:`one_per_game` keeps one row a game for a fair check.

Pure numpy (and polars for the tables); the state rows are any mapping of column
name to array (a :class:`sim.runs.equity.GameStates`, a dict, a polars frame).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

import sim
from analysis.stats import wilson_interval
from sim.rules import Rules

TERMS = ("score", "barrel", "role")
"""The terms of ``v``: the own score ``f``, the barrel status ``b``, the role ``r``."""
KNOT_STEP = 50  # points between the knots of f
LOWEST_KNOT = -300  # f is flat below it
RIDGE = 100.0  # weight of the squared second differences of f (slopes' change per 50 points)
TINY = 1e-3  # weight of every squared weight
FORMAT = 1  # the saved file's layout


def knots_for(rules: Rules) -> np.ndarray:
    """The scores at which ``f`` has a knot: every 50 from -300 to the target, and the barrel."""
    target = rules.game.target
    knots = set(range(LOWEST_KNOT, target - KNOT_STEP // 2, KNOT_STEP)) | {0, target}
    if 0 < rules.barrel.at < target:
        knots.add(rules.barrel.at)
    return np.array(sorted(knots), dtype=np.int64)


def barrel_levels(rules: Rules) -> int:
    """Entries of ``b``: off, then on with 0 .. ``barrel.attempts - 1`` deals (none without one)."""
    return 1 + rules.barrel.attempts if rules.barrel.at > 0 else 1


# --- the rows of states ----------------------------------------------------------------------
def _column(states: Any, name: str) -> np.ndarray:
    try:
        return np.asarray(states[name])
    except Exception as exc:  # KeyError, polars' ColumnNotFoundError
        raise ValueError(f"states: no column {name!r}") from exc


def _players_of(states: Any) -> int:
    n = 1
    while True:
        try:
            states[f"score_{n}"]
        except Exception:  # KeyError, polars' ColumnNotFoundError
            return n
        n += 1


@dataclass(frozen=True)
class _Rows:
    """State rows seen from each row's seat: that seat is seat 0, the others after it."""

    scores: np.ndarray  # (m, n)
    barrel: np.ndarray  # (m, n)
    dealer: np.ndarray  # (m,) the dealer, counted from the row's seat
    winner: np.ndarray  # (m,) the winner, counted from the row's seat
    key: np.ndarray  # (m,) game and deal: the rows of one deal share it
    game: np.ndarray  # (m,)


def _rows(states: Any, players: int | None = None) -> _Rows:
    n = _players_of(states)
    if n not in (2, 3, 4) or (players is not None and n != players):
        want = f"{players}" if players is not None else "2, 3 or 4"
        raise ValueError(f"states: rows of {want} seats needed (score, score_1 ...), got {n}")
    scores = np.stack(
        [_column(states, "score")] + [_column(states, f"score_{k}") for k in range(1, n)], axis=1
    ).astype(np.int64)
    barrel = np.stack(
        [_column(states, "barrel")] + [_column(states, f"barrel_{k}") for k in range(1, n)], axis=1
    ).astype(np.int64)
    seat = _column(states, "seat").astype(np.int64)
    role = _column(states, "role").astype(np.int64)
    winner = _column(states, "winner").astype(np.int64)
    game = _column(states, "game").astype(np.int64)
    deal = _column(states, "deal").astype(np.int64)
    return _Rows(
        scores=scores,
        barrel=barrel,
        dealer=(-role - 1) % n,
        winner=(winner - seat) % n,
        key=game * (1 << 16) + deal,
        game=game,
    )


def one_per_game(states: Any, seed: int = 0, horizon: int | None = None) -> dict[str, np.ndarray]:
    """At most one row of each game, drawn at random: rows independent of each other.

    The rows of one game share its winner, so the rows of a set of games are far from
    independent. Here each game gets a deal number drawn uniformly from ``0 ..
    horizon - 1`` (default: the median number of deals a game of ``states`` lasted)
    and a seat; the game gives that row if it lasted that long, else none. Drawing a
    deal among the game's own deals instead would favour the states of short games,
    games the leader won quickly, and bias the check: whether a game reached a deal
    depends on its past only.
    """
    game = _column(states, "game")
    deal = _column(states, "deal").astype(np.int64)
    seat = _column(states, "seat").astype(np.int64)
    ids, inverse = np.unique(game, return_inverse=True)
    length = np.zeros(ids.shape[0], dtype=np.int64)
    np.maximum.at(length, inverse, deal + 1)
    if horizon is None:
        horizon = max(int(np.median(length)), 1) if length.size else 1
    players = _players_of(states)
    rng = np.random.default_rng(seed)
    want_deal = np.asarray(rng.integers(0, horizon, ids.shape[0]))
    want_seat = np.asarray(rng.integers(0, players, ids.shape[0]))
    pick = np.flatnonzero((deal == want_deal[inverse]) & (seat == want_seat[inverse]))
    names = list(states.columns) if isinstance(states, pl.DataFrame) else list(states)
    return {name: _column(states, name)[pick] for name in names}


# --- the model --------------------------------------------------------------------------------
def _as_int(name: str, values: Any, shape: tuple[int, ...]) -> np.ndarray:
    arr = np.asarray(values)
    wrong = arr.ndim != len(shape)
    if wrong or any(w >= 0 and a != w for a, w in zip(arr.shape, shape, strict=True)):
        want = "(" + ", ".join("n" if w < 0 else str(w) for w in shape)
        want += ",)" if len(shape) == 1 else ")"
        raise ValueError(f"{name}: an array of shape {want} needed, got shape {arr.shape}")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        if not np.issubdtype(arr.dtype, np.number) or not np.all(arr == np.round(arr)):
            raise ValueError(f"{name}: whole numbers needed, got {arr.dtype}")
    return arr.astype(np.int64)


@dataclass(frozen=True, eq=False)
class EquityModel:
    """Each seat's chance to win the game from the state before a deal (see the module).

    Attributes:
        players: seats per game.
        knots: the scores of ``f``'s knots, ascending.
        f: ``f`` at each knot (0 at the knot of score 0).
        barrel: ``b``: off (0), then on with 0, 1, ... deals already played on it.
        role: ``r`` per role in the coming deal (forehand 0).
        ridge: the weight of ``f``'s squared second differences in the fit.
        terms: the terms in ``v`` (:data:`TERMS`, or fewer for a baseline).
        rules_hash, rules_name: the rules of the games fitted.
        player: the player at every seat of them.
        games: games played for the fit (unfinished ones included).
        seeds: the runs' seeds; start: their first game id.
        engine_version: :data:`sim.ENGINE_VERSION` of the games.
        states: the states (deals) fitted.
    """

    players: int
    knots: np.ndarray
    f: np.ndarray
    barrel: np.ndarray
    role: np.ndarray
    ridge: float = RIDGE
    terms: tuple[str, ...] = TERMS
    rules_hash: str = ""
    rules_name: str = ""
    player: str = ""
    games: int = 0
    seeds: tuple[int, ...] = ()
    start: int = 0
    engine_version: str = ""
    states: int = 0

    # --- predictions ------------------------------------------------------------------------
    def _check(self, scores: Any, barrel: Any, dealer: Any) -> tuple[np.ndarray, ...]:
        n = self.players
        s = _as_int("scores", scores, (-1, n))
        m = s.shape[0]
        b = _as_int("barrel", barrel, (m, n))
        d = _as_int("dealer", dealer, (m,))
        if b.size and b.min() < -1:
            raise ValueError("barrel: deals played on the barrel (>= 0), or -1 off it")
        if d.size and (d.min() < 0 or d.max() >= n):
            raise ValueError(f"dealer: a seat 0..{n - 1} needed")
        return s, b, d

    def _design(self, scores: np.ndarray, barrel: np.ndarray, dealer: np.ndarray) -> tuple:
        """Knot index and weight, barrel entry and role of every seat of every state."""
        knots = self.knots
        x = np.clip(scores, knots[0], knots[-1])
        k = np.clip(np.searchsorted(knots, x, side="right") - 1, 0, knots.shape[0] - 2)
        t = (x - knots[k]) / (knots[k + 1] - knots[k])
        levels = self.barrel.shape[0]
        bi = np.where(barrel < 0, 0, 1 + np.clip(barrel, 0, max(levels - 2, 0)))
        bi = np.minimum(bi, levels - 1)  # without a barrel every seat is off it
        seats = np.arange(self.players)[None, :]
        ri = (seats - dealer[:, None] - 1) % self.players
        return k, t, bi, ri

    def values(self, scores: Any, barrel: Any, dealer: Any) -> np.ndarray:
        """``v`` of every seat (``(n, players)``); the arguments as :meth:`win_chance`'s."""
        s, b, d = self._check(scores, barrel, dealer)
        k, t, bi, ri = self._design(s, b, d)
        return (1 - t) * self.f[k] + t * self.f[k + 1] + self.barrel[bi] + self.role[ri]

    def win_chance(self, scores: Any, barrel: Any, dealer: Any) -> np.ndarray:
        """Each seat's chance to win the game, from ``n`` states before a deal.

        Args:
            scores: ``(n, players)`` each game seat's score.
            barrel: ``(n, players)`` deals the seat has already played on the barrel in
                its current stint, -1 when it is not on the barrel (a number past the
                rules' last attempt counts as the last).
            dealer: ``(n,)`` the game seat that deals the coming deal (its left is
                forehand).

        Returns:
            ``(n, players)`` chances, each row summing to 1.

        Raises:
            ValueError: arrays of the wrong shape or values out of range.
        """
        v = self.values(scores, barrel, dealer)
        v = v - v.max(axis=1, keepdims=True)
        e = np.exp(v)
        return e / e.sum(axis=1, keepdims=True)

    # --- the fit ---------------------------------------------------------------------------------
    @classmethod
    def fit(
        cls,
        states: Any,
        rules: Rules | None = None,
        *,
        ridge: float = RIDGE,
        terms: Sequence[str] = TERMS,
        chunk: int = 200_000,
        max_iter: int = 30,
    ) -> EquityModel:
        """The maximum-likelihood model of who won the games from the states of their deals.

        Args:
            states: rows of :func:`sim.runs.equity.game_states` (each deal's rows are
                read once, from any of its seats); its ``rules``, ``player``, ``seed``,
                ``start``, ``games`` attributes, when it has them, are recorded.
            rules: the rules of the games (default ``states.rules``).
            ridge: weight of the squared second differences of ``f``.
            terms: the terms of ``v`` (:data:`TERMS`); ``("score",)`` is the baseline of
                the own score alone.
            chunk: states per block of the computation (memory).
            max_iter: Newton steps at most.

        Returns:
            The fitted model.
        """
        rules = rules if rules is not None else getattr(states, "rules", None)
        if not isinstance(rules, Rules):
            raise ValueError("rules: the rules of the games needed (states have none)")
        unknown = set(terms) - set(TERMS)
        if unknown or "score" not in terms:
            raise ValueError(f"terms: 'score' and any of {TERMS[1:]}, got {tuple(terms)}")
        n = rules.players
        rows = _rows(states, n)
        first = np.unique(rows.key, return_index=True)[1]  # one row per deal
        scores, barrel = rows.scores[first], rows.barrel[first]
        dealer, winner = rows.dealer[first], rows.winner[first]
        knots = knots_for(rules)
        levels = barrel_levels(rules)
        if barrel.size and barrel.max() >= levels - 1 and levels > 1:
            raise ValueError(f"states: a seat on the barrel after {levels - 1} deals or more")
        model = cls(
            players=n,
            knots=knots,
            f=np.zeros(knots.shape[0]),
            barrel=np.zeros(levels),
            role=np.zeros(n),
            ridge=float(ridge),
            terms=tuple(t for t in TERMS if t in terms),
            rules_hash=rules.rules_hash,
            rules_name=rules.name,
            player=str(getattr(states, "player", "")),
            games=int(getattr(states, "games", 0)),
            seeds=(int(states.seed),) if hasattr(states, "seed") else (),
            start=int(getattr(states, "start", 0)),
            engine_version=_engine_version(),
            states=int(first.shape[0]),
        )
        w = _newton(model, scores, barrel, dealer, winner, chunk, max_iter)
        return model._with(w)

    # the weights as one vector: f at every knot, b, r (fixed entries included)
    def _free(self) -> np.ndarray:
        k, levels = self.knots.shape[0], self.barrel.shape[0]
        free = np.zeros(k + levels + self.players, dtype=bool)
        free[:k] = self.knots != 0
        if "barrel" in self.terms:
            free[k + 1 : k + levels] = True
        if "role" in self.terms:
            free[k + levels + 1 :] = True
        return free

    def _with(self, w: np.ndarray) -> EquityModel:
        k, levels = self.knots.shape[0], self.barrel.shape[0]
        return dataclasses.replace(
            self, f=w[:k].copy(), barrel=w[k : k + levels].copy(), role=w[k + levels :].copy()
        )

    # --- files --------------------------------------------------------------------------------
    def save(self, path: str | Path) -> None:
        """Write the model and its provenance to ``path`` (a small ``.npz``, name kept as is)."""
        arrays = {
            "format": np.array(FORMAT),
            "players": np.array(self.players),
            "knots": self.knots,
            "f": self.f,
            "barrel": self.barrel,
            "role": self.role,
            "ridge": np.array(self.ridge),
            "terms": np.array(self.terms, dtype=str),
            "rules_hash": np.array(self.rules_hash),
            "rules_name": np.array(self.rules_name),
            "player": np.array(self.player),
            "games": np.array(self.games),
            "seeds": np.array(self.seeds, dtype=np.int64),
            "start": np.array(self.start),
            "engine_version": np.array(self.engine_version),
            "states": np.array(self.states),
        }
        with open(path, "wb") as fh:
            np.savez(fh, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: str | Path) -> EquityModel:
        """The model :meth:`save` wrote to ``path``; ValueError on a file of another layout."""
        with np.load(path, allow_pickle=False) as z:
            if "format" not in z or int(z["format"]) != FORMAT:
                raise ValueError(f"{path}: not an equity model file of format {FORMAT}")
            return cls(
                players=int(z["players"]),
                knots=z["knots"].astype(np.int64),
                f=z["f"].astype(np.float64),
                barrel=z["barrel"].astype(np.float64),
                role=z["role"].astype(np.float64),
                ridge=float(z["ridge"]),
                terms=tuple(str(t) for t in z["terms"]),
                rules_hash=str(z["rules_hash"]),
                rules_name=str(z["rules_name"]),
                player=str(z["player"]),
                games=int(z["games"]),
                seeds=tuple(int(s) for s in z["seeds"]),
                start=int(z["start"]),
                engine_version=str(z["engine_version"]),
                states=int(z["states"]),
            )


def _engine_version() -> str:

    return sim.ENGINE_VERSION


def _smoothness(knots: np.ndarray) -> np.ndarray:
    """``D``: ``D @ f`` are the changes of ``f``'s slope at its inner knots, per 50 points."""
    k = knots.shape[0]
    gaps = np.diff(knots).astype(np.float64)
    D = np.zeros((max(k - 2, 0), k))
    for j in range(k - 2):
        D[j, j] = 1 / gaps[j]
        D[j, j + 1] = -1 / gaps[j] - 1 / gaps[j + 1]
        D[j, j + 2] = 1 / gaps[j + 1]
    return D * KNOT_STEP


def _newton(
    model: EquityModel,
    scores: np.ndarray,
    barrel: np.ndarray,
    dealer: np.ndarray,
    winner: np.ndarray,
    chunk: int,
    max_iter: int,
) -> np.ndarray:
    """The weights (every entry, fixed ones 0) minimising the penalised negative log-likelihood."""
    free = model._free()
    width = free.shape[0]
    k_knots, levels, n = model.knots.shape[0], model.barrel.shape[0], model.players
    D = _smoothness(model.knots)
    penalty = np.zeros((width, width))
    penalty[:k_knots, :k_knots] = model.ridge * D.T @ D
    penalty += TINY * np.eye(width)
    penalty = penalty[np.ix_(free, free)]
    m = scores.shape[0]
    k, t, bi, ri = model._design(scores, barrel, dealer)
    # each seat's four entries of the design, as columns of the free weights (a fixed
    # weight's entry goes to a last column, left out)
    nf = int(free.sum())
    column = np.full(width, nf)
    column[free] = np.arange(nf)
    cols = (column[k], column[k + 1], column[k_knots + bi], column[k_knots + levels + ri])
    vals = (1 - t, t, np.ones_like(t), np.ones_like(t))

    def block(lo: int, hi: int) -> np.ndarray:
        """The dense design of states ``lo .. hi-1``: ``(hi - lo, n, free)``."""
        X = np.zeros(((hi - lo) * n, nf + 1))
        rows = np.arange((hi - lo) * n)
        for c, v in zip(cols, vals, strict=True):
            X[rows, c[lo:hi].ravel()] += v[lo:hi].ravel()
        return X[:, :-1].reshape(hi - lo, n, -1)

    def objective(w: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        total = 0.5 * w @ penalty @ w
        grad = penalty @ w
        hess = penalty.copy()
        for lo in range(0, m, chunk):
            hi = min(m, lo + chunk)
            X = block(lo, hi)
            v = X @ w
            v -= v.max(axis=1, keepdims=True)
            logz = np.log(np.exp(v).sum(axis=1))
            rows = np.arange(hi - lo)
            total += float((logz - v[rows, winner[lo:hi]]).sum())
            p = np.exp(v - logz[:, None])
            r = p.copy()
            r[rows, winner[lo:hi]] -= 1.0
            flat = X.reshape(-1, X.shape[2])
            grad += r.reshape(-1) @ flat
            mean = np.einsum("gi,gif->gf", p, X)
            A = flat * np.sqrt(p).reshape(-1, 1)
            hess += A.T @ A - mean.T @ mean
        return total, grad, hess

    w = np.zeros(nf)
    value, grad, hess = objective(w)
    for _ in range(max_iter):
        step = np.linalg.solve(hess, grad)
        size = 1.0
        while True:  # a Newton step, halved while it does not lower the objective
            trial = w - size * step
            new = objective(trial)
            if new[0] <= value or size < 1e-6:
                break
            size /= 2
        w = trial
        done = value - new[0] < 1e-9 * max(m, 1) or np.abs(size * step).max() < 1e-7
        value, grad, hess = new
        if done:
            break
    full = np.zeros(width)
    full[free] = w
    return full


# --- how good it is ------------------------------------------------------------------------------
def own_chance(model: EquityModel, states: Any) -> np.ndarray:
    """Each row's seat's chance to win (``(rows,)``), from the row's state."""
    rows = _rows(states, model.players)
    return model.win_chance(rows.scores, rows.barrel, rows.dealer)[:, 0]


def calibration(model: EquityModel, states: Any, bins: int | Sequence[float] = 10) -> pl.DataFrame:
    """Predicted chances against the observed win share, by bins of the prediction.

    Every row of ``states`` is one seat in one state: its predicted chance and whether
    it won. The rows of one game share its winner, so they are not independent: the
    uncertainty is measured over games (the residuals summed per game, a cluster-robust
    standard error). The Wilson interval is taken on the bin's effective number of
    rows (its rows over the design effect: the robust variance of the share over the
    binomial one, at least 1), which is the plain Wilson interval for rows that are
    independent (one row a game: :func:`one_per_game`).

    Args:
        model: the equity model.
        states: rows of :func:`sim.runs.equity.game_states` (or a subset of them).
        bins: the number of equal bins of [0, 1], or their edges.

    Returns:
        One row per bin with rows in it: ``p_low``, ``p_high`` (the bin), ``rows``,
        ``games`` (the games they come from), ``predicted`` (mean predicted chance),
        ``observed`` (share won), ``low``, ``high`` (its 95 % Wilson interval),
        ``effective`` (the effective rows of the interval) and ``z``: (observed -
        predicted) over the robust standard error of the residuals.
    """
    p = own_chance(model, states)
    won = _column(states, "won").astype(bool)
    game = _column(states, "game")
    edges = np.linspace(0, 1, bins + 1) if isinstance(bins, int) else np.asarray(bins, float)
    which = np.clip(np.searchsorted(edges, p, side="right") - 1, 0, edges.shape[0] - 2)
    names = ("p_low", "p_high", "rows", "games", "predicted", "observed", "effective", "z")
    out: dict[str, list[Any]] = {c: [] for c in names}
    for j in range(edges.shape[0] - 1):
        mask = which == j
        count = int(mask.sum())
        if not count:
            continue
        pj, yj, gj = p[mask], won[mask].astype(np.float64), game[mask]
        obs = float(yj.mean())
        se = _cluster_se(yj - pj, gj, centred=False)
        share_var = _cluster_se(yj, gj) ** 2
        binomial_var = obs * (1 - obs) / count
        effective = count if share_var <= 0 else min(count, count * binomial_var / share_var)
        out["p_low"].append(float(edges[j]))
        out["p_high"].append(float(edges[j + 1]))
        out["rows"].append(count)
        out["games"].append(int(np.unique(gj).shape[0]))
        out["predicted"].append(float(pj.mean()))
        out["observed"].append(obs)
        out["effective"].append(max(float(effective), 1.0))
        out["z"].append((obs - float(pj.mean())) / se if se > 0 else 0.0)
    eff = np.array(out["effective"])
    low, high = wilson_interval(np.array(out["observed"]) * eff, eff)
    frame = pl.DataFrame(out, schema_overrides={"rows": pl.Int64, "games": pl.Int64})
    frame = frame.with_columns(low=pl.Series(low, dtype=pl.Float64), high=pl.Series(high))
    return frame.select(
        "p_low", "p_high", "rows", "games", "predicted", "observed", "low", "high", "effective",
        "z",
    )  # fmt: skip


def skill(models: Mapping[str, EquityModel], states: Any) -> pl.DataFrame:
    """Log-loss and Brier score over the deals of ``states``, beside the uniform baseline.

    Each deal (game and played deal) counts once: its log-loss is ``-ln p(winner)``,
    its Brier score ``sum over seats (p - won)^2``; the table gives the means and their
    standard errors over the games (the deals of a game are not independent: the
    errors are cluster-robust, grouped by game), and each score's difference from the
    first model's on the same deals (paired, so its error is far smaller).

    Args:
        models: the models to score by name (the fitted model first, then baselines:
            the own score alone ...); a first row ``1/players`` is the uniform baseline.
        states: rows of held-out games.

    Returns:
        ``model``, ``deals``, ``log_loss``, ``log_loss_se``, ``brier``, ``brier_se``,
        ``log_loss_vs``, ``log_loss_vs_se``, ``brier_vs``, ``brier_vs_se`` (minus the
        first model's).
    """
    if not models:
        raise ValueError("models: at least one model needed")
    n = next(iter(models.values())).players
    rows = _rows(states, n)
    first = np.unique(rows.key, return_index=True)[1]
    scores, barrel = rows.scores[first], rows.barrel[first]
    dealer, winner, game = rows.dealer[first], rows.winner[first], rows.game[first]
    y = np.zeros((first.shape[0], n))
    y[np.arange(first.shape[0]), winner] = 1.0
    chances = {f"1/{n}": np.full((first.shape[0], n), 1.0 / n)}
    for name, model in models.items():
        if model.players != n:
            raise ValueError(f"models: {name!r} has {model.players} seats, not {n}")
        chances[name] = model.win_chance(scores, barrel, dealer)
    scored = {
        name: {
            "log_loss": -np.log(np.clip(p[np.arange(p.shape[0]), winner], 1e-300, None)),
            "brier": ((p - y) ** 2).sum(axis=1),
        }
        for name, p in chances.items()
    }
    main = scored[next(iter(models))]
    out: dict[str, list[Any]] = {"model": list(scored), "deals": [first.shape[0]] * len(scored)}
    for key in ("log_loss", "brier"):
        for end in ("", "_se", "_vs", "_vs_se"):
            out[key + end] = []
        for x in (s[key] for s in scored.values()):
            diff = x - main[key]
            out[key].append(float(x.mean()))
            out[f"{key}_se"].append(_cluster_se(x, game))
            out[f"{key}_vs"].append(float(diff.mean()))
            out[f"{key}_vs_se"].append(_cluster_se(diff, game))
    return pl.DataFrame(out)


def _cluster_se(x: np.ndarray, group: np.ndarray, centred: bool = True) -> float:
    """The standard error of ``x.mean()`` when the rows of one group are not independent.

    The (centred, unless not ``centred``: residuals whose mean is 0 under the model)
    values are summed per group; their squares estimate the variance (cluster-robust,
    with the small-sample factor ``k / (k - 1)`` of ``k`` groups). 0 for one group.
    """
    m = x.shape[0]
    _, inverse = np.unique(group, return_inverse=True)
    sums = np.bincount(inverse, weights=x - x.mean() if centred else x)
    k = sums.shape[0]
    if k < 2:
        return 0.0
    return float(np.sqrt((sums**2).sum() * k / (k - 1)) / m)


__all__ = [
    "KNOT_STEP",
    "RIDGE",
    "TERMS",
    "EquityModel",
    "barrel_levels",
    "calibration",
    "knots_for",
    "one_per_game",
    "own_chance",
    "skill",
]
