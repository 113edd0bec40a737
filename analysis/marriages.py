"""Marriage frequencies by suit: held, in hand plus talon, and declared in play.

Three views of the same question, "how often does a marriage (K+Q of one suit)
come?", one row per view and suit in :func:`marriage_table`:

- ``hand``: forehand's dealt hand holds it (``hand.marriage.*`` of ``thousand
  odds``, exact value beside);
- ``hand_talon``: forehand's hand plus the talon hold it (``hand_talon.marriage.*``
  of ``thousand odds``, over the same deals), exact value beside;
- ``declared``: some player declared it in a deal that was played out (not
  redealt, not conceded), from ``declared_{seat}`` of a hands run. No closed form.

Every rate carries its 95 % Wilson interval. Suits are ``S C D H`` (card id =
suit * 6 + rank); ``any`` is at least one marriage of any suit; ``A`` is the ace
marriage (bit 16 of ``declared_{seat}``), listed only when the rules allow it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis.runs import read_manifest, scan_checked
from analysis.schema.report import MARRIAGES
from analysis.stats import rate_interval
from sim.cards import SUIT_LETTERS
from sim.schema import HANDS

ACE_MARRIAGE_BIT = 16  # declared_{seat}: bit 4 is the ace marriage (docs/rules.md §6)
COLUMNS = tuple(MARRIAGES.names())


def declared_counts(hands_dir: Path) -> tuple[int, dict[str, int]]:
    """Played-out deals of a hands run and, per suit, how many saw that marriage declared.

    Args:
        hands_dir: a ``thousand hands`` run folder (``hands.parquet``, ``run.json``).

    Returns:
        ``(played, hits)``: deals neither redealt nor conceded, and ``hits`` keyed
        ``S C D H any`` (plus ``A`` for the ace marriage when any was declared or the
        run's rules allow it).

    Raises:
        UsageError: a missing or unreadable ``hands.parquet`` or a missing column.
    """
    manifest = read_manifest(hands_dir)
    rules = manifest.get("rules") or {}
    players = int(rules.get("players", 3))
    seats = HANDS.seat_columns("declared", players)
    frame, _schema = scan_checked(
        hands_dir / "hands.parquet", [*HANDS.pick("reshuffled", "conceded"), *seats], "hands"
    )
    played = frame.filter(
        ~pl.col("reshuffled").cast(pl.Boolean) & ~pl.col("conceded").cast(pl.Boolean)
    )
    union = pl.lit(0, dtype=pl.Int64)
    for column in seats:
        union = union | pl.col(column).cast(pl.Int64).fill_null(0)
    bits = {**{s: 1 << i for i, s in enumerate(SUIT_LETTERS)}, "A": ACE_MARRIAGE_BIT}
    row = (
        played.select(union.alias("u"))
        .select(
            pl.len().cast(pl.Int64).alias("played"),
            *[((pl.col("u") & bit) != 0).sum().cast(pl.Int64).alias(k) for k, bit in bits.items()],
            ((pl.col("u") & 0b1111) != 0).sum().cast(pl.Int64).alias("any"),
        )
        .collect()
        .row(0, named=True)
    )
    hits = {k: int(row[k]) for k in (*SUIT_LETTERS, "any")}
    if row["A"] or rules.get("marriage.ace"):
        hits["A"] = int(row["A"])
    return int(row["played"]), hits


def marriage_table(
    odds: dict[str, Any], declared: tuple[int, dict[str, int]] | None = None
) -> pl.DataFrame:
    """One row per view (``where``) and suit: hits, n, rate, 95 % Wilson interval, exact.

    Args:
        odds: an ``odds --json`` document (``odds``, ``deals``;
            :meth:`analysis.odds.OddsResult.document`).
        declared: :func:`declared_counts` of a hands run, or None to leave it out.

    Returns:
        Columns ``where, suit, hits, n, rate, ci_low, ci_high, exact`` (``exact``
        null where there is no closed form).
    """
    deals = int(odds["deals"])
    rows: list[tuple[str, str, int, int, float | None]] = []
    for where in ("hand", "hand_talon"):
        for s in (*SUIT_LETTERS, "any"):
            key = f"{where}.any_marriage" if s == "any" else f"{where}.marriage.{s}"
            entry = odds["odds"][key]
            count = int(entry.get("hits", round(entry["estimate"] * deals)))
            rows.append((where, s, count, deals, entry["exact"]))
    if declared is not None:
        played, hits_by = declared
        for suit, count in hits_by.items():
            rows.append(("declared", suit, count, played, None))
    hits = np.array([r[2] for r in rows], dtype=np.float64)
    n = np.array([r[3] for r in rows], dtype=np.float64)
    rate, low, high = rate_interval(hits, n)
    return pl.DataFrame(
        {
            "where": [r[0] for r in rows],
            "suit": [r[1] for r in rows],
            "hits": [r[2] for r in rows],
            "n": [r[3] for r in rows],
            "rate": rate,
            "ci_low": low,
            "ci_high": high,
            "exact": [r[4] for r in rows],
        },
        schema=MARRIAGES.polars_schema(),
    ).with_columns(pl.col(pl.Float64).fill_nan(None))
