"""The cards of played deals, as the solver needs them (from a traced hands batch).

:func:`deal_cards` reads a :class:`~sim.engine.api.HandsBatch` played with
``trace=True`` (every dealt attempt kept): the played attempt's hands and talon in
hand seats, the declarer, the cards it gave, the talon it took, the trump it named
and its contract. :func:`par_columns` solves each deal twice: after the discard the
declarer made (``par_total``) and with the best one (``par_best``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.engine.api import HandsBatch
from sim.engine.state import ROW
from sim.rules import Rules
from sim.solver.position import OpenCardSolver, Position, lays_away, play_state
from sim.solver.talon import after_discard, best_value


@dataclass(frozen=True)
class DealCards:
    """One played deal's cards and the declarer's choices (hand seats, card masks)."""

    hands: tuple[int, ...]  # the dealt hands
    talons: tuple[int, ...]  # the talon; two players: both talons
    declarer: int
    gives: tuple[int, ...]  # the cards given, clockwise from the declarer's left (or laid)
    talon: int  # which talon was taken (two players), else 0
    trump: int  # the trump named, -1 none
    contract: int
    conceded: bool
    lay: bool = False  # two players laying the two ``gives`` away (talon.two_players)

    def played_position(self) -> Position:
        """The play position the declarer's own discard left."""
        set_aside = self.talons[1 - self.talon] if len(self.talons) == 2 else 0
        return after_discard(
            self.hands,
            self.talons[self.talon],
            self.declarer,
            self.gives,
            self.trump,
            set_aside,
            self.lay,
        )


def deal_cards(batch: HandsBatch) -> list[DealCards]:
    """Every slot's played deal (a traced batch: ``play_hands(..., trace=True)``)."""
    if batch.dealt.shape[0] != len(batch) or batch.dealt.shape[1] < 2:
        raise ValueError("deal_cards needs a batch played with trace=True")
    players = batch.rules.players
    n = 2 if players == 2 else 3
    lay = lays_away(batch.rules)
    out = []
    for k in range(len(batch)):
        row = batch.out[k]
        places = [int(m) for m in batch.dealt[k, int(row[ROW["redeals"]])]]
        dealer = int(row[ROW["dealer"]])
        decl = int(row[ROW["declarer"]])
        hand_decl = (decl - dealer - 1) % 4 if players == 4 else decl
        gives = tuple(int(row[ROW[f"discard_{j}"]]) for j in range(1, 3 if lay else n))
        out.append(
            DealCards(
                hands=tuple(places[:n]),
                talons=tuple(places[n:]) if n == 2 else (places[3],),
                declarer=hand_decl,
                gives=gives,
                talon=max(int(row[ROW["talon_pick"]]), 0) if n == 2 else 0,
                trump=int(row[ROW["trump_named"]]),
                contract=int(row[ROW["contract"]]),
                conceded=bool(row[ROW["conceded"]]),
                lay=lay,
            )
        )
    return out


def par_columns(
    rules: Rules, cards: list[DealCards], best: bool = True, solver: OpenCardSolver | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``(par_total, par_best)`` of each deal (``par_best`` zeros unless ``best``).

    ``par_total``: the declarer's open-card total after its own discard (and trump
    name); ``par_best``: the best over every talon pick, discard and trump name. A
    bomb made no discard: both are the best (``par_best`` then even without ``best``).
    """
    solver = solver or OpenCardSolver()
    total = np.zeros(len(cards), dtype=np.int32)
    top = np.zeros(len(cards), dtype=np.int32)
    for i, d in enumerate(cards):
        if min(d.gives) < 0:  # a bomb (rospis.when = "talon"): thrown before any discard
            total[i] = top[i] = best_value(rules, d.hands, d.talons, d.declarer, -1, solver)
            continue
        pos = d.played_position()
        S, P = play_state(pos, rules)
        total[i] = pos.banked + solver.value(S, P)  # laid away: banked before the play
        if best:
            top[i] = best_value(rules, d.hands, d.talons, d.declarer, int(total[i]), solver)
    return total, top
