"""Every dealt hand played as the declarer's: the data of the safe-bid tables and the advisor.

:func:`declarer_deals` deals ``n`` random deals and lists each dealt hand as one *item*
(three per deal with three active players, two with two): the same cards with that
hand seat as the declarer. :func:`play_as_declarer` plays items with one player at
every seat (:mod:`sim.engine.declarer`); :func:`par_levels` gives each item's
open-card par, the highest contract level some talon pick and discard allowed to
name it reaches with every card face up (an upper bound on any player).

The opponents' hands are whatever the deal gave them: uniformly random given the
declarer's cards, conditioned on nothing said in an auction.

Example:
    >>> rules = load_rules("classic")  # doctest: +SKIP
    >>> masks, decls = declarer_deals(1000, seed=1, players=3)  # doctest: +SKIP
    >>> rows = play_as_declarer(rules, masks, decls, seed=1)  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from sim.engine.deal import generate_deals, n_hands, place_sizes
from sim.engine.params import rules_vector
from sim.parallel import threads_now
from sim.players import PAR, fast
from sim.rng import Stream, stream_key
from sim.rules import Rules


def levels_of(rules: Rules) -> np.ndarray:
    """Every contract level a bid may name (:meth:`Rules.bid_levels`), as an array."""
    return np.array(rules.bid_levels(), dtype=np.int64)


def masks_of_cards(cards: np.ndarray, players: int) -> np.ndarray:
    """``(n, 24)`` card ids in places → ``(n, 4)`` ``uint32`` place masks."""
    sizes = place_sizes(players)
    out = np.zeros((cards.shape[0], 4), dtype=np.uint32)
    col = 0
    for q, size in enumerate(sizes):
        bits = np.left_shift(np.uint32(1), cards[:, col : col + size].astype(np.uint32))
        out[:, q] = np.bitwise_or.reduce(bits, axis=1)
        col += size
    return out


def declarer_deals(
    n: int, seed: int, players: int, start: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Deals ``start .. start+n-1`` of the run, each once per hand seat as the declarer.

    Returns ``(masks, decls)``: item ``i = deal * hands + seat`` holds deal ``i // hands``'s
    place masks and the hand seat ``i % hands`` that declares (0 forehand, then clockwise).
    """
    hands = n_hands(players)
    masks = masks_of_cards(generate_deals(n, seed, players, start), players)
    return np.repeat(masks, hands, axis=0), np.tile(np.arange(hands, dtype=np.int64), n)


def play_as_declarer(
    rules: Rules,
    masks: np.ndarray,
    decls: np.ndarray,
    seed: int,
    strategy: str = "heuristic",
    params: Sequence[str] = (),
    start: int = 0,
    bids: np.ndarray | None = None,
) -> np.ndarray:
    """Play each item with ``strategy`` at every seat; one ``D_*`` row per item.

    ``start`` numbers the first item (its random streams), so chunks line up. ``bids``:
    the bid each item's declarer wins the auction at (None: the lowest raise open to
    it; the deal must allow a higher one).
    """
    from sim.engine.declarer import N_DCOLS, declarer_kernel
    from sim.engine.strategies.addresses import hooks_for
    from sim.engine.strategies.registry import H_PLAY_ITEMS, seat_lineup, strategy_ids

    if bids is not None and len(bids) != len(decls):
        raise ValueError(f"bids: {len(bids)} for {len(decls)} items")
    players = 2 if rules.players == 2 else 3
    names, sp = seat_lineup(players, [strategy], params)
    ids = strategy_ids(names)
    keys = np.array(
        [stream_key(seed, s) for s in (Stream.STRATEGY, Stream.TIEBREAK)], dtype=np.uint64
    )
    out = np.zeros((masks.shape[0], N_DCOLS), dtype=np.int64)
    declarer_kernel(
        start,
        np.ascontiguousarray(masks, dtype=np.uint32),
        np.ascontiguousarray(decls, dtype=np.int64),
        np.zeros(len(decls), np.int64) if bids is None else np.ascontiguousarray(bids, np.int64),
        keys,
        rules_vector(rules),
        ids,
        sp,
        hooks_for(ids, (H_PLAY_ITEMS, "sim.engine.declarer", "play_items_entry")),
        levels_of(rules),
        out,
        64 if fast(strategy) else 2,  # items per workspace
        threads_now(),
    )
    return out


def par_levels(rules: Rules, masks: np.ndarray, decls: np.ndarray) -> np.ndarray:
    """Each item's open-card par: ``(n, 2)`` of the best total and the highest level made.

    The level is the highest bid (from 100, at most the dealt hand's cap) that some
    talon pick, discard and trump allowed to name it reaches (:meth:`Par.makes`); 0
    when none. Both are upper bounds on what any player makes of the item.
    """
    from sim.engine.bidding import bid_cap
    from sim.solver.position import OpenCardSolver
    from sim.solver.talon import par_summary

    solver = OpenCardSolver()
    P = rules_vector(rules)
    hands = 2 if rules.players == 2 else 3
    out = np.zeros((masks.shape[0], 2), dtype=np.int64)
    for i in range(masks.shape[0]):
        row = [int(m) for m in masks[i]]
        decl = int(decls[i])
        talons = (row[2], row[3]) if hands == 2 else (row[3],)
        cap = int(bid_cap(row[decl], P))
        out[i] = par_summary(rules, row[:hands], talons, decl, cap, solver)
    return out


# PAR (sim.players): the open-card par, not a strategy: the upper bound of every player


def _par_chunk(job: tuple[Rules, np.ndarray, np.ndarray]) -> np.ndarray:
    return par_levels(*job)


def run_items(
    rules: Rules,
    player: str,
    deals: int,
    seed: int,
    params: Sequence[str] = (),
    workers: int = 1,
    progress: Callable[[int], object] | None = None,
) -> dict[str, np.ndarray]:
    """Deals ``0 .. deals-1`` of run ``seed``, every hand played as the declarer's.

    ``player`` is a strategy name (every seat plays it) or :data:`PAR`. Returns
    columns by item: ``deal``, ``decl`` (hand seat), ``dealt`` (the declarer's dealt
    hand), then ``total``, ``concede_from``, ``contract``, ``talon``, ``kept`` for a
    strategy (and ``opp_delta``, the opponents' mean deal score as the engine scored
    the deal with the player's own contract), or ``par_best``, ``par_level`` for the
    par. ``progress`` is called with
    the items done since the last call.
    """
    from sim.engine.declarer import (
        D_CONCEDE_FROM,
        D_CONTRACT,
        D_DELTA0,
        D_KEPT,
        D_TALON,
        D_TOTAL,
        N_DCOLS,
    )

    hands = n_hands(rules.players)
    masks, decls = declarer_deals(deals, seed, rules.players)
    n = masks.shape[0]
    cols: dict[str, np.ndarray] = {
        "deal": np.repeat(np.arange(deals, dtype=np.int64), hands),
        "decl": decls,
        "dealt": masks[np.arange(n), decls].astype(np.int64),
    }
    # progress steps; a sampling player's items vary in cost, and each step ends when its
    # slowest block does: 96 of them keep both threads busy (24 left them idle 10 %)
    chunk = 3 * 4096 if fast(player) else 64 if player == PAR else 96
    spans = [(i, min(n, i + chunk)) for i in range(0, n, chunk)]
    if player == PAR:
        from sim.batch.runner import local_map

        par = np.zeros((n, 2), dtype=np.int64)
        jobs = [(rules, masks[a:b], decls[a:b]) for a, b in spans]
        for (a, b), part in zip(spans, local_map(_par_chunk, jobs, workers), strict=True):
            par[a:b] = part
            if progress is not None:
                progress(b - a)
        cols["par_best"] = par[:, 0]
        cols["par_level"] = par[:, 1]
        return cols
    rows = np.zeros((n, N_DCOLS), dtype=np.int64)
    for a, b in spans:
        rows[a:b] = play_as_declarer(rules, masks[a:b], decls[a:b], seed, player, params, a)
        if progress is not None:
            progress(b - a)
    cols["total"] = rows[:, D_TOTAL]
    cols["concede_from"] = rows[:, D_CONCEDE_FROM]
    cols["contract"] = rows[:, D_CONTRACT]
    cols["talon"] = rows[:, D_TALON]
    cols["kept"] = rows[:, D_KEPT]
    deltas = rows[:, D_DELTA0 : D_DELTA0 + hands].astype(np.float64)
    mine = deltas[np.arange(n), decls]
    cols["opp_delta"] = (deltas.sum(axis=1) - mine) / (hands - 1)
    return cols


def declarer_functions(players: Sequence[str]) -> list[str]:
    """``module.function`` of the compiled code a declarer run of ``players`` needs.

    The declarer kernel and the players' callbacks for the strategies, the par's
    discard loop (which holds the open-card search) for :data:`PAR`: what
    :func:`sim.runs.folder.compile_notice` looks up.
    """
    from sim.engine.strategies.addresses import entry_names

    strategies = [p for p in players if p != PAR]
    names = []
    if strategies:
        names += ["sim.engine.declarer.declarer_kernel", "sim.engine.declarer.play_items_entry"]
        names += entry_names(strategies)
    if PAR in players:
        names.append("sim.engine.par.par_pick")
    return names


def warm_declarer(rules: Rules, players: Sequence[str], params: Sequence[str] = ()) -> None:
    """One deal's hands played as the declarer's by each player, in this process.

    Compiles (or loads) what :func:`declarer_functions` names before a run's clock
    starts; the par's worker processes then load it from the cache.
    """
    for p in players:
        run_items(rules, p, 1, 0, params if p != PAR else ())


__all__ = [
    "PAR",
    "declarer_deals",
    "declarer_functions",
    "levels_of",
    "masks_of_cards",
    "par_levels",
    "play_as_declarer",
    "run_items",
    "warm_declarer",
]
