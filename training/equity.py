"""Fit the equity table of a rule set on whole games; check it on held-out games; ship it.

1. **the states**: every played deal of ``--games`` games of ``--seed``, ``--player``
   at every seat (:func:`sim.runs.equity.game_states`): each seat's score, barrel status
   and role before the deal, and who won the game;
2. **the fit**: :class:`analysis.equity.EquityModel` (``v = f(score) + b(barrel) +
   r(role)``, softmax over the seats, maximum likelihood), and the baseline of the own
   score alone (``terms=("score",)``);
3. **the check**: ``--holdout-games`` games of ``--holdout-seed``: log-loss and Brier
   score of the model, of the baseline and of ``1/players`` (:func:`analysis.equity.skill`),
   and the calibration table over every held-out row (standard errors over games) and
   over one row a game (:func:`analysis.equity.one_per_game`);
4. **write** the model to ``sim/data/equity/{rules}-{player}.npz`` (shipped with the
   package; :func:`sim.jobs.equity.equity_model` reads it), unless ``--dry-run``.

The same arguments give the same model (to the rounding of the sums)::

    python -m training.equity --rules classic --games 200000 --seed 1000 --holdout-seed 2000
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import polars as pl

from analysis.equity import EquityModel, calibration, one_per_game, skill
from sim.jobs.equity import shipped_path
from sim.players import DEFAULT
from sim.rules import load_rules
from sim.runs.equity import game_states


def report(model: EquityModel, baseline: EquityModel, holdout: object, seed: int) -> str:
    """The held-out check as text (the skill table, the two calibration tables)."""
    with pl.Config(tbl_rows=40, tbl_cols=20, float_precision=5, tbl_width_chars=200):
        lines = [
            "held out: log-loss and Brier score per deal (standard errors over games)",
            str(skill({"equity": model, "own score": baseline}, holdout)),
            "calibration, every held-out row (z: standard errors over games)",
            str(calibration(model, holdout)),
            f"calibration, one row a game (seed {seed})",
            str(calibration(model, one_per_game(holdout, seed))),
        ]
    return "\n".join(lines)


def weights(model: EquityModel) -> str:
    """The fitted weights as text."""
    f = " ".join(f"{k}:{v:+.3f}" for k, v in zip(model.knots, model.f, strict=True))
    b = " ".join(f"{v:+.3f}" for v in model.barrel)
    r = " ".join(f"{v:+.3f}" for v in model.role)
    return f"f (score: value) {f}\nb (off, on with 0, 1, ... deals) {b}\nr (by role) {r}"


def main(argv: list[str] | None = None) -> None:
    """Play, fit, check and write (the module's steps)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--player", default=DEFAULT, help="the player at every seat")
    ap.add_argument("--games", type=int, default=200_000, help="games fitted")
    ap.add_argument("--seed", type=int, default=1_000, help="the fitted games' seed")
    ap.add_argument("--holdout-games", type=int, default=20_000)
    ap.add_argument("--holdout-seed", type=int, default=2_000)
    ap.add_argument("--out", type=Path, help="default: sim/data/equity/{rules}-{player}.npz")
    ap.add_argument("--dry-run", action="store_true", help="fit and print, write nothing")
    args = ap.parse_args(argv)
    if args.holdout_seed == args.seed:
        ap.error("--holdout-seed must differ from --seed")
    rules = load_rules(args.rules)
    t0 = time.perf_counter()
    states = game_states(rules, args.player, args.games, args.seed)
    t1 = time.perf_counter()
    print(
        f"{args.games} games of seed {args.seed} ({states.unfinished} unfinished, left out): "
        f"{states.rows // rules.players} deals, played in {t1 - t0:.1f} s"
    )
    model = EquityModel.fit(states)
    t2 = time.perf_counter()
    baseline = EquityModel.fit(states, terms=("score",))
    print(f"fitted in {t2 - t1:.1f} s (the own-score baseline in {time.perf_counter() - t2:.1f} s)")
    print(weights(model))
    del states
    holdout = game_states(rules, args.player, args.holdout_games, args.holdout_seed)
    print(
        f"held out: {args.holdout_games} games of seed {args.holdout_seed} "
        f"({holdout.unfinished} unfinished, left out)"
    )
    print(report(model, baseline, holdout, args.holdout_seed))
    if not args.dry_run:
        out = args.out or shipped_path(rules, args.player)
        out.parent.mkdir(parents=True, exist_ok=True)
        model.save(out)
        print(f"wrote {out} (rules_hash {model.rules_hash}, engine {model.engine_version})")
    print(f"total {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
