"""The report folder: ``index.html`` (self-contained), ``report.md``, PNG and CSV.

A report is a list of sections (:class:`views.pages.Section`), each made by one
builder of :mod:`views.sections` from the outputs of the existing pipelines
(nothing is re-derived here):

- the short answers, each with its interval (:mod:`views.sections.summary`);
- the run: rules, seed, sizes, strategies (:mod:`views.sections.run`);
- deal odds and reshuffle conditions, exact vs simulated (:mod:`views.sections.odds`);
- marriage frequencies: held, in hand + talon, declared
  (:mod:`views.sections.marriages`);
- safe bids from the hand before the talon, by player (:mod:`views.sections.safebids`);
- the strategy guide (:func:`views.guide.guide_report_section`);
- bid success and safe bid levels, from :func:`analysis.bids.bid_tables`
  (:mod:`views.sections.bids`);
- barrel falls and game length, from :func:`analysis.barrel.barrel_tables`
  (:mod:`views.sections.barrel`);
- seat advantage, from the same tables (:mod:`views.sections.seats`);
- shuffled or cut: the same rules dealt both ways (:mod:`views.sections.dealing`);
- the house-rule comparison of ``thousand compare`` (:mod:`views.sections.compare`).

Every text the pages show (titles, sentences, table headings, figures) is in the
current language (:mod:`sim.i18n`, ``thousand report --lang``); the CSV files and
``run.json`` are the same in every language.

The page kit (blocks, formatting, the HTML and Markdown pages) is :mod:`views.pages`.
To add a section, write a builder that returns a section in a module of
:mod:`views.sections` and add it to :func:`write_report_folder`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import polars as pl

import sim
from analysis.advise import SampledAdvice
from analysis.barrel import barrel_tables
from analysis.compare import compare_folders
from analysis.odds import OddsResult
from analysis.runs import read_manifest
from analysis.safebids import SafeBidResult
from sim.i18n import _, number
from sim.output import StagedDir, now_iso, source_date, write_manifest
from sim.rules import Rules
from views.pages import Section, Text, write_pages
from views.sections.barrel import barrel_section
from views.sections.bids import bids_section
from views.sections.compare import compare_section
from views.sections.dealing import DealingPlay, dealing_section
from views.sections.marriages import marriage_section
from views.sections.odds import odds_section
from views.sections.run import run_section
from views.sections.safebids import safebids_section
from views.sections.seats import seat_section
from views.sections.summary import answers, summary_section

APPENDIX = ("run", "odds", "dealing", "ladder")
"""The sections for analysts (how the numbers were made and checked), folded at the end."""


def _part_manifest(run_dir: Path | None) -> dict[str, Any] | None:
    """The parts of a run's ``run.json`` the report repeats (not the rules again)."""
    if run_dir is None:
        return None

    doc = read_manifest(run_dir)
    keep: tuple[str, ...] = (
        "command", "seed", "sizes", "strategies", "params", "seconds", "engine_version"
    )  # fmt: skip
    if source_date() is not None:  # reproducible: no durations (they differ run to run)
        keep = tuple(k for k in keep if k != "seconds")
    return {k: doc[k] for k in keep if k in doc}


def write_report_folder(
    out: Path,
    odds: OddsResult,
    hands_dir: Path | None = None,
    games_dir: Path | None = None,
    compare: pl.DataFrame | None = None,
    dealing: DealingPlay | None = None,
    safebids: SafeBidResult | None = None,
    examples: Sequence[SampledAdvice] = (),
    guide: Section | None = None,
    rule_sets: Sequence[tuple[str, Rules]] = (),
    player: Section | None = None,
    player_pages: Callable[[Path], None] | None = None,
    ladder: Section | None = None,
    equity: Section | None = None,
    atlas: Section | None = None,
) -> list[Section]:
    """Write the report for one rules set into ``out`` (atomically).

    Args:
        out: the report folder (created; existing files of the same names replaced).
        odds: the odds run with its statistics (:func:`analysis.odds.odds_result`).
        hands_dir: a ``thousand hands`` run of the same rules (bid tables, declared
            marriages), or None to leave those out.
        games_dir: a ``thousand games`` run of the same rules (barrel, game length,
            seat advantage), or None to leave those out.
        compare: the house-rule comparison table (columns :data:`COMPARE_COLUMNS`),
            or None for no comparison section.
        dealing: the shuffled-or-cut runs (:class:`sim.runs.compare.DealingRuns`: ``names``,
            ``odds``, ``games_dirs``, ``strategies``), or None to leave it out; their
            games are compared here (:func:`analysis.compare.compare_folders`).
        safebids: the safe-bid tables of every dealt hand played as the declarer's
            (:func:`analysis.safebids.build_result`), or None to leave them out.
        examples: the advisor's answers shown as worked examples in that section.
        guide: the strategy guide's section (:func:`views.guide.guide_report_section`),
            shown after the safe bids, or None to leave it out.
        rule_sets: ``(name, rules)`` of the compared rule sets, the base first (the
            options that differ are listed in the comparison).
        player: the page for players (:func:`views.player.player_section`), which
            opens the report, or None.
        player_pages: writes the page for players on its own into the folder
            (``player-LANG.html`` and ``.md`` in every language), or None.
        ladder: the players' ladder (:func:`views.sections.ladder.ladder_section`),
            shown in the analysts' appendix, or None.
        equity: the chance to win from the scores
            (:func:`views.sections.equity.equity_section`), shown after the barrel, or
            None.
        atlas: which house rules matter (:func:`views.sections.atlas.atlas_section`),
            shown after the comparison, or None.

    The sections that show how the numbers were made and checked (:data:`APPENDIX`:
    the run, exact against simulated odds, shuffled against cut) close the page in
    the analysts' appendix, folded until opened.

    Returns:
        The sections, in report order (the appendix's last).
    """
    rules = odds.rules
    seed, deals = odds.run.seed, odds.run.deals
    hands = _part_manifest(hands_dir)
    games = _part_manifest(games_dir)
    strategies = next((p["strategies"] for p in (hands, games) if p and "strategies" in p), None)
    params: list[str] = next((p["params"] for p in (hands, games) if p and p.get("params")), [])
    built = now_iso()

    info: dict[str, Any] = {
        "rules": rules,
        "seed": seed,
        "odds_deals": deals,
        "hands_deals": None if hands is None else hands.get("sizes", {}).get("deals"),
        "games": None if games is None else games.get("sizes", {}).get("games"),
        "strategies": strategies,
        "params": params,
        "built": built,
        "engine_version": sim.ENGINE_VERSION,
    }
    sections = [run_section(info), odds_section(odds), marriage_section(odds, hands_dir)]
    if safebids is not None:
        sections.append(safebids_section(safebids, examples))
    if guide is not None:
        sections.append(guide)
    if hands_dir is not None:
        sections.append(bids_section(hands_dir))
    games_tables = None
    if games_dir is not None:
        games_tables = barrel_tables(games_dir)
        sections += [barrel_section(games_tables, rules), seat_section(games_tables)]
    if equity is not None:
        sections.append(equity)
    if dealing is not None:
        pairs = list(zip(dealing.names, dealing.games_dirs, strict=True))
        sections.append(
            dealing_section(dealing.names, dealing.odds, compare_folders(pairs), dealing.strategies)
        )
    if compare is not None:
        who = ", ".join(dict.fromkeys(strategies)) if strategies else None
        sections.append(compare_section(compare, rule_sets, who))
    if atlas is not None:
        sections.append(atlas)
    if ladder is not None:
        sections.append(ladder)
    found = answers(odds, safebids, games_tables, strategies)
    found.update({s.anchor: s.answer for s in sections if s.answer})
    for sec in sections:  # each section opens with its answer
        if sec.anchor in found:
            opening = _("**In short:** {answer}").format(answer=found[sec.anchor])
            sec.blocks.insert(0, Text(opening))
    sections.insert(0, summary_section(found, [s.anchor for s in sections]))
    if player is not None:  # the players' answers come first
        sections.insert(0, player)

    sizes = [_("odds: {deals} simulated deals").format(deals=number(deals))]
    if info["hands_deals"] is not None:
        sizes.append(_("hands: {deals} deals played").format(deals=number(info["hands_deals"])))
    if info["games"] is not None:
        sizes.append(_("games: {games} whole games").format(games=number(info["games"])))
    who = _("; strategies {names}").format(names=", ".join(strategies)) if strategies else ""
    if params:
        who += f" ({', '.join(params)})"
    header = _(
        "Rules **{rules}** (`rules_hash` {hash}, {players} players) — seed {seed}; "
        "{sizes}{strategies}. Built {built}."
    ).format(
        rules=rules.name,
        hash=rules.rules_hash,
        players=rules.players,
        seed=seed,
        sizes="; ".join(sizes),
        strategies=who,
        built=built,
    )
    title = _("Thousand report — {rules}").format(rules=rules.name)
    if compare is not None:  # the report a comparison was asked for says so
        others = [n for n, _r in rule_sets[1:]] or compare["vs"].unique(maintain_order=True)
        title = _("Thousand report — {rules} against {others}").format(
            rules=rules.name, others=", ".join(str(n) for n in others)
        )
    with StagedDir(out) as staged:
        d = staged.path
        write_manifest(
            d,
            rules,
            seed,
            {"odds_deals": deals, "hands_deals": info["hands_deals"], "games": info["games"]},
            command="report",
            **({"strategies": strategies} if strategies is not None else {}),  # none: no runs
            params=params,
            started=odds.run.started,
            ended=now_iso(),
            parts={"hands": hands, "games": games},
        )
        shown = [s for s in sections if s.anchor not in APPENDIX]
        folded = [s for s in sections if s.anchor in APPENDIX]
        write_pages(d, title, header, shown, "report.md", appendix=folded)
        if player_pages is not None:
            player_pages(d)
    return shown + folded
