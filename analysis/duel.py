"""Statistics of a strategy duel in duplicate format: its tables and ``duel --json``.

A duel (:func:`sim.runs.duel.duel_hands`, :func:`sim.runs.duel.duel_games`) hands over the
paired score differences per deal or game and the tallies of each seat of A;
:func:`duel_result` computes from them

* ``hands``: the mean score difference per deal with a normal 95 % interval over
  deals (deals are independent), A's and B's declare, make and concede rates with
  Wilson intervals and their mean contracts;
* ``games``: A's win rate over the finished rotations against the fair share
  ``1 / players`` (Wilson interval; unfinished games counted apart, not as losses),
  the final score difference A minus the mean of the B seats, the unfinished rate.

:func:`duel_json` is the ``duel --json`` document (the tables' data keep their
English code names and meanings); the Markdown report in the current language and
the folder of ``duel_summary.csv``, ``duel_seats.csv``, ``duel.md`` and ``duel.json``
are :mod:`views.duel`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import polars as pl

from analysis import glossary
from analysis.schema.duel import DUEL_SEATS, DUEL_SPLIT, DUEL_SUMMARY
from analysis.stats import Z95, wilson_interval
from analysis.tables import tables_json
from sim.marks import N_
from sim.rules import Rules
from sim.schema.runs import DUEL_DECISIONS

# The meanings of :data:`analysis.glossary.DIFFERENCES`, marked for the catalogues:
# the summary table shows every measure's meaning translated.
_DIFFERENCE_WORDS = (
    N_("points per deal: A's seat with A there − with B"),
    N_(
        "points per deal: A's seat minus the mean of the other seats, with A there − with B "
        "(a better defence counts)"
    ),
)


class Side(Protocol):
    """A contestant as the statistics see it (:class:`sim.runs.duel.Contestant` is one)."""

    @property
    def label(self) -> str:
        """The strategy and the settings that differ from its defaults."""

    def to_json(self) -> dict[str, Any]:
        """``{"strategy", "params", "label"}``."""


class DuelPlay(Protocol):
    """A duel as played (:class:`sim.runs.duel.DuelRun` is one, documented there)."""

    @property
    def format(self) -> str:
        """``"hands"`` or ``"games"``."""

    @property
    def rules(self) -> Rules:
        """The house rules."""

    @property
    def a(self) -> Side:
        """Contestant A."""

    @property
    def b(self) -> Side:
        """Contestant B."""

    @property
    def size(self) -> int:
        """Deals or games per rotation."""

    @property
    def seed(self) -> int:
        """The run's seed."""

    @property
    def first_dealer(self) -> int | None:
        """The fixed first dealer, or None."""

    @property
    def items(self) -> pl.DataFrame:
        """One row per deal or game with the paired score differences."""

    @property
    def tallies(self) -> pl.DataFrame:
        """One row per seat of A with its counts."""

    @property
    def a_contracts(self) -> np.ndarray:
        """Hands: A's contracts, by seat of A then deal."""

    @property
    def b_contracts(self) -> np.ndarray:
        """Hands: the contracts with B everywhere, by deal."""


@dataclass(frozen=True)
class DuelResult:
    """A duel and its statistics.

    Attributes:
        run: the duel as played.
        summary: one row per measure, the columns of ``duel_summary.csv``
            (:data:`analysis.schema.duel.DUEL_SUMMARY`).
        seats: one row per seat of A, the columns of ``duel_seats.csv`` for the format.
        split: hands: one row per decision, the columns of ``duel_split.csv``
            (:func:`decision_split`); None for games or a duel run before it existed.
    """

    run: DuelPlay
    summary: pl.DataFrame
    seats: pl.DataFrame
    split: pl.DataFrame | None = None

    @property
    def format(self) -> str:
        """``"hands"`` or ``"games"``."""
        return self.run.format

    @property
    def items(self) -> pl.DataFrame:
        """One row per deal or game with the paired score differences."""
        return self.run.items

    def measure(self, name: str) -> dict[str, Any]:
        """The summary row of one measure as a dict.

        Raises:
            KeyError: when there is no such measure.
        """
        rows = self.summary.filter(pl.col("measure") == name)
        if rows.is_empty():
            raise KeyError(name)
        return rows.row(0, named=True)


# --- statistics ------------------------------------------------------------------------
def _num(x: Any) -> float | None:
    v = float(x)
    return v if np.isfinite(v) else None


def _rate(hits: int, n: int) -> float | None:
    return hits / n if n else None


def mean_interval(values: np.ndarray) -> tuple[float | None, float | None, float | None]:
    """Mean and its 95 % normal interval ``mean ± z·sd/√n`` (None where undefined)."""
    n = len(values)
    if n == 0:
        return None, None, None
    m = float(values.mean())
    if n < 2:
        return m, None, None
    half = Z95 * float(values.std(ddof=1)) / np.sqrt(n)
    return m, m - half, m + half


def _row(
    measure: str,
    value: float | None,
    lo: float | None,
    hi: float | None,
    n: int,
    reference: float | None,
    meaning: str,
) -> dict[str, Any]:
    difference = excludes = None
    if reference is not None and value is not None:
        difference = value - reference
        if lo is not None and hi is not None:
            excludes = not lo <= reference <= hi
    return {
        "measure": measure,
        "value": value,
        "ci_low": lo,
        "ci_high": hi,
        "n": n,
        "reference": reference,
        "difference": difference,
        "excludes_reference": excludes,
        "meaning": meaning,
    }


def _rate_row(
    measure: str, hits: int, n: int, reference: float | None, meaning: str
) -> dict[str, Any]:
    lo, hi = wilson_interval(hits, n)
    return _row(measure, _rate(hits, n), _num(lo), _num(hi), n, reference, meaning)


def _mean_row(
    measure: str, values: np.ndarray, reference: float | None, meaning: str
) -> dict[str, Any]:
    m, lo, hi = mean_interval(np.asarray(values, dtype=np.float64))
    return _row(measure, m, lo, hi, len(values), reference, meaning)


def _summary(rows: list[dict[str, Any]]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=DUEL_SUMMARY.polars_schema())


def _seats(rows: list[dict[str, Any]]) -> pl.DataFrame:
    dtypes = DUEL_SEATS.polars_schema()
    return pl.DataFrame(rows, schema={k: dtypes[k] for k in rows[0]})


def _seat_differences(run: DuelPlay, column: str = "score_diff") -> np.ndarray:
    """The ``(items, players)`` matrix of a difference (``column_{s}``) by seat of A."""
    players = run.rules.players
    return np.stack([run.items[f"{column}_{s}"].to_numpy() for s in range(players)], axis=1).astype(
        np.float64
    )


def decision_split(run: DuelPlay) -> pl.DataFrame | None:
    """The duel's difference split by the first decision that differs (hands duels).

    Each seat-deal's difference (the seat's score, and its margin, with A there minus
    with B) is put down to the first decision where the two deals part
    (``duel_deals.parquet``'s ``decision_{s}``, :data:`sim.schema.runs.DUEL_DECISIONS`); a
    decision's part is the mean over deals of those seat-deals' differences divided by
    the seats, so the parts add up to the duel's difference, each with a normal 95 %
    interval over deals. None where the items carry no decisions.
    """
    players = run.rules.players
    if run.format != "hands" or f"decision_{players - 1}" not in run.items.columns:
        return None
    diff = _seat_differences(run)
    margin = _seat_differences(run, "margin_diff")
    kind = np.stack([run.items[f"decision_{s}"].to_numpy() for s in range(players)], axis=1)
    rows = []
    for name in DUEL_DECISIONS:
        hit = kind == name
        m, lo, hi = mean_interval((diff * hit).sum(axis=1) / players)
        mm, mlo, mhi = mean_interval((margin * hit).sum(axis=1) / players)
        n = int(hit.sum())
        rows.append(
            {
                "decision": name,
                "seat_deals": n,
                "score_diff": m,
                "ci_low": lo,
                "ci_high": hi,
                "margin_diff": mm,
                "margin_ci_low": mlo,
                "margin_ci_high": mhi,
                "margin_per_seat_deal": float(margin[hit].mean()) if n else None,
            }
        )
    return pl.DataFrame(rows, schema=DUEL_SPLIT.polars_schema())


def _hands_result(run: DuelPlay) -> DuelResult:
    players = run.rules.players
    diff = _seat_differences(run)
    margin = _seat_differences(run, "margin_diff")
    t = run.tallies
    seat_rows = []
    for s in range(players):
        m, lo, hi = mean_interval(diff[:, s])
        mm, mlo, mhi = mean_interval(margin[:, s])
        ad, am = int(t["a_declared"][s]), int(t["a_made"][s])
        bd, bm = int(t["b_declared"][s]), int(t["b_made"][s])
        (a_lo, b_lo), (a_hi, b_hi) = wilson_interval([am, bm], [ad, bd])
        seat_rows.append(
            {
                "seat": s,
                "score_diff": m,
                "ci_low": lo,
                "ci_high": hi,
                "a_declared": ad,
                "a_made": am,
                "a_make_rate": _rate(am, ad),
                "a_ci_low": _num(a_lo),
                "a_ci_high": _num(a_hi),
                "b_declared": bd,
                "b_made": bm,
                "b_make_rate": _rate(bm, bd),
                "b_ci_low": _num(b_lo),
                "b_ci_high": _num(b_hi),
                "margin_diff": mm,
                "margin_ci_low": mlo,
                "margin_ci_high": mhi,
            }
        )
    seats_n = run.size * players
    a_declared, a_made, a_conceded = (
        int(t[c].sum()) for c in ("a_declared", "a_made", "a_conceded")
    )
    b_declared, b_made, b_conceded = (
        int(t[c].sum()) for c in ("b_declared", "b_made", "b_conceded")
    )
    per_deal = run.items["score_diff"].to_numpy()
    rows = [
        _mean_row("score_diff", per_deal, 0.0, glossary.DIFFERENCES["score_diff"]),
        _mean_row(
            "margin_diff",
            run.items["margin_diff"].to_numpy(),
            0.0,
            glossary.DIFFERENCES["margin_diff"],
        ),
        _rate_row(
            "a_declare_rate", a_declared, seats_n, None, N_("share of A's seat-deals A declared")
        ),
        _rate_row(
            "b_declare_rate", b_declared, seats_n, None, N_("the same seat-deals declared by B")
        ),
        _rate_row(
            "a_make_rate",
            a_made,
            a_declared,
            None,
            glossary.meaning("duel", "a_make_rate", "A"),
        ),
        _rate_row(
            "b_make_rate",
            b_made,
            b_declared,
            None,
            glossary.meaning("duel", "b_make_rate", "B"),
        ),
        _rate_row(
            "a_concede_rate",
            a_conceded,
            a_declared,
            None,
            glossary.meaning("duel", "a_concede_rate", "A"),
        ),
        _rate_row(
            "b_concede_rate",
            b_conceded,
            b_declared,
            None,
            glossary.meaning("duel", "b_concede_rate", "B"),
        ),
        _mean_row("a_mean_contract", run.a_contracts, None, N_("A's mean contract")),
        _mean_row("b_mean_contract", run.b_contracts, None, N_("B's mean contract")),
    ]
    return DuelResult(run, _summary(rows), _seats(seat_rows), decision_split(run))


def _games_result(run: DuelPlay) -> DuelResult:
    players = run.rules.players
    diff = _seat_differences(run)
    t = run.tallies
    seat_rows = []
    for s in range(players):
        w, f = int(t["a_wins"][s]), int(t["finished"][s])
        lo, hi = wilson_interval(w, f)
        m, mlo, mhi = mean_interval(diff[:, s])
        seat_rows.append(
            {
                "seat": s,
                "games": int(t["games"][s]),
                "finished": f,
                "a_wins": w,
                "a_win_rate": _rate(w, f),
                "ci_low": _num(lo),
                "ci_high": _num(hi),
                "score_diff": m,
                "score_ci_low": mlo,
                "score_ci_high": mhi,
            }
        )
    wins, finished = int(t["a_wins"].sum()), int(t["finished"].sum())
    rows = [
        _rate_row(
            "a_win_rate",
            wins,
            finished,
            1.0 / players,
            N_("A's wins / finished games, all seats of A (fair share 1/players)"),
        ),
        _mean_row(
            "score_diff",
            run.items["score_diff"].to_numpy(),
            0.0,
            N_("final score: A − mean of the B seats, per game"),
        ),
        _rate_row(
            "unfinished_rate",
            run.size * players - finished,
            run.size * players,
            None,
            N_("games without a winner (not counted as losses)"),
        ),
    ]
    return DuelResult(run, _summary(rows), _seats(seat_rows))


def duel_result(run: DuelPlay) -> DuelResult:
    """The statistics of a duel: the summary measures and the table by seat of A."""
    return _hands_result(run) if run.format == "hands" else _games_result(run)


# --- documents ---------------------------------------------------------------------------
def duel_json(result: DuelResult) -> dict[str, Any]:
    """The ``duel --json`` document (JSON-safe: no NaN)."""
    run = result.run
    measures = {
        row["measure"]: {k: v for k, v in row.items() if k != "measure"}
        for row in tables_json({"s": result.summary})["s"]
    }
    doc: dict[str, Any] = {
        "command": "duel",
        "format": run.format,
        "rules": run.rules.name,
        "rules_hash": run.rules.rules_hash,
        "players": run.rules.players,
        "seed": run.seed,
        ("deals" if run.format == "hands" else "games"): run.size,
        "a": run.a.to_json(),
        "b": run.b.to_json(),
        "measures": measures,
        "seats": tables_json({"s": result.seats})["s"],
    }
    if run.format == "games":
        doc["first_dealer"] = run.first_dealer
    if result.split is not None:
        doc["split"] = tables_json({"s": result.split})["s"]
    return doc
