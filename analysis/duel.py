"""Statistics of a strategy duel in duplicate format, and its tables and documents.

A duel (:func:`sim.runs.duel.duel_hands`, :func:`sim.runs.duel.duel_games`) hands over the
paired score differences per deal or game and the tallies of each seat of A;
:func:`duel_result` computes from them

* ``hands``: the mean score difference per deal with a normal 95 % interval over
  deals (deals are independent), A's and B's declare, make and concede rates with
  Wilson intervals and their mean contracts;
* ``games``: A's win rate over the finished rotations against the fair share
  ``1 / players`` (Wilson interval; unfinished games counted apart, not as losses),
  the final score difference A minus the mean of the B seats, the unfinished rate.

:func:`duel_json` and :func:`duel_markdown` are the ``duel --json`` document and the
Markdown report (in the current language, :mod:`sim.i18n`; the tables' data keep
their English code names and meanings), :func:`write_duel_tables` writes
``duel_summary.csv``, ``duel_seats.csv``, ``duel.md`` and ``duel.json``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import polars as pl

from analysis import glossary
from analysis.schema.duel import DUEL_SEATS, DUEL_SPLIT, DUEL_SUMMARY
from analysis.stats import Z95, wilson_interval
from analysis.tables import tables_json, to_markdown
from sim.i18n import N_, _, interval_separator, number
from sim.output import write_json
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


DECISION_WORDS = {
    "none": N_("nothing differs, or A's choices changed nothing"),
    "reshuffle": N_("a reshuffle demanded or not"),
    "auction": N_("the auction (A's bids, who declares, the winning bid)"),
    "discard": N_("A declaring: the cards given away"),
    "trump": N_("A declaring: the trump named"),
    "contract_lower": N_("A declaring: a lower contract named"),
    "contract_higher": N_("A declaring: a higher contract named"),
    "concession": N_("A declaring: conceding or not"),
    "declarer_play": N_("A declaring: the card play"),
    "defence": N_("A defending: the card play"),
}
"""Each of :data:`sim.schema.runs.DUEL_DECISIONS` in words (shown translated)."""


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


def _fixed(v: float | None, places: int, sign: bool = False) -> str:
    """``v`` with ``places`` decimals as the current language writes it (``—``: none)."""
    if v is None:
        return "—"
    return ("+" if sign and v >= 0 else "") + number(v, places)


def _interval(
    v: float | None, low: float | None, high: float | None, places: int, sign: bool = False
) -> str:
    """``v [low, high]`` (``[low; high]`` where the decimal mark is a comma)."""
    if low is None or high is None:
        return _fixed(v, places, sign)
    sep = interval_separator()
    return (
        f"{_fixed(v, places, sign)} [{_fixed(low, places, sign)}{sep}{_fixed(high, places, sign)}]"
    )


def _places(measure: str) -> int:
    """Decimals of a measure as shown: four for a rate, two for points."""
    return 4 if measure.endswith("_rate") else 2


def _verdict(result: DuelResult) -> str:
    """One sentence on the headline measure."""
    m = result.measure("score_diff")
    lo, hi = m["ci_low"], m["ci_high"]
    hands = result.format == "hands"
    if lo is None or hi is None:
        text = (
            _("Score difference A − B per deal: {value} (too few deals for an interval)")
            if hands
            else _(
                "Score difference A − B per game (final score): {value} "
                "(too few games for an interval)"
            )
        )
        return text.format(value=_fixed(m["value"], 2, sign=True)) + "."
    score = _interval(m["value"], lo, hi, 2, sign=True)
    if not hands:
        text = _("Score difference A − B per game (final score): {score}").format(score=score)
        w = result.measure("a_win_rate")
        if w["value"] is not None:
            rate = _interval(w["value"], w["ci_low"], w["ci_high"], 4)
            against = (
                _(
                    "; A's win rate {rate} against the fair share {fair} "
                    "({difference}, the interval excludes it)"
                )
                if w["excludes_reference"]
                else _(
                    "; A's win rate {rate} against the fair share {fair} "
                    "({difference}, compatible with it)"
                )
            )
            text += against.format(
                rate=rate,
                fair=_fixed(w["reference"], 4),
                difference=_fixed(w["difference"], 4, sign=True),
            )
        return text + "."
    text = _("Score difference A − B per deal: {score} — {verdict}").format(
        score=score, verdict=_against_zero(m)
    )
    g = result.measure("margin_diff")
    if g["ci_low"] is not None and g["ci_high"] is not None:
        text += _(
            "; counting defence too (A's seat minus the mean of the others, A − B): "
            "{score} — {verdict}"
        ).format(
            score=_interval(g["value"], g["ci_low"], g["ci_high"], 2, sign=True),
            verdict=_against_zero(g),
        )
    return text + "."


def _against_zero(m: dict[str, Any]) -> str:
    return _("the interval excludes 0") if m["excludes_reference"] else _("compatible with 0")


def measure_words(meaning: str) -> str:
    """A measure's meaning (``duel_summary.csv``) in the current language.

    ``A: made, ...`` keeps the contestant's letter and translates the rest.
    """
    side, colon, rest = meaning.partition(": ")
    if colon and side in ("A", "B"):
        return f"{side}: {_(rest)}"
    return _(meaning)


YES_NO = {True: N_("yes"), False: N_("no")}
"""A yes-or-no cell in words, to translate when shown."""


def summary_shown(result: DuelResult) -> pl.DataFrame:
    """The summary measures as the Markdown shows them: words and intervals, as strings."""
    rows = []
    for r in result.summary.iter_rows(named=True):
        places = _places(r["measure"])
        excludes = r["excludes_reference"]
        rows.append(
            [
                measure_words(r["meaning"]),
                _interval(r["value"], r["ci_low"], r["ci_high"], places),
                number(r["n"]),
                _fixed(r["reference"], places),
                "—" if excludes is None else _(YES_NO[excludes]),
            ]
        )
    names = (
        N_("measure"),
        N_("value [95 % CI]"),
        N_("sample"),
        N_("reference"),
        N_("interval excludes it"),
    )
    return pl.DataFrame(rows, schema=[_(n) for n in names], orient="row")


def seats_shown(result: DuelResult) -> pl.DataFrame:
    """The table by seat of A as the Markdown shows it: words and intervals, as strings."""
    t = result.seats
    if result.format == "hands":
        columns = {
            N_("seat"): [str(s) for s in t["seat"]],
            N_("points A − B [95 % CI]"): _column(t, "score_diff", "ci_low", "ci_high", 2),
            N_("margin A − B [95 % CI]"): _column(
                t, "margin_diff", "margin_ci_low", "margin_ci_high", 2
            ),
            N_("A declared"): [number(v) for v in t["a_declared"]],
            N_("A made [95 % CI]"): _column(t, "a_make_rate", "a_ci_low", "a_ci_high", 4),
            N_("B declared"): [number(v) for v in t["b_declared"]],
            N_("B made [95 % CI]"): _column(t, "b_make_rate", "b_ci_low", "b_ci_high", 4),
        }
    else:
        columns = {
            N_("seat"): [str(s) for s in t["seat"]],
            N_("games played"): [number(v) for v in t["games"]],
            N_("finished"): [number(v) for v in t["finished"]],
            N_("A won"): [number(v) for v in t["a_wins"]],
            N_("A's win rate [95 % CI]"): _column(t, "a_win_rate", "ci_low", "ci_high", 4),
            N_("points A − B [95 % CI]"): _column(
                t, "score_diff", "score_ci_low", "score_ci_high", 2
            ),
        }
    return pl.DataFrame({_(k): v for k, v in columns.items()})


def _column(t: pl.DataFrame, value: str, low: str, high: str, places: int) -> list[str]:
    return [
        _interval(v, lo, hi, places) for v, lo, hi in zip(t[value], t[low], t[high], strict=True)
    ]


def duel_markdown(result: DuelResult) -> str:
    """The Markdown report of a duel: verdict, summary measures, seats (current language)."""
    r = result.run
    fields = {
        "rules": r.rules.name,
        "hash": r.rules.rules_hash,
        "players": r.rules.players,
        "size": number(r.size),
        "replays": r.rules.players + (1 if r.format == "hands" else 0),
        "seed": r.seed,
    }
    if r.format == "hands":
        sizes = _(
            "Rules `{rules}` (hash {hash}), {players} players, hands format: {size} deals × "
            "{replays} replays, seed {seed}."
        )
    elif r.first_dealer is None:
        sizes = _(
            "Rules `{rules}` (hash {hash}), {players} players, games format: {size} games × "
            "{replays} replays, seed {seed}; first dealer drawn per game."
        )
    else:
        sizes = _(
            "Rules `{rules}` (hash {hash}), {players} players, games format: {size} games × "
            "{replays} replays, seed {seed}; first dealer seat {dealer}."
        )
    head = (
        _("# Strategy duel — A `{a}` vs B `{b}`").format(a=r.a.label, b=r.b.label)
        + "\n\n"
        + sizes.format(dealer=r.first_dealer, **fields)
        + " "
        + _(
            "A sits at each seat in turn with B at the others, on the same deals. "
            "Rates: 95 % Wilson intervals; means: mean ± 1.96·sd/√n over deals or games."
        )
    )
    note = (
        _(
            "Win-rate intervals treat the rotations of one game as independent; rotations "
            "of a game are negatively correlated (one seat's win is another's loss), so the "
            "interval is conservative."
        )
        if r.format == "games"
        else _(
            "Points A − B: the seat's score with A there minus with B; margin: the same for "
            "the seat's score minus the mean of the other seats' (with 4 players A sits out "
            "as the dealer in a quarter of the deals). Made: the contracts made, of those "
            "declared (a concession fails)."
        )
    )
    parts = [
        head,
        _verdict(result),
        _("## Summary") + "\n\n" + to_markdown(summary_shown(result)).rstrip(),
        _("## By seat of A") + "\n\n" + note + "\n\n" + to_markdown(seats_shown(result)).rstrip(),
    ]
    if result.split is not None:
        parts.append(
            _("## Where the difference comes from")
            + "\n\n"
            + _(
                "Each seat-deal's difference is put down to the first decision where the deal "
                "with A there parts from the deal with B there; the parts add up to the "
                "differences above (per deal, with their intervals over deals)."
            )
            + "\n\n"
            + to_markdown(split_shown(result)).rstrip()
        )
    return "\n\n".join(parts) + "\n"


def split_shown(result: DuelResult) -> pl.DataFrame:
    """The split table as the report shows it (current language)."""
    t = result.split
    assert t is not None
    shown = t.filter(pl.col("seat_deals") > 0)
    return pl.DataFrame(
        {
            _("decision"): [_(DECISION_WORDS[d]) for d in shown["decision"]],
            _("seat-deals"): [number(int(n)) for n in shown["seat_deals"]],
            _("points A − B [95 % CI]"): _column(shown, "score_diff", "ci_low", "ci_high", 2),
            _("margin A − B [95 % CI]"): _column(
                shown, "margin_diff", "margin_ci_low", "margin_ci_high", 2
            ),
            _("margin per seat-deal"): [
                _fixed(v, 1, sign=True) for v in shown["margin_per_seat_deal"]
            ],
        }
    )


def write_duel_tables(result: DuelResult, folder: Path) -> None:
    """Write ``duel_summary.csv``, ``duel_seats.csv``, ``duel.md`` and ``duel.json``.

    Hands duels also ``duel_split.csv`` (:func:`decision_split`).

    ``folder`` exists (a staged one, :class:`sim.output.StagedDir`, beside the run's
    own files of :func:`sim.runs.duel.write_duel_run`).
    """
    result.summary.write_csv(folder / "duel_summary.csv")
    result.seats.write_csv(folder / "duel_seats.csv")
    if result.split is not None:
        result.split.write_csv(folder / "duel_split.csv")
    (folder / "duel.md").write_text(duel_markdown(result), encoding="utf-8")
    write_json(folder / "duel.json", duel_json(result))
