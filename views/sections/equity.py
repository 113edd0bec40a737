"""The report's equity section: each seat's chance to win the game from the scores.

The table the advisor reads when a game score is given (``thousand advise --score``):
:class:`analysis.equity.EquityModel`, fitted on whole games of the tables' player, and
its check on games it was not fitted on (:func:`analysis.equity.calibration`,
:func:`analysis.equity.skill`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from analysis.equity import EquityModel, calibration, one_per_game, skill
from sim.i18n import N_, _, number, role
from sim.rules import Rules
from views.pages import Section, Text

OWN_SCORES = (-120, 0, 200, 400, 600, 760)
"""The rows of the shown table: the seat's score before the deal (then the barrel)."""
OTHERS = (0, 300, 600)
"""Its columns: both other seats at this score."""
OTHERS_WORDS = {0: N_("others at 0"), 300: N_("others at 300"), 600: N_("others at 600")}


def equity_table(model: EquityModel, rules: Rules) -> pl.DataFrame:
    """The chance to win of a seat before a deal, by its score and the others' (both alike).

    Averaged over the seat's role in the coming deal (forehand, middle, dealer: they
    differ by at most two points of percentage). A last row is the seat on the barrel
    before its first deal there, the others below it. Columns: ``own`` (the seat's
    score), ``on_barrel``, then ``others_S`` per score of :data:`OTHERS`.
    """
    n = model.players
    rows: list[dict[str, Any]] = []
    at = rules.barrel.at
    cases = [(s, False) for s in OWN_SCORES if not at or s < at]
    if at:
        cases.append((at, True))
    for own, on in cases:
        row: dict[str, Any] = {"own": own, "on_barrel": on}
        for other in OTHERS:
            scores = np.array([[own] + [min(other, at - 1) if at else other] * (n - 1)])
            barrel = np.array([[0 if on else -1] + [-1] * (n - 1)])
            chance = np.mean(
                [model.win_chance(scores, barrel, np.array([d]))[0, 0] for d in range(n)]
            )
            row[f"others_{other}"] = float(chance)
        rows.append(row)
    return pl.DataFrame(rows)


def equity_section(model: EquityModel, held_out: Any, rules: Rules, seed: int) -> Section:
    """The section: the table, and how well it predicted games it was not fitted on.

    ``held_out``: states of games played apart (:func:`sim.runs.equity.game_states`, seed
    ``seed``), one deal drawn per game for the calibration (:func:`one_per_game`).
    """
    sec = Section("equity", _("The chance to win from the scores"))
    games = int(np.unique(np.asarray(held_out["game"])).shape[0])
    sec.blocks.append(
        Text(
            _(
                "Each seat's chance to win the game before a deal, from the scores, the "
                "barrel and the coming deal's seats, fitted on {games} games of `{player}` at "
                "every seat (seeds {seeds}): what the advisor reads when a game score is "
                "given (`thousand advise --score`). Checked here on {held} games it was not "
                "fitted on (seed {seed}): one deal drawn a game, the predicted chance against "
                "the share won, with its 95 % interval."
            ).format(
                games=number(model.games),
                player=model.player,
                seeds=", ".join(str(s) for s in model.seeds),
                held=number(games),
                seed=seed,
            )
        )
    )
    table = equity_table(model, rules)
    shown = pl.DataFrame(
        {
            N_("your score"): [
                _("{score}, on the barrel").format(score=r["own"])
                if r["on_barrel"]
                else str(r["own"])
                for r in table.iter_rows(named=True)
            ],
            **{OTHERS_WORDS[o]: [f"{v:.0%}" for v in table[f"others_{o}"]] for o in OTHERS},
        }
    )
    sec.add_table(
        _("Your chance to win the game before a deal"),
        _(
            "Both other seats at the score of the column (at most one seat sits on the barrel);"
            " the mean over your seat in the coming deal ({seats})."
        ).format(
            seats=" / ".join(role(s) for s in ("forehand", "middle", "dealer")[: model.players])
        ),
        shown,
        "equity_table.csv",
        table,
    )
    cal = calibration(model, one_per_game(held_out, seed))
    shown_cal = pl.DataFrame(
        {
            N_("predicted"): [
                f"{a:.0%}–{b:.0%}" for a, b in zip(cal["p_low"], cal["p_high"], strict=True)
            ],
            N_("deals"): [number(int(k)) for k in cal["rows"]],
            N_("predicted, mean"): [f"{p:.1%}" for p in cal["predicted"]],
            N_("won [95 % CI]"): [
                f"{o:.1%} [{lo:.1%}, {hi:.1%}]"
                for o, lo, hi in zip(cal["observed"], cal["low"], cal["high"], strict=True)
            ],
        }
    )
    sec.add_table(
        _("Predicted against won, on games not fitted on"),
        "",
        shown_cal,
        "equity_calibration.csv",
        cal,
    )
    scores = skill({"equity": model}, held_out)
    row = scores.filter(pl.col("model") == "equity").row(0, named=True)
    base = scores.row(0, named=True)
    sec.blocks.append(
        Text(
            _(
                "Over every deal of those games: log-loss {ll} (a chance of {uniform} for every "
                "seat: {ll0}), Brier score {br} ({br0})."
            ).format(
                ll=f"{row['log_loss']:.3f}",
                ll0=f"{base['log_loss']:.3f}",
                br=f"{row['brier']:.3f}",
                br0=f"{base['brier']:.3f}",
                uniform=f"1/{model.players}",
            )
        )
    )
    return sec


__all__ = ["OTHERS", "OWN_SCORES", "equity_section", "equity_table"]
