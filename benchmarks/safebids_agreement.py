"""How far a player's safe-bid tables agree with ``pimc``'s and stay under the open-card par.

Reads a ``thousand safebids --out DIR`` folder played with ``pimc``, ``par`` and the
players to check (for example ``--players strong,heuristic,pimc,par``) and prints, per
player, over every level of every marriage class (``curve_by_marriages.csv``):

* *within pimc*: the levels where the player's ``P(make L)`` lies inside ``pimc``'s
  95 % interval for the same class and level, of the levels both have;
* *above par*: the levels where the player's ``P(make L)`` is above the open-card par's
  (both sides seeing every card and playing best: a declarer who makes more there
  owes it to the defence's mistakes), for every player, ``pimc`` included.

Play the fast players on the same deals as the slow ones (``--deals`` equal to
``--sample``) so that every column counts the same hands. Issue notes quote it
(``strong`` against ``pimc``: the tables' player against the strongest); the tables
themselves are ``analysis.safebids``'s.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import polars as pl

KEYS = ["marriages", "level"]


def agreement(curve: pl.DataFrame, reference: str = "pimc", par: str = "par") -> pl.DataFrame:
    """Per player: levels within ``reference``'s interval and levels above the par's rate."""
    ref = curve.filter(pl.col("player") == reference).select(
        *KEYS, pl.col("ci_low").alias("ref_low"), pl.col("ci_high").alias("ref_high")
    )
    top = curve.filter(pl.col("player") == par).select(*KEYS, pl.col("rate").alias("par_rate"))
    rows = []
    for player in curve["player"].unique(maintain_order=True):
        if player == par:
            continue
        mine = curve.filter(pl.col("player") == player)
        both = mine.join(ref, on=KEYS)
        within = both.filter(pl.col("rate").is_between(pl.col("ref_low"), pl.col("ref_high")))
        over = mine.join(top, on=KEYS)
        above = over.filter(pl.col("rate") > pl.col("par_rate"))
        classes = both.group_by("marriages").agg(
            (pl.col("rate").is_between(pl.col("ref_low"), pl.col("ref_high"))).mean().alias("s")
        )
        rows.append(
            {
                "player": player,
                "hands": int(mine.group_by("marriages").agg(pl.col("n").first())["n"].sum()),
                "within_pimc": within.height,
                "levels_with_pimc": both.height,
                "worst_class_share": float(classes["s"].min()) if classes.height else None,
                "above_par": above.height,
                "levels_with_par": over.height,
            }
        )
    return pl.DataFrame(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path, help="a thousand safebids --out or report folder")
    args = ap.parse_args()
    name = "curve_by_marriages.csv"
    path = args.folder / name
    curve = pl.read_csv(path if path.exists() else args.folder / f"safebids_{name}")
    with pl.Config(tbl_rows=-1, tbl_cols=-1, tbl_width_chars=200):
        print(agreement(curve))


if __name__ == "__main__":
    main()
