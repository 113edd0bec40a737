"""The report folder: ``index.html`` (self-contained), ``report.md``, PNG and CSV.

A report is a list of :class:`Section` objects, each made by one builder from the
outputs of the existing pipelines (nothing is re-derived here):

- the run: rules, seed, sizes, strategies (:func:`run_section`);
- deal odds and reshuffle conditions, exact vs simulated (:func:`odds_section`);
- marriage frequencies: held, in hand + talon, declared (:func:`marriage_section`);
- bid success and safe bid levels, from :func:`analysis.bids.bid_tables`
  (:func:`bids_section`);
- barrel falls and game length, from :func:`analysis.barrel.barrel_tables`
  (:func:`barrel_section`);
- seat advantage, from the same tables (:func:`seat_section`);
- shuffled or cut: the same rules dealt both ways (:func:`dealing_section`);
- the house-rule comparison of ``thousand compare`` (:func:`compare_section`).

A section holds its text, tables and figures as *blocks*, rendered once to Markdown
and once to HTML, its figures as PNG bytes (written beside the page and embedded in
it as base64) and its CSV tables. Every rate is shown with its 95 % Wilson interval
and every mean with its 95 % interval (mean ± 1.96 standard errors), written
``estimate [low, high]``; the CSV files hold the same numbers unformatted.

To add a section, write a builder that returns a :class:`Section` and add it to
:func:`build_report`.
"""

from __future__ import annotations

import base64
import html
import io
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import polars as pl
from matplotlib.figure import Figure

from analysis import plots
from analysis.advise import Advice, examples_table
from analysis.barrel import barrel_tables
from analysis.bids import bid_tables
from analysis.compare import COLUMNS as COMPARE_TABLE_COLUMNS
from analysis.compare import (
    compare_folders,
    compare_rates,
    compare_sentence,
    rule_differences,
    sig,
)
from analysis.glossary import CONCEDED_ALL, MADE_ALL, MADE_PLAYED
from analysis.marriages import WHERE, declared_counts, marriage_table
from analysis.odds import OddsCounts, OddsResult
from analysis.runs import read_manifest
from analysis.safebids import CLASS_KEYS, SafeBidResult, bid_chart, defence_caveat
from analysis.stats import Z95
from analysis.tables import to_markdown
from sim.odds_keys import ODDS_KEYS
from sim.output import StagedDir, now_iso, write_manifest
from sim.rules import Rules

DPI = 90  # figure resolution; with a 256-colour palette a figure is some 30-60 kB

# Columns of the house-rule comparison table (``thousand compare``), in this order.
COMPARE_COLUMNS = COMPARE_TABLE_COLUMNS

_CSS = """
body{font-family:system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;font-size:.8rem;margin:.5rem 0 1rem}
td,th{border:1px solid #ccc;padding:.15rem .45rem}
td{text-align:left}th{background:#f3f3f3;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
div.scroll{overflow-x:auto;max-width:100%}
img{max-width:100%;display:block;margin:.5rem 0}code{background:#f5f5f5;padding:0 .2rem}
h2{border-bottom:1px solid #ddd;margin-top:2.5rem}p.files{font-size:.85rem;color:#555}
"""


# --- blocks and sections -------------------------------------------------------------
@dataclass(frozen=True)
class Text:
    """A paragraph; may use `code`, **bold** and *italic* (rendered in both formats)."""

    text: str


@dataclass(frozen=True)
class FigureRef:
    """A figure of the section, by file name, with its alternative text."""

    name: str
    alt: str


@dataclass(frozen=True)
class Table:
    """A table shown in the report (formatted), with the CSV file that holds its data."""

    title: str
    note: str
    frame: pl.DataFrame
    csv: str | None = None


@dataclass(frozen=True)
class Files:
    """CSV files of the section that no table shows, each with what it holds."""

    items: tuple[tuple[str, str], ...]


Block = Text | FigureRef | Table | Files


@dataclass
class Section:
    """One section of the report: blocks to render, figures (PNG bytes) and CSV tables.

    Attributes:
        anchor: the HTML id and the stem of the section's link in the contents.
        title: the section heading.
        blocks: what the section shows, in order.
        figures: PNG bytes by file name (written beside the page, embedded in it).
        csvs: tables by file name, written as CSV.
        answer: the section's answer in one sentence, for the report's summary (and
            its own opening line), or None when :func:`answers` finds it.
    """

    anchor: str
    title: str
    blocks: list[Block] = field(default_factory=list)
    figures: dict[str, bytes] = field(default_factory=dict)
    csvs: dict[str, pl.DataFrame] = field(default_factory=dict)
    answer: str | None = None

    def add_figure(self, name: str, fig: Figure, alt: str) -> None:
        """Render ``fig`` to PNG (closing it), keep it as ``name`` and show it here."""
        self.figures[name] = figure_png(fig)
        self.blocks.append(FigureRef(name, alt))

    def add_csv(self, name: str, data: pl.DataFrame, what: str) -> None:
        """Write ``data`` as ``name`` and list it (with ``what`` it holds) in the section."""
        self.csvs[name] = data
        files = [b for b in self.blocks if isinstance(b, Files)]
        if files:
            self.blocks[self.blocks.index(files[0])] = Files((*files[0].items, (name, what)))
        else:
            self.blocks.append(Files(((name, what),)))

    def add_table(
        self, title: str, note: str, shown: pl.DataFrame, csv: str, data: pl.DataFrame
    ) -> None:
        """Show ``shown`` under ``title`` and write ``data`` (its source) as ``csv``."""
        self.csvs[csv] = data
        self.blocks.append(Table(title, note, shown, csv))

    @property
    def markdown(self) -> str:
        """The section as Markdown (figures and CSV files referenced by name)."""
        parts = [f"## {self.title}"]
        for block in self.blocks:
            if isinstance(block, Text):
                parts.append(block.text)
            elif isinstance(block, FigureRef):
                parts.append(f"![{block.alt}]({block.name})")
            elif isinstance(block, Files):
                listed = "; ".join(f"`{name}` ({what})" for name, what in block.items)
                parts.append(f"More data: {listed}.")
            else:
                head = f"### {block.title}"
                if block.note:
                    head += f"\n\n{block.note}"
                files = f"\n\nData: `{block.csv}`." if block.csv else ""
                parts.append(
                    f"{head}\n\n{to_markdown(block.frame, floats='{:.4f}').rstrip()}{files}"
                )
        return "\n\n".join(parts) + "\n"

    @property
    def html(self) -> str:
        """The section as HTML, figures embedded as base64 PNG (and linked beside)."""
        parts = [f'<section id="{self.anchor}"><h2>{html.escape(self.title)}</h2>']
        for block in self.blocks:
            if isinstance(block, Text):
                parts.append(f"<p>{inline_html(block.text)}</p>")
            elif isinstance(block, FigureRef):
                data = base64.b64encode(self.figures[block.name]).decode()
                parts.append(
                    f'<figure><img alt="{html.escape(block.alt)}" '
                    f'src="data:image/png;base64,{data}">'
                    f'<figcaption class="files">{html.escape(block.alt)} '
                    f'(<a href="{block.name}">{block.name}</a>)</figcaption></figure>'
                )
            elif isinstance(block, Files):
                listed = "; ".join(
                    f'<a href="{name}">{name}</a> ({html.escape(what)})'
                    for name, what in block.items
                )
                parts.append(f'<p class="files">More data: {listed}.</p>')
            else:
                parts.append(f"<h3>{html.escape(block.title)}</h3>")
                if block.note:
                    parts.append(f"<p>{inline_html(block.note)}</p>")
                parts.append(html_table(block.frame))
                if block.csv:
                    parts.append(
                        f'<p class="files">Data: <a href="{block.csv}">{block.csv}</a></p>'
                    )
        parts.append("</section>")
        return "\n".join(parts)


# --- formatting ----------------------------------------------------------------------
def figure_png(fig: Figure) -> bytes:
    """The figure as a small PNG (256-colour palette), closing the figure."""
    import matplotlib.pyplot as plt
    from PIL import Image

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    plt.close(fig)
    buf.seek(0)
    image = Image.open(buf).convert("RGB").quantize(colors=256)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def inline_html(text: str) -> str:
    """Escape ``text`` for HTML and render its `code`, **bold**, *italic* and [link](#a) marks."""
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", out)
    out = re.sub(r"\[([^\]]+)\]\((#[\w-]+|[\w./-]+)\)", r'<a href="\2">\1</a>', out)
    return re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"<i>\1</i>", out)


_NUMERIC = re.compile(r"^[-+−]?[\d.,]+( |$|\[)|^—$")


def html_table(df: pl.DataFrame) -> str:
    """An HTML table of a small frame; numbers right-aligned, nulls as an em dash."""

    def cell(v: object) -> str:
        if v is None:
            return '<td class="n">—</td>'
        if isinstance(v, float):
            return f'<td class="n">{v:.4f}</td>'
        if isinstance(v, int):
            return f'<td class="n">{v:,}</td>'
        text = str(v)
        cls = ' class="n"' if _NUMERIC.match(text) else ""
        return f"<td{cls}>{html.escape(text)}</td>"

    head = "".join(f"<th>{html.escape(c)}</th>" for c in df.columns)
    rows = "".join("<tr>" + "".join(cell(v) for v in r) + "</tr>" for r in df.iter_rows())
    return (
        f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>{rows}</tbody></table></div>"
    )


def _decimals(v: float) -> int:
    """Decimal places that show about four significant digits of ``v`` (0 to 6)."""
    if v == 0 or not math.isfinite(v):
        return 0
    return min(6, max(0, 3 - math.floor(math.log10(abs(v)))))


def _missing(v: float | None) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def fmt_number(v: float | None, decimals: int | None = None) -> str:
    """A number for a table cell: about four significant digits, ``—`` for null or NaN.

    Args:
        v: the number.
        decimals: decimal places to use instead of the automatic choice.
    """
    if v is None or _missing(v):
        return "—"
    places = _decimals(v) if decimals is None else decimals
    return f"{v:,.{places}f}"


def fmt_interval(est: float | None, low: float | None, high: float | None) -> str:
    """``estimate [low, high]`` with one number of decimals for all three; ``—`` if no estimate."""
    if est is None or _missing(est):
        return "—"
    places = max(_decimals(v) for v in (est, low, high) if v is not None and not _missing(v))
    return f"{fmt_number(est, places)} [{fmt_number(low, places)}, {fmt_number(high, places)}]"


def interval_column(df: pl.DataFrame, est: str, low: str, high: str, name: str) -> pl.Series:
    """A string column ``estimate [low, high]`` from three numeric columns of ``df``."""
    return pl.Series(
        name,
        [fmt_interval(e, lo, hi) for e, lo, hi in zip(df[est], df[low], df[high], strict=True)],
        dtype=pl.String,
    )


def mean_interval_column(df: pl.DataFrame, mean: str, se: str, name: str) -> pl.Series:
    """``mean [mean − 1.96 se, mean + 1.96 se]`` as a string column."""
    values = []
    for m, s in zip(df[mean], df[se], strict=True):
        if m is None or s is None:
            values.append(fmt_number(m))
        else:
            values.append(fmt_interval(m, m - Z95 * s, m + Z95 * s))
    return pl.Series(name, values, dtype=pl.String)


def _number_column(df: pl.DataFrame, column: str, name: str | None = None) -> pl.Series:
    return pl.Series(name or column, [fmt_number(v) for v in df[column]], dtype=pl.String)


# --- sections ------------------------------------------------------------------------
def _reshuffle_text(rules: Rules) -> str:
    """The rules' reshuffle conditions (docs/rules.md §3) in words."""
    r = rules.reshuffle
    hand = []
    if r.hand_points_below > 0:
        hand.append(f"fewer than {r.hand_points_below} card points")
    if r.hand_nines > 0:
        hand.append(f"{r.hand_nines} or more nines")
    if r.hand_four_jacks:
        hand.append("four jacks")
    talon = []
    if r.talon_points_below > 0:
        talon.append(f"fewer than {r.talon_points_below} card points")
    if r.talon_two_nines:
        talon.append("two nines")
    if r.talon_three_jacks:
        talon.append("three jacks")
    hand_text = " or ".join(hand) if hand else "never"
    talon_text = " or ".join(talon) if talon else "never"
    return f"a hand is redealt on {hand_text}; the talon on {talon_text}"


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


def odds_section(odds: OddsResult) -> Section:
    """Deal odds: reshuffle conditions, marriages and card counts, simulated vs exact.

    Args:
        odds: an odds run with its statistics (:func:`analysis.odds.odds_result`).
    """
    rules = odds.rules
    table = odds.table
    sec = Section("odds", "Deal odds and reshuffle conditions: exact vs simulated")
    any_resh = odds.entries()["deal.any_reshuffle"]
    sec.blocks.append(
        Text(
            f"Probabilities per deal of the conditions players argue about, over "
            f"{odds.run.deals:,} simulated deals: marriages, reshuffle conditions (docs/rules.md "
            f"§3) and card counts. Under **{rules.name}** {_reshuffle_text(rules)}. A deal "
            f"meets some reshuffle condition with probability "
            f"{fmt_interval(any_resh['estimate'], any_resh['ci_low'], any_resh['ci_high'])} "
            f"(simulated; exact {fmt_number(any_resh['exact'])}). `estimate` is the "
            "share of simulated deals with its 95 % Wilson interval, `exact` the "
            "combinatorial value and `z` = (estimate − exact) / standard error."
        )
    )
    sec.add_figure(
        "odds.png",
        plots.plot_odds(table, f"Deal odds, {rules.name}: simulated vs exact"),
        "Deal odds: simulated vs exact",
    )
    sec.add_figure(
        "odds_z.png",
        plots.plot_odds_z(table, f"Deal odds, {rules.name}: agreement with exact values"),
        "Deal odds: agreement with exact values",
    )
    shown = table.select(
        "key",
        "meaning",
        interval_column(table, "estimate", "ci_low", "ci_high", "estimate [95 % CI]"),
        _number_column(table, "exact"),
        pl.Series("z", [fmt_number(z, 2) for z in table["z"]], dtype=pl.String),
    )
    sec.add_table("Every odds key", "", shown, "odds.csv", table)
    return sec


def marriage_section(odds: OddsResult, hands_dir: Path | None) -> Section:
    """Marriage frequencies by suit: held, in hand plus talon, declared in play.

    Args:
        odds: an odds run with its statistics (the hand+talon counts run over the
            same deals).
        hands_dir: a hands run folder for the declared marriages, or None.
    """
    rules = odds.rules
    deals = odds.run.deals
    declared = declared_counts(hands_dir) if hands_dir is not None else None
    table = marriage_table(odds.document(), declared)
    sec = Section("marriages", "Marriage frequencies")
    played = "" if declared is None else f"; declared: {declared[0]:,} deals played out"
    sec.blocks.append(
        Text(
            "How often a marriage (K+Q of one suit) comes, by suit. `hand`: forehand's "
            "dealt hand holds it; `hand_talon`: forehand's hand plus the talon hold it "
            "(the cards the declarer sees after taking the talon), over the same "
            f"{deals:,} deals as the odds section, exact value beside; `declared`: "
            "some player declared it in a deal played out (neither redealt nor conceded), "
            "under the run's strategies — no closed form, and a selected sample: conceded "
            "deals are left out, and a player who concedes hands without a marriage (as "
            "the first heuristic, `heuristic_v1`, often did) leaves the played-out deals "
            "rich in marriages. "
            "`any` is at least one marriage "
            f"of any suit. Sample sizes (`n`): {deals:,} deals{played}."
        )
    )
    sec.add_figure(
        "marriages.png",
        plots.plot_marriages(table, f"Marriage frequency by suit, {rules.name}"),
        "Marriage frequency by suit: held, in hand + talon, declared",
    )
    shown = table.select(
        pl.col("where").replace_strict(WHERE, default=pl.col("where")).alias("where"),
        "suit",
        "hits",
        "n",
        interval_column(table, "rate", "ci_low", "ci_high", "rate [95 % CI]"),
        _number_column(table, "exact"),
    )
    sec.add_table("Marriages by suit", "", shown, "marriages.csv", table)
    return sec


def _par_display(t: pl.DataFrame) -> pl.DataFrame:
    """The par table as shown: each rate as ``estimate [low, high]``."""
    return t.select(
        "contract",
        "contracts",
        interval_column(t, "rate_all", "ci_low_all", "ci_high_all", f"{MADE_ALL.label} [95 % CI]"),
        interval_column(t, "par_rate", "par_ci_low", "par_ci_high", "par, own discard"),
        interval_column(
            t, "par_best_rate", "par_best_ci_low", "par_best_ci_high", "par, best discard"
        ),
    )


def _rate_display(t: pl.DataFrame, keys: Sequence[str]) -> pl.DataFrame:
    """Key columns and the bid-table rates as ``estimate [low, high]`` strings."""
    return t.select(
        *keys,
        "contracts",
        "n",
        "made",
        interval_column(t, "rate", "ci_low", "ci_high", f"{MADE_PLAYED.label} [95 % CI]"),
        "conceded",
        interval_column(
            t,
            "concession_rate",
            "concession_ci_low",
            "concession_ci_high",
            f"{CONCEDED_ALL.label} [95 % CI]",
        ),
        interval_column(t, "rate_all", "ci_low_all", "ci_high_all", f"{MADE_ALL.label} [95 % CI]"),
    )


def bids_section(hands_dir: Path) -> Section:
    """Bid success by contract and hand class, and safe bid levels, from a hands run.

    Args:
        hands_dir: a ``thousand hands`` run folder.
    """
    tables = bid_tables(hands_dir)
    summary = tables["summary"]
    info = summary.row(0, named=True)
    min_n = int(info["min_n"])
    sec = Section("bids", "Contracts as the hands run played them")
    made = _pct(info["rate"], info["ci_low"], info["ci_high"])
    conceded = _pct(info["concession_rate"], info["concession_ci_low"], info["concession_ci_high"])
    sec.blocks.append(
        Text(
            f"**In short:** the run's declarers made {made} of the contracts they played "
            f"and conceded {conceded} of all their contracts."
        )
    )
    sec.blocks.append(
        Text(
            f"From {info['contracts']:,} contracts ({info['reshuffled']:,} redeals on the way). "
            "A *contract* is a deal that was not redealt; the declarer either "
            "conceded it (роспись) or played it. `made / played` is the make rate among "
            "played contracts, `made / contracts` counts a concession as a failure; all "
            "with 95 % Wilson intervals. These rates describe the run's players (see the "
            "top) and the contracts *they* chose after the talon: a level is made more "
            "often when only strong hands name it, so read safe bids from the section "
            "above, which plays every hand at every level."
        )
    )
    sec.add_figure(
        "bids_make_rate.png",
        plots.plot_make_rate(
            tables["by_contract"],
            f"Make rate against contract, {info['rules']} (levels with ≥ {min_n} played)",
            min_n,
        ),
        "Make rate against contract level",
    )
    sec.add_table(
        "All contracts",
        "",
        _rate_display(summary, []),
        "bids_summary.csv",
        summary,
    )
    for name, keys, title, note in (
        ("by_contract", ["contract"], "By contract level", "The contract named after the discard."),
        (
            "by_marriage_count",
            ["marriages"],
            "By marriages held after the discard",
            "Marriages in the declarer's 8 cards after giving one card to each opponent.",
        ),
        (
            "by_points_band",
            ["points_band"],
            "By the declarer's hand points",
            "Card points of the declarer's dealt 7-card hand (talon not included).",
        ),
        (
            "by_relative_seat",
            ["position"],
            "By the declarer's seat relative to the dealer",
            "Forehand bids first; the dealer last.",
        ),
        ("by_at_100", ["how_won"], "Won at 100 versus bid up", ""),
    ):
        t = tables[name]
        sec.add_table(title, note, _rate_display(t, keys), f"bids_{name}.csv", t)
    if "par" in tables:  # a run played with the open-card par (--par)
        par = tables["par"]
        sec.add_table(
            "Made against the open-card par",
            "By contract level: how often the run's declarers made it (`rate_all`, a "
            "concession counting as a failure) beside how often the open-card par reaches "
            "it: `par_rate` after the declarer's own discard, `par_best_rate` after the best "
            "one, with every card face up and both sides playing best. The par is what the "
            "declarer can force against a defence that sees every card, so it bounds what "
            "a declarer can be sure of; defenders who cannot see the cards may give more, "
            "and the played rate can then exceed the par.",
            _par_display(par),
            "bids_par.csv",
            par,
        )
    sec.add_csv(
        "bids_by_marriage_set.csv",
        tables["by_marriage_set"],
        "rates by the set of marriages held after the discard",
    )
    sec.add_csv("bids_by_seat.csv", tables["by_seat"], "rates by the declarer's absolute seat")
    return sec


def safebids_section(result: SafeBidResult, examples: Sequence[Advice] = ()) -> Section:
    """Safe bids from the hand before the talon, by player (:mod:`analysis.safebids`).

    ``examples``: the advisor's answers for a few hands (``thousand advise``).
    """
    run = result.run
    t = result.tables
    sec = Section("safebids", "Safe bids from the hand before the talon")
    first = run.players[0]
    safe = t["safe_by_marriages"].filter(pl.col("player") == first)
    heart = safe.filter(pl.col("marriages") == "♥").to_dicts()
    none = safe.filter(pl.col("marriages") == "none").to_dicts()
    answer = []
    if heart:
        h = heart[0]
        lvl = h["safe_75"]
        answer.append(
            f"With a ♥ marriage (and nothing else known about the hand) `{first}` makes "
            + (f"up to {lvl} at least 75 % of the time" if lvl else "no level 75 % of the time")
            + f" ({h['n']:,} hands)"
        )
    if none:
        r100 = none[0]["rate_100"]
        answer.append(f"without a marriage it makes 100 in {r100:.0%} of hands")
    if answer:
        sec.blocks.append(Text("; ".join(answer) + "."))
    sec.blocks.append(
        Text(
            "Every dealt hand is played as the declarer's, not only the hands that won an "
            "auction: it takes the talon, gives cards away, names its contract and plays, "
            "against opponents holding the rest of the deal (nothing said in an auction "
            "narrows their hands). A hand makes level L when it may bid L (its cap), would "
            "not concede at L and its deal total reaches L. Every level is read from the "
            "same hands, so a curve falls as L rises; the safe bid at 50 / 75 / 90 % is the "
            "highest level whose 95 % Wilson interval's lower end reaches that rate (— "
            "where none does). The players:"
        )
    )
    sec.add_table(
        "Who played",
        "`hands` = dealt hands played as the declarer's; `mean total` their mean deal "
        "total (card points and marriages; the par's is its best total). The par is an "
        "upper bound, not a player; `pimc` and the par run on a small sample by default "
        "(`thousand report --safe-sample`, `thousand safebids --sample`).",
        t["players"].select(
            "player",
            "deals",
            "hands",
            mean_interval_column(t["players"], "mean_total", "se_total", "mean total [95 % CI]"),
            "who",
        ),
        "safebids_players.csv",
        t["players"],
    )
    caveat = defence_caveat(run.players)
    if caveat:
        sec.blocks.append(Text(caveat))
    sec.add_figure(
        "safebids_curves.png",
        plots.plot_safe_curves(t["curve_by_marriages"], run.rules.name),
        "Make rate by bid level for hands with one marriage or none",
    )
    sec.add_table(
        "Bid chart: marriages in hand",
        "Each cell: the safe bid at 50 / 75 / 90 % and (in brackets) the hands it rests "
        "on. The cap differs by suit, so the classes are by suit.",
        bid_chart(result),
        "safebids_safe_by_marriages.csv",
        t["safe_by_marriages"],
    )
    sec.add_table(
        "Bid chart: marriages and aces",
        "The same, by marriages and the number of aces in the 7 cards.",
        bid_chart(result, "by_marriages_aces"),
        "safebids_safe_by_marriages_aces.csv",
        t["safe_by_marriages_aces"],
    )
    for name, what in (
        ("by_aces_tens", "safe levels by aces and tens"),
        ("by_points", "safe levels by card points in bands of 10"),
        ("by_position", "safe levels by the declarer's seat"),
    ):
        sec.add_csv(f"safebids_safe_{name}.csv", t[f"safe_{name}"], what)
    for name in CLASS_KEYS:
        sec.add_csv(
            f"safebids_curve_{name}.csv",
            t[f"curve_{name}"],
            f"P(make L) at every level, {name.removeprefix('by_').replace('_', ' and ')}",
        )
    if examples:
        shown = examples_table(examples)
        sec.add_table(
            "Worked examples: the advisor",
            "`thousand advise HAND --player P`: the cards the hand cannot see dealt at random "
            "(`deals` times), each deal played with the hand as forehand's; the bid up to "
            "which the 95 % interval's lower end stays at 75 %, the contract of the best "
            "expected score if it beats passing, and what the hand scores as a defender when "
            f"it passes (deals played by `{examples[0].pass_player}` at every seat).",
            shown,
            "safebids_examples.csv",
            shown,
        )
    if "calibration_summary" in t:
        summary = t["calibration_summary"]
        rows = summary.to_dicts()
        words = "; ".join(
            f"`{r['player']}` {r['share_within_2se']:.0%} of {r['cells']} cells" for r in rows
        )
        sec.add_figure(
            "safebids_calibration.png",
            plots.plot_calibration(t["calibration_bins"], run.rules.name),
            "Held-out make rate against the predicted rate",
        )
        sec.add_table(
            "Held-out check",
            f"The tables (by marriages, every level) built on seed {run.seed}, checked on "
            f"the hands of seed {run.holdout_seed}: the share of cells with 30 or more "
            "hands on both seeds whose rate lies within 1.96 standard errors of the prediction "
            f"(about 95 % when the tables are calibrated): {words or 'no cell large enough'}.",
            summary.select(
                "player",
                "cells",
                _wilson_column(summary, "within_2se", "cells", "share within 1.96 SE [95 % CI]"),
                pl.col("max_abs_z").round(2).alias("largest |z|"),
            ),
            "safebids_calibration.csv",
            t["calibration"],
        )
    return sec


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
    unfinished_share = _wilson_column(gl, "unfinished", "games", "unfinished share [95 % CI]")
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
            _number_column(gl, "sd"),
            "min",
            *[_number_column(gl, q) for q in quantiles],
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


def _wilson_column(df: pl.DataFrame, hits: str, n: str, name: str) -> pl.Series:
    """``hits / n`` with its Wilson interval as an ``estimate [low, high]`` string column."""
    from analysis.stats import wilson_interval

    k = df[hits].cast(pl.Float64).to_numpy()
    m = df[n].cast(pl.Float64).to_numpy()
    low, high = wilson_interval(k, m)
    values = [
        fmt_interval(a / b if b else None, lo, hi)
        for a, b, lo, hi in zip(k.tolist(), m.tolist(), low.tolist(), high.tolist(), strict=True)
    ]
    return pl.Series(name, values, dtype=pl.String)


def seat_section(tables: Mapping[str, pl.DataFrame]) -> Section:
    """Seat advantage: wins by seat relative to the first dealer and absolute, chi-square.

    Args:
        tables: :func:`analysis.barrel.barrel_tables` of a ``thousand games`` run.
    """
    info = tables["summary"].row(0, named=True)
    players = int(info["players"])
    rel, ab, chi2 = tables["seat_relative"], tables["seat_absolute"], tables["seat_chi2"]
    sec = Section("seats", "Seat advantage")
    sec.blocks.append(
        Text(
            f"Who wins the finished games, by the winner's place in the game's first deal "
            f"(forehand bids first) and by absolute seat; a fair game gives each seat "
            f"1/{players} = {1 / players:.4f}. Win rates with 95 % Wilson intervals; the "
            "chi-square test compares the win counts with an even split."
        )
    )
    sec.add_figure(
        "seat_advantage.png",
        plots.plot_seat_advantage(rel, ab, players, f"Win rate by seat, {info['rules']}"),
        "Win rate by seat with the even share 1/players",
    )
    sec.add_table(
        "Winner's seat relative to the first dealer",
        "",
        rel.select(
            "position",
            "offset",
            "wins",
            "games",
            interval_column(rel, "rate", "ci_low", "ci_high", "win rate [95 % CI]"),
            "expected",
        ),
        "games_seat_relative.csv",
        rel,
    )
    sec.add_table(
        "Winner's absolute seat",
        "",
        ab.select(
            "seat",
            "wins",
            "games",
            interval_column(ab, "rate", "ci_low", "ci_high", "win rate [95 % CI]"),
            "expected",
        ),
        "games_seat_absolute.csv",
        ab,
    )
    sec.add_table(
        "Seat uniformity tests",
        "Pearson chi-square of the win counts against 1/players per seat.",
        chi2,
        "games_seat_chi2.csv",
        chi2,
    )
    return sec


def compare_section(compare: pl.DataFrame, rule_sets: Sequence[tuple[str, Rules]] = ()) -> Section:
    """House-rule comparison: base vs other rule sets per metric, differences with intervals.

    Args:
        compare: the ``thousand compare`` table, with the columns of
            :data:`COMPARE_COLUMNS` (one row per metric and compared rule set).
        rule_sets: ``(name, rules)`` of the base first, then the others; their
            differing options are listed (none listed when empty).

    Raises:
        ValueError: when a column is missing.
    """
    missing = [c for c in COMPARE_COLUMNS if c not in compare.columns]
    if missing:
        raise ValueError(f"compare table lacks columns {missing}")
    t = compare.select(COMPARE_COLUMNS)
    base = ", ".join(dict.fromkeys(t["rules"].cast(pl.String).to_list()))
    others = ", ".join(dict.fromkeys(t["vs"].cast(pl.String).to_list()))
    sec = Section("compare", "House-rule comparison")
    sec.blocks.append(
        Text(
            f"Base rules **{base}** against **{others}**, the same deals for every rule set "
            "(common random numbers). Each difference is other − base with its 95 % "
            "interval, and the change in percent of the base value. The rates count the "
            "contracts of whole games (barrel and game end included), so they differ "
            'from the same-named rates of the hands run in "Contracts as the hands run '
            'played them", which counts single deals.'
        )
    )
    if len(rule_sets) > 1:
        diffs = rule_differences(rule_sets)
        long = diffs.unpivot(index="option", variable_name="rules", value_name="value")
        sec.add_table(
            f"What differs: {len(diffs)} option{'s' if len(diffs) != 1 else ''}",
            "Every other option is the same in all rule sets (docs/rules.md explains each).",
            diffs,
            "compare_rules.csv",
            long,
        )
    for row in t.iter_rows(named=True):
        sec.blocks.append(Text(compare_sentence(row)))
    sec.add_figure(
        "compare.png",
        plots.plot_compare(t, f"House rules: {others} against {base}"),
        "House-rule comparison: differences with 95 % intervals",
    )

    def pct(row: Mapping[str, Any]) -> str:
        b, d = row["base"], row["diff"]
        if b is None or d is None or _missing(b) or _missing(d) or b == 0:
            return "—"
        return f"{100 * d / abs(b):+.1f} %"

    shown = pl.DataFrame(
        {
            "measure": t["meaning"],
            "rules": t["vs"],
            "base [95 % CI]": [
                f"{sig(v)} [{sig(lo)}, {sig(hi)}]"
                for v, lo, hi in zip(t["base"], t["base_ci_low"], t["base_ci_high"], strict=True)
            ],
            "other [95 % CI]": [
                f"{sig(v)} [{sig(lo)}, {sig(hi)}]"
                for v, lo, hi in zip(t["other"], t["other_ci_low"], t["other_ci_high"], strict=True)
            ],
            "other − base [95 % CI]": [
                f"{sig(d, 3)} [{sig(lo, 3)}, {sig(hi, 3)}]"
                for d, lo, hi in zip(t["diff"], t["diff_ci_low"], t["diff_ci_high"], strict=True)
            ],
            "change": [pct(r) for r in t.iter_rows(named=True)],
        }
    )
    sec.add_table(
        "Metrics by rule set",
        "The CSV adds the interval widths with and without common random numbers, and the games.",
        shown,
        "compare.csv",
        t,
    )
    return sec


# The deal odds and game metrics the "Shuffled or cut?" figure shows, in this order.
DEALING_HEADLINES = (
    "hand.any_marriage",
    "hand_talon.any_marriage",
    "hand.reshuffle",
    "talon.reshuffle",
    "deal.any_reshuffle",
    "game_length",
    "declarer_make_rate",
    "concession_rate",
)


def _excludes_zero(row: Mapping[str, Any]) -> bool:
    low, high = row["diff_ci_low"], row["diff_ci_high"]
    return not (_missing(low) or _missing(high)) and (low > 0 or high < 0)


def _gap(row: Mapping[str, Any], percent: bool = False) -> str:
    """``other against base (diff [low, high])`` for one compared row.

    ``percent``: the row is a share, shown in percent with its difference in points.
    A value without an interval (from one game) is shown alone.
    """
    scale, unit, points = (100.0, " %", " points") if percent else (1.0, "", "")

    def value(
        est: float | None, low: float | None, high: float | None, unit: str, sign: str = ""
    ) -> str:
        if est is None or _missing(est):
            return "—"
        text = f"{scale * est:{sign}.1f}{unit}"
        if low is None or high is None or _missing(low) or _missing(high):
            return text
        return f"{text} [{scale * low:{sign}.1f}, {scale * high:{sign}.1f}]"

    other = value(row["other"], row["other_ci_low"], row["other_ci_high"], unit)
    base = value(row["base"], row["base_ci_low"], row["base_ci_high"], unit)
    diff = value(row["diff"], row["diff_ci_low"], row["diff_ci_high"], points, "+")
    return f"{other} against {base} ({diff})"


def dealing_section(
    names: tuple[str, str],
    odds: tuple[OddsCounts, OddsCounts],
    games: pl.DataFrame,
    strategies: str,
) -> Section:
    """Shuffled or cut? The same rules dealt from a shuffled and from a cut deck.

    Args:
        names: labels of the shuffled and the cut run.
        odds: their odds runs (:func:`sim.odds.run_odds`), shuffled first.
        games: the :func:`analysis.compare.compare_games` table of their games runs
            (base: shuffled).
        strategies: who played (under the cut their play makes the next deck).
    """
    shuffled, cut = names
    rates = compare_rates(
        shuffled, (odds[0].deals, odds[0].hits), cut, (odds[1].deals, odds[1].hits), ODDS_KEYS
    )
    by_key = {r["metric"]: r for r in rates.iter_rows(named=True)}
    by_metric = {r["metric"]: r for r in games.iter_rows(named=True)}
    differing = sum(_excludes_zero(r) for r in by_key.values())
    game_diffs = sum(_excludes_zero(r) for r in by_metric.values())
    changed = differing + game_diffs > 0
    verdict = (
        "**Not shuffling changes the game.**"
        if changed
        else "**At these sample sizes, not shuffling does not measurably change the game.**"
    )
    sec = Section("dealing", "Shuffled or cut?")
    share = {k: _gap(by_key[k], percent=True) for k in DEALING_HEADLINES if k in by_key}
    sec.blocks.append(
        Text(
            f"{verdict} Dealt from the previous deal's cards as they lie (cut once, dealt one "
            f"card at a time), a deal meets some reshuffle condition in "
            f"{share['deal.any_reshuffle']} of deals, cut against shuffled; forehand holds a "
            f"marriage in {share['hand.any_marriage']}; forehand's hand and the talon hold one "
            f"in {share['hand_talon.any_marriage']}. {differing} of {len(by_key)} deal "
            f"quantities and {game_diffs} of {len(by_metric)} game measures differ by more "
            f"than their 95 % interval. In whole games, games last "
            f"{_gap(by_metric['game_length'])} played deals and declarers made "
            f"{_gap(by_metric['declarer_make_rate'], percent=True)} of played contracts."
        )
    )
    sec.blocks.append(
        Text(
            f"How it was measured: the same rules, seed and sizes under `deal.method = "
            f'"shuffle"` ({shuffled}) and `"cut"` ({cut}); every deal played by '
            f"**{strategies}** on every seat — under the cut their play decides the next "
            "deck, so the cut numbers describe this player's games. Deal odds count each "
            f"deal of {odds[0].deals:,} (under the cut: chains of "
            f"{odds[1].rules.deal.cut_chain} deals from one shuffle, as `thousand "
            "odds` deals them); their differences carry the interval of two independent "
            "samples, which is conservative (the two runs share every chain's first deal). "
            "The game measures are those of `thousand compare` on the same games (common "
            "random numbers: each game's first deal is the same)."
        )
    )
    figure_rows = pl.concat(
        [
            rates.filter(pl.col("metric").is_in(DEALING_HEADLINES)).select(
                "metric", "meaning", "rules", "vs", "diff", "diff_ci_low", "diff_ci_high"
            ),
            games.filter(pl.col("metric").is_in(DEALING_HEADLINES)).select(
                "metric", "meaning", "rules", "vs", "diff", "diff_ci_low", "diff_ci_high"
            ),
        ]
    )
    order = {m: i for i, m in enumerate(DEALING_HEADLINES)}
    figure_rows = figure_rows.sort(pl.col("metric").replace_strict(order, return_dtype=pl.Int64))
    sec.add_figure(
        "dealing.png",
        plots.plot_compare(figure_rows, f"Cut against shuffled deck: {cut} − {shuffled}"),
        "Cut against shuffled deck: differences with 95 % intervals",
    )
    odds_shown = rates.select(
        "metric",
        "meaning",
        interval_column(rates, "base", "base_ci_low", "base_ci_high", "shuffled [95 % CI]"),
        interval_column(rates, "other", "other_ci_low", "other_ci_high", "cut [95 % CI]"),
        interval_column(rates, "diff", "diff_ci_low", "diff_ci_high", "cut − shuffled [95 % CI]"),
    )
    sec.add_table("Deal odds, shuffled against cut", "", odds_shown, "dealing_odds.csv", rates)
    games_shown = games.select(
        "metric",
        "meaning",
        interval_column(games, "base", "base_ci_low", "base_ci_high", "shuffled [95 % CI]"),
        interval_column(games, "other", "other_ci_low", "other_ci_high", "cut [95 % CI]"),
        interval_column(games, "diff", "diff_ci_low", "diff_ci_high", "cut − shuffled [95 % CI]"),
        "games",
    )
    sec.add_table("Whole games, shuffled against cut", "", games_shown, "dealing_games.csv", games)
    return sec


# --- the report ----------------------------------------------------------------------
def _part_manifest(run_dir: Path | None) -> dict[str, Any] | None:
    """The parts of a run's ``run.json`` the report repeats (not the rules again)."""
    if run_dir is None:
        return None
    doc = read_manifest(run_dir)
    keep = ("command", "seed", "sizes", "strategies", "params", "seconds", "engine_version")
    return {k: doc[k] for k in keep if k in doc}


class DealingPlay(Protocol):
    """The runs of "Shuffled or cut?" (:class:`sim.compare.DealingRuns` is one)."""

    @property
    def names(self) -> tuple[str, str]:
        """The labels of the shuffled and the cut run."""

    @property
    def odds(self) -> tuple[OddsCounts, OddsCounts]:
        """Their odds runs, shuffled first."""

    @property
    def games_dirs(self) -> tuple[Path, Path]:
        """Their games run folders, shuffled first."""

    @property
    def strategies(self) -> str:
        """Who played."""


def _pct(p: float, lo: float, hi: float) -> str:
    """A share as percent with its interval: ``28.6 % [28.4, 28.8]``."""
    return f"{100 * p:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]"


def _mean_ci(row: Mapping[str, Any]) -> str:
    """``mean [low, high]`` from a row's ``mean`` and ``se`` (no interval from one game)."""
    mean, se = row["mean"], row.get("se")
    if se is None or not math.isfinite(se):
        return f"{mean:.1f} (one game: no interval)"
    return f"{mean:.1f} [{mean - Z95 * se:.1f}, {mean + Z95 * se:.1f}]"


def p_value_words(p: float, games: int) -> str:
    """What a chi-square p-value of equal seat chances means, in one clause."""
    runs = f"runs of {games:,} game{'' if games == 1 else 's'}"
    if p < 0.001:
        return (
            f"p < 0.001: with equal chances a spread this uneven would come by chance in "
            f"fewer than 1 in 1,000 {runs}, so the seats differ"
        )
    verdict = (
        "so the seats very likely differ, if only a little"
        if p < 0.05
        else "which is common by chance alone: no seat advantage is shown"
    )
    return (
        f"p = {p:.3f}: with equal chances a spread this uneven would come by chance in "
        f"{100 * p:.1f} % of {runs}, {verdict}"
    )


def answers(
    odds: OddsResult,
    safebids: SafeBidResult | None = None,
    games_tables: Mapping[str, pl.DataFrame] | None = None,
    players: Sequence[str] | None = None,
) -> dict[str, str]:
    """One sentence per section anchor: the answer a player came for, with its interval.

    ``players`` (the strategies of the games run, by seat) are named in the sentences
    that played games measure.

    The summary at the top lists them, each linking to its section, and each section
    opens with its own.
    """
    out: dict[str, str] = {}
    e = odds.entries()
    m = e.get("hand.any_marriage")
    if m is not None:
        share = _pct(m["estimate"], m["ci_low"], m["ci_high"])
        out["marriages"] = (
            f"Forehand's dealt hand holds a marriage in {share} of deals "
            f"(exact {100 * m['exact']:.2f} %)."
        )
    r = e.get("deal.any_reshuffle")
    if r is not None and r["exact"] and r["exact"] > 0:
        out["odds"] = (
            f"Some hand or the talon meets a reshuffle condition in "
            f"{_pct(r['estimate'], r['ci_low'], r['ci_high'])} of deals (exact "
            f"{100 * r['exact']:.2f} %)."
        )
    elif r is not None:
        out["odds"] = "No deal can be reshuffled under these rules (no condition is on)."
    if safebids is not None:
        curve = safebids.tables["curve_by_marriages"]
        player = safebids.run.players[0]
        parts = []
        for label in ("♥", "♠"):
            row = curve.filter(
                (pl.col("player") == player) & (pl.col("marriages") == label)
                & (pl.col("level") == 120)
            )  # fmt: skip
            if len(row):
                x = row.row(0, named=True)
                parts.append((label, _pct(x["rate"], x["ci_low"], x["ci_high"])))
        if len(parts) == 2:
            out["safebids"] = (
                f"Bidding 120 with the {parts[0][0]} marriage alone, the hand makes it in "
                f"{parts[0][1]} of deals; with the {parts[1][0]} marriage alone in {parts[1][1]} "
                f"(every dealt hand played as the declarer's by `{player}`)."
            )
    if games_tables is not None:
        who = ", ".join(dict.fromkeys(players)) if players else "the run's players"
        b = games_tables.get("barrel_summary")
        if b is not None and len(b) and b["stints"][0] > 0:
            x = b.row(0, named=True)
            length = games_tables["game_length"].row(0, named=True)
            out["barrel"] = (
                f"{_pct(x['fall_rate'], x['fall_ci_low'], x['fall_ci_high'])} of climbs onto "
                f"the barrel end in a fall; a game lasts {_mean_ci(length)} played deals on "
                f"average (median {length['q50']:.0f}; games of `{who}`)."
            )
        elif "game_length" in games_tables:
            length = games_tables["game_length"].row(0, named=True)
            out["barrel"] = (
                f"There is no barrel under these rules; a game lasts {_mean_ci(length)} "
                f"played deals on average (games of `{who}`)."
            )
        rel = games_tables.get("seat_relative")
        chi2 = games_tables.get("seat_chi2")
        if rel is not None and chi2 is not None and len(rel) and len(chi2):
            best = rel.sort("rate", descending=True).row(0, named=True)
            worst = rel.sort("rate").row(0, named=True)
            test = chi2.row(0, named=True)
            out["seats"] = (
                f"The player who was {best['position']} in the first deal wins "
                f"{_pct(best['rate'], best['ci_low'], best['ci_high'])} of games, the "
                f"{worst['position']} {_pct(worst['rate'], worst['ci_low'], worst['ci_high'])} "
                f"(fair {100 * best['expected']:.1f} %; games of `{who}`); "
                f"{p_value_words(float(test['p_value']), int(test['games']))}."
            )
    return out


SUMMARY_ORDER = (
    ("marriages", "How often a marriage comes"),
    ("odds", "How often a deal is reshuffled"),
    ("safebids", "How safe 120 is with one marriage"),
    ("guide", "How high to bid, by the guide"),
    ("barrel", "The barrel and the length of a game"),
    ("seats", "Seat advantage"),
)


def summary_section(found: Mapping[str, str], anchors: Sequence[str]) -> Section:
    """The report's opening: each answer in one sentence, linked to its section."""
    sec = Section("summary", "In short")
    for anchor, title in SUMMARY_ORDER:
        if anchor in found and anchor in anchors:
            sec.blocks.append(Text(f"**{title}.** {found[anchor]} [More](#{anchor})."))
    return sec


def render_pages(
    title: str, header: str, sections: Sequence[Section], footer_md: str, files_html: str
) -> tuple[str, str]:
    """A report's Markdown and its HTML page: title, header, contents, the sections.

    ``footer_md`` ends the Markdown; ``files_html`` lists the data files on the page.
    """
    contents_md = "\n".join(f"- [{s.title}](#{s.anchor})" for s in sections)
    md = "\n".join([f"# {title}", "", header, "", contents_md, "", *(s.markdown for s in sections)])
    md += f"\n{footer_md}\n"
    contents_html = "".join(
        f'<li><a href="#{s.anchor}">{html.escape(s.title)}</a></li>' for s in sections
    )
    body = "\n".join(s.html for s in sections)
    page = f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>
<h1>{html.escape(title)}</h1>
<p>{inline_html(header)}</p>
<ul>{contents_html}</ul>
{body}
<p class="files">Data: {files_html}</p>
</body></html>
"""
    return md, page


def write_pages(
    folder: Path, title: str, header: str, sections: Sequence[Section], md_name: str
) -> None:
    """Write the sections' figures and CSVs, ``md_name`` and ``index.html`` into ``folder``.

    The page lists ``run.json`` and ``md_name`` as its data files; ``md_name`` ends by
    pointing at both.
    """
    for sec in sections:
        for name, png in sec.figures.items():
            (folder / name).write_bytes(png)
        for name, frame in sec.csvs.items():
            frame.write_csv(folder / name)
    what = md_name.partition(".")[0]
    md, page = render_pages(
        title,
        header,
        sections,
        f"Rules, sizes and versions: `run.json`. The same {what} as a page: `index.html`.",
        '<a href="run.json">run.json</a> (rules, sizes, versions),\n'
        f'<a href="{md_name}">{md_name}</a> (the same {what} in Markdown).',
    )
    (folder / md_name).write_text(md, encoding="utf-8")
    (folder / "index.html").write_text(page, encoding="utf-8")


def build_report(
    out: Path,
    odds: OddsResult,
    hands_dir: Path | None = None,
    games_dir: Path | None = None,
    compare: pl.DataFrame | None = None,
    dealing: DealingPlay | None = None,
    safebids: SafeBidResult | None = None,
    examples: Sequence[Advice] = (),
    guide: Section | None = None,
    rule_sets: Sequence[tuple[str, Rules]] = (),
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
        dealing: the shuffled-or-cut runs (:class:`sim.compare.DealingRuns`: ``names``,
            ``odds``, ``games_dirs``, ``strategies``), or None to leave it out; their
            games are compared here (:func:`analysis.compare.compare_folders`).
        safebids: the safe-bid tables of every dealt hand played as the declarer's
            (:func:`analysis.safebids.build_result`), or None to leave them out.
        examples: the advisor's answers shown as worked examples in that section.
        guide: the strategy guide's section (:func:`analysis.guide.guide_report_section`),
            shown after the safe bids, or None to leave it out.
        rule_sets: ``(name, rules)`` of the compared rule sets, the base first (the
            options that differ are listed in the comparison).

    Returns:
        The sections, in report order.
    """
    rules = odds.rules
    seed, deals = odds.run.seed, odds.run.deals
    hands = _part_manifest(hands_dir)
    games = _part_manifest(games_dir)
    strategies = next((p["strategies"] for p in (hands, games) if p and "strategies" in p), None)
    params: list[str] = next((p["params"] for p in (hands, games) if p and p.get("params")), [])
    built = now_iso()
    import sim

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
    found = answers(odds, safebids, games_tables, strategies)
    found.update({s.anchor: s.answer for s in sections if s.answer})
    for sec in sections:  # each section opens with its answer
        if sec.anchor in found:
            sec.blocks.insert(0, Text(f"**In short:** {found[sec.anchor]}"))
    sections.insert(0, summary_section(found, [s.anchor for s in sections]))
    if dealing is not None:
        pairs = list(zip(dealing.names, dealing.games_dirs, strict=True))
        sections.append(
            dealing_section(dealing.names, dealing.odds, compare_folders(pairs), dealing.strategies)
        )
    if compare is not None:
        sections.append(compare_section(compare, rule_sets))

    sizes = [f"odds: {deals:,} simulated deals"]
    if info["hands_deals"] is not None:
        sizes.append(f"hands: {info['hands_deals']:,} deals played")
    if info["games"] is not None:
        sizes.append(f"games: {info['games']:,} whole games")
    who = f"; strategies {', '.join(strategies)}" if strategies else ""
    if params:
        who += f" ({', '.join(params)})"
    header = (
        f"Rules **{rules.name}** (`rules_hash` {rules.rules_hash}, {rules.players} players) "
        f"— seed {seed}; {'; '.join(sizes)}{who}. Built {built}."
    )
    title = f"Thousand report — {rules.name}"
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
        write_pages(d, title, header, sections, "report.md")
    return sections
