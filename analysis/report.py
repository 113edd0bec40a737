"""The report folder: ``index.html`` (self-contained), ``report.md``, PNG and CSV.

Sections are added as the toolkit grows; each states its sizes and every rate its
interval. Today: deal-level odds (reshuffle conditions, marriages, card counts),
simulated beside exact.
"""

from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import Any

import polars as pl
from matplotlib.figure import Figure

from analysis.plots import plot_odds, plot_odds_z
from analysis.tables import to_markdown
from sim.output import StagedDir, now_iso, run_manifest, write_json

_CSS = """
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;font-size:.85rem}td,th{border:1px solid #ccc;padding:.2rem .5rem}
td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f3f3f3}
img{max-width:100%}code{background:#f5f5f5;padding:0 .2rem}
"""

_ODDS_COLUMNS = ["key", "meaning", "estimate", "ci_low", "ci_high", "exact", "z"]


def _save(fig: Figure, path: Path) -> None:
    fig.savefig(path, dpi=110)
    import matplotlib.pyplot as plt

    plt.close(fig)


def _html_table(df: pl.DataFrame) -> str:
    def cell(v: object) -> str:
        if v is None:
            return "<td>—</td>"
        if isinstance(v, float):
            return f'<td class="n">{v:.6f}</td>'
        if isinstance(v, int):
            return f'<td class="n">{v:,}</td>'
        return f"<td>{html.escape(str(v))}</td>"

    head = "".join(f"<th>{html.escape(c)}</th>" for c in df.columns)
    rows = "".join("<tr>" + "".join(cell(v) for v in r) + "</tr>" for r in df.iter_rows())
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _img(path: Path, alt: str) -> str:
    data = base64.b64encode(path.read_bytes()).decode()
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def build_report(out: Path, odds: dict[str, Any]) -> None:
    """Write the report for one rules set into ``out`` (atomically).

    Args:
        out: the report folder (created; existing files of the same names replaced).
        odds: the document of :func:`sim.cli.run_odds` (with its private entries).
    """
    rules = odds["_rules"]
    table: pl.DataFrame = odds["_table"]
    shown = table.select(_ODDS_COLUMNS)
    header = (
        f"Rules **{rules.name}** (`rules_hash` {rules.rules_hash}, {rules.players} players) "
        f"— {odds['deals']:,} simulated deals, seed {odds['seed']}, built {now_iso()}."
    )
    with StagedDir(out) as staged:
        d = staged.path
        table.write_csv(d / "odds.csv")
        _save(plot_odds(table, f"Deal odds, {rules.name}: simulated vs exact"), d / "odds.png")
        _save(
            plot_odds_z(table, f"Deal odds, {rules.name}: agreement with exact values"),
            d / "odds_z.png",
        )
        write_json(
            d / "run.json",
            run_manifest(
                rules,
                odds["seed"],
                {"deals": odds["deals"]},
                command="report",
                started=odds["_timing"]["started"],
                ended=now_iso(),
            ),
        )

        intro = (
            "Probabilities per deal of the conditions players argue about: marriages, "
            "reshuffle conditions (RULES.md §3) and card counts. `estimate` is the share "
            "of simulated deals, `ci_low`–`ci_high` its 95 % Wilson interval, `exact` the "
            "combinatorial value and `z` = (estimate − exact) / standard error."
        )
        md = [
            f"# Thousand report — {rules.name}",
            "",
            header,
            "",
            "## Deal odds: exact vs simulated",
            "",
            intro,
            "",
            "![Deal odds](odds.png)",
            "",
            "![Agreement](odds_z.png)",
            "",
            to_markdown(shown),
            "Table as CSV: `odds.csv`. Rules and versions: `run.json`.",
            "",
        ]
        (d / "report.md").write_text("\n".join(md), encoding="utf-8")

        page = f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Thousand report — {html.escape(rules.name)}</title><style>{_CSS}</style></head><body>
<h1>Thousand report — {html.escape(rules.name)}</h1>
<p>Rules <b>{html.escape(rules.name)}</b> (<code>rules_hash</code> {rules.rules_hash},
{rules.players} players) — {odds["deals"]:,} simulated deals, seed {odds["seed"]}.</p>
<h2>Deal odds: exact vs simulated</h2>
<p>{html.escape(intro).replace("`", "")}</p>
{_img(d / "odds.png", "Deal odds: simulated vs exact")}
{_img(d / "odds_z.png", "Agreement with exact values")}
{_html_table(shown)}
<p>Data: <a href="odds.csv">odds.csv</a>, <a href="run.json">run.json</a>,
<a href="report.md">report.md</a>.</p>
</body></html>
"""
        (d / "index.html").write_text(page, encoding="utf-8")
