"""The page for players: the guide's answers on one printable page, in the player's language.

Four answers a player asks at the table, each one sentence with its interval and the
player that measured it: how high to bid (with a bid chart narrow enough for a phone),
what the talon brings, when to concede, and the barrel. ``thousand guide
--player-page`` writes it as ``player.html`` (A4 when printed, one column on a phone)
and ``player.md``; the report opens with it. The words are translated through
:mod:`sim.i18n`, the cards in each language's notation.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import polars as pl

from analysis.guide import GUIDE_PLAYER, GuideTables
from analysis.pages import Section, Text, inline_html
from analysis.tables import to_markdown
from sim.i18n import _, language, number, role

MARRIAGE_ORDER = ("♥", "♦", "♣", "♠", "none")

PAGE_CSS = """
body{font-family:system-ui,sans-serif;max-width:44rem;margin:1.2rem auto;padding:0 .8rem;
color:#222;line-height:1.4}
h1{font-size:1.3rem}h2{font-size:1.05rem;margin:1rem 0 .3rem}
table{border-collapse:collapse;font-size:.95rem;width:100%;max-width:22rem}
td,th{border:1px solid #ccc;padding:.2rem .4rem;text-align:left}th{background:#f3f3f3}
td:nth-child(n+2){text-align:right}p{margin:.3rem 0}.who{color:#555;font-size:.85rem}
@media print{@page{size:A4;margin:14mm}body{margin:0;max-width:none;font-size:10.5pt}}
"""


def _rate_text(p: float | None, low: float | None, high: float | None) -> str:
    """A rate with its interval in whole percent: ``28 % [25, 31]``."""
    if p is None or low is None or high is None:
        return "—"
    return f"{100 * p:.0f} % [{100 * low:.0f}, {100 * high:.0f}]"


def _pct(p: float | None) -> str:
    return "—" if p is None else f"{100 * p:.0f} %"


def _made_100(row: dict[str, Any]) -> str:
    """The class's make rate at 100 with its Wilson interval (from its hands)."""
    from analysis.stats import wilson_interval

    n, p = int(row["n"]), row["rate_100"]
    if p is None or not n:
        return "—"
    low, high = wilson_interval(round(p * n), n)
    return _rate_text(p, float(low), float(high))


def _marriage(m: str) -> str:
    return _("no marriage") if m == "none" else _("{suits} marriage").format(suits=m)


def bid_answer(guide: GuideTables) -> tuple[str, pl.DataFrame]:
    """How high to bid: a sentence and the chart (marriage, bid up to at 75 %, makes 100)."""
    chart = guide.bid_chart.filter(pl.col("player") == GUIDE_PLAYER)
    rows = {r["marriages"]: r for r in chart.iter_rows(named=True)}
    shown = [m for m in MARRIAGE_ORDER if m in rows]
    table = pl.DataFrame(
        {
            _("marriage"): [_marriage(m) for m in shown],
            _("bid up to (75 %)"): [
                role("pass") if rows[m]["safe_75"] is None else str(rows[m]["safe_75"])
                for m in shown
            ],
            _("makes 100"): [_made_100(rows[m]) for m in shown],
        }
    )
    best = next((m for m in shown if rows[m]["safe_75"] is not None), None)
    if best is None:
        sentence = _("At a 75 % make rate no hand with one marriage or none is safe even at 100.")
    else:
        sentence = _(
            "Holding the {marriage} alone, bid up to {level}: such hands make it at least "
            "3 times in 4 ({n} hands played)."
        ).format(marriage=_marriage(best), level=rows[best]["safe_75"], n=number(rows[best]["n"]))
    return sentence, table


def talon_answer(guide: GuideTables) -> str:
    """What the talon brings: the partner of a lone king or queen, measured beside exact."""
    row = guide.completion.filter(pl.col("lone_halves") == 1)
    if row.is_empty():
        return _("The talon's odds need more hands than this guide played.")
    r = row.row(0, named=True)
    return _(
        "A lone king or queen finds its partner in the talon in {rate} of deals (exact {exact})."
    ).format(rate=_rate_text(r["measured"], r["ci_low"], r["ci_high"]), exact=_pct(r["exact"]))


def concede_answer(guide: GuideTables) -> str:
    """When to concede: the lowest contract at which conceding scores more, or never."""
    better = guide.concede.filter(pl.col("better") == "concede")
    if better.is_empty():
        return _("Do not concede: at every contract measured, playing on scores more.")
    first = better.sort("contract").row(0, named=True)
    return _(
        "Concede a contract of {contract} or more when you kept {kept}: you make it in only "
        "{rate} of deals, and conceding costs less than playing."
    ).format(
        contract=first["contract"],
        kept=_marriage(first["kept"]),
        rate=_rate_text(first["p_make"], first["ci_low"], first["ci_high"]),
    )


def barrel_answer(guide: GuideTables) -> str:
    """The barrel: the share of climbs that end in a fall."""
    b = guide.barrel.row(0, named=True) if len(guide.barrel) else None
    if b is None or not b["climbs"]:
        return _("Nobody climbed onto the barrel in this guide's games.")
    return _(
        "{rate} of climbs onto the barrel end in a fall ({climbs} climbs in {games} games)."
    ).format(
        rate=_rate_text(b["fall_share"], b["ci_low"], b["ci_high"]),
        climbs=number(b["climbs"]),
        games=number(b["games"]),
    )


def player_section(guide: GuideTables) -> Section:
    """The page for players as one section (the report's first)."""
    sentence, chart = bid_answer(guide)
    sec = Section("players", _("For players"))
    who = _("Every number: hands played by `{player}` at every seat, with its 95 % interval.")
    sec.blocks.append(Text(who.format(player=GUIDE_PLAYER)))
    sec.blocks.append(Text(f"**{_('How high to bid.')}** {sentence}"))
    # the data behind it is the guide's own chart (columns in English, as every CSV)
    sec.add_table(_("Bid chart"), "", chart, "guide_bid_chart.csv", guide.bid_chart)
    for title, text in (
        (_("What the talon brings."), talon_answer(guide)),
        (_("When to concede."), concede_answer(guide)),
        (_("The barrel."), barrel_answer(guide)),
    ):
        sec.blocks.append(Text(f"**{title}** {text}"))
    return sec


def write_player_page(
    folder: Path, guide: GuideTables, rules_name: str, name: str = "player"
) -> dict[str, Any]:
    """Write ``NAME.html`` (one printable page) and ``NAME.md`` into ``folder``."""
    sentence, chart = bid_answer(guide)
    title = _("Thousand, {rules}: what to bid, the talon, conceding, the barrel").format(
        rules=rules_name
    )
    who = _("Every number: hands played by `{player}` at every seat, with its 95 % interval.")
    answers = [
        (_("How high to bid."), sentence),
        (_("What the talon brings."), talon_answer(guide)),
        (_("When to concede."), concede_answer(guide)),
        (_("The barrel."), barrel_answer(guide)),
    ]
    head = "".join(f"<th>{html.escape(c)}</th>" for c in chart.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>"
        for row in chart.iter_rows()
    )
    table = f"<table><tr>{head}</tr>{body}</table>"
    parts = [
        f"<h1>{html.escape(title)}</h1>",
        f'<p class="who">{inline_html(who.format(player=GUIDE_PLAYER))}</p>',
    ]
    for k, (t, text) in enumerate(answers):
        parts.append(f"<h2>{html.escape(t)}</h2><p>{inline_html(text)}</p>")
        if k == 0:
            parts.append(table)
    page = (
        f'<!doctype html><html lang="{language()}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{PAGE_CSS}</style></head><body>"
        + "\n".join(parts)
        + "</body></html>\n"
    )
    md_table = to_markdown(chart).rstrip()
    md = [f"# {title}", "", who.format(player=GUIDE_PLAYER), ""]
    for k, (t, text) in enumerate(answers):
        md += [f"## {t}", "", text, ""]
        if k == 0:
            md += [md_table, ""]
    (folder / f"{name}.html").write_text(page, encoding="utf-8")
    (folder / f"{name}.md").write_text("\n".join(md), encoding="utf-8")
    return {"title": title, "answers": answers, "chart": chart}
