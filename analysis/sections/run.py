"""The report's run section: the rules, seed, sizes and strategies of the runs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import polars as pl

from analysis.pages import (
    Section,
    Table,
    Text,
)
from sim.rules import Rules


def run_section(info: Mapping[str, Any]) -> Section:
    """The run: rules, seed, sizes, strategies and versions (the top of the report).

    Args:
        info: ``rules`` (:class:`Rules`), ``seed``, ``odds_deals``, ``hands_deals``,
            ``games``, ``strategies`` (per seat, or None), ``built``, ``engine_version``.
    """
    rules: Rules = info["rules"]
    sec = Section("run", "The run")
    strategies = info.get("strategies")
    rows = [
        ("rules", f"{rules.name} — {rules.description}"),
        ("rules_hash", rules.rules_hash),
        ("players", str(rules.players)),
        ("seed", str(info["seed"])),
        ("odds: simulated deals", f"{info['odds_deals']:,}"),
        (
            "hands: deals played",
            "—" if info.get("hands_deals") is None else f"{info['hands_deals']:,}",
        ),
        ("games: whole games played", "—" if info.get("games") is None else f"{info['games']:,}"),
        ("strategies (by seat)", ", ".join(strategies) if strategies else "—"),
        ("strategy parameters", ", ".join(info.get("params") or []) or "defaults"),
        ("engine version", str(info.get("engine_version", "—"))),
        ("built", str(info.get("built", "—"))),
    ]
    shown = pl.DataFrame({"item": [r[0] for r in rows], "value": [r[1] for r in rows]})
    sec.blocks.append(
        Text(
            "Every rate below is shown as `estimate [low, high]` with its 95 % Wilson "
            "interval, every mean with its 95 % interval (mean ± 1.96 standard errors). "
            "The CSV files beside this page hold the unformatted numbers; `run.json` "
            "the resolved rules, sizes and package versions."
        )
    )
    sec.blocks.append(Table("Rules, seed and sizes", "", shown, None))
    return sec
