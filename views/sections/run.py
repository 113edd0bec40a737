"""The report's run section: the rules, seed, sizes and strategies of the runs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import polars as pl

from sim.i18n import N_, _, number
from sim.rules import Rules
from views.pages import Section, Table, Text

# The presets' descriptions (sim/presets/*.toml), marked for the catalogues; the
# description of any other rules file is shown as written.
PRESET_DESCRIPTIONS = (
    N_(
        "The Android app 'Тысяча' out of the box: redeal on four nines only, the talon "
        "always shown, bolts cost nothing, both simultaneous climbers fall"
    ),
    N_("Classic three-player Thousand: the defaults of docs/rules.md"),
    N_(
        "501: the first to 501 wins; the declarer names a trump that never changes; "
        "marriages ♥80 ♠60 ♦40 ♣20; no barrel"
    ),
    N_("Four players: the dealer sits out each deal and scores the talon"),
    N_(
        "1001: more than 1000 to win, so the barrel needs 121 (125 at step 5); a third "
        "fall from the barrel goes to zero"
    ),
    N_("Two players: 10 cards each, two talons of 2 cards, a redeal on four nines"),
    N_(
        "The Ukrainian online club rules: golden and dark rounds, the ace marriage, "
        "barrel bids from 120"
    ),
)


def description_words(rules: Rules) -> str:
    """The rules' description in the current language (a preset's), else as written."""
    text = rules.description
    return _(text) if text in PRESET_DESCRIPTIONS else text


def run_section(info: Mapping[str, Any]) -> Section:
    """The run: rules, seed, sizes, strategies and versions (the top of the report).

    Args:
        info: ``rules`` (:class:`Rules`), ``seed``, ``odds_deals``, ``hands_deals``,
            ``games``, ``strategies`` (per seat, or None), ``built``, ``engine_version``.
    """
    rules: Rules = info["rules"]
    sec = Section("run", _("The run"))
    strategies = info.get("strategies")
    described = description_words(rules)

    def count(value: int | None) -> str:
        return "—" if value is None else number(value)

    rows = [
        (_("rules"), f"{rules.name} — {described}" if described else rules.name),
        (_("rules hash"), rules.rules_hash),
        (_("players"), str(rules.players)),
        (_("seed"), str(info["seed"])),
        (_("odds: simulated deals"), count(info["odds_deals"])),
        (_("hands: deals played"), count(info.get("hands_deals"))),
        (_("games: whole games played"), count(info.get("games"))),
        (_("strategies (by seat)"), ", ".join(strategies) if strategies else "—"),
        (_("strategy parameters"), ", ".join(info.get("params") or []) or _("defaults")),
        (_("engine version"), str(info.get("engine_version", "—"))),
        (_("built"), str(info.get("built", "—"))),
    ]
    shown = pl.DataFrame({_("item"): [r[0] for r in rows], _("value"): [r[1] for r in rows]})
    sec.blocks.append(
        Text(
            _(
                "Every rate below is shown as *estimate [low, high]* with its 95 % Wilson "
                "interval, every mean with its 95 % interval (mean ± 1.96 standard errors). "
                "The CSV files beside this page hold the unformatted numbers; `run.json` "
                "the resolved rules, sizes and package versions."
            )
        )
    )
    sec.blocks.append(Table(_("Rules, seed and sizes"), "", shown, None))
    return sec
