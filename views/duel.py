"""A strategy duel in words: its verdict, the shown tables, ``duel.md`` and the duel folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from analysis.duel import DuelResult, duel_json
from sim.i18n import N_, _, number
from sim.output import write_json
from views.numbers import interval
from views.tables import to_markdown

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
    return interval(_fixed(v, places, sign), _fixed(low, places, sign), _fixed(high, places, sign))


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
