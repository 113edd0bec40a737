"""The report's barrel section: barrel falls and game length.

From the tables of :func:`analysis.barrel.barrel_tables`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import polars as pl

from analysis import plots
from analysis.pages import (
    Section,
    Text,
    interval_column,
    mean_interval_column,
    number_column,
    wilson_column,
)
from sim.rules import Rules


def events_off(rules: Rules) -> dict[str, str]:
    """Events of the per-game table that cannot happen under ``rules``: name → the rule."""
    off = {
        "golden_resets": ("golden rounds", not rules.golden.enabled),
        "dark_won": ("dark play", not rules.dark.enabled),
        "dark_lost": ("dark play", not rules.dark.enabled),
        "samosvals": ("the 555 reset", not rules.score.samosval),
        "barrel_entries": ("the barrel", rules.barrel.at == 0),
        "barrel_falls": ("the barrel", rules.barrel.at == 0),
        "concessions": ("concessions", not rules.rospis.allowed),
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
    sec = Section("barrel", "Barrel falls and game length")
    sec.blocks.append(
        Text(
            f"From {info['games']:,} simulated games to {info['target']} "
            f"({info['finished']:,} finished, {info['unfinished']:,} unfinished; "
            f"{info['deals']:,} played deals; {info['stints']:,} barrel stints). A player "
            f"at {info['barrel_at']} or more sits on the barrel (docs/rules.md §9) and has "
            f"{info['barrel_attempts']} deals to win; stint tables count every stint, game "
            "tables finished games only."
        )
    )
    bs = tables["barrel_summary"]
    sec.add_table(
        "Barrel falls and wins",
        "`fell` counts every fall (used up the attempts, knocked off, or fell while "
        "climbing on together); `win rate` is over stints that were resolved (won or "
        "fell), leaving out those cut short by the game's end.",
        bs.select(
            "stints",
            "fell",
            interval_column(bs, "fall_rate", "fall_ci_low", "fall_ci_high", "fall rate [95 % CI]"),
            "won",
            "resolved",
            interval_column(
                bs, "win_rate_resolved", "win_ci_low", "win_ci_high", "win rate [95 % CI]"
            ),
            mean_interval_column(
                bs, "mean_deals_on_barrel", "se_deals_on_barrel", "deals on barrel [95 % CI]"
            ),
        ),
        "games_barrel_summary.csv",
        bs,
    )
    bo = tables["barrel_outcomes"]
    sec.add_figure(
        "barrel_outcomes.png",
        plots.plot_barrel_outcomes(bo, f"How barrel stints end, {info['rules']}"),
        "How barrel stints end",
    )
    sec.add_table(
        "How barrel stints end",
        "",
        bo.select(
            "outcome",
            "stints",
            "n",
            interval_column(bo, "share", "ci_low", "ci_high", "share [95 % CI]"),
        ),
        "games_barrel_outcomes.csv",
        bo,
    )
    cb = tables["climb_back"]
    sec.add_table(
        "Climbing back after a fall",
        "Players who fell at least once in a finished game, and the share who got on "
        "the barrel again later in that game, by how they first fell.",
        cb.select(
            "first_fall",
            "players_fell",
            "climbed_back",
            interval_column(cb, "share", "ci_low", "ci_high", "share [95 % CI]"),
        ),
        "games_climb_back.csv",
        cb,
    )
    gl = tables["game_length"]
    unfinished_share = wilson_column(gl, "unfinished", "games", "unfinished share [95 % CI]")
    row = gl.row(0, named=True)
    sec.add_figure(
        "game_length.png",
        plots.plot_game_length(
            tables["length_histogram"], row["mean"], f"Game length, {info['rules']}"
        ),
        "Game length distribution (played deals per finished game)",
    )
    quantiles = [c for c in gl.columns if re.fullmatch(r"q\d\d", c)]
    sec.add_table(
        "Game length",
        "Played deals per finished game (redeals excluded): mean with its 95 % interval, "
        "standard deviation and quantiles.",
        gl.select(
            "games",
            "finished",
            "unfinished",
            unfinished_share,
            mean_interval_column(gl, "mean", "se", "mean deals [95 % CI]"),
            number_column(gl, "sd"),
            "min",
            *[number_column(gl, q) for q in quantiles],
            "max",
        ),
        "games_game_length.csv",
        gl,
    )
    ev_all = tables["events_per_game"]
    off = events_off(rules) if rules is not None else {}
    ev = ev_all.filter(~pl.col("event").is_in(list(off)))
    off_words = sorted(set(off.values()))
    sec.add_table(
        "Events per game",
        "Per finished game, summed over the seats: mean with its 95 % interval and the "
        "share of games with at least one (the CSV adds the rate per 100 played deals)."
        + (f" Off under these rules: {', '.join(off_words)}." if off_words else ""),
        ev.select(
            "event",
            "meaning",
            mean_interval_column(ev, "mean", "se", "per game [95 % CI]"),
            "games_with",
            interval_column(ev, "share_with", "ci_low", "ci_high", "share of games [95 % CI]"),
        ),
        "games_events_per_game.csv",
        ev_all,
    )
    sec.add_csv(
        "games_length_histogram.csv",
        tables["length_histogram"],
        "finished games per bin of game length, the data of the histogram",
    )
    sec.add_csv(
        "games_attempts_used.csv",
        tables["attempts_used"],
        "barrel stints by deals spent on the barrel, split by outcome",
    )
    return sec
