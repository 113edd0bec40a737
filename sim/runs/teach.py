"""The teacher's data: decisions of played deals, every choice valued by the search.

A ``teach`` run plays deals ``0 .. N-1`` of a seed with one player at every seat and,
at each decision of the asked kinds, asks the open-card search what every choice is
worth over the worlds ``pimc`` would sample there (:mod:`sim.engine.strategies.pimc.labels`,
:func:`~sim.engine.strategies.pimc.discard.discard_scores`):

* ``contract``: each contract's expected deal score, and each world's highest contract;
* ``bid``: the value of winning the auction at each level, and each world's highest
  contract with this seat as the declarer;
* ``discard``: each candidate card's expected deal score;
* ``play``: per legal card (or declaring lead), in how many worlds the declarer still
  reaches the contract;
* ``outcome``: no search: at the contract decision, the declarer's deal total when the
  dealt deal is played on by the player at every seat with no concession (one world,
  the real one: which contracts the player's own play makes from such a hand).

Each kind is one Parquet file (columns: :data:`sim.schema.runs.TEACH_TABLES`,
``docs/data.md``), rows in deal order; chunks of deals run on the runner's workers or
Dask cluster (:mod:`sim.batch.runner`), are kept for ``--resume``, and give the same
files whatever the workers. The learned players are fitted on these files.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from sim.batch.runner import Chunk, Destination, frame_part, json_part, run_to
from sim.rules import Rules

KINDS = ("contract", "bid", "discard", "play", "outcome")
"""The decisions the teacher labels, in the order of their files."""
CHUNK = 20  # deals per chunk: a few seconds of search
ARENA_BITS = 18  # the solver's table (results do not depend on it, only the speed)


@dataclass(frozen=True, kw_only=True)
class TeachJob:
    """What a worker needs to label a chunk of deals (pickled to it).

    Attributes:
        rules: the house rules.
        seed: the run's seed (the deals, and every seat's random stream).
        player: the player at every seat, whose decisions are labelled.
        params: its ``STRATEGY.NAME=VALUE`` settings.
        worlds: the sampled worlds of every label.
        kinds: the decisions labelled (of :data:`KINDS`).
    """

    rules: Rules
    seed: int
    player: str
    params: tuple[str, ...]
    worlds: int
    kinds: tuple[str, ...]


def _stream(seed: int) -> int:
    """The first deal's random stream of run ``seed`` (deal ``k`` plays on this plus ``k``)."""
    return seed * 1_000_003


def _frames(rows: dict[str, dict[str, list[Any]]]) -> dict[str, pl.DataFrame]:
    """The collected rows as frames typed as :data:`sim.schema.runs.TEACH_TABLES` declares."""
    from sim.schema.runs import TEACH_TABLES

    out = {}
    for table in TEACH_TABLES:
        kind = table.file.removesuffix(".parquet")
        if kind not in rows:
            continue
        out[kind] = pl.DataFrame(rows[kind], schema=table.polars_schema())
    return out


def label_chunk(job: TeachJob, chunk: Chunk) -> dict[str, bytes]:
    """Deals ``chunk.start ..`` of the run: one Parquet part per kind, and the counts."""
    from sim.engine import decision_snapshots
    from sim.engine.actions import Decision
    from sim.engine.api import played_outcomes
    from sim.engine.arena import MAX_WORLDS, arena_size
    from sim.engine.params import P_STEP, rules_vector
    from sim.engine.state import (
        N_STATE,
        S_CONTRACT,
        S_DEALER,
        S_DECL,
        S_TRICK_NO,
        SNAP_KIND,
        SNAP_LEGAL,
        SNAP_N,
        SNAP_SEAT,
    )
    from sim.engine.strategies.pimc.discard import discard_scores
    from sim.engine.strategies.pimc.labels import bid_reached, contract_reached, play_made
    from sim.engine.strategies.registry import parse_params

    rules = job.rules
    P = rules_vector(rules)
    step = int(P[P_STEP])
    worlds = [f"pimc.worlds={job.worlds}", f"pimc.discard_worlds={job.worlds}"]
    params = parse_params(["pimc"], worlds)[0]
    arena = np.zeros(arena_size(ARENA_BITS), dtype=np.int64)
    reached = np.empty(MAX_WORLDS, dtype=np.int64)
    codes = np.empty(64, dtype=np.int64)
    made = np.empty(64, dtype=np.int64)
    scores = np.empty(24, dtype=np.float64)
    wanted = {
        "contract": Decision.CONTRACT,
        "bid": Decision.BID,
        "discard": Decision.DISCARD,
        "play": Decision.PLAY,
    }
    kinds = {int(wanted[k]): k for k in job.kinds if k != "outcome"}
    rows: dict[str, dict[str, list[Any]]] = {k: {} for k in job.kinds}
    seconds = dict.fromkeys(job.kinds, 0.0)

    def add(kind: str, **cols: Any) -> None:
        for name, value in cols.items():
            rows[kind].setdefault(name, []).append(value)

    players = (job.player,) * rules.players
    if "outcome" in job.kinds:
        t0 = time.perf_counter()
        for deal, snap, trace in played_outcomes(
            rules, chunk.n, job.seed, players, _stream(job.seed), start=chunk.start,
            params=job.params,
        ):  # fmt: skip
            S = snap[:N_STATE]
            decl = trace["declarer"]  # a table seat, as the state's
            add("outcome", deal=deal, dealer=int(S[S_DEALER]), seat=int(snap[SNAP_SEAT]),
                state=S.tolist(), worlds=1, lo=int(snap[SNAP_LEGAL]), step=step,
                levels=int(snap[SNAP_N]), contract=trace["contract"],
                total=trace["card_points"][decl] + trace["marriage_points"][decl])  # fmt: skip
        seconds["outcome"] += time.perf_counter() - t0
    snaps = decision_snapshots(
        rules, chunk.n, job.seed, players, kinds, _stream(job.seed),
        start=chunk.start, params=job.params,
    ) if kinds else iter(())  # fmt: skip
    for deal, snap in snaps:
        kind = kinds[int(snap[SNAP_KIND])]
        S = snap[:N_STATE].copy()
        seat = int(snap[SNAP_SEAT])
        n = int(snap[SNAP_N])
        legal = snap[SNAP_LEGAL : SNAP_LEGAL + n]
        head = {
            "deal": deal,
            "dealer": int(S[S_DEALER]),
            "seat": seat,
            "state": snap[:N_STATE].tolist(),
            "worlds": job.worlds,
        }
        t0 = time.perf_counter()
        if kind == "contract":
            lo = int(legal[0])
            w = contract_reached(S, P, arena, lo, n, params, reached)
            r = reached[:w]
            p = (r[:, None] >= np.arange(n)[None, :]).mean(axis=0)
            value = (lo + step * np.arange(n)) * (2 * p - 1)
            pick = lo + step * int(np.argmax(value))
            add(kind, **head, lo=lo, step=step, levels=n, reached=r.tolist(),
                value=value.tolist(), pimc=pick)  # fmt: skip
        elif kind == "bid":
            raises = legal[legal > 0]
            if len(raises) == 0:
                continue
            lo = int(raises[0])
            w = bid_reached(S, P, arena, seat, lo, params, reached)
            r = reached[:w]
            k = np.arange(max(int(r.max()) + 1, 1))
            level = lo + step * k
            best = np.where(r >= 0, lo + step * r, 0)
            value = np.where(r[:, None] >= k[None, :], best[:, None], -level[None, :]).mean(axis=0)
            add(kind, **head, lo=lo, step=step, reached=r.tolist(), value=value.tolist())
        elif kind == "discard":
            m = discard_scores(S, P, arena, params, codes, scores)
            order = codes[:m].tolist()
            add(kind, **head, cards=order, score=scores[:m].tolist(),
                pimc=order[int(np.argmax(scores[:m]))])  # fmt: skip
        else:
            m = play_made(seat, S, P, arena, params, codes, made)
            if m == 0:
                continue
            add(kind, **head, declarer=seat == int(S[S_DECL]), trick=int(S[S_TRICK_NO]),
                contract=int(S[S_CONTRACT]), codes=codes[:m].tolist(),
                made=made[:m].tolist())  # fmt: skip
        seconds[kind] += time.perf_counter() - t0
    frames = _frames(rows)
    out = {f"{k}.parquet": frame_part(frames[k]) for k in job.kinds}
    counts = {"deals": chunk.n, "decisions": {k: len(frames[k]) for k in job.kinds},
              "seconds": seconds}  # fmt: skip
    out["counts.json"] = json_part(counts)
    return out


def run_teach(job: TeachJob, deals: int, to: Destination) -> dict[str, Any]:
    """Label the decisions of ``deals`` deals into ``to.out_dir``: ``KIND.parquet`` per kind.

    Returns the run's counts: ``deals``, ``decisions`` and ``seconds`` (of search, per
    kind, summed over the workers), ``chunks``.
    """
    parts = run_to(label_chunk, job, deals, to, CHUNK,
                   parquet=[f"{k}.parquet" for k in job.kinds])  # fmt: skip
    decisions = {k: sum(p["decisions"][k] for p in parts) for k in job.kinds}
    seconds = {k: sum(p["seconds"][k] for p in parts) for k in job.kinds}
    return {"deals": deals, "decisions": decisions, "seconds": seconds, "chunks": len(parts)}


def check_kinds(kinds: Sequence[str]) -> tuple[str, ...]:
    """The kinds asked for, in :data:`KINDS` order.

    Raises:
        ValueError: an unknown kind, or none.
    """
    unknown = [k for k in kinds if k not in KINDS]
    if unknown or not kinds:
        raise ValueError(f"kinds must be some of {', '.join(KINDS)}, got {','.join(kinds)!r}")
    return tuple(k for k in KINDS if k in kinds)


__all__ = ["CHUNK", "KINDS", "TeachJob", "check_kinds", "label_chunk", "run_teach"]
