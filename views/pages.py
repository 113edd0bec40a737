"""The page kit of the report and the guide: blocks, sections, formatting, pages.

A page is a list of :class:`Section` objects. A section holds its text, tables and
figures as *blocks*, rendered once to Markdown and once to HTML, its figures as PNG
bytes (written beside the page and embedded in it as base64) and its CSV tables.
Every rate is shown with its 95 % Wilson interval and every mean with its 95 %
interval (mean ± 1.96 standard errors), written ``estimate [low, high]``
(:func:`fmt_interval`, :func:`interval_column`); the CSV files hold the same numbers
unformatted. :func:`write_pages` writes ``index.html`` (self-contained) and the
Markdown page of a folder.
"""

from __future__ import annotations

import base64
import html
import io
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl
from matplotlib.figure import Figure
from PIL import Image

from analysis.stats import Z95, wilson_interval
from sim.i18n import _, language, number
from views.numbers import interval
from views.tables import to_markdown

DPI = 90  # figure resolution; with a 256-colour palette a figure is some 30-60 kB

_CSS = """
body{font-family:system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;font-size:.8rem;margin:.5rem 0 1rem}
td,th{border:1px solid #ccc;padding:.15rem .45rem}
td{text-align:left}th{background:#f3f3f3;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}
td:not(.n),th{overflow-wrap:anywhere}
div.scroll{overflow-x:auto;max-width:100%}
img{max-width:100%;height:auto;display:block;margin:.5rem 0}
code{background:#f5f5f5;padding:0 .2rem;overflow-wrap:anywhere}
h2{border-bottom:1px solid #ddd;margin-top:2.5rem}p.files{font-size:.85rem;color:#555}
p.files,li{overflow-wrap:anywhere}
details.appendix{margin-top:2.5rem}details.appendix>summary{font-size:1.3rem;cursor:pointer}
@media (max-width:40rem){
body{margin:1rem auto;padding:0 .6rem}
table.stack,table.stack tbody,table.stack tr,table.stack td{display:block;width:auto}
table.stack thead{display:none}
table.stack tr{border:1px solid #ccc;margin:.4rem 0;padding:.15rem .3rem}
table.stack td{border:none;border-bottom:1px dotted #ddd;text-align:right;white-space:normal}
table.stack td:last-child{border-bottom:none}
table.stack td::before{content:attr(data-label);float:left;text-align:left;color:#555;
padding-right:.6rem;font-weight:600}
}
"""


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
        """Show ``shown`` under ``title`` and write ``data`` (its source) as ``csv``.

        The shown columns' names are headings in words, marked for the catalogues where
        they are written (``N_("fall rate [95 % CI]")``): they are translated here.
        """
        self.csvs[csv] = data
        self.blocks.append(Table(title, note, shown.rename(heading_words(shown.columns)), csv))

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
                parts.append(_("More data: {files}.").format(files=listed))
            else:
                head = f"### {block.title}"
                if block.note:
                    head += f"\n\n{block.note}"
                files = (
                    "\n\n" + _("Data: {file}.").format(file=f"`{block.csv}`") if block.csv else ""
                )
                parts.append(f"{head}\n\n{to_markdown(shown_text(block.frame)).rstrip()}{files}")
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
                parts.append(
                    f'<p class="files">{_("More data: {files}.").format(files=listed)}</p>'
                )
            else:
                parts.append(f"<h3>{html.escape(block.title)}</h3>")
                if block.note:
                    parts.append(f"<p>{inline_html(block.note)}</p>")
                parts.append(html_table(block.frame))
                if block.csv:
                    link = f'<a href="{block.csv}">{block.csv}</a>'
                    parts.append(f'<p class="files">{_("Data: {file}.").format(file=link)}</p>')
        parts.append("</section>")
        return "\n".join(parts)


def cell_text(v: object) -> str:
    """One cell as a page writes it: a number as the language does, a null as ``—``."""
    if v is None:
        return "—"
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, float):
        return number(v, 4)
    if isinstance(v, int):
        return number(v)
    return str(v)


def shown_text(df: pl.DataFrame) -> pl.DataFrame:
    """A shown table with every cell as the page writes it (numbers as the language does).

    Integers grouped (``4,084``; ``4 084`` in Russian and Ukrainian, ``4084`` and
    ``12 345`` in Polish), other numbers to four decimals, nulls as an em dash: the Markdown page's
    cells then read as the HTML page's.
    """
    return pl.DataFrame(
        {c: [cell_text(v) for v in df[c].to_list()] for c in df.columns},
        schema=dict.fromkeys(df.columns, pl.String),
    )


def heading_words(columns: Sequence[str]) -> dict[str, str]:
    """``{column: its heading in the current language}`` of a shown table's columns."""
    return {c: _(c) for c in columns}


def clipped(fig: Figure, drawn: bool = False) -> bool:
    """Whether something drawn (a title, a legend, a label) reaches past the canvas.

    The figure's tight bounding box (everything it draws) must lie within its
    canvas; a suptitle or a figure legend wider than the figure does not. ``drawn``:
    the figure was just drawn (saved), so its layout is known without drawing again.
    """
    if not drawn:
        fig.canvas.draw()
    tight = fig.get_tightbbox(fig.canvas.get_renderer())  # type: ignore[attr-defined]
    box = fig.bbox_inches
    slack = 0.02  # inches: anti-aliasing of a glyph at the very edge
    return bool(
        tight.x0 < box.x0 - slack
        or tight.y0 < box.y0 - slack
        or tight.x1 > box.x1 + slack
        or tight.y1 > box.y1 + slack
    )


def figure_png(fig: Figure) -> bytes:
    """The figure as a small PNG (256-colour palette), closing the figure.

    Raises:
        ValueError: the figure's title, legend or labels reach past its canvas (they
            would be cut off in the PNG).
    """
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.set_dpi(DPI)  # laid out at the resolution it is saved at: the check sees the PNG's
    fig.savefig(buf, format="png", dpi=DPI)
    if clipped(fig, drawn=True):
        title = fig.get_suptitle() or (fig.axes[0].get_title() if fig.axes else "")
        plt.close(fig)
        raise ValueError(f"figure {title!r}: its title, legend or labels are cut off")
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


# a cell that starts with a number (``0.57 [0.55, 0.59]``, ``89 % [88, 89]`` with no-break
# spaces, ``130: 78 % [74, 81]``, ``2+``), or a dash: right-aligned, broken only at spaces
_NUMERIC = re.compile(r"^[-+−]?[\d.,\u00a0]+\+?:?( |\u00a0|$|\[)|^—$")


STACK_FROM = 4
"""Tables of this many columns or more become stacked cards on a phone (one card per
row, each value under its heading): eight columns do not fit a 390 px screen."""


def html_table(df: pl.DataFrame) -> str:
    """An HTML table of a small frame; numbers right-aligned, nulls as an em dash.

    Each cell carries its column's heading (``data-label``): on a narrow screen a table of
    :data:`STACK_FROM` or more columns shows each row as a card of labelled values.
    """

    def cell(v: object, label: str) -> str:
        attr = f' data-label="{label}"'
        text = cell_text(v)
        numeric = v is None or (isinstance(v, int | float) and not isinstance(v, bool))
        cls = ' class="n"' if numeric or _NUMERIC.match(text) else ""
        return f"<td{cls}{attr}>{html.escape(text)}</td>"

    labels = [html.escape(c) for c in df.columns]
    head = "".join(f"<th>{label}</th>" for label in labels)
    rows = "".join(
        "<tr>" + "".join(cell(v, label) for v, label in zip(r, labels, strict=True)) + "</tr>"
        for r in df.iter_rows()
    )
    stack = ' class="stack"' if df.width >= STACK_FROM else ""
    return (
        f'<div class="scroll"><table{stack}><thead><tr>{head}</tr></thead>'
        f"<tbody>{rows}</tbody></table></div>"
    )


def _decimals(v: float) -> int:
    """Decimal places that show about four significant digits of ``v`` (0 to 6)."""
    if v == 0 or not math.isfinite(v):
        return 0
    return min(6, max(0, 3 - math.floor(math.log10(abs(v)))))


def is_missing(v: float | None) -> bool:
    """Whether a cell's value is null or NaN."""
    return v is None or (isinstance(v, float) and math.isnan(v))


def fmt_number(v: float | None, decimals: int | None = None) -> str:
    """A number for a table cell: about four significant digits, ``—`` for null or NaN.

    Args:
        v: the number.
        decimals: decimal places to use instead of the automatic choice.
    """
    if v is None or is_missing(v):
        return "—"
    places = _decimals(v) if decimals is None else decimals
    return number(v, places)


def fmt_interval(est: float | None, low: float | None, high: float | None) -> str:
    """``estimate [low, high]`` with one number of decimals for all three; ``—`` if no estimate."""
    if est is None or is_missing(est):
        return "—"
    places = max(_decimals(v) for v in (est, low, high) if v is not None and not is_missing(v))
    return interval(fmt_number(est, places), fmt_number(low, places), fmt_number(high, places))


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


def number_column(df: pl.DataFrame, column: str, name: str | None = None) -> pl.Series:
    """A column's numbers as strings of :func:`fmt_number` (for a shown table)."""
    return pl.Series(name or column, [fmt_number(v) for v in df[column]], dtype=pl.String)


def wilson_column(df: pl.DataFrame, hits: str, n: str, name: str) -> pl.Series:
    """``hits / n`` with its Wilson interval as an ``estimate [low, high]`` string column."""
    k = df[hits].cast(pl.Float64).to_numpy()
    m = df[n].cast(pl.Float64).to_numpy()
    low, high = wilson_interval(k, m)
    values = [
        fmt_interval(a / b if b else None, lo, hi)
        for a, b, lo, hi in zip(k.tolist(), m.tolist(), low.tolist(), high.tolist(), strict=True)
    ]
    return pl.Series(name, values, dtype=pl.String)


def pct(p: float, lo: float, hi: float) -> str:
    """A share as percent with its interval: ``28.6 % [28.4, 28.8]``."""
    return interval(f"{number(100 * p, 1)} %", number(100 * lo, 1), number(100 * hi, 1))


APPENDIX = "appendix"
"""The anchor of the analysts' appendix (a folded part at the end of a page)."""


def render_pages(
    title: str,
    header: str,
    sections: Sequence[Section],
    footer_md: str,
    files_html: str,
    appendix: Sequence[Section] = (),
) -> tuple[str, str]:
    """A report's Markdown and its HTML page: title, header, contents, the sections.

    ``footer_md`` ends the Markdown; ``files_html`` lists the data files on the page.
    ``appendix``: sections for analysts (how the numbers were made and checked), after
    the others under one heading, folded on the page until opened (a link to one of
    them opens it).
    """
    folded = _("For analysts: how the numbers were made and checked")

    def contents(items: Sequence[Section], md: bool) -> str:
        if md:
            return "\n".join(f"- [{s.title}](#{s.anchor})" for s in items)
        return "".join(f'<li><a href="#{s.anchor}">{html.escape(s.title)}</a></li>' for s in items)

    contents_md = contents(sections, True)
    appendix_md: list[str] = []
    if appendix:
        contents_md += f"\n- [{folded}](#{APPENDIX})\n" + "\n".join(
            f"  {line}" for line in contents(appendix, True).splitlines()
        )
        appendix_md = [f"# {folded}\n", *(s.markdown for s in appendix)]
    md = "\n".join(
        [
            f"# {title}",
            "",
            header,
            "",
            contents_md,
            "",
            *(s.markdown for s in sections),
            *appendix_md,
        ]
    )
    md += f"\n{footer_md}\n"
    contents_html = contents(sections, False)
    body = "\n".join(s.html for s in sections)
    if appendix:
        contents_html += (
            f'<li><a href="#{APPENDIX}">{html.escape(folded)}</a>'
            f"<ul>{contents(appendix, False)}</ul></li>"
        )
        summary = f"<summary>{html.escape(folded)}</summary>"
        folded_html = "\n".join(s.html for s in appendix)
        body += f'\n<details class="appendix" id="{APPENDIX}">{summary}\n{folded_html}\n</details>'

    page = f"""<!doctype html><html lang="{language()}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>
<h1>{html.escape(title)}</h1>
<p>{inline_html(header)}</p>
<ul>{contents_html}</ul>
{body}
<p class="files">{_("Data: {files}").format(files=files_html)}</p>
</body></html>
"""
    return md, page


def write_pages(
    folder: Path,
    title: str,
    header: str,
    sections: Sequence[Section],
    md_name: str,
    appendix: Sequence[Section] = (),
) -> None:
    """Write the sections' figures and CSVs, ``md_name`` and ``index.html`` into ``folder``.

    The page lists ``run.json`` and ``md_name`` as its data files; ``md_name`` ends by
    pointing at both. ``appendix``: the analysts' sections (:func:`render_pages`).
    """
    for sec in (*sections, *appendix):
        for name, png in sec.figures.items():
            (folder / name).write_bytes(png)
        for name, frame in sec.csvs.items():
            frame.write_csv(folder / name)
    md, page = render_pages(
        title,
        header,
        sections,
        _("Rules, sizes and versions: `run.json`. The same page in HTML: `index.html`."),
        '<a href="run.json">run.json</a> ({}),\n<a href="{}">{}</a> ({}).'.format(
            html.escape(_("rules, sizes, versions")),
            md_name,
            md_name,
            html.escape(_("the same page in Markdown")),
        ),
        appendix,
    )
    (folder / md_name).write_text(md, encoding="utf-8")
    (folder / "index.html").write_text(page, encoding="utf-8")
