"""Game states before each deal, from whole traced games; and one deal applied to a state.

The data of the equity table (:mod:`analysis.equity`: a player's chance to win the game
from the state before a deal):

* :func:`game_states` plays traced games (:func:`sim.engine.game.play_games`) in chunks
  and returns one row per played deal and per seat: the seat's score, the other
  seats' scores, its role in the deal, the barrel, and whether it went on to win;
* :func:`after_deal` applies a batch of one deal's possible results to one
  :class:`GameState` with the engine's own game rules
  (:func:`sim.engine.game.apply_deal`: pinned barrel scores, barrel wins and falls,
  bolts, 555), and returns the states after them and the winner where the deal ends
  the game.

Seats are game seats ``0 .. n-1`` (clockwise). A seat's *role* in a deal dealt by
``dealer`` is ``(seat - dealer - 1) % n``: 0 forehand, 1 middle, 2 the dealer with 3
players; 3 the dealer, who sits the deal out, with 4; 0 forehand, 1 the dealer with 2.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from sim.players import DEFAULT
from sim.rules import Rules

if TYPE_CHECKING:
    import polars as pl

CHUNK = 500  # traced games at a time: a traced game holds a fixed log of about 230 kB


# --- one state --------------------------------------------------------------------------
def _seat_values(name: str, values: Sequence[int] | np.ndarray | None, n: int, fill: int) -> tuple:
    """``values`` as a tuple of ``n`` ints (``fill`` when None); ValueError on a wrong length."""
    if values is None:
        return (fill,) * n
    arr = np.asarray(values)
    if arr.shape != (n,) or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"{name}: {n} whole numbers needed (one per seat), got {values!r}")
    return tuple(int(x) for x in arr)


@dataclass(frozen=True)
class GameState:
    """One game's state before a deal: what the game's rules need to score the deal.

    Attributes:
        scores: each game seat's score.
        dealer: the game seat that deals the coming deal.
        barrel: per seat, the deals already played on the barrel in its current stint,
            or -1 when it is not on the barrel (default: nobody on it).
        bolts: per seat, the bolts counted toward the next bolt penalty (default 0).
        concessions: per seat, the concessions used in this game (default 0).
        falls: per seat, the barrel falls in this game (for ``barrel.third_fall_zero``;
            default 0).
    """

    scores: tuple[int, ...]
    dealer: int
    barrel: tuple[int, ...] | None = None
    bolts: tuple[int, ...] | None = None
    concessions: tuple[int, ...] | None = None
    falls: tuple[int, ...] | None = None
    players: int = field(init=False)

    def __post_init__(self) -> None:
        n = len(self.scores) if isinstance(self.scores, Sequence | np.ndarray) else 0
        if n not in (2, 3, 4):
            raise ValueError(f"scores: one score per seat (2, 3 or 4 seats), got {self.scores!r}")
        object.__setattr__(self, "players", n)
        object.__setattr__(self, "scores", _seat_values("scores", self.scores, n, 0))
        object.__setattr__(self, "barrel", _seat_values("barrel", self.barrel, n, -1))
        object.__setattr__(self, "bolts", _seat_values("bolts", self.bolts, n, 0))
        object.__setattr__(self, "concessions", _seat_values("concessions", self.concessions, n, 0))
        object.__setattr__(self, "falls", _seat_values("falls", self.falls, n, 0))
        if not isinstance(self.dealer, int | np.integer) or not 0 <= self.dealer < n:
            raise ValueError(f"dealer: a seat 0..{n - 1}, got {self.dealer!r}")
        object.__setattr__(self, "dealer", int(self.dealer))
        if min(self.barrel or ()) < -1:
            raise ValueError(f"barrel: deals on the barrel (>= 0) or -1 (off), got {self.barrel}")

    def check(self, rules: Rules) -> None:
        """ValueError unless the state fits ``rules`` (its seats, its barrel)."""
        if self.players != rules.players:
            raise ValueError(
                f"the state has {self.players} seats, the rules {rules.name!r} {rules.players}"
            )
        barrel = self.barrel or ()
        if max(barrel) >= 0 and rules.barrel.at == 0:
            raise ValueError(f"barrel: the rules {rules.name!r} have no barrel, got {barrel}")
        if max(barrel) >= rules.barrel.attempts:
            raise ValueError(
                f"barrel: at most {rules.barrel.attempts - 1} deals played on the barrel "
                f"(barrel.attempts {rules.barrel.attempts}), got {barrel}"
            )


# --- the states of traced games -------------------------------------------------------------
@dataclass(frozen=True)
class GameStates(Mapping[str, np.ndarray]):
    """The rows of :func:`game_states`, a column (numpy array) by name; its provenance.

    One row per played deal and per game seat, sorted by game, deal and seat
    (``players`` consecutive rows per deal). Columns (``k`` = 1 .. players - 1):

    * ``game`` (int64): the game id; ``deal`` (int16): the played deal of the game,
      from 0 (redeals are not counted);
    * ``seat``, ``dealer`` (int8): the row's game seat and the seat that deals;
      ``role`` (int8): the seat's role in the deal, ``(seat - dealer - 1) % players``
      (0 forehand, 1 middle, 2 dealer; with 4 players 3 = the dealer, who sits out;
      with 2 players 0 forehand, 1 dealer);
    * ``score`` (int32): the seat's score before the deal; ``score_k``: the score of
      seat ``(seat + k) % players`` (``score_1`` the next seat clockwise, the left);
    * ``barrel`` (int16): deals the seat has already played on the barrel in its
      current stint, -1 when it is not on it; ``barrel_k`` the same of seat
      ``(seat + k) % players``;
    * ``bolts``, ``concessions``, ``falls`` (int16): the seat's bolts counted toward
      the next penalty, concessions and barrel falls so far in the game;
    * ``winner`` (int8): the seat that won the game; ``won`` (bool): ``winner == seat``.

    Attributes:
        columns: the columns by name.
        rules: the rules the games were played under.
        player: the player at every seat.
        seed: the run's seed.
        start: the first game id.
        games: the games played (``start .. start + games - 1``).
        unfinished: the games left out: no winner after the engine's most played
            deals (:data:`sim.engine.game.MAX_DEALS`), or a trace longer than the
            engine keeps (:data:`sim.engine.game.MAX_DEALT` dealt deals,
            :data:`sim.engine.game.MAX_EVENTS` events).
    """

    columns: Mapping[str, np.ndarray]
    rules: Rules
    player: str
    seed: int
    start: int
    games: int
    unfinished: int

    def __getitem__(self, name: str) -> np.ndarray:
        return self.columns[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.columns)

    def __len__(self) -> int:
        return len(self.columns)

    @property
    def players(self) -> int:
        """Seats per game."""
        return self.rules.players

    @property
    def rows(self) -> int:
        """Rows (played deals times seats)."""
        return int(self.columns["game"].shape[0])

    def frame(self) -> pl.DataFrame:
        """The rows as a polars frame."""
        import polars as pl

        return pl.DataFrame(dict(self.columns))

    def state(self, row: int) -> GameState:
        """The :class:`GameState` before the deal of row ``row`` (in game seats)."""
        n = self.players
        c = self.columns
        seat = int(c["seat"][row])
        order = [(s - seat) % n for s in range(n)]  # the column of each game seat
        names = ["score", *[f"score_{k}" for k in range(1, n)]]
        barrel = ["barrel", *[f"barrel_{k}" for k in range(1, n)]]
        first = row - seat  # the deal's rows are seats 0 .. n-1 in a row
        return GameState(
            scores=tuple(int(c[names[k]][row]) for k in order),
            dealer=int(c["dealer"][row]),
            barrel=tuple(int(c[barrel[k]][row]) for k in order),
            bolts=tuple(int(c["bolts"][first + s]) for s in range(n)),
            concessions=tuple(int(c["concessions"][first + s]) for s in range(n)),
            falls=tuple(int(c["falls"][first + s]) for s in range(n)),
        )


def game_states(
    rules: Rules,
    player: str = DEFAULT,
    games: int = 1000,
    seed: int = 0,
    start: int = 0,
    chunk: int = CHUNK,
    progress: Callable[[int], Any] | None = None,
) -> GameStates:
    """The state before every played deal of ``games`` games of ``player`` at every seat.

    Games ``start .. start+games-1`` of the run seeded ``seed`` are played traced,
    ``chunk`` at a time (a traced game keeps a fixed log of about 230 kB). The state
    of each seat before each played deal is read back from the trace alone
    (:func:`sim.engine.game_replay.trace_states`): the scores are those logged after
    the dealt deal before it (a redeal's dealer penalty included; a third bottom
    nine's charge, logged with the deal itself, taken off: it is paid before the
    cards are played); the barrel status starts off for everybody, a ``barrel_on``
    event puts the seat on with 0 deals used, every played deal it sat on the
    barrel at the start of (but a 4-player deal it sat out as dealer) adds one, a
    ``barrel_fall`` event (or a golden round's reset) takes it off; bolts count the
    ``bolt`` events since the last ``bolt_penalty`` (and, with ``bolt.in_a_row``,
    since the last deal the seat took a trick in), concessions the deals it conceded.
    Redeals are skipped; unfinished games (and games whose trace was cut) are left
    out and counted in :attr:`GameStates.unfinished`.

    Args:
        rules: house rules (2, 3 or 4 players).
        player: the player at every seat (:mod:`sim.players`).
        games: number of games.
        seed: the run's seed.
        start: first game id, so that parts of a run line up.
        chunk: games played traced at a time (at most 500 or so: 230 kB a game).
        progress: called with the number of games of each chunk played.

    Returns:
        The rows (:class:`GameStates`: one per played deal and per seat).
    """
    from sim.engine.game import L_RESHUFFLED, MAX_DEALT, MAX_EVENTS, play_games
    from sim.engine.game_replay import N_T, trace_states
    from sim.engine.params import rules_vector

    if games < 0 or chunk < 1:
        raise ValueError(f"games >= 0 and chunk >= 1 needed, got games={games}, chunk={chunk}")
    n = rules.players
    P = rules_vector(rules)
    parts: list[tuple[np.ndarray, ...]] = []
    dropped = 0
    for lo in range(start, start + games, chunk):
        m = min(chunk, start + games - lo)
        batch = play_games(rules, m, seed, (player,), start=lo, trace=True)
        assert batch.deal_log is not None and batch.events is not None
        assert batch.counts is not None
        winner = batch.column("winner").astype(np.int64)
        n_dealt = batch.counts[:, 2]
        n_events = batch.counts[:, 1]
        keep = (winner >= 0) & (n_dealt <= MAX_DEALT) & (n_events <= MAX_EVENTS)
        dropped += int(m - keep.sum())
        dealt = np.arange(MAX_DEALT)[None, :] < n_dealt[:, None]
        played = ((batch.deal_log[:, :, L_RESHUFFLED] == 0) & dealt).sum(axis=1)
        played = np.where(keep, played, 0)
        assert np.array_equal(played[keep], batch.column("n_deals")[keep])
        first = np.where(keep, np.cumsum(played) - played, -1)
        rows = int(played.sum())
        dealer = np.zeros(rows, dtype=np.int64)
        state = np.zeros((rows, n, N_T), dtype=np.int64)
        trace_states(
            P,
            n,
            batch.deal_log,
            batch.events,
            n_dealt.astype(np.int64),
            n_events.astype(np.int64),
            first.astype(np.int64),
            dealer,
            state,
        )
        game = np.repeat(lo + np.arange(m, dtype=np.int64), played)
        deal = np.arange(rows) - np.repeat(first.clip(0), played)
        parts.append((game, deal, dealer, np.repeat(winner, played), state))
        del batch
        if progress is not None:
            progress(m)
    columns = _seat_rows(n, parts)
    return GameStates(columns, rules, player, seed, start, games, dropped)


def _seat_rows(n: int, parts: list[tuple[np.ndarray, ...]]) -> dict[str, np.ndarray]:
    """The per-seat rows of :class:`GameStates` from the per-deal arrays of the chunks."""
    from sim.engine.game_replay import T_BARREL, T_BOLTS, T_CONCESSIONS, T_FALLS, T_SCORE

    game, deal, dealer, winner = (np.concatenate([p[j] for p in parts]) for j in range(4))
    state = np.concatenate([p[4] for p in parts]) if parts else np.zeros((0, n, 5), np.int64)
    seats = np.arange(n)
    rot = (seats[:, None] + seats[None, :]) % n  # rot[s, k]: the seat k places after s
    out: dict[str, np.ndarray] = {
        "game": np.repeat(game, n),
        "deal": np.repeat(deal, n).astype(np.int16),
        "seat": np.tile(seats, len(game)).astype(np.int8),
        "dealer": np.repeat(dealer, n).astype(np.int8),
    }
    out["role"] = ((out["seat"] - out["dealer"] - 1) % n).astype(np.int8)
    for name, t, dtype in (("score", T_SCORE, np.int32), ("barrel", T_BARREL, np.int16)):
        values = state[:, :, t][:, rot].reshape(-1, n)  # row (deal, seat): seats from it on
        out[name] = values[:, 0].astype(dtype)
        for k in range(1, n):
            out[f"{name}_{k}"] = values[:, k].astype(dtype)
    for name, t in (("bolts", T_BOLTS), ("concessions", T_CONCESSIONS), ("falls", T_FALLS)):
        out[name] = state[:, :, t].reshape(-1).astype(np.int16)
    out["winner"] = np.repeat(winner, n).astype(np.int8)
    out["won"] = out["winner"] == out["seat"]
    return out


# --- one deal applied to a state ----------------------------------------------------------
OUTCOME_COLUMNS = ("declarer", "contract", "made", "conceded")
"""The scalar columns of a deal's result :func:`after_deal` reads (with ``delta_{s}`` and
``bolt_{s}`` for every seat, and ``special`` when present), as named in a hands batch's
rows (:data:`sim.engine.state.ROW_COLUMNS`, game seats)."""


@dataclass(frozen=True)
class DealResults:
    """The states after each of a batch of deal results (:func:`after_deal`).

    Attributes:
        scores: ``(k, players)`` each seat's score after the deal.
        barrel: ``(k, players)`` deals played on the barrel in the current stint, -1 off.
        bolts: ``(k, players)`` bolts counted toward the next penalty.
        concessions: ``(k, players)`` concessions used in the game.
        falls: ``(k, players)`` barrel falls in the game.
        winner: ``(k,)`` the seat that won the game with the deal, -1 where it goes on.
        dealer: ``(k,)`` the seat that deals the next deal (the state's dealer's left).
    """

    scores: np.ndarray
    barrel: np.ndarray
    bolts: np.ndarray
    concessions: np.ndarray
    falls: np.ndarray
    winner: np.ndarray
    dealer: np.ndarray

    def __len__(self) -> int:
        return int(self.winner.shape[0])

    def state(self, k: int) -> GameState:
        """The :class:`GameState` after result ``k`` (before the next deal)."""
        return GameState(
            scores=tuple(int(x) for x in self.scores[k]),
            dealer=int(self.dealer[k]),
            barrel=tuple(int(x) for x in self.barrel[k]),
            bolts=tuple(int(x) for x in self.bolts[k]),
            concessions=tuple(int(x) for x in self.concessions[k]),
            falls=tuple(int(x) for x in self.falls[k]),
        )


def _outcome_column(outcomes: Any, name: str, k: int | None) -> np.ndarray | None:
    """Column ``name`` of ``outcomes`` (a mapping, a frame or a hands batch), or None."""
    try:
        col = outcomes.column(name) if hasattr(outcomes, "column") else outcomes[name]
    except (KeyError, IndexError, TypeError):
        return None
    except Exception as exc:  # a frame's own "no such column" error
        if type(exc).__name__ == "ColumnNotFoundError":
            return None
        raise
    arr = np.asarray(col)
    if arr.ndim != 1 or (k is not None and arr.shape[0] != k):
        raise ValueError(
            f"outcomes: column {name!r} must be one value per result ({k}), got shape {arr.shape}"
        )
    if arr.dtype == bool:
        arr = arr.astype(np.int64)
    if not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"outcomes: column {name!r} must hold whole numbers, got {arr.dtype}")
    return arr.astype(np.int64)


def deal_vectors(rules: Rules, dealer: int | np.ndarray, outcomes: Any) -> np.ndarray:
    """``outcomes`` as the engine's deal vectors (``(k, N_GD)``, ``GD_*``, game seats).

    ``dealer`` deals them (one seat, or one per result). ``outcomes``: one result per
    entry, with the columns of :data:`OUTCOME_COLUMNS`,
    ``delta_{s}`` (the seat's deal delta; 4 players: the dealer's is its talon score)
    and ``bolt_{s}`` (1 if the seat took no trick) for every game seat ``s``, and
    optionally ``special`` (0 none; :data:`sim.engine.state.SPECIALS`): a mapping of
    names to arrays, a polars frame, or a hands batch (its rows name game seats).
    """
    from sim.engine.game import (
        GD_BOLT0,
        GD_CONCEDED,
        GD_CONTRACT,
        GD_DECL,
        GD_DELTA0,
        GD_MADE,
        GD_SITTER,
        GD_SPECIAL,
        N_GD,
    )
    from sim.engine.state import SPECIALS

    n = rules.players
    first = _outcome_column(outcomes, "declarer", None)
    if first is None:
        raise ValueError(f"outcomes: no column 'declarer' (needed: {_needed(n)})")
    k = first.shape[0]
    D = np.zeros((k, N_GD), dtype=np.int64)
    D[:, GD_SITTER] = dealer if n == 4 else -1
    where = {"declarer": GD_DECL, "contract": GD_CONTRACT, "made": GD_MADE}
    where |= {"conceded": GD_CONCEDED, "special": GD_SPECIAL}
    where |= {f"delta_{s}": GD_DELTA0 + s for s in range(n)}
    where |= {f"bolt_{s}": GD_BOLT0 + s for s in range(n)}
    for name, j in where.items():
        col = _outcome_column(outcomes, name, k)
        if col is None and name != "special":
            raise ValueError(f"outcomes: no column {name!r} (needed: {_needed(n)})")
        if col is not None:
            D[:, j] = col
    decl = D[:, GD_DECL]
    if k and (decl.min() < 0 or decl.max() >= n):
        raise ValueError(f"outcomes: declarer must be a seat 0..{n - 1}")
    if n == 4 and k and (decl == dealer).any():
        raise ValueError("outcomes: the dealer sits out (4 players), it cannot be declarer")
    for name, lo, hi in (("made", 0, 1), ("conceded", 0, 1), ("special", 0, len(SPECIALS) - 1)):
        col = D[:, where[name]]
        if k and (col.min() < lo or col.max() > hi):
            raise ValueError(f"outcomes: {name} must be {lo}..{hi}")
    bolts = D[:, GD_BOLT0 : GD_BOLT0 + n]
    if k and (bolts.min() < 0 or bolts.max() > 1):
        raise ValueError("outcomes: bolt_{s} must be 0 or 1")
    return D


def _needed(n: int) -> str:
    seats = [f"delta_{s}" for s in range(n)] + [f"bolt_{s}" for s in range(n)]
    return ", ".join([*OUTCOME_COLUMNS, *seats])


def after_deal(rules: Rules, state: GameState | Sequence[GameState], outcomes: Any) -> DealResults:
    """The game after each of a batch of results of the deal that comes after ``state``.

    Every result is scored from the state by the engine's own game rules
    (:func:`sim.engine.game.apply_deal`, GAME_PROTOCOL.md "One deal", step 2: the
    deal's deltas, pinned on the barrel; concessions and the third one's penalty;
    bolts and their penalties; the 555 resets; barrel wins, attempts, climbers and
    falls; the end of the game). What happens between deals is not: a golden
    round's reset (§10), a redeal's dealer penalty, a third bottom nine's charge.

    Args:
        rules: house rules.
        state: the game before the deal (its ``dealer`` deals it); or one state per
            result (a sequence as long as ``outcomes``).
        outcomes: the deal's possible results in game seats: columns ``declarer``,
            ``contract``, ``made``, ``conceded``, ``delta_{s}``, ``bolt_{s}`` for every
            seat ``s`` and optionally ``special`` (see :func:`deal_vectors`).

    Returns:
        The states after each result (:class:`DealResults`) and the winner where the
        deal ended the game.

    Raises:
        ValueError: a state that does not fit the rules, or outcomes of the wrong shape.
    """
    from sim.engine.game import G_BDEALS, G_BOLTS, G_CONCESSIONS, G_FALLS, G_ON, G_SCORE, N_G
    from sim.engine.game_replay import apply_outcomes
    from sim.engine.params import rules_vector
    from sim.engine.state import MAX_SEATS

    states = [state] if isinstance(state, GameState) else list(state)
    if not states:
        raise ValueError("state: a GameState (or one per result) needed, got none")
    for s in states:
        if not isinstance(s, GameState):
            raise ValueError(f"state: a GameState (or one per result) needed, got {s!r}")
        s.check(rules)
    n = rules.players
    dealer = np.array([s.dealer for s in states], dtype=np.int64)
    G0 = np.zeros((len(states), MAX_SEATS, N_G), dtype=np.int64)
    barrel = np.array([s.barrel for s in states], dtype=np.int64).reshape(len(states), n)
    columns = (
        (G_SCORE, [s.scores for s in states]),
        (G_ON, barrel >= 0),
        (G_BDEALS, barrel.clip(0)),
        (G_BOLTS, [s.bolts for s in states]),
        (G_CONCESSIONS, [s.concessions for s in states]),
        (G_FALLS, [s.falls for s in states]),
    )
    for column, values in columns:
        G0[:, :n, column] = np.array(values, dtype=np.int64).reshape(len(states), n)
    one = len(states) == 1
    D = deal_vectors(rules, dealer[0] if one else dealer, outcomes)
    k = D.shape[0]
    if not one and len(states) != k:
        raise ValueError(f"state: one state, or one per result ({k}), got {len(states)}")
    G = np.repeat(G0, k, axis=0) if one else G0
    dealer = np.repeat(dealer, k) if one else dealer
    winner = np.zeros(k, dtype=np.int64)
    apply_outcomes(rules_vector(rules), n, G, dealer, D, winner)
    G = G[:, :n]
    return DealResults(
        scores=G[:, :, G_SCORE].copy(),
        barrel=np.where(G[:, :, G_ON] != 0, G[:, :, G_BDEALS], -1),
        bolts=G[:, :, G_BOLTS].copy(),
        concessions=G[:, :, G_CONCESSIONS].copy(),
        falls=G[:, :, G_FALLS].copy(),
        winner=winner,
        dealer=(dealer + 1) % n,
    )


__all__ = [
    "CHUNK",
    "OUTCOME_COLUMNS",
    "DealResults",
    "GameState",
    "GameStates",
    "after_deal",
    "deal_vectors",
    "game_states",
]
