"""The barrel tables in words: ``barrel.md``, the terminal summary and the barrel folder."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import polars as pl

from analysis.barrel import LENGTH_BIN
from sim.i18n import _, number, role
from views.numbers import numbers
from views.tables import short_rate, short_table, tables_markdown, write_tables

MARKDOWN_FILE = "barrel.md"


# Title and explanation of each table, in the order barrel_tables returns them.
TABLE_NOTES: dict[str, tuple[str, str]] = {
    "summary": (
        "The run",
        "Rules, games played (`games_requested` is the size asked for), finished and "
        "unfinished games, played deals over all games and barrel stints (all games). "
        "Cross-checks of the two files: `barrel_entries` (games.parquet total; the "
        "engine counts one per stint, a `fell_simultaneous` one included) against "
        "`stints`, and `barrel_falls` against `fall_stints` (stints that ended in a fall).",
    ),
    "barrel_outcomes": (
        "How barrel stints end",
        "Share of all stints (`n`) ending each way: `won` (made the winning contract), "
        "`fell_attempts` (used up barrel.attempts), `knocked_off` (another player "
        "climbed on), `fell_simultaneous` (fell while climbing on together with "
        "another: no deals on the barrel), `game_over` (still on when the game ended). "
        "`mean_deals_on_barrel`: the deals these stints lasted.",
    ),
    "barrel_summary": (
        "Barrel falls and wins",
        "`fell` counts every fall (`fell_attempts`, `knocked_off`, `fell_simultaneous`), "
        "`fall_rate` = fell / stints. `resolved` leaves out the stints cut short by the "
        "end of the game; `win_rate_resolved` = won / (won + fell). "
        "`mean_deals_on_barrel` with its standard error `se_deals_on_barrel`.",
    ),
    "attempts_used": (
        "Deals spent on the barrel",
        "Stints by `deals_on_barrel` (every value from 0 to the largest seen), with "
        "their share of all stints and the split by outcome.",
    ),
    "climb_back": (
        "Climbing back after a fall",
        "Players (one per seat and finished game) who fell from the barrel at least "
        "once in the game (`barrel_falls` ≥ 1), and how many of them got on the "
        "barrel again later in the same game (a stint entered after the first fall's "
        "stint, not a `fell_simultaneous` one). `first_fall` splits them by how "
        "the first fall happened (`any`: all of them; `unrecorded`, shown only when "
        "there are some: falls with no fallen stint in barrel.parquet).",
    ),
    "game_length": (
        "Game length",
        "Played deals (redeals excluded) of finished games: mean with its standard "
        "error, standard deviation and quantiles (linear interpolation). Unfinished "
        "games are left out of these numbers and counted in `unfinished`, with their "
        "share of all games.",
    ),
    "length_histogram": (
        "Game length histogram",
        f"Finished games by played deals in bins of {LENGTH_BIN}; `share` of finished games.",
    ),
    "seat_relative": (
        "Winner's seat relative to the first dealer",
        "`offset` = (winner − first dealer) mod players; `position` is that seat's "
        "place in the game's first deal: 1 forehand (first to bid), 2 middle, "
        "0 the first dealer. `games`: finished games; `expected` = 1 / players.",
    ),
    "seat_absolute": (
        "Winner's absolute seat",
        "Seats as numbered in the run; the first dealer is drawn per game.",
    ),
    "seat_chi2": (
        "Seat uniformity tests",
        "Pearson chi-square of the win counts against an even split (1 / players per "
        "seat), `dof` = players − 1; `p_value` is the exact chi-square tail "
        "(for 2 degrees of freedom exp(−statistic / 2)).",
    ),
    "events_per_game": (
        "Events per game",
        "Per finished game, summed over the seats: `mean` with standard error `se`, "
        "`per_100_deals` (total / played deals × 100) and the share of games with "
        "at least one (`games_with`, `share_with` and its interval). Events whose "
        "columns the run lacks (runs made before dark play was simulated) are left out.",
    ),
}


def barrel_markdown(tables: Mapping[str, pl.DataFrame]) -> str:
    """The Markdown document of :func:`barrel_tables`: a short explanation above each table."""
    intro = (
        "Stint tables count every row of barrel.parquet; game tables count finished "
        "games only (unfinished ones are counted in the summary and game length). "
        "`ci_*`: 95 % Wilson intervals; `se`: standard error of a mean; — means no data."
    )
    return tables_markdown(tables, "# Barrel, game length and seat advantage", intro, TABLE_NOTES)


def barrel_short(tables: Mapping[str, pl.DataFrame]) -> str:
    """What ``thousand barrel`` prints by default: a few lines under 100 columns."""
    info = tables["summary"].row(0, named=True)
    length = tables["game_length"].row(0, named=True)
    half = 1.96 * (length["se"] or 0.0)
    lines = [
        _("# Barrel and game length — rules `{rules}`: {games} games ({unfinished} "
          "unfinished)").format(
            rules=info["rules"], games=number(info['games']),
            unfinished=number(info['unfinished']),
        ),
        "",
        "- " + _("a game lasts {mean} played deals (median {median})").format(
            mean=numbers(length["mean"], length["mean"] - half, length["mean"] + half, 2),
            median=number(length["q50"]),
        ),
    ]  # fmt: skip
    b = tables["barrel_summary"]
    if len(b) and b["stints"][0]:
        x = b.row(0, named=True)
        lines.append(
            "- "
            + _("climbs onto the barrel: {climbs}; falls: {falls} of them").format(
                climbs=number(x["stints"]),
                falls=short_rate(x["fall_rate"], x["fall_ci_low"], x["fall_ci_high"]),
            )
        )
    chi2 = tables["seat_chi2"]
    if len(chi2):
        row = chi2.row(0, named=True)
        lines.append(
            "- "
            + _("seat advantage (from the first dealer): chi-square p = {p}").format(
                p=number(row["p_value"], 3)
            )
            + (_(" — the seats differ") if row["p_value"] < 0.05 else _(" — no difference shown"))
        )
    rel = tables["seat_relative"]
    if len(rel):
        shown = pl.DataFrame(
            {
                _("seat"): [role(p) for p in rel["position"]],
                _("games won [95 % CI]"): [
                    short_rate(*r)
                    for r in zip(rel["rate"], rel["ci_low"], rel["ci_high"], strict=True)
                ],
                _("fair"): [number(v, 3) for v in rel["expected"]],
            }
        )
        lines += ["", short_table(shown)]
    lines += ["", _("Every table: `--full`, or `--out DIR` (CSV and barrel.md).")]
    return "\n".join(lines)


def write_barrel_tables(tables: Mapping[str, pl.DataFrame], out_dir: Path) -> None:
    """Write ``NAME.csv`` per table and ``barrel.md`` into ``out_dir`` (never half-written)."""
    write_tables(tables, out_dir, MARKDOWN_FILE, barrel_markdown(tables))
