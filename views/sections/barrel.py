"""The report's barrel section: barrel falls and game length.

From the tables of :func:`analysis.barrel.barrel_tables`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import polars as pl

from sim.i18n import N_, _, number
from sim.rules import Rules
from views import plots
from views.pages import (
    Section,
    Text,
    interval_column,
    mean_interval_column,
    number_column,
    wilson_column,
)

# How a barrel stint ends (analysis.barrel.OUTCOMES), and how a first fall came, in words.
OUTCOME_WORDS = {
    "won": N_("won the game"),
    "fell_attempts": N_("fell: attempts used up"),
    "knocked_off": N_("fell: knocked off"),
    "fell_simultaneous": N_("fell: climbed on together"),
    "game_over": N_("still on at the game's end"),
    "unrecorded": N_("not recorded"),
    "any": N_("any way"),
}
# The events of the per-game table (analysis.barrel.EVENTS) in words.
EVENT_WORDS = {
    "bolt_penalties": N_("bolt penalties"),
    "samosvals": N_("555 resets (samosval)"),
    "concessions": N_("contracts conceded"),
    "barrel_entries": N_("climbs onto the barrel"),
    "barrel_falls": N_("falls from the barrel, any cause"),
    "golden_resets": N_("golden rounds that reset every score"),
    "dark_won": N_("dark games won"),
    "dark_lost": N_("dark games lost"),
}
# The shown quantile columns of the game-length table.
QUANTILE_HEADINGS = {
    "q05": N_("5 % quantile"),
    "q25": N_("25 % quantile"),
    "q50": N_("median"),
    "q75": N_("75 % quantile"),
    "q95": N_("95 % quantile"),
}


def outcome_words(outcome: str | None) -> str:
    """A stint's outcome in the current language (``—`` for none)."""
    if outcome is None:
        return "—"
    return _(OUTCOME_WORDS[outcome]) if outcome in OUTCOME_WORDS else outcome


def events_off(rules: Rules) -> dict[str, str]:
    """Events of the per-game table that cannot happen under ``rules``: name → the rule.

    The rule is in words, marked for the catalogues (translate it when shown).
    """
    off = {
        "golden_resets": (N_("golden rounds"), not rules.golden.enabled),
        "dark_won": (N_("dark play"), not rules.dark.enabled),
        "dark_lost": (N_("dark play"), not rules.dark.enabled),
        "samosvals": (N_("the 555 reset"), not rules.score.samosval),
        "barrel_entries": (N_("the barrel"), rules.barrel.at == 0),
        "barrel_falls": (N_("the barrel"), rules.barrel.at == 0),
        "concessions": (N_("conceding"), not rules.rospis.allowed),
    }
    return {event: words for event, (words, is_off) in off.items() if is_off}


def barrel_section(tables: Mapping[str, pl.DataFrame], rules: Rules | None = None) -> Section:
    """Barrel falls, events per game and game length, from a games run.

    Args:
        tables: :func:`analysis.barrel.barrel_tables` of a ``thousand games`` run.
        rules: the run's rules; events they switch off are left out of the shown
            table (the CSV keeps them) and named as off.
    """
    info = tables["summary"].row(0, named=True)
    sec = Section("barrel", _("Barrel falls and game length"))
    counts = {
        "games": number(info["games"]),
        "target": info["target"],
        "finished": number(info["finished"]),
        "unfinished": number(info["unfinished"]),
        "deals": number(info["deals"]),
    }
    if info["barrel_at"] == 0:  # no barrel (barrel.at = 0): its tables only as CSV files
        sec.blocks.append(
            Text(
                _(
                    "From {games} simulated games to {target} ({finished} finished, "
                    "{unfinished} unfinished; {deals} played deals). These rules have no "
                    "barrel (docs/rules.md §9)."
                ).format(**counts)
            )
        )
        for name, key in (
            ("games_barrel_summary.csv", "barrel_summary"),
            ("games_barrel_outcomes.csv", "barrel_outcomes"),
            ("games_climb_back.csv", "climb_back"),
        ):
            sec.csvs[name] = tables[key]
        return _game_length_tables(sec, tables, rules, info)
    sec.blocks.append(
        Text(
            _(
                "From {games} simulated games to {target} ({finished} finished, "
                "{unfinished} unfinished; {deals} played deals; {stints} barrel stints). A "
                "player at {barrel_at} or more sits on the barrel (docs/rules.md §9) and has "
                "{attempts} deals to win; stint tables count every stint, game tables "
                "finished games only."
            ).format(
                **counts,
                stints=number(info["stints"]),
                barrel_at=info["barrel_at"],
                attempts=info["barrel_attempts"],
            )
        )
    )
    bs = tables["barrel_summary"]
    sec.add_table(
        _("Barrel falls and wins"),
        _(
            "A stint is one stay on the barrel. *Fell* counts every fall (attempts used "
            "up, knocked off, or fell while climbing on together); the win rate is over "
            "the stints that were resolved (won or fell), leaving out those cut short by "
            "the game's end."
        ),
        bs.select(
            pl.col("stints").alias(N_("stints")),
            pl.col("fell").alias(N_("fell")),
            interval_column(
                bs, "fall_rate", "fall_ci_low", "fall_ci_high", N_("fall rate [95 % CI]")
            ),
            pl.col("won").alias(N_("won")),
            pl.col("resolved").alias(N_("resolved")),
            interval_column(
                bs, "win_rate_resolved", "win_ci_low", "win_ci_high", N_("win rate [95 % CI]")
            ),
            mean_interval_column(
                bs,
                "mean_deals_on_barrel",
                "se_deals_on_barrel",
                N_("deals on the barrel [95 % CI]"),
            ),
        ),
        "games_barrel_summary.csv",
        bs,
    )
    bo = tables["barrel_outcomes"]
    sec.add_figure(
        "barrel_outcomes.png",
        plots.plot_barrel_outcomes(
            bo,
            _("How barrel stints end, {rules}").format(rules=info["rules"]),
            {o: outcome_words(o) for o in OUTCOME_WORDS},
        ),
        _("How barrel stints end"),
    )
    sec.add_table(
        _("How barrel stints end"),
        "",
        bo.select(
            pl.Series(N_("how it ended"), [outcome_words(o) for o in bo["outcome"]]),
            pl.col("stints").alias(N_("stints")),
            pl.col("n").alias(N_("all stints")),
            interval_column(bo, "share", "ci_low", "ci_high", N_("share [95 % CI]")),
        ),
        "games_barrel_outcomes.csv",
        bo,
    )
    cb = tables["climb_back"]
    sec.add_table(
        _("Climbing back after a fall"),
        _(
            "Players who fell at least once in a finished game, and the share who got on "
            "the barrel again later in that game, by how they first fell."
        ),
        cb.select(
            pl.Series(N_("first fall"), [outcome_words(o) for o in cb["first_fall"]]),
            pl.col("players_fell").alias(N_("players who fell")),
            pl.col("climbed_back").alias(N_("climbed back")),
            interval_column(cb, "share", "ci_low", "ci_high", N_("share [95 % CI]")),
        ),
        "games_climb_back.csv",
        cb,
    )
    return _game_length_tables(sec, tables, rules, info)


def _game_length_tables(
    sec: Section, tables: Mapping[str, pl.DataFrame], rules: Rules | None, info: dict[str, Any]
) -> Section:
    """The section's game length, events per game and histogram (with or without a barrel)."""
    gl = tables["game_length"]
    unfinished_share = wilson_column(gl, "unfinished", "games", N_("unfinished share [95 % CI]"))
    row = gl.row(0, named=True)
    sec.add_figure(
        "game_length.png",
        plots.plot_game_length(
            tables["length_histogram"],
            row["mean"],
            _("Game length, {rules}").format(rules=info["rules"]),
        ),
        _("Game length distribution (played deals per finished game)"),
    )
    quantiles = [c for c in gl.columns if re.fullmatch(r"q\d\d", c)]
    sec.add_table(
        _("Game length"),
        _(
            "Played deals per finished game (redeals excluded): mean with its 95 % "
            "interval, standard deviation and quantiles."
        ),
        gl.select(
            pl.col("games").alias(N_("games")),
            pl.col("finished").alias(N_("finished")),
            pl.col("unfinished").alias(N_("unfinished")),
            unfinished_share,
            mean_interval_column(gl, "mean", "se", N_("mean deals [95 % CI]")),
            number_column(gl, "sd", N_("standard deviation")),
            pl.col("min").alias(N_("shortest")),
            *[number_column(gl, q, QUANTILE_HEADINGS.get(q, q)) for q in quantiles],
            pl.col("max").alias(N_("longest")),
        ),
        "games_game_length.csv",
        gl,
    )
    ev_all = tables["events_per_game"]
    off = events_off(rules) if rules is not None else {}
    ev = ev_all.filter(~pl.col("event").is_in(list(off)))
    off_words = sorted({_(w) for w in off.values()})
    note = _(
        "Per finished game, summed over the seats: mean with its 95 % interval and the "
        "share of games with at least one (the CSV adds the rate per 100 played deals)."
    )
    if off_words:
        note += " " + _("Off under these rules: {events}.").format(events=", ".join(off_words))
    sec.add_table(
        _("Events per game"),
        note,
        ev.select(
            pl.Series(
                N_("event"),
                [
                    _(EVENT_WORDS[e]) if e in EVENT_WORDS else str(m)
                    for e, m in zip(ev["event"], ev["meaning"], strict=True)
                ],
                dtype=pl.String,
            ),
            mean_interval_column(ev, "mean", "se", N_("per game [95 % CI]")),
            pl.col("games_with").alias(N_("games with one")),
            interval_column(ev, "share_with", "ci_low", "ci_high", N_("share of games [95 % CI]")),
        ),
        "games_events_per_game.csv",
        ev_all,
    )
    sec.add_csv(
        "games_length_histogram.csv",
        tables["length_histogram"],
        _("finished games per bin of game length, the data of the histogram"),
    )
    sec.add_csv(
        "games_attempts_used.csv",
        tables["attempts_used"],
        _("barrel stints by deals spent on the barrel, split by outcome"),
    )
    return sec
