"""Two versions of a player, paired on the same deals: two duels' folders compared.

``thousand duel`` plays A against B in duplicate; two such duels on the same rules,
seed and deals, with the same B and two versions of A (two commits of the code, or two
settings), see every deal alike except for A's own choices. The paired difference of
their per-deal scores (``duel_deals.parquet``: ``score_diff`` and ``margin_diff``, each
already A minus B) is then the new A minus the old A on those deals, seat for seat, with
the other seats' play the same: a duel between two versions that cannot run in one
process. Printed: the mean per deal with its 95 % interval (normal, the deals being
independent: :func:`analysis.duel.mean_interval`, as the duel's own), and how many
deals differ at all.

    python benchmarks/paired_duels.py OLD_DIR NEW_DIR
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import polars as pl

from analysis.duel import mean_interval

COLUMNS = ("score_diff", "margin_diff")


def paired(old: Path, new: Path) -> dict[str, object]:
    """The paired difference ``new - old`` of two duels' per-deal scores."""
    runs = [json.loads((d / "run.json").read_text()) for d in (old, new)]
    for k in ("rules_hash", "seed", "sizes", "format", "b", "first_dealer"):
        a, b = (r.get(k) for r in runs)
        if a != b:
            raise ValueError(f"the duels differ in {k!r} ({a!r} vs {b!r})")
    frames = [pl.read_parquet(d / "duel_deals.parquet") for d in (old, new)]
    joined = frames[0].join(frames[1], on="deal_id", suffix="_new")
    out: dict[str, object] = {"deals": joined.height}
    for col in COLUMNS:
        if f"{col}_new" not in joined.columns:
            continue  # a duel from before the column existed
        mean, low, high = mean_interval((joined[f"{col}_new"] - joined[col]).to_numpy())
        out[col] = {"mean": mean, "low": low, "high": high}
    out["deals_differing"] = int((joined["score_diff_new"] != joined["score_diff"]).sum())
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    args = ap.parse_args()
    for d in (args.old, args.new):
        if not (d / "duel_deals.parquet").is_file():
            print(f"paired_duels: {d} holds no duel_deals.parquet", file=sys.stderr)
            sys.exit(2)
    try:
        out = paired(args.old, args.new)
    except ValueError as e:
        print(f"paired_duels: {e}", file=sys.stderr)
        sys.exit(2)
    print(f"{out['deals']} deals, {out['deals_differing']} with a different score")
    for col in COLUMNS:
        if col not in out:
            continue
        s = out[col]
        assert isinstance(s, dict)
        print(f"new - old {col}: {s['mean']:+.2f} [{s['low']:+.2f}, {s['high']:+.2f}] per deal")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
